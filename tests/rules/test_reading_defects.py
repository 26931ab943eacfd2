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

import json

from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json

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
    assert assessment_json(a)["fine_max_usd"] == 5000
    assert a.summary.other_violation_max_usd is None
    assert not [ln for ln in a.lines if "continuing" in str(ln["item"]) or ln["value"] == 7500]
    # the per-day maximum of B stays as the law's figure: $2,500 a day
    assert [ln["value"] for ln in a.lines if ln["item"] == "Other violations, maximum per day"] == [2500]


# -- multi-stem trees: √Σd² compared at the stems' precision -------------------------------------------------------
SUBDIVIDABLE_LOT = {"subdividable": True, "has_residence": True, "site_plan_required": False}


def test_the_reader_records_the_combined_dbh_at_the_stems_precision():
    # "6, 5.3": √(36 + 28.09) = √64.09 = 8.00562 in; the stems are written to 0.1 in: 8.0 in.
    # "5.6, 5.7": √(31.36 + 32.49) = √63.85 = 7.99062 in; at 0.1 in: 8.0 in. One stem: no second figure.
    s = survey(
        'Tag,Species,DBH (in),Action\n1,Red maple,"6, 5.3",removed\n2,Red maple,"5.6, 5.7",removed\n3,Red oak,9,remove\n'
    )
    t = s.trees
    assert round(t["dbh_in"][0], 5) == 8.00562 and round(t["dbh_in"][1], 5) == 7.99062
    assert t["dbh_at_precision_in"][0] == 8.0 and t["dbh_at_precision_in"][1] == 8.0
    assert t["dbh_at_precision_in"].isna()[2]
    # in the unit written: "15, 13.5" cm: √(225 + 182.25) = √407.25 = 20.1804 cm, 20.2 cm at 0.1 cm = 20.2 / 2.54
    # = 7.95276 in
    c = survey('Tag,Species,DBH (cm),Action\n1,Red maple,"15, 13.5",removed\n').trees
    assert round(c["dbh_at_precision_in"][0], 5) == 7.95276 and round(c["dbh_in"][0], 5) == round(20.180436 / 2.54, 5)
    # a survey without stems has no second figure at all
    assert "dbh_at_precision_in" not in survey("Tag,Species,DBH (in),Action\n1,Red maple,8.0056,removed\n").trees


