"""Time ``compute_benefits`` on 1,000,000 trees spread over the 16 climate zones against 1,000,000
Northeast-only trees, side by side in one process.

Usage::

    python benchmarks/zones.py [--trees 1000000] [--repeat 5] [--seed 1]

The trees: species codes drawn uniformly from the catalogue, DBH uniform 1-60 in, land use drawn from the
land uses; the 16-zone set adds a ``zone`` column (categorical, as a Parquet or Arrow column of few values
reads) drawn uniformly from the zones. Three runs are interleaved ``--repeat`` times and the medians
reported: the Northeast path (no zone: data/species/ tables), the zones' path with every tree in the
Northeast, and the zones' path over all 16. Goal: the 16 zones at most 1.3 x the Northeast-only run.

Each run is timed twice: wall time, and the CPU time of the process (``time.process_time``). This machine's
two cores are shared with other sessions: under load the wall time also counts the time waiting for a core,
which swings from run to run, while the CPU time is the work done (numpy here is single-threaded). The load
average is printed before and after; compare the ratios of runs made side by side, as this script does.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pandas as pd

import treecalc
from treecalc.reference import data


def make_trees(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    codes = data.catalogue().index.to_numpy(object)
    return pd.DataFrame(
        {
            "species_code": codes[rng.integers(0, len(codes), n)],
            "dbh_in": rng.uniform(1.0, 60.0, n).round(1),
            "land_use": np.asarray(data.LAND_USES, dtype=object)[rng.integers(0, len(data.LAND_USES), n)],
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    trees = make_trees(a.trees, a.seed)
    zones = list(data.zones().index)
    rng = np.random.default_rng(a.seed + 1)
    spread = trees.assign(zone=pd.Categorical.from_codes(rng.integers(0, len(zones), len(trees)), categories=zones))
    northeast = trees.assign(zone=pd.Categorical.from_codes(np.zeros(len(trees), int), categories=["NoEastXXX"]))
    names = ("Northeast (no zone)", "zones' path, all Northeast", "16 zones")
    frames = dict(zip(names, (trees, northeast, spread)))
    wall: dict[str, list[float]] = {k: [] for k in names}
    cpu: dict[str, list[float]] = {k: [] for k in names}
    for f in frames.values():
        treecalc.compute_benefits(f.head(10))  # warm-up: tables, derived tables, disclosure tables
    load0 = os.getloadavg()
    for _ in range(a.repeat):
        for name, f in frames.items():
            t0, c0 = time.perf_counter(), time.process_time()
            treecalc.compute_benefits(f)
            wall[name].append(time.perf_counter() - t0)
            cpu[name].append(time.process_time() - c0)
    load1 = os.getloadavg()

    def median(v: list[float]) -> float:
        return sorted(v)[len(v) // 2]

    print(f"{a.trees:,} trees, {a.repeat} interleaved runs (wall / CPU seconds)")
    print(
        f"load average (1, 5, 15 min) before {', '.join(f'{x:.1f}' for x in load0)}; after "
        f"{', '.join(f'{x:.1f}' for x in load1)}; {os.cpu_count()} cores"
    )
    ratios = {}
    # the median, and the CPU time's minimum: another session's work only ever adds to a run's time
    for kind, runs, pick in (("wall", wall, median), ("CPU", cpu, median), ("CPU min", cpu, min)):
        base = pick(runs[names[0]])
        for k in names:
            v = pick(runs[k])
            print(f"  {kind:<7} {k:<28} {v:.3f} s  ({v / base:.2f} x the Northeast)")
        ratios[kind] = pick(runs["16 zones"]) / base
    for kind, r in ratios.items():
        print(
            f"goal: 16 zones <= 1.3 x the Northeast-only run ({kind}): {'met' if r <= 1.3 else 'NOT met'} ({r:.2f} x)"
        )


if __name__ == "__main__":
    main()
