"""Chapter 208 rules: every § 208-19A trigger, every § 208-29B tier and boundary, doubling (7), § 208-29A."""

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


def test_trigger_1_more_than_three_removals_including_prior():
    # 3 removals, no prior: 3 > 3 is false -> no permit
    assert not triggers([{"dbh_in": 5, "action": "remove"}] * 3).required
    # 3 removals + 1 earlier in 12 months = 4 > 3 -> §208-19A(1) on every removal
    r = triggers([{"dbh_in": 5, "action": "remove"}] * 3, prior_removals_12mo=1)
    assert r.required and all("§208-19A(1)" in t for t in r.triggers)
    assert r.removals_12mo == 4


@pytest.mark.parametrize("fact", [{"subdividable": True}, {"has_residence": False}, {"site_plan_required": True}])
def test_trigger_2_parcel_8in(fact):
    # 8.0 in is "8 inches or more" -> trigger; 7.99 in is not
    r = triggers([{"dbh_in": 8.0, "action": "remove"}, {"dbh_in": 7.99, "action": "remove"}], **fact)
    assert r.triggers[0] == ["§208-19A(2)"] and r.triggers[1] == []
    # the same trees on the quiet lot: no trigger
    assert not triggers([{"dbh_in": 8.0, "action": "remove"}]).required


def test_unknown_site_facts_assume_the_conservative_reading():
    s, assumptions = C.resolve_site({}, C.SITE_DEFAULTS)
    assert s["subdividable"] is True and s["has_residence"] is False
    assert any("subdivided" in a for a in assumptions)
    r = C.permit(make_trees([{"dbh_in": 9, "action": "remove"}]), s, LAW)
    assert r.triggers[0] == ["§208-19A(2)"]


@pytest.mark.parametrize(
    "col,section",
    [("slope_over_20pct", "§208-19A(3)"), ("wetland", "§208-19A(4)"), ("regulated_buffer_zone", "§208-19A(7)")],
)
def test_triggers_3_4_7_at_4in(col, section):
    # 4.0 in is "four inches or more" -> trigger; 3.9 in is not
    r = triggers([{"dbh_in": 4.0, "action": "remove", col: True}, {"dbh_in": 3.9, "action": "remove", col: True}])
    assert r.triggers == [[section], []]
    assert r.site_triggers[0]["tags"] == ["1"]


@pytest.mark.parametrize("col,section", [("threatened_endangered", "§208-19A(5)"), ("landmark", "§208-19A(6)")])
def test_triggers_5_6_any_size(col, section):
    r = triggers([{"dbh_in": 1.0, "action": "remove", col: True}])
    assert r.triggers == [[section]]


def test_trigger_8_clear_cutting():
    # four trees already removed (3 + 1 = 4 >= 4), no permit: clear cutting, and (1) as 4 > 3
    r = triggers([{"dbh_in": 5, "action": "removed"}] * 4)
    assert r.clear_cutting
    assert all(t == ["§208-19A(1)", "§208-19A(8)"] for t in r.triggers)
    # with a permit held there is no clear cutting
    assert not triggers([{"dbh_in": 5, "action": "removed"}] * 4, permit_held=True).clear_cutting


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


def test_retained_trees_never_trigger():
    r = triggers([{"dbh_in": 30, "action": "retain", "landmark": True}])
    assert r.triggers == [[]] and not r.required


@pytest.mark.parametrize(
    "fact,section",
    [("village_work", "§208-19B(1)"), ("row_or_emergency", "§208-19B(2)"), ("planning_board_approval", "§208-19E")],
)
def test_exceptions(fact, section):
    r = triggers([{"dbh_in": 20, "action": "removed", "landmark": True}], **{fact: True})
    assert r.triggers == [["§208-19A(6)"]]  # the trigger is still reported
    assert not r.required  # but no permit is needed
    assert r.exceptions_applied[0]["section"] == section


def pen(rows, **kw):
    days = kw.pop("days", 1)
    pending = kw.pop("application_pending", False)
    t = make_trees(rows)
    s = site(**kw)
    pr = C.permit(t, s, LAW, assumed=not_given(**kw))
    return C.penalties(t, s, LAW, pr, application_pending=pending, continuing_days=days)


@pytest.mark.parametrize(
    "dbh,tier,usd",
    [
        (4.0, "§208-29B(1)", 500),
        (8.0, "§208-29B(1)", 500),  # up to and including 8 in
        (8.01, "§208-29B(2)", 1500),
        (12.0, "§208-29B(2)", 1500),  # over 8 through 12 in
        (12.01, "§208-29B(3)", 3000),
        (40.0, "§208-29B(3)", 3000),  # over 12 in
    ],
)
def test_size_tiers_and_boundaries(dbh, tier, usd):
    # one tree on a slope > 20% (trigger (3)), removed without a permit: one offence, no doubling
    p = pen([{"dbh_in": dbh, "slope_over_20pct": True}])
    assert p.offence.tolist() == [True]
    assert p.tier == [tier] and p.base_usd.tolist() == [usd] and p.max_usd.tolist() == [usd]
    assert not p.doubled


