"""A water account of 10,000 bills and payments through ``treecalc water penalty --csv`` against pandas reading it.

Usage::

    python benchmarks/water.py [--bills 9000] [--payments 1000] [--repeat 3]

Goal: the whole command at most 3x the CPU time of a process that imports pandas and reads the same CSV
(the statement is linear in the bills, their penalty periods and the payments). Bills fall due over 600
days from 2025-01-01 (the law held starts then), as of 2026-11-30. Whole processes, interleaved, CPU time of
the child (user + system), medians. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from installed import compile_like_pip  # noqa: E402


def _cpu(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def account_csv(path: Path, bills: int, payments: int) -> None:
    rng = random.Random(1)
    start = dt.date(2025, 1, 1)
    rows = ["kind,date,amount,bill"]
    rows += [
        f"bill,{start + dt.timedelta(days=i * 600 // bills)},{rng.randint(2000, 30000) / 100:.2f},B{i}"
        for i in range(bills)
    ]
    rows += [
        f"payment,{start + dt.timedelta(days=i * 600 // payments + 3)},{rng.randint(1000, 20000) / 100:.2f},"
        for i in range(payments)
    ]
    path.write_text("\n".join(rows) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bills", type=int, default=9000)
    ap.add_argument("--payments", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    compile_like_pip(Path(__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "account.csv"
        account_csv(csv, a.bills, a.payments)
        water = [sys.executable, "-m", "treecalc.cli", "water", "penalty", "--csv", str(csv), "--as-of", "2026-11-30"]
        pandas = [sys.executable, "-c", f"import pandas; pandas.read_csv({str(csv)!r})"]
        runs: dict[str, list[float]] = {"pandas": [], "water": []}
        for _ in range(a.repeat):
            runs["pandas"].append(_cpu(pandas))
            runs["water"].append(_cpu(water))
    p, w = statistics.median(runs["pandas"]), statistics.median(runs["water"])
    n = a.bills + a.payments
    print(f"pandas.read_csv of {n:,} rows   {p:6.2f} s CPU (median of {a.repeat})")
    print(f"treecalc water penalty --csv   {w:6.2f} s CPU = {w / p:4.2f}x (goal <= 3x)")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
