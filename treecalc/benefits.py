"""Annual benefits of many trees, or of one: the models chained together.

``compute_benefits(frame)`` takes a table of trees (``species`` or
``species_code``, ``dbh_in``, optional ``land_use``) and returns the
i-Tree Streets / NTBC benefits per tree: resource units in the units people
read, and dollars with the zone's prices (each overridable) plus the
aesthetic / property value. It is vectorised: the species are resolved once
per distinct name and every model runs on whole columns.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc import data
from treecalc.models import itree_streets, property_value
from treecalc.species import UnknownSpecies, resolve_many

DOLLAR_COLUMNS = ("stormwater", "energy", "air_quality", "co2", "property")


@functools.cache
def default_large_tree_leaf_area_m2() -> float:
    """M: leaf area (m²) of the zone's large reference tree at 40 years.

    The large broadleaf deciduous type group (``BDL OTHER``) reaches
    58.3 cm DBH at 40 years (``dbh_by_age_class``); its leaf surface area
    (``lsa``) there is 583.8 m² (interpolated between 53.34 and 68.58 cm).
    """
    ages, dbh = data.growth_age_class()
    row = data.benefit_tables().row_index["BDL OTHER"]
    d40 = float(np.interp(40.0, ages, dbh[row]))
    u = itree_streets.resource_units(np.array(["BDL OTHER"]), np.array([d40 / itree_streets.CM_PER_IN]))
    return float(u["lsa"].iloc[0])


@dataclass(frozen=True)
class BenefitParams:
    """Valuation parameters. Every default is documented in the README."""

    prices: Mapping[str, float] = field(default_factory=dict)
    home_price_usd: float = property_value.DEFAULT_HOME_PRICE_USD
    large_tree_leaf_area_m2: float | None = None
    land_use_factors: Mapping[str, float] = field(default_factory=dict)
    sale_price_fraction: float = property_value.SALE_PRICE_FRACTION
    land_use: str | None = None  # default land use for trees without one

    def resolved(self) -> dict[str, Any]:
        """All parameter values in force, for reports."""
        luf = dict(property_value.LAND_USE_FACTOR)
        for k, v in self.land_use_factors.items():
            if k not in luf:
                raise ValueError(f"unknown land use {k!r} in land_use_factors")
            luf[k] = float(v)
        return {
            "prices": itree_streets.resolve_prices(self.prices),
            "home_price_usd": float(self.home_price_usd),
            "large_tree_leaf_area_m2": float(self.large_tree_leaf_area_m2 or default_large_tree_leaf_area_m2()),
            "land_use_factors": luf,
            "sale_price_fraction": float(self.sale_price_fraction),
            "land_use": self.land_use or "unspecified",
        }

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def make_params(params: BenefitParams | None = None, **kw: Any) -> BenefitParams:
    """A :class:`BenefitParams` from an existing one and/or keyword overrides."""
    base = params or BenefitParams()
    fields = {k: v for k, v in kw.items() if v is not None}
    unknown = set(fields) - set(BenefitParams.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown benefit parameter(s): {', '.join(sorted(unknown))}")
    return BenefitParams(**{**base.to_dict(), **fields})


def species_codes(species: pd.Series) -> pd.Series:
    """Resolve a column of species names to i-Tree codes (once per distinct name).

    Raises :class:`~treecalc.species.UnknownSpecies` for the first name that
    cannot be resolved confidently.
    """
    res = resolve_many(species)
    bad = res[res["code"].isna()]
    if len(bad):
        raise UnknownSpecies(str(bad.index[0]), list(bad["suggestions"].iloc[0]))
    return species.fillna("").astype(str).map(res["code"])


def compute_benefits(frame: pd.DataFrame, params: BenefitParams | None = None, **kw: Any) -> pd.DataFrame:
    """Annual benefits per tree.

    Parameters
    ----------
    frame : DataFrame
        Columns ``dbh_in`` (inches) and ``species_code`` (i-Tree code) or
        ``species`` (any name :mod:`treecalc.species` resolves); optional
        ``land_use`` (see :data:`treecalc.data.LAND_USES`).
    params : BenefitParams, optional
        Prices and aesthetic parameters; keyword arguments override fields
        (``home_price_usd=...``, ``prices={"electricity": 0.2}``, ...).

    Returns
    -------
    DataFrame, same index as ``frame``
        ``species_code``, ``value_row``, ``dbh_in``, ``land_use``, the
        reader units of :func:`treecalc.models.itree_streets.to_reader_units`,
        and dollars per year ``usd_stormwater``, ``usd_energy``,
        ``usd_air_quality``, ``usd_co2``, ``usd_property``,
        ``usd_total_annual``.
    """
    p = make_params(params, **kw).resolved()
    if "dbh_in" not in frame:
        raise ValueError("compute_benefits needs a 'dbh_in' column (inches)")
    dbh = pd.to_numeric(frame["dbh_in"], errors="coerce").to_numpy(float)
    if np.isnan(dbh).any() or (dbh <= 0).any():
        i = int(np.flatnonzero(np.isnan(dbh) | (dbh <= 0))[0])
        raise ValueError(f"row {frame.index[i]!r}: dbh_in must be a positive number of inches, "
                         f"got {frame['dbh_in'].iloc[i]!r}")
    if "species_code" in frame:
        codes = frame["species_code"]
    elif "species" in frame:
        codes = species_codes(frame["species"])
    else:
        raise ValueError("compute_benefits needs a 'species' or 'species_code' column")
    cat = data.catalogue()
    ci = pd.Categorical(codes, categories=cat.index)
    if (ci.codes < 0).any():
        bad = pd.Series(codes)[ci.codes < 0].iloc[0]
        raise ValueError(f"unknown i-Tree species code {bad!r}")
    value_row = cat["value_row"].to_numpy()[ci.codes]
    if "land_use" in frame:
        lu = frame["land_use"].astype(object).where(frame["land_use"].notna() & (frame["land_use"].astype(str).str.strip() != ""),
                                                    p["land_use"])
    else:
        lu = pd.Series(p["land_use"], index=frame.index)
    lu_idx = itree_streets.land_use_index(lu.to_numpy())
    units = itree_streets.resource_units(value_row, dbh, np.asarray(data.LAND_USES, dtype=object)[lu_idx])
    reader = itree_streets.to_reader_units(units)
    usd = itree_streets.dollars(units, p["prices"])
    luf = np.array([p["land_use_factors"][u] for u in data.LAND_USES])[lu_idx]
    usd["property"] = property_value.aesthetic_value(
        units["property_value"].to_numpy(), p["home_price_usd"], luf,
        p["large_tree_leaf_area_m2"], p["sale_price_fraction"])
    out = pd.DataFrame({
        "species_code": np.asarray(cat.index)[ci.codes],
        "value_row": value_row,
        "dbh_in": dbh,
        "land_use": np.asarray(data.LAND_USES, dtype=object)[lu_idx],
    })
    out = pd.concat([out, reader, usd[list(DOLLAR_COLUMNS)].add_prefix("usd_")], axis=1)
    out["usd_total_annual"] = usd[list(DOLLAR_COLUMNS)].sum(axis=1).to_numpy()
    out.index = frame.index
    return out


def benefits(species: str, dbh_in: float, land_use: str | None = None,
             params: BenefitParams | None = None, **kw: Any) -> dict[str, Any]:
    """Annual benefits of one tree, as a JSON-ready dict.

    Keys: ``species_code``, ``scientific_name``, ``common_name``,
    ``itree_code`` (the value row whose tables are used), ``dbh_in``,
    ``stormwater_gal``, ``electricity_kwh``, ``natural_gas_therms``,
    ``air_quality_lb``, ``co2_sequestered_lb``, ``co2_avoided_lb``,
    ``co2_stored_lb``, ``leaf_area_increase_m2``, ``dollars`` (stormwater,
    energy, air_quality, co2, property, total_annual; USD/yr), ``parameters``
    and ``source``.
    """
    from treecalc.species import resolve_one

    try:
        dbh = float(dbh_in)
    except (TypeError, ValueError):
        raise ValueError(f"DBH must be a number of inches, got {dbh_in!r}") from None
    if not np.isfinite(dbh) or dbh <= 0:
        raise ValueError(f"DBH must be a positive number of inches, got {dbh_in!r}")
    res = resolve_one(species)
    if res.code is None:
        raise UnknownSpecies(str(species), res.suggestions)
    code = res.code
    prm = make_params(params, **kw)
    frame = pd.DataFrame({"species_code": [code], "dbh_in": [dbh], "land_use": [land_use]})
    row = compute_benefits(frame, prm).iloc[0]
    cat = data.catalogue().loc[code]
    keys = ("stormwater_gal", "electricity_kwh", "natural_gas_therms", "air_quality_lb",
            "co2_sequestered_lb", "co2_avoided_lb", "co2_stored_lb", "leaf_area_increase_m2")
    return {
        "species_code": code,
        "scientific_name": cat["scientific_name"],
        "common_name": cat["common_name"],
        "itree_code": cat["value_row"],
        "dbh_in": dbh,
        "land_use": row["land_use"],
        **{k: float(row[k]) for k in keys},
        "dollars": {**{k: float(row[f"usd_{k}"]) for k in DOLLAR_COLUMNS},
                    "total_annual": float(row["usd_total_annual"])},
        "warnings": [res.warning] if res.warning else [],
        "parameters": prm.resolved(),
        "source": data.SOURCE_NAME,
    }
