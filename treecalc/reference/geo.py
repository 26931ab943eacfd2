"""Survey coordinates to WGS84 longitude/latitude (for the tree map).

A survey gives either ``latitude``/``longitude`` (WGS84 degrees) or projected ``x``/``y`` with the
site fact ``crs`` (e.g. ``"EPSG:2263"``, NAD83 / New York Long Island, US survey feet).

References
----------
PROJ contributors (2024). PROJ coordinate transformation software library. https://proj.org
pyproj: https://pyproj4.github.io/pyproj/
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from treecalc.reference import data
from treecalc.reference.table_cache import cached_arrays


def to_wgs84(x: ArrayLike, y: ArrayLike, crs: str) -> tuple[np.ndarray, np.ndarray]:
    """Projected ``x``, ``y`` in ``crs`` to WGS84 (longitude_deg, latitude_deg); axis order x=east, y=north.

    Raises ``ValueError`` naming the CRS when pyproj does not know it.
    """
    from pyproj import CRS, Transformer  # start-up: only when needed, not by every assess (pyproj)
    from pyproj.exceptions import CRSError  # start-up: only when needed, not by every assess (pyproj)

    try:
        src = CRS.from_user_input(str(crs).strip())
    except CRSError as e:
        raise ValueError(
            f"site fact crs={crs!r} is not a coordinate reference system pyproj knows "
            f"(give an EPSG code such as EPSG:2263): {e}"
        ) from e
    t = Transformer.from_crs(src, "EPSG:4326", always_xy=True)
    lon, lat = t.transform(np.asarray(x, float), np.asarray(y, float))
    return np.asarray(lon, float), np.asarray(lat, float)


#: What is said when x/y without a crs are read as degrees (:func:`xy_are_degrees`).
XY_AS_WGS84 = (
    "x/y read as WGS84 longitude/latitude (every x within ±180 and y within ±90, with decimals, and no crs given); "
    "give ‹crs=EPSG:…› if they are projected"
)


def _numbers(v: ArrayLike) -> np.ndarray:
    return pd.to_numeric(pd.Series(np.asarray(v, dtype=object)), errors="coerce").to_numpy(float)


def _in_degrees(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    return (np.abs(xs) <= 180) & (np.abs(ys) <= 90)


def xy_are_degrees(x: ArrayLike, y: ArrayLike) -> bool:
    """Whether x/y given without a crs read as WGS84 longitude/latitude, as a Survey123 or QGIS export writes them
    (POINT_X -73.89, POINT_Y 41.21): some value given, every x within ±180 and every y within ±90, and at least one
    with a decimal (whole numbers alone are as likely a local grid)."""
    xs, ys = _numbers(x), _numbers(y)
    given = np.isfinite(xs) & np.isfinite(ys)
    if not given.any():
        return False
    xs, ys = xs[given], ys[given]
    if not _in_degrees(xs, ys).all():
        return False
    return bool(((xs % 1) != 0).any() or ((ys % 1) != 0).any())


def _row_name(trees: pd.DataFrame, k: int) -> str:
    """A tree's row as the user counts it: the file's row when the reader kept it, else its position."""
    if "source_row" in trees.columns:
        return f"row {trees['source_row'].iloc[k]}"
    return f"row {trees.index[k]}"


def _degree_outlier(trees: pd.DataFrame) -> str | None:
    """The first tree whose x/y leave ±180/±90 when every other tree's read as degrees (one mistyped y such as
    4121.02 among degrees), said with its row and value: such a file is degrees with a typo, not a projection."""
    xs, ys = _numbers(trees["x"]), _numbers(trees["y"])
    given = np.isfinite(xs) & np.isfinite(ys)
    inside = given & _in_degrees(xs, ys)
    outside = np.flatnonzero(given & ~inside)
    if not len(outside) or not inside.any() or len(outside) * 2 > int(given.sum()):
        return None
    if not xy_are_degrees(xs[inside], ys[inside]):
        return None
    k = int(outside[0])
    which = "x" if abs(xs[k]) > 180 else "y"
    value, limit = (xs[k], "a longitude (-180 to 180)") if which == "x" else (ys[k], "a latitude (-90 to 90)")
    more = f" (and {len(outside) - 1} more)" if len(outside) > 1 else ""
    return (
        f"{_row_name(trees, k)}: {which} {value:g} is not {limit}, where the other trees' x/y read as WGS84 "
        f"longitude/latitude{more}: correct it, or give ‹crs=EPSG:…› if the x/y are projected"
    )


def _xy_lonlat(trees: pd.DataFrame, site: Mapping[str, Any] | None) -> tuple[np.ndarray, np.ndarray]:
    """Longitude and latitude of the trees' x/y: in ``site['crs']``, or without one as WGS84 degrees when they
    read as such (:func:`xy_are_degrees`); else a ``ValueError`` naming what is missing."""
    crs = (site or {}).get("crs")
    if not crs and xy_are_degrees(trees["x"], trees["y"]):
        return _numbers(trees["x"]), _numbers(trees["y"])
    if not crs:
        typo = _degree_outlier(trees)
        if typo is not None:
            raise ValueError(typo)
        raise ValueError(
            "the survey has x/y coordinates but no site fact crs, the coordinate system they are in: "
            "give ‹crs=EPSG:…› (e.g. EPSG:2263) to place the trees (x/y in WGS84 degrees, every x "
            "within ±180 and y within ±90 with decimals, are read as longitude/latitude without it)"
        )
    return to_wgs84(_numbers(trees["x"]), _numbers(trees["y"]), str(crs))


#: Two readings of a tree's place agree within this many degrees (about 0.1 m).
AGREE_DEG = 1e-6


def disagreement(a: tuple[ArrayLike, ArrayLike], b: tuple[ArrayLike, ArrayLike], tol: float = AGREE_DEG) -> int | None:
    """The position of the first tree the two (x, y) readings ``a`` and ``b`` place more than ``tol`` apart
    (where both give it), or None when they agree on every tree both give."""
    ax, ay, bx, by = (_numbers(v) for v in (*a, *b))
    both = np.isfinite(ax) & np.isfinite(ay) & np.isfinite(bx) & np.isfinite(by)
    off = both & ((np.abs(ax - bx) > tol) | (np.abs(ay - by) > tol))
    return int(np.flatnonzero(off)[0]) if off.any() else None


def swapped_at(lon: ArrayLike, lat: ArrayLike) -> tuple[int, str] | None:
    """When x/y read as longitude/latitude place no tree in any i-Tree Streets climate zone but read the other way
    round place one (a longitude column taken for latitude: Charlotte's 35.2271, -80.8431 read as a point off
    Antarctica), that tree's position and the zone it then lies in; else None."""
    xs, ys = _numbers(lon), _numbers(lat)
    ok = np.isfinite(xs) & np.isfinite(ys) & _in_degrees(xs, ys)
    if not ok.any() or (np.abs(xs[ok]) > 90).any():
        return None
    pos = np.flatnonzero(ok)
    if any(h.zone is not None for h in zones_at(ys[ok], xs[ok])):
        return None
    for k, h in zip(pos, zones_at(xs[ok], ys[ok])):
        if h.zone is not None:
            return int(k), str(h.zone)
    return None


