"""Benchmark: ``read_survey`` against a bare calamine read of the same xlsx, at 50,000 and 100,000 trees.

    python benchmarks/ingest.py [--rows 50000 100000] [--repeat 3] [--keep DIR]

The workbook is written with openpyxl's write-only mode (a title row, a
header with units, realistic species names with cultivars and a few
misspellings, multi-stem entries, flags) into a temporary folder. The read
opens, checks (the pre-flight of every sheet's extent), parses, resolves every
species (once per distinct name) and validates every row.

Goals (issue 12): ``read_survey`` at most 1.5x a bare
``pandas.read_excel(engine="calamine")`` of the same file, and at most 5 s for
100,000 trees. Times are CPU seconds (this process and its children: the
machine is shared, and wall time mostly measures the queue for its two
cores), the median of ``--repeat`` runs with the minimum beside it. The read
in a child process bounded in memory and time (``isolated=True``, what the
command line and the app do) is printed too: its CPU is the parent's and the
child's, and it adds the fork and the pickling of the survey back.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SPECIES = [
    "Acer rubrum",
    "Acer rubrum 'October Glory'",
    "Red maple",
    "Sugar maple",
    "Acer saccharum",
    "Quercus rubra",
    "Northern red oak",
    "Quercus alba",
    "White oak",
    "Quercus palustris",
    "Pin oak",
    "Liriodendron tulipifera",
    "Tulip tree",
    "Betula lenta",
    "Black birch",
    "Tsuga canadensis",
    "Eastern hemlock",
    "Fagus grandifolia",
    "American beech",
    "Acer platanoides",
    "Norway maple",
    "Ailanthus altissima",
    "Tree-of-heaven",
    "Prunus serotina",
    "Black cherry",
    "Carya ovata",
    "Pinus strobus",
    "Cornus florida",
    "Quercus sp.",
    "Red Mapel",
    "Sugar Mapel",
    "Gleditsia triacanthos var. inermis",
]
HEADER = [
    "Tag #",
    "Species",
    "D.B.H. (in.)",
    "Condition",
    "Action",
    "Street Tree",
    "Wetland Buffer",
    "Slope >20%",
    "Landmark",
    "Notes",
]


def survey_rows(rows: int, seed: int = 1):
    """The benchmark survey's data rows (one list of cells per tree, ``None`` for an empty cell),
    the same for a given ``rows`` and ``seed`` whichever writer puts them in a workbook."""
    rnd = random.Random(seed)
    conditions = ["Good", "Fair", "Poor", "Excellent", "good"]
    actions = ["Retain", "Remove", "Retain", "retain", "Removed", "Topped", ""]
    for i in range(1, rows + 1):
        if i % 50 == 0:
            dbh = f"{rnd.randint(4, 20)}, {rnd.randint(3, 12)}"
        else:
            dbh = round(rnd.uniform(2, 48), 1)
        yield [
            i,
            rnd.choice(SPECIES),
            dbh,
            rnd.choice(conditions),
            rnd.choice(actions) or None,
            "X" if i % 17 == 0 else None,
            "Y" if i % 23 == 0 else "N",
            None,
            None,
            "near drive" if i % 31 == 0 else None,
        ]


def write_workbook(path: Path, rows: int, seed: int = 1) -> None:
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Trees")
    ws.append(["Benchmark Tree Survey"])
    ws.append(HEADER)
    for row in survey_rows(rows, seed):
        ws.append(row)
    wb.save(path)


def cpu_seconds() -> float:
    """CPU time of this process and of its children waited for (user + system)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def cpu_runs(fn: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """(median CPU seconds, minimum, median wall seconds) of ``repeat`` runs of ``fn``."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, t = cpu_seconds(), time.perf_counter()
        fn()
        cpu.append(cpu_seconds() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(cpu), min(cpu), statistics.median(wall)


def measure(path: Path, repeat: int) -> dict[str, tuple[float, float, float]]:
    """The bare calamine read, ``read_survey`` and its isolated read of one workbook."""
    import pandas as pd

    from treecalc.ingest import read_survey

    read_survey(path)  # warm: imports, the species resolver's index
    return {
        "bare": cpu_runs(lambda: pd.read_excel(path, engine="calamine", header=None), repeat),
        "read": cpu_runs(lambda: read_survey(path), repeat),
        "isolated": cpu_runs(lambda: read_survey(path, isolated=True), repeat),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[50_000, 100_000])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each read; the median is reported")
    ap.add_argument("--keep", type=Path, help="write the workbooks into this folder and keep them")
    a = ap.parse_args(argv)
    from treecalc.ingest import read_survey

    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = a.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for rows in a.rows:
            path = folder / f"survey_{rows}.xlsx"
            t0 = time.perf_counter()
            write_workbook(path, rows)
            print(
                f"{rows:,} trees: written to {path.name} ({path.stat().st_size / 1e6:.1f} MB) in "
                f"{time.perf_counter() - t0:.1f} s"
            )
            s = read_survey(path)
            m = measure(path, a.repeat)
            bare, read, iso = m["bare"], m["read"], m["isolated"]
            ratio, iso_ratio = read[0] / bare[0], iso[0] / bare[0]
            print(f"  bare pandas.read_excel(engine='calamine'): {bare[0]:.3f} s CPU (min {bare[1]:.3f})")
            print(
                f"  read_survey:            {read[0]:.3f} s CPU (min {read[1]:.3f}), {read[2]:.2f} s wall; "
                f"{ratio:.2f}x the bare read (of the minima: {read[1] / bare[1]:.2f}x)  goal <= 1.5x: "
                + ("met" if ratio <= 1.5 else "NOT met")
            )
            print(
                f"  read_survey(isolated):  {iso[0]:.3f} s CPU (min {iso[1]:.3f}, parent + child), {iso[2]:.2f} s wall; "
                f"{iso_ratio:.2f}x the bare read (the command line's and the app's read)"
            )
            print(
                f"  {len(s.trees):,} trees, {len(s.rejected):,} rejected, {s.rows_read:,} rows read; "
                f"{s.rows_read / read[2]:,.0f} rows/s"
                + ("" if rows < 100_000 else f"; goal <= 5 s: {'met' if read[2] <= 5 else 'NOT met'}")
            )
            ok &= ratio <= 1.5 and (rows < 100_000 or read[2] <= 5)
    print("goals met" if ok else "GOAL MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
