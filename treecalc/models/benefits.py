"""Annual benefits of many trees, or of one: the models chained together.

``compute_benefits(frame)`` takes a table of trees (``species`` or
``species_code``, ``dbh_in``, optional ``land_use``) and returns the
i-Tree Streets / NTBC benefits per tree: resource units in the units people
read, and dollars with the zone's prices (each overridable) plus the
aesthetic / property value. It is vectorised: the species are resolved once
per distinct name and every model runs on whole columns.

The table lookups are in :mod:`treecalc.models.benefit_tables`, the disclosures and method notes in
:mod:`treecalc.models.benefit_notes`; this module chains them and holds the public calls.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc.ingest import zone as climate_zones
from treecalc.models import appraisal, disclosures, growth, itree_streets, property_value
from treecalc.models.benefit_notes import (  # the disclosures and method notes: callers read them from here
    _catalogue_text,
    _keys_at,
    _zero_tails,  # noqa: F401  (read by the tests through this module)
    disclosure_column,
    disclosure_masks,
    disclosure_texts,
)
from treecalc.models.benefit_notes import disclosure_keys as disclosure_keys
from treecalc.models.benefit_notes import land_use_flags as land_use_flags
from treecalc.models.benefit_notes import method_notes as method_notes
from treecalc.models.benefit_tables import (  # the table lookups, re-exported likewise
    NORTHEAST,
    OUTPUT_COLUMNS,
    ZONES,
    _catalogue_value_rows,
    _default_zone_index,
    _derived_tables,
    _freeze,
    _which,
    _zone_cells,
    _zone_leaf_areas,
    _zone_rows,
    benefit_arrays,
    default_large_tree_leaf_area_m2,
)
from treecalc.models.growth import mortality_rate as _rate
from treecalc.money import largest_remainder_cents
from treecalc.quantities import in_range, number
from treecalc.reference import data
from treecalc.reference.species import UnknownSpecies, resolve_in_zone, resolve_many, zones_listing
from treecalc.schema import BENEFIT_QUANTITY_COLUMNS, DOLLAR_COLUMNS


@dataclass(frozen=True)
class BenefitParams:
    """Valuation parameters. Every default is documented in docs/science/benefits.md."""

    prices: Mapping[str, float] = field(default_factory=dict)
    home_price_usd: float = property_value.DEFAULT_HOME_PRICE_USD
    large_tree_leaf_area_m2: float | None = None
    land_use_factors: Mapping[str, float] = field(default_factory=dict)
    sale_price_fraction: float = property_value.SALE_PRICE_FRACTION
    land_use: str | None = None  # default land use for trees without one
    # i-Tree Streets climate zone (code or name, data/species/zones/); None: the Northeast tables of data/species/
    zone: str | None = None

    def resolved(self) -> dict[str, Any]:
        """All parameter values in force, for reports."""
        luf = dict(property_value.LAND_USE_FACTOR)
        for k, v in self.land_use_factors.items():
            if k not in luf:
                raise ValueError(f"unknown land use {k!r} in land_use_factors")
            luf[k] = float(v)
        for k, v in luf.items():
            number(f"land-use factor for {k}", v, low=0.0, high=1.0)
        # the ranges of --home-price and --large-tree-leaf-area (units.RANGES), for every caller alike
        home = in_range("home price (USD)", self.home_price_usd, "home_price_usd")
        m = (
            default_large_tree_leaf_area_m2()
            if self.large_tree_leaf_area_m2 is None
            else in_range("large-tree leaf area (m2)", self.large_tree_leaf_area_m2, "leaf_area_m2")
        )
        number("share of the sale price", self.sale_price_fraction, low=0.0, high=1.0)
        out: dict[str, Any] = {
            "prices": itree_streets.resolve_prices(self.prices),
            "home_price_usd": home,
            "large_tree_leaf_area_m2": m,
            "land_use_factors": luf,
            "sale_price_fraction": float(self.sale_price_fraction),
            "land_use": self.land_use or "unspecified",
        }
        if self.zone is not None:  # the zone's own prices and reference tree, each overridable as before
            code = data.zone_code(self.zone)
            zt = data.zone_tables()
            out["zone"] = code
            out["prices"] = itree_streets.resolve_prices(self.prices, data.zone_prices()[code])
            out["price_overrides"] = {k: out["prices"][k] for k in sorted(self.prices)}
            out["large_tree_leaf_area_m2_given"] = None if self.large_tree_leaf_area_m2 is None else m
            if self.large_tree_leaf_area_m2 is None:
                out["large_tree_leaf_area_m2"] = float(_zone_leaf_areas()[zt.zones.index(code)])
        return out

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


def species_positions(species: pd.Series, zones: object = None) -> np.ndarray:
    """Catalogue row position of each species name, resolving each distinct name once.

    ``zones`` (one zone for all trees, or a zone per tree): a name is read in the tree's zone's own list first
    (Picea pungens is the Lower Midwest's PIPU, crape myrtle GulfCoCHS's LAIN), as a survey read in that zone is.
    Raises :class:`~treecalc.reference.species.UnknownSpecies` for the first name that
    cannot be resolved confidently.
    """
    codes, uniques = pd.factorize(species, use_na_sentinel=False)
    names = ["" if u is None or u is pd.NA or (isinstance(u, float) and np.isnan(u)) else str(u) for u in uniques]
    res = resolve_many(names)
    code = res.loc[names, "code"].to_numpy(dtype=object)[codes]
    if zones is not None:
        zone_at = pd.Series(zones, index=species.index).to_numpy(dtype=object)  # a scalar is every tree's
        blank = pd.isna(zone_at) | (pd.Series(zone_at, dtype=object).astype(str).str.strip() == "").to_numpy()
        at = np.flatnonzero(~blank)
        # each distinct (name, zone) once: a state's inventory has millions of trees and a few thousand pairs
        pair, pairs = pd.factorize(pd.MultiIndex.from_arrays([codes[at], zone_at[at].astype(str)]))
        for p_k, (name_k, z) in enumerate(pairs):
            hit = resolve_in_zone(names[name_k], data.zone_code(z))
            if hit.code is not None and hit.method not in ("unresolved", "fuzzy"):
                code[at[pair == p_k]] = hit.code
    missing = pd.isna(code)
    if missing.any():
        first = names[codes[int(np.flatnonzero(missing)[0])]]
        raise UnknownSpecies(first, list(res.loc[first, "suggestions"]))
    return data.catalogue_positions(code)


def dollars_by_line(reader: Mapping[str, float], prices: Mapping[str, float]) -> dict[str, float]:
    """USD/yr of each quantity that has a price, so each dollar stands on the line it values.

    ``electricity`` = kWh × USD/kWh; ``natural_gas`` = therms × 100 kBtu/therm ×
    USD/kBtu (their sum is ``dollars["energy"]``); ``co2_sequestered`` and
    ``co2_avoided`` = lb × USD/lb (their sum is ``dollars["co2"]``).

    Examples
    --------
    72.05 kWh × $0.1401 = $10.09; 27.4665 therms × 100 × $0.01408 = $38.67.
    """
    return {
        "electricity": reader["electricity_kwh"] * prices["electricity"],
        "natural_gas": reader["natural_gas_therms"] * itree_streets.KBTU_PER_THERM * prices["natural_gas"],
        "co2_sequestered": reader["co2_sequestered_lb"] * prices["co2"],
        "co2_avoided": reader["co2_avoided_lb"] * prices["co2"],
    }


#: What a dead tree's benefits say, per tree: i-Tree Streets values a tree by its leaf area.
DEAD_NOTE = "dead tree: no leaf area, so no environmental benefits and no value (benefits and value 0)"


def is_dead(condition: Any) -> np.ndarray:
    """Whether each condition is dead (the class "dead", any case; a blank or another class is alive)."""
    c = pd.Series(np.atleast_1d(np.asarray(condition, dtype=object)), dtype=object)
    return c.map(lambda v: isinstance(v, str) and v.strip().lower() == "dead").to_numpy(bool)


def dead_trees(frame: pd.DataFrame) -> np.ndarray:
    """The trees of ``frame`` whose ``condition`` is dead (none when it has no condition column)."""
    if "condition" not in frame:
        return np.zeros(len(frame), dtype=bool)
    k, uniques = pd.factorize(frame["condition"], use_na_sentinel=False)
    return is_dead(np.asarray(uniques, dtype=object))[k] if len(uniques) else np.zeros(len(frame), dtype=bool)


def _with_dead_note(col: pd.Categorical, dead: np.ndarray) -> pd.Categorical:
    text = np.asarray(col, dtype=object)
    text[dead] = [DEAD_NOTE + ("; " + t if t else "") for t in text[dead]]
    return pd.Categorical(text)


def _land_use_positions(frame: pd.DataFrame, default: str) -> np.ndarray:
    """Index into :data:`treecalc.reference.data.LAND_USES` of each tree's ``land_use``; blank or absent: ``default``."""
    if "land_use" not in frame:
        return np.full(len(frame), data.LAND_USES.index(default), dtype=np.intp)
    exact = data.arrow_index(frame["land_use"], data.LAND_USES)  # every land use named as it is kept
    if exact is not None:
        return exact
    k, uniques = pd.factorize(frame["land_use"], use_na_sentinel=False)
    blank = [u is None or u is pd.NA or (isinstance(u, float) and np.isnan(u)) or str(u).strip() == "" for u in uniques]
    return itree_streets.land_use_index([default if b else u for u, b in zip(uniques, blank)] or [default])[k]