def swapped_message(where: str, x: float, y: float, zone: str, x_name: str, y_name: str, settle: str = "") -> str:
    """The refusal of x/y that look swapped (:func:`swapped_at`), saying how to settle it (``settle``, by default
    the survey reader's column map)."""
    settle = settle or (
        f'give ‹column_map="{x_name}=latitude"› and ‹column_map="{y_name}=longitude"›, or ‹crs=EPSG:…› if they are '
        "projected"
    )
    return (
        f"the columns {x_name!r} and {y_name!r} look swapped: read as longitude ({x_name}) and latitude ({y_name}) "
        f"no tree lies in an i-Tree Streets climate zone, read the other way round {where} (longitude {x:g}, "
        f"latitude {y:g}) lies at latitude {x:g}, longitude {y:g}, in {zone}; if {x_name!r} holds the latitude "
        f"{settle}"
    )


def xy_reading(
    trees: pd.DataFrame,
    site: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    check_swap: bool = True,
    keep_one: str = "",
    settle_swap: str = "",
) -> list[str]:
    """What the survey reader says of the trees' x/y: :data:`XY_AS_WGS84` when :func:`tree_lonlat` reads them as
    WGS84 degrees (no latitude/longitude, no crs); that x/y agree with latitude/longitude where both are given.

    A ``ValueError`` (a question for the user, not a pick) when x/y and latitude/longitude place a tree more than
    :data:`AGREE_DEG` apart, when x/y read as degrees look swapped (:func:`swapped_at`), or when one tree's x/y
    leave the degrees all others keep. ``headers``: the survey's column for each field, to name them;
    ``check_swap``: look for swapped columns here (a caller that places the trees anyway looks after placing
    them, :func:`swapped_at`); ``keep_one``, ``settle_swap``: how the user settles either question (by default
    with the survey reader's column map)."""
    cols = set(trees.columns)
    names = dict(headers or {})
    if not {"x", "y"} <= cols:
        return []
    x_name, y_name = names.get("x", "x"), names.get("y", "y")
    if {"latitude", "longitude"} <= cols:
        lat_name, lon_name = names.get("latitude", "latitude"), names.get("longitude", "longitude")
        crs = (site or {}).get("crs")
        if not crs and not xy_are_degrees(trees["x"], trees["y"]):
            return [
                f"the columns {x_name!r}/{y_name!r} are not compared with {lon_name!r}/{lat_name!r}: projected "
                f"without a crs; {lon_name!r}/{lat_name!r} place the trees"
            ]
        lon, lat = _xy_lonlat(trees, site)
        # projected x/y: within a metre (1e-5 degrees) of latitude/longitude rounded from them
        k = disagreement(
            (lon, lat), (_numbers(trees["longitude"]), _numbers(trees["latitude"])), AGREE_DEG * (10 if crs else 1)
        )
        if k is not None:
            raise ValueError(
                f"{_row_name(trees, k)}: the columns {x_name!r}/{y_name!r} place the tree at longitude {lon[k]:g}, "
                f"latitude {lat[k]:g} and the columns {lon_name!r}/{lat_name!r} at longitude "
                f"{_numbers(trees['longitude'])[k]:g}, latitude {_numbers(trees['latitude'])[k]:g}: which is the "
                "tree's place? keep one pair "
                + (
                    keep_one
                    or f'(‹column_map="{x_name}=ignore"› and ‹column_map="{y_name}=ignore"›, or the same for the '
                    "other pair)"
                )
            )
        return [
            f"the columns {x_name!r}/{y_name!r} and {lon_name!r}/{lat_name!r} place every tree alike: "
            f"{lon_name!r}/{lat_name!r} read"
        ]
    if (site or {}).get("crs") or not xy_are_degrees(trees["x"], trees["y"]):
        return []
    hit = swapped_at(trees["x"], trees["y"]) if check_swap else None
    if hit is not None:
        k, zone = hit
        raise ValueError(
            swapped_message(
                _row_name(trees, k), _numbers(trees["x"])[k], _numbers(trees["y"])[k], zone, x_name, y_name, settle_swap
            )
        )
    return [XY_AS_WGS84]


