"""GeoParquet's points: each tree's latitude/longitude from the primary geometry column its ``geo`` metadata
names (WKB points, reprojected from the column's CRS), and that metadata as a partition of the file carries it.

References
----------
GeoParquet specification 1.1.0: https://geoparquet.org/releases/v1.1.0/
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["geometry_latlon", "without_bbox"]


def _geo_meta(geo: str, file: str) -> tuple[str, Any]:
    """The primary geometry column of GeoParquet ``geo`` metadata and its CRS (a pyproj CRS; OGC:CRS84, the
    specification's default, when the metadata names none); a column not encoded as WKB is refused naming it."""
    from pyproj import CRS

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
    import shapely
    from pyproj import Transformer

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


def without_bbox(geo: str) -> str:
    """GeoParquet metadata without the file's bounding boxes: a partition's points lie within a part of it."""
    meta = json.loads(geo)
    for spec in (meta.get("columns") or {}).values():
        if isinstance(spec, dict):
            spec.pop("bbox", None)
    return json.dumps(meta)
