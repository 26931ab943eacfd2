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
from treecalc.models import appraisal, growth, itree_streets, property_value
from treecalc.species import UnknownSpecies, resolve_many
from treecalc.validate import number

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
        for k, v in luf.items():
            number(f"land-use factor for {k}", v, low=0.0, high=1.0)
        home = number("home price (USD)", self.home_price_usd, low=0.0)
        m = (default_large_tree_leaf_area_m2() if self.large_tree_leaf_area_m2 is None
             else number("large-tree leaf area (m2)", self.large_tree_leaf_area_m2, low=0.0, strict=True))
        number("share of the sale price", self.sale_price_fraction, low=0.0, high=1.0)
        return {
            "prices": itree_streets.resolve_prices(self.prices),
            "home_price_usd": home,
            "large_tree_leaf_area_m2": m,
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


def species_positions(species: pd.Series) -> np.ndarray:
    """Catalogue row position of each species name, resolving each distinct name once.

    Raises :class:`~treecalc.species.UnknownSpecies` for the first name that
    cannot be resolved confidently.
    """
    codes, uniques = pd.factorize(species, use_na_sentinel=False)
    names = ["" if u is None or u is pd.NA or (isinstance(u, float) and np.isnan(u)) else str(u) for u in uniques]
    res = resolve_many(names)
    bad = res[res["code"].isna()]
    if len(bad):
        raise UnknownSpecies(str(bad.index[0]), list(bad["suggestions"].iloc[0]))
    return data.catalogue_positions(res.loc[names, "code"].to_numpy())[codes]


@functools.cache
def _catalogue_value_rows() -> np.ndarray:
    t = data.benefit_tables()
    return np.array([t.row_index[v] for v in data.catalogue()["value_row"]], dtype=np.intp)


#: Output columns of :func:`benefit_arrays`, in order.
OUTPUT_COLUMNS = (
    "stormwater_gal", "electricity_kwh", "natural_gas_therms", "air_quality_lb",
    "co2_sequestered_lb", "co2_avoided_lb", "co2_stored_lb",
    "leaf_area_increase_m2", "leaf_area_m2", "crown_area_m2",
    *(f"usd_{k}" for k in DOLLAR_COLUMNS), "usd_total_annual",
)


def _freeze(p: Mapping[str, Any]) -> tuple:
    return tuple(sorted((k, _freeze(v) if isinstance(v, Mapping) else v) for k, v in p.items()))


@functools.lru_cache(maxsize=32)
def _derived_tables(key: tuple) -> dict[str, itree_streets.FlatTable]:
    """Output quantities as (land use, value row, DBH class) tables for one parameter set.

    Unit conversion, pricing and the aesthetic formula are linear in the
    resource tables, so they are applied to the tables once (41 rows x 9
    classes x 6 land uses) and each tree then needs one interpolation per
    output (see :func:`treecalc.models.itree_streets.gather`).
    """
    p = {k: dict(v) if isinstance(v, tuple) else v for k, v in key}
    stack = data.benefit_tables().stack
    reader = itree_streets.to_reader_units(stack)
    usd = itree_streets.dollars(stack, p["prices"])
    luf = np.array([p["land_use_factors"][u] for u in data.LAND_USES])[:, None, None]
    usd["property"] = property_value.aesthetic_value(
        stack["property_value"], p["home_price_usd"], luf, p["large_tree_leaf_area_m2"], p["sale_price_fraction"])
    tables = {**reader, **{f"usd_{k}": usd[k] for k in DOLLAR_COLUMNS}}
    tables["usd_total_annual"] = sum(usd[k] for k in DOLLAR_COLUMNS)
    return {c: itree_streets.FlatTable.of(tables[c]) for c in OUTPUT_COLUMNS}


def benefit_arrays(cat_pos: np.ndarray, dbh_in: np.ndarray, lu_idx: np.ndarray,
                   p: Mapping[str, Any], out: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """The vectorised core: reader units and dollars from integer indices.

    ``cat_pos`` catalogue positions, ``dbh_in`` inches, ``lu_idx`` land-use
    indices, ``p`` the resolved parameters (:meth:`BenefitParams.resolved`).
    Returns one array per name of :data:`OUTPUT_COLUMNS`.
    """
    row = _catalogue_value_rows()[cat_pos]
    dbh_cm = np.asarray(dbh_in, float) * itree_streets.CM_PER_IN
    return itree_streets.gather(_derived_tables(_freeze(p)), row, dbh_cm, lu_idx, out=out)


def compute_benefits(frame: pd.DataFrame, params: BenefitParams | None = None, **kw: Any) -> pd.DataFrame:
    """Annual benefits per tree.

    Parameters
    ----------
    frame : DataFrame
        Columns ``dbh_in`` (inches) and ``species_code`` (i-Tree code) or
        ``species`` (any name :mod:`treecalc.species` resolves); optional
        ``land_use`` (see :data:`treecalc.data.LAND_USES`; blank means the
        ``land_use`` parameter, else unspecified).
    params : BenefitParams, optional
        Prices and aesthetic parameters; keyword arguments override fields
        (``home_price_usd=...``, ``prices={"electricity": 0.2}``, ...).

    Returns
    -------
    DataFrame, same index as ``frame``
        ``species_code``, ``value_row``, ``land_use`` (categoricals),
        ``dbh_in``, the reader units of
        :func:`treecalc.models.itree_streets.to_reader_units`, and dollars per
        year ``usd_stormwater``, ``usd_energy``, ``usd_air_quality``,
        ``usd_co2``, ``usd_property``, ``usd_total_annual``.
    """
    p = make_params(params, **kw).resolved()
    if "dbh_in" not in frame:
        raise ValueError("compute_benefits needs a 'dbh_in' column (inches)")
    dbh = pd.to_numeric(frame["dbh_in"], errors="coerce").to_numpy(float)
    bad = np.isnan(dbh) | (dbh <= 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"row {frame.index[i]!r}: dbh_in must be a positive number of inches, "
                         f"got {frame['dbh_in'].iloc[i]!r}")
    if "species_code" in frame:
        pos = data.catalogue_positions(frame["species_code"].to_numpy(dtype=object))
    elif "species" in frame:
        pos = species_positions(frame["species"])
    else:
        raise ValueError("compute_benefits needs a 'species' or 'species_code' column")
    if "land_use" in frame:
        k, uniques = pd.factorize(frame["land_use"], use_na_sentinel=False)
        blank = [u is None or u is pd.NA or (isinstance(u, float) and np.isnan(u)) or str(u).strip() == ""
                 for u in uniques]
        lu_idx = itree_streets.land_use_index(
            [p["land_use"] if b else u for u, b in zip(uniques, blank)] or [p["land_use"]])[k]
    else:
        lu_idx = np.full(len(frame), data.LAND_USES.index(p["land_use"]), dtype=np.intp)
    # one (outputs x trees) block, filled in place: the DataFrame wraps it without a copy
    block = np.empty((len(OUTPUT_COLUMNS), len(frame)))
    benefit_arrays(pos, dbh, lu_idx, p, out=block)
    values = pd.DataFrame(block.T, columns=list(OUTPUT_COLUMNS), index=frame.index, copy=False)
    cat = data.catalogue()
    t = data.benefit_tables()
    ids = pd.DataFrame({
        "species_code": pd.Categorical.from_codes(pos, categories=cat.index.astype(object)),
        "value_row": pd.Categorical.from_codes(_catalogue_value_rows()[pos], categories=list(t.value_rows)),
        "dbh_in": dbh,
        "land_use": pd.Categorical.from_codes(lu_idx, categories=list(data.LAND_USES)),
    }, index=frame.index)
    return pd.concat([ids, values], axis=1)


def benefits(species: str, dbh_in: float, land_use: str | None = None,
             params: BenefitParams | None = None, *, condition: str = "good", horizon_years: int = 20,
             mortality_rate: float = 0.0, valuations: bool = True, **kw: Any) -> dict[str, Any]:
    """Annual benefits of one tree, as a JSON-ready dict.

    Keys: ``species_code``, ``scientific_name``, ``common_name``,
    ``itree_code`` (the value row whose tables are used), ``dbh_in``,
    ``stormwater_gal``, ``electricity_kwh``, ``natural_gas_therms``,
    ``air_quality_lb``, ``co2_sequestered_lb``, ``co2_avoided_lb``,
    ``co2_stored_lb``, ``leaf_area_increase_m2``, ``dollars`` (stormwater,
    energy, air_quality, co2, property, total_annual; USD/yr),
    ``replacement_value_usd`` (CTLA trunk formula at ``condition``, see
    :mod:`treecalc.models.appraisal`), ``cumulative_usd`` (benefits over
    ``horizon_years`` with growth and ``mortality_rate``, see
    :mod:`treecalc.models.growth`), ``warnings``, ``parameters`` and ``source``.
    ``valuations=False`` leaves out the replacement value and the cumulative
    benefits (the annual benefits alone, as :func:`compute_benefits` gives).
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
    p = prm.resolved()
    blank = land_use is None or (isinstance(land_use, float) and np.isnan(land_use)) or not str(land_use).strip()
    lu_name = p["land_use"] if blank else str(land_use).strip().lower()
    if lu_name not in data.LAND_USES:
        raise ValueError(f"unknown land use {land_use!r}; expected one of {', '.join(data.LAND_USES)}")
    pos = data.catalogue_lookup()[code]
    lu = np.array([data.LAND_USES.index(lu_name)])
    row = {k: v[0] for k, v in benefit_arrays(np.array([pos]), np.array([dbh]), lu, p).items()}
    row["land_use"] = lu_name
    cat = data.catalogue().iloc[pos]
    keys = ("stormwater_gal", "electricity_kwh", "natural_gas_therms", "air_quality_lb",
            "co2_sequestered_lb", "co2_avoided_lb", "co2_stored_lb", "leaf_area_increase_m2")
    out = {
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
        "parameters": p,
        "source": data.SOURCE_NAME,
    }
    if valuations:
        out.update({
            "replacement_value_usd": float(appraisal.replacement_value(np.array([code], dtype=object),
                                                                       np.array([dbh]), condition)[0]),
            "replacement_value_condition": condition,
            "cumulative_usd": float(growth.cumulative_benefits(
                np.array([code], dtype=object), np.array([dbh]), horizon_years,
                lambda c, d: benefit_arrays(np.repeat(pos, len(d)), d, np.repeat(lu, len(d)), p)["usd_total_annual"],
                mortality_rate=mortality_rate)[0]),
            "cumulative_years": horizon_years,
            "cumulative_mortality_rate": mortality_rate,
        })
    return out
