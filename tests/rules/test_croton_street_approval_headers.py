"""A street tree's Department approval as crews head the column ("Dept. approval"), and a column treecalc does
not read is said by the assessment, not only by `treecalc survey`.

§208-5D: no person other than the Village "shall remove a tree ... from within the limits of any public street
... without written approval by the Department"; §208-14 the same for healthy street trees. With the approval
the removal of a street tree on a flat house lot (no §208-19A trigger) is no offence; without it, §208-29B(4)
"Street trees ...: up to $4,000" and §208-29A $250.
"""

from tests.helpers.rules import FLAT_HOUSE_LOT, STOCK, write_csv
from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json


def test_dept_approval_column_authorises_the_street_tree_it_says(tmp_path):
    # Tree 1: street tree removed, "Dept. approval" Y: authorised, no offence. Tree 2: street tree removed,
    # approval N: §208-5D/§208-14 offence, tier (4) $4,000, criminal $250. Two trees: no doubling.
    rows = [
        ["Tag #", "Species", "DBH (in)", "Action", "Street tree", "Dept. approval"],
        ["1", "Platanus x acerifolia", "16", "Removed", "Y", "Y"],
        ["2", "Quercus palustris", "18", "Removed", "Y", "N"],
    ]
    a = assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert dict(zip(a.trees["tag"].astype(str), a.trees["offence"])) == {"1": False, "2": True}
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (4000, 250)


def test_a_column_not_read_is_said_by_the_assessment(tmp_path):
    # A header no field matches holds what the crew wrote of each tree; the assessment treats it as not given,
    # so it says so (before: only `treecalc survey` listed it, and `assess` charged as if the column were absent).
    rows = [["Tag", "Species", "DBH", "Action", "Crew chief OK"], ["1", "Acer rubrum", "10", "Removed", "Y"]]
    a = assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    assert any("'Crew chief OK'" in w and "not read" in w for w in a.warnings), a.warnings
