"""The planting plan's value of one replacement tree is on the same basis as the value planted."""

import pandas as pd


def test_planting_plan_value_per_tree_says_per_year_on_the_annual_basis():
    from types import SimpleNamespace

    from treecalc.app import views

    # a row of the Replacement plan (treecalc.models.planting): value per tree x count = value planted, same basis
    plan = pd.DataFrame(
        {"species_code": ["ACRU"], "value_per_tree_usd": [64.04], "count": [4], "planted_value_usd": [256.16]}
    )
    annual = views.labelled(plan, SimpleNamespace(options={"value_basis": "annual"}))
    assert list(annual.columns) == ["Species code", "Value per tree (USD/yr)", "Trees", "Value planted (USD/yr)"]
    capital = views.labelled(plan, SimpleNamespace(options={"value_basis": "appraised"}))
    assert list(capital.columns) == ["Species code", "Value per tree", "Trees", "Value planted"]
