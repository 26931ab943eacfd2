"""Projected annual value of the removed trees and of the replacements."""

import numpy as np
import pytest

import treecalc
from treecalc.data import SAMPLE_SURVEY
from treecalc.models import growth
from treecalc.projection import PLANTED, REMOVED, projection


def test_projection_of_the_sample():
    a = treecalc.assess(SAMPLE_SURVEY)
    p = projection(a, years=20)
    removed = p[p["series"] == REMOVED].set_index("year")["value_usd"]
    planted = p[p["series"] == PLANTED].set_index("year")["value_usd"]
    assert list(removed.index) == list(range(21))
    # year 0: the counted trees' annual benefits are the value removed (annual basis)
    # (the engine adds per-tree values rounded to cents: within a cent or two of the raw sum)
    assert removed[0] == pytest.approx(a.replacement["removed_value_usd"], abs=0.02)
    # year 0: the plan's trees at their planting size: count x value per tree
    plan = a.replacement["plan"][0]
    assert planted[0] == pytest.approx(plan["count"] * plan["value_per_tree_usd"], abs=0.01 * plan["count"])
    # year 5 of the plan: each tree valued at the DBH growth gives it after 5 years
    d5 = growth.dbh_path([plan["species_code"]], [plan["dbh_in"]], 5)[0][5]
    one = treecalc.benefits(plan["species_code"], d5, **a.options.get("benefit_parameters", {}))
    assert planted[5] == pytest.approx(plan["count"] * one["dollars"]["total_annual"])
    assert np.all(np.isfinite(p["value_usd"]))