def tree_lonlat(trees: pd.DataFrame, site: Mapping[str, Any] | None = None) -> pd.DataFrame | None:
    """``longitude_deg``/``latitude_deg`` of each tree (index as ``trees``), or None when there are no coordinates.

    ``latitude``/``longitude`` are used as given; else ``x``/``y`` with ``site['crs']``, or without it as WGS84
    longitude/latitude when they read as degrees (:func:`xy_are_degrees`; the reader says so, :data:`XY_AS_WGS84`).
    A tree whose coordinates are missing or out of range gets NaN (the caller says how many). Projected
    coordinates without a ``crs`` raise ``ValueError``: they cannot be placed without it (and one tree's x/y
    leaving the degrees every other tree's keep is named by its row and value).
    """
    if {"latitude", "longitude"} <= set(trees.columns):
        lat = _numbers(trees["latitude"])
        lon = _numbers(trees["longitude"])
    elif {"x", "y"} <= set(trees.columns):
        lon, lat = _xy_lonlat(trees, site)
    else:
        return None
    bad = ~(np.isfinite(lat) & np.isfinite(lon) & (np.abs(lat) <= 90) & (np.abs(lon) <= 180))
    lat, lon = np.where(bad, np.nan, lat), np.where(bad, np.nan, lon)
    return pd.DataFrame({"longitude_deg": lon, "latitude_deg": lat}, index=trees.index)


