"""The climate zone of many points by a precomputed grid: most points take their zone from the cell they lie in,
and only those in a cell the grid cannot decide are tested against the polygons
(:func:`treecalc.reference.geo._zones_by_polygons`).

Two levels. The coarse cells (:func:`treecalc.reference.geo._interior_cells`, :data:`~treecalc.reference.geo.GRID_DEG`)
lying wholly inside one zone farther than the search radius from every boundary, or far from every zone, decide
their points. Each coarse cell they leave open (one a boundary or the radius crosses) is cut into
:data:`FINE` × :data:`FINE` fine cells, each decided when all of its points have the same answer: inside the same
zone (or none) and either near no other zone, or surely near one. Built once from the boundaries file and kept in the
tables' cache (:func:`treecalc.reference.table_cache.cached_arrays`, keyed on that file's and this module's hash).

The answer is the polygons' own for every point (``tests/models/test_zone_grid.py`` compares them point for point,
near boundaries and at the map's edges): a cell is decided only with margins that rounding cannot cross, and a
point in an undecided cell, or off the grid, is tested as before.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from treecalc.reference import data, geo
from treecalc.reference.table_cache import cached_arrays

#: Fine cells per side of a coarse cell the coarse level leaves open (0.01° cells for 0.1° coarse ones: about
#: 1.1 km by 0.8 km at 42° N). Finer cells decide more points near the boundaries and take longer to build.
FINE = 10

#: How much nearer than the search radius a zone must be, on the map, for every point of a cell to be "near" it
#: whatever the exact geodesic says: the ellipsoid's radii differ from the map's sphere by under 0.4 % and the
#: cosine of latitude over a cell's reach by under 0.3 %; 3 % leaves room for both, with plenty to spare.
SURE_NEAR = 0.97

#: A fine cell's value: the points need the polygons (also a coarse cell's "look in the fine cells").
UNDECIDED = -1


def _code(zone: np.ndarray, near: np.ndarray) -> np.ndarray:
    """A decided cell's value: ``2 * (zone + 1) + near`` (zone -1: in none)."""
    return (2 * (zone + 1) + near).astype(np.int16)


@dataclass(frozen=True)
class ZoneGrid:
    """The two levels: ``coarse[i, j]`` is a cell's value (:func:`_code`), or :data:`UNDECIDED` with ``slot[i, j]``
    its block of ``fine`` (slots × FINE × FINE values, -1 where undecided; slot -1: no block, off the map)."""

    lat0: float
    lon0: float
    step: float
    coarse: np.ndarray
    slot: np.ndarray
    fine: np.ndarray


@functools.cache
def zone_grid(near_km: float = geo.NEAR_KM, step: float | None = None, fine: int = FINE) -> ZoneGrid:
    """The grid for the search radius ``near_km``, coarse cells of ``step`` degrees (default
    :data:`~treecalc.reference.geo.GRID_DEG`), cut ``fine`` times a side where needed: from the tables' cache,
    else built (a minute or so) and saved there."""
    step = geo.GRID_DEG if step is None else step
    regions = data.data_file("species/zones/regions.csv", data.SPECIES_DIR.parent)
    name = f"zone_grid_{near_km:g}km_{step:g}deg_{fine}"
    sources = [Path(__file__), Path(geo.__file__), regions]
    arrays, meta = cached_arrays(name, sources, lambda: _build(near_km, step, fine))
    return ZoneGrid(meta["lat0"], meta["lon0"], meta["step"], arrays["coarse"], arrays["slot"], arrays["fine"])