def compute_benefits(frame: pd.DataFrame, params: BenefitParams | None = None, **kw: Any) -> pd.DataFrame:
    """Annual benefits per tree.

    Parameters
    ----------
    frame : DataFrame
        Columns ``dbh_in`` (inches) and ``species_code`` (i-Tree code) or
        ``species`` (any name :mod:`treecalc.reference.species` resolves); optional
        ``land_use`` (see :data:`treecalc.reference.data.LAND_USES`; blank means the
        ``land_use`` parameter, else unspecified); optional ``condition``: a
        dead tree has no leaf area, so every benefit and dollar is 0.
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
        ``usd_co2``, ``usd_property``, ``usd_total_annual``; ``disclosures``
        (sentences, ``"; "``-joined; ``""`` when none; the flags behind them
        come from :func:`disclosure_masks`): DBH
        past the tables' last class or implausible, a source table that falls
        to zero at the tree's size, an unverified or assumed land-use factor,
        a land use whose energy tables are zero or borrowed, a corrected species,
        a dead tree; ``dead`` (bool).

        With a climate zone (``zone=`` code or name, or a ``zone`` column per tree whose blanks take
        ``zone=``, else the Northeast) every tree reads its zone's tables and prices in the same one lookup,
        and the output gains a ``zone`` column; a species its zone's list has no code for is valued by the
        zone's generic row of its tree type and says so in ``disclosures``. Without either, the Northeast
        tables of ``data/species/``, as always.

    Examples
    --------
    >>> import pandas as pd
    >>> import treecalc
    >>> trees = pd.DataFrame({"species": ["red maple", "Quercus palustris"], "dbh_in": [12, 20]})
    >>> out = treecalc.compute_benefits(trees)
    >>> list(out["species_code"])
    ['ACRU', 'QUPA']
    >>> parts = ["usd_stormwater", "usd_energy", "usd_air_quality", "usd_co2", "usd_property"]
    >>> bool(((out[parts].sum(axis=1) - out["usd_total_annual"]).abs() < 1e-9).all())
    True
    """
    prm = make_params(params, **kw)
    if "zone" in frame and prm.zone is None:
        prm = make_params(prm, zone=data.DEFAULT_ZONE)
    p = prm.resolved()
    if "dbh_in" not in frame:
        raise ValueError("compute_benefits needs a 'dbh_in' column (inches)")
    dbh = pd.to_numeric(frame["dbh_in"], errors="coerce").to_numpy(float)
    bad = ~np.isfinite(dbh) | (dbh <= 0)  # an infinite DBH is no measurement (benefits() refuses it too)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"row {frame.index[i]}: dbh_in must be a positive number of inches, got {frame['dbh_in'].iloc[i]}"
        )
    if "species_code" in frame:
        pos = data.catalogue_positions(frame["species_code"])
    elif "species" in frame:
        pos = species_positions(frame["species"], frame["zone"] if "zone" in frame else p.get("zone"))
    else:
        raise ValueError("compute_benefits needs a 'species' or 'species_code' column")
    lu_idx = _land_use_positions(frame, p["land_use"])
    j, frac = itree_streets.dbh_positions(dbh * itree_streets.CM_PER_IN)
    if _which(p) == NORTHEAST and (pos >= _northeast_count()).any():
        # a species only other zones list has no row of its own here: the zones' lookup values it by the
        # Northeast's generic row of its type and says so per tree
        p = make_params(prm, zone=data.DEFAULT_ZONE).resolved()
    if _which(p) == ZONES:
        return _zone_benefits(frame, p, dbh, pos, lu_idx, j, frac)
    row = _catalogue_value_rows().take(pos)
    tables = _derived_tables(_freeze(p))
    flat = itree_streets.table_index(next(iter(tables.values())).shape, row, lu_idx, j)
    # one (outputs x trees) block, filled in place: the DataFrame wraps it without a copy
    block = np.empty((len(OUTPUT_COLUMNS), len(frame)))
    itree_streets.gather_at(tables, flat, frac, out=block)
    dead = dead_trees(frame)
    if dead.any():
        block[:, dead] = 0.0  # a dead tree has no leaf area: nothing to intercept, shade, take up or add
    values = pd.DataFrame(block.T, columns=list(OUTPUT_COLUMNS), index=frame.index, copy=False)
    # the codes are positions into these very categories: pandas need not check them again
    ids = pd.DataFrame(
        {
            "species_code": pd.Categorical.from_codes(pos, dtype=_dtypes()["species_code"], validate=False),
            "value_row": pd.Categorical.from_codes(row, dtype=_dtypes()["value_row"], validate=False),
            "land_use": pd.Categorical.from_codes(lu_idx, dtype=_dtypes()["land_use"], validate=False),
        },
        index=frame.index,
    )
    # dbh wrapped, not copied into a block, when it is an array of its own: a float64 input column comes back
    # as a (read-only, pandas 3) view of the caller's data, which the output would share (or refuse edits of)
    own = dbh.flags.owndata and dbh.flags.writeable
    ids.insert(2, "dbh_in", pd.Series(dbh, index=frame.index, copy=not own))
    notes_col = disclosure_column(_keys_at(flat, frac, dbh, pos), p)
    notes = pd.DataFrame(
        {"disclosures": _with_dead_note(notes_col, dead) if dead.any() else notes_col, "dead": dead},
        index=frame.index,
    )
    return pd.concat([ids, values, notes], axis=1)


