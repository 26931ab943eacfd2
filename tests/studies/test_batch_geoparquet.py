"""benefits-batch reads GeoParquet: each tree placed in its zone by its point (reprojected from the file's CRS),
the geometry and its ``geo`` metadata kept in the output, which geopandas reads back."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
from shapely.geometry import LineString, Point

from tests.studies.test_batch import CHARLOTTE, CROTON, NE_ACRU_12, PIEDMONT_ACRU_12
from treecalc.studies.batch import benefits_batch


@pytest.fixture(scope="module")
def cluster_client():
    import distributed

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def _geoparquet(path, crs: int = 4326) -> gpd.GeoDataFrame:
    """A Charlotte tree, a Croton-on-Hudson tree and a tree without a point, in ``crs`` (no lat/lon columns)."""
    g = gpd.GeoDataFrame(
        {"tree_id": [1, 2, 3], "species": ["Acer rubrum"] * 3, "dbh_in": [12.0] * 3},
        geometry=[Point(CHARLOTTE[1], CHARLOTTE[0]), Point(CROTON[1], CROTON[0]), None],
        crs=4326,
    ).to_crs(crs)
    g.to_parquet(path)
    return g


@pytest.mark.parametrize("crs", [4326, 3857])  # WGS84, and Web Mercator metres (the points reprojected back)
def test_each_tree_is_valued_in_the_zone_its_point_lies_in_and_the_geometry_is_kept(tmp_path, cluster_client, crs):
    src = tmp_path / "inventory.parquet"
    written = _geoparquet(src, crs)
    r = benefits_batch(src, tmp_path / "out", client=cluster_client)
    # the Charlotte tree in the South (PiedmtCLT, $149.82 for a 12 in red maple), the Croton tree in the Northeast
    # ($127.11): tests/studies/test_batch.py works both out from the zones' tables; the third has no point
    got = gpd.read_parquet(tmp_path / "out").sort_values("tree_id").set_index("tree_id")
    assert got["zone"].astype(str).tolist() == ["PiedmtCLT", "NoEastXXX", "NoEastXXX"]
    assert got["usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12, NE_ACRU_12, NE_ACRU_12]
    assert got["zone_from"].astype(str).tolist() == ["coordinates", "coordinates", "default: coordinates blank"]
    assert (r.trees, r.defaulted) == (3, 1)
    # geopandas reads the output as a GeoDataFrame in the input's CRS, the points unchanged
    assert isinstance(got, gpd.GeoDataFrame) and got.crs.equals(crs)
    assert got.geometry.iloc[2] is None
    for i in (0, 1):
        assert got.geometry.iloc[i].equals_exact(written.geometry.iloc[i], 1e-9)


def test_a_line_for_a_tree_is_refused_naming_its_row(tmp_path):
    src = tmp_path / "inventory.parquet"
    gpd.GeoDataFrame(
        {"tree_id": [1, 2], "species": ["Acer rubrum"] * 2, "dbh_in": [12.0] * 2},
        geometry=[Point(CROTON[1], CROTON[0]), LineString([(0, 0), (1, 1)])],
        crs=4326,
    ).to_parquet(src)
    with pytest.raises(ValueError, match=r"row 1, column 'geometry': a LineString is not a tree's position"):
        benefits_batch(src, tmp_path / "out")


def test_plain_parquet_with_a_geometry_named_column_is_not_geoparquet(tmp_path, cluster_client):
    src = tmp_path / "inventory.parquet"
    pd.DataFrame({"tree_id": [1], "species": ["Acer rubrum"], "dbh_in": [12.0], "geometry": ["n/a"]}).to_parquet(src)
    r = benefits_batch(src, tmp_path / "out", client=cluster_client)
    assert r.zone_from == {"default: no coordinates": 1}
    assert np.isclose(pd.read_parquet(tmp_path / "out")["usd_total_annual"].round(2).iloc[0], NE_ACRU_12)


def test_the_note_says_the_zones_came_from_the_geometry(tmp_path):
    # a GeoParquet without latitude/longitude columns: the trees were placed by their points, and the note says so
    src = tmp_path / "inventory.parquet"
    _geoparquet(src)
    r = benefits_batch(src, tmp_path / "out")
    said = [n for n in r.notes if "found from" in n]
    assert said == ["2 trees' zones found from their points in the column 'geometry' (WGS84 degrees)"], r.notes