def _build(near_km: float, step: float, fine: int) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    import shapely  # heavy: shapely, loaded only when this runs

    cells = geo._interior_cells(near_km, step)
    codes, geoms, _ = geo._regions()
    coarse = cells.zone.astype(np.int16)
    decided = coarse != -1
    coarse = np.where(
        decided, np.where(coarse == geo._NO_ZONE, _code(np.array(-1), np.array(0)), _code(coarse, np.array(0))), -1
    ).astype(np.int16)
    ci, cj = np.nonzero(~decided)
    lat_lo = cells.lat0 + step * ci
    lon_lo = cells.lon0 + step * cj
    # the open coarse cells on the map (a pole's row is left to the polygons)
    on_map = np.maximum(np.abs(lat_lo), np.abs(lat_lo + step)) < geo._MAX_LAT - step
    ci, cj, lat_lo, lon_lo = ci[on_map], cj[on_map], lat_lo[on_map], lon_lo[on_map]
    slot = np.full(coarse.shape, -1, dtype=np.int32)
    slot[ci, cj] = np.arange(len(ci), dtype=np.int32)
    # the zones each open coarse cell's points could be in or near: those within its own reach of its centre
    # (every fine cell's reach lies inside it: the fine cell is inside the coarse one, its radius no wider)
    x0, y0 = geo.to_web_mercator(lat_lo, lon_lo)
    x1, y1 = geo.to_web_mercator(lat_lo + step, lon_lo + step)
    reach: Any = _reach(near_km, lat_lo, step, x0, y0, x1, y1)
    centres = shapely.points((x0 + x1) / 2, (y0 + y1) / 2)
    relevant = np.stack([shapely.dwithin(g, centres, reach) for g in geoms], axis=1)
    # the fine cells of every open coarse cell, flattened slot-major
    f = step / fine
    a = np.arange(fine)
    flat_lat = (lat_lo[:, None, None] + f * a[None, :, None] + np.zeros(fine)[None, None, :]).ravel()
    flat_lon = (lon_lo[:, None, None] + f * a[None, None, :] + np.zeros(fine)[None, :, None]).ravel()
    owner = np.repeat(np.arange(len(ci)), fine * fine)
    fx0, fy0 = geo.to_web_mercator(flat_lat, flat_lon)
    fx1, fy1 = geo.to_web_mercator(flat_lat + f, flat_lon + f)
    cx, cy = (fx0 + fx1) / 2, (fy0 + fy1) / 2
    half = 0.5 * np.hypot(fx1 - fx0, fy1 - fy0)
    maybe_r = _reach(near_km, flat_lat, f, fx0, fy0, fx1, fy1)
    # surely near: every point of the cell is nearer the zone on the map than SURE_NEAR of the radius at the
    # cell's equatorward edge (where the map stretches least) - the exact search's geodesic is then within it
    equatorward = np.minimum(np.abs(flat_lat), np.abs(flat_lat + f))
    sure_r = SURE_NEAR * near_km * 1000.0 / np.cos(np.radians(equatorward)) - half * 1.001 - 1.0
    n = len(cx)
    holders = np.zeros(n, dtype=np.int8)
    zone = np.full(n, -1, dtype=np.intp)
    edge = np.zeros(n, dtype=bool)
    maybe: list[np.ndarray] = []
    sure: list[np.ndarray] = []
    for k, g in enumerate(geoms):
        sel = np.flatnonzero(relevant[owner, k])
        pts = shapely.points(cx[sel], cy[sel])
        inside = shapely.intersects_xy(g, cx[sel], cy[sel])
        holders[sel] += inside
        zone[sel[inside]] = k
        line = shapely.boundary(g)
        shapely.prepare(line)
        edge_r: Any = half[sel] * 1.001 + 1.0
        edge[sel[shapely.dwithin(line, pts, edge_r)]] = True
        m = np.zeros(n, dtype=bool)
        m_r: Any = maybe_r[sel]
        m[sel] = shapely.dwithin(g, pts, m_r)
        s = np.zeros(n, dtype=bool)
        ok = sel[sure_r[sel] > 0]
        s_r: Any = sure_r[ok]
        s[ok] = shapely.dwithin(g, shapely.points(cx[ok], cy[ok]), s_r)
        maybe.append(m)
        sure.append(s)
    maybe_a, sure_a = np.stack(maybe, axis=1), np.stack(sure, axis=1)
    own = np.zeros_like(maybe_a)
    own[np.flatnonzero(zone >= 0), zone[zone >= 0]] = True
    near_any = (maybe_a & ~own).any(axis=1)
    sure_any = (sure_a & ~own).any(axis=1)
    value = np.where(near_any, np.where(sure_any, _code(zone, np.ones(n, int)), -1), _code(zone, np.zeros(n, int)))
    value[edge | (holders > 1)] = UNDECIDED
    del codes
    return (
        {"coarse": coarse, "slot": slot, "fine": value.astype(np.int16).reshape(len(ci), fine, fine)},
        {"lat0": cells.lat0, "lon0": cells.lon0, "step": step},
    )


def _reach(
    near_km: float, lat_lo: np.ndarray, step: float, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray
) -> np.ndarray:
    """How far on the map from a cell's centre a zone may be and still be within the exact search's radius of one
    of the cell's points: the radius at its most poleward latitude plus half its diagonal, with a margin for
    rounding."""
    poleward = np.maximum(np.abs(lat_lo), np.abs(lat_lo + step))
    radius = near_km * 1000.0 / np.cos(np.radians(poleward))
    return (radius + 0.5 * np.hypot(x1 - x0, y1 - y0)) * 1.001 + 1.0


