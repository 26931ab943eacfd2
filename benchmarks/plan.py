"""The cheapest lawful plan (``treecalc.studies.plan``) of 40 and 100 optional removals, timed.

Usage::

    python benchmarks/plan.py [--sizes 40 100] [--repeat 3] [--classes] [--brute 8]

Goal: exact for 40 and 100 optional trees, 40 in at most 10 s. Two lots per size, of mixed species, sizes and
conditions (some dead ash, street trees and trees on a slope over 20%, two required removals): a permit
application, and the same lot with two trees harmed already (one removed, one topped: offences, §208-22F,
penalties). Each plan in this process (the tables loaded once by a first plan), the lots interleaved within each
of ``--repeat`` rounds; wall and CPU time (medians) and the assessments made. ``--classes`` also runs the search
over the sets closed under dominance within classes (the method before, now the fallback) on a 40-tree lot it can
still finish (three classes, 560 assessments), interleaved with the new method, and says whether the costs
agree. ``--brute N`` holds the plan of an N-tree lot with harm done to brute force over its 2^N subsets (each
assessed) and says whether every k's cost is the least. The machine's load is printed with the figures: on a
shared machine the times are an upper bound. Printed, never asserted.
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


def mixed_lot(path: Path, optional: int, seed: int = 1, harmed: bool = False) -> None:
    rnd = random.Random(seed)
    rows = ["Tag,Species,DBH (in),Action,Condition,Must remove,Street tree,Slope over 20%"]
    for i in range(optional + 2):
        dead = rnd.random() < 0.1
        sp = "Fraxinus americana" if dead else rnd.choice(SPECIES)
        cond = "Dead" if dead else rnd.choice(["Good", "Fair", "Poor", "Excellent"])
        street, slope = rnd.choice(["", "", "", "Yes"]), rnd.choice(["", "", "", "Yes"])
        rows.append(f"T{i},{sp},{rnd.randint(4, 30)},Remove,{cond},{'Yes' if i < 2 else ''},{street},{slope}")
    if harmed:  # done already: the 16 in oak removed, the 22 in maple topped
        rows += ["H1,Quercus rubra,16,Removed,Good,,,", "H2,Acer saccharum,22,Topped,Good,,,"]
    path.write_text("\n".join(rows) + "\n")


def brute(survey, options):  # type: ignore[no-untyped-def]
    """The least cost of each k over every subset of the optional trees, each assessed in full."""
    import copy
    import itertools

    import numpy as np

    import treecalc
    from treecalc.studies.plan import _split, costs

    trees = survey.trees.reset_index(drop=True)
    _, optional, _ = _split(trees)
    off = np.flatnonzero(optional)
    base = trees["action"].to_numpy(object).copy()
    base[off] = "retain"
    best: dict[int, object] = {}
    for k in range(len(off) + 1):
        for subset in itertools.combinations(off, k):
            action = base.copy()
            action[list(subset)] = "remove"
            s = copy.copy(survey)
            s.trees = trees.assign(action=action)
            total = float(sum(costs(treecalc.assess(s, **options))))
            best[k] = min(best.get(k, total), total)  # type: ignore[call-overload]
    return best


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
    ap.add_argument("--brute", type=int, default=0, help="also brute force on a lot of this many optional trees")
    a = ap.parse_args()
    from treecalc.ingest import read_survey
    from treecalc.studies import plan_regimes
    from treecalc.studies.plan import MAX_ASSESSMENTS_CEILING, plan

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm.csv"
        mixed_lot(warm, 4)
        plan(read_survey(warm), site=SITE)  # the tables and the law loaded once, as in a session
        lots = {}
        for n in a.sizes:
            for harmed in (False, True):
                f = Path(tmp) / f"lot{n}{'h' if harmed else ''}.csv"
                mixed_lot(f, n, harmed=harmed)
                lots[(n, harmed)] = read_survey(f)
        walls: dict[tuple[int, bool], list[float]] = {k: [] for k in lots}
        cpus: dict[tuple[int, bool], list[float]] = {k: [] for k in lots}
        made: dict[tuple[int, bool], object] = {}
        for _ in range(a.repeat):  # interleaved: each round runs every lot once
            for key, survey in lots.items():
                p, wall, cpu = _timed(lambda s=survey: plan(s, site=SITE))
                walls[key].append(wall)
                cpus[key].append(cpu)
                made[key] = p
        for (n, harmed), p in made.items():
            w, c = statistics.median(walls[(n, harmed)]), statistics.median(cpus[(n, harmed)])
            fast = any("one cheapest candidate" in x for x in p.notes)  # type: ignore[attr-defined]
            runs = p.assessments  # type: ignore[attr-defined]
            print(
                f"{n} optional{', 2 harmed already' if harmed else ''}: {w:.2f} s wall, {c:.2f} s CPU "
                f"(median of {a.repeat}), {runs} assessments, {c / runs * 1000:.0f} ms CPU each; "
                f"method: {'one candidate per k' if fast else 'search over classes'}"
            )
        if a.brute:
            f = Path(tmp) / "brute.csv"
            mixed_lot(f, a.brute, seed=2, harmed=True)
            survey = read_survey(f)
            p, wall, _ = _timed(lambda: plan(survey, site=SITE))
            b, bwall, _ = _timed(lambda: brute(survey, {"site": SITE}))
            same = [abs(s.cost_usd - b[s.k]) < 0.005 for s in p.frontier]  # type: ignore[index]
            print(
                f"{a.brute} optional, 2 harmed already: plan {wall:.2f} s ({p.assessments} assessments), brute force "
                f"{bwall:.2f} s ({2**a.brute} subsets); every k's cost the least: {all(same) and len(same) == a.brute + 1}"
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
