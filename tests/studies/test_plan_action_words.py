"""`treecalc plan` reads a must-remove written in the Action cell, the way an arborist writes it.

The vocabulary (treecalc.ingest.values.MUST_REMOVE_PHRASES, docs/science/plan.md): an action
cell beginning "Must remove", "Must be removed", "Remove (required)", "Removal required" or "Required
removal" is a removal the plan never retains. Any other word stays what it was: a known action, or a
rejected row whose reason names the cell.
"""

import pytest

from treecalc.ingest import read_survey
from treecalc.studies.plan import plan

# A builder's lot: the house footprint takes T1-T3 (written three ways in the Action column, no
# "Must remove" column), T4 and T5 are proposed, T6 stays, T7's action says only "Required".
# No parcel trigger (§208-19A(2)): a house, not subdividable, no site plan, nothing removed before.
SURVEY = """Tree,Species,DBH (in),Action,Notes
T1,Acer rubrum,14,Must remove,in footprint
T2,Quercus rubra,20,must be removed,driveway
T3,Acer saccharum,10,Remove (required),garage
T4,Tilia americana,6,Remove,
T5,Acer rubrum,9,Remove,
T6,Acer rubrum,16,Retain,
T7,Acer rubrum,12,Required,ask owner
"""
SITE = {"subdividable": False, "has_residence": True, "site_plan_required": False, "prior_removals_12mo": 0}


@pytest.fixture(scope="module")
def survey(tmp_path_factory):
    path = tmp_path_factory.mktemp("plan_words") / "lot.csv"
    path.write_text(SURVEY)
    return read_survey(path)


def test_the_must_remove_words_in_the_action_cell_are_read(survey):
    t = survey.trees.set_index("tag")
    assert list(t.index) == ["T1", "T2", "T3", "T4", "T5", "T6"]
    assert list(t["action"]) == ["remove"] * 5 + ["retain"]
    assert list(t["must_remove"]) == [True, True, True, False, False, False]
    # an unknown word stays a rejected row with its reason: "Required" says neither remove nor retain
    r = survey.rejected
    assert list(r["tag"]) == ["T7"]
    reason = r["reason"].iloc[0]
    assert "row 8, column 'Action': action 'Required' not recognised" in reason
    assert "must remove" in reason  # the known words listed include the must-remove ones
    # the read says where the must-remove trees came from
    assert any("3 tree(s) marked must remove in column 'Action'" in w for w in survey.warnings)


def test_the_plan_never_retains_them(survey):
    p = plan(survey, site=SITE)
    assert p.must_remove == ["T1", "T2", "T3"] and p.optional == ["T4", "T5"]
    assert not any("no 'Must remove' column" in n for n in p.notes)
    # k = 0: the three must-remove trees are 3 removals, not "more than 3" (§208-19A(1)): no permit
    assert p.frontier[0].remove == ["T1", "T2", "T3"] and not p.frontier[0].permit_required
    # k = 1: 4 removals, a permit; the cheaper optional tree is the 6 in linden (smaller, less value)
    assert p.frontier[1].remove == ["T1", "T2", "T3", "T4"] and p.frontier[1].permit_required
    assert all(s.remove[:3] == ["T1", "T2", "T3"] for s in p.frontier)
    assert "1 row the reader rejected is not in this plan" in p.notes[0] and "row 8" in p.notes[0]


def test_a_must_remove_column_saying_no_loses_to_the_action_and_is_said(tmp_path):
    path = tmp_path / "conflict.csv"
    path.write_text(
        "Tag,Species,DBH (in),Action,Must remove\n"
        "A1,Acer rubrum,14,Must remove,No\n"
        "A2,Acer rubrum,12,Remove,Yes\n"
        "A3,Acer rubrum,10,Remove,No\n"
    )
    s = read_survey(path)
    assert list(s.trees["must_remove"]) == [True, True, False]
    w = s.trees["warnings"].iloc[0]
    assert "action 'Must remove' in column 'Action'" in w and "column 'Must remove' says 'No'" in w


@pytest.mark.parametrize(
    "cell, action, must",
    [
        ("Must remove", "remove", True),
        ("MUST BE REMOVED", "remove", True),
        ("Remove (required)", "remove", True),
        ("Remove - required, in footprint", "remove", True),
        ("Removal required", "remove", True),
        ("Required removal", "remove", True),
        ("Must remove – hazard", "remove", True),
        ("Remove", "remove", False),
        ("Remove - not required", "remove", False),
        ("Must retain", None, False),
        ("Required", None, False),
    ],
)
def test_the_vocabulary(cell, action, must):
    from treecalc.ingest.values import MUST_REMOVE, read_action

    a = read_action(cell)
    assert a.action == action
    assert (MUST_REMOVE in a.facts) is must
