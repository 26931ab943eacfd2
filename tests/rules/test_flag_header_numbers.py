"""A flag column whose header quotes a number other than the law's: an answer that does not establish the law's
fact makes no definite offence (treecalc.rules.flag_bounds).

Croton-on-Hudson §208-19A(3): a permit for trees of 4 in DBH or more "growing on slopes of over 20%"; §208-29B
tiers: (1) up to 8 in $500, (2) over 8 to 12 in $1,500, (3) over 12 in $3,000; §208-29A $250 per tree. The lot's
parcel facts are given (not subdividable, a residence, no site plan), so the slope is the only trigger.
"""

from __future__ import annotations

import pytest

from treecalc import assess
from treecalc.ingest import read_survey

CROTON_SITE = {"subdividable": False, "has_residence": True, "site_plan_required": False}
#: Wesley Hills §95-3A(1)(e): 6 in or more within 20 ft of a lot line, no one-family certificate of occupancy
#: (given: none issued); penalties A: up to $5,000 per tree removed without the permit. The lot is under the
#: §95-3A(1)(d) acreage, so the lot line is the only trigger.
WESLEY_SITE = {"has_residence": True, "lot_area_acres": 0.5, "one_family_co_issued": False}


#: tree 1: 14 in, removed, yes; tree 2: 20 in, removed, no (both tier (3), over 12 in)
SLOPE_ROWS = "1,Acer rubrum,14,Removed,yes\n2,Quercus rubra,20,Removed,no\n"


def _lot(header: str, rows: str):
    text = f"Tag,Species,DBH (in),Action,{header}\n{rows}"
    return read_survey(text.encode("utf-8"), filename="crew.csv")


def _slope(header: str):
    """The two-tree slope lot under ``header``: the assessment's penalties and the warning naming the header."""
    a = assess(_lot(header, SLOPE_ROWS), site=CROTON_SITE)
    return a.penalties, [w for w in a.warnings if header in w]


def test_a_yes_under_a_lower_slope_makes_no_definite_offence():
    # "Slope over 10%": tree 1's yes (over 10%) does not say over 20%: its offence (14 in removed, tier (3),
    # $3,000; §208-29A $250) is conditional; tree 2's no (10% or less) says not over 20%: no trigger, no offence
    pen, (said,) = _slope("Slope over 10%")
    assert (pen.civil_penalty_max_usd, pen.criminal_fine_max_usd) == (0, 0)
    assert (pen.civil_penalty_conditional_usd, pen.criminal_fine_conditional_usd) == (3000, 250)
    assert pen.offences_definite == 0 and pen.offences_conditional == 1
    assert "its number is 10, not 20" in said and "§208-19A(3)" in said and "tags 1)" in said


def test_a_no_under_a_higher_slope_makes_no_definite_absence_and_a_yes_stays_definite():
    # "Slope over 30%": tree 1's yes (over 30%) is over 20%: definite, $3,000 + $250; tree 2's no (30% or
    # less) may still be over 20%: its 20 in removal (tier (3)) is conditional, $3,000 + $250
    pen, (said,) = _slope("Slope over 30%")
    assert (pen.civil_penalty_max_usd, pen.criminal_fine_max_usd) == (3000, 250)
    assert (pen.civil_penalty_conditional_usd, pen.criminal_fine_conditional_usd) == (3000, 250)
    assert "'no' answer(s)" in said and "tags 2)" in said


@pytest.mark.parametrize("header", ["Slope over 20%", "Slope >20 %", "Steep slope"])
def test_a_header_at_the_laws_number_or_without_one_is_read_as_before(header):
    # over 20% (or no number: the column is the law's flag): tree 1's yes is definite, $3,000 + $250
    pen, said = _slope(header)
    assert (pen.civil_penalty_max_usd, pen.civil_penalty_conditional_usd) == (3000, 0)
    assert not said


def test_a_yes_within_a_wider_distance_of_the_lot_line_makes_no_definite_fine():
    # "Within 25 ft of lot line": tree 1's yes (25 ft or nearer) does not say within 20 ft: its fine (12 in,
    # removed) is conditional, up to $5,000; tree 2's no (farther than 25 ft) says not within 20 ft: no trigger
    rows = "1,Acer rubrum,12,Removed,yes\n2,Quercus rubra,14,Removed,no\n"
    a = assess(_lot("Within 25 ft of lot line", rows), jurisdiction="wesley_hills", site=WESLEY_SITE)
    assert (a.penalties.fine_max_usd, a.penalties.fine_conditional_usd) == (0, 5000)
    (said,) = [w for w in a.warnings if "Within 25 ft" in w]
    assert "its number is 25, not 20" in said and "§95-3A(1)(e)" in said
    # at the law's 20 ft, the same answers are definite: tree 1 up to $5,000
    b = assess(_lot("Within 20 ft of lot line", rows), jurisdiction="wesley_hills", site=WESLEY_SITE)
    assert (b.penalties.fine_max_usd, b.penalties.fine_conditional_usd) == (5000, 0)


