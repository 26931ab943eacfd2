"""Chapter 208 rules called directly: what the JSON does not show (the site-trigger sentences, the replacement scope,
how facts are parsed) and the counts of removals done and proposed. The worked scenarios of §208-19A, §208-19B,
§208-29A and §208-29B (every trigger, tier and boundary, the doubling of (7)) are data in
tests/cases/croton_on_hudson/, run through the command's JSON by tests/cases/test_law_cases.py."""

import pytest

from tests.helpers.rules import make_trees
from treecalc.reference import data
from treecalc.rules import croton_on_hudson as C
from treecalc.rules import law

LAW = law("croton_on_hudson")
# A residential lot that cannot be subdivided: trigger (2) off, so each test turns on one trigger.
QUIET = {"subdividable": False, "has_residence": True, "site_plan_required": False, "prior_removals_12mo": 0}


def site(**kw):
    s, _ = C.resolve_site({**QUIET, **kw}, C.SITE_DEFAULTS)
    return s


def not_given(**kw):
    """The site facts a test leaves out: resolve_site fills them in, and the rules are told they were not given."""
    return frozenset(k for k in C.SITE_DEFAULTS if k not in {**QUIET, **kw})


def triggers(rows, **kw):
    return C.permit(make_trees(rows), site(**kw), LAW, assumed=not_given(**kw))


def test_unknown_site_facts_assume_the_conservative_reading():
    s, assumptions = C.resolve_site({}, C.SITE_DEFAULTS)
    assert s["subdividable"] is True and s["has_residence"] is False
    assert any("subdivided" in a for a in assumptions)
    r = C.permit(make_trees([{"dbh_in": 9, "action": "remove"}]), s, LAW)
    assert r.triggers[0] == ["§208-19A(2)"]


def test_trigger_8_names_the_trees_cut_apart_from_the_trees_proposed():
    # tags 1-4 removed without a permit (clear cutting took place, 4 >= 4); tags 5-6 proposed. The trigger
    # that says "4 trees removed without a permit" names 1-4 only; 5 and 6 are named under "would be clear
    # cutting" (4 done + 2 proposed = 6 removals). A retained tree (7) is named by neither.
    rows = [{"dbh_in": 5, "action": "removed"}] * 4 + [{"dbh_in": 5, "action": "remove"}] * 2
    r = triggers(rows + [{"dbh_in": 5, "action": "retain"}])
    eight = [t for t in r.site_triggers if t["section"] == "§208-19A(8)"]
    assert [(t["tags"], t["text"].split(":")[0]) for t in eight] == [
        (["1", "2", "3", "4"], "clear cutting"),
        # the count names the trees listed (2), and the 6 in all they would bring (it said "removing 6 trees"
        # beside two tags)
        (
            ["5", "6"],
            "removing the 2 proposed trees (6 in all, 4 or more) without a permit would be clear cutting (§208-17)",
        ),
    ]
    assert "4 trees removed without a permit" in eight[0]["text"]
    # only proposed removals: the count is theirs; only removals made: no "would be" line naming no tree
    only_proposed = triggers([{"dbh_in": 5, "action": "remove"}] * 4).site_triggers
    assert "removing 4 trees (4 or more) without a permit would be clear cutting (§208-17)" in [
        t["text"] for t in only_proposed
    ]
    only_done = triggers([{"dbh_in": 5, "action": "removed"}] * 4).site_triggers
    assert not [t for t in only_done if "would be clear cutting" in t["text"]]


def pen(rows, **kw):
    days = kw.pop("days", 1)
    pending = kw.pop("application_pending", False)
    t = make_trees(rows)
    s = site(**kw)
    pr = C.permit(t, s, LAW, assumed=not_given(**kw))
    return C.penalties(t, s, LAW, pr, application_pending=pending, continuing_days=days)


def test_doubling_clear_cutting_alone():
    # clear cutting given as determined; one offence tree 10 in (tier 2 $1,500) x 2 = $3,000
    t = make_trees([{"dbh_in": 10, "landmark": False, "slope_over_20pct": True}])
    s = site()
    pr = C.permit(t, s, LAW, clear_cutting=True)
    p = C.penalties(t, s, LAW, pr)
    assert p.doubled and p.doubling_reasons[0].startswith("clear cutting")
    assert p.civil_total == 3000


