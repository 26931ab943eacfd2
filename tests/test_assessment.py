"""assess(): the Chapter 208 / Chapter 95 engine end to end on small Survey stand-ins.

Annual values are the National Tree Benefit Calculator figures of the benefit engine:
ACRU (red maple) 12 in, unspecified land use, default parameters = $127.11/yr, by hand from the
Northeast tables: stormwater 5.125 m3 x 264.172 x $0.008 = 10.8311, energy 72.05 kWh x 0.1401 + 2746.65 kBtu
x 0.01408 = 48.7670, air quality 7.9997, CO2 149.45 kg x 2.20462 x 0.00334 = 1.1005, aesthetic 7.75 m2 x
0.0088 x 500,000 / 583.835 = 58.4069; total 127.1052 (117.36 at OpenTreeMap's $0.0008/gal stormwater).
ACRU 2 in: 0.3333 m3 -> 0.7045 + energy 3.1577 + air 0.4392 + CO2 0.0848 + aesthetic 60.2910 = $64.68.
"""

import inspect
import json
import math
from dataclasses import fields
from types import SimpleNamespace

import openpyxl
import pandas as pd
import pytest

from tests.helpers.rules import make_trees
from treecalc.assessment import AssessOptions, assess, required_value  # noqa: E402
from treecalc.models.benefits import compute_benefits  # noqa: E402
from treecalc.models.planting import StockOption, plan  # noqa: E402
from treecalc.reference import data  # noqa: E402
from treecalc.report.json import assessment_json
from treecalc.report.statement import statement_bytes  # noqa: E402
from treecalc.rules.croton_on_hudson import OFFENCE_READING_208 as OFFENCE_READING  # noqa: E402
from treecalc.rules.croton_on_hudson import OTHER_PROHIBITIONS_208 as OTHER_PROHIBITIONS_NOTE  # noqa: E402

QUIET = {"subdividable": False, "has_residence": True, "site_plan_required": False}
ACRU12 = 127.11
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


def test_acru_12_annual_value_is_127_11():
    b = compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [12.0]}))
    assert round(b["usd_total_annual"].iloc[0], 2) == ACRU12


def test_90_percent_annual():
    # 3 x ACRU 12 in proposed on a subdividable parcel (§208-19A(2)): permit for 3 trees -> §208-22A
    # removed 3 x 127.11 = 381.33; "at least" 90% = 343.197 -> rounded UP to $343.20/yr
    # replacement ACRU 12 in at 127.11: ceil(343.20 / 127.11) = ceil(2.70) = 3 trees, all planted
    a = assess(survey(three_acru(), {"subdividable": True}), replacement_stock=STOCK12)
    r = a.replacement
    assert a.permit.required and r.required and r.section == "§208-22A" and r.percent == 90
    assert r.removed_value_usd == pytest.approx(381.33)
    assert r.required_value_usd == pytest.approx(343.20)
    assert (r.trees_needed, r.trees_planted, r.trees_in_lieu) == (3, 3, 0)
    assert r.planting_cost_usd == 2700.0 and r.native_share == 1.0
    j = assessment_json(a)
    assert j["permit_triggers"] == ["§208-19A(2)"] and j["replacement"]["value_per_tree_usd"] == ACRU12
    assert j["fund_in_lieu_usd"] == 0.0 and j["civil_penalty_max_usd"] == 0 and j["fine_max_usd"] is None
    json.dumps(j)  # serialisable


def test_fewer_than_three_trees_no_replacement():
    # 2 trees under permit: §208-22A needs three or more
    a = assess(survey(three_acru()[:2], {"subdividable": True}), replacement_stock=STOCK12)
    assert a.permit.required and not a.replacement.required and a.replacement.required_value_usd == 0


def test_120_percent_after_violation_annual():
    # 3 x ACRU 12 in removed without a permit on a subdividable lot: offences -> §208-22F
    # removed 381.33 x 120% = 457.596 -> $457.60; ceil(457.60 / 127.11) = ceil(3.60) = 4 trees
    a = assess(survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12)
    r = a.replacement
    assert r.section == "§208-22F" and r.percent == 120
    assert r.required_value_usd == pytest.approx(457.60) and r.trees_needed == 4
    # penalties: 3 offences, 12 in = tier 2 $1,500 each; 3 > 3 false, 3 removals no clear cutting -> $4,500
    assert a.penalties.civil_penalty_max_usd == 4500 and not a.penalties.doubled
    assert a.penalties.criminal_fine_max_usd == 750  # 3 x $250
    # the Engineer's percentage: 150% -> 571.995 -> up 572.00; ceil(572.00 / 127.11) = ceil(4.50004) = 5
    a = assess(
        survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12, replacement_percent=150
    )
    assert a.replacement.required_value_usd == pytest.approx(572.00) and a.replacement.trees_needed == 5


