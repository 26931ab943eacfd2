"""benefits() / compute_benefits(): the chained models and their parameters."""

import numpy as np
import pandas as pd
import pytest

import treecalc
from treecalc.benefits import default_large_tree_leaf_area_m2
from treecalc.species import UnknownSpecies


def test_default_large_tree_leaf_area():
    # BDL OTHER at 40 years: 58.3 cm DBH (dbh_by_age_class); lsa at 53.34 cm = 531.8,
    # at 68.58 cm = 688.0 (BDL OTHER row) -> 531.8 + (58.3-53.34)/15.24 x 156.2 = 582.6..583.9
    assert default_large_tree_leaf_area_m2() == pytest.approx(583.84, abs=0.01)


def test_red_maple_12in_dollars_by_hand():
    r = treecalc.benefits("Red maple", 12)
    d = r["dollars"]
    assert r["species_code"] == "ACRU" and r["itree_code"] == "ACRU"
    # energy: 72.05 kWh x 0.1401 + 2746.65 kBtu x 0.01408 = 10.0942 + 38.6728 = 48.767
    assert d["energy"] == pytest.approx(48.767037)
    # co2: (51.05 + 98.4) kg x 2.20462 x 0.00334 = 329.48 lb x 0.00334 = 1.1005
    assert d["co2"] == pytest.approx(149.45 * 2.20462 * 0.00334)
    # property: L = (7.9 + 7.6)/2 = 7.75 m2/yr; 7.75 x 0.0088 x 500,000 x 1.0 / 583.835 = 58.41
    assert d["property"] == pytest.approx(7.75 * 4400 / 583.8354, rel=1e-6)
    assert d["total_annual"] == pytest.approx(sum(d[k] for k in ("stormwater", "energy", "air_quality", "co2", "property")))
    assert round(d["total_annual"], 2) == 117.36


def test_json_keys():
    r = treecalc.benefits("ACRU", 12)
    for k in ("species_code", "scientific_name", "common_name", "itree_code", "dbh_in", "stormwater_gal",
              "electricity_kwh", "natural_gas_therms", "air_quality_lb", "co2_sequestered_lb", "co2_avoided_lb",
              "co2_stored_lb", "leaf_area_increase_m2"):
        assert k in r
    assert set(r["dollars"]) == {"stormwater", "energy", "air_quality", "co2", "property", "total_annual"}


def test_parameters_change_the_property_value():
    base = treecalc.benefits("ACRU", 12)["dollars"]["property"]
    assert treecalc.benefits("ACRU", 12, home_price_usd=1_000_000)["dollars"]["property"] == pytest.approx(2 * base)
    assert treecalc.benefits("ACRU", 12, large_tree_leaf_area_m2=583.8354330708662 / 2)["dollars"]["property"] == \
        pytest.approx(2 * base)
    # multi-family: C = 0.75
    mf = treecalc.benefits("ACRU", 12, land_use="multi_family")["dollars"]["property"]
    assert mf == pytest.approx(0.75 * base)


def test_tulip_tree_values_come_from_bdl_other():
    a = treecalc.benefits("Tulip tree", 20)
    b = treecalc.compute_benefits(pd.DataFrame({"species_code": ["BDL OTHER"], "dbh_in": [20.0]})).iloc[0]
    assert a["itree_code"] == "BDL OTHER"
    assert a["dollars"]["total_annual"] == pytest.approx(b["usd_total_annual"])


def test_compute_benefits_equals_single_tree_calls():
    frame = pd.DataFrame({"species": ["Red maple", "Quercus rubra", "ginkgo", "Red maple"],
                          "dbh_in": [12, 30.5, 4, 60], "land_use": ["", "single_family", None, "institutional"]})
    out = treecalc.compute_benefits(frame)
    for i, row in frame.iterrows():
        one = treecalc.benefits(row["species"], row["dbh_in"], land_use=row["land_use"])
        assert out.loc[i, "usd_total_annual"] == pytest.approx(one["dollars"]["total_annual"])
        assert out.loc[i, "stormwater_gal"] == pytest.approx(one["stormwater_gal"])
    assert list(out["land_use"].astype(str)) == ["unspecified", "single_family", "unspecified", "institutional"]


def test_errors_name_the_problem():
    with pytest.raises(UnknownSpecies):
        treecalc.benefits("Dragon tree of Mordor", 10)
    with pytest.raises(ValueError, match="positive"):
        treecalc.benefits("ACRU", 0)
    with pytest.raises(ValueError, match="row 1"):
        treecalc.compute_benefits(pd.DataFrame({"species_code": ["ACRU", "ACRU"], "dbh_in": [3, "x"]}))
    with pytest.raises(TypeError, match="unknown benefit parameter"):
        treecalc.compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [3]}), colour="red")


def test_million_style_input_types():
    # arrow-backed strings, categoricals and numpy object arrays all work
    frame = pd.DataFrame({"species_code": pd.Categorical(["ACRU", "QURU"]), "dbh_in": np.array([10.0, 20.0])})
    out = treecalc.compute_benefits(frame)
    assert list(out["species_code"].astype(str)) == ["ACRU", "QURU"]


def test_replacement_value_and_cumulative_are_reported():
    r = treecalc.benefits("ACRU", 12)
    # CTLA: TA = pi x 6^2 = 113.097 sq in; [530 + 66 x (113.097 - 7.065)] = 7,528.13;
    # x species rating 0.90 x condition good 0.80 = 5,420.26
    assert r["replacement_value_usd"] == pytest.approx(5420.26, abs=0.01)
    # 20 years: year t valued at the DBH at the start of year t (growth.dbh_path), no mortality
    from treecalc.models import growth

    path = growth.dbh_path(["ACRU"], [12.0], 20)[0][:20]
    expected = sum(treecalc.benefits("ACRU", d)["dollars"]["total_annual"] for d in path)
    assert r["cumulative_usd"] == pytest.approx(expected)
    assert r["cumulative_usd"] > 20 * r["dollars"]["total_annual"]  # the tree grows
    r2 = treecalc.benefits("ACRU", 12, mortality_rate=0.05)
    assert r2["cumulative_usd"] < r["cumulative_usd"]


@pytest.mark.parametrize("kw,msg", [
    ({"home_price_usd": float("nan")}, "home price"),
    ({"home_price_usd": -1}, "home price"),
    ({"large_tree_leaf_area_m2": 0}, "leaf area"),
    ({"land_use_factors": {"multi_family": 1.5}}, "land-use factor"),
    ({"sale_price_fraction": 2}, "share of the sale price"),
])
def test_bad_parameters_are_named_not_silently_replaced(kw, msg):
    # a leaf area of 0 used to fall back to the default without a word
    with pytest.raises(ValueError, match=msg):
        treecalc.benefits("ACRU", 12, **kw)