def test_invasive_and_good_forestry_not_counted():
    cat = data.catalogue()
    inv = cat.index[cat["part575"] == "prohibited"][0]
    t = make_trees(
        [
            {"species_code": "ACRU", "action": "remove"},
            {"species_code": inv, "action": "remove"},
            {"species_code": "ACRU", "action": "remove", "good_forestry": True},
            {"species_code": "ACRU", "action": "damaged"},
            {"species_code": "ACRU", "action": "retain"},
        ]
    )
    counted, excl = C.replacement_scope(t, cat, violation=False)
    assert counted.tolist() == [True, False, False, False, False]
    assert excl[1] == "invasive (6 NYCRR 575 prohibited) §208-22E" and excl[2] == "good forestry §208-22E"
    counted, _ = C.replacement_scope(t, cat, violation=True)  # after a violation damaged trees count too
    assert counted.tolist() == [True, False, False, True, False]


def test_done_and_proposed_removals_are_counted_apart():
    # 3 removed + 1 proposed: 4 > 3 makes the proposed removal need a permit (§208-19A(1)), but the
    # 3 already removed were not more than three when they were cut: no (1) for them, and no § 208-18.
    rows = [{"dbh_in": 6, "action": "removed"}] * 3 + [{"dbh_in": 6, "action": "remove"}]
    r = triggers(rows)
    assert r.triggers[:3] == [[], [], []] and r.triggers[3] == ["§208-19A(1)", "§208-19A(8)"]
    p = pen(rows)
    assert p.civil_total == 0 and p.criminal_total == 0
    # with one earlier removal in the 12 months, made without a permit: 3 + 1 = 4 > 3 -> the removed trees broke
    # §208-18A, and four removals without a permit are clear cutting (§208-17, §208-18C): 3 offences x tier 1
    # $500 x 2 (doubled, §208-29B(7)) = $3,000 civil; criminal 3 x $5,000 = $15,000
    p = pen(rows, prior_removals_12mo=1, prior_removals_without_permit=1)
    assert p.offence.tolist() == [True, True, True, False]
    assert p.civil_total == 3000 and p.criminal_total == 15000
    # the earlier removal's permit not given: it may have had one ("without first obtaining a tree removal
    # permit"), so §208-18A is conditional on it, none definite, with the clear cutting it would make (4 removals
    # without a permit, doubled): 3 x $500 x 2 = $3,000 civil and 3 x $5,000 criminal, conditional
    p = pen(rows, prior_removals_12mo=1)
    assert p.offence.tolist() == [True, True, True, False]
    assert (p.civil_total, p.criminal_total) == (0, 0)
    assert (p.civil_conditional, p.criminal_conditional) == (3000, 15000)
    # five earlier removals without a permit, one of them in the window: §208-18A counts that one (definite, 3 x
    # $5,000 criminal); clear cutting has no window: 3 + 5 = 8 removals without a permit, doubled (§208-29B(7)):
    # 3 x $500 x 2 = $3,000 civil
    p = pen(rows, prior_removals_12mo=1, prior_removals_without_permit=5)
    assert (p.civil_total, p.criminal_total) == (3000, 15000)


# --- review fixes -------------------------------------------------------------------------------
FOUR_SMALL_REMOVED_AND_ONE_DAMAGED = [{"dbh_in": 6}] * 4 + [{"dbh_in": 20, "action": "damaged"}]


def test_damaged_tree_does_not_inherit_removal_triggers_1_and_8():
    # 4 x 6 in removed + 1 x 20 in damaged, quiet lot (no (2)). Removals 4 > 3 -> (1) on the 4 removals;
    # 4 removed without a permit -> clear cutting (8) on the 4 removals. The damaged tree stands: it is not
    # one of the trees "removed" and no part of clear cutting -> no trigger, no permit, no offence.
    r = triggers(FOUR_SMALL_REMOVED_AND_ONE_DAMAGED)
    assert r.triggers[:4] == [["§208-19A(1)", "§208-19A(8)"]] * 4 and r.triggers[4] == []
    assert r.permit_needed.tolist() == [True] * 4 + [False]
    assert all(t["tags"] == ["1", "2", "3", "4"] for t in r.site_triggers)
    p = pen(FOUR_SMALL_REMOVED_AND_ONE_DAMAGED)
    # offences: the 4 removals only. Civil: 4 x $500 (6 in, tier 1) x 2 (doubled: 4 > 3 and clear cutting)
    # = $4,000 (the damaged 20 in tree would have added $3,000 x 2 had it inherited (1)/(8)).
    assert p.offence.tolist() == [True] * 4 + [False]
    assert any("(4)" in x for x in p.doubling_reasons)  # "more than 3 ... (4)", not (5)
    assert p.civil_total == 4000
    # criminal: the 4 removals broke §208-18A/C: 4 x $5,000 = $20,000; the damaged tree nothing
    assert p.criminal_usd.tolist() == [5000] * 4 + [0]


