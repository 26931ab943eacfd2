"""The cheapest lawful plan (``treecalc.studies.plan``) of 40 and 100 optional removals, timed.

Usage::

    python benchmarks/plan.py [--sizes 40 100] [--repeat 3] [--classes]

Goal: exact for 40 and 100 optional trees, 40 in at most 10 s. A lot of mixed species, sizes and conditions
(some dead ash, street trees and trees on a slope over 20%, two required removals) per size; each plan in
this process (the tables loaded once by a first plan), wall and CPU time, medians of ``--repeat`` runs, and the
assessments it made. ``--classes`` also runs the search over the sets closed under dominance within classes
(the method before, now the fallback) on a 40-tree lot it can still finish (three classes, 560 assessments),
interleaved with the new method, and says whether the costs agree. The machine's load is printed with the
figures: on a shared machine the times are an upper bound. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

SITE = {"subdividable": False, "has_residence": True, "site_plan_required": False, "prior_removals_12mo": 0}
SPECIES = ["Acer rubrum", "Quercus rubra", "Acer saccharum", "Tilia americana", "Ailanthus altissima", "Betula lenta"]


def mixed_lot(path: Path, optional: int, seed: int = 1) -> None:
    rnd = random.Random(seed)
    rows = ["Tag,Species,DBH (in),Action,Condition,Must remove,Street tree,Slope over 20%"]
    for i in range(optional + 2):
        dead = rnd.random() < 0.1
        sp = "Fraxinus americana" if dead else rnd.choice(SPECIES)
        cond = "Dead" if dead else rnd.choice(["Good", "Fair", "Poor", "Excellent"])
        street, slope = rnd.choice(["", "", "", "Yes"]), rnd.choice(["", "", "", "Yes"])
        rows.append(f"T{i},{sp},{rnd.randint(4, 30)},Remove,{cond},{'Yes' if i < 2 else ''},{street},{slope}")
    path.write_text("\n".join(rows) + "\n")


def classes_lot(path: Path) -> None:
    """40 optional trees the search over classes still finishes: 35 x 4 x 4 = 560 assessments."""
    rows = ["Tag,Species,DBH (in),Action,Condition,Must remove,Slope over 20%", "M1,Quercus rubra,20,Remove,Good,Yes,"]
    rows += [f"A{i},Acer rubrum,{d},Remove,Good,," for i, d in enumerate([*range(5, 34), 10, 12, 14, 16, 18])]
    rows += [f"S{i},Acer rubrum,{6 + 5 * i},Remove,Good,,Yes" for i in range(3)]
    rows += [f"D{i},Fraxinus americana,{10 + 4 * i},Remove,Dead,," for i in range(3)]
    path.write_text("\n".join(rows) + "\n")


def _timed(fn):  # type: ignore[no-untyped-def]
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[40, 100])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--classes", action="store_true", help="also the search over classes on a 40-tree lot")
    a = ap.parse_args()
    from treecalc.ingest import read_survey
    from treecalc.studies import plan_regimes
    from treecalc.studies.plan import MAX_ASSESSMENTS_CEILING, plan

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm.csv"
        mixed_lot(warm, 4)
        plan(read_survey(warm), site=SITE)  # the tables and the law loaded once, as in a session
        for n in a.sizes:
            f = Path(tmp) / f"lot{n}.csv"
            mixed_lot(f, n)
            survey = read_survey(f)
            walls, cpus, runs = [], [], 0
            for _ in range(a.repeat):
                p, wall, cpu = _timed(lambda s=survey: plan(s, site=SITE))
                walls.append(wall)
                cpus.append(cpu)
                runs = p.assessments
            fast = any("one cheapest candidate" in x for x in p.notes)
            print(
                f"{n} optional: {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s CPU "
                f"(median of {a.repeat}), {runs} assessments, {statistics.median(walls) / runs * 1000:.0f} ms each; "
                f"method: {'one candidate per k' if fast else 'search over classes'}"
            )
        if a.classes:
            f = Path(tmp) / "classes40.csv"
            classes_lot(f)
            survey = read_survey(f)
            search = plan_regimes.search
            times: dict[str, list[float]] = {"new": [], "classes": []}
            costs: dict[str, list[float]] = {}
            for _ in range(a.repeat):
                for name in ("new", "classes"):
                    if name == "classes":
                        plan_regimes.search = lambda *x, **k: None  # type: ignore[assignment]
                    try:
                        p, wall, _ = _timed(lambda: plan(survey, site=SITE, max_assessments=MAX_ASSESSMENTS_CEILING))
                    finally:
                        plan_regimes.search = search  # type: ignore[assignment]
                    times[name].append(wall)
                    costs[name] = [s.cost_usd for s in p.frontier]
            new, old = statistics.median(times["new"]), statistics.median(times["classes"])
            print(
                f"40 optional in 3 classes: one candidate per k {new:.2f} s, search over classes {old:.2f} s "
                f"({old / new:.1f}x); costs equal for every k: {costs['new'] == costs['classes']}"
            )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