#: The dollar columns of a benefits frame that add up to ``usd_total_annual``, in order.
USD_PARTS = tuple(f"usd_{k}" for k in DOLLAR_COLUMNS)


def shown_dollars(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of a benefits frame (:func:`compute_benefits`) with its dollars as every output shows them: each
    tree's ``usd_total_annual`` rounded once to the cent (half up, as the law engine rounds a tree's value), and
    its five parts (stormwater, energy, air quality, CO2, property) the whole cents that add up to it, by the
    largest remainder (:func:`treecalc.money.largest_remainder_cents`). Shown parts then add up to the shown
    total on every tree, and, summed, to the total of all trees. The one place this is done: the app's pages
    and downloads, the exports, the statement and the JSON all show these."""
    if not len(frame) or not all(c in frame for c in (*USD_PARTS, "usd_total_annual")):
        return frame.copy()
    cents = largest_remainder_cents(frame[list(USD_PARTS)].to_numpy(float), frame["usd_total_annual"].to_numpy(float))
    out = frame.copy()
    for j, c in enumerate(USD_PARTS):
        out[c] = cents[:, j] / 100
    out["usd_total_annual"] = cents.sum(axis=1) / 100
    return out


def shown_tree_dollars(result: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`benefits` of one tree with its dollars as shown (:func:`shown_dollars`): ``dollars`` the parts that
    add up to the total rounded once, and ``dollars_by_line`` the cents that add up to their part (electricity
    and natural gas to energy, CO2 sequestered and avoided to CO2)."""
    d, by = result["dollars"], result["dollars_by_line"]
    one = shown_dollars(
        pd.DataFrame([{**{f"usd_{k}": d[k] for k in DOLLAR_COLUMNS}, "usd_total_annual": d["total_annual"]}])
    ).iloc[0]
    dollars = {k: float(one[f"usd_{k}"]) for k in DOLLAR_COLUMNS} | {"total_annual": float(one["usd_total_annual"])}
    lines = dict(by)
    for part, keys in (("energy", ("electricity", "natural_gas")), ("co2", ("co2_sequestered", "co2_avoided"))):
        c = largest_remainder_cents([[by[k] for k in keys]], [dollars[part]])[0]
        lines.update({k: float(v) / 100 for k, v in zip(keys, c)})
    return {**result, "dollars": dollars, "dollars_by_line": lines}


