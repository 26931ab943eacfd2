"""Time ``compute_benefits`` on 1,000,000 trees against a per-tree Python loop.

Usage::

    python benchmarks/benefits.py [--trees 1000000] [--loop 100000] [--seed 1]

The trees: species drawn uniformly from the catalogue (by scientific name, so
resolution is part of the work), DBH uniform 1-60 in, land use drawn from the
six land uses. The loop calls ``treecalc.models.benefits`` (one tree at a time) on
the first ``--loop`` trees of the same set; both are timed in one run, after
one warm-up call that loads the tables. The vectorised call runs
``--repeat`` times and the median is reported (the first run also pays the
operating system's first touch of ~200 MB of fresh memory).

Goal (issue 2): at most 1.0 s for the million on the project's 2-core
machine, and at least 50x the per-tree loop (per tree). Goal (issue 12): the
million with species codes given (no name resolution) in at most 0.15 s,
printed beside the peer reference, OpenTreeMap's Go ecobenefits engine: 0.46-
0.57 s for 1,000,000 trees on this machine (measured by an earlier session,
not re-run here). This is also the single-partition cost of a county- or
state-wide run (docs/performance.md, "Beyond one machine").
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import treecalc
from treecalc.reference import data


def make_trees(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    cat = data.catalogue()
    names = cat["scientific_name"].to_numpy()
    return pd.DataFrame(
        {
            "species": names[rng.integers(0, len(names), n)],
            "dbh_in": rng.uniform(1.0, 60.0, n).round(1),
            "land_use": np.asarray(data.LAND_USES, dtype=object)[rng.integers(0, len(data.LAND_USES), n)],
        }
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=1_000_000)
    ap.add_argument("--loop", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="vectorised runs; the median is reported")
    a = ap.parse_args()
    trees = make_trees(a.trees, a.seed)
    treecalc.compute_benefits(trees.head(10))  # warm-up: tables and resolver index

    runs = []
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        out = treecalc.compute_benefits(trees)
        runs.append(time.perf_counter() - t0)
    t_vec = sorted(runs)[len(runs) // 2]  # the median run

    by_code = trees.assign(
        species_code=data.catalogue().set_index("scientific_name")["code"].reindex(trees["species"]).to_numpy()
    ).drop(columns="species")
    treecalc.compute_benefits(by_code.head(10))
    code_runs, code_cpu = [], []
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        treecalc.compute_benefits(by_code)
        code_runs.append(time.perf_counter() - t0)
        code_cpu.append(time.process_time() - c0)
    t_code = sorted(code_runs)[len(code_runs) // 2]
    cpu_code = sorted(code_cpu)[len(code_cpu) // 2]

    sub = trees.head(a.loop)
    t0 = time.perf_counter()
    total = 0.0
    for s, d, lu in zip(sub["species"], sub["dbh_in"], sub["land_use"]):
        # the same work as compute_benefits: annual benefits only, no appraisal or growth
        total += treecalc.benefits(s, d, land_use=lu, valuations=False)["dollars"]["total_annual"]
    t_loop = time.perf_counter() - t0

    check = float(out["usd_total_annual"].head(a.loop).sum())
    per_vec = t_vec / a.trees
    per_loop = t_loop / a.loop
    print(
        f"compute_benefits: {a.trees:,} trees in {t_vec:.3f} s, median of {a.repeat} "
        f"(first {runs[0]:.3f} s) ({per_vec * 1e9:,.0f} ns/tree)"
        f"  goal <= 1.0 s: {'met' if t_vec <= 1.0 else 'NOT met'}"
    )
    print(
        f"species codes given: {a.trees:,} trees in {t_code:.3f} s wall, {cpu_code:.3f} s CPU, "
        f"median of {a.repeat}  "
        f"goal <= 0.15 s: {'met' if t_code <= 0.15 else 'NOT met'}  "
        f"(peer: OpenTreeMap Go engine 0.46-0.57 s for 1,000,000 on this machine)"
    )
    print(f"per-tree loop:    {a.loop:,} trees in {t_loop:.3f} s ({per_loop * 1e6:,.1f} us/tree)")
    ratio = per_loop / per_vec
    print(f"per-tree ratio:   {ratio:,.0f}x  goal >= 50x: {'met' if ratio >= 50 else 'NOT met'}")
    print(f"consistency: loop total {total:,.2f} vs vectorised {check:,.2f} USD/yr")


if __name__ == "__main__":
    main()
