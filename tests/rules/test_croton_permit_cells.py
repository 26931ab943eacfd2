"""Chapter 208: a tree's own permit as field software writes it, and the count of removals made without one.

Penalties worked by hand from §208-29A/B (data/law/croton_on_hudson/ch208_trees.toml): tier (1) up to 8 in $500,
tier (2) over 8 to 12 in $1,500, tier (6) protected native $7,500; criminal $250 a tree, $5,000 a tree
for a violation of §208-18.
"""

import pandas as pd
import pytest

from tests.helpers.rules import FLAT_HOUSE_LOT, STOCK, write_csv
from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json


def by_tag(a, col):
    return dict(zip(a.trees["tag"].astype(str), a.trees[col]))


@pytest.mark.parametrize(
    "cell",
    [
        "Pending TRP-2025-014",
        "applied 2025-03-01",
        "Denied 2025-07",
        "Expired 12/2024",
        "Permit required",
        "No permit (violation #12)",
        "TRP-2025-014 revoked",
        "Awaiting permit 1234",
    ],
)
def test_a_permit_cell_with_a_number_that_says_no_permit_is_not_a_permit(tmp_path, cell):
    # A permit number reads yes, but a cell that says the permit is pending, applied for, denied, expired,
    # revoked or still required holds none: a digit in it (a date, a ticket number) must not make the removal
    # lawful. The cell is not given (the permit is then not presumed held), with a warning naming the column.
    rows = [["Tag", "Species", "DBH", "Action", "PERMIT_NO"], ["1", "Acer rubrum", "10", "Removed", cell]]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    assert pd.isna(s.trees["permit"].iloc[0])
    assert "in column 'PERMIT_NO' is not yes/no or a permit number" in s.trees["warnings"].iloc[0]


def test_four_removals_one_under_its_own_permit_are_three_without_one(tmp_path):
    # Four 10 in red maples removed from a flat house lot, no other trigger; tree 1 under permit 1234.
    # §208-18A forbids removing "more than three (3) trees ... within the preceding twelve (12) months without
    # first obtaining a tree removal permit", and §208-17 counts clear cutting "without the benefit of a ...
    # permit": only 3 were removed without one, which is not more than three. No fact given says the
    # permitted tree was not the fourth. So no offence: civil $0, criminal $0 (before: 3 x $1,500 = $4,500
    # civil and 3 x $5,000 = $15,000 criminal under §208-18A).
    rows = [
        ["Tag", "Species", "DBH", "Action", "Permit#"],
        ["1", "Acer rubrum", "10", "removed", "1234"],
        ["2", "Acer rubrum", "10", "removed", ""],
        ["3", "Acer rubrum", "10", "removed", "no"],
        ["4", "Acer rubrum", "10", "removed", "no"],
    ]
    a = assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert by_tag(a, "offence") == {"1": False, "2": False, "3": False, "4": False}
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (0, 0)


def test_five_removals_one_under_its_own_permit_are_four_without_one(tmp_path):
    # The same with a fifth maple: 4 removed without a permit, more than three: §208-18A and §208-17 clear
    # cutting (4 or more). Civil: 4 x $1,500 = $6,000, doubled (§208-29B(7)) = $12,000; criminal §208-18:
    # 4 x $5,000 = $20,000. Tree 1 under its permit stays no offence.
    rows = [["Tag", "Species", "DBH", "Action", "Permit#"], ["1", "Acer rubrum", "10", "removed", "1234"]] + [
        [str(k), "Acer rubrum", "10", "removed", ""] for k in range(2, 6)
    ]
    a = assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert by_tag(a, "offence") == {"1": False, "2": True, "3": True, "4": True, "5": True}
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (12000, 20000)


def test_protected_natives_four_removed_one_under_its_own_permit(tmp_path):
    # Four 6 in dogwoods flagged DEC protected native, on a flat house lot; T&E blank, yes, no, and yes
    # under permit TRP-2025-014. Three removed without a permit: §208-19A(1) does not reach them (not more
    # than three without a permit). Tree 2 (T&E yes): §208-19A(5), definite: tier (6) $7,500, criminal $250.
    # Tree 1 (T&E blank): conditional on its T&E status: $7,500 and $250 apart. Tree 3 (T&E no): no offence
    # (§208-29B(6) prices an offence, it makes none). Before: 3 x $7,500 = $22,500 civil, 3 x $5,000 criminal.
    rows = [
        ["Tag", "Species", "DBH", "Action", "Protected Native?", "T&E", "Permit No."],
        ["1", "Cornus florida", "6", "removed", "Y", "", ""],
        ["2", "Cornus florida", "6", "removed", "Y", "yes", ""],
        ["3", "Cornus florida", "6", "removed", "Y", "no", ""],
        ["4", "Cornus florida", "6", "removed", "Y", "yes", "TRP-2025-014"],
    ]
    a = assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert by_tag(a, "offence") == {"1": True, "2": True, "3": False, "4": False}
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (7500, 250)
    assert (j["civil_penalty_conditional_usd"], j["criminal_fine_conditional_usd"]) == (7500, 250)