@functools.cache
def _northeast_count() -> int:
    """Catalogue rows of the Northeast's own species (those after them only other zones list)."""
    return int(data.catalogue()["northeast"].sum())


@functools.cache
def _dtypes() -> dict[str, pd.CategoricalDtype]:
    """The output's categorical types, made once: a type made per call checks and converts its categories
    (hundreds of row names) every time."""
    return {
        "species_code": pd.CategoricalDtype(data.catalogue().index.astype(object)),
        "value_row": pd.CategoricalDtype(list(data.benefit_tables().value_rows)),
        "zone_value_row": pd.CategoricalDtype(_zone_row_names()[1]),
        "land_use": pd.CategoricalDtype(list(data.LAND_USES)),
        "zone": pd.CategoricalDtype(list(data.zone_tables().zones)),
    }


@functools.cache
def _zone_row_names() -> tuple[np.ndarray, list[str]]:
    """Each row of the zones' stack as a code into the distinct row names (``ACRU``, ``BDL OTHER``), and those."""
    codes, names = pd.factorize(pd.Series(data.zone_tables().local_rows))
    return codes.astype(np.intp), [str(n) for n in names]


def _zone_column(values: pd.Series, default: str) -> np.ndarray:
    """:func:`data.zone_positions` of the ``zone`` column; an unknown zone is an error naming the column and the
    first row that gives it (as a bad ``dbh_in`` names its row)."""
    try:
        return data.zone_positions(values, default)
    except ValueError as e:
        known = set(data.zones().index.str.lower()) | set(data.zones()["name"].str.lower())
        text = values.astype("string").str.strip()
        unknown = (text.notna() & (text != "") & ~text.str.lower().isin(known)).to_numpy(bool, na_value=False)
        row = values.index[int(np.flatnonzero(unknown)[0])] if unknown.any() else None
        raise ValueError(f"row {row}, column 'zone': {e}" if row is not None else f"column 'zone': {e}") from None


