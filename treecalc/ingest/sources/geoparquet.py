"""GeoParquet's points: each tree's latitude/longitude from the primary geometry column its ``geo`` metadata
names (WKB points, reprojected from the column's CRS), and that metadata as a partition of the file carries it.

References
----------
GeoParquet specification 1.1.0: https://geoparquet.org/releases/v1.1.0/
"""

from __future__ import annotations

import functools
import json
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

__all__ = ["arrow_latlon", "geometry_latlon", "primary_column", "without_bbox"]


@functools.lru_cache(maxsize=32)  # parsed once per file, not per batch of its rows (pyproj's CRS: ~0.1 s)
def _geo_meta(geo: str, file: str) -> tuple[str, Any]:
    """The primary geometry column of GeoParquet ``geo`` metadata and its CRS (a pyproj CRS; OGC:CRS84, the
    specification's default, when the metadata names none); a column not encoded as WKB is refused naming it."""
    from pyproj import CRS  # heavy: pyproj, loaded only when this runs

    try:
        meta = json.loads(geo)
        column = str(meta["primary_column"])
        spec = meta["columns"][column]
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{file}: GeoParquet metadata 'geo' is not readable ({type(e).__name__}: {e})") from None
    if str(spec.get("encoding", "WKB")).upper() != "WKB":
        raise ValueError(
            f"{file}: geometry column {column!r} is encoded as {spec.get('encoding')!r}; write it as WKB "
            "(geopandas to_parquet's default)"
        )
    if "crs" in spec and spec["crs"] is None:
        raise ValueError(
            f"{file}: geometry column {column!r} has no coordinate system (crs: null): its trees cannot be placed"
        )
    crs = CRS.from_user_input(spec["crs"]) if spec.get("crs") is not None else CRS.from_user_input("OGC:CRS84")
    return column, crs


def geometry_latlon(frame: pd.DataFrame, geo: str, file: str) -> tuple[np.ndarray, np.ndarray]:
    """Each tree's latitude and longitude (WGS84 degrees; NaN without a point) from the GeoParquet geometry column
    the ``geo`` metadata names, reprojected from its CRS; a tree that is not a point is an error naming its row."""
    import shapely  # heavy: shapely, loaded only when this runs
    from pyproj import Transformer  # heavy: pyproj, loaded only when this runs

    column, crs = _geo_meta(geo, file)
    geoms = shapely.from_wkb(frame[column].to_numpy(dtype=object), on_invalid="raise")
    kinds = shapely.get_type_id(geoms)
    bad = (kinds != 0) & (kinds != -1) & ~shapely.is_empty(geoms)  # 0: Point, -1: no geometry
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"row {int(frame.index[first])}, column {column!r}: a {geoms[first].geom_type} is not a tree's position "
            f"({int(bad.sum()):,} such rows); give a point per tree"
        )
    x, y = shapely.get_x(geoms), shapely.get_y(geoms)  # NaN for a missing or empty point
    if crs.equals("OGC:CRS84", ignore_axis_order=True):  # WGS84 longitude/latitude already (most GeoParquet)
        return np.asarray(y, dtype=float), np.asarray(x, dtype=float)
    lon, lat = Transformer.from_crs(crs, "EPSG:4326", always_xy=True).transform(x, y)
    return np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)


def primary_column(geo: str, file: str) -> str:
    """The primary geometry column the GeoParquet ``geo`` metadata names (refused as :func:`geometry_latlon` does)."""
    return _geo_meta(geo, file)[0]


#: A little-endian WKB 2D point: byte order 1, type 1 (uint32), x and y (float64): 21 bytes.
_WKB_POINT_LE = 21


def _wkb_points(column: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """x and y of an Arrow binary column whose every value is a little-endian 2D WKB point (NaN where null), read
    from its buffers with no geometry object per tree; None when any value is something else (the caller decodes
    those through shapely, which names what is wrong)."""
    arr = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if not (pa.types.is_binary(arr.type) or pa.types.is_large_binary(arr.type)):
        return None
    n = len(arr)
    _, off_buf, data_buf = arr.buffers()
    if off_buf is None or data_buf is None:
        return None
    width = np.int64 if pa.types.is_large_binary(arr.type) else np.int32
    offsets = np.frombuffer(off_buf, dtype=width)[arr.offset : arr.offset + n + 1].astype(np.int64)
    valid = ~np.asarray(arr.is_null().to_numpy(zero_copy_only=False), dtype=bool)
    starts = offsets[:-1][valid]
    if not (np.diff(offsets)[valid] == _WKB_POINT_LE).all():
        return None
    data = np.frombuffer(data_buf, dtype=np.uint8)
    head = data[starts[:, None] + np.arange(5)]
    if not ((head[:, 0] == 1) & (head[:, 1] == 1) & (head[:, 2:] == 0).all(axis=1)).all():
        return None
    xy = data[starts[:, None] + 5 + np.arange(16)].copy().view("<f8").reshape(-1, 2)
    x, y = np.full(n, np.nan), np.full(n, np.nan)
    x[valid], y[valid] = xy[:, 0], xy[:, 1]
    return x, y


def arrow_latlon(table: Any, geo: str, file: str, first_row: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """:func:`geometry_latlon` of an Arrow table (rows numbered from ``first_row``): the points read straight from
    the WKB bytes when every one is a plain 2D point (geopandas writes them so), else decoded by shapely, which
    names a tree that is not a point. Half a million trees' points are read in milliseconds, not the second that
    a geometry object per tree cost."""
    from pyproj import Transformer  # heavy: pyproj, loaded only when this runs

    column, crs = _geo_meta(geo, file)
    fast = _wkb_points(table.column(column))
    if fast is None:
        frame = pd.DataFrame({column: table.column(column).to_numpy(zero_copy_only=False)})
        frame.index = pd.RangeIndex(first_row, first_row + len(frame))
        return geometry_latlon(frame, geo, file)
    x, y = fast
    if crs.equals("OGC:CRS84", ignore_axis_order=True):
        return y, x
    lon, lat = Transformer.from_crs(crs, "EPSG:4326", always_xy=True).transform(x, y)
    return np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)


def without_bbox(geo: str) -> str:
    """GeoParquet metadata without the file's bounding boxes: a partition's points lie within a part of it."""
    meta = json.loads(geo)
    for spec in (meta.get("columns") or {}).values():
        if isinstance(spec, dict):
            spec.pop("bbox", None)
    return json.dumps(meta)
