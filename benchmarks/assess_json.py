"""``treecalc assess FILE --json`` on a 50,000-tree workbook against a bare python-calamine read of the same file.

Usage::

    python benchmarks/assess_json.py [--trees 50000] [--repeat 3] [--survey FILE]

Goal: the whole command at most 3x the CPU time of reading the workbook with
``pandas.read_excel(engine="calamine")`` (the floor of any reader of the file; the read alone, its imports not
counted). Both run as child processes, interleaved (the machine is shared); the command's CPU time is its
process's (user + system, with the child that reads the survey), the read's is timed around the read inside
its process. Medians of ``--repeat`` runs. The survey is :mod:`end_to_end`'s. Printed, never asserted.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from end_to_end import write_survey  # noqa: E402 - the benchmark survey, written by either benchmark
from installed import compile_like_pip  # noqa: E402

_READ = (
    "import sys, time, pandas\n"
    "t = time.process_time()\n"
    "pandas.read_excel(sys.argv[1], engine='calamine', header=None)\n"
    "print(time.process_time() - t)\n"
)


def _cpu(cmd: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--survey", type=Path, help="a survey workbook already written (else one is written)")
    args = ap.parse_args()
    compile_like_pip(Path(__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory() as tmp:
        path = args.survey or Path(tmp) / f"survey_{args.trees}.xlsx"
        if args.survey is None:
            write_survey(path, args.trees)
        # the tables' cache of a machine that has run treecalc before, in a folder of its own
        env = {**os.environ, "TREECALC_CACHE": str(Path(tmp) / "cache"), "XDG_DATA_HOME": str(Path(tmp) / "data")}
        assess = [sys.executable, "-m", "treecalc.cli", "assess", str(path), "--json", "--quiet"]
        _cpu(assess, env)  # the cache filled, bytecode and the OS's file cache warm
        runs: dict[str, list[float]] = {"read": [], "assess": []}
        for _ in range(args.repeat):
            out = subprocess.run([sys.executable, "-c", _READ, str(path)], env=env, check=True, capture_output=True)
            runs["read"].append(float(out.stdout))
            runs["assess"].append(_cpu(assess, env))
    r, a = statistics.median(runs["read"]), statistics.median(runs["assess"])
    print(f"calamine read of {path.name}   {r:6.2f} s CPU (median of {args.repeat})")
    print(f"treecalc assess --json          {a:6.2f} s CPU = {a / r:5.2f}x the read (goal <= 3x)")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
