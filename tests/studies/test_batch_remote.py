"""benefits-batch takes an input named by a URL through fsspec (here its memory file system, never the internet):
the same figures as the same files read from a local folder."""

from __future__ import annotations

import fsspec
import geopandas as gpd
import pandas as pd
import pytest
from shapely.geometry import Point

from tests.studies.test_batch import CHARLOTTE, CROTON, NE_ACRU_12, PIEDMONT_ACRU_12
from treecalc.cli import main
from treecalc.studies.batch import benefits_batch


@pytest.fixture
def memory():
    fs = fsspec.filesystem("memory")  # one per process: emptied before and after each test
    if fs.exists("/inventory"):
        fs.rm("/inventory", recursive=True)
    yield fs
    if fs.exists("/inventory"):
        fs.rm("/inventory", recursive=True)


def _inventory() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "tree_id": [1, 2, 3],
            "species": ["Acer rubrum", "Acer rubrum", "Quercus rubra"],
            "dbh_in": [12.0, 12.0, 20.0],
            "latitude": [CHARLOTTE[0], CROTON[0], CROTON[0]],
            "longitude": [CHARLOTTE[1], CROTON[1], CROTON[1]],
        }
    )


@pytest.mark.parametrize("kind", ["parquet", "csv"])
def test_a_folder_in_an_fsspec_file_system_gives_the_local_figures(tmp_path, memory, kind):
    inv = _inventory()
    for k, part in enumerate((inv.iloc[:2], inv.iloc[2:])):  # two partitions
        with memory.open(f"/inventory/part.{k}.{kind}", "wb") as fh:
            part.to_parquet(fh, index=False) if kind == "parquet" else fh.write(part.to_csv(index=False).encode())
    r = benefits_batch("memory://inventory", tmp_path / "out")
    got = pd.read_parquet(tmp_path / "out").sort_values("tree_id").set_index("tree_id")
    # the Charlotte red maple in the South, $149.82; the Croton one in the Northeast, $127.11 (tests/studies/test_batch.py)
    assert got.loc[1, "zone"] == "PiedmtCLT" and got.loc[2, "zone"] == "NoEastXXX"
    assert got.loc[[1, 2], "usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12, NE_ACRU_12]
    local = tmp_path / "local"
    local.mkdir()
    for k, part in enumerate((inv.iloc[:2], inv.iloc[2:])):
        part.to_parquet(local / f"part.{k}.parquet", index=False)
    benefits_batch(local, tmp_path / "out-local")
    want = pd.read_parquet(tmp_path / "out-local").sort_values("tree_id").set_index("tree_id")
    pd.testing.assert_series_equal(got["usd_total_annual"], want["usd_total_annual"])
    assert (r.trees, r.partitions) == (3, 2)


def test_a_geoparquet_file_by_url_is_placed_by_its_points(tmp_path, memory):
    g = gpd.GeoDataFrame(
        {"tree_id": [1], "species": ["Acer rubrum"], "dbh_in": [12.0]},
        geometry=[Point(CHARLOTTE[1], CHARLOTTE[0])],
        crs=4326,
    )
    with memory.open("/inventory/trees.parquet", "wb") as fh:
        g.to_parquet(fh)
    benefits_batch("memory://inventory/trees.parquet", tmp_path / "out")
    got = gpd.read_parquet(tmp_path / "out")
    assert got["zone"].astype(str).tolist() == ["PiedmtCLT"] and got.crs.equals(4326)
    assert got["usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12]


def test_a_url_that_is_not_there_or_not_openable_is_named(tmp_path, memory, capsys):
    assert main(["benefits-batch", "memory://inventory/none.parquet", "--out", str(tmp_path / "o")]) == 2
    assert "memory://inventory/none.parquet: no such file or folder" in capsys.readouterr().err
    assert main(["benefits-batch", "nosuchproto://bucket/x.parquet", "--out", str(tmp_path / "o")]) == 2
    assert "nosuchproto://bucket/x.parquet: cannot be opened" in capsys.readouterr().err


def test_an_output_named_by_a_url_is_refused_not_written_to_a_local_folder_of_that_name(tmp_path, monkeypatch, capsys):
    src = tmp_path / "inventory.parquet"
    _inventory().to_parquet(src, index=False)
    monkeypatch.chdir(tmp_path)
    assert main(["benefits-batch", str(src), "--out", "s3://bucket/benefits"]) == 2
    assert "the output s3://bucket/benefits: the output is a folder of a file system" in capsys.readouterr().err
    assert not (tmp_path / "s3:").exists()
