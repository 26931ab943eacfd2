"""``benefits-batch`` throughput in one process (the default) and on 1 and 2 local workers, each worker's CPU per
tree, and its peak memory.

Usage::

    python benchmarks/batch.py [--trees 20000000] [--partitions 20] [--folder /tmp/treecalc-batch]
                               [--setups 0x0,1x1,2x1,2x1,1x1,0x0]

Set-up ``0x0`` is the command's default: no cluster, the run in one process (here a fresh child process, so its
CPU and peak memory are its own), streamed by row group.

Writes ``--trees`` trees (species codes, DBH, land use, one of the 16 zones each) as ``--partitions``
Parquet files, then runs :func:`treecalc.studies.batch.benefits_batch` on a LocalCluster of each set-up (worker
processes x threads, in the order given: by default A B B A, so a load that rises or falls favours neither)
and prints, per run and then per set-up, the figures docs/performance.md "Beyond one machine" quotes:

- trees per second (wall clock, from the first task to the last) and the scaling of 2 workers over 1;
- each worker's CPU seconds per million trees (user + system, from its own ``resource.getrusage``) and its
  start-up CPU (process, imports and tables, before its first partition);
- how long each worker's task thread ran on a core and how long it was runnable but waiting for one
  (``/proc/<pid>/task/<id>/schedstat``, the kernel's run-queue delay): on a machine shared with other work, the wall time a second worker
  does not save is this wait, not work of its own;
- each worker's peak resident memory, the output's size on disk, and the load average around each run.

Goal: scaling >= 1.7 x, peak <= 2 GB per worker. The CPU per million trees is the figure the load does not
move much: the same for 1 and 2 workers means the workers do not contend with each other, and the wall-clock
scaling is then what the machine's free cores allow.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from treecalc.models.benefits import BenefitParams
from treecalc.reference import data
from treecalc.studies.batch import _warm, benefits_batch, local_cluster


def _usage() -> dict[str, float]:
    """A worker's peak resident memory (MB) and CPU seconds (user + system) so far, and its task threads' time
    on a core and time runnable but waiting for one (s; the kernel's ``/proc/self/task/<id>/schedstat``)."""
    import threading

    r = resource.getrusage(resource.RUSAGE_SELF)
    ran = wait = 0.0
    for t in threading.enumerate():
        if "Dask-Default-Threads" not in t.name:  # the threads that run the tasks, not the event loop's
            continue
        try:
            on_cpu, queued = (Path(f"/proc/self/task/{t.native_id}/schedstat").read_text().split() + ["0", "0"])[:2]
            ran, wait = ran + int(on_cpu) / 1e9, wait + int(queued) / 1e9
        except (OSError, ValueError):  # no schedstat (not Linux): no figure
            pass
    return {"rss_mb": r.ru_maxrss / 1024.0, "cpu": r.ru_utime + r.ru_stime, "ran": ran, "wait": wait}


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def write_input(src: Path, trees: int, partitions: int) -> None:
    """``trees`` random trees over the 16 zones (Northeast species codes) in ``partitions`` Parquet files."""
    src.mkdir(parents=True)
    rng = np.random.default_rng(1)
    cat = data.catalogue()
    codes = cat.index[cat["northeast"].to_numpy(bool)].to_numpy(object)
    zones = np.asarray(data.zones().index, dtype=object)
    uses = np.asarray(data.LAND_USES, dtype=object)
    per = trees // partitions
    for k in range(partitions):
        pd.DataFrame(
            {
                "tree_id": np.arange(k * per, (k + 1) * per),
                "species_code": codes[rng.integers(0, len(codes), per)],
                "dbh_in": rng.uniform(1.0, 60.0, per).round(1),
                "land_use": uses[rng.integers(0, len(uses), per)],
                "zone": zones[rng.integers(0, len(zones), per)],
            }
        ).to_parquet(src / f"part-{k:03d}.parquet", index=False)


def run(src: Path, out: Path, workers: int, threads: int) -> dict[str, Any]:
    """One run of ``benefits_batch`` on a fresh LocalCluster of ``workers`` x ``threads``: its figures."""
    from distributed import Client

    cluster = local_cluster(workers, threads)  # the cluster the command starts
    client = Client(cluster)
    try:
        client.run(_warm, BenefitParams())  # start-up apart: the run's own _warm finds the tables loaded
        start = client.run(_usage)
        load0 = _load()
        r = benefits_batch(src, out, client=client)
        load1 = _load()
        end = client.run(_usage)
    finally:
        client.close()
        cluster.close()
    cpu = {w: end[w]["cpu"] - start[w]["cpu"] for w in end}
    return {
        "trees": r.trees,
        "seconds": r.seconds,
        "rate": r.trees_per_second,
        "cpu": sum(cpu.values()),
        "cpu_per_m": sum(cpu.values()) / r.trees * 1e6,
        "startup": [start[w]["cpu"] for w in start],
        "wait": [end[w]["wait"] - start[w]["wait"] for w in end],
        "ran": [end[w]["ran"] - start[w]["ran"] for w in end],
        "worker_cpu": list(cpu.values()),
        "rss_mb": max(v["rss_mb"] for v in end.values()),
        "out_mb": sum(p.stat().st_size for p in out.glob("part.*.parquet")) / 1e6,
        "load": (load0, load1),
    }


def run_here(src: Path, out: Path) -> dict[str, Any]:
    """One run of ``benefits_batch`` with no cluster (the default), in a fresh child process: its figures."""
    import json
    import subprocess
    import sys

    code = (
        "import json, resource, sys\n"
        "from treecalc.models.benefits import BenefitParams\n"
        "from treecalc.studies.batch import _warm, benefits_batch\n"
        "_warm(BenefitParams())\n"
        "u = resource.getrusage(resource.RUSAGE_SELF); c0 = u.ru_utime + u.ru_stime\n"
        "r = benefits_batch(sys.argv[1], sys.argv[2])\n"
        "u = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(json.dumps({'trees': r.trees, 'seconds': r.seconds, 'rate': r.trees_per_second,\n"
        "  'cpu': u.ru_utime + u.ru_stime - c0, 'startup': c0, 'rss_mb': u.ru_maxrss / 1024}))\n"
    )
    load0 = _load()
    done = subprocess.run([sys.executable, "-c", code, str(src), str(out)], capture_output=True, text=True, check=True)
    load1 = _load()
    f = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        **f,
        "cpu_per_m": f["cpu"] / f["trees"] * 1e6,
        "startup": [f["startup"]],
        "wait": [0.0],
        "ran": [f["cpu"]],
        "worker_cpu": [f["cpu"]],
        "out_mb": sum(p.stat().st_size for p in out.glob("part.*.parquet")) / 1e6,
        "load": (load0, load1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=20_000_000)
    ap.add_argument("--partitions", type=int, default=20)
    ap.add_argument("--folder", type=Path, default=Path("/tmp/treecalc-batch"))
    ap.add_argument(
        "--setups",
        default="0x0,1x1,2x1,2x1,1x1,0x0",
        help="worker processes x threads per run, in order (0x0: one process, no cluster)",
    )
    a = ap.parse_args()
    src = a.folder / "in"
    shutil.rmtree(a.folder, ignore_errors=True)
    write_input(src, a.trees, a.partitions)
    in_mb = sum(p.stat().st_size for p in src.glob("*.parquet")) / 1e6
    print(
        f"{a.trees:,} trees in {a.partitions} Parquet partitions of {a.trees // a.partitions:,} ({in_mb:,.0f} MB); "
        f"{os.cpu_count()} cores; load average (1, 5, 15 min) {_load()}",
        flush=True,
    )
    runs: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for setup in a.setups.split(","):
        workers, threads = (int(x) for x in setup.split("x"))
        out = a.folder / f"out-{setup}"
        f = run_here(src, out) if workers == 0 else run(src, out, workers, threads)
        runs.setdefault((workers, threads), []).append(f)
        print(
            f"{workers} worker(s) x {threads} thread(s): {f['trees']:,} trees in {f['seconds']:.2f} s = "
            f"{f['rate']:,.0f} trees/s; CPU {f['cpu']:.1f} s = {f['cpu_per_m']:.2f} CPU s per million trees "
            f"(per worker {', '.join(f'{c:.1f}' for c in f['worker_cpu'])} s; its task thread on a core "
            f"{', '.join(f'{x:.1f}' for x in f['ran'])} s, runnable but waiting for one "
            f"{', '.join(f'{w:.1f}' for w in f['wait'])} s); start-up per worker "
            f"{', '.join(f'{s:.1f}' for s in f['startup'])} CPU s; peak memory per worker {f['rss_mb']:,.0f} MB; "
            f"output {f['out_mb']:,.0f} MB; load average before {f['load'][0]}, after {f['load'][1]}",
            flush=True,
        )
    print("\nper set-up (mean of its runs):")
    print("| set-up | trees/s | CPU s per million trees | waiting for a core, s per worker | peak MB per worker |")
    print("|---|---|---|---|---|")
    mean: dict[tuple[int, int], float] = {}
    for (workers, threads), fs in runs.items():
        mean[workers, threads] = statistics.mean(f["rate"] for f in fs)
        print(
            f"| {workers} x {threads} | {mean[workers, threads]:,.0f} | "
            f"{statistics.mean(f['cpu_per_m'] for f in fs):.2f} | "
            f"{statistics.mean(statistics.mean(f['wait']) for f in fs):.1f} | "
            f"{max(f['rss_mb'] for f in fs):,.0f} |"
        )
    if (0, 0) in mean and (2, 1) in mean:
        cpu = {k: statistics.mean(f["cpu_per_m"] for f in runs[k]) for k in ((0, 0), (2, 1))}
        print(
            f"one process vs 2 workers: {mean[0, 0]:,.0f} vs {mean[2, 1]:,.0f} trees/s; "
            f"{cpu[0, 0]:.2f} vs {cpu[2, 1]:.2f} CPU s per million trees"
        )
    if (1, 1) in mean and (2, 1) in mean:
        print(f"scaling 1 -> 2 worker processes: {mean[2, 1] / mean[1, 1]:.2f} x of the mean rates (goal >= 1.7 x)")
    if (1, 1) in mean and (1, 2) in mean:
        print(f"scaling 1 -> 2 threads in one worker: {mean[1, 2] / mean[1, 1]:.2f} x of the mean rates")
    print(f"load average at the end (1, 5, 15 min): {_load()}; this machine is shared: read the figures with it")


if __name__ == "__main__":
    main()