def local_metres(lon_deg: np.ndarray, lat_deg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """East and north metres from the points' mean (equirectangular on the mean Earth radius, 6,371,008.8 m).

    For drawing a site: over a lot the shape is right to well under 1 %; it is not a survey.
    """
    lon0, lat0 = float(np.nanmean(lon_deg)), float(np.nanmean(lat_deg))
    m_per_deg = 6_371_008.8 * np.pi / 180.0
    east = (np.asarray(lon_deg) - lon0) * m_per_deg * np.cos(np.radians(lat0))
    north = (np.asarray(lat_deg) - lat0) * m_per_deg
    return east, north


# -- the i-Tree Streets climate zone of a point, from the zones' published boundaries (treecalc.ingest.zone
# says the rest: a survey's zone, in words)

#: A tree this close (km) to another zone's polygon is reported with that zone.
NEAR_KM = 10.0
_R = 6378137.0  # EPSG:3857's sphere (WGS84 semi-major axis), metres
_MAX_LAT = 85.05112878  # EPSG:3857's edge: the latitude its square map ends at


def to_web_mercator(lat: np.ndarray, lon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """WGS84 degrees to EPSG:3857 metres (spherical Mercator, the boundaries' own coordinates)."""
    lat = np.clip(np.asarray(lat, float), -_MAX_LAT, _MAX_LAT)
    x = _R * np.radians(np.asarray(lon, float))
    y = _R * np.log(np.tan(np.pi / 4 + np.radians(lat) / 2))
    return x, y


@functools.cache
def _regions() -> tuple[tuple[str, ...], list, object]:
    import shapely  # start-up: only when needed, not by every assess (shapely)
    from shapely import wkt  # start-up: only when needed, not by every assess (shapely)

    path = data.data_file("species/zones/regions.csv", data.SPECIES_DIR.parent)
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 24))  # a zone's polygon is one WKT cell of ~200 kB
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    codes = tuple(r["zone"] for r in rows)
    geoms = [wkt.loads(r["wkt"]) for r in rows]
    for g in geoms:
        shapely.prepare(g)
    return codes, geoms, shapely.STRtree(geoms)


@dataclass(frozen=True)
class ZoneAt:
    """The zone of one point (``None``: outside every zone) and the other zones within :data:`NEAR_KM`
    (code -> distance in km, nearest first)."""

    zone: str | None
    near: dict[str, float] = field(default_factory=dict)


#: The side of a cell of :func:`_interior_cells` in degrees of latitude and longitude (~11 km by ~8 km at 42° N)
GRID_DEG = 0.1


#: A cell of :func:`_interior_cells` far from every zone
_NO_ZONE = -2


@dataclass(frozen=True)
class _Cells:
    """Cells of ``step`` degrees from (``lat0``, ``lon0``): ``zone[i, j]`` is the index of the one zone that holds
    every point of cell (i, j) with no zone boundary within the search radius of any of them, :data:`_NO_ZONE`
    where no zone holds them and none is within that radius, else -1 (the polygons decide)."""

    lat0: float
    lon0: float
    step: float
    zone: np.ndarray


@functools.cache
def _interior_cells(near_km: float = NEAR_KM, step: float = GRID_DEG) -> _Cells:
    """Which cells of the map lie inside one zone and farther than ``near_km`` from every boundary: a point in one
    is in that zone and near no other, as :func:`zones_at`'s polygon tests would find, with no test. Built once
    per boundaries file (kept in the tables' cache: :mod:`treecalc.reference.table_cache`)."""
    regions = data.data_file("species/zones/regions.csv", data.SPECIES_DIR.parent)
    name = f"zone_cells_{near_km:g}km_{step:g}deg"
    arrays, meta = cached_arrays(name, [Path(__file__), regions], lambda: _build_cells(near_km, step))
    return _Cells(meta["lat0"], meta["lon0"], meta["step"], arrays["zone"])