def _zone_benefits(
    frame: pd.DataFrame,
    p: Mapping[str, Any],
    dbh: np.ndarray,
    pos: np.ndarray,
    lu_idx: np.ndarray,
    j: np.ndarray,
    frac: np.ndarray,
) -> pd.DataFrame:
    """:func:`compute_benefits` on the climate zones' stack: the zone index joins the one table lookup."""
    zone_idx = _zone_column(frame["zone"], p["zone"]) if "zone" in frame else _default_zone_index(p, len(frame))
    row, subst = _zone_rows(zone_idx, pos)
    zc = _zone_cells(_freeze(p))
    n_cls = len(data.DBH_CLASSES_CM)
    block = np.empty((len(OUTPUT_COLUMNS), len(frame)))
    at = row * n_cls
    at += j
    itree_streets.gather_at(zc.by_row, at, frac, out=[block[k] for k in zc.row_out])
    pair = lu_idx * len(data.zone_tables().row_zone)  # (land use, row): its cell, and its disclosure key
    pair += row
    at = zc.cell_of.take(pair, out=at)
    at *= n_cls
    at += j
    itree_streets.gather_at(zc.by_cell, at, frac, out=[block[k] for k in zc.cell_out])
    flat = pair
    flat *= n_cls
    flat += j
    dead = dead_trees(frame)
    if dead.any():
        block[:, dead] = 0.0  # a dead tree has no leaf area, in every zone
    values = pd.DataFrame(block.T, columns=list(OUTPUT_COLUMNS), index=frame.index, copy=False)
    row_code, _ = _zone_row_names()
    ids = pd.DataFrame(
        {
            "species_code": pd.Categorical.from_codes(pos, dtype=_dtypes()["species_code"], validate=False),
            "value_row": pd.Categorical.from_codes(
                row_code.take(row), dtype=_dtypes()["zone_value_row"], validate=False
            ),
            "land_use": pd.Categorical.from_codes(lu_idx, dtype=_dtypes()["land_use"], validate=False),
        },
        index=frame.index,
    )
    own = dbh.flags.owndata and dbh.flags.writeable
    ids.insert(2, "dbh_in", pd.Series(dbh, index=frame.index, copy=not own))
    keys = _keys_at(flat, frac, dbh, pos, ZONES, subst)
    notes_col = disclosure_column(keys, p)
    notes = pd.DataFrame(
        {
            "disclosures": _with_dead_note(notes_col, dead) if dead.any() else notes_col,
            "dead": dead,
            "zone": pd.Categorical.from_codes(zone_idx, dtype=_dtypes()["zone"], validate=False),
        },
        index=frame.index,
    )
    return pd.concat([ids, values, notes], axis=1)


