"""i-Tree Streets / National Tree Benefit Calculator annual benefits.

Small pure functions over arrays: resource-table interpolation, unit
conversion, pricing. Every function works on numpy arrays of any length; the
only loop is over the (fixed, small) list of factors.

References
----------
.. [1] McPherson, E.G. et al. (2007). *Northeast Community Tree Guide:
   Benefits, Costs, and Strategic Planting*. USDA Forest Service, Pacific
   Southwest Research Station, Gen. Tech. Rep. PSW-GTR-202.
.. [2] i-Tree Streets v5 Manual, USDA Forest Service et al. (resource units
   interpolated between DBH class midpoints).
.. [3] OpenTreeMap ecobenefits service: resource tables for region
   ``NoEastXXX`` and the interpolation rule (first value below 3.81 cm, last at
   or above 114.30 cm).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from treecalc.quantities import CM_PER_IN, GAL_PER_M3, KBTU_PER_THERM, LB_PER_KG, in_range
from treecalc.reference import data

#: Factors interpolated for every tree, as named in ``benefit_tables.csv``.
FACTORS = (
    "hydro_interception",
    "electricity",
    "natural_gas",
    "co2_sequestered",
    "co2_avoided",
    "co2_storage",
    "co2_decomp",
    "co2_maint",
    "aq_ozone_dep",
    "aq_nox_dep",
    "aq_pm10_dep",
    "aq_sox_dep",
    "aq_nox_avoided",
    "aq_pm10_avoided",
    "aq_sox_avoided",
    "aq_voc_avoided",
    "bvoc",
    "property_value",
    "lsa",
    "cpa",
)

#: Air-quality factor -> price group of ``prices.csv``.
AIR_QUALITY_PRICE = {
    "aq_ozone_dep": "o3",
    "aq_nox_dep": "nox",
    "aq_pm10_dep": "pm10",
    "aq_sox_dep": "sox",
    "aq_nox_avoided": "nox",
    "aq_pm10_avoided": "pm10",
    "aq_sox_avoided": "sox",
    "aq_voc_avoided": "voc",
    "bvoc": "voc",
}


def land_use_index(land_use: object) -> np.ndarray:
    """Index into :data:`treecalc.reference.data.LAND_USES` for each element.

    Blank, ``None`` and NaN mean ``unspecified``. An unknown land use raises
    ``ValueError`` naming it. Each distinct value is looked up once.
    """
    codes, uniques = pd.factorize(pd.Series(np.atleast_1d(np.asarray(land_use, dtype=object))), use_na_sentinel=False)
    lookup = np.empty(len(uniques), dtype=np.intp)
    for k, u in enumerate(uniques):
        key = "unspecified" if u is None or (isinstance(u, float) and np.isnan(u)) else str(u).strip().lower()
        key = {"": "unspecified", "nan": "unspecified", "none": "unspecified"}.get(key, key)
        if key not in data.LAND_USES:
            raise ValueError(f"unknown land use {u!r}; expected one of {', '.join(data.LAND_USES)}")
        lookup[k] = data.LAND_USES.index(key)
    return lookup[codes]


#: width of each DBH class step (cm): class k + 1 minus class k
_CLASS_WIDTHS = np.diff(data.DBH_CLASSES_CM)


def dbh_positions(dbh_cm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lower DBH class index ``j`` and fraction ``frac`` of each DBH (cm).

    Clipping implements the rule of [3]_: the first value below 3.81 cm, the
    last at or above 114.30 cm.
    """
    classes = data.DBH_CLASSES_CM
    d = np.clip(np.asarray(dbh_cm, dtype=float), classes[0], classes[-1])
    # j = the last inner class boundary d reaches, counted as (last index) - (boundaries above d): a few byte
    # comparisons cost less than a binary search per tree; NaN compares below none and reads the last class
    below = np.zeros(d.shape, dtype=np.uint8)
    for edge in classes[1:-1]:
        below += np.less(d, edge).view(np.uint8)
    j = (len(classes) - 2) - below.astype(np.intp)
    frac = (d - classes.take(j)) / _CLASS_WIDTHS.take(j)
    return j, frac


