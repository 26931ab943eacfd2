"""benefits-batch runs a small input in this process, without starting a cluster, and tells its progress."""

from __future__ import annotations

import pandas as pd
import pytest

import treecalc.studies.batch as batch
from treecalc.models.benefits import BenefitParams, compute_benefits
from treecalc.studies.batch import IN_PROCESS_ROWS, benefits_batch


def _inventory(n: int) -> pd.DataFrame:
    return pd.DataFrame(
        {"tree_id": range(n), "species": ["Acer rubrum", "Quercus rubra"] * (n // 2), "dbh_in": [12.0, 20.0] * (n // 2)}
    )


def test_a_small_input_runs_here_without_a_cluster_and_gives_the_single_process_figures(tmp_path, monkeypatch):
    src = tmp_path / "inventory.parquet"
    inv = _inventory(400)
    inv.to_parquet(src, row_group_size=100)
    monkeypatch.setattr(batch, "local_cluster", lambda *a, **k: pytest.fail("a cluster was started"))
    told: list[tuple[float, str]] = []
    r = benefits_batch(src, tmp_path / "out", rows_per_task=150, progress=lambda f, m: told.append((f, m)))
    assert r.trees == 400 and r.partitions == 4  # row groups of 100, tasks of at most 150 rows: one group each
    assert r.scheduler.startswith("this process (400 trees, under the in-process threshold")
    got = pd.read_parquet(tmp_path / "out").sort_values("tree_id")
    want = compute_benefits(inv, BenefitParams())
    assert got["usd_total_annual"].tolist() == pytest.approx(want["usd_total_annual"].tolist(), abs=1e-12)
    assert told[0] == (0.0, "valuing 400 trees in this process")
    assert [f for f, _ in told[1:]] == [0.25, 0.5, 0.75, 1.0]  # 100 trees of 400 per piece
    assert told[-1][1].startswith("400 of 400 trees valued, ") and told[-1][1].endswith(" trees/s")


def test_above_the_threshold_a_cluster_is_started(tmp_path, monkeypatch):
    src = tmp_path / "inventory.parquet"
    _inventory(10).to_parquet(src)

    class Started(Exception):
        pass

    def cluster(*a, **k):
        raise Started

    monkeypatch.setattr(batch, "local_cluster", cluster)
    with pytest.raises(Started):
        benefits_batch(src, tmp_path / "out", in_process_rows=9)
    assert IN_PROCESS_ROWS == 500_000  # the threshold docs/performance.md and --scheduler's help state
