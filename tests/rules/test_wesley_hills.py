"""Wesley Hills Chapter 95 called directly: facts not given and how they are parsed, and the Croton-only options.
The worked scenarios of §95-3A(1)(c)-(e), §95-3C(2) and §95-3D(2) with the $5,000-per-tree fine are data in
tests/cases/wesley_hills/, run through the command's JSON by tests/cases/test_law_cases.py."""

import re

from tests.helpers.rules import make_trees
from treecalc.ingest.site import resolve_site
from treecalc.law import cites
from treecalc.law.registry import OptionsNotRead, by_key, check_options, said
from treecalc.report.json import assessment_json
from treecalc.rules import law
from treecalc.rules import wesley_hills as W

LAW = law("wesley_hills")


def ev(rows, **site):
    s, _ = resolve_site(site, W.SITE_DEFAULTS)
    return W.evaluate(make_trees(rows), s, LAW)


def test_unknown_facts_are_conservative_and_stated():
    r = ev([{"dbh_in": 12, "within_20ft_of_lot_line": None}])
    # vacant assumed (c), 1.5 acres+ and distance unknown -> far (d), no CO and lot line unknown -> near (e)
    assert r.triggers == [["§95-3A(1)(c)", "§95-3A(1)(d)", "§95-3A(1)(e)"]]
    assert len(r.assumptions) == 2


# --- review fixes -------------------------------------------------------------------------------
import pytest  # noqa: E402

SMALL_LOT_WITH_CO = {"has_residence": True, "lot_area_acres": 0.5, "one_family_co_issued": True}


def test_vacant_lot_false_text_is_false():
    # "false" given as text must not read as True: no (c) for a 12 in tree; small lot with CO so (d), (e) off
    r = ev([{"dbh_in": 12}], vacant_lot="false", **{**SMALL_LOT_WITH_CO, "has_residence": False})
    assert r.triggers == [[]] and r.fine_usd.sum() == 0
    r = ev([{"dbh_in": 12}], vacant_lot="yes", **SMALL_LOT_WITH_CO)
    assert r.triggers == [["§95-3A(1)(c)"]]
    with pytest.raises(ValueError, match="vacant_lot"):
        ev([{"dbh_in": 12}], vacant_lot="sometimes")


def test_lot_line_not_surveyed_is_unknown_not_false():
    # the reader filled within_20ft_of_lot_line with False because the survey had no column:
    # an 8 in removal on a lot without CO is then assumed within 20 ft -> (e), $5,000, and said so
    rows = [{"dbh_in": 8, "within_20ft_of_lot_line": False}]
    s, _ = resolve_site({"has_residence": True, "lot_area_acres": 0.5, "one_family_co_issued": False}, W.SITE_DEFAULTS)
    assert W.evaluate(make_trees(rows), s, LAW).triggers == [[]]  # surveyed as not near: no (e)
    r = W.evaluate(make_trees(rows), s, LAW, flags_not_surveyed=["within_20ft_of_lot_line", "wetland"])
    assert r.triggers == [["§95-3A(1)(e)"]] and r.fine_usd.sum() == 5000
    assert any("no lot-line column" in a for a in r.assumptions)


# -- options only Croton-on-Hudson Chapter 208 reads: an error for Wesley Hills, never silently dropped ------
def _wh_survey():
    from types import SimpleNamespace

    import pandas as pd

    rows = [{"species_code": "ACRU", "dbh_in": 12, "action": "removed", "within_20ft_of_lot_line": False}]
    site = {"has_residence": False, "lot_area_acres": 0.5, "one_family_co_issued": False}
    return SimpleNamespace(
        trees=make_trees(rows), rejected=pd.DataFrame(), site=site, site_assumptions=[], warnings=[], rows_read=1
    )


#: A value other than assess()'s default for every Croton-only keyword.
GIVEN = {
    "violation": False,  # given as no: still a Chapter 208 fact, not one of Chapter 95
    "application_pending": True,
    "clear_cutting": True,
    "replacement_percent": 150,
    "replacement_stock": [{"species": "ACRU", "dbh_in": 2, "unit_cost_usd": 400}],
    "replacement_species": "ACRU",
    "replacement_dbh_in": 3.0,
    "replacement_height_ft": 6.0,
    "replacement_cost_usd": "450",
    "plantable": 2,
    "plantable_area_sqft": 400.0,
    "fee_schedule": {"basis": "per_tree", "fee_per_tree_usd": "300"},
    "fee_per_tree_usd": "300",
    "in_lieu_policy": "fund_first",
    "size_waiver": True,
}


#: The options only Croton-on-Hudson Chapter 208 reads, as its record declares them (keyword -> section, what).
#: each option's label as the law in force today numbers its sections (the record names the entries)
CHAPTER_208_OPTIONS = {
    k: said(w, cites.sections("croton_on_hudson")) for k, w in by_key("croton_on_hudson").options.items()
}


def test_every_croton_only_option_has_a_given_value_here():
    assert set(GIVEN) == set(CHAPTER_208_OPTIONS)


WHY = "Wesley Hills Chapter 95 has no violation standard, replacement, tree fund or doubling"