def _build_cells(near_km: float, step: float) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    import shapely  # start-up: only when needed, not by every assess (shapely)

    _, geoms, _ = _regions()
    xmin, ymin, xmax, ymax = shapely.total_bounds(geoms)
    lon0 = float(np.floor(np.degrees(xmin / _R) / step) * step)
    lat0 = float(np.floor(_lat_of(ymin) / step) * step)
    nx = int(np.ceil((np.degrees(xmax / _R) - lon0) / step)) + 1
    ny = int(np.ceil((_lat_of(ymax) - lat0) / step)) + 1
    lat_lo = lat0 + step * np.arange(ny)[:, None] + np.zeros(nx)
    lon_lo = lon0 + step * np.arange(nx)[None, :] + np.zeros((ny, 1))
    x0, y0 = to_web_mercator(lat_lo, lon_lo)
    x1, y1 = to_web_mercator(lat_lo + step, lon_lo + step)
    # every point of a cell is within half its diagonal of its centre, and its own search radius is at most the
    # radius at the cell's most poleward latitude (Mercator's 1/cos): a centre farther than their sum (with a
    # margin for rounding) from every boundary has, in every point of its cell, the zones of its centre and no
    # other zone within the radius
    poleward = np.maximum(np.abs(lat_lo), np.abs(lat_lo + step))
    on_map = poleward < _MAX_LAT - step
    reach = near_km * 1000.0 / np.cos(np.radians(np.where(on_map, poleward, 0.0)))
    reach = (reach + 0.5 * np.hypot(x1 - x0, y1 - y0)) * 1.001 + 1.0
    cx, cy = ((x0 + x1) / 2).ravel(), ((y0 + y1) / 2).ravel()
    segments: list[np.ndarray] = []
    for line in shapely.get_parts(shapely.boundary(np.asarray(geoms, dtype=object))):
        for part in shapely.get_parts(line):
            c = shapely.get_coordinates(part)
            segments.append(np.asarray(shapely.linestrings(np.stack([c[:-1], c[1:]], axis=1))))
    tree = shapely.STRtree(np.concatenate(segments))
    near_one = np.zeros(len(cx), dtype=bool)  # a boundary segment within the cell's reach of its centre
    near_one[tree.query(shapely.points(cx, cy), predicate="dwithin", distance=reach.ravel())[0]] = True
    holding = np.zeros(len(cx), dtype=np.intp)
    zone = np.full(len(cx), -1, dtype=np.int16)
    for k, g in enumerate(geoms):
        hit = shapely.intersects_xy(g, cx, cy)
        holding += hit
        zone[hit] = k
    zone[holding == 0] = _NO_ZONE  # far from every zone: in none, and near none
    zone[(holding > 1) | near_one | ~on_map.ravel()] = -1
    return {"zone": zone.reshape(ny, nx)}, {"lat0": lat0, "lon0": lon0, "step": step}


def _lat_of(y: float) -> float:
    return float(np.degrees(2.0 * np.arctan(np.exp(y / _R)) - np.pi / 2.0))


def _in_interior(cells: _Cells, lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
    """The zone index of each point whose cell is an interior one (:data:`_NO_ZONE` far from every zone), else -1."""
    i = np.floor((lat - cells.lat0) / cells.step).astype(np.intp)
    j = np.floor((lon - cells.lon0) / cells.step).astype(np.intp)
    ny, nx = cells.zone.shape
    ok = (i >= 0) & (i < ny) & (j >= 0) & (j < nx)
    out = np.full(len(lat), -1, dtype=np.intp)
    out[ok] = cells.zone[i[ok], j[ok]]
    return out


def wgs84_points(lat: object, lon: object) -> tuple[np.ndarray, np.ndarray]:
    """Latitudes and longitudes as float arrays of one shape; ValueError naming the first point that is no WGS84
    position (not finite, beyond ±90° or ±180°)."""
    lat_a, lon_a = np.atleast_1d(np.asarray(lat, float)), np.atleast_1d(np.asarray(lon, float))
    if lat_a.shape != lon_a.shape:
        raise ValueError("latitude and longitude must be given in pairs")
    bad = ~np.isfinite(lat_a) | ~np.isfinite(lon_a) | (np.abs(lat_a) > 90) | (np.abs(lon_a) > 180)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"point {i}: latitude {lat_a[i]:g}, longitude {lon_a[i]:g} is not a WGS84 position")
    return lat_a, lon_a


