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
import threading
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc import data
from treecalc.models import appraisal, disclosures, growth, itree_streets, property_value
from treecalc.models.disclosures import Flag
from treecalc.schema import BENEFIT_COLUMNS, BENEFIT_QUANTITY_COLUMNS, DOLLAR_COLUMNS
from treecalc.species import UnknownSpecies, resolve_many
from treecalc.units import in_range, number


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
OUTPUT_COLUMNS = BENEFIT_COLUMNS


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
    p: dict[str, Any] = {k: dict(v) if isinstance(v, tuple) else v for k, v in key}
    stack = data.benefit_tables().stack
    reader = itree_streets.to_reader_units(stack)
    usd = itree_streets.dollars(stack, p["prices"])
    luf = np.array([p["land_use_factors"][u] for u in data.LAND_USES])[:, None, None]
    usd["property"] = property_value.aesthetic_value(
        stack["property_value"],
        float(p["home_price_usd"]),
        luf,
        float(p["large_tree_leaf_area_m2"]),
        float(p["sale_price_fraction"]),
    )
    tables = {**reader, **{f"usd_{k}": usd[k] for k in DOLLAR_COLUMNS}}
    tables["usd_total_annual"] = np.sum([usd[k] for k in DOLLAR_COLUMNS], axis=0)
    return {c: itree_streets.FlatTable.of(tables[c]) for c in OUTPUT_COLUMNS}


@functools.lru_cache(maxsize=32)
def _zone_derived_tables(key: tuple) -> dict[str, itree_streets.FlatTable]:
    """:func:`_derived_tables` for every climate zone's rows at once, each row at its own zone's prices and
    reference tree (M); the user's overrides (``price_overrides``, ``large_tree_leaf_area_m2_given``) apply to all."""
    p: dict[str, Any] = {k: dict(v) if isinstance(v, tuple) else v for k, v in key}
    zt = data.zone_tables()
    stack = zt.tables.stack
    defaults = data.zone_prices()
    over = p["price_overrides"]
    # one price per row: the zone's own, or the override (shape (1, rows, 1) broadcasts over land use and DBH)
    prices = {
        g: np.array([over.get(g, defaults[z][g]) for z in zt.zones]).take(zt.row_zone)[None, :, None]
        for g in defaults[data.DEFAULT_ZONE]
    }
    given = p["large_tree_leaf_area_m2_given"]
    m = _zone_leaf_areas() if given is None else np.full(len(zt.zones), float(given))
    reader = itree_streets.to_reader_units(stack)
    usd = itree_streets.dollars(stack, prices)  # type: ignore[arg-type]  # arrays broadcast where floats are
    luf = np.array([p["land_use_factors"][u] for u in data.LAND_USES])[:, None, None]
    usd["property"] = property_value.aesthetic_value(
        stack["property_value"],
        float(p["home_price_usd"]),
        luf,
        m.take(zt.row_zone)[None, :, None],
        float(p["sale_price_fraction"]),
    )
    tables = {**reader, **{f"usd_{k}": usd[k] for k in DOLLAR_COLUMNS}}
    tables["usd_total_annual"] = np.sum([usd[k] for k in DOLLAR_COLUMNS], axis=0)
    return {c: itree_streets.FlatTable.of(tables[c]) for c in OUTPUT_COLUMNS}


@dataclass(frozen=True)
class _ZoneCells:
    """:func:`_zone_derived_tables` made small to read: ``by_row`` the outputs that read the same numbers in every
    land use (stormwater, CO2 stored, leaf area: the source has no land-use variant of them), one table per
    output over the rows alone, shape ``(1, rows, 9)``; ``by_cell`` the others over merged cells: (land use,
    row) pairs whose numbers are the same in every such output share one cell (``cell_of[land use x rows + row]``),
    shape ``(1, cells, 9)``. ``row_out`` / ``cell_out``: each table's position in :data:`OUTPUT_COLUMNS`.

    A tree costs one lookup per output either way; what made the 16 zones' lookup slower than the Northeast's is
    the size of the table each output's pass over the trees reads (16 zones x 8 land uses x their rows, ~330 kB,
    against the Northeast's ~24 kB, which stays in the processor's cache). Read so, the tables are ~41 kB (by
    row) and ~160 kB (by cell: every land use of a zone without land-use tables, and the land uses that share a
    table and a factor C, merge, 4,592 pairs to ~2,300). Numbers are merged only when they are the same to the
    bit (values and slopes), so each tree reads the very numbers it read before."""

    by_row: dict[str, itree_streets.FlatTable]
    by_cell: dict[str, itree_streets.FlatTable]
    cell_of: np.ndarray
    row_out: tuple[int, ...]
    cell_out: tuple[int, ...]


