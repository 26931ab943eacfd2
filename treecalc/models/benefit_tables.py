"""The table lookups behind :mod:`treecalc.models.benefits`: the resource tables turned into output tables (reader
units and dollars) once per parameter set, the Northeast's and the 16 climate zones' stacked, and the row each
tree reads (:func:`benefit_arrays`, the vectorised core).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from treecalc.models import itree_streets, property_value
from treecalc.reference import data
from treecalc.schema import BENEFIT_COLUMNS, DOLLAR_COLUMNS


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
    """M of every zone (:attr:`treecalc.reference.data.ZoneTables.large_tree_leaf_area_m2`), the Northeast's being
    :func:`default_large_tree_leaf_area_m2` to the last bit, so its figures are the same with or without a zone."""
    zt = data.zone_tables()
    m = zt.large_tree_leaf_area_m2.copy()
    m[zt.zones.index(data.DEFAULT_ZONE)] = default_large_tree_leaf_area_m2()
    return m


def _default_zone_index(p: Mapping[str, Any], n: int) -> np.ndarray:
    """The zone of parameters ``p`` (its index in :func:`treecalc.reference.data.zones`) for ``n`` trees."""
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


def _zone_rows(zone_idx: np.ndarray, cat_pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row of the zones' stack each tree reads, and whether it is its zone's generic row: one lookup each."""
    zones = data.zone_tables()
    at = np.asarray(zone_idx, dtype=np.intp) * zones.cat_rows.shape[1]
    at = at + np.asarray(cat_pos, dtype=np.intp)
    return zones.cat_rows.ravel().take(at), zones.substituted.ravel().take(at).view(np.uint8)