def test_violation_counts_topped_and_has_no_three_tree_threshold():
    # one TOPPED landmark ACRU 12 in: an offence by itself (§208-18D), §208-22F applies to it:
    # 127.11 x 1.2 = 152.532 -> up: 152.54; civil: landmark tier (5) $5,000; criminal §208-18D $5,000
    a = assess(
        survey([{"species_code": "ACRU", "dbh_in": 12, "action": "topped", "landmark": True}], QUIET),
        replacement_stock=STOCK12,
    )
    assert a.replacement.required and a.replacement.required_value_usd == pytest.approx(152.54)
    assert a.trees["penalty_tier"].tolist() == ["§208-29B(5)"] and a.penalties.civil_penalty_max_usd == 5000
    assert a.penalties.criminal_fine_max_usd == 5000
    # only DAMAGED (injured), no other provision broken: not an offence by itself, nothing to replace
    a = assess(
        survey([{"species_code": "ACRU", "dbh_in": 12, "action": "damaged", "landmark": True}], QUIET),
        replacement_stock=STOCK12,
    )
    assert not a.replacement.required and a.penalties.civil_penalty_max_usd == 0
    assert "not an offence by itself" in a.penalties.not_offences[0]["reason"]


def _cumulative(code, dbh, years, mortality=0.043):
    """Sum over t = 1..N of V(D_{t-1}) x (1 - m)^(t-1): year t's annual benefits at the DBH at its start,
    counted for the share still alive then (default m: 4.3 %/yr, Roman & Scatena 2011)."""
    from treecalc.models import growth

    path = growth.dbh_path([code], [dbh], years - 1)[0]  # D_0 .. D_{N-1}
    values = compute_benefits(pd.DataFrame({"species_code": [code] * years, "dbh_in": path}))["usd_total_annual"]
    alive = [(1 - mortality) ** (t - 1) for t in range(1, years + 1)]
    return float(sum(v * w for v, w in zip(values, alive)))


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
    assert r.removed_value_usd == pytest.approx(3 * v12, abs=0.005)
    assert r.required_value_usd == pytest.approx(math.ceil(3 * v12 * pct - 1e-6) / 100, abs=0.005)
    assert r.trees_needed == math.ceil(r.required_value_usd / v2 - 1e-9)


@pytest.mark.parametrize("violation,required,needed", [(False, 343.20, 6), (True, 457.60, 8)])
def test_cumulative_1_year_is_the_annual_value_by_hand(violation, required, needed):
    # cumulative:1 = sum over t = 1..1 of V(D_0) = this year's annual value (no growth yet):
    # ACRU 12 in = $127.11, ACRU 2 in = $64.68 (by hand, module docstring).
    # removed 3 x 127.11 = 381.33
    #   90%: 343.197 -> up 343.20; 343.20 / 64.68 = 5.31 -> 6 trees
    #  120%: 457.596 -> up 457.60; 457.60 / 64.68 = 7.07 -> 8 trees
    action = "removed" if violation else "remove"
    a = assess(
        survey(three_acru(action), {"subdividable": True}),
        value_basis="cumulative:1",
        replacement_stock=[{"species": "ACRU", "dbh_in": 2.0, "unit_cost_usd": 450}],
    )
    r = a.replacement
    assert r.removed_value_usd == pytest.approx(381.33)
    assert r.required_value_usd == pytest.approx(required)
    assert r.stock[0]["value_per_tree_usd"] == pytest.approx(64.68)
    assert r.trees_needed == needed


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
    assert r.removed_value_usd == pytest.approx(12195.57)
    assert r.required_value_usd == pytest.approx(required)
    assert r.stock[0]["value_per_tree_usd"] == pytest.approx(381.60)
    assert r.trees_needed == needed
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
    # the invasive is not counted: removed value is still 3 x 127.11 = 381.33
    assert a.replacement.removed_value_usd == pytest.approx(381.33)
    assert a.trees["exclusion"].iloc[3] == "invasive (6 NYCRR 575 prohibited) §208-22E"
    assert not a.replacement.stock[1]["accepted"]
    assert all(p["species_code"] == "ACRU" for p in a.replacement.plan)
    assert any("never accepted" in w for w in a.warnings)


