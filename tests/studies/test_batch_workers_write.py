"""benefits-batch checks that the workers can write the output folder before any tree is valued."""

from __future__ import annotations

import time

import pandas as pd
import pytest

import treecalc.studies.batch as batch
from treecalc.studies.batch import benefits_batch


@pytest.fixture(scope="module")
def cluster_client():
    import distributed

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_a_folder_the_workers_cannot_write_is_refused_before_any_tree_is_valued(tmp_path, cluster_client, monkeypatch):
    src = tmp_path / "inventory.parquet"
    pd.DataFrame({"tree_id": range(10), "species": ["Acer rubrum"] * 10, "dbh_in": [12.0] * 10}).to_parquet(src)
    valued = []
    monkeypatch.setattr(batch, "_value_piece", lambda *a, **k: valued.append(a) or {})
    # the workers (on other machines, as a remote scheduler's are) see a read-only mount where the client writes
    monkeypatch.setattr(batch, "_can_write", lambda folder: "Read-only file system")
    t0 = time.monotonic()
    with pytest.raises(
        ValueError, match=r"the output folder .*out: 2 of the 2 workers cannot write there \(.*Read-only file system"
    ):
        benefits_batch(src, tmp_path / "out", client=cluster_client)
    assert time.monotonic() - t0 < 10 and valued == []
    assert not list((tmp_path / "out").glob("part.*.parquet"))


def test_a_worker_says_why_it_cannot_write(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert batch._can_write(str(blocker / "out")) != ""  # a folder under a file cannot be made
    assert batch._can_write(str(tmp_path / "out")) == "" and (tmp_path / "out").is_dir()
