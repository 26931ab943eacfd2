"""Benchmark: write a 100,000-tree xlsx and time ``read_survey`` on it.

    python benchmarks/ingest.py [--rows 100000] [--keep DIR]

The workbook is written with openpyxl's write-only mode (a title row, a
header with units, realistic species names with cultivars and a few
misspellings, multi-stem entries, flags) into a temporary folder. The read
opens, checks, parses, resolves every species (once per distinct name) and
validates every row. Goal: at most 5 s for 100,000 trees.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--keep", type=Path, help="write the workbook into this folder and keep it")
    a = ap.parse_args(argv)
    from treecalc.ingest import read_survey

    with tempfile.TemporaryDirectory() as tmp:
        folder = a.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"survey_{a.rows}.xlsx"
        t0 = time.perf_counter()
        write_workbook(path, a.rows)
        t1 = time.perf_counter()
        print(f"wrote {a.rows:,} trees to {path.name} ({path.stat().st_size / 1e6:.1f} MB) in {t1 - t0:.1f} s")
        t2 = time.perf_counter()
        c2 = time.process_time()
        s = read_survey(path)
        t3 = time.perf_counter()
        c3 = time.process_time()
        import pandas as pd

        c4 = time.process_time()
        pd.read_excel(path, engine="calamine", sheet_name=None)  # the bare read: cells into frames, nothing checked
        bare = time.process_time() - c4
    secs = t3 - t2
    cpu = c3 - c2
    print(
        f"read_survey: {secs:.2f} s ({cpu:.2f} s CPU), {s.rows_read / secs:,.0f} rows/s "
        f"({len(s.trees):,} trees, {len(s.rejected):,} rejected, {s.rows_read:,} rows read)"
    )
    print(
        f"bare pandas.read_excel(engine='calamine'): {bare:.2f} s CPU; read_survey is {cpu / bare:.2f}x it "
        "(CPU time: the machine's other load does not count)"
    )
    print("goal: at most 5 s —", "met" if secs <= 5 else "NOT met")
    print("goal: at most 1.5x the bare read —", "met" if cpu <= 1.5 * bare else "NOT met")
    return 0 if secs <= 5 else 1


if __name__ == "__main__":
    sys.exit(main())