def test_plantable_limit_sends_the_rest_to_the_fund_both_bases(tmp_path):
    # 120%: required 457.60; room for 2 trees: 2 x 127.11 = 254.22 planted
    # per tree: 4 needed - 2 planted = 2 in lieu x $450.00 placeholder = $900.00
    s = survey(three_acru("removed"), {"subdividable": True})
    a = assess(s, replacement_stock=STOCK12, plantable=2)
    assert (a.replacement.trees_planted, a.replacement.trees_in_lieu) == (2, 2)
    assert a.fund.fund_in_lieu_usd == 900.0 and a.fund.placeholder
    assert any("PLACEHOLDER" in w for w in a.warnings)
    # --fee-per-tree 312.50: 2 x 312.50 = 625.00
    assert assess(s, replacement_stock=STOCK12, plantable=2, fee_per_tree_usd="312.50").fund.fund_in_lieu_usd == 625.0
    # value basis x 2 (issue 9: a capital sum, the schedule's value_basis, appraised by default):
    # unmet 457.60 - 254.22 = 203.38 USD/yr = 203.38 / 127.11 = 1.6000 replacement ACRU 12 in trees;
    # each appraised (CTLA, good) at $5,420.26: 203.38 x 5420.26 / 127.11 = 8,672.587 -> $8,672.59; x 2 = $17,345.18
    f = tmp_path / "fees.toml"
    f.write_text('basis = "value"\nmultiplier = "2"\n')
    a = assess(s, replacement_stock=STOCK12, plantable=2, fee_schedule=f)
    assert a.fund.unmet_value_usd == pytest.approx(203.38) and a.fund.fund_in_lieu_usd == 17345.18
    assert a.fund.capital_value_basis == "appraised"


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
    assert a.replacement.native_share == 0.0
    assert any("§208-22C" in w for w in a.warnings)


def test_doubling_and_days_in_assessment():
    # 4 ACRU 6 in removed on a 20%+ slope without a permit: tier 1 $500 x 4, doubled (4 > 3; clear cutting),
    # 2 days: 500 x 2 x 2 x 4 = $8,000; criminal §208-18 $5,000 x 2 days x 4 = $40,000
    rows = [{"species_code": "ACRU", "dbh_in": 6, "action": "removed", "slope_over_20pct": True}] * 4
    a = assess(survey(rows, QUIET), continuing_days=2, replacement_stock=STOCK12)
    assert a.penalties.doubled and a.penalties.civil_penalty_max_usd == 8000
    assert a.penalties.criminal_fine_max_usd == 40000
    assert assessment_json(a)["civil_penalty_doubled"] is True


def test_application_pending_option_doubles():
    # one landmark removed while an application was pending: $5,000 x 2 = $10,000
    rows = [{"species_code": "ACRU", "dbh_in": 10, "action": "removed", "landmark": True}]
    a = assess(survey(rows, QUIET), application_pending=True, replacement_stock=STOCK12)
    assert a.penalties.civil_penalty_max_usd == 10000


def test_no_permit_needed_no_penalty_no_replacement():
    a = assess(survey([{"species_code": "ACRU", "dbh_in": 10, "action": "removed"}], QUIET))
    assert not a.permit.required and a.penalties.civil_penalty_max_usd == 0
    assert not a.replacement.required


def test_assumptions_and_warnings_carried():
    a = assess(survey(three_acru()))
    assert "from ingest" in a.assumptions and "ingest warning" in a.warnings
    assert any("subdivided" in s for s in a.assumptions)
    assert any("PLACEHOLDER" in s for s in a.assumptions)  # default replacement cost


def test_every_line_names_a_section():
    a = assess(survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12, plantable=1)
    assert a.lines, "nothing to check: the loop below would pass on no item"
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
    j = assessment_json(a)
    # tree 1: 12 in on a vacant lot (c); tree 2: 8 in within 20 ft, no CO (e): 2 x $5,000
    assert j["jurisdiction"] == "wesley_hills" and j["fine_max_usd"] == 10000
    assert j["permit_triggers"] == ["§95-3A(1)(c)", "§95-3A(1)(e)"]
    assert j["civil_penalty_max_usd"] is None and not j["replacement_required"]
    assert a.summary.note == "Wesley Hills Chapter 95 has no replacement-value rule"
    assert a.summary.daily_fine_max_usd == 2500


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


