"""assess(): the Chapter 208 / Chapter 95 engine end to end on small Survey stand-ins.

Annual values are the National Tree Benefit Calculator figures of the benefit engine:
ACRU (red maple) 12 in, unspecified land use, default parameters = $117.36/yr
(``treecalc benefits --species ACRU --dbh 12``).
"""

import json
import math
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent / "rules"))
from rules_helpers import make_trees  # noqa: E402

from treecalc import data  # noqa: E402
from treecalc.assessment import assess  # noqa: E402
from treecalc.benefits import compute_benefits  # noqa: E402

QUIET = {"subdividable": False, "has_residence": True, "site_plan_required": False}
ACRU12 = 117.36
STOCK12 = [{"species": "ACRU", "dbh_in": 12, "unit_cost_usd": 900}]


def survey(rows, site=None, rejected=None):
    return SimpleNamespace(
        trees=make_trees(rows),
        rejected=rejected if rejected is not None else pd.DataFrame(),
        site=dict(site or {}),
        site_assumptions=["from ingest"],
        warnings=["ingest warning"],
        rows_read=len(rows) + (0 if rejected is None else len(rejected)),
    )


def three_acru(action="remove", **flags):
    return [{"species_code": "ACRU", "dbh_in": 12, "action": action, **flags}] * 3


def test_acru_12_annual_value_is_117_36():
    b = compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [12.0]}))
    assert round(b["usd_total_annual"].iloc[0], 2) == ACRU12


def test_90_percent_annual():
    # 3 x ACRU 12 in proposed on a subdividable parcel (§208-19A(2)): permit for 3 trees -> §208-22A
    # removed 3 x 117.36 = 352.08; "at least" 90% = 316.872 -> rounded UP to $316.88/yr
    # replacement ACRU 12 in at 117.36: ceil(316.88 / 117.36) = ceil(2.70) = 3 trees, all planted
    a = assess(survey(three_acru(), {"subdividable": True}), replacement_stock=STOCK12)
    r = a.replacement
    assert a.permit["required"] and r["required"] and r["section"] == "§208-22A" and r["percent"] == 90
    assert r["removed_value_usd"] == pytest.approx(352.08)
    assert r["required_value_usd"] == pytest.approx(316.88)
    assert (r["trees_needed"], r["trees_planted"], r["trees_in_lieu"]) == (3, 3, 0)
    assert r["planting_cost_usd"] == 2700.0 and r["native_share"] == 1.0
    j = a.to_json()
    assert j["permit_triggers"] == ["§208-19A(2)"] and j["replacement"]["value_per_tree_usd"] == ACRU12
    assert j["fund_in_lieu_usd"] == 0.0 and j["civil_penalty_max_usd"] == 0 and j["fine_max_usd"] is None
    json.dumps(j)  # serialisable


def test_fewer_than_three_trees_no_replacement():
    # 2 trees under permit: §208-22A needs three or more
    a = assess(survey(three_acru()[:2], {"subdividable": True}), replacement_stock=STOCK12)
    assert a.permit["required"] and not a.replacement["required"] and a.replacement["required_value_usd"] == 0


def test_120_percent_after_violation_annual():
    # 3 x ACRU 12 in removed without a permit on a subdividable lot: offences -> §208-22F
    # removed 352.08 x 120% = 422.496 -> $422.50; ceil(422.50 / 117.36) = ceil(3.60) = 4 trees
    a = assess(survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12)
    r = a.replacement
    assert r["section"] == "§208-22F" and r["percent"] == 120
    assert r["required_value_usd"] == pytest.approx(422.50) and r["trees_needed"] == 4
    # penalties: 3 offences, 12 in = tier 2 $1,500 each; 3 > 3 false, 3 removals no clear cutting -> $4,500
    assert a.penalties["civil_penalty_max_usd"] == 4500 and not a.penalties["doubled"]
    assert a.penalties["criminal_fine_max_usd"] == 750  # 3 x $250
    # the Engineer's percentage: 150% -> 528.12; ceil(528.12 / 117.36) = ceil(4.5) = 5
    a = assess(
        survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12, replacement_percent=150
    )
    assert a.replacement["required_value_usd"] == pytest.approx(528.12) and a.replacement["trees_needed"] == 5


