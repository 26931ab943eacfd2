"""TIN surface-to-surface volume: two surveys of 20,000 points each (goal: under 10 s on 2 cores).

Run: ``.venv/bin/python benchmarks/excavation_tin.py``. Prints the time and whether the goal was met.
"""

from __future__ import annotations

import time

import numpy as np

from treecalc.earthwork.tin import tin_volumes

GOAL_S = 10.0
N = 20_000


def main() -> None:
    rng = np.random.default_rng(7)
    e = rng.uniform(0, 1000, (N, 2))
    p = rng.uniform(0, 1000, (N, 2))
    existing = np.column_stack([e, 100 + 0.01 * e[:, 0] + np.sin(e[:, 1] / 50)])
    proposed = np.column_stack([p, 101 + 0.005 * p[:, 1]])
    t = time.perf_counter()
    r = tin_volumes(existing, proposed)
    dt = time.perf_counter() - t
    print(
        f"{N:,} + {N:,} points: cut {r.cut_cy:,.1f} cu yd, fill {r.fill_cy:,.1f} cu yd in {dt:.2f} s "
        f"(goal < {GOAL_S:g} s: {'met' if dt < GOAL_S else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
