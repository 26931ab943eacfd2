"""``benefits-batch`` throughput on 1 and 2 local workers, and each worker's peak memory.

Usage::

    python benchmarks/batch.py [--trees 4000000] [--partitions 8] [--folder /tmp/treecalc-batch]

Writes ``--trees`` trees (species codes, DBH, land use, one of the 16 zones each) as ``--partitions``
Parquet files, then runs :func:`treecalc.batch.benefits_batch` on a LocalCluster of 1 and of 2 worker
processes (one thread each) and prints trees per second, the scaling, and the workers' peak resident
memory (from the workers' own ``resource.getrusage``). Goal: scaling >= 1.7 x, peak <= 2 GB per worker.
"""

from __future__ import annotations

import argparse
import resource
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from treecalc import data
from treecalc.batch import benefits_batch


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=4_000_000)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--folder", type=Path, default=Path("/tmp/treecalc-batch"))
    a = ap.parse_args()
    from distributed import Client, LocalCluster

    src = a.folder / "in"
    shutil.rmtree(a.folder, ignore_errors=True)
    src.mkdir(parents=True)
    rng = np.random.default_rng(1)
    codes = data.catalogue().index.to_numpy(object)
    zones = np.asarray(data.zones().index, dtype=object)
    per = a.trees // a.partitions
    for k in range(a.partitions):
        pd.DataFrame(
            {
                "tree_id": np.arange(k * per, (k + 1) * per),
                "species_code": codes[rng.integers(0, len(codes), per)],
                "dbh_in": rng.uniform(1.0, 60.0, per).round(1),
                "land_use": np.asarray(data.LAND_USES, dtype=object)[rng.integers(0, len(data.LAND_USES), per)],
                "zone": zones[rng.integers(0, len(zones), per)],
            }
        ).to_parquet(src / f"part-{k:03d}.parquet", index=False)
    rates = {}
    for workers in (1, 2):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        try:
            r = benefits_batch(src, a.folder / f"out-{workers}", client=client)
            peaks = client.run(_peak_mb)
        finally:
            client.close()
            cluster.close()
        rates[workers] = r.trees_per_second
        print(
            f"{workers} worker(s): {r.trees:,} trees in {r.seconds:.2f} s = {r.trees_per_second:,.0f} trees/s; "
            f"peak memory per worker {max(peaks.values()):,.0f} MB"
        )
    print(f"scaling 1 -> 2 workers: {rates[2] / rates[1]:.2f} x (goal >= 1.7 x)")


if __name__ == "__main__":
    main()