def _benefits_at(
    species: str,
    dbh_in: float,
    land_use: str | None,
    params: BenefitParams | None,
    latitude: float | None,
    longitude: float | None,
    given: dict[str, Any],
    kw: dict[str, Any],
) -> dict[str, Any]:
    """:func:`benefits` of a tree at a position: its zone found there, the zones near it stated."""
    if latitude is None or longitude is None:
        raise ValueError("give both latitude and longitude (WGS84 degrees)")
    hit = climate_zones.zone_at(float(latitude), float(longitude))
    where = climate_zones.describe(hit, float(latitude), float(longitude))
    options = {k: given[k] for k in ("condition", "horizon_years", "mortality_rate", "valuations")}
    chosen = kw.get("zone") or (params.zone if params else None)
    if chosen is None:
        if hit.zone is None:
            raise ValueError(f"{where}: choose one with ‹zone›")
        kw = {**kw, "zone": hit.zone}
    out = benefits(species, dbh_in, land_use, params, **options, **kw)
    out["zone_found_from"] = "given" if chosen is not None else "coordinates"
    out["latitude"], out["longitude"] = float(latitude), float(longitude)
    notes = [where]
    for other, km in hit.near.items():
        there = benefits(species, dbh_in, land_use, params, valuations=False, **{**kw, "zone": other})
        notes.append(
            f"the tree is {km:g} km from the {there['zone_name']} zone ({other}) boundary: valued there its "
            f"annual benefits would be ${there['dollars']['total_annual']:,.2f} (here "
            f"${out['dollars']['total_annual']:,.2f})"
        )
    out["warnings"] = notes + list(out["warnings"])
    return out


def zone_source(zone: str) -> str:
    """The source of a climate zone's tables and prices, in words."""
    z = data.zones().loc[zone]
    return (
        f"i-Tree Streets / National Tree Benefit Calculator resource tables, {z['name']} climate zone ({zone}; "
        f"reference city {z['reference_city']}; USDA Forest Service Community Tree Guide), as distributed with "
        "OpenTreeMap's eco-benefit service (tables) and otm-core (prices); see data/species/zones/"
    )


def zone_fields(p: Mapping[str, Any]) -> dict[str, Any]:
    """``zone``, ``zone_name`` and ``zone_default`` (True: no zone was chosen and the Northeast tables were read)."""
    zone = p.get("zone") or data.DEFAULT_ZONE
    return {"zone": zone, "zone_name": str(data.zones().at[zone, "name"]), "zone_default": "zone" not in p}