@functools.lru_cache(maxsize=32)
def _zone_cells(key: tuple) -> _ZoneCells:
    tables = _zone_derived_tables(key)
    n_lu, n_rows, n_cls = next(iter(tables.values())).shape

    def bits(t: itree_streets.FlatTable) -> np.ndarray:  # values and slopes of each (land use, row), as bits
        both = np.concatenate([t.value.reshape(n_lu, n_rows, n_cls), t.slope.reshape(n_lu, n_rows, n_cls)], axis=2)
        return np.ascontiguousarray(both).view(np.uint64)

    def part(t: itree_streets.FlatTable, which: np.ndarray) -> itree_streets.FlatTable:
        v, sl = (np.ascontiguousarray(a.reshape(-1, n_cls)[which]).ravel() for a in (t.value, t.slope))
        return itree_streets.FlatTable(v, sl, (1, len(which), n_cls))

    same = [c for c, t in tables.items() if (bits(t) == bits(t)[:1]).all()]  # no land use changes its numbers
    rest = [c for c in tables if c not in same]
    joined = np.concatenate([bits(tables[c]).reshape(n_lu * n_rows, -1) for c in rest], axis=1)
    _, first, cell_of = np.unique(joined, axis=0, return_index=True, return_inverse=True)
    cell_of = cell_of.ravel().astype(np.intp)
    cell_of.setflags(write=False)
    return _ZoneCells(
        {c: part(tables[c], np.arange(n_rows)) for c in same},
        {c: part(tables[c], first) for c in rest},
        cell_of,
        tuple(OUTPUT_COLUMNS.index(c) for c in same),
        tuple(OUTPUT_COLUMNS.index(c) for c in rest),
    )


@functools.cache
def _zone_leaf_areas() -> np.ndarray:
    """M of every zone (:attr:`treecalc.data.ZoneTables.large_tree_leaf_area_m2`), the Northeast's being
    :func:`default_large_tree_leaf_area_m2` to the last bit, so its figures are the same with or without a zone."""
    zt = data.zone_tables()
    m = zt.large_tree_leaf_area_m2.copy()
    m[zt.zones.index(data.DEFAULT_ZONE)] = default_large_tree_leaf_area_m2()
    return m


def _default_zone_index(p: Mapping[str, Any], n: int) -> np.ndarray:
    """The zone of parameters ``p`` (its index in :func:`treecalc.data.zones`) for ``n`` trees."""
    return np.full(n, data.zone_tables().zones.index(p["zone"]), dtype=np.intp)


