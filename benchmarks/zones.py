"""Time ``compute_benefits`` on 1,000,000 trees spread over the 16 climate zones against 1,000,000
Northeast-only trees, side by side in one process.

Usage::

    python benchmarks/zones.py [--trees 1000000] [--repeat 5] [--seed 1]

The trees: species codes drawn uniformly from the catalogue, DBH uniform 1-60 in, land use drawn from the
land uses; the 16-zone set adds a ``zone`` column (categorical, as a Parquet or Arrow column of few values
reads) drawn uniformly from the zones. Three runs are interleaved ``--repeat`` times and the medians
reported: the Northeast path (no zone: data/species/ tables), the zones' path with every tree in the
Northeast, and the zones' path over all 16. Goal: the 16 zones at most 1.3 x the Northeast-only run.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import treecalc
from treecalc import data


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
    runs: dict[str, list[float]] = {"Northeast (no zone)": [], "zones' path, all Northeast": [], "16 zones": []}
    frames = dict(zip(runs, (trees, northeast, spread)))
    for f in frames.values():
        treecalc.compute_benefits(f.head(10))  # warm-up: tables, derived tables, disclosure tables
    for _ in range(a.repeat):
        for name, f in frames.items():
            t0 = time.perf_counter()
            treecalc.compute_benefits(f)
            runs[name].append(time.perf_counter() - t0)
    med = {k: sorted(v)[len(v) // 2] for k, v in runs.items()}
    base = med["Northeast (no zone)"]
    print(f"{a.trees:,} trees, median of {a.repeat} interleaved runs:")
    for k, v in med.items():
        print(f"  {k:<28} {v:.3f} s  ({v / base:.2f} x the Northeast)")
    ratio = med["16 zones"] / base
    print(f"goal: 16 zones <= 1.3 x the Northeast-only run: {'met' if ratio <= 1.3 else 'NOT met'} ({ratio:.2f} x)")


if __name__ == "__main__":
    main()
