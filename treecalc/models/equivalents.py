"""The year's benefits of some trees set beside everyday quantities (National Tree Benefit Calculator style).

Sums of the benefit engine's columns (:func:`treecalc.models.benefits.compute_benefits`) and what they are
equivalent to: rain barrels, days of a home's electricity, gallons of gasoline and miles driven. The
factors are the published ones cited beside each; the presenters only put the figures into words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from treecalc.quantities import LB_PER_KG

__all__ = [
    "CO2_LB_PER_GALLON_GASOLINE",
    "CO2_LB_PER_VEHICLE_MILE",
    "HOME_KWH_PER_YEAR",
    "RAIN_BARREL_GAL",
    "SOURCES",
    "Equivalents",
    "equivalents",
]

#: lb of CO₂ from burning one US gallon of gasoline: 8.887 kg (US EPA, Greenhouse Gas Equivalencies
#: Calculator — Calculations and References, "gallons of gasoline consumed") = 19.59 lb.
CO2_LB_PER_GALLON_GASOLINE = 8.887 * LB_PER_KG
#: lb of CO₂ per mile of an average gasoline passenger vehicle: 3.93e-4 t (US EPA, Greenhouse Gas
#: Equivalencies Calculator, "miles driven by an average gasoline-powered passenger vehicle"), at 2,204.62 lb
#: a metric ton.
CO2_LB_PER_VEHICLE_MILE = 3.93e-4 * 2204.62
#: kWh a year of an average US residential customer: 10,791 kWh (US EIA, "How much electricity does an
#: American home use?", 2022).
HOME_KWH_PER_YEAR = 10_791.0
#: A standard rain barrel, US gallons.
RAIN_BARREL_GAL = 55.0

#: The sources of the factors above, as a caption under the figures cites them.
SOURCES = (
    "Equivalents: US EPA Greenhouse Gas Equivalencies Calculator (8.887 kg CO₂ per gallon of "
    "gasoline; 3.93×10⁻⁴ t CO₂ per vehicle mile); US EIA (10,791 kWh a year per US home, 2022); "
    "a 55-gallon rain barrel."
)


@dataclass(frozen=True)
class Equivalents:
    """The year's benefits summed over the trees, and what they are equivalent to."""

    stormwater_gal: float
    electricity_kwh: float
    natural_gas_therms: float
    #: CO₂ taken up (sequestered) and avoided a year, lb
    co2_lb: float
    #: CO₂ stored in the wood to date (a stock, not per year), lb
    co2_stored_lb: float
    air_quality_lb: float
    rain_barrels: float
    #: days of an average US home's electricity
    home_days: float
    gasoline_gal: float
    vehicle_miles: float


def equivalents(ben: Any) -> Equivalents:
    """The sums of ``ben`` (the benefit engine's per-tree columns; a column it lacks sums to 0) and their
    everyday equivalents."""

    def s(c: str) -> float:
        return float(ben[c].sum()) if c in ben else 0.0

    gal, kwh = s("stormwater_gal"), s("electricity_kwh")
    co2 = s("co2_sequestered_lb") + s("co2_avoided_lb")
    return Equivalents(
        stormwater_gal=gal,
        electricity_kwh=kwh,
        natural_gas_therms=s("natural_gas_therms"),
        co2_lb=co2,
        co2_stored_lb=s("co2_stored_lb"),
        air_quality_lb=s("air_quality_lb"),
        rain_barrels=gal / RAIN_BARREL_GAL,
        home_days=kwh / HOME_KWH_PER_YEAR * 365,
        gasoline_gal=co2 / CO2_LB_PER_GALLON_GASOLINE,
        vehicle_miles=co2 / CO2_LB_PER_VEHICLE_MILE,
    )