def benefit_arrays(
    cat_pos: np.ndarray,
    dbh_in: np.ndarray,
    lu_idx: np.ndarray,
    p: Mapping[str, Any],
    out: np.ndarray | None = None,
    positions: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """The vectorised core: reader units and dollars from integer indices.

    ``cat_pos`` catalogue positions, ``dbh_in`` inches, ``lu_idx`` land-use
    indices, ``p`` the resolved parameters (:meth:`BenefitParams.resolved`).
    Returns one array per name of :data:`OUTPUT_COLUMNS`. ``positions``: the
    DBH positions (:func:`~treecalc.models.itree_streets.dbh_positions`) if
    already computed.
    """
    dbh_cm = np.asarray(dbh_in, float) * itree_streets.CM_PER_IN
    if _which(p) == ZONES:
        row, _ = _zone_rows(_default_zone_index(p, len(np.atleast_1d(cat_pos))), cat_pos)
        tables = _zone_derived_tables(_freeze(p))
        return itree_streets.gather(tables, row, dbh_cm, lu_idx, out=out, positions=positions)
    row = _catalogue_value_rows()[cat_pos]
    return itree_streets.gather(_derived_tables(_freeze(p)), row, dbh_cm, lu_idx, out=out, positions=positions)


#: The two table sets: the Northeast's own (data/species/), and every climate zone's rows stacked (zones/).
NORTHEAST, ZONES = "northeast", "zones"


def _which(p: Mapping[str, Any]) -> str:
    """The table set parameters ``p`` read: the climate zones' when a zone was named (``p["zone"]``)."""
    return ZONES if "zone" in p else NORTHEAST


def _tables(which: str) -> data.BenefitTables:
    return data.zone_tables().tables if which == ZONES else data.benefit_tables()


@functools.cache
def _zero_tails(which: str = NORTHEAST) -> dict[str, np.ndarray]:
    """First DBH class of each value row's zero tail, for the factors that have one (zone tables)."""
    stack = _tables(which).stack
    return {f: disclosures.zero_from_class(stack[f][0]) for f in ("property_value", "co2_sequestered")}


@functools.cache
def _catalogue_text() -> dict[str, np.ndarray]:
    """Catalogue text columns (names, value row, correction) as plain arrays, fast by position."""
    cat = data.catalogue()
    col = cat["correction"] if "correction" in cat else pd.Series("", index=cat.index)
    return {
        "value_row": cat["value_row"].to_numpy(object),
        "common_name": cat["common_name"].to_numpy(object),
        "scientific_name": cat["scientific_name"].to_numpy(object),
        "correction": col.fillna("").astype(str).to_numpy(object),
    }


@functools.cache
def _catalogue_corrected() -> np.ndarray:
    return np.array([len(c) > 0 for c in _catalogue_text()["correction"]], dtype=bool)


def land_use_flags(p: Mapping[str, Any]) -> np.ndarray:
    """Disclosure flags of each land use of :data:`treecalc.data.LAND_USES` under parameters ``p``.

    A land-use factor C the Village set (different from the default) is not
    flagged unverified; a default other than single-family's is.
    """
    out = np.zeros(len(data.LAND_USES), dtype=np.int64)
    for k, lu in enumerate(data.LAND_USES):
        f = 0
        default = property_value.LAND_USE_FACTOR[lu]
        set_by_village = p["land_use_factors"][lu] != default
        if lu == "unspecified":
            f |= Flag.LAND_USE_NOT_GIVEN if not set_by_village else 0
        elif lu != "single_family" and not set_by_village:
            f |= Flag.LAND_USE_FACTOR_UNVERIFIED
            if lu == "commercial_industrial":
                f |= Flag.COMMERCIAL_NOT_DISTINGUISHED
        if data.TABLE_LAND_USE[lu] == "institutional":
            f |= Flag.ENERGY_TABLES_ZERO
        elif lu == "park_vacant_other":
            f |= Flag.ENERGY_ZONE_TABLE
        out[k] = int(f)
    return out


@functools.lru_cache(maxsize=32)
def _flag_table(key: tuple, which: str = NORTHEAST) -> np.ndarray:
    """Flags by (land use, value row, DBH class read), flattened, for one parameter set."""
    p: dict[str, Any] = {k: dict(v) if isinstance(v, tuple) else v for k, v in key}
    n_cls = len(data.DBH_CLASSES_CM)
    zt = _zero_tails(which)
    zero = disclosures.zero_tail_table(
        zt["property_value"], Flag.ZERO_PROPERTY_VALUE, n_cls
    ) | disclosures.zero_tail_table(zt["co2_sequestered"], Flag.ZERO_CO2_SEQUESTERED, n_cls)
    lu = np.repeat(land_use_flags(p)[:, None], zero.shape[0], axis=1)
    if which == ZONES:  # what a land use reads depends on the zone: its own tables, zero ones, or none
        zones = data.zone_tables()
        variants = zones.has_variants.take(zones.row_zone)
        it_zero = zones.it_zero.take(zones.row_zone)
        for k, name in enumerate(data.LAND_USES):
            if data.TABLE_LAND_USE[name] == "institutional":
                lu[k] &= ~np.where(it_zero, 0, int(Flag.ENERGY_TABLES_ZERO))
            if data.TABLE_LAND_USE[name]:
                lu[k] |= np.where(variants, 0, int(Flag.ZONE_HAS_NO_LAND_USE_TABLES))
    return np.ascontiguousarray((lu[:, :, None] | zero[None, :, :]).ravel())


@functools.cache
def _corrected_index() -> np.ndarray:
    """Per catalogue position: 0, or k for the k-th species the build corrected."""
    corr = _catalogue_corrected()
    idx = np.zeros(len(corr), dtype=np.int64)
    idx[corr] = np.arange(1, int(corr.sum()) + 1)
    return idx


def _key_sizes(which: str = NORTHEAST) -> tuple[int, int, int]:
    """(value rows, DBH classes, corrected species + 1): the dimensions of a disclosure key.

    In the climate zones' set the last counts each corrected species twice: with its own row in its zone,
    and with the zone's generic row (a species the zone's list has no code for, :data:`Flag.SPECIES_NOT_IN_ZONE`).
    """
    n_corr = int(_catalogue_corrected().sum()) + 1
    return len(_tables(which).value_rows), len(data.DBH_CLASSES_CM), n_corr * (2 if which == ZONES else 1)


def disclosure_keys(
    cat_pos: np.ndarray,
    dbh_in: np.ndarray,
    lu_idx: np.ndarray,
    positions: tuple[np.ndarray, np.ndarray] | None = None,
    zone_idx: np.ndarray | None = None,
) -> np.ndarray:
    """One small integer per tree naming all its disclosures depend on.

    ``((land use, value row, DBH class read) × DBH range) × corrected species``:
    fewer than 25,000 values, so the per-tree work is a few array operations and
    everything else (flags, text) is computed once per distinct key.
    ``positions``: the DBH positions if already computed. ``zone_idx``: each tree's climate zone
    (:func:`treecalc.data.zone_positions`), for the zones' table set.
    """
    which = NORTHEAST if zone_idx is None else ZONES
    n_rows, n_cls, _ = _key_sizes(which)
    cat_pos = np.asarray(cat_pos, dtype=np.intp)
    dbh = np.asarray(dbh_in, float)
    j, frac = positions if positions is not None else itree_streets.dbh_positions(dbh * itree_streets.CM_PER_IN)
    if zone_idx is None:
        row, subst = _catalogue_value_rows()[cat_pos], None
    else:
        row, subst = _zone_rows(zone_idx, cat_pos)
    flat = itree_streets.table_index((len(data.LAND_USES), n_rows, n_cls), row, lu_idx, j)
    return _keys_at(flat, frac, dbh, cat_pos, which, subst)  # table_index made flat: _keys_at may write in it


def _zone_rows(zone_idx: np.ndarray, cat_pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row of the zones' stack each tree reads, and whether it is its zone's generic row: one lookup each."""
    zones = data.zone_tables()
    at = np.asarray(zone_idx, dtype=np.intp) * zones.cat_rows.shape[1]
    at = at + np.asarray(cat_pos, dtype=np.intp)
    return zones.cat_rows.ravel().take(at), zones.substituted.ravel().take(at).view(np.uint8)


def _keys_at(
    flat: np.ndarray,
    frac: np.ndarray,
    dbh: np.ndarray,
    cat_pos: np.ndarray,
    which: str = NORTHEAST,
    substituted: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`disclosure_keys` from the trees' flat table index (class ``j``, an intp array) and class fraction.

    ``flat`` is overwritten: it becomes the keys (no further array of a million is made).
    """
    n_corr = _key_sizes(which)[2]
    key = disclosures.upper_class(flat, frac, out=flat)  # flat index of the upper class read: j's offset is linear
    key *= 4
    disclosures.dbh_flags(dbh, out=key)  # the two lowest bits: BEYOND_LAST_CLASS = 1, IMPLAUSIBLE_DBH = 2
    key *= n_corr
    if which == ZONES:  # (corrected species, generic row of the zone) as 2 c + s
        key += _corrected_index().take(cat_pos) * 2
        if substituted is not None:
            key += substituted
    else:
        key += _corrected_index().take(cat_pos)
    return key


def _decode(key: np.ndarray, which: str = NORTHEAST) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(flat (land use, row, class) index, DBH flags, corrected-species index) of each key."""
    n_corr = _key_sizes(which)[2]
    rest = key // n_corr
    return rest // 4, rest % 4, key % n_corr


@functools.lru_cache(maxsize=32)
def _mask_lut(key: tuple, which: str = NORTHEAST) -> np.ndarray:
    """The flag mask of every possible disclosure key, for one parameter set."""
    n_rows, n_cls, n_corr = _key_sizes(which)
    flat, dbh_bits, corr = _decode(np.arange(len(data.LAND_USES) * n_rows * n_cls * 4 * n_corr, dtype=np.int64), which)
    if which == ZONES:
        species = np.where(corr >= 2, int(Flag.SPECIES_CORRECTED), 0) | np.where(
            corr % 2, int(Flag.SPECIES_NOT_IN_ZONE), 0
        )
    else:
        species = np.where(corr > 0, int(Flag.SPECIES_CORRECTED), 0)
    return _flag_table(key, which).take(flat) | dbh_bits | species


def disclosure_masks(
    cat_pos: np.ndarray,
    dbh_in: np.ndarray,
    lu_idx: np.ndarray,
    p: Mapping[str, Any],
    positions: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Bit mask of :class:`~treecalc.models.disclosures.Flag` per tree (0: nothing to disclose)."""
    which = _which(p)
    zone_idx = _default_zone_index(p, len(np.atleast_1d(cat_pos))) if which == ZONES else None
    return _mask_lut(_freeze(p), which).take(disclosure_keys(cat_pos, dbh_in, lu_idx, positions, zone_idx))


def _cls(k: int) -> str:
    cm = float(data.DBH_CLASSES_CM[k])
    return f"{cm:.2f} cm ({cm / itree_streets.CM_PER_IN:g} in)"


#: each flag as a plain int (see disclosure_texts)
_BIT = {f: int(f) for f in Flag}
#: the flags whose text names the tree's i-Tree row
_ROW_FLAGS = int(Flag.ZERO_PROPERTY_VALUE | Flag.ZERO_CO2_SEQUESTERED)
#: the flags whose text names the tree's climate zone (its row's zone)
_ZONE_ROW_FLAGS = int(Flag.SPECIES_NOT_IN_ZONE | Flag.ZONE_HAS_NO_LAND_USE_TABLES)


def disclosure_texts(
    mask: int, value_row: str, lu: str, p: Mapping[str, Any], corrected_pos: int | None = None, zone: str | None = None
) -> list[str]:
    """The sentences of one tree's disclosures, in the order of the flags.

    ``value_row`` is the tree's i-Tree row, ``lu`` its land use, ``corrected_pos``
    its catalogue position when its species was corrected, ``zone`` its climate zone when one was named
    (``value_row`` is then the zone's own row name).
    """
    out: list[str] = []
    mask = int(mask)  # an int & an IntFlag member goes through enum's slow __rand__; the members as ints do not
    which = NORTHEAST if zone is None else ZONES
    r = _tables(which).row_index[value_row if zone is None else f"{zone} {value_row}"]
    zt = _zero_tails(which)
    zone_name = "" if zone is None else f"{_zone_name(zone)} ({zone})"
    c = p["land_use_factors"][lu]
    if mask & _BIT[Flag.BEYOND_LAST_CLASS]:
        out.append(
            "DBH over 45 in (114.30 cm), the i-Tree tables' last class: every benefit holds its 45-in value "
            "(OpenTreeMap's eco-benefit service extends the last step instead)"
        )
    if mask & _BIT[Flag.IMPLAUSIBLE_DBH]:
        out.append("DBH over 100 in is implausible for this model: check the measurement")
    for flag, factor, what in (
        (Flag.ZERO_PROPERTY_VALUE, "property_value", "annual leaf-area increase (the property / aesthetic value)"),
        (Flag.ZERO_CO2_SEQUESTERED, "co2_sequestered", "CO2 sequestration"),
    ):
        if mask & _BIT[flag]:
            out.append(
                f"the source table's {what} for i-Tree row {value_row}{' of ' + zone_name if zone else ''} falls to 0 at "
                f"{_cls(int(zt[factor][r]))}: the dollars shown follow the table; they are not a finding "
                "that the tree adds nothing"
            )
    land_use_texts = (
        (
            Flag.LAND_USE_NOT_GIVEN,
            "land use not given: the aesthetic benefit takes the single-family factor C = 1 (as the NTBC does); "
            "energy and avoided emissions read the zone's general tables, not the single-family ones",
        ),
        (
            Flag.COMMERCIAL_NOT_DISTINGUISHED,
            "commercial or industrial not distinguished: the lower factor, industrial / large commercial, is used "
            f"(C = {c:g}; small commercial would be "
            f"{p['land_use_factors']['small_commercial']:g})",
        ),
        (
            Flag.LAND_USE_FACTOR_UNVERIFIED,
            f"land-use factor C = {c:g} for {lu} (aesthetic benefit) is unverified: no source for it was found; "
            "the Village may set it",
        ),
        (
            Flag.ENERGY_TABLES_ZERO,
            "institutional / transportation: the source's energy and avoided-emission tables for this land use "
            "are all zero, so no energy saving and no avoided CO2 or pollutants are credited",
        ),
        (
            Flag.ENERGY_ZONE_TABLE,
            "park / vacant / other: the source has no energy table for this land use; the zone's general "
            "table is used, as for a tree of unspecified land use",
        ),
    )
    out += [text for flag, text in land_use_texts if mask & _BIT[flag]]
    if mask & _BIT[Flag.ZONE_HAS_NO_LAND_USE_TABLES]:
        out.append(
            f"the {zone_name} zone publishes no land-use tables: energy and avoided emissions read the zone's "
            "general tables"
        )
    if mask & _BIT[Flag.SPECIES_NOT_IN_ZONE]:
        out.append(
            f"the {zone_name} zone's species list has no i-Tree code for this species: it is valued by the "
            f"zone's generic row for its tree type, {value_row}"
        )
    if mask & _BIT[Flag.SPECIES_CORRECTED] and corrected_pos is not None:
        cat = _catalogue_text()
        out.append(f"{cat['common_name'][corrected_pos]}: {cat['correction'][corrected_pos]}")
    return out


class _TextCodes:
    """The disclosure texts written so far under one parameter set: ``code[key]`` is the text (its index in
    ``texts``) of every disclosure key met so far, -1 for one not yet met. A survey's column then costs a
    lookup per tree, and only a key never met before is written (a million trees over the 16 zones meet
    ~11,000 keys; writing them again on every call cost more than the benefits' table lookup)."""

    def __init__(self, n_keys: int) -> None:
        self.code = np.full(n_keys, -1, dtype=np.int32)
        self.texts: list[str] = []
        self.text_id: dict[str, int] = {}
        self.seen: dict[tuple[int, int, int, int], int] = {}  # (mask, row named, land use, correction) -> text
        self.dtypes: dict[bytes, pd.CategoricalDtype] = {}  # the texts shown (their ids) -> their categorical type
        self.lock = threading.Lock()  # Dask's threads may value partitions under one parameter set at once


@functools.cache
def _zone_names() -> dict[str, str]:
    return {str(z): str(n) for z, n in zip(data.zones().index, data.zones()["name"])}


def _zone_name(zone: str) -> str:
    """A zone's name: a dict lookup (a DataFrame's ``.at`` cost 0.1 ms, paid for each of ~11,000 disclosure
    texts a partition of the 16 zones first writes)."""
    return _zone_names()[zone]


@functools.lru_cache(maxsize=32)
def _text_codes(key: str, n_keys: int) -> _TextCodes:
    return _TextCodes(n_keys)


def _write_texts(codes: _TextCodes, new: np.ndarray, lut: np.ndarray, p: Mapping[str, Any], which: str) -> None:
    """Write the texts of disclosure keys ``new`` (not met before) into ``codes``; hold ``codes.lock``."""
    n_rows, n_cls, _ = _key_sizes(which)
    corrected = np.flatnonzero(_catalogue_corrected())
    flat, _, corr = _decode(new, which)
    zones = data.zone_tables() if which == ZONES else None
    # keys differing only in what the text does not say share one text: (mask, row when the text names it,
    # land use, correction) is worked out for every new key at once, and each distinct one written once
    masks = lut.take(new)
    lu_of, row_of = np.divmod(flat // n_cls, n_rows)
    names_row = _ROW_FLAGS | (_ZONE_ROW_FLAGS if zones is not None else 0)
    row_key = np.where(masks & names_row, row_of, -1)
    seen_key = ((masks * (n_rows + 1) + row_key + 1) * len(data.LAND_USES) + lu_of) * (int(corr.max(initial=0)) + 1)
    seen_key += corr
    _, first, inverse = np.unique(seen_key, return_index=True, return_inverse=True)
    ids = np.empty(len(first), dtype=np.int32)
    for g, k in enumerate(first.tolist()):
        mask, lu, c = int(masks[k]), int(lu_of[k]), int(corr[k])
        row = int(row_of[k])
        seen = (mask, int(row_key[k]), lu, c)
        tid = codes.seen.get(seen)
        if tid is None:
            if zones is not None:  # the zone's own row name, and the zone, name the tree's table
                name, zone, ci = zones.local_rows[row], zones.zones[zones.row_zone[row]], c // 2
            else:
                name, zone, ci = data.benefit_tables().value_rows[row], None, c
            text = "; ".join(
                disclosure_texts(mask, name, data.LAND_USES[lu], p, int(corrected[ci - 1]) if ci else None, zone)
            )
            tid = codes.text_id.setdefault(text, len(codes.texts))
            if tid == len(codes.texts):
                codes.texts.append(text)
            codes.seen[seen] = tid
        ids[g] = tid
    codes.code[new] = ids.take(inverse.ravel())


def disclosure_column(keys: np.ndarray, p: Mapping[str, Any]) -> pd.Categorical:
    """Per-tree disclosure text (``"; "``-joined, ``""`` when none) from :func:`disclosure_keys`.

    Each distinct key is written once per parameter set (and process); the column is categorical, its
    categories the texts present in the order of the first key (by value) that gives each.
    """
    keys = np.asarray(keys, dtype=np.int64)
    which = _which(p)
    lut = _mask_lut(_freeze(p), which)
    met = np.zeros(len(lut), dtype=bool)
    met[keys] = True  # the keys present (a mark per tree costs a fifth of counting them)
    present = np.flatnonzero(met)
    # keyed by the parameters as written (repr): values that compare equal can be written differently
    codes = _text_codes(repr(_freeze(p)) + which, len(lut))
    tid = codes.code.take(present)
    if (tid < 0).any():
        with codes.lock:
            new = present[codes.code.take(present) < 0]
            if len(new):
                _write_texts(codes, new, lut, p, which)
        tid = codes.code.take(present)
    first = np.full(len(codes.texts), len(tid))
    np.minimum.at(first, tid, np.arange(len(tid)))  # each text's first key present (keys ascend)
    given = np.flatnonzero(first < len(tid))
    shown = given.take(np.argsort(first.take(given)))  # the texts in the order their first key comes
    # the categorical type of these texts, made once: making it checks and converts hundreds of sentences
    dtype = codes.dtypes.get(shown.tobytes())
    if dtype is None:
        dtype = pd.CategoricalDtype([codes.texts[t] for t in shown.tolist()] or [""])
        if len(codes.dtypes) < 64:  # the sets of texts a process meets are few; a bound keeps it so
            codes.dtypes[shown.tobytes()] = dtype
    # codes of the width pandas keeps for this many categories, so it need not convert a million of them
    n = len(dtype.categories)
    width = np.int8 if n < 127 else np.int16 if n < 32767 else np.int32
    local = np.zeros(len(codes.texts) + 1, dtype=width)
    local[shown] = np.arange(len(shown), dtype=width)
    code_of = np.zeros(len(lut), dtype=width)
    code_of[present] = local.take(tid)
    return pd.Categorical.from_codes(code_of.take(keys), dtype=dtype, validate=False)


def method_notes(p: Mapping[str, Any]) -> list[str]:
    """The science's limits, in sentences for "Method & sources" (``p``: resolved parameters).

    Each names the value in force, so a Village that overrides one reads its own.
    """
    prices, luf = p["prices"], p["land_use_factors"]
    zone = p.get("zone")
    if zone is not None and zone != data.DEFAULT_ZONE:
        return _zone_method_notes(p)
    default_hydro = data.prices()["hydro_interception"]
    zt = _zero_tails()
    rows = data.benefit_tables().value_rows
    n_zero = int(
        ((zt["property_value"] < len(data.DBH_CLASSES_CM)) | (zt["co2_sequestered"] < len(data.DBH_CLASSES_CM))).sum()
    )
    unverified = ", ".join(
        f"{lu} {luf[lu]:g}"
        for lu in data.LAND_USES
        if lu not in ("unspecified", "single_family") and luf[lu] == property_value.LAND_USE_FACTOR[lu]
    )
    hydro = prices["hydro_interception"]
    notes = [
        (
            f"Stormwater is priced at ${hydro:g}/gal"
            + (
                ": the Northeast price. OpenTreeMap's Northeast table gives $0.0008, a tenth of it and 2-35 times "
                "below every other zone's price there ($0.00183-0.02779/gal); the Northeast Community Tree Guide "
                "(McPherson et al. 2007, PSW-GTR-202) values runoff at about $0.01 per gallon of treated and "
                "controlled runoff, as the i-Tree team quotes it (i-Tree Eco's national average is $0.008936/gal). "
                "A local rate can be set (--price hydro_interception=USD)"
                if hydro == default_hydro
                else f", set by the user (the zone table's value is ${default_hydro:g}/gal)"
            )
        ),
        (
            "Aesthetic benefit land-use factors C: single-family 1 (the definition of T); a tree without a land use "
            "takes the single-family factor (C = 1, as the NTBC does) but the zone's general energy tables"
        )
        + (
            f"; {unverified}: unverified, recorded as the Community Tree Guides' land-use reduction factors without "
            "a copy of that table to check them; small commercial and industrial / large commercial are kept apart; "
            "a survey's 'commercial/industrial' takes the lower"
            if unverified
            else ""
        ),
        (
            "Energy and avoided emissions by land use: single-family, multi-family and commercial/industrial (small "
            "commercial and industrial alike) read the source's own tables; the institutional/transportation tables "
            "are all zero in the source (no energy saving or avoided emission is credited there); park/vacant/other "
            "has no table and reads the zone's general table, as an unspecified tree does"
        ),
        (
            "DBH past the tables' last class, 45 in (114.30 cm): every benefit holds its 45-in value (OpenTreeMap's "
            "eco-benefit service extends the last step instead), also for a tree grown past it in a cumulative "
            "valuation; DBH over 100 in is flagged implausible; a tree measured past 45 in or over 100 in is stated per "
            "tree (the per-tree notes read the measured DBH: a tree that only grows past 45 in, or into a zero class "
            "below, during a cumulative valuation has no note of its own)"
        ),
        (
            f"{n_zero} of the {len(rows)} value rows give a property-value driver (annual leaf-area increase) and a "
            "CO2 sequestration of 0 at their largest classes (e.g. red maple, ACRU: 5.6 m2/yr at 83.82 cm, 0 at "
            "99.06 cm); a tree there shows the table's figure, possibly $0, with a per-tree note"
        ),
    ]
    cat = data.catalogue()
    if "correction" in cat:
        for code, note in cat.loc[cat["correction"].fillna("").astype(str) != "", "correction"].items():
            notes.append(f"Species catalogue, {code} ({cat.at[code, 'common_name']}): {note}")
    return notes


def _zone_method_notes(p: Mapping[str, Any]) -> list[str]:
    """The limits of a climate zone other than the Northeast, in sentences (the zone's own tables and prices)."""
    zone = str(p["zone"])
    z = data.zones().loc[zone]
    zt = data.zone_tables()
    k = zt.zones.index(zone)
    notes = [
        f"Climate zone: {z['name']} ({zone}), the i-Tree Streets tables of its reference city {z['reference_city']} "
        f"({z['value_rows']} value rows, {z['species']} species in its list), as OpenTreeMap distributes them; prices "
        "are the zone's i-Tree Streets defaults (data/species/zones/prices.csv), each overridable (--price NAME=USD)",
        "A species the zone's species list has no code for is valued by the zone's generic row of its tree type "
        "(e.g. BDL OTHER) and says so per tree; a species only the zone's list has (crape myrtle in PiedmtCLT) is "
        "read with its code there; the CTLA appraisal parameters and nativity are the Northeast catalogue's (for a "
        "species it lacks, those of its generic row of the same tree type)",
        f"Growth in cumulative valuations follows the zone's own i-Tree Streets DBH-at-age table "
        f"(data/species/zones/{zone}/growth_age_class.csv) of the row each tree reads there; the Urban Tree "
        "Database equations, fitted in the Northeast, are not used",
    ]
    if not zt.has_variants[k]:
        notes.append(
            "The zone publishes no land-use tables: energy and avoided emissions read the zone's general tables "
            "for every land use"
        )
    for (zn, group), ruling in sorted(data.zone_price_notes().items()):
        if zn == zone:
            notes.append(f"Price of {group} in {zone}: ${p['prices'][group]:g} per unit; {ruling}")
    return notes


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
    """Index into :data:`treecalc.data.LAND_USES` of each tree's ``land_use``; blank or absent: ``default``."""
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
        ``species`` (any name :mod:`treecalc.species` resolves); optional
        ``land_use`` (see :data:`treecalc.data.LAND_USES`; blank means the
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
        pos = species_positions(frame["species"])
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
    zone_idx = data.zone_positions(frame["zone"], p["zone"]) if "zone" in frame else _default_zone_index(p, len(frame))
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
    from treecalc import climate_zones

    if latitude is None or longitude is None:
        raise ValueError("give both latitude and longitude (WGS84 degrees)")
    hit = climate_zones.zone_at(float(latitude), float(longitude))
    where = climate_zones.describe(hit, float(latitude), float(longitude))
    options = {k: given[k] for k in ("condition", "horizon_years", "mortality_rate", "valuations")}
    chosen = kw.get("zone") or (params.zone if params else None)
    if chosen is None:
        if hit.zone is None:
            raise ValueError(f"{where}: choose one with --zone")
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
    zones' boundaries (:mod:`treecalc.climate_zones`); a tree within 10 km of another zone is warned of,
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
    """
    from treecalc.species import resolve_in_zone, zones_listing

    if latitude is not None or longitude is not None:
        return _benefits_at(species, dbh_in, land_use, params, latitude, longitude, locals(), kw)

    if valuations:  # a rate out of range is refused before any work
        from treecalc.models.growth import mortality_rate as _rate

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
        listed = zones_listing(species)
        if listed:  # a species only other zones list: say where, not a near name
            raise UnknownSpecies(str(species), [f"listed in the {', '.join(listed)} zones: give --zone"])
        raise UnknownSpecies(str(species), res.suggestions)
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
    "Northeast only; a species the Northeast lacks takes those of its generic row of the same tree type); the "
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
    from treecalc.models.growth import mortality_rate as _rate

    m_rate = _rate(mortality_rate)
    return {
        "replacement_value_usd": float(
            appraisal.replacement_value(np.array([code], dtype=object), np.array([dbh]), condition)[0]
        ),
        "replacement_value_condition": condition,
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
