"""Defects in the law readings, each on a small survey of its own (not the sample), the figures worked by hand.

Croton-on-Hudson Chapter 208 (/work/shared/ordinances/002_*.txt; data/law/croton_on_hudson/ch208_trees.toml):
§208-29B "1. Trees up to and including eight inches DBH: up to $500. 2. Trees greater than eight inches DBH and up
to and including 12 inches DBH: up to $1,500. 3. Trees greater than 12 inches DBH: up to $3,000." §208-29A: $250 a
tree, $5,000 for a violation of §208-18 (D: "No person shall top or excessively prune any tree"). §208-17
"EXCESSIVE PRUNING - Removing 1/4 (25%) or greater of the functioning leaf, stem or root area of a tree."
§208-19A(2) "Any tree eight (8) inches or more in DBH on any parcel of land capable of being subdivided ...".
Wesley Hills Chapter 95 (004_*.txt; data/law/wesley_hills/ch95_clearing.toml): penalties A $5,000 a tree removed
without a required clearing permit, no per-day clause; B "any other provision ... not more than $2,500 ... Each
day's continued violation shall constitute a separate and additional violation".
"""

from __future__ import annotations

from treecalc.assessment import assess
from treecalc.ingest import read_survey

FLAT_HOUSE_LOT = {"subdividable": False, "has_residence": True, "site_plan_required": False}
STOCK = [{"species": "ACRU", "dbh_in": 2, "unit_cost_usd": 450}]


def survey(text: str):
    return read_survey(text.encode("utf-8"), filename="survey.csv")


# -- Wesley Hills penalties B: no days total for an other violation that is not assessed -----------------------
def test_wesley_hills_prints_no_other_violation_total_when_none_is_assessed():
    # one 12 in red maple removed on a vacant 0.5 acre lot with a certificate of occupancy: §95-3A(1)(c) (10 in or
    # more on a vacant lot) only; penalties A: 1 x $5,000, days do not multiply it. No other violation is
    # assessed, so "Other violation continuing 3 days, maximum: 3 x $2,500 = $7,500" has nothing to multiply.
    text = "Tag,Species,DBH (in),Action\n1,Red maple,12,removed\n"
    site = {"has_residence": False, "lot_area_acres": 0.5, "one_family_co_issued": True}
    a = assess(survey(text), site=site, jurisdiction="wesley_hills", continuing_days=3)
    assert a.to_json()["fine_max_usd"] == 5000
    assert a.summary.other_violation_max_usd is None
    assert not [ln for ln in a.lines if "continuing" in str(ln["item"]) or ln["value"] == 7500]
    # the per-day maximum of B stays as the law's figure: $2,500 a day
    assert [ln["value"] for ln in a.lines if ln["item"] == "Other violations, maximum per day"] == [2500]