def cell_values(grid: ZoneGrid, lat: np.ndarray, lon: np.ndarray, near_km: float = geo.NEAR_KM) -> np.ndarray:
    """Each point's cell value (:func:`_code`), :data:`UNDECIDED` where the polygons must decide (off the grid too)."""
    i = np.floor((lat - grid.lat0) / grid.step).astype(np.intp)
    j = np.floor((lon - grid.lon0) / grid.step).astype(np.intp)
    ny, nx = grid.coarse.shape
    on = (i >= 0) & (i < ny) & (j >= 0) & (j < nx)
    out = np.full(len(lat), UNDECIDED, dtype=np.int16)
    # off the grid, which spans every zone: a point farther beyond it than the search radius at 85° (the map's edge
    # at 85.05°; a degree of latitude or longitude is at least 111.32 km of map) is in no zone and near none
    margin = near_km * 1000.0 / np.cos(np.radians(geo._MAX_LAT)) / 111_320.0 + 0.5  # degrees: 1.54 for 10 km
    lat_end, lon_end = grid.lat0 + ny * grid.step, grid.lon0 + nx * grid.step
    far = (lat < grid.lat0 - margin) | (lat > lat_end + margin) | (lon < grid.lon0 - margin) | (lon > lon_end + margin)
    out[far & ~on] = _code(np.array(-1), np.array(0))
    ii, jj = i[on], j[on]
    value = grid.coarse[ii, jj]
    s = grid.slot[ii, jj]
    look = (value == UNDECIDED) & (s >= 0)
    if look.any():
        fine = grid.fine.shape[1]
        f = grid.step / fine
        la, lo = lat[on][look], lon[on][look]
        a = np.clip(np.floor((la - (grid.lat0 + ii[look] * grid.step)) / f).astype(np.intp), 0, fine - 1)
        b = np.clip(np.floor((lo - (grid.lon0 + jj[look] * grid.step)) / f).astype(np.intp), 0, fine - 1)
        value[look] = grid.fine[s[look], a, b]
    out[on] = value
    return out


#: Below this many points the polygons alone answer (reading the grid from the cache costs more than testing a few).
GRID_FROM = 1000


def zone_index_at(lat: object, lon: object, near_km: float = geo.NEAR_KM) -> tuple[np.ndarray, np.ndarray]:
    """Each point's zone, as its index in the boundaries' codes (``geo._regions()[0]``; -1: in no zone), and
    whether another zone lies within ``near_km`` of it: :func:`treecalc.reference.geo.zones_at`'s answer, without
    the distances, from the grid where a cell decides it and from the polygons elsewhere."""
    lat_a, lon_a = geo.wgs84_points(lat, lon)
    if len(lat_a) < GRID_FROM:
        value = np.full(len(lat_a), UNDECIDED, dtype=np.int16)
    else:
        value = cell_values(zone_grid(near_km), lat_a, lon_a, near_km)
    zone = value // 2 - 1
    near = (value % 2).astype(bool)
    rest = np.flatnonzero(value == UNDECIDED)
    if len(rest):
        zone[rest], near[rest] = _by_polygons(lat_a[rest], lon_a[rest], near_km)
    return zone.astype(np.intp), near


def _by_polygons(lat: np.ndarray, lon: np.ndarray, near_km: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`treecalc.reference.geo._zones_by_polygons`'s zone and whether any other zone is near, with the
    geodesic distance measured only where the map leaves it in doubt: a zone nearer on the map than
    :data:`SURE_NEAR` of the radius at the point's latitude is within it on the ellipsoid too (the margin of the
    grid's own "surely near" cells), and the distances themselves are not wanted here."""
    import shapely  # heavy: shapely, loaded only when this runs

    _, geoms, _ = geo._regions()
    x, y = geo.to_web_mercator(lat, lon)
    inside = np.full(len(x), -1, dtype=np.intp)
    for k, g in enumerate(geoms):
        inside[shapely.intersects_xy(g, x, y)] = k  # a point on two zones' edge takes the later, as there
    points: np.ndarray = np.asarray(shapely.points(x, y))
    on_map = np.abs(lat) <= geo._MAX_LAT
    scale = 1.0 / np.cos(np.radians(np.where(on_map, lat, 0.0)))
    radius: Any = near_km * 1000.0 * scale
    sure_r: Any = SURE_NEAR * near_km * 1000.0 * scale
    near = np.zeros(len(x), dtype=bool)
    for k, g in enumerate(geoms):
        hit = shapely.dwithin(g, points, radius) & (inside != k) & on_map & ~near
        if not hit.any():
            continue
        sure = hit & shapely.dwithin(g, points, sure_r)
        near |= sure
        doubt = np.flatnonzero(hit & ~sure)
        if len(doubt):
            km = geo._geodesic_km(g, points.take(doubt), lat.take(doubt), lon.take(doubt))
            near[doubt[km <= near_km]] = True
    return inside, near