@pytest.mark.parametrize(
    "flag,tier,usd",
    [
        ("street_tree", "§208-29B(4)", 4000),
        ("wetland", "§208-29B(4)", 4000),
        ("excessively_steep_slope", "§208-29B(4)", 4000),
        ("landmark", "§208-29B(5)", 5000),
        ("conservation_area", "§208-29B(6)", 7500),
        # a DEC protected native plant is a tier (§208-29B(6)); the slope, not the flag, makes the offence
        ("protected_native", "§208-29B(6)", 7500),
    ],
)
def test_special_tiers_highest_applies(flag, tier, usd):
    # a 20 in tree is tier 3 ($3,000) by size; the special tier is higher, so it applies.
    # street_tree alone triggers no permit, so the tree is also put on a slope (trigger (3)).
    p = pen([{"dbh_in": 20, flag: True, "slope_over_20pct": True}])
    assert p.tier == [tier] and p.base_usd.tolist() == [usd]


def test_landmark_and_conservation_area_takes_7500():
    # (5) $5,000 and (6) $7,500 both apply: the highest, $7,500
    p = pen([{"dbh_in": 20, "landmark": True, "conservation_area": True}])
    assert p.tier == ["§208-29B(6)"] and p.base_usd.tolist() == [7500]


def test_tree_that_needed_no_permit_has_no_penalty():
    # 10 in tree removed on the quiet residential lot, no flag: no §208-19A trigger -> no offence
    p = pen([{"dbh_in": 10}])
    assert p.offence.tolist() == [False] and p.max_usd.tolist() == [0] and p.criminal_usd.tolist() == [0]


def test_proposed_removal_is_no_offence():
    p = pen([{"dbh_in": 10, "landmark": True, "action": "remove"}])
    assert p.offence.tolist() == [False] and p.civil_total == 0


def test_doubling_more_than_three_regulated_trees():
    # 3 regulated trees (slope) removed: 3 > 3 false; but 3 removals is not (1) and not clear cutting
    p = pen([{"dbh_in": 6, "slope_over_20pct": True}] * 3)
    assert not p.doubled and p.civil_total == 3 * 500
    # 4 regulated trees: 4 > 3 -> doubled; also clear cutting (4 removed). 4 x $500 x 2 = $4,000
    p = pen([{"dbh_in": 6, "slope_over_20pct": True}] * 4)
    assert p.doubled and p.civil_total == 4000
    assert any("more than 3" in r for r in p.doubling_reasons)


def test_doubling_more_than_three_topped_trees_without_clear_cutting():
    # issue 9: 4 TOPPED 6 in trees (offences (b), §208-18D, any size or place): no clear cutting (nothing
    # removed), but 4 > 3 regulated trees harmed -> doubled: 4 x $500 x 2 = $4,000; criminal 4 x $5,000 (§208-18D)
    p = pen([{"dbh_in": 6, "action": "topped"}] * 4)
    assert p.doubled and p.doubling_reasons == [r for r in p.doubling_reasons if "more than 3" in r]
    assert p.civil_total == 4000 and p.criminal_total == 20000
    # 4 only DAMAGED (injured) trees: no offence by itself (§208-29 e): nothing, not doubled
    p = pen([{"dbh_in": 6, "slope_over_20pct": True, "action": "damaged"}] * 4)
    assert not p.doubled and p.civil_total == 0 and not p.offence.any()


def test_doubling_clear_cutting_alone():
    # clear cutting given as determined; one offence tree 10 in (tier 2 $1,500) x 2 = $3,000
    t = make_trees([{"dbh_in": 10, "landmark": False, "slope_over_20pct": True}])
    s = site()
    pr = C.permit(t, s, LAW, clear_cutting=True)
    p = C.penalties(t, s, LAW, pr)
    assert p.doubled and p.doubling_reasons[0].startswith("clear cutting")
    assert p.civil_total == 3000


def test_doubling_application_pending():
    # one landmark tree removed while an application was pending: $5,000 x 2 = $10,000
    p = pen([{"dbh_in": 10, "landmark": True}], application_pending=True)
    assert p.doubled and "pending" in p.doubling_reasons[0]
    assert p.civil_total == 10000


def test_days_multiply():
    # tier 1 $500, not doubled, 3 days: $1,500; criminal $250 x 3 = $750
    p = pen([{"dbh_in": 6, "slope_over_20pct": True}], days=3)
    assert p.civil_total == 1500 and p.criminal_total == 750


def test_criminal_maxima():
    # one offence: $250 (§208-29A)
    assert pen([{"dbh_in": 6, "wetland": True}]).criminal_total == 250
    # second violation within a year: $1,000
    assert pen([{"dbh_in": 6, "wetland": True}], prior_violation_within_year=True).criminal_total == 1000
    # § 208-18A broken (more than three removals in 12 months, no permit): $5,000 per tree; 4 x 5,000
    p = pen([{"dbh_in": 6}] * 4)
    assert p.criminal_total == 20000 and "208-18" in p.criminal_section[0]


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


def test_tier_6_includes_threatened_or_endangered():
    # a 20 in threatened/endangered tree (flag threatened_endangered only): trigger (5), and tier (6)
    # (a DEC protected native plant, 6 NYCRR 193.3): $7,500 rather than tier (3) $3,000
    p = pen([{"dbh_in": 20, "threatened_endangered": True}])
    assert p.tier == ["§208-29B(6)"] and p.base_usd.tolist() == [7500]


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
