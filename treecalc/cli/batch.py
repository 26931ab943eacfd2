"""``treecalc benefits-batch INPUT --out OUT.parquet``: benefits per tree of a large inventory on Dask.

No domain logic here: arguments → :func:`treecalc.studies.batch.benefits_batch` → a line of figures or JSON.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path
from typing import Any

from treecalc.cli import words
from treecalc.cli.common import add_benefit_params, benefit_kwargs, dump_json, stderr_progress


def register(subparsers: Any) -> None:
    """Add ``benefits-batch`` to ``subparsers``."""
    b = subparsers.add_parser(
        "benefits-batch",
        help="benefits per tree of a Parquet or CSV inventory (a file or a folder of partitions) on Dask",
    )
    b.add_argument(
        "input",
        help="a .parquet or .csv file, or a folder of them (species or species_code, dbh_in; optional "
        "land_use, zone, latitude/longitude or x/y: each tree is valued in its zone, else the zone its coordinates "
        "lie in)",
    )
    b.add_argument(
        "--out",
        required=True,
        help="the Parquet folder to write (one file per partition), new or of an earlier run; never in the input; "
        "a local path or a URL (s3://, gs://: the store's extra installed)",
    )
    b.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a dask.distributed scheduler to run on (default: this process, streamed by row group; see README "
        '"Batch" for when a cluster pays)',
    )
    b.add_argument(
        "--workers", type=int, help="start a local Dask cluster of N worker processes (default: none, this process)"
    )
    b.add_argument("--threads", type=int, default=1, help="threads per worker process of a local cluster (default 1)")
    b.add_argument(
        "--crs",
        metavar="EPSG:…",
        help="coordinate reference system of the input's x/y columns (e.g. EPSG:2263); without it x/y are read "
        "as WGS84 longitude/latitude when every x is within ±180 and y within ±90 with decimals, else refused",
    )
    b.add_argument("--json", action="store_true")
    add_benefit_params(b)
    b.set_defaults(func=_cmd_batch)


def _cmd_batch(a: argparse.Namespace) -> int:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.models.benefits import make_params

    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.studies.batch import benefits_batch

    suffix = Path(a.out).suffix.lower()
    if suffix not in ("", ".parquet"):  # a folder named x.csv holding Parquet files would read as a broken CSV
        raise ValueError(
            f"--out {a.out}: benefits-batch writes a folder of Parquet files (one per partition), not "
            f"{suffix[1:].upper()}; give a folder name without an extension or ending in .parquet"
        )
    if a.workers is not None and a.workers < 1:
        raise ValueError(f"--workers {a.workers}: give at least 1")
    if a.threads < 1:
        raise ValueError(f"--threads {a.threads}: give at least 1")
    kw = benefit_kwargs(a)

    r = benefits_batch(
        a.input,
        a.out,
        scheduler=a.scheduler,
        workers=a.workers,
        params=make_params(None, **kw),
        threads=a.threads,
        crs=a.crs,
        progress=stderr_progress(),  # trees done and the rate (or the dashboard's address) on a terminal
    )
    if a.json:
        dump_json({**asdict(r), "notes": [words.render(n) for n in r.notes]})
        return 0
    print(
        f"{r.trees:,} trees in {r.partitions} partitions valued in {r.seconds:.2f} s "
        f"({r.trees_per_second:,.0f} trees/s) {'in' if r.scheduler.startswith('this process') else 'on'} "
        f"{r.scheduler}; written to {r.out}"
    )
    for note in r.notes:  # the trees valued in the Northeast only by default are a warning; the rest says where
        print(("warning: " if "by default" in note else "") + words.render(note))
    return 0