def test_a_dead_street_tree_removed_without_approval_breaks_208_5D_not_208_14(tmp_path):
    # A dead 10 in street maple removed by the owner, no permit, no Department approval. §208-5D forbids
    # removing any tree from the public street without the Department's written approval: an offence, tier
    # (4) street tree $4,000, criminal $250. §208-14 forbids removing a *healthy* street tree: a dead tree is
    # not one, so §208-14 is not cited for it. The live street tree beside it breaks both.
    rows = [
        ["Tag", "Species", "DBH", "Action", "Street Tree", "Condition"],
        ["1", "Acer rubrum", "10", "removed", "Y", "Dead"],
        ["2", "Acer rubrum", "10", "removed", "Y", "Good"],
    ]
    a = assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    sec = by_tag(a, "offence_sections")
    assert "§208-5D" in sec["1"] and "§208-14" not in sec["1"]
    assert "§208-5D" in sec["2"] and "§208-14" in sec["2"]
    # 2 x $4,000 civil, 2 x $250 criminal
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (8000, 500)


def test_proposed_removals_beside_one_made_under_its_own_permit_are_not_clear_cutting(tmp_path):
    # One 10 in maple removed under its own permit, three proposed. §208-17 CLEAR CUTTING is "the removal of
    # four or more trees ... without the benefit of a current and valid tree removal permit": the three
    # proposed would be 3 without a permit (the permitted one is not), fewer than 4, so no §208-19A(8) line;
    # §208-19A(1) (4 removals within 12 months) still needs the permit for the three proposed.
    rows = [
        ["Tag", "Species", "DBH", "Action", "Under Permit?"],
        ["1", "Acer rubrum", "10", "removed", "Yes"],
        ["2", "Acer rubrum", "10", "remove", ""],
        ["3", "Acer rubrum", "10", "remove", ""],
        ["4", "Acer rubrum", "10", "remove", ""],
    ]
    a = assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert j["permit_triggers"] == ["§208-19A(1)"]
    assert by_tag(a, "offence") == {"1": False, "2": False, "3": False, "4": False}


@pytest.mark.parametrize("cell", ["Unknown", "?", "not assessed", "TBD"])
def test_a_threatened_endangered_cell_that_is_not_yes_no_is_not_given(tmp_path, cell):
    # A 5 in dogwood flagged DEC protected native, on a flat house lot, removed; its T&E cell says it is not
    # known. §208-19A(5) needs a permit only for a threatened or endangered species: the status is a fact not
    # given, so the offence is conditional on it (tier (6) $7,500 and $250 apart), never definite. Before, the
    # cell was "taken as yes": a definite $7,500 civil and $250 criminal on a fact no one gave.
    rows = [
        ["Tag", "Species", "DBH", "Action", "DEC protected native plant", "Endangered"],
        ["1", "Cornus florida", "5", "removed", "Y", cell],
    ]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    assert pd.isna(s.trees["threatened_endangered"].iloc[0])
    a = assess(s, site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (0, 0)
    assert (j["civil_penalty_conditional_usd"], j["criminal_fine_conditional_usd"]) == (7500, 250)


@pytest.mark.parametrize("cell", ["Dead wood present", "Dead limbs", "Dead branches in crown", "Dead top"])
def test_a_live_tree_with_dead_wood_is_not_a_dead_tree(tmp_path, cell):
    # "Dead wood present", "Dead limbs": a condition note of a live tree with some dead parts. A dead tree
    # has no leaf area and no value (§208-22B); a tree with dead limbs keeps its value and its §208-22A/F
    # count. Before, the first word "dead" made it dead: a 12 in red maple's $127.11/yr dropped to $0.
    rows = [["Tag", "Species", "DBH", "Action", "Condition"], ["1", "Acer rubrum", "12", "Retain", cell]]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    assert s.trees["condition"].iloc[0] != "dead"
    assert not bool(s.trees["dead"].fillna(False).iloc[0]) if "dead" in s.trees else True


@pytest.mark.parametrize("cell", ["Dead", "Dead - standing", "D", "Standing dead"])
def test_a_dead_tree_is_still_read_dead(tmp_path, cell):
    rows = [["Tag", "Species", "DBH", "Action", "Condition"], ["1", "Acer rubrum", "12", "Retain", cell]]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    assert s.trees["condition"].iloc[0] == "dead"


@pytest.mark.parametrize("header", ["Tree Permit #", "Tree Permit No.", "Removal Permit #", "Tree Removal Permit #"])
def test_a_permit_number_column_under_a_longer_header_is_read(tmp_path, header):
    # The permit number column of a field export headed "Tree Permit #": unread, the survey's own permits
    # went unused and a tree removed under its own permit (a 10 in maple on a slope, §208-19A(3)) was charged
    # $1,500 civil and $250 criminal. Read, it is no offence: $0, $0.
    rows = [
        ["Tag", "Species", "DBH", "Action", "Slope >20%", header],
        ["1", "Acer rubrum", "10", "Removed", "Y", "TRP-2025-014"],
    ]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    assert s.source["column_map"][header] == "permit"
    j = assessment_json(assess(s, site=FLAT_HOUSE_LOT, replacement_stock=STOCK))
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (0, 0)