def benefits(
    species: str,
    dbh_in: float,
    land_use: str | None = None,
    params: BenefitParams | None = None,
    *,
    condition: str = "good",
    horizon_years: int = 20,
    mortality_rate: float | None = None,
    valuations: bool = True,
    latitude: float | None = None,
    longitude: float | None = None,
    **kw: Any,
) -> dict[str, Any]:
    """Annual benefits of one tree, as a JSON-ready dict.

    ``latitude``/``longitude`` (WGS84), when given without a zone, find the tree's climate zone from the
    zones' boundaries (:mod:`treecalc.ingest.zone`); a tree within 10 km of another zone is warned of,
    with its total there.

    Keys: ``species_code``, ``scientific_name``, ``common_name``,
    ``itree_code`` (the value row whose tables are used), ``dbh_in``,
    ``stormwater_gal``, ``electricity_kwh``, ``natural_gas_therms``,
    ``air_quality_lb``, ``co2_sequestered_lb``, ``co2_avoided_lb``,
    ``co2_stored_lb``, ``leaf_area_increase_m2``, ``disclosures`` (sentences,
    see :func:`compute_benefits`), ``disclosure_flags``, ``dollars`` (stormwater,
    energy, air_quality, co2, property, total_annual; USD/yr),
    ``dollars_by_line`` (energy and CO2 split by the quantity they value, see
    :func:`dollars_by_line`),
    ``replacement_value_usd`` (CTLA trunk formula at ``condition``, see
    :mod:`treecalc.models.appraisal`), ``cumulative_usd`` (benefits over
    ``horizon_years`` with growth and ``mortality_rate``, None: the street-tree default of
    :func:`treecalc.models.growth.default_mortality_rate`, 4.3 %/yr, Roman & Scatena 2011; see
    :mod:`treecalc.models.growth`), ``warnings``, ``parameters`` and ``source``.
    ``valuations=False`` leaves out the replacement value and the cumulative
    benefits (the annual benefits alone, as :func:`compute_benefits` gives).

    Examples
    --------
    >>> import treecalc
    >>> b = treecalc.benefits("red maple", 12)
    >>> b["species_code"], b["zone_default"]
    ('ACRU', True)
    >>> round(b["dollars"]["total_annual"], 2) == round(sum(v for k, v in b["dollars"].items() if k != "total_annual"), 2)
    True
    """
    if latitude is not None or longitude is not None:
        return _benefits_at(species, dbh_in, land_use, params, latitude, longitude, locals(), kw)

    if valuations:  # a rate out of range is refused before any work
        _rate(mortality_rate)
    try:
        dbh = float(dbh_in)
    except (TypeError, ValueError):
        raise ValueError(f"DBH must be a number of inches, got {dbh_in!r}") from None
    if not np.isfinite(dbh) or dbh <= 0:
        raise ValueError(f"DBH must be a positive number of inches, got {dbh_in!r}")
    prm = make_params(params, **kw)
    p = prm.resolved()
    res = resolve_in_zone(species, p.get("zone"))
    if res.code is None:
        listed = zones_listing(species)  # a species only other zones list: where, after the near names
        where = [f"the species lists of {', '.join(listed)} have it: give ‹zone›"] if listed else []
        raise UnknownSpecies(str(species), list(res.suggestions) + where)
    code = res.code
    if p.get("zone") is None and data.catalogue_lookup()[code] >= _northeast_count():
        p = make_params(prm, zone=data.DEFAULT_ZONE).resolved()
    blank = land_use is None or (isinstance(land_use, float) and np.isnan(land_use)) or not str(land_use).strip()
    lu_name = p["land_use"] if blank else str(land_use).strip().lower()
    if lu_name not in data.LAND_USES:
        raise ValueError(f"unknown land use {land_use!r}; expected one of {', '.join(data.LAND_USES)}")
    pos = data.catalogue_lookup()[code]
    lu = np.array([data.LAND_USES.index(lu_name)])
    row = {k: v[0] for k, v in benefit_arrays(np.array([pos]), np.array([dbh]), lu, p).items()}
    dead = bool(is_dead(condition)[0])
    if dead:  # no leaf area: every benefit is 0 (the replacement value too, at condition 0 %)
        row = {k: 0.0 for k in row}
    row["land_use"] = lu_name
    mask = disclosure_masks(np.array([pos]), np.array([dbh]), lu, p)[0]
    cat = {k: v[pos] for k, v in _catalogue_text().items()}  # plain arrays: a pandas row costs ~1 ms
    zone = p.get("zone")
    if zone is not None:  # the row the tree reads in its zone: its own, or the zone's generic one
        zrow, _ = _zone_rows(_default_zone_index(p, 1), np.array([pos]))
        cat["value_row"] = data.zone_tables().local_rows[int(zrow[0])]
    keys = BENEFIT_QUANTITY_COLUMNS
    out = {
        "species_code": code,
        "scientific_name": cat["scientific_name"],
        "common_name": cat["common_name"],
        "itree_code": cat["value_row"],
        "dbh_in": dbh,
        "land_use": row["land_use"],
        **{k: float(row[k]) for k in keys},
        "dollars": {
            **{k: float(row[f"usd_{k}"]) for k in DOLLAR_COLUMNS},
            "total_annual": float(row["usd_total_annual"]),
        },
        "dollars_by_line": dollars_by_line({k: float(row[k]) for k in keys}, p["prices"]),
        "disclosures": [DEAD_NOTE] * dead + disclosure_texts(int(mask), cat["value_row"], lu_name, p, int(pos), zone),
        "dead": dead,
        "disclosure_flags": disclosures.flag_names(int(mask)),
        "warnings": [res.warning] if res.warning else [],
        "parameters": p,
        "source": data.SOURCE_NAME if zone is None else zone_source(zone),
        **zone_fields(p),
    }
    if valuations:
        out.update(_valuations(code, pos, dbh, lu, p, condition, horizon_years, mortality_rate, dead))
        if zone is not None and zone != data.DEFAULT_ZONE:
            out["warnings"].append(ZONE_VALUATION_NOTE)
    return out