@pytest.mark.parametrize("name", sorted(GIVEN))
def test_a_croton_only_option_given_for_wesley_hills_is_said_and_check_options_refuses_it(name):
    from treecalc.assessment import AssessOptions, assess

    section = CHAPTER_208_OPTIONS[name]
    plain = assess(_wh_survey(), jurisdiction="wesley_hills")
    a = assess(_wh_survey(), jurisdiction="wesley_hills", **{name: GIVEN[name]})
    # before: the option was dropped without a word (replacement_percent alone had a warning of its own)
    said = f"{name} is a Croton-on-Hudson Chapter 208 option ({section}): {WHY}, so it is not used"
    assert said in a.warnings and said not in plain.warnings
    # the findings are Chapter 95's either way: one tree, 12 in, removed on a vacant lot (c): 1 x $5,000
    assert assessment_json(a)["fine_max_usd"] == assessment_json(plain)["fine_max_usd"] == 5000
    # check_options (what the command line applies) refuses it with a ValueError naming it
    with pytest.raises(ValueError, match=rf"^{name} is a Croton-on-Hudson Chapter 208 option \({re.escape(section)}\)"):
        check_options("wesley_hills", AssessOptions(**{name: GIVEN[name]}), cites.sections)


def test_two_croton_only_options_are_named_together_and_defaults_never_count():
    from treecalc.assessment import AssessOptions, assess

    with pytest.raises(OptionsNotRead, match=r"^plantable, fee_per_tree_usd are Croton-on-Hudson Chapter 208 "):
        check_options("wesley_hills", AssessOptions(fee_per_tree_usd="300", plantable=2), cites.sections)
    # the defaults given explicitly, and the options Chapter 95 reads (days: other violations; value basis)
    defaults = {"replacement_percent": None, "in_lieu_policy": "plant_first", "size_waiver": False}
    check_options("wesley_hills", AssessOptions(continuing_days=3, value_basis="appraised", **defaults), cites.sections)
    a = assess(_wh_survey(), jurisdiction="wesley_hills", continuing_days=3, value_basis="appraised", **defaults)
    assert not [w for w in a.warnings if "Croton-on-Hudson Chapter 208 option" in w]
    # one tree, 12 in, removed on a vacant lot (c): 1 x $5,000; no other violation is assessed, so no days total
    assert assessment_json(a)["fine_max_usd"] == 5000 and a.summary.other_violation_max_usd is None


# -- a blank flag cell is a fact not given, never a "no" --------------------------------------------------------
def _read_wh_csv(text: str):
    from treecalc.ingest import read_survey

    site = {"jurisdiction": "wesley_hills", "has_residence": "yes", "lot_area_acres": "0.5"}
    return read_survey(text.encode("utf-8"), filename="lot.csv", site={**site, "one_family_co_issued": "no"})


def test_blank_lot_line_cell_is_unknown_and_makes_a_conditional_offence():
    # A 0.5 acre lot with a residence and no one-family CO: (c) needs a vacant lot and (d) 1.5 acres, so only
    # §95-3A(1)(e) (6 in or more within 20 ft of a lot line) can apply. Three 8 in maples removed:
    #   tag 1, lot-line cell blank -> not given: within 20 ft is the cautious reading, so the offence is
    #          conditional on it: $5,000 in fine_conditional_usd, none in fine_max_usd;
    #   tag 2, "no"  -> not near a lot line: no (e), no fine;
    #   tag 3, "yes" -> (e) on a fact given: definite, $5,000 in fine_max_usd.
    from treecalc import assess

    s = _read_wh_csv(
        "Tag,Species,DBH,Action,Within 20 ft of lot line\n"
        "1,Acer rubrum,8,removed,\n"
        "2,Acer rubrum,8,removed,no\n"
        "3,Acer rubrum,8,removed,yes\n"
    )
    assert s.trees["within_20ft_of_lot_line"].isna().tolist() == [True, False, False]
    a = assess(s, jurisdiction="wesley_hills")
    assert a.trees["permit_triggers"].tolist() == ["§95-3A(1)(e)", "", "§95-3A(1)(e)"]
    assert a.trees["offence_status"].tolist() == ["conditional", "", "definite"]
    j = assessment_json(a)
    assert j["fine_max_usd"] == 5000 and j["fine_conditional_usd"] == 5000
    assert j["offence_rows"][0]["depends_on"].startswith("within_20ft_of_lot_line not given")
    assert any("1 tree(s) without within_20ft_of_lot_line" in x for x in a.assumptions)


def test_every_blank_flag_cell_is_not_given():
    # the reader keeps a blank cell of any flag column as not given (NA), a "no" as False and a "yes" as True;
    # the rules decide what a fact not given means (Chapter 208 reads its flags as before)
    s = _read_wh_csv(
        "Tag,Species,DBH,Action,Street tree,Wetland,Hazardous\n"
        "1,Acer rubrum,8,retain,,yes,\n"
        "2,Acer rubrum,8,retain,no,,no\n"
    )
    t = s.trees
    assert t["street_tree"].isna().tolist() == [True, False] and bool(t["street_tree"][1]) is False
    assert t["wetland"].isna().tolist() == [False, True] and bool(t["wetland"][0]) is True
    assert t["hazardous"].isna().tolist() == [True, False]
