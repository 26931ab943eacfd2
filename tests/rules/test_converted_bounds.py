"""A diameter measured in cm or mm that is exactly a bound of the law meets it.

1 in = 2.54 cm = 25.4 mm exactly, so 20.32 cm and 203.2 mm are 8 in, 10.16 cm is 4 in and 25.4 cm is 10 in. In
floating point 20.32 x (1 / 2.54) = 7.999999999999999: read as less than 8 in, the tree escaped §208-19A(2)
("eight (8) inches or more") and its removal went unfined. No survey measures to a millionth of an inch, so a
converted number within a float's rounding of a bound is the bound.
"""

import pytest

from tests.helpers.rules import STOCK, write_csv
from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json

#: A parcel capable of being subdivided (§208-19A(2) reaches every tree of 8 in or more), with a house.
SUBDIVIDABLE = {"subdividable": True, "has_residence": True, "site_plan_required": False}


@pytest.mark.parametrize(("header", "cell"), [("DBH (cm)", "20.32"), ("DBH (mm)", "203.2")])
def test_a_tree_of_exactly_8_in_measured_in_metric_needs_its_permit(tmp_path, header, cell):
    # One red maple removed, 20.32 cm = 203.2 mm = 8.00 in, on a subdividable lot: §208-19A(2) "any tree
    # eight (8) inches or more in DBH" required a permit, none held: an offence. §208-29B(1) "up to and
    # including eight inches": civil $500; §208-29A: criminal $250. One tree: no §208-29B(7) doubling.
    rows = [["Tag", "Species", header, "Action"], ["1", "Acer rubrum", cell, "Removed"]]
    j = assessment_json(
        assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=SUBDIVIDABLE, replacement_stock=STOCK)
    )
    t = j["per_tree"][0]
    assert t["permit_triggers"] == "§208-19A(2)"
    assert (t["penalty_tier"], t["penalty_max_usd"], t["criminal_max_usd"]) == ("§208-29B(1)", 500, 250)
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (500, 250)


def test_a_tree_of_exactly_4_in_on_a_steep_slope_measured_in_cm(tmp_path):
    # 10.16 cm = 4.00 in, on a slope over 20 %, flat house lot otherwise: §208-19A(3) "four (4) inches or more
    # ... on slopes of over 20%" required a permit. Civil §208-29B(1) $500 (4 in is up to 8 in; "excessively
    # steep" is not said, so not tier (4)); criminal $250.
    rows = [["Tag", "Species", "DBH (cm)", "Action", "Slope > 20%"], ["1", "Acer rubrum", "10.16", "Removed", "Y"]]
    site = {"subdividable": False, "has_residence": True, "site_plan_required": False}
    j = assessment_json(assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=site, replacement_stock=STOCK))
    assert j["per_tree"][0]["permit_triggers"] == "§208-19A(3)"
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (500, 250)


def test_wesley_hills_a_tree_of_exactly_10_in_on_a_vacant_lot_measured_in_cm(tmp_path):
    # 25.4 cm = 10.00 in, removed from a vacant lot: §95-3A(1)(c) "trees 10 inches in diameter or greater"
    # needed a clearing permit; none: Ch. 95 penalties A, not more than $5,000 for the tree.
    rows = [["Tag", "Species", "DBH (cm)", "Action"], ["1", "Acer rubrum", "25.4", "Removed"]]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    site = {"has_residence": False, "lot_area_acres": 0.5}
    j = assessment_json(assess(s, jurisdiction="wesley_hills", site=site))
    assert j["fine_max_usd"] == 5000