# --------------------------------------------------------------------------- regressions from the review
# (formerly tests/test_assessment_review.py) ACRU 2 in = $64.68/yr (module docstring).


def bare_survey(rows, site=None, source=None):
    """A Survey stand-in with no assumptions or warnings of its own (the review's tests count them)."""
    return SimpleNamespace(
        trees=make_trees(rows),
        rejected=pd.DataFrame(),
        site=dict(site or {}),
        site_assumptions=[],
        warnings=[],
        rows_read=len(rows),
        source=source or {},
    )


# -- 1. damaged trees do not inherit (1)/(8); §208-18 maximum for the removals only ---------------
def test_four_removed_one_damaged_end_to_end():
    # 4 ACRU 6 in removed + 1 ACRU 20 in damaged on a quiet lot. (1) and (8) tag the 4 removals only.
    # civil: 4 x $500 x 2 (4 > 3; clear cutting) = $4,000; criminal: 4 x $5,000 (§208-18A/C) = $20,000
    rows = [{"species_code": "ACRU", "dbh_in": 6, "action": "removed"}] * 4 + [
        {"species_code": "ACRU", "dbh_in": 20, "action": "damaged"}
    ]
    a = assess(bare_survey(rows, QUIET), replacement_stock=STOCK12)
    assert a.trees["permit_triggers"].tolist() == ["§208-19A(1); §208-19A(8)"] * 4 + [""]
    assert a.trees["offence"].tolist() == [True] * 4 + [False]
    assert a.penalties.civil_penalty_max_usd == 4000 and a.penalties.criminal_fine_max_usd == 20000


# -- 2. site facts as text are parsed ---------------------------------------------------------------
def test_violation_false_as_text_applies_90_not_120():
    # 3 ACRU 12 in removed without a permit on a subdividable lot, but the site fact says violation=false:
    # §208-22A 90%: 3 x 127.11 = 381.33 x 0.9 = 343.197 -> up 343.20 (120% would be 457.60)
    a = assess(
        bare_survey(three_acru("removed"), {"subdividable": "true", "violation": "false"}), replacement_stock=STOCK12
    )
    assert a.replacement.section == "§208-22A" and a.replacement.required_value_usd == pytest.approx(343.20)
    a = assess(
        bare_survey(three_acru("removed"), {"subdividable": True, "violation": "yes"}), replacement_stock=STOCK12
    )
    assert a.replacement.section == "§208-22F" and a.replacement.required_value_usd == pytest.approx(457.60)
    with pytest.raises(ValueError, match="site fact violation"):
        assess(bare_survey(three_acru("removed"), {"violation": "dunno"}))


def test_wesley_vacant_lot_false_as_text():
    # 12 in removed, vacant_lot "false", small lot with a CO: no (c), (d), (e): no fine
    rows = [{"species_code": "ACRU", "dbh_in": 12, "action": "removed"}]
    a = assess(
        bare_survey(
            rows, {"vacant_lot": "false", "has_residence": False, "lot_area_acres": "0.5", "one_family_co_issued": True}
        ),
        jurisdiction="wesley_hills",
    )
    assert assessment_json(a)["fine_max_usd"] == 0 and assessment_json(a)["permit_triggers"] == []
    with pytest.raises(ValueError, match="lot_area_acres"):
        assess(bare_survey(rows, {"lot_area_acres": "inf"}), jurisdiction="wesley_hills")
    with pytest.raises(ValueError, match="lot_area_acres"):
        assess(bare_survey(rows, {"lot_area_acres": -2}), jurisdiction="wesley_hills")


