"""Time ``treecalc.earthwork.grid.grid_volumes`` on a 1,000 x 1,000 node grid.

Usage::

    python benchmarks/excavation_grid.py [--nodes 1000] [--repeat 5] [--seed 1] [--points]

The surfaces: an existing terrain of smooth random relief (elevations in feet around 100 ft)
and a proposed grade that differs by a normal random depth (sd 2 ft), so most cells change
between cut and fill and take the split-cell formula (the worst case). Spacing 5 ft. The 2-D
arrays go straight to ``grid_volumes``; with ``--points`` the grid is also timed from 1-D
x, y, existing, proposed columns in shuffled order (the CSV / DataFrame path, which sorts the
nodes back onto the grid). The median of ``--repeat`` runs is printed, in seconds.

Goal (issue 5): well under one second for 1,000 x 1,000 nodes.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from treecalc.earthwork.grid import grid_volumes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=1000, help="nodes along each axis (default 1000)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--points", action="store_true", help="also time the 1-D points path")
    a = ap.parse_args()

    n = a.nodes
    rng = np.random.default_rng(a.seed)
    x = np.arange(n) * 5.0
    relief = np.cumsum(rng.normal(0, 0.2, (n, n)), axis=0) + np.cumsum(rng.normal(0, 0.2, (n, n)), axis=1)
    existing = 100.0 + relief
    proposed = existing + rng.normal(0, 2.0, (n, n))

    grid_volumes(x[:3], x[:3], existing[:3, :3], proposed[:3, :3])  # warm-up
    times = []
    for _ in range(a.repeat):
        t = time.perf_counter()
        r = grid_volumes(x, x, existing, proposed)
        times.append(time.perf_counter() - t)
    print(
        f"grid_volumes, {n} x {n} nodes ({(n - 1) ** 2:,} cells, {r.mixed_cells:,} changing sign): "
        f"median {statistics.median(times):.3f} s over {a.repeat} runs (min {min(times):.3f} s)"
    )
    print(f"  cut {r.cut_cy:,.1f} cu yd, fill {r.fill_cy:,.1f} cu yd, net {r.net_cy:,.1f} cu yd")

    if a.points:
        xx, yy = np.meshgrid(x, x)
        order = rng.permutation(n * n)
        cols = [c.ravel()[order] for c in (xx, yy, existing, proposed)]
        times = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            r2 = grid_volumes(*cols)
            times.append(time.perf_counter() - t)
        assert abs(r2.cut_cy - r.cut_cy) <= 1e-6 * r.cut_cy
        print(f"grid_volumes from {n * n:,} shuffled points: median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
