"""The aesthetic / property-value model, A = L x (T x C) / M, with numbers worked by hand."""

import numpy as np
import pytest

from treecalc.models import property_value as pv
from treecalc.reference import data


def test_docstring_example():
    # L = 7.75 m2/yr (ACRU at 12 in), T = 0.0088 x $500,000 = $4,400, C = 1, M = 583.84 m2:
    # 7.75 x 4,400 / 583.84 = $58.41/yr
    assert pv.aesthetic_value(7.75, 500_000, 1.0, 583.84) == pytest.approx(58.4064, abs=1e-4)


def test_vectorised_over_trees_and_land_uses():
    # home $400,000: T = 0.0088 x 400,000 = $3,520; M = 500 m2
    # 7.9 m2/yr small commercial (C 0.66): 7.9 x 3,520 x 0.66 / 500 = $36.70656
    # 2.8 m2/yr industrial / large commercial (C 0.50): 2.8 x 3,520 x 0.5 / 500 = $9.856
    # 0 m2/yr (a zero table): $0
    got = pv.aesthetic_value(np.array([7.9, 2.8, 0.0]), 400_000, np.array([0.66, 0.5, 1.0]), 500.0)
    assert got == pytest.approx([36.70656, 9.856, 0.0])


def test_sale_price_fraction_is_a_parameter():
    # 1 % instead of 0.88 %: 7.75 x (0.01 x 500,000) / 500 = $77.50
    assert pv.aesthetic_value(7.75, 500_000, 1.0, 500.0, sale_price_fraction=0.01) == pytest.approx(77.5)


def test_home_price_zero_gives_zero_and_bad_inputs_raise():
    assert pv.aesthetic_value(7.75, 0.0, 1.0, 500.0) == 0.0
    with pytest.raises(ValueError, match="home_price_usd"):
        pv.aesthetic_value(7.75, -1.0, 1.0, 500.0)
    with pytest.raises(ValueError, match="large_tree_leaf_area_m2"):
        pv.aesthetic_value(7.75, 500_000, 1.0, 0.0)


def test_land_use_factors_cover_every_land_use_and_state_their_source():
    assert set(pv.LAND_USE_FACTOR) == set(data.LAND_USES) == set(pv.LAND_USE_FACTOR_STATUS)
    assert all(0 <= c <= 1 for c in pv.LAND_USE_FACTOR.values())
    assert pv.LAND_USE_FACTOR["single_family"] == 1.0 and "by definition" in pv.LAND_USE_FACTOR_STATUS["single_family"]
    for lu in set(data.LAND_USES) - {"single_family", "unspecified"}:
        assert "unverified" in pv.LAND_USE_FACTOR_STATUS[lu], lu


def test_small_commercial_and_industrial_are_apart_and_unsaid_takes_the_lower():
    f = pv.LAND_USE_FACTOR
    assert f["small_commercial"] == 0.66 and f["industrial_large_commercial"] == 0.50
    assert f["commercial_industrial"] == min(f["small_commercial"], f["industrial_large_commercial"])
