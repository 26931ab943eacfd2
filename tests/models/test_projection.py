"""Projected annual value of the removed trees and of the replacements."""

import numpy as np
import pandas as pd
import pytest

import treecalc
from treecalc.models import growth
from treecalc.models.projection import PLANTED, REMOVED, payback, projection
from treecalc.reference.data import SAMPLE_SURVEY
from treecalc.report.json import assessment_json


def test_projection_of_the_sample():
    a = treecalc.assess(SAMPLE_SURVEY)
    p = projection(a, years=20)
    removed = p[p["series"] == REMOVED].set_index("year")["value_usd"]
    planted = p[p["series"] == PLANTED].set_index("year")["value_usd"]
    assert list(removed.index) == list(range(21))
    # year 0: the counted trees' annual benefits are the value removed (annual basis)
    # (the engine adds per-tree values rounded to cents: within a cent or two of the raw sum)
    assert removed[0] == pytest.approx(a.replacement.removed_value_usd, abs=0.02)
    # year 0: the plan's trees at their planting size: count x value per tree
    plan = a.replacement.plan[0]
    assert planted[0] == pytest.approx(plan["count"] * plan["value_per_tree_usd"], abs=0.01 * plan["count"])
    # year 5 of the plan: each tree valued at the DBH growth gives it after 5 years, times the share
    # still alive under the default 4.3 %/yr mortality (Roman & Scatena 2011): 0.957^5 = 0.915849^2 x 0.957
    # = 0.838779 x 0.957 = 0.802712 (year 0 is today: 0.957^0 = 1, so the year-0 checks above stand)
    assert a.options["mortality_rate"] == 0.043
    d5 = growth.dbh_path([plan["species_code"]], [plan["dbh_in"]], 5)[0][5]
    one = treecalc.benefits(plan["species_code"], d5, **a.options.get("benefit_parameters", {}))
    assert planted[5] == pytest.approx(plan["count"] * one["dollars"]["total_annual"] * 0.802712, rel=1e-6)
    assert np.all(np.isfinite(p["value_usd"]))


def test_no_mortality_gives_the_grown_value_and_a_rate_halves_by_hand():
    a0 = treecalc.assess(SAMPLE_SURVEY, mortality=0)
    a5 = treecalc.assess(SAMPLE_SURVEY, mortality=0.05)
    p0, p5 = projection(a0, 20), projection(a5, 20)
    # the same trees and plan; year t differs only by the share alive, (1 - 0.05)^t: 0.95^10 = 0.598737
    for series in (REMOVED, PLANTED):
        v0 = p0[p0["series"] == series].set_index("year")["value_usd"]
        v5 = p5[p5["series"] == series].set_index("year")["value_usd"]
        assert v5[10] == pytest.approx(v0[10] * 0.598737, rel=1e-6)


def test_payback_by_hand():
    # removed: 100, 100, 100 $/yr; planted: 40, 90, 180 $/yr. Cumulative after year 1: 40 vs 100;
    # year 2: 130 vs 200; year 3: 310 vs 300 -> passes in year 3
    df = pd.DataFrame(
        {"year": [0, 1, 2] * 2, "series": [REMOVED] * 3 + [PLANTED] * 3, "value_usd": [100, 100, 100, 40, 90, 180]}
    )
    pb = payback(df, 3, 0.043)
    assert pb["year"] == 3 and "year 3" in pb["text"] and "4.3%" in pb["text"]
    # within 2 years it has not passed (130 < 200)
    assert payback(df, 2, 0.043)["year"] is None
    assert "not pass" in payback(df, 2, 0.043)["text"] and "within 2 years" in payback(df, 2, 0.043)["text"]


def test_payback_in_the_json_and_the_fee_schedule_rate():
    a = treecalc.assess(
        SAMPLE_SURVEY, fee_schedule={"basis": "per_tree", "fee_per_tree_usd": "450", "mortality_rate": "0.035"}
    )
    j = assessment_json(a)["projection"]
    assert j["mortality_rate"] == 0.035 and j["mortality_source"].startswith("fee schedule")
    df = projection(a, 20)
    assert j["payback_year"] == payback(df, 20, 0.035)["year"]
    with pytest.raises(ValueError, match="mortality"):
        treecalc.assess(SAMPLE_SURVEY, mortality=1.5)
