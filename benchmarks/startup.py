"""Start-up: one tree through ``treecalc assess --json`` against a process that only imports pandas.

Usage::

    python benchmarks/startup.py [--repeat 5]

Goal: ``assess --json`` of a one-tree survey at most 3x the CPU time of ``python -c "import pandas"`` (the floor
of any pandas program), with the tables' cache warm (every run after the first on a machine). A cold cache
(the first run, or after a data file changed) is printed beside it: it builds every zone's tables once.

Whole processes, interleaved (the machine is shared), CPU time of the child (user + system) from
``resource.getrusage(RUSAGE_CHILDREN)``; medians of ``--repeat`` runs. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu(cmd: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        survey = Path(tmp) / "one.csv"
        survey.write_text("Tag,Species,DBH (in),Action\n1,Red maple,14,Remove\n")
        env = {**os.environ, "TREECALC_CACHE": str(Path(tmp) / "cache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed treecalc runs: its bytecode compiled once
        assess = [sys.executable, "-m", "treecalc.cli", "assess", str(survey), "--json"]
        pandas = [sys.executable, "-c", "import pandas"]
        _cpu(pandas, env)  # bytecode and the OS's file cache warm for both
        cold = _cpu(assess, env)  # an empty cache: every zone's tables built (and saved)
        runs: dict[str, list[float]] = {"pandas": [], "assess": []}
        for _ in range(args.repeat):
            runs["pandas"].append(_cpu(pandas, env))
            runs["assess"].append(_cpu(assess, env))
    p, a = statistics.median(runs["pandas"]), statistics.median(runs["assess"])
    print(f"import pandas           {p:6.2f} s CPU (median of {args.repeat})")
    print(f"assess --json, 1 tree   {a:6.2f} s CPU  = {a / p:4.2f}x import pandas (goal <= 3x)")
    print(f"  with a cold cache     {cold:6.2f} s CPU  = {cold / p:4.2f}x (once per machine and data folder)")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
