"""``benefits-batch`` throughput on 1 and 2 local workers, and each worker's peak memory.

Usage::

    python benchmarks/batch.py [--trees 4000000] [--partitions 8] [--folder /tmp/treecalc-batch]
                               [--setups 1x1,2x1,1x2,1x2,2x1,1x1]

Writes ``--trees`` trees (species codes, DBH, land use, one of the 16 zones each) as ``--partitions``
Parquet files, then runs :func:`treecalc.batch.benefits_batch` on a LocalCluster of 1 worker process, of
2 worker processes (one thread each) and of 1 process with 2 threads, and prints trees per second, the
scaling, the workers' CPU seconds and peak resident memory (from the workers' own ``resource.getrusage``),
and the machine's load average around each run. Goal: scaling >= 1.7 x, peak <= 2 GB per worker.

Each worker reads its own partitions from the files and writes its own output file; nothing but a row
count returns. The scaling can only show on cores that are free: on a machine whose load average is above
its core count, a second worker competes with the other work for the same cores, and the figure measures
the machine. The load is printed so the figure can be read with it, and the workers' trees per CPU second:
that figure is the workers' own cost, which a second worker would raise if it lost to contention inside the
workers.

What was ruled out (2 December 2026): thread oversubscription. Dask's nanny starts each worker process with
OMP_NUM_THREADS, MKL_NUM_THREADS and OPENBLAS_NUM_THREADS at 1, and Arrow sizes its CPU pool from
OMP_NUM_THREADS: each worker reads and writes Parquet on one thread (``pyarrow.cpu_count()`` is 1 there).
Where the CPU goes, one 500,000-tree partition in one process: Parquet read 0.05-0.1 s, valuation 0.2 s,
Arrow conversion 0.06 s, Parquet write 0.6 s, half of it dictionary-encoding the float columns
(``use_dictionary`` for the categorical columns alone: 0.29 s, the file 48 MB instead of 30 MB). Each worker
also pays once for its imports (0.7 s), the tables (0.8 s) and the first partition's disclosure texts (0.4 s).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from treecalc import data
from treecalc.batch import benefits_batch


def _usage() -> tuple[float, float]:
    """A worker's peak resident memory (MB) and CPU seconds (user + system) so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_maxrss / 1024.0, r.ru_utime + r.ru_stime


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=4_000_000)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--folder", type=Path, default=Path("/tmp/treecalc-batch"))
    ap.add_argument(
        "--setups",
        default="1x1,2x1,1x2,1x2,2x1,1x1",
        help="worker processes x threads per run, in order (default each twice, A B C C B A)",
    )
    a = ap.parse_args()
    from distributed import Client, LocalCluster

    src = a.folder / "in"
    shutil.rmtree(a.folder, ignore_errors=True)
    src.mkdir(parents=True)
    rng = np.random.default_rng(1)
    cat = data.catalogue()
    codes = cat.index[cat["northeast"].to_numpy(bool)].to_numpy(
        object
    )  # the trees of the earlier runs: Northeast codes
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
    rates: dict[tuple[int, int], list[float]] = {}
    print(f"{a.trees:,} trees in {a.partitions} Parquet partitions; {os.cpu_count()} cores")
    # each set-up twice, in the order A B C C B A, so a load that rises or falls favours none
    setups = [tuple(int(x) for x in s.split("x")) for s in a.setups.split(",")]
    for workers, threads in setups:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=threads, processes=True, dashboard_address=None)
        client = Client(cluster)
        try:
            before = client.run(_usage)
            load0 = _load()
            r = benefits_batch(src, a.folder / f"out-{workers}x{threads}", client=client)
            load1 = _load()
            after = client.run(_usage)
        finally:
            client.close()
            cluster.close()
        rates.setdefault((workers, threads), []).append(r.trees_per_second)
        cpu = sum(after[w][1] - before[w][1] for w in after)
        print(
            f"{workers} worker(s) x {threads} thread(s): {r.trees:,} trees in {r.seconds:.2f} s = "
            f"{r.trees_per_second:,.0f} trees/s; workers' CPU {cpu:.1f} s ({r.trees / cpu:,.0f} trees per CPU s); "
            f"peak memory per worker {max(v[0] for v in after.values()):,.0f} MB; load average (1, 5, 15 min) "
            f"before {load0}, after {load1}"
        )
    mean = {k: sum(v) / len(v) for k, v in rates.items()}
    if (1, 1) in mean and (2, 1) in mean:
        print(f"scaling 1 -> 2 worker processes: {mean[2, 1] / mean[1, 1]:.2f} x of the mean rates (goal >= 1.7 x)")
    if (1, 1) in mean and (1, 2) in mean:
        print(f"scaling 1 -> 2 threads in one worker: {mean[1, 2] / mean[1, 1]:.2f} x of the mean rates")


if __name__ == "__main__":
    main()