def zones_at(lat: object, lon: object, near_km: float = NEAR_KM) -> list[ZoneAt]:
    """The zone of each point (WGS84 degrees), in one bulk query of the boundaries.

    A point in a cell of the map that lies wholly inside one zone, far from every boundary (most trees of a
    state-wide inventory), takes that zone with no polygon test (:func:`_interior_cells`); the rest are tested
    against the polygons."""
    codes = _regions()[0]
    lat_a, lon_a = wgs84_points(lat, lon)
    if len(lat_a) < _CELLS_FROM:
        return _zones_by_polygons(lat_a, lon_a, near_km)
    inside = _in_interior(_interior_cells(near_km, GRID_DEG), lat_a, lon_a)
    out = [ZoneAt(codes[k] if k >= 0 else None) for k in inside.tolist()]
    rest = np.flatnonzero(inside == -1)
    if len(rest):
        for i, z in zip(rest.tolist(), _zones_by_polygons(lat_a[rest], lon_a[rest], near_km)):
            out[i] = z
    return out


#: From this many points on, the cells are read first (one tree's zone is found faster by its polygons than by
#: reading the cells from the cache)
_CELLS_FROM = 1000


def _zones_by_polygons(lat_a: np.ndarray, lon_a: np.ndarray, near_km: float) -> list[ZoneAt]:
    """:func:`zones_at` by the polygons themselves."""
    import shapely  # start-up: only when needed, not by every assess (shapely)

    codes, geoms, _ = _regions()
    x, y = to_web_mercator(lat_a, lon_a)
    # one vectorised test per zone over all the points, against the prepared polygons (16 calls, none per
    # point): 20-25 times faster than a tree query, whose candidates are the large zones' wide bounding boxes
    inside = np.full(len(x), -1, dtype=np.intp)
    for k, g in enumerate(geoms):
        inside[shapely.intersects_xy(g, x, y)] = k  # a point on two zones' edge takes the later, as the tree did
    points: np.ndarray = np.asarray(shapely.points(x, y))
    # Mercator stretches lengths by 1/cos(latitude): the search radius in its metres is wider by that factor. Past
    # its edge (85.05°, a pole) a point is clipped onto the map's top or bottom line and cos(latitude) goes to 0:
    # every zone came out "0 km" away. No zone reaches there, so such a point is near none.
    on_map = np.abs(lat_a) <= _MAX_LAT
    radius: Any = near_km * 1000.0 / np.cos(np.radians(np.where(on_map, lat_a, 0.0)))
    near: list[dict[str, float]] = [{} for _ in range(len(x))]
    for k, g in enumerate(geoms):
        hit = np.flatnonzero(shapely.dwithin(g, points, radius) & (inside != k) & on_map)
        if len(hit):
            km = _geodesic_km(g, points.take(hit), lat_a.take(hit), lon_a.take(hit))
            for p_i, d in zip(hit.tolist(), km.tolist()):
                if d <= near_km:
                    near[p_i][codes[k]] = round(d, 1)
    return [
        ZoneAt(codes[k] if k >= 0 else None, dict(sorted(n.items(), key=lambda kv: kv[1])))
        for k, n in zip(inside.tolist(), near)
    ]


def _geodesic_km(g: Any, points: np.ndarray, lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
    """The distance in km on the WGS84 ellipsoid (pyproj's ``Geod.inv``) from each point to the nearest point of
    the zone ``g`` (found on the Mercator map, the boundaries' own coordinates)."""
    import shapely  # start-up: only when needed, not by every assess (shapely)
    from pyproj import Geod  # start-up: only when needed, not by every assess (pyproj)

    ends = shapely.get_coordinates(shapely.shortest_line(g, points)).reshape(-1, 2, 2)[:, 0, :]
    on_lon = np.degrees(ends[:, 0] / _R)
    on_lat = np.degrees(2.0 * np.arctan(np.exp(ends[:, 1] / _R)) - np.pi / 2.0)
    _, _, metres = Geod(ellps="WGS84").inv(lon, lat, on_lon, on_lat)
    return np.asarray(metres, float) / 1000.0


def zone_at(lat: float, lon: float) -> ZoneAt:
    """:func:`zones_at` of one point."""
    return zones_at([lat], [lon])[0]