def test_violation_counts_topped_and_has_no_three_tree_threshold():
    # one TOPPED landmark ACRU 12 in: an offence by itself (§208-18D), §208-22F applies to it:
    # 117.36 x 1.2 = 140.832 -> up: 140.84; civil: landmark tier (5) $5,000; criminal §208-18D $5,000
    a = assess(
        survey([{"species_code": "ACRU", "dbh_in": 12, "action": "topped", "landmark": True}], QUIET),
        replacement_stock=STOCK12,
    )
    assert a.replacement["required"] and a.replacement["required_value_usd"] == pytest.approx(140.84)
    assert a.trees["penalty_tier"].tolist() == ["§208-29B(5)"] and a.penalties["civil_penalty_max_usd"] == 5000
    assert a.penalties["criminal_fine_max_usd"] == 5000
    # only DAMAGED (injured), no other provision broken: not an offence by itself, nothing to replace
    a = assess(
        survey([{"species_code": "ACRU", "dbh_in": 12, "action": "damaged", "landmark": True}], QUIET),
        replacement_stock=STOCK12,
    )
    assert not a.replacement["required"] and a.penalties["civil_penalty_max_usd"] == 0
    assert "not an offence by itself" in a.penalties["not_offences"][0]["reason"]


def _cumulative(code, dbh, years):
    from treecalc.models import growth

    def annual(c, d):
        return compute_benefits(pd.DataFrame({"species_code": c, "dbh_in": d}))["usd_total_annual"].to_numpy()

    return float(growth.cumulative_benefits(np.array([code], dtype=object), np.array([dbh]), years, annual)[0])


@pytest.mark.parametrize("violation,pct", [(False, 90), (True, 120)])
def test_cumulative_basis(violation, pct):
    # value per tree = cumulative benefits over 10 years with growth (models.growth), rounded to cents;
    # removed = 3 x v12; required = removed x pct / 100; replacement ACRU 2 in at v2: ceil(required / v2)
    v12 = round(_cumulative("ACRU", 12.0, 10), 2)
    v2 = round(_cumulative("ACRU", 2.0, 10), 2)
    action = "removed" if violation else "remove"
    a = assess(
        survey(three_acru(action), {"subdividable": True}),
        value_basis="cumulative:10",
        replacement_stock=[{"species": "ACRU", "dbh_in": 2.0, "unit_cost_usd": 450}],
    )
    r = a.replacement
    assert a.options["value_basis"] == "cumulative:10" and "10 years" in a.options["value_basis_label"]
    assert r["removed_value_usd"] == pytest.approx(3 * v12, abs=0.005)
    assert r["required_value_usd"] == pytest.approx(math.ceil(3 * v12 * pct - 1e-6) / 100, abs=0.005)
    assert r["trees_needed"] == math.ceil(r["required_value_usd"] / v2 - 1e-9)


@pytest.mark.parametrize("violation,required,needed", [(False, 316.88, 5), (True, 422.50, 7)])
def test_cumulative_1_year_is_the_annual_value_by_hand(violation, required, needed):
    # cumulative:1 = sum over t = 1..1 of V(D_0) = this year's annual value (no growth yet):
    # ACRU 12 in = $117.36, ACRU 2 in = $64.04 (treecalc benefits --species ACRU --dbh 12 / --dbh 2).
    # removed 3 x 117.36 = 352.08
    #   90%: 316.872 -> up 316.88; 316.88 / 64.04 = 4.95 -> 5 trees
    #  120%: 422.496 -> up 422.50; 422.50 / 64.04 = 6.60 -> 7 trees
    action = "removed" if violation else "remove"
    a = assess(
        survey(three_acru(action), {"subdividable": True}),
        value_basis="cumulative:1",
        replacement_stock=[{"species": "ACRU", "dbh_in": 2.0, "unit_cost_usd": 450}],
    )
    r = a.replacement
    assert r["removed_value_usd"] == pytest.approx(352.08)
    assert r["required_value_usd"] == pytest.approx(required)
    assert r["stock"][0]["value_per_tree_usd"] == pytest.approx(64.04)
    assert r["trees_needed"] == needed


