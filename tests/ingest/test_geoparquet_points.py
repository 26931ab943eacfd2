"""GeoParquet's points read straight from their WKB bytes (treecalc.ingest.sources.geoparquet.arrow_latlon) are the
points shapely decodes, nulls and empty points as NaN; any other geometry, or another byte order, goes through
shapely, which names a tree that is not a point."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest
import shapely

from treecalc.ingest.sources.geoparquet import _wkb_points, arrow_latlon

GEO = json.dumps({"primary_column": "geometry", "columns": {"geometry": {"encoding": "WKB"}}})


def _table(wkb: list[bytes | None]) -> pa.Table:
    return pa.table({"geometry": pa.array(wkb, pa.binary())})


def test_plain_points_are_read_from_their_bytes_as_shapely_reads_them():
    rng = np.random.default_rng(5)
    x, y = rng.uniform(-180, 180, 1000), rng.uniform(-90, 90, 1000)
    wkb = list(shapely.to_wkb(shapely.points(x, y), byte_order=1))
    wkb[3] = None  # no geometry
    wkb[7] = shapely.to_wkb(shapely.Point(), byte_order=1)  # POINT EMPTY: NaN NaN, 21 bytes
    table = _table(wkb).slice(2)  # an Arrow slice: its offsets start inside the buffer
    fast = _wkb_points(table.column("geometry"))
    assert fast is not None
    lat, lon = arrow_latlon(table, GEO, "trees.parquet", first_row=2)
    want_x, want_y = x[2:].copy(), y[2:].copy()
    want_x[[1, 5]] = want_y[[1, 5]] = np.nan
    np.testing.assert_array_equal(lon, want_x)
    np.testing.assert_array_equal(lat, want_y)


def test_other_geometries_and_byte_orders_go_through_shapely():
    big = shapely.to_wkb(shapely.Point(-73.9, 41.2), byte_order=0)
    assert _wkb_points(_table([big]).column("geometry")) is None
    lat, lon = arrow_latlon(_table([big]), GEO, "trees.parquet")
    assert (lat[0], lon[0]) == (41.2, -73.9)
    line = shapely.to_wkb(shapely.LineString([(0, 0), (1, 1)]), byte_order=1)
    with pytest.raises(ValueError, match=r"row 11, column 'geometry': a LineString is not a tree's position"):
        arrow_latlon(_table([big, line]), GEO, "trees.parquet", first_row=10)
