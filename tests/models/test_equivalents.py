"""The year's benefits beside everyday quantities (:mod:`treecalc.models.equivalents`), worked by hand from the
published factors: the library computes them, the app only puts them into words."""

from __future__ import annotations

import pandas as pd
import pytest

from treecalc.models import equivalents as eq


def test_the_factors_are_the_published_ones():
    # US EPA: 8.887 kg CO2 a gallon of gasoline; 8.887 kg x 2.20462 lb/kg (i-Tree's pound) = 19.59245794 lb
    assert eq.CO2_LB_PER_GALLON_GASOLINE == pytest.approx(19.59245794, abs=1e-9)
    # US EPA: 3.93e-4 t CO2 a vehicle mile; 3.93e-4 t x 2,204.62 lb/t = 0.86641566 lb
    assert eq.CO2_LB_PER_VEHICLE_MILE == pytest.approx(0.86641566, abs=1e-9)
    # US EIA 2022: 10,791 kWh a year per home; a 55-gallon barrel
    assert (eq.HOME_KWH_PER_YEAR, eq.RAIN_BARREL_GAL) == (10_791.0, 55.0)
    # the caption cites the same figures
    assert "8.887 kg" in eq.SOURCES and "3.93×10⁻⁴ t" in eq.SOURCES and "10,791 kWh" in eq.SOURCES


def test_two_trees_summed_and_set_beside_everyday_quantities():
    ben = pd.DataFrame(
        {
            "stormwater_gal": [100.0, 120.0],  # 220 gal / 55 gal a barrel = 4 barrels
            "electricity_kwh": [5_000.0, 5_791.0],  # 10,791 kWh = one home's year: 10,791 / 10,791 x 365 = 365 days
            # 1,959.245794 lb of CO2 a year = 100 gallons x 19.59245794 lb;
            # 1,959.245794 / 0.86641566 lb a mile = 2,261.3231552 miles
            "co2_sequestered_lb": [1_000.0, 500.0],
            "co2_avoided_lb": [400.0, 59.245794],
            "co2_stored_lb": [3_000.0, 2_000.0],  # a stock: summed, never an equivalent
            "air_quality_lb": [0.25, 0.5],
            # no natural_gas_therms column: it sums to 0
        }
    )
    e = eq.equivalents(ben)
    assert (e.stormwater_gal, e.rain_barrels) == (220.0, 4.0)
    assert (e.electricity_kwh, e.home_days) == (10_791.0, 365.0)
    assert e.co2_lb == pytest.approx(1_959.245794)
    assert e.gasoline_gal == pytest.approx(100.0)
    assert e.vehicle_miles == pytest.approx(2_261.3231552, abs=1e-6)
    assert (e.co2_stored_lb, e.air_quality_lb, e.natural_gas_therms) == (5_000.0, 0.75, 0.0)


def test_no_trees_is_nothing_of_anything():
    e = eq.equivalents(pd.DataFrame())
    assert (e.stormwater_gal, e.rain_barrels, e.home_days, e.gasoline_gal, e.vehicle_miles) == (0, 0, 0, 0, 0)