def test_croton_prices_a_multi_stem_tree_at_the_tier_its_measurement_supports():
    # A subdividable lot (given): §208-19A(2) "any tree eight (8) inches or more in DBH" needs a permit.
    # Tree 1 "6, 5.3" removed: 8.0056 in, 8.0 in at 0.1 in. Both are 8 in or more: a definite offence. §208-29B(1)
    # "up to and including eight inches" holds for 8.0: $500 in the maximum; (2) "greater than eight inches" only
    # for the unrounded 8.0056: $1,500 - $500 = $1,000 conditional. (Before: $1,500 definite.)
    # Tree 2 "5.6, 5.7" removed: 7.9906 in, 8.0 in at 0.1 in: only 8.0 meets "8 in or more": the permit preview
    # needs a permit, the offence is conditional: tier (1) $500 conditional, §208-29A $250 conditional.
    # Tree 3, 9 in, proposed: a permit, no offence. 2 offences (not more than 3, no clear cutting): no doubling.
    # Civil: $500 definite, $1,000 + $500 = $1,500 conditional; criminal: $250 definite, $250 conditional.
    text = 'Tag,Species,DBH (in),Action\n1,Red maple,"6, 5.3",removed\n2,Red maple,"5.6, 5.7",removed\n3,Red oak,9,remove\n'
    a = assess(survey(text), site=SUBDIVIDABLE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    r = {x["tag"]: x for x in j["offence_rows"]}
    assert (r["1"]["status"], r["1"]["tier"], r["1"]["base_usd"]) == ("definite", "§208-29B(1)", 500)
    assert (r["2"]["status"], r["2"]["tier"], r["2"]["base_usd"]) == ("conditional", "§208-29B(1)", 500)
    assert "7.9906 in, 8.0 in at the stems' precision" in r["2"]["depends_on"]
    assert "8 in or more (§208-19A(2))" in r["2"]["depends_on"]
    assert (j["civil_penalty_max_usd"], j["civil_penalty_conditional_usd"]) == (500, 1500)
    assert (j["criminal_fine_max_usd"], j["criminal_fine_conditional_usd"]) == (250, 250)
    assert a.permit.trees_needing_permit == 3
    assert any("multi-stem tree(s) (" in n and "priced at the lower" in n for n in a.penalties.notes)
    assert any("at the precision the stems were measured" in x["reading"] for x in j["readings"])


def test_wesley_hills_fines_a_multi_stem_tree_at_its_bound_only_conditionally():
    # §95-3A(1)(e): 6 in or more within 20 ft of a lot line, no one-family certificate of occupancy. Stems "5.9, 1.0":
    # √(34.81 + 1) = √35.81 = 5.9841 in, 6.0 in at 0.1 in: only 6.0 meets the bound. A residence on 0.5 acre: (c)
    # and (d) do not apply. The permit preview needs a clearing permit; the fine (A, $5,000) is conditional.
    # Stems "10.5, 1.2" (√111.69 = 10.5683 in, 10.6 in): both meet (e): a definite $5,000.
    text = 'Tag,Species,DBH (in),Action,Within 20 ft of lot line\n1,Red maple,"5.9, 1.0",removed,yes\n2,Red maple,"10.5, 1.2",removed,yes\n'
    site = {"has_residence": True, "lot_area_acres": 0.5, "one_family_co_issued": False}
    a = assess(survey(text), site=site, jurisdiction="wesley_hills")
    j = assessment_json(a)
    assert a.permit.trees_needing_permit == 2
    assert (j["fine_max_usd"], j["fine_conditional_usd"]) == (5000, 5000)
    row = {t["tag"]: t for t in j["per_tree"]}["1"]
    assert "5.9841 in, 6.0 in at the stems' precision" in row["offence_depends_on"]


# -- "Pruned 25%": a share of the tree pruned, read against §208-17's share from the law ---------------------------
PRUNED = (
    "Tag,Species,DBH (in),Action\n"
    "1,Red maple,10,Pruned 25%\n"
    "2,Red maple,6,crown reduced 40%\n"
    "3,Red oak,14,Pruned 20%\n"
    "4,Red oak,10,pruned over 20%\n"
    "5,Red oak,10,Pruned lots\n"
)


def test_a_pruned_share_at_the_law_s_share_is_excessive_pruning():
    # Flat house lot, no permit. §208-17: "Removing 1/4 (25%) or greater" is excessive pruning; §208-18D forbids it.
    # Tree 1, 10 in, "Pruned 25%": 25 >= 25, excessively pruned: §208-29B(2) (over 8, up to 12 in) $1,500; §208-29A
    # a violation of §208-18: $5,000. Tree 2, 6 in, "crown reduced 40%": excessively pruned: (1) $500, $5,000.
    # Tree 3, "Pruned 20%": below 25 %: pruning, no offence. Tree 4, "pruned over 20%": more than 20 %, whether 25 %
    # was reached is not said: damaged, listed for the Engineer, no amount. Tree 5, "Pruned lots": no share read:
    # rejected, as an unknown action is. Two offences (not more than three): no doubling.
    # Civil $1,500 + $500 = $2,000; criminal 2 x $5,000 = $10,000. (Before: trees 1-4 rejected, $0.)
    s = survey(PRUNED)
    assert s.trees["tag"].tolist() == ["1", "2", "3", "4"]
    assert s.rejected["source_row"].tolist() == [6] and "'Pruned lots' not recognised" in s.rejected["reason"][0]
    a = assess(s, site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert a.trees["action"].tolist() == ["excessively_pruned", "excessively_pruned", "retain", "damaged"]
    r = {x["tag"]: x for x in j["offence_rows"]}
    assert sorted(r) == ["1", "2"] and r["1"]["offence_sections"] == "§208-18D" == r["2"]["offence_sections"]
    assert (r["1"]["tier"], r["2"]["tier"]) == ("§208-29B(2)", "§208-29B(1)")
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"], j["civil_penalty_conditional_usd"]) == (
        2000,
        10000,
        0,
    )
    w = dict(zip(a.trees["tag"], a.trees["warnings"]))
    assert "pruned 25%: 25% or more of the tree is excessive pruning (§208-17)" in w["1"]
    assert "pruned 20%: below the 25% of excessive pruning (§208-17): pruning, no excessive pruning" in w["3"]
    assert "pruned over 20%: whether it reached the 25%" in w["4"]
    assert [x["tag"] for x in a.penalties.not_offences] == ["4"]


def test_the_pruned_share_is_the_law_s_not_a_literal():
    # the law's share amended to 30 %: "Pruned 25%" is below it (pruning), "crown reduced 40%" still at or above
    import copy

    from treecalc.rules import law as law_of
    from treecalc.rules import pruning

    law = copy.deepcopy(law_of("croton_on_hudson"))
    law["conditions"]["excessive_pruning_min_percent"] = 30
    t = survey(PRUNED).trees.copy()
    pruning.read_shares(t, "croton_on_hudson", law)
    assert t["action"].tolist() == ["retain", "excessively_pruned", "retain", "damaged"]
    assert "below the 30% of excessive pruning (§208-17)" in t["warnings"][0]


# -- an unclear good-forestry cell (§208-22E) and threatened/endangered cell (§208-19A(5)) ----------------------------
def _up_to_cent(x: float, pct: int) -> float:
    """ "at least" pct % of x, rounded up to the cent (§208-22A/F)."""
    import math

    return math.ceil(round(x * pct, 6)) / 100


def test_replacement_resting_on_an_unclear_good_forestry_cell_is_conditional():
    # §208-22E: "Planting of replacement trees is not required if ... the approval authority determines that the
    # removal ... is required as part of good forestry practice": good forestry exempts. Flat house lot: two trees
    # topped (§208-18D, definite offences: no permit for topping), so §208-22F 120 % of the harmed trees' value.
    # Tree 1 good forestry "maybe": whether it is exempt is not given: its 120 % is conditional, not required.
    # Tree 2 (blank: no determination claimed) is charged: required = 120 % of its value, up to the cent.
    # (Before: tree 1 was counted in the §208-22F part as if "maybe" were no.)
    text = "Tag,Species,DBH (in),Action,Good forestry\n1,Red maple,10,topped,maybe\n2,Red maple,12,topped,\n"
    a = assess(survey(text), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    value = dict(zip(a.trees["tag"], a.trees["value_usd"]))
    assert a.trees["counted"].tolist() == [False, True]
    [part] = j["replacement_parts"]
    assert (part["section"], part["trees"], part["value_usd"]) == ("§208-22F", 1, value["2"])
    assert part["required_value_usd"] == _up_to_cent(value["2"], 120)
    c = j["replacement_conditional"]
    assert c["tags"] == ["1"] and c["required_value_usd"] == _up_to_cent(value["1"], 120)
    assert c["depends_on"] == "good_forestry is no (the survey says 'maybe')"
    assert "good_forestry is no (the survey says 'maybe')" in a.trees["exclusion"][0]


def test_the_permit_preview_keeps_the_22a_replacement_of_an_unclear_good_forestry_cell():
    # A subdividable lot (given): §208-19A(2), 8 in or more, a permit for each of the three proposed removals; a
    # permit for three or more trees needs replacement at 90 % (§208-22A). Tree 3's good forestry "?" is no
    # determination given: the preview keeps its replacement (counted, 90 % of all three) and says so.
    text = "Tag,Species,DBH (in),Action,Good forestry\n1,Red maple,10,remove,\n2,Red maple,12,remove,\n3,Red oak,14,remove,?\n"
    site = {"subdividable": True, "has_residence": True, "site_plan_required": False}
    a = assess(survey(text), site=site, replacement_stock=STOCK)
    j = assessment_json(a)
    assert a.trees["counted"].tolist() == [True, True, True]
    [part] = j["replacement_parts"]
    total = round(sum(a.trees["value_usd"]), 2)
    assert (part["section"], part["trees"]) == ("§208-22A", 3) and part["required_value_usd"] == _up_to_cent(total, 90)
    assert any("§208-22E: 1 tree(s) counted toward the §208-22A replacement" in x for x in a.assumptions)


def test_an_unclear_threatened_or_endangered_cell_needs_a_permit_and_its_offence_is_conditional():
    # §208-19A(5): "Any threatened or endangered species of tree, regardless of size". Flat house lot. Tree 1, 3 in,
    # "maybe", removed: the preview needs a permit; the offence rests on "maybe": conditional at §208-29B(6) (a
    # threatened or endangered species is a DEC protected native plant) $7,500, §208-29A $250 conditional. Tree 2,
    # 5 in, "probably", proposed: a permit, no offence. Tree 3, 10 in, "yes", removed: definite, (6) $7,500, $250.
    # Two offences, no doubling: civil $7,500 definite + $7,500 conditional; criminal $250 + $250.
    # (Before: "maybe" read as not given: no permit for trees 1 and 2, tree 1 no offence.)
    text = (
        "Tag,Species,DBH (in),Action,Threatened or endangered\n"
        "1,Red maple,3,removed,maybe\n2,Red maple,5,remove,probably\n3,Red maple,10,removed,yes\n"
    )
    a = assess(survey(text), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert a.trees["permit_needed"].tolist() == [True, True, True]
    r = {x["tag"]: x for x in j["offence_rows"]}
    assert (r["1"]["status"], r["1"]["tier"], r["3"]["status"], r["3"]["tier"]) == (
        "conditional",
        "§208-29B(6)",
        "definite",
        "§208-29B(6)",
    )
    assert r["1"]["depends_on"] == "threatened_endangered is yes (the survey says 'maybe')"
    assert (j["civil_penalty_max_usd"], j["civil_penalty_conditional_usd"]) == (7500, 7500)
    assert (j["criminal_fine_max_usd"], j["criminal_fine_conditional_usd"]) == (250, 250)


def test_the_permit_condition_notes_read_a_multi_stem_tree_at_either_figure():
    # §208-20C: "trees of 22 in DBH and greater" in the areas to be disturbed are marked; §208-21F: a licensed
    # company may be required for a tree "in excess of 12 inches". Both are conditions a permit may carry, not
    # charges: a tree meets them when either of its DBH figures does.
    # Tree 1, stems "21, 6.4" proposed for removal: √(441 + 40.96) = √481.96 = 21.9536 in (under 22), 22.0 in at
    # the stems' 0.1 in precision (22 or more): §208-20C applies. Both figures are over 12: §208-21F applies.
    # Tree 2, stems "11.9, 0.5" proposed: √(141.61 + 0.25) = √141.86 = 11.9105 in; 11.9 in: under 12 either way.
    text = 'Tag,Species,DBH (in),Action\n1,Red oak,"21, 6.4",remove\n'
    j = assessment_json(assess(survey(text), site=FLAT_HOUSE_LOT, replacement_stock=STOCK))
    assert round(j["per_tree"][0]["dbh_in"], 4) == 21.9536
    notes = json.dumps(j["lines"], ensure_ascii=False)
    assert "§208-20C: trees of 22 in DBH or more" in notes and "§208-21F: for removing" in notes
    small = assessment_json(assess(survey('Tag,Species,DBH (in),Action\n2,Red maple,"11.9, 0.5",remove\n'), site=FLAT_HOUSE_LOT,
                   replacement_stock=STOCK))  # fmt: skip
    text_small = json.dumps(small["lines"], ensure_ascii=False)
    assert "§208-20C" not in text_small and "§208-21F: for removing" not in text_small


def test_earlier_removals_of_unknown_permit_make_no_definite_208_18a_offence():
    # §208-18A: "No person shall cut down or remove more than three (3) trees from any lot within the preceding
    # twelve (12) months without first obtaining a tree removal permit". A house lot (no §208-19A(2)); two trees
    # removed now (10 in, and stems "8, 6": √(64 + 36) = 10 in), two proposed, two removed earlier in the 12
    # months whose permit is not given. 2 + 2 = 4 > 3 only if the earlier two had no permit: the offences are
    # conditional on that, none definite. If established, the four removals without a permit are also clear cutting
    # (§208-17 "four or more trees"), which doubles the fines per tree (§208-29B(7)): civil 2 x tier (2) $1,500 x 2
    # = $6,000; criminal 2 x $5,000 (a violation of §208-18) = $10,000.
    text = (
        'Tree #,Common Name,DBH (in.),Action\n101,Red maple,10,Removed\n102,Black cherry,"8, 6",Removed\n'
        "103,Norway maple,14,Remove\n104,White oak,22,Retain\n105,Sugar maple,6,Remove\n"
    )
    site = {**FLAT_HOUSE_LOT, "prior_removals_12mo": 2, "prior_violation_within_year": True}
    j = assessment_json(assess(survey(text), site=site, replacement_stock=STOCK))
    assert (j["offences_definite"], j["offences_conditional"]) == (0, 2)
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (0, 0)
    assert (j["civil_penalty_conditional_usd"], j["criminal_fine_conditional_usd"]) == (6000, 10000)
    assert all("§208-18C" in r["offence_sections"] for r in j["offence_rows"])
    rows = {r["tag"]: r for r in j["offence_rows"]}
    assert "2 earlier removal(s) in the preceding 12 months were made without a permit" in rows["101"]["depends_on"]
    # given that they had none, the same two are definite
    site["prior_removals_without_permit"] = 2
    j = assessment_json(assess(survey(text), site=site, replacement_stock=STOCK))
    assert (j["offences_definite"], j["offences_conditional"]) == (2, 0)
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (6000, 10000)
