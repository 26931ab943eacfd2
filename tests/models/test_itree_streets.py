"""i-Tree Streets interpolation and units, against the published tables by hand."""

import numpy as np
import pytest

from treecalc.models import itree_streets as its
from treecalc.reference import data


def acru(factor: str, land_use: str = "unspecified") -> np.ndarray:
    t = data.benefit_tables()
    return t.stack[factor][data.LAND_USES.index(land_use), t.row_index["ACRU"]]


def test_acru_12in_matches_hand_arithmetic():
    # 12 in = 30.48 cm, halfway between the 22.86 and 38.10 cm classes:
    # frac = (30.48 - 22.86) / (38.10 - 22.86) = 7.62 / 15.24 = 0.5
    u = its.resource_units(np.array(["ACRU"]), np.array([12.0]))
    r = its.to_reader_units(u)
    # hydro_interception 3.59 and 6.66 m3 -> 5.125 m3 x 264.172 = 1,353.88 gal
    assert r["stormwater_gal"][0] == pytest.approx(5.125 * 264.172)
    assert round(r["stormwater_gal"][0], 1) == 1353.9
    # electricity 43.5 and 100.6 kWh -> 72.05 kWh
    assert r["electricity_kwh"][0] == pytest.approx(72.05)
    # natural gas 1977.8 and 3515.5 kBtu -> 2746.65 kBtu / 100 = 27.4665 therms
    assert round(r["natural_gas_therms"][0], 2) == 27.47
    # CO2 sequestered 37.9 and 64.2 kg -> 51.05 kg x 2.20462 = 112.546 lb
    assert round(r["co2_sequestered_lb"][0], 1) == 112.5
    # CO2 avoided 59.4 and 137.4 kg -> 98.4 kg x 2.20462 = 216.93 lb
    assert round(r["co2_avoided_lb"][0], 1) == 216.9


def test_constant_outside_the_class_range():
    # 60 in = 152.4 cm >= 114.30 cm: the last column; 1 in = 2.54 cm < 3.81: the first
    u = its.resource_units(np.array(["ACRU", "ACRU", "ACRU"]), np.array([60.0, 45.0, 1.0]))
    assert u["hydro_interception"].tolist() == [16.50, 16.50, 0.11]
    assert u["electricity"].tolist() == [187.8, 187.8, 1.4]


def test_exact_class_midpoints_give_table_values():
    dbh_in = data.DBH_CLASSES_CM / 2.54
    u = its.resource_units(np.array(["ACRU"] * 9), dbh_in)
    np.testing.assert_allclose(u["co2_sequestered"], acru("co2_sequestered"))


def test_land_use_variant_tables():
    # single-family electricity for ACRU: 45.2 and 104.1 kWh -> 74.65 kWh at 12 in
    u = its.resource_units(np.array(["ACRU"]), np.array([12.0]), "single_family")
    assert u["electricity"][0] == pytest.approx((45.2 + 104.1) / 2)
    # institutional tables are zero for ACRU energy
    u = its.resource_units(np.array(["ACRU"]), np.array([12.0]), "institutional")
    assert u["electricity"][0] == 0.0
    # park/vacant/other has no variant: the zone table
    u = its.resource_units(np.array(["ACRU"]), np.array([12.0]), "park_vacant_other")
    assert u["electricity"][0] == pytest.approx(72.05)


def test_bvoc_is_an_emission_and_lowers_air_quality():
    u = its.resource_units(np.array(["ACRU"]), np.array([12.0]))
    assert u["bvoc"][0] < 0
    r = its.to_reader_units(u)
    dep_avoided = sum(u[f][0] for f in its.AIR_QUALITY_PRICE if f != "bvoc") * its.LB_PER_KG
    assert r["air_quality_lb"][0] == pytest.approx(dep_avoided + u["bvoc"][0] * its.LB_PER_KG)