def interpolate(table: np.ndarray, row: np.ndarray, dbh_cm: np.ndarray, land_use: np.ndarray | int = 0) -> np.ndarray:
    """Interpolate a resource table at each tree's DBH.

    Parameters
    ----------
    table : array, shape (n_land_uses, n_value_rows, 9)
        One factor's table from :func:`treecalc.reference.data.benefit_tables`.
    row : int array
        Value-row index of each tree.
    dbh_cm : float array
        DBH in centimetres.
    land_use : int array or int
        Land-use index of each tree (see :func:`land_use_index`).

    Returns
    -------
    numpy.ndarray
        The factor per tree, in the table's unit.

    Notes
    -----
    Linear between the two neighbouring DBH class midpoints
    (3.81 ... 114.30 cm); the first value below 3.81 cm; the last value at or
    above 114.30 cm [3]_.
    """
    j, frac = dbh_positions(dbh_cm)
    lo = table[land_use, row, j]
    hi = table[land_use, row, j + 1]
    return lo + frac * (hi - lo)


def value_row_index(value_rows: object) -> np.ndarray:
    """Index of each value row name (``"ACRU"``, ``"BDL OTHER"``) in the tables."""
    return data.value_row_positions(value_rows)


@dataclass(frozen=True)
class FlatTable:
    """A (land use, value row, DBH class) table flattened with its slopes.

    ``slope[..., k]`` is the step to class ``k + 1`` (0 for the last class),
    so a value at fraction ``f`` past class ``k`` is ``value + f * slope``.
    """

    value: np.ndarray
    slope: np.ndarray
    shape: tuple[int, int, int]

    @classmethod
    def of(cls, table: np.ndarray) -> FlatTable:
        slope = np.zeros_like(table, dtype=float)
        slope[..., :-1] = np.diff(table, axis=-1)
        return cls(np.ascontiguousarray(table, dtype=float).ravel(), slope.ravel(), table.shape)