@pytest.mark.parametrize("violation,required,needed", [(False, 10976.02, 29), (True, 14634.69, 39)])
def test_appraised_basis(violation, required, needed):
    # CTLA trunk formula (i-Tree Streets Northeast, ACRU: replacement tree $530 at 7.065 sq in, basic price
    # $66/sq in, species rating 90%); condition good 80%, fair 60%:
    #   ACRU 12 in fair: [530 + 66 x (pi x 6^2 - 7.065)] x 0.90 x 0.60
    #                  = [530 + 66 x (113.0973 - 7.065)] x 0.54 = 7528.13 x 0.54 = $4,065.19
    #   (in good condition: 7528.13 x 0.72 = $5,420.26)
    #   ACRU 2 in good: trunk area pi = 3.14 < 7.065 -> the replacement tree's cost: 530 x 0.90 x 0.80 = $381.60
    # removed 3 x 4,065.19 = 12,195.57
    #   90%: 10,976.013 -> up $10,976.02; 10,976.02 / 381.60 = 28.76 -> 29 trees
    #  120%: 14,634.684 -> up $14,634.69; 14,634.69 / 381.60 = 38.35 -> 39 trees
    action = "removed" if violation else "remove"
    a = assess(
        survey(three_acru(action, condition="fair"), {"subdividable": True}),
        value_basis="appraised",
        replacement_stock=[{"species": "ACRU", "dbh_in": 2.0, "unit_cost_usd": 450}],
    )
    r = a.replacement
    assert a.trees["value_usd"].tolist() == [4065.19] * 3
    assert r["removed_value_usd"] == pytest.approx(12195.57)
    assert r["required_value_usd"] == pytest.approx(required)
    assert r["stock"][0]["value_per_tree_usd"] == pytest.approx(381.60)
    assert r["trees_needed"] == needed
    good = assess(survey(three_acru("remove", condition="good"), {"subdividable": True}), value_basis="appraised")
    assert good.trees["value_usd"].tolist() == [5420.26] * 3


def test_invasive_removed_not_counted_and_refused_as_stock():
    cat = data.catalogue()
    inv = cat.index[(cat["part575"] == "prohibited") & (cat["leaf_type"] != "conifer")][0]
    rows = three_acru() + [{"species_code": inv, "dbh_in": 12, "action": "remove"}]
    a = assess(
        survey(rows, {"subdividable": True}),
        replacement_stock=STOCK12 + [{"species": inv, "dbh_in": 3, "unit_cost_usd": 10}],
    )
    # the invasive is not counted: removed value is still 3 x 117.36 = 352.08
    assert a.replacement["removed_value_usd"] == pytest.approx(352.08)
    assert a.trees["exclusion"].iloc[3] == "invasive (6 NYCRR 575 prohibited) §208-22E"
    assert not a.replacement["stock"][1]["accepted"]
    assert all(p["species_code"] == "ACRU" for p in a.replacement["plan"])
    assert any("never accepted" in w for w in a.warnings)


def test_plantable_limit_sends_the_rest_to_the_fund_both_bases(tmp_path):
    # 120%: required 422.50; room for 2 trees: 2 x 117.36 = 234.72 planted
    # per tree: 4 needed - 2 planted = 2 in lieu x $450.00 placeholder = $900.00
    s = survey(three_acru("removed"), {"subdividable": True})
    a = assess(s, replacement_stock=STOCK12, plantable=2)
    assert (a.replacement["trees_planted"], a.replacement["trees_in_lieu"]) == (2, 2)
    assert a.fund["fund_in_lieu_usd"] == 900.0 and a.fund["placeholder"]
    assert any("PLACEHOLDER" in w for w in a.warnings)
    # --fee-per-tree 312.50: 2 x 312.50 = 625.00
    assert (
        assess(s, replacement_stock=STOCK12, plantable=2, fee_per_tree_usd="312.50").fund["fund_in_lieu_usd"] == 625.0
    )
    # value basis x 2 (issue 9: a capital sum, the schedule's value_basis, appraised by default):
    # unmet 422.50 - 234.72 = 187.78 USD/yr = 187.78 / 117.36 = 1.6000 replacement ACRU 12 in trees;
    # each appraised (CTLA, good) at $5,420.26: 187.78 x 5420.26 / 117.36 = 8,672.601 -> $8,672.60; x 2 = $17,345.20
    f = tmp_path / "fees.toml"
    f.write_text('basis = "value"\nmultiplier = "2"\n')
    a = assess(s, replacement_stock=STOCK12, plantable=2, fee_schedule=f)
    assert a.fund["unmet_value_usd"] == pytest.approx(187.78) and a.fund["fund_in_lieu_usd"] == 17345.20
    assert a.fund["capital_value_basis"] == "appraised"