def test_dollars_with_default_and_overridden_prices():
    u = its.resource_units(np.array(["ACRU"]), np.array([12.0]))
    p = its.resolve_prices()
    d = its.dollars(u, p)
    # energy = 72.05 kWh x $0.1401 + 2746.65 kBtu x $0.01408 = 10.094 + 38.673 = $48.767
    assert d["energy"][0] == pytest.approx(72.05 * 0.1401 + 2746.65 * 0.01408)
    # stormwater = 5.125 m3 x 264.172 = 1353.8815 gal x $0.008/gal = $10.831 (the Northeast price;
    # OpenTreeMap's $0.0008 gave $1.083)
    assert d["stormwater"][0] == pytest.approx(1353.8815 * 0.008)
    assert round(d["stormwater"][0], 2) == 10.83
    d2 = its.dollars(u, its.resolve_prices({"electricity": 0.2}))
    assert d2["energy"][0] == pytest.approx(72.05 * 0.2 + 2746.65 * 0.01408)


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="unknown price 'gold'"):
        its.resolve_prices({"gold": 1})
    # a negative price, or one beyond the range of --price, in the flag's words (units.RANGES)
    with pytest.raises(ValueError, match="price co2 must be from 0 to 1,000,000 USD per unit"):
        its.resolve_prices({"co2": -1})
    with pytest.raises(ValueError, match="price electricity must be from 0 to 1,000,000 USD per unit"):
        its.resolve_prices({"electricity": 1e308})
    with pytest.raises(ValueError, match="unknown land use"):
        its.land_use_index(["farm"])
    with pytest.raises(ValueError, match="value row"):
        its.value_row_index(["NOPE"])


def test_gather_equals_interpolate_for_random_trees():
    rng = np.random.default_rng(0)
    t = data.benefit_tables()
    row = rng.integers(0, len(t.value_rows), 500)
    dbh = rng.uniform(0.5, 140, 500)
    lu = rng.integers(0, len(data.LAND_USES), 500)
    for f in ("electricity", "co2_storage", "property_value"):
        fast = its.gather({f: its.FlatTable.of(t.stack[f])}, row, dbh, lu)[f]
        np.testing.assert_allclose(fast, its.interpolate(t.stack[f], row, dbh, lu))


def test_dbh_positions_by_hand():
    # classes (cm) 3.81, 11.43, 22.86, 38.10, 53.34, 68.58, 83.82, 99.06, 114.30
    # 10 in = 25.4 cm: past 22.86 (class 2), frac = (25.4 - 22.86) / (38.10 - 22.86) = 2.54 / 15.24 = 1/6
    # 1 cm: below the first class, read at class 0, frac 0; 200 cm: the last step, class 7, frac 1
    # 38.10 exactly: class 3, frac 0 (a DBH on a class reads that class)
    # NaN: reads the last step, as a binary search that sorts NaN last did (frac NaN)
    j, frac = its.dbh_positions(np.array([25.4, 1.0, 200.0, 38.10, np.nan]))
    assert j.tolist() == [2, 0, 7, 3, 7]
    assert j.dtype == np.intp
    np.testing.assert_allclose(frac[:4], [1 / 6, 0.0, 1.0, 0.0])
    assert np.isnan(frac[4])
    # a scalar gives scalars
    j0, f0 = its.dbh_positions(25.4)
    assert int(j0) == 2 and float(f0) == pytest.approx(1 / 6)


def test_gather_at_refuses_an_index_outside_the_tables():
    # gather_at skips numpy's per-element bounds check, so it checks the range itself:
    # a table of 6 x 41 x 9 = 2,214 entries has indices 0 ... 2,213
    t = its.FlatTable.of(np.ones((6, 41, 9)))
    assert its.gather_at({"x": t}, np.array([0, 2213]), np.array([0.0, 0.5]))["x"].tolist() == [1.0, 1.0]
    for bad in (2214, -1):
        with pytest.raises(IndexError, match="outside the tables"):
            its.gather_at({"x": t}, np.array([0, bad]), np.array([0.0, 0.0]))


def test_one_value_row_broadcasts_over_many_trees():
    # resource_units takes one value row (or one land use) for a whole array of DBHs, as numpy broadcasting does:
    # ACRU, unspecified land use, electricity by class (kWh) 1.4, 14.5, 43.5, 100.6, ...
    # 12 in = 30.48 cm: halfway between 22.86 and 38.10 cm -> (43.5 + 100.6) / 2 = 72.05 kWh
    # 4.5 in = 11.43 cm: on class 1 -> 14.5 kWh
    u = its.resource_units("ACRU", np.array([12.0, 4.5]))
    np.testing.assert_allclose(u["electricity"], [72.05, 14.5])
    # the same through gather with a length-1 row and land use: the tables' values, not a broadcast error
    t = data.benefit_tables()
    el = {"electricity": its.FlatTable.of(t.stack["electricity"])}
    row = np.array([t.row_index["ACRU"]])
    out = its.gather(el, row, np.array([12.0, 4.5]) * its.CM_PER_IN, np.array([0]))["electricity"]
    np.testing.assert_allclose(out, [72.05, 14.5])
