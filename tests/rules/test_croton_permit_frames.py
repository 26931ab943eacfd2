"""A Chapter 208 rule given a permit result of another frame reads its own frame's actions."""

from tests.helpers.rules import make_trees
from treecalc.reference import data
from treecalc.rules import croton_on_hudson as C
from treecalc.rules import law

LAW = law("croton_on_hudson")
QUIET = {"subdividable": False, "has_residence": True, "site_plan_required": False, "prior_removals_12mo": 0}


def test_offences_and_parts_read_the_frame_given_not_the_permit_results():
    s, _ = C.resolve_site(QUIET, C.SITE_DEFAULTS)
    t1 = make_trees(
        [
            {"dbh_in": 20, "action": "remove"},
            {"dbh_in": 12, "action": "retain"},
            {"dbh_in": 30, "action": "damaged", "landmark": True},
        ]
    )
    pr = C.permit(t1, s, LAW)  # quiet lot, one removal: no permit needed for any tree
    t2 = t1.copy()
    t2["action"] = ["removed", "removed", "retain"]  # the same trees, other actions (an edited survey)
    off = C.offences(t2, s, LAW, pr)
    # t2: trees 1 and 2 removed without needing a permit -> 'removal that needed no permit';
    # tree 3 retained -> harmed not at all, no reason. (Read from t1's actions, tree 2 'retain' had no
    # reason and tree 3 'damaged' the §208-29 damage reason.)
    no_permit = "removal that needed no permit (§208-19A) and broke no other provision"
    assert off.not_offence_reason.tolist() == [no_permit, no_permit, ""]
    parts = C.replacement_parts(t2, data.catalogue(), LAW, pr, off, violation=False)
    # §208-22F: a retained tree carries no exclusion text; the two removals 'no permit needed'
    assert parts.exclusion.tolist()[2] == ""
    assert parts.exclusion.tolist()[1].startswith("no permit needed")