def test_native_share_warning():
    # a non-native, non-invasive broadleaf only: natives 0 of n are not the majority (§208-22C)
    cat = data.catalogue()
    exotic = cat.index[
        ~cat["native"] & ~cat["invasive"] & (cat["leaf_type"] == "broadleaf") & (cat["is_genus"] == "no")
    ][0]
    a = assess(
        survey(three_acru(), {"subdividable": True}),
        replacement_stock=[{"species": exotic, "dbh_in": 12, "unit_cost_usd": 400}],
    )
    assert a.replacement["native_share"] == 0.0
    assert any("§208-22C" in w for w in a.warnings)


def test_doubling_and_days_in_assessment():
    # 4 ACRU 6 in removed on a 20%+ slope without a permit: tier 1 $500 x 4, doubled (4 > 3; clear cutting),
    # 2 days: 500 x 2 x 2 x 4 = $8,000; criminal §208-18 $5,000 x 2 days x 4 = $40,000
    rows = [{"species_code": "ACRU", "dbh_in": 6, "action": "removed", "slope_over_20pct": True}] * 4
    a = assess(survey(rows, QUIET), continuing_days=2, replacement_stock=STOCK12)
    assert a.penalties["doubled"] and a.penalties["civil_penalty_max_usd"] == 8000
    assert a.penalties["criminal_fine_max_usd"] == 40000
    assert a.to_json()["civil_penalty_doubled"] is True


def test_application_pending_option_doubles():
    # one landmark removed while an application was pending: $5,000 x 2 = $10,000
    rows = [{"species_code": "ACRU", "dbh_in": 10, "action": "removed", "landmark": True}]
    a = assess(survey(rows, QUIET), application_pending=True, replacement_stock=STOCK12)
    assert a.penalties["civil_penalty_max_usd"] == 10000


def test_no_permit_needed_no_penalty_no_replacement():
    a = assess(survey([{"species_code": "ACRU", "dbh_in": 10, "action": "removed"}], QUIET))
    assert not a.permit["required"] and a.penalties["civil_penalty_max_usd"] == 0
    assert not a.replacement["required"]


def test_assumptions_and_warnings_carried():
    a = assess(survey(three_acru()))
    assert "from ingest" in a.assumptions and "ingest warning" in a.warnings
    assert any("subdivided" in s for s in a.assumptions)
    assert any("PLACEHOLDER" in s for s in a.assumptions)  # default replacement cost


def test_every_line_names_a_section():
    a = assess(survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12, plantable=1)
    for ln in a.lines:
        assert set(ln) == {"section", "item", "value", "unit", "note"}
        assert ln["section"] == "Survey" or ln["section"].startswith("§")


def test_wesley_hills():
    rows = [
        {"species_code": "ACRU", "dbh_in": 12, "action": "removed", "within_20ft_of_lot_line": False},
        {"species_code": "ACRU", "dbh_in": 8, "action": "removed", "within_20ft_of_lot_line": True},
    ]
    a = assess(
        survey(rows, {"has_residence": False, "lot_area_acres": 0.5, "one_family_co_issued": False}),
        jurisdiction="Wesley Hills",
    )
    j = a.to_json()
    # tree 1: 12 in on a vacant lot (c); tree 2: 8 in within 20 ft, no CO (e): 2 x $5,000
    assert j["jurisdiction"] == "wesley_hills" and j["fine_max_usd"] == 10000
    assert j["permit_triggers"] == ["§95-3A(1)(c)", "§95-3A(1)(e)"]
    assert j["civil_penalty_max_usd"] is None and not j["replacement_required"]
    assert a.wesley_hills["note"] == "Wesley Hills Chapter 95 has no replacement-value rule"
    assert a.wesley_hills["daily_fine_max_usd"] == 2500


def test_all_stock_refused_is_an_error():
    cat = data.catalogue()
    inv = cat.index[(cat["part575"] == "prohibited") & (cat["leaf_type"] != "conifer")][0]
    with pytest.raises(ValueError, match="§208-22E"):
        assess(
            survey(three_acru(), {"subdividable": True}),
            replacement_stock=[{"species": inv, "dbh_in": 3, "unit_cost_usd": 10}],
        )


def test_bad_options():
    with pytest.raises(ValueError):
        assess(survey(three_acru()), value_basis="cumulative:x")
    with pytest.raises(ValueError):
        assess(survey(three_acru()), jurisdiction="Atlantis")
    with pytest.raises(ValueError):
        assess(survey(three_acru()), continuing_days=0)