#: What a valuation outside the Northeast reads from the Northeast, said with every such figure.
ZONE_VALUATION_NOTE = (
    "replacement_value_usd uses the Northeast's CTLA species parameters (i-Tree Streets publishes them for the "
    "Northeast only; a species the Northeast has only under another code, a cultivar's, takes that row's, and one "
    "it lacks those of its generic row of the same tree type); the "
    "annual benefits and cumulative_usd's growth (the zone's DBH-at-age table) are the zone's own"
)


def _valuations(
    code: str,
    pos: int,
    dbh: float,
    lu: np.ndarray,
    p: dict[str, Any],
    condition: str,
    horizon_years: int,
    mortality_rate: float | None,
    dead: bool,
) -> dict[str, Any]:
    """:func:`benefits`' replacement value (CTLA at ``condition``) and cumulative benefits (with growth and
    mortality; None: the literature's default rate); a dead tree's are 0."""
    m_rate = _rate(mortality_rate)
    return {
        "replacement_value_usd": float(
            appraisal.replacement_value(np.array([code], dtype=object), np.array([dbh]), condition)[0]
        ),
        "replacement_value_condition": condition,
        "replacement_value_method": appraisal.EDITION_NAME + ", trunk formula",
        "replacement_value_parameters": appraisal.trunk_formula_parameters(code, condition),
        "cumulative_usd": 0.0
        if dead
        else float(
            growth.cumulative_benefits(
                np.array([code], dtype=object),
                np.array([dbh]),
                horizon_years,
                lambda c, d: benefit_arrays(np.repeat(pos, len(d)), d, np.repeat(lu, len(d)), p)["usd_total_annual"],
                mortality_rate=m_rate,
                zone=p.get("zone"),
            )[0]
        ),
        "cumulative_years": horizon_years,
        "cumulative_mortality_rate": m_rate,
    }


def annual_total(trees: pd.DataFrame, zone: str | None) -> float:
    """The trees' total annual benefits at default parameters, USD/yr: valued in ``zone``, or (None) each tree in
    the zone of its ``zone`` column. What the survey's zone notes compare a zone's trees by."""
    valued = compute_benefits(trees, zone=zone) if zone is not None else compute_benefits(trees)
    return float(valued["usd_total_annual"].sum())


def survey_zone(trees: object, site: dict | None = None, zone: str | None = None) -> climate_zones.SurveyZone:
    """:func:`treecalc.ingest.zone.survey_zone`, the trees near another zone valued here and there
    (:func:`annual_total`) in its notes."""
    return climate_zones.survey_zone(trees, site, zone, value_in=annual_total)
