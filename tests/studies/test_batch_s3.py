"""benefits-batch reads from and writes to S3 through fsspec (s3fs), here a local moto S3 server on 127.0.0.1 (never
the internet): the figures of the same trees read and written locally, and a bucket this process cannot write
refused before any tree is valued."""

from __future__ import annotations

import urllib.request

import pandas as pd
import pytest
from moto import server as moto_server

from tests.studies.test_batch import CHARLOTTE, CROTON, NE_ACRU_12, PIEDMONT_ACRU_12
from treecalc.studies.batch import benefits_batch


@pytest.fixture
def s3(monkeypatch):
    """A moto S3 server on a free local port, fsspec's s3 file system pointed at it with dummy credentials."""
    import fsspec
    import s3fs

    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{server._server.server_port}"
    for k, v in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setitem(fsspec.config.conf, "s3", {"client_kwargs": {"endpoint_url": endpoint}})
    urllib.request.urlopen(
        urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST")
    )  # moto's state is per process
    s3fs.S3FileSystem.clear_instance_cache()
    fs = fsspec.filesystem("s3")
    fs.mkdir("trees")  # a bucket
    yield fs
    s3fs.S3FileSystem.clear_instance_cache()
    server.stop()


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


def test_an_inventory_in_s3_is_valued_into_s3_with_the_local_figures(tmp_path, s3):
    with s3.open("trees/in/part.0.parquet", "wb") as fh:
        _inventory().to_parquet(fh, index=False)
    r = benefits_batch("s3://trees/in", "s3://trees/out")
    assert (r.trees, r.out) == (3, "s3://trees/out")
    assert sorted(p.rsplit("/", 1)[-1] for p in s3.ls("trees/out")) == [
        "_treecalc_benefits_batch.json",
        "part.00000.parquet",
    ]
    got = pd.read_parquet(s3.open("trees/out/part.00000.parquet", "rb")).set_index("tree_id")
    # the Charlotte red maple in the South, $149.82; the Croton one in the Northeast, $127.11 (tests/studies/test_batch.py)
    assert got.loc[[1, 2], "usd_total_annual"].round(2).tolist() == [PIEDMONT_ACRU_12, NE_ACRU_12]
    _inventory().to_parquet(tmp_path / "in.parquet", index=False)
    benefits_batch(tmp_path / "in.parquet", tmp_path / "out")
    want = pd.read_parquet(tmp_path / "out").set_index("tree_id")
    pd.testing.assert_series_equal(got["usd_total_annual"], want["usd_total_annual"])
    with pytest.raises(ValueError, match=r"the output folder s3://trees/in/sub lies inside the input s3://trees/in"):
        benefits_batch("s3://trees/in", "s3://trees/in/sub")


def test_a_bucket_that_is_not_there_is_refused_before_any_tree_is_valued(tmp_path, s3, monkeypatch):
    import treecalc.studies.batch as batch

    _inventory().to_parquet(tmp_path / "in.parquet", index=False)
    valued: list[object] = []
    monkeypatch.setattr(batch, "_value_piece", lambda *a, **k: valued.append(a) or {})
    with pytest.raises(ValueError, match=r"the output s3://no-such-bucket/out: cannot be (read|written)"):
        benefits_batch(tmp_path / "in.parquet", "s3://no-such-bucket/out")
    assert valued == []
    assert "no-such-bucket" not in [b.rstrip("/") for b in s3.ls("")]  # (not created either)