# -- 3, 4. Wesley Hills: removals only; lot-line column not surveyed --------------------------------
def test_wesley_damaged_not_fined_and_lot_line_not_surveyed():
    # lot with a residence, 0.5 acre, no CO. Tree 1: 8 in removed; tree 2: 12 in damaged.
    # The survey had no lot-line column (the reader filled False): tree 1 is assumed within 20 ft -> (e),
    # $5,000, but on an assumed fact: conditional (issue 9), not in fine_max_usd. Tree 2 is damaged, not
    # removed: no trigger, no fine.
    rows = [
        {"species_code": "ACRU", "dbh_in": 8, "action": "removed", "within_20ft_of_lot_line": False},
        {"species_code": "ACRU", "dbh_in": 12, "action": "damaged", "within_20ft_of_lot_line": False},
    ]
    s = bare_survey(
        rows,
        {"has_residence": True, "lot_area_acres": 0.5, "one_family_co_issued": False},
        source={"flags_not_surveyed": ["within_20ft_of_lot_line"]},
    )
    a = assess(s, jurisdiction="wesley_hills")
    assert a.trees["permit_triggers"].tolist() == ["§95-3A(1)(e)", ""]
    assert assessment_json(a)["fine_max_usd"] == 0 and assessment_json(a)["fine_conditional_usd"] == 5000
    assert assessment_json(a)["offence_rows"][0]["depends_on"].startswith("within_20ft_of_lot_line not given")
    assert any("no lot-line column" in x for x in a.assumptions)
    assert any("damaged tree" in x for x in a.summary.notes)


# -- 5. validation ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kw,match",
    [
        ({"replacement_percent": 0}, "replacement percentage"),
        ({"replacement_percent": -10}, "replacement percentage"),
        ({"replacement_percent": float("nan")}, "replacement percentage"),
        ({"replacement_percent": float("inf")}, "replacement percentage"),
        ({"plantable": -1}, "plantable"),
        ({"plantable": 1.5}, "plantable"),
        ({"plantable_area_sqft": -100.0}, "plantable area"),
        ({"plantable_area_sqft": float("inf")}, "plantable area"),
        ({"continuing_days": 1.5}, "whole number"),
        ({"continuing_days": 0}, "whole number"),
    ],
)
def test_bad_numbers_are_value_errors(kw, match):
    with pytest.raises(ValueError, match=match):
        assess(bare_survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12, **kw)


def test_solver_failure_is_a_value_error_not_runtime_error():
    o = StockOption("ACRU", "x", "x", 2.0, 450.0, 64.04, True, "small", "broadleaf", 900.0)
    with pytest.raises(ValueError, match="plantable"):
        plan([o], 100.0, fee_per_tree_usd=450.0, plantable=-1)
    with pytest.raises(ValueError, match="plantable area"):
        plan([o], 100.0, fee_per_tree_usd=450.0, plantable_area_sqft=-5.0)


def test_replacement_percent_without_violation_is_said():
    # 3 proposed removals under a permit: §208-22A 90%; a percentage given is not used and a warning says so
    a = assess(bare_survey(three_acru(), {"subdividable": True}), replacement_stock=STOCK12, replacement_percent=150)
    assert a.replacement.percent == 90 and any("only after a violation" in w for w in a.warnings)


# -- 6. "at least 90%" rounds up --------------------------------------------------------------------
def test_required_value_rounds_up_and_the_plan_follows():
    # 11.16 x 90% = 10.044 -> 10.05 (half-up would give 10.04, which is less than 90%)
    assert required_value(11.16, 90) == 10.05
    # 120%: 10.00 x 1.2 = 12.00 exactly: stays 12.00
    assert required_value(10.00, 120) == 12.00
    # trees of 5.02: 2 x 5.02 = 10.04 < 10.05 -> 3 trees (15.06); with 10.04 two would have done
    o = StockOption("ACRU", "x", "x", 2.0, 100.0, 5.02, True, "small", "broadleaf", 900.0)
    assert plan([o], required_value(11.16, 90), fee_per_tree_usd=450.0).counts == [3]
    assert plan([o], 10.04, fee_per_tree_usd=450.0).counts == [2]


# -- 9. Wesley Hills label, days, exceptions --------------------------------------------------------
def test_wesley_label_days_and_exceptions():
    rows = [{"species_code": "ACRU", "dbh_in": 12, "action": "removed"}]
    site = {"has_residence": False, "lot_area_acres": 0.5, "one_family_co_issued": True}
    a = assess(bare_survey(rows, site), jurisdiction="wesley_hills", continuing_days=3)
    j = assessment_json(a)
    assert "§208" not in j["value_basis_label"] and not any("§208" in ln["section"] for ln in a.lines)
    # tree fine: 1 x $5,000 (penalties A has no per-day clause: days do not multiply it)
    assert j["fine_max_usd"] == 5000
    # other violations (B): $2,500 each day, but treecalc assesses no other violation: no 3 x $2,500 total is
    # printed for one that is not there
    assert a.summary.other_violation_max_usd is None
    assert not any(ln["value"] == 7500 for ln in a.lines)
    # §95-3D(2) work by or for the Village: no permit, no fine
    a = assess(bare_survey(rows, {**site, "village_work": "yes"}), jurisdiction="wesley_hills")
    assert assessment_json(a)["fine_max_usd"] == 0 and a.permit.exceptions_applied[0]["section"] == "§95-3D(2)"


