"""Time finding the climate zone (and the zones within 10 km) of 100,000 points.

Usage::

    python benchmarks/zone_finding.py [--points 100000] [--seed 1]

The points are uniform over the contiguous United States (24-49 N, 125-66 W), so about 60 % lie in a zone
and the rest in the sea, Canada or Mexico. Timed side by side: :func:`treecalc.ingest.zone.zones_at`
(one vectorised ``intersects_xy`` and ``dwithin`` per zone over all points, against the prepared polygons)
and the bulk ``STRtree`` query it replaced (``query(points, predicate="intersects")`` and
``predicate="dwithin"``), wall and CPU seconds, with the load average (this machine's 2 cores are shared).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def _tree_query(lat: np.ndarray, lon: np.ndarray) -> tuple[np.ndarray, int]:
    """The previous method: the zone of each point and the near pairs, by two bulk tree queries."""
    import shapely

    from treecalc.ingest import zone as climate_zones

    _, _, tree = climate_zones._regions()
    x, y = climate_zones.to_web_mercator(lat, lon)
    points = shapely.points(x, y)
    inside = np.full(len(points), -1, dtype=np.intp)
    pt, g = tree.query(points, predicate="intersects")  # type: ignore[attr-defined]
    inside[pt] = g
    radius = 10_000.0 / np.cos(np.radians(lat))
    pt2, g2 = tree.query(points, predicate="dwithin", distance=radius)  # type: ignore[attr-defined]
    return inside, int((g2 != inside[pt2]).sum())


def main() -> None:
    from treecalc.ingest import zone as climate_zones

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    lat, lon = rng.uniform(24, 49, a.points), rng.uniform(-125, -66, a.points)
    climate_zones._regions()  # the polygons are read once per process, before either run
    load0 = os.getloadavg()
    t0, c0 = time.perf_counter(), time.process_time()
    hits = climate_zones.zones_at(lat, lon)
    new = (time.perf_counter() - t0, time.process_time() - c0)
    t0, c0 = time.perf_counter(), time.process_time()
    inside, n_near = _tree_query(lat, lon)
    old = (time.perf_counter() - t0, time.process_time() - c0)
    load1 = os.getloadavg()
    same = all((h.zone or None) == (climate_zones._regions()[0][k] if k >= 0 else None) for h, k in zip(hits, inside))
    print(
        f"{a.points:,} points; {sum(h.zone is not None for h in hits):,} in a zone, {sum(len(h.near) for h in hits):,} "
        f"near another zone (tree: {n_near:,}); the same zones: {same}"
    )
    print(f"load average before {', '.join(f'{v:.1f}' for v in load0)}, after {', '.join(f'{v:.1f}' for v in load1)}")
    print(f"  zones_at (per-zone vectorised tests)  {new[0]:.2f} s wall, {new[1]:.2f} s CPU")
    print(f"  STRtree bulk queries (before)         {old[0]:.2f} s wall, {old[1]:.2f} s CPU")
    print(f"  {old[1] / new[1]:.1f} x less CPU")


if __name__ == "__main__":
    main()