def test_damaged_tree_is_no_offence_but_a_topped_one_is_5000():
    # issue 9: permit triggers concern removals only; the damaged 20 in tree has none even on a subdividable
    # parcel, and injury is no offence by itself -> civil 4 x $500 x 2 = $4,000, criminal 4 x $5,000 = $20,000
    rows = FOUR_SMALL_REMOVED_AND_ONE_DAMAGED
    r = triggers(rows, subdividable=True)
    assert r.triggers[4] == []
    p = pen(rows, subdividable=True)
    assert p.civil_total == 4000 and p.criminal_total == 20000
    # TOPPED instead: an offence (§208-18D), tier (3) 20 in $3,000; 5 offences > 3 and clear cutting -> doubled:
    # civil (4 x 500 + 3,000) x 2 = $10,000; criminal 4 x $5,000 (§208-18A/C) + $5,000 (§208-18D) = $25,000
    rows = [{"dbh_in": 6}] * 4 + [{"dbh_in": 20, "action": "topped"}]
    p = pen(rows, subdividable=True)
    assert p.civil_total == 10000
    assert p.criminal_usd.tolist() == [5000] * 5 and p.criminal_total == 25000
    assert "§208-18D" in p.criminal_section[4] and "§208-18C" in p.criminal_section[0]


def test_clear_cutting_counts_earlier_removals_made_without_a_permit():
    # 2 removed now + 2 earlier removed without a permit = 4 >= 4 -> clear cutting (8) on the 2 removals
    rows = [{"dbh_in": 6}] * 2 + [{"dbh_in": 6, "action": "damaged"}]
    r = triggers(rows, prior_removals_without_permit=2)
    assert r.clear_cutting and r.triggers == [["§208-19A(8)"], ["§208-19A(8)"], []]
    assert "including 2 earlier" in [t for t in r.site_triggers if t["section"] == "§208-19A(8)"][0]["text"]
    # 2 now + 2 earlier in 12 months that may have been permitted: (1) (2 + 2 = 4 > 3), but no clear cutting
    r = triggers(rows, prior_removals_12mo=2)
    assert not r.clear_cutting and r.triggers == [["§208-19A(1)"], ["§208-19A(1)"], []]


def test_clear_cutting_determined_by_the_engineer():
    # one tree removed, one damaged; the Engineer has determined clear cutting: the sentence says so
    # (not "1 trees removed ... (4 or more)") and only the removal is tagged (8)
    t = make_trees([{"dbh_in": 6}, {"dbh_in": 6, "action": "damaged"}])
    r = C.permit(t, site(), LAW, clear_cutting=True)
    cc = [x for x in r.site_triggers if x["section"] == "§208-19A(8)"][0]
    assert cc["text"] == "clear cutting determined by the Village Engineer (§208-17)" and cc["tags"] == ["1"]
    p = C.penalties(t, site(), LAW, r)
    # the removal: tier 1 $500 x 2 (clear cutting) = $1,000; the damaged tree: no trigger of its own
    assert p.civil_total == 1000 and "Village Engineer" in p.doubling_reasons[0]


def test_site_facts_are_parsed_not_truthy():
    s, _ = C.resolve_site({"violation": "false", "permit_held": "no"}, C.SITE_DEFAULTS)
    assert s["violation"] is False and s["permit_held"] is False
    s, assumptions = C.resolve_site({}, C.SITE_DEFAULTS)
    assert s["violation"] is None and any("§208-22F" in a for a in assumptions)
    with pytest.raises(ValueError, match="site fact violation"):
        C.resolve_site({"violation": "perhaps"}, C.SITE_DEFAULTS)
    for bad in ("inf", "-1", float("nan"), "nan"):
        with pytest.raises(ValueError, match="lot_area_acres"):
            C.resolve_site({"lot_area_acres": bad}, C.SITE_DEFAULTS)
    with pytest.raises(ValueError, match="prior_removals_12mo"):
        C.resolve_site({"prior_removals_12mo": "inf"}, C.SITE_DEFAULTS)
