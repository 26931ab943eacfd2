"""The zone grid (treecalc.reference.zone_grid): a point's zone and whether another zone is within 10 km, from its cell
where the cell decides it, are the polygons' own answers point for point (random points over the US and its
territories, points metres from the boundaries and about 10 km from them, the poles, the antimeridian, the grid's
own cell edges)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from treecalc.reference import geo
from treecalc.reference import zone_grid as zg


@pytest.fixture(scope="module")
def grid():
    """Half-degree coarse cells cut 10 a side (0.05° fine cells): the rule of the default grid (0.1°, 0.01°), built
    in a fraction of its time."""
    return zg.zone_grid(geo.NEAR_KM, 0.5, 10)


def _boundary_points(rng: np.random.Generator, n: int, metres: float) -> tuple[np.ndarray, np.ndarray]:
    """Points along the boundaries (anywhere on a segment, not only at vertices), moved by about ``metres``."""
    _, geoms, _ = geo._regions()
    lines = shapely.get_parts(shapely.boundary(np.asarray(geoms, dtype=object)))
    lines = np.concatenate([shapely.get_parts(g) for g in lines])
    lengths = shapely.length(lines)
    pick = rng.choice(len(lines), n, p=lengths / lengths.sum())
    on = shapely.line_interpolate_point(lines[pick], rng.random(n), normalized=True)
    x, y = shapely.get_x(on), shapely.get_y(on)
    lat = np.degrees(2 * np.arctan(np.exp(y / geo._R)) - np.pi / 2)
    lon = np.degrees(x / geo._R)
    d = rng.normal(0, metres, (2, n)) / 111_320.0
    return lat + d[0], lon + d[1] / np.cos(np.radians(lat))


def _exact(lat: np.ndarray, lon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    codes = geo._regions()[0]
    hits = geo._zones_by_polygons(lat, lon, geo.NEAR_KM)
    return np.array([-1 if h.zone is None else codes.index(h.zone) for h in hits]), np.array(
        [bool(h.near) for h in hits]
    )


def test_the_grid_gives_the_polygons_answer_point_for_point(grid, monkeypatch):
    monkeypatch.setattr(zg, "zone_grid", lambda *a, **k: grid)
    rng = np.random.default_rng(36)
    parts = [
        (rng.uniform(18, 50, 4000), rng.uniform(-126, -64, 4000)),  # the contiguous US and its seas, Mexico, Canada
        (rng.uniform(18, 72, 1000), rng.uniform(-180, 180, 1000)),  # Hawaii, Alaska, and the rest of the world
        _boundary_points(rng, 3000, 5.0),  # metres from a boundary: a cell there is never decided
        _boundary_points(rng, 3000, 10_000.0),  # about the search radius away: near or not is a close call
        # the poles and the antimeridian: off the grid, or on its edge row and column
        (
            np.array([90.0, -90.0, 89.999, -89.999, 85.06, -85.06, 51.2, 51.2, 51.2, 0.0]),
            np.array([0.0, 0.0, 180.0, -180.0, 10.0, -170.0, 180.0, -180.0, 179.999, -180.0]),
        ),
    ]
    # the grid's own cell edges, coarse and fine, across the contiguous US (floor's rounding on a cell's edge)
    edge_lat = grid.lat0 + grid.step * rng.integers(40, 60, 500) + 0.05 * rng.integers(0, 10, 500)
    edge_lon = grid.lon0 + grid.step * rng.integers(100, 220, 500) + 0.05 * rng.integers(0, 10, 500)
    parts.append((edge_lat, edge_lon))
    lat = np.concatenate([p[0] for p in parts])
    lon = np.clip(np.concatenate([p[1] for p in parts]), -180, 180)
    lat = np.clip(lat, -90, 90)
    zone, near = zg.zone_index_at(lat, lon)
    want_zone, want_near = _exact(lat, lon)
    assert np.flatnonzero(zone != want_zone).tolist() == []
    assert np.flatnonzero(near != want_near).tolist() == []
    # the grid decided most random US points, both near and not near another zone, and no point metres from a boundary
    value = zg.cell_values(grid, lat, lon)
    us = slice(0, 4000)
    assert (value[us] != zg.UNDECIDED).mean() > 0.8
    decided = value != zg.UNDECIDED
    assert (decided & want_near).sum() > 100 and (decided & ~want_near & (want_zone >= 0)).sum() > 1000
    assert (decided & (want_zone < 0)).sum() > 500  # in no zone: the sea, Canada, Mexico
    # the world beyond the grid is decided too (in no zone, near none) but for a margin around it
    world = slice(4000, 5000)
    off = (lat[world] < grid.lat0 - 2) | (lat[world] > grid.lat0 + grid.coarse.shape[0] * grid.step + 2)
    assert off.sum() > 300 and (value[world][off] == 0).all()


def test_a_few_points_are_tested_by_their_polygons_alone(monkeypatch):
    # below the threshold the grid is not even read (a few trees: the polygons are faster than the cache)
    monkeypatch.setattr(zg, "zone_grid", lambda *a, **k: pytest.fail("grid read for one point"))
    zone, near = zg.zone_index_at([41.2], [-73.9])  # Croton-on-Hudson, NY
    assert geo._regions()[0][zone[0]] == "NoEastXXX" and not near[0]


def test_a_position_that_is_not_wgs84_is_refused():
    with pytest.raises(ValueError, match="point 1: latitude 91, longitude 0 is not a WGS84 position"):
        zg.zone_index_at([0.0, 91.0], [0.0, 0.0])
