"""Survey coordinates to WGS84 longitude/latitude (for the tree map).

A survey gives either ``latitude``/``longitude`` (WGS84 degrees) or projected ``x``/``y`` with the
site fact ``crs`` (e.g. ``"EPSG:2263"``, NAD83 / New York Long Island, US survey feet).

References
----------
PROJ contributors (2024). PROJ coordinate transformation software library. https://proj.org
pyproj: https://pyproj4.github.io/pyproj/
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike


def to_wgs84(x: ArrayLike, y: ArrayLike, crs: str) -> tuple[np.ndarray, np.ndarray]:
    """Projected ``x``, ``y`` in ``crs`` to WGS84 (longitude_deg, latitude_deg); axis order x=east, y=north.

    Raises ``ValueError`` naming the CRS when pyproj does not know it.
    """
    from pyproj import CRS, Transformer
    from pyproj.exceptions import CRSError

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


def xy_are_degrees(x: ArrayLike, y: ArrayLike) -> bool:
    """Whether x/y given without a crs read as WGS84 longitude/latitude, as a Survey123 or QGIS export writes them
    (POINT_X -73.89, POINT_Y 41.21): some value given, every x within ±180 and every y within ±90, and at least one
    with a decimal (whole numbers alone are as likely a local grid)."""
    xs = pd.to_numeric(pd.Series(np.asarray(x, dtype=object)), errors="coerce").to_numpy(float)
    ys = pd.to_numeric(pd.Series(np.asarray(y, dtype=object)), errors="coerce").to_numpy(float)
    given = np.isfinite(xs) & np.isfinite(ys)
    if not given.any():
        return False
    xs, ys = xs[given], ys[given]
    if (np.abs(xs) > 180).any() or (np.abs(ys) > 90).any():
        return False
    return bool(((xs % 1) != 0).any() or ((ys % 1) != 0).any())


def xy_reading(trees: pd.DataFrame, site: Mapping[str, Any] | None = None) -> list[str]:
    """What the survey reader says of the trees' x/y: :data:`XY_AS_WGS84` when :func:`tree_lonlat` reads them as
    WGS84 degrees (no latitude/longitude, no crs), else nothing."""
    cols = set(trees.columns)
    if {"latitude", "longitude"} <= cols or not {"x", "y"} <= cols or (site or {}).get("crs"):
        return []
    return [XY_AS_WGS84] if xy_are_degrees(trees["x"], trees["y"]) else []


def tree_lonlat(trees: pd.DataFrame, site: Mapping[str, Any] | None = None) -> pd.DataFrame | None:
    """``longitude_deg``/``latitude_deg`` of each tree (index as ``trees``), or None when there are no coordinates.

    ``latitude``/``longitude`` are used as given; else ``x``/``y`` with ``site['crs']``, or without it as WGS84
    longitude/latitude when they read as degrees (:func:`xy_are_degrees`; the reader says so, :data:`XY_AS_WGS84`).
    A tree whose coordinates are missing or out of range gets NaN (the caller says how many). Projected
    coordinates without a ``crs`` raise ``ValueError``: they cannot be placed without it.
    """
    if {"latitude", "longitude"} <= set(trees.columns):
        lat = pd.to_numeric(trees["latitude"], errors="coerce").to_numpy(float)
        lon = pd.to_numeric(trees["longitude"], errors="coerce").to_numpy(float)
    elif {"x", "y"} <= set(trees.columns):
        crs = (site or {}).get("crs")
        if not crs and xy_are_degrees(trees["x"], trees["y"]):
            lon = pd.to_numeric(trees["x"], errors="coerce").to_numpy(float)
            lat = pd.to_numeric(trees["y"], errors="coerce").to_numpy(float)
        elif not crs:
            raise ValueError(
                "the survey has x/y coordinates but no site fact crs (e.g. crs = EPSG:2263): "
                "give it in the Site sheet or the site facts to place the trees (x/y in WGS84 degrees, every x "
                "within ±180 and y within ±90 with decimals, are read as longitude/latitude without it)"
            )
        else:
            lon, lat = to_wgs84(
                pd.to_numeric(trees["x"], errors="coerce"), pd.to_numeric(trees["y"], errors="coerce"), str(crs)
            )
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