def gather(
    tables: Mapping[str, FlatTable],
    row: np.ndarray,
    dbh_cm: np.ndarray,
    land_use: np.ndarray | int = 0,
    out: np.ndarray | None = None,
    positions: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Interpolate several tables at once (the fast form of :func:`interpolate`).

    The DBH position is found once and each table costs one gather of its
    value and one of its slope. Because interpolation is linear, a table that
    is a linear combination of resource tables (a price-weighted sum, a unit
    conversion) interpolates to the same combination of the interpolated
    factors: derived quantities are computed on the small tables, not per tree.

    ``out``, when given, is a ``(len(tables), n)`` array the results are
    written into (row k for the k-th table), so no further copy is needed.
    ``positions``, when given, is :func:`dbh_positions` of ``dbh_cm`` already
    computed (the caller reuses it for other lookups).
    """
    j, frac = positions if positions is not None else dbh_positions(dbh_cm)
    return gather_at(tables, table_index(next(iter(tables.values())).shape, row, land_use, j), frac, out=out)


def table_index(shape: tuple[int, int, int], row: object, land_use: object, j: np.ndarray) -> np.ndarray:
    """Flat index of (land use, value row, DBH class ``j``) in tables of ``shape`` (see :class:`FlatTable`)."""
    _, n_rows, n_cls = shape
    flat = np.asarray(land_use, dtype=np.intp) * n_rows
    flat = flat + np.asarray(row, dtype=np.intp)
    flat *= n_cls
    if np.shape(flat) == np.shape(j):
        flat += j
    else:  # one row or land use for many trees: broadcast, as before (in place it would not fit)
        flat = flat + j
    return flat


def gather_at(
    tables: Mapping[str, FlatTable],
    flat: np.ndarray,
    frac: np.ndarray,
    out: np.ndarray | Sequence[np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """:func:`gather` at flat indices (:func:`table_index`) and class fractions already worked out (``out``: an
    array whose row k, or a sequence whose item k, takes the k-th table's values)."""
    flat = np.asarray(flat, dtype=np.intp)
    if flat.size and (flat.min() < 0 or flat.max() >= next(iter(tables.values())).value.size):
        raise IndexError("a land use, value row or DBH class is outside the tables")
    res = {}
    step = np.empty(flat.shape)  # one scratch buffer for every table's slope term
    for k, (name, t) in enumerate(tables.items()):
        target = out[k] if out is not None else np.empty(flat.shape)
        # the indices are checked above: "clip" skips numpy's per-element check (half the time of a take)
        np.take(t.value, flat, out=target, mode="clip")
        np.take(t.slope, flat, out=step, mode="clip")
        step *= frac  # value + frac * slope, as before, without a temporary per table
        target += step
        res[name] = target
    return res


def resource_units_idx(row: np.ndarray, dbh_cm: np.ndarray, land_use: np.ndarray | int = 0) -> dict[str, np.ndarray]:
    """Every factor of :data:`FACTORS` per tree from integer indices."""
    stack = data.benefit_tables().stack
    return gather({f: FlatTable.of(stack[f]) for f in FACTORS}, row, dbh_cm, land_use)


def resource_units(value_row: np.ndarray, dbh_in: np.ndarray, land_use: object = None) -> pd.DataFrame:
    """Every factor of :data:`FACTORS` per tree, in the tables' own units.

    Parameters
    ----------
    value_row : array of str
        i-Tree value row (``SppValueAssignment``) of each tree.
    dbh_in : float array
        DBH, inches.
    land_use : array of str, str or None
        Land use per tree (see :data:`treecalc.reference.data.LAND_USES`).

    Returns
    -------
    pandas.DataFrame
        One column per factor: m³/yr, kWh/yr, kBtu/yr, kg/yr, kg, m²/yr, m².
    """
    row = value_row_index(value_row)
    dbh_cm = np.asarray(dbh_in, dtype=float) * CM_PER_IN
    lu = land_use_index(land_use if land_use is not None else "unspecified")
    if lu.size == 1:
        lu = lu[0]
    return pd.DataFrame(resource_units_idx(row, dbh_cm, lu))


def to_reader_units(units: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Convert resource units to the units people read.

    Returns arrays ``stormwater_gal`` (gal/yr), ``electricity_kwh`` (kWh/yr),
    ``natural_gas_therms`` (therms/yr), ``co2_sequestered_lb``,
    ``co2_avoided_lb`` (lb/yr), ``co2_stored_lb`` (lb, to date),
    ``air_quality_lb`` (net lb/yr: deposition + avoided + BVOC, the last
    negative), ``leaf_area_increase_m2`` (m²/yr), ``leaf_area_m2``,
    ``crown_area_m2``.
    """
    aq = np.asarray(sum(np.asarray(units[f]) for f in AIR_QUALITY_PRICE)) * LB_PER_KG
    return {
        "stormwater_gal": np.asarray(units["hydro_interception"]) * GAL_PER_M3,
        "electricity_kwh": np.asarray(units["electricity"]),
        "natural_gas_therms": np.asarray(units["natural_gas"]) / KBTU_PER_THERM,
        "air_quality_lb": aq,
        "co2_sequestered_lb": np.asarray(units["co2_sequestered"]) * LB_PER_KG,
        "co2_avoided_lb": np.asarray(units["co2_avoided"]) * LB_PER_KG,
        "co2_stored_lb": np.asarray(units["co2_storage"]) * LB_PER_KG,
        "leaf_area_increase_m2": np.asarray(units["property_value"]),
        "leaf_area_m2": np.asarray(units["lsa"]),
        "crown_area_m2": np.asarray(units["cpa"]),
    }


def resolve_prices(
    overrides: Mapping[str, float] | None = None, base: Mapping[str, float] | None = None
) -> dict[str, float]:
    """The zone's default prices (``base``: another zone's, else the Northeast's) with any overrides applied.

    Keys are those of ``prices.csv``: electricity (USD/kWh), natural_gas
    (USD/kBtu), hydro_interception (USD/gal), co2, o3, nox, pm10, sox, voc
    (USD/lb). An unknown key or a negative price raises ``ValueError``.
    """
    p = dict(data.prices() if base is None else base)
    for k, v in (overrides or {}).items():
        if k not in p:
            close = difflib.get_close_matches(str(k), list(p), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"unknown price {k!r}{hint} known: {', '.join(p)}")

        # the range of --price (units.RANGES): 1e308 would make inf - inf = NaN benefits, shown as $0.00
        p[k] = in_range(f"price {k}", v, "price_usd")
    return p


def dollars(units: Mapping[str, np.ndarray], prices: Mapping[str, float]) -> dict[str, np.ndarray]:
    """Annual benefit dollars per tree (USD/yr), without the aesthetic benefit.

    ``stormwater`` = gal × USD/gal; ``energy`` = kWh × USD/kWh + kBtu × USD/kBtu;
    ``air_quality`` = Σ pollutant lb × USD/lb (BVOC emissions count negative);
    ``co2`` = (sequestered + avoided) lb × USD/lb, as the NTBC reports it.
    """
    u = {k: np.asarray(units[k]) for k in units}
    aq = sum(u[f] * (LB_PER_KG * prices[g]) for f, g in AIR_QUALITY_PRICE.items())
    return {
        "stormwater": u["hydro_interception"] * (GAL_PER_M3 * prices["hydro_interception"]),
        "energy": u["electricity"] * prices["electricity"] + u["natural_gas"] * prices["natural_gas"],
        "air_quality": aq,
        "co2": (u["co2_sequestered"] + u["co2_avoided"]) * (LB_PER_KG * prices["co2"]),
    }