#: two 6 in trees removed, tree 1 answered yes and tree 2 no: tier (1), up to $500 each (§208-29B(1))
SMALL_ROWS = "1,Acer rubrum,6,Removed,yes\n2,Acer rubrum,6,Removed,no\n"


@pytest.mark.parametrize(
    "header",
    [
        "Slope < 20%",  # under 20%: another comparison at the law's own number
        "Slope under 25%",
        "Slope 15-25%",  # a band: two numbers
        "Slope over 11 deg",  # degrees: 11 degrees is about 19.4%, not over 20%
        "Slope over 11°",
        "Not on slope over 10%",  # a negation
        "Slope 20%+",  # 20% or more: exactly 20% is not "over 20%"
    ],
)
def test_a_header_that_says_another_fact_than_the_laws_establishes_neither_answer(header):
    # neither the yes nor the no says "over 20%": both removals are conditional, $500 + $500, none definite
    a = assess(_lot(header, SMALL_ROWS), site=CROTON_SITE)
    assert (a.penalties.civil_penalty_max_usd, a.penalties.civil_penalty_conditional_usd) == (0, 1000)
    (said,) = [w for w in a.warnings if header in w]
    assert "its words are not the law's comparison" in said and "tags 1, 2)" in said


@pytest.mark.parametrize(
    "header", ["More than 15 ft from lot line", "Within 10 m of lot line", "Within 8 yds of lot line"]
)
def test_a_lot_line_header_in_another_unit_or_sense_establishes_neither_answer(header):
    # §95-3A(1)(e) within 20 ft: two 8 in trees removed, neither answer says within 20 ft: up to $5,000 each, both
    # conditional
    a = assess(_lot(header, SMALL_ROWS.replace(",6,", ",8,")), jurisdiction="wesley_hills", site=WESLEY_SITE)
    assert (a.penalties.fine_max_usd, a.penalties.fine_conditional_usd) == (0, 10000)


@pytest.mark.parametrize("header", ["Slope over 20% (Y/N)", "On steep slope (>20%)?", "Slope", "slope gt 20"])
def test_a_header_in_the_laws_words_reads_both_answers(header):
    # over 20% (or the flag without a number): tree 1's yes is a definite offence, $500; tree 2's no none
    a = assess(_lot(header, SMALL_ROWS), site=CROTON_SITE)
    assert (a.penalties.civil_penalty_max_usd, a.penalties.civil_penalty_conditional_usd) == (500, 0)


@pytest.mark.parametrize(
    ("header", "definite", "conditional"),
    [
        # a hundredth below the law's 20%: tree 1's yes (over 19.99%) may be 20% or less: conditional $500
        ("Slope over 19.99%", 0, 500),
        # on it: the law's own fact, tree 1 definite $500, tree 2's no none
        ("Slope over 20%", 500, 0),
        ("Slope over 20.00%", 500, 0),
        # a hundredth above: tree 1's yes is over 20%, definite; tree 2's no (20.01% or less) may be over 20%
        ("Slope over 20.01%", 500, 500),
    ],
)
def test_a_header_a_hundredth_either_side_of_the_laws_number(header, definite, conditional):
    a = assess(_lot(header, SMALL_ROWS), site=CROTON_SITE)
    assert (a.penalties.civil_penalty_max_usd, a.penalties.civil_penalty_conditional_usd) == (definite, conditional)


@pytest.mark.parametrize(
    ("header", "jurisdiction", "site", "definite"),
    [
        # treecalc's own column names, as its exports and JSON write them: the law's flag at the law's number.
        # §208-19A(3): tree 1's yes is a definite offence, 6 in tier (1) $500; tree 2's no none
        ("slope_over_20pct", "croton_on_hudson", CROTON_SITE, 500),
        # §95-3A(1)(e): tree 1 (6 in, within 20 ft, no certificate) removed: up to $5,000; tree 2's no none
        ("within_20ft_of_lot_line", "wesley_hills", WESLEY_SITE, 5000),
    ],
)
def test_a_snake_case_header_at_the_laws_number_reads_both_answers(header, jurisdiction, site, definite):
    a = assess(_lot(header, SMALL_ROWS), jurisdiction=jurisdiction, site=site)
    pen = a.penalties
    got = pen.fine_max_usd if jurisdiction == "wesley_hills" else pen.civil_penalty_max_usd
    conditional = pen.fine_conditional_usd if jurisdiction == "wesley_hills" else pen.civil_penalty_conditional_usd
    assert (got, conditional) == (definite, 0)
    assert not [w for w in a.warnings if header in w]
