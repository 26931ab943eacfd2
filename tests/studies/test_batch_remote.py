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


def _memory_figures(memory, folder: str) -> pd.DataFrame:
    files = sorted(memory.glob(f"{folder}/part.*.parquet"))
    return pd.concat([pd.read_parquet(memory.open(f, "rb")) for f in files]).sort_values("tree_id").set_index("tree_id")


def test_an_output_named_by_a_url_is_written_there_with_the_local_figures(tmp_path, memory, monkeypatch):
    src = tmp_path / "inventory.parquet"
    _inventory().to_parquet(src, index=False)
    monkeypatch.chdir(tmp_path)
    r = benefits_batch(src, "memory://inventory/out")
    assert r.out == "memory://inventory/out" and not (tmp_path / "memory:").exists()  # never a local folder
    got = _memory_figures(memory, "/inventory/out")
    # the Charlotte red maple in the South, $149.82; the Croton one in the Northeast, $127.11 (tests/studies/test_batch.py)
    assert got.loc[[1, 2], "usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12, NE_ACRU_12]
    benefits_batch(src, tmp_path / "local")
    want = pd.read_parquet(tmp_path / "local").sort_values("tree_id").set_index("tree_id")
    pd.testing.assert_frame_equal(
        got.astype({"zone": str, "zone_from": str}), want.astype({"zone": str, "zone_from": str})
    )
    assert memory.exists("/inventory/out/_treecalc_benefits_batch.json")


def test_a_rerun_to_a_url_deletes_only_its_own_partitions_and_refuses_a_folder_of_others(tmp_path, memory):
    inv = _inventory()
    src = tmp_path / "in"
    src.mkdir()
    for k in range(3):
        inv.iloc[[k]].to_parquet(src / f"part.{k}.parquet", index=False)
    benefits_batch(src, "memory://inventory/out")
    assert len(memory.glob("/inventory/out/part.*.parquet")) == 3
    (src / "part.2.parquet").unlink()  # a smaller rerun: the earlier run's third file is deleted
    benefits_batch(src, "memory://inventory/out")
    assert sorted(p.rsplit("/", 1)[-1] for p in memory.glob("/inventory/out/part.*.parquet")) == [
        "part.00000.parquet",
        "part.00001.parquet",
    ]
    memory.pipe_file("/inventory/other/notes.txt", b"mine")
    with pytest.raises(
        ValueError, match=r"memory://inventory/other holds files benefits-batch did not write: notes\.txt"
    ):
        benefits_batch(src, "memory://inventory/other")
    assert memory.cat_file("/inventory/other/notes.txt") == b"mine"
    memory.pipe_file("/inventory/afile", b"x")
    with pytest.raises(ValueError, match=r"the output memory://inventory/afile is a file, not a folder"):
        benefits_batch(src, "memory://inventory/afile")


@pytest.mark.parametrize(
    ("out", "rel"),
    [
        ("memory://inventory/in", "is"),
        ("memory://inventory/in/sub", "lies inside"),
        ("memory://inventory", "holds"),
    ],
)
def test_an_output_url_that_is_in_holds_or_is_the_input_url_is_refused_before_any_write(tmp_path, memory, out, rel):
    with memory.open("/inventory/in/part.0.parquet", "wb") as fh:
        _inventory().to_parquet(fh, index=False)
    before = sorted(memory.find("/inventory"))
    with pytest.raises(ValueError, match=rf"the output folder {out} {rel} the input memory://inventory/in"):
        benefits_batch("memory://inventory/in", out)
    assert sorted(memory.find("/inventory")) == before  # nothing written, nothing deleted


def test_an_output_url_the_workers_cannot_write_is_refused_before_any_tree_is_valued(tmp_path, memory, monkeypatch):
    import distributed

    import treecalc.studies.batch as batch

    src = tmp_path / "inventory.parquet"
    _inventory().to_parquet(src, index=False)
    valued: list[object] = []
    monkeypatch.setattr(batch, "_value_piece", lambda *a, **k: valued.append(a) or {})

    def cannot(folder: str) -> str:  # the workers (elsewhere) have no credentials for the store
        return f"Access Denied to {folder}"

    monkeypatch.setattr(batch, "_can_write", cannot)
    with (
        distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as c,
        distributed.Client(c) as cl,
    ):
        with pytest.raises(
            ValueError,
            match=r"memory://inventory/out: 1 of the 1 workers cannot write there .*Access Denied to memory://inventory/out\)",
        ):
            benefits_batch(src, "memory://inventory/out", client=cl)
    assert valued == []  # (the probe, run on each worker, was given the URL itself: the message says so)


def test_the_probe_writes_and_deletes_one_file_in_the_store(memory):
    from treecalc.studies.batch import _can_write

    assert _can_write("memory://inventory/probed") == ""
    assert memory.find("/inventory/probed") == []  # the probe is gone
    assert "cannot be opened" in _can_write("nosuchproto://bucket/out")


def test_file_urls_are_the_local_paths_they_name(tmp_path, monkeypatch):
    src = tmp_path / "inventory.parquet"
    _inventory().to_parquet(src, index=False)
    monkeypatch.chdir(tmp_path)
    r = benefits_batch(f"file://{src}", f"file://{tmp_path / 'out'}")
    assert r.trees == 3 and (tmp_path / "out" / "part.00000.parquet").is_file()
    assert not (tmp_path / "file:").exists()  # never a relative folder named after the scheme