# -- 10, 11. readings stated ------------------------------------------------------------------------
def test_readings_and_notes_state_the_offence_rule_and_what_is_left_to_the_engineer():
    a = assess(bare_survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12)
    readings = " ".join(a.method["readings"])
    assert "second and each subsequent violation" in readings and "$1,000 per tree" in readings
    assert OFFENCE_READING in a.method["readings"] and OTHER_PROHIBITIONS_NOTE in a.method["readings"]
    assert "§208-18B" in OTHER_PROHIBITIONS_NOTE and "§208-18D" in OFFENCE_READING and "§208-20F" in OFFENCE_READING
    assert OFFENCE_READING in a.penalties.notes and OTHER_PROHIBITIONS_NOTE in a.penalties.notes
    # the statement writes them (Penalties notes and Method & sources)
    import io

    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)), read_only=True)
    text = " ".join(str(c) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for c in row if c)
    assert OFFENCE_READING in text and OTHER_PROHIBITIONS_NOTE in text


# -- 12. conifer replacements -----------------------------------------------------------------------
def test_conifer_height_assumption_surfaced_and_short_conifer_refused():
    s = bare_survey(three_acru("removed"), {"subdividable": True})
    a = assess(s, replacement_species="pine", replacement_dbh_in=2, replacement_cost_usd=300)
    assert any("conifer height not given" in x for x in a.assumptions)
    assert any("conifer height not given" in ln["note"] for ln in a.lines if ln["item"] == "Replacement stock")
    a = assess(s, replacement_species="pine", replacement_dbh_in=2, replacement_height_ft=6, replacement_cost_usd=300)
    assert not any("conifer height" in x for x in a.assumptions)
    with pytest.raises(ValueError, match="4 ft is under the 5 ft minimum"):
        assess(s, replacement_species="pine", replacement_dbh_in=2, replacement_height_ft=4, replacement_cost_usd=300)


def test_each_option_is_a_keyword_of_assess_with_the_same_default():
    """assess() gathers its options into AssessOptions by name (the keywords the CLI, app and tests pass)."""
    params = inspect.signature(assess).parameters
    assert fields(AssessOptions), "nothing to check: the loop below would pass on no item"
    for f in fields(AssessOptions):
        assert params[f.name].kind is inspect.Parameter.KEYWORD_ONLY, f.name
        assert params[f.name].default == f.default, f.name


def test_prepare_loads_the_law_and_leaves_an_unknown_jurisdiction_to_assess():
    from treecalc.assessment import prepare
    from treecalc.law import access

    access._law_cached.cache_clear()
    prepare("Wesley Hills")  # any spelling assess accepts: the law of wesley_hills is now loaded
    assert access._law_cached.cache_info().currsize == 1
    prepare("Atlantis")  # not a jurisdiction: nothing raised here; assess() names it
    with pytest.raises(ValueError, match="unknown jurisdiction 'Atlantis'"):
        assess(data.SAMPLE_SURVEY, jurisdiction="Atlantis")


def test_in_lieu_note_names_the_tree_and_its_value_in_dollars():
    # the sample's default replacement stock is one Red maple (ACRU) at its default DBH; its value per tree is
    # the replacement plan's own value_per_tree_usd, written to the cent with $ and, on the annual basis, /yr
    # (the note said "one ACRU (64.04 on this basis)": no name, no unit)
    for basis, unit in (("annual", "/yr"), ("appraised", "")):
        a = assess(data.SAMPLE_SURVEY, value_basis=basis)
        value = a.replacement.stock[0]["value_per_tree_usd"] if a.replacement.stock else None
        notes = [n for n in a.replacement.notes if "in lieu stands" in n]
        assert notes == [
            f"a tree paid for in lieu stands for the value of one Red maple (ACRU), ${value:,.2f}{unit} on this "
            "basis, the first accepted stock entry"
        ]
