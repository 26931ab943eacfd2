"""benefits-batch runs in this process by default, without starting a cluster, streamed in bounded batches, and tells its
progress; a cluster only when asked for (--workers, --scheduler)."""

from __future__ import annotations

import pandas as pd
import pytest

import treecalc.studies.batch as batch
from treecalc.models.benefits import BenefitParams, compute_benefits
from treecalc.studies.batch import benefits_batch


def _inventory(n: int) -> pd.DataFrame:
    return pd.DataFrame(
        {"tree_id": range(n), "species": ["Acer rubrum", "Quercus rubra"] * (n // 2), "dbh_in": [12.0, 20.0] * (n // 2)}
    )


def test_an_input_runs_here_without_a_cluster_and_gives_the_single_process_figures(tmp_path, monkeypatch):
    src = tmp_path / "inventory.parquet"
    inv = _inventory(400)
    inv.to_parquet(src, row_group_size=100)
    monkeypatch.setattr(batch, "local_cluster", lambda *a, **k: pytest.fail("a cluster was started"))
    told: list[tuple[float, str]] = []
    r = benefits_batch(src, tmp_path / "out", rows_per_task=150, progress=lambda f, m: told.append((f, m)))
    assert r.trees == 400 and r.partitions == 4  # row groups of 100, tasks of at most 150 rows: one group each
    assert r.scheduler.startswith("this process (400 trees; no cluster")
    got = pd.read_parquet(tmp_path / "out").sort_values("tree_id")
    want = compute_benefits(inv, BenefitParams())
    assert got["usd_total_annual"].tolist() == pytest.approx(want["usd_total_annual"].tolist(), abs=1e-12)
    assert told[0] == (0.0, "valuing 400 trees in this process")
    assert [f for f, _ in told[1:]] == [0.25, 0.5, 0.75, 1.0]  # 100 trees of 400 per piece
    assert told[-1][1].startswith("400 of 400 trees valued, ") and told[-1][1].endswith(" trees/s")


def test_a_large_input_runs_here_too_and_a_cluster_only_when_workers_are_asked_for(tmp_path, monkeypatch):
    src = tmp_path / "inventory.parquet"
    _inventory(10).to_parquet(src)

    class Started(Exception):
        pass

    def cluster(*a, **k):
        raise Started

    monkeypatch.setattr(batch, "local_cluster", cluster)
    # one piece of ten rows streamed three rows at a time (a piece of many millions is read in such batches): the
    # output is one file of four row groups, the figures those of one call
    monkeypatch.setattr(batch, "STREAM_ROWS", 3)
    monkeypatch.setattr(batch._value_piece, "__defaults__", (None, 3))
    r = benefits_batch(src, tmp_path / "out")
    assert r.trees == 10 and r.partitions == 1
    import pyarrow.parquet as pq

    assert pq.ParquetFile(tmp_path / "out" / "part.00000.parquet").metadata.num_row_groups == 4  # 3 + 3 + 3 + 1
    got = pd.read_parquet(tmp_path / "out")
    want = compute_benefits(_inventory(10), BenefitParams())
    assert got["usd_total_annual"].tolist() == pytest.approx(want["usd_total_annual"].tolist(), abs=1e-12)
    with pytest.raises(Started):
        benefits_batch(src, tmp_path / "out2", workers=1)
