"""Cells of the map wholly inside one zone (treecalc.reference.geo._interior_cells): a point in one takes that zone with no
polygon test, and the answer is the polygons' own, near-boundary points included."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from treecalc.reference import geo


@pytest.fixture
def coarse(monkeypatch):
    """Cells of half a degree: the same rule, built in a fraction of the time of the tenth-degree default."""
    monkeypatch.setattr(geo, "GRID_DEG", 0.5)
    return geo._interior_cells(geo.NEAR_KM, 0.5)


def _points_near_boundaries(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Boundary vertices moved by about 10 km (0.1° standard deviation): the points whose zone is hardest."""
    _, geoms, _ = geo._regions()
    xy = np.concatenate([shapely.get_coordinates(shapely.boundary(g)) for g in geoms])
    xy = xy[rng.choice(len(xy), n)]
    lat = np.degrees(2 * np.arctan(np.exp(xy[:, 1] / geo._R)) - np.pi / 2) + rng.normal(0, 0.1, n)
    lon = np.degrees(xy[:, 0] / geo._R) + rng.normal(0, 0.1, n)
    return lat, lon


def test_zones_at_with_the_cells_is_the_polygons_answer_point_for_point(coarse):
    rng = np.random.default_rng(11)
    # across the contiguous US and beyond its coasts (points in no zone), and close to every boundary
    lat = np.concatenate([rng.uniform(20, 50, 3000), _points_near_boundaries(rng, 3000)[0]])
    lon = np.concatenate([rng.uniform(-126, -64, 3000), _points_near_boundaries(np.random.default_rng(11), 3000)[1]])
    lat, lon = np.clip(lat, -85, 85), np.clip(lon, -180, 180)
    interior = geo._in_interior(coarse, lat, lon)
    # the cells decide a good share of these points, for a zone and for none, and leave the rest to the polygons
    assert (interior >= 0).sum() > 1000 and (interior == geo._NO_ZONE).sum() > 100 and (interior == -1).sum() > 1000
    got = geo.zones_at(lat, lon)
    want = geo._zones_by_polygons(lat, lon, geo.NEAR_KM)
    assert len(got) == len(want) == len(lat)
    assert [i for i, (g, w) in enumerate(zip(got, want)) if g != w] == []
    # a point the cells place is in its zone and near no other, as the polygons say
    decided = np.flatnonzero(interior != -1)
    assert all(not want[i].near for i in decided)
    assert {want[i].zone for i in decided if interior[i] >= 0} >= {"NoEastXXX", "MidWstMSP"}


def test_a_few_points_are_tested_by_their_polygons_alone(coarse, monkeypatch):
    # below the threshold the cells are not even read (one tree: the polygons are faster than the cache)
    monkeypatch.setattr(geo, "_interior_cells", lambda *a: pytest.fail("cells read for one point"))
    (hit,) = geo.zones_at([41.2], [-73.9])  # Croton-on-Hudson, NY
    assert hit.zone == "NoEastXXX"
