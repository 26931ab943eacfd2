"""``treecalc assess FILE --out statement.xlsx`` (and ``--json``) against a bare python-calamine read of the same
workbook, as ratios measured in one run, interleaved (the goal: ``--out`` <= 6x the bare read at 50,000 trees).

Usage::

    python benchmarks/statement.py [--trees 50000] [--repeat 3] [--before DIR] [--keep DIR]

A survey workbook is written (``end_to_end.write_survey``). Each round runs, one after the other: the bare read
(``python_calamine``'s rows of the sheet, in this process), then ``treecalc assess`` as a whole process with
``--json`` and with ``--out`` for this checkout and, with ``--before DIR`` (a checkout of the code to compare, e.g.
``git worktree add DIR main``), for that one too, each first in every other round, so that the shared machine's
load falls on all alike. Each command's ratio to the bare read of its own round is taken, and the median of ``--repeat`` rounds printed, of CPU
time (user + system: on a shared machine the wall time mostly measures the queue for the cores) and of wall time.
The process's peak resident memory is printed beside, and the load average. Each round also times the floor of
``benchmarks/assess_json.py``, ``pandas.read_excel(engine="calamine")`` of the workbook (the read alone, in its own
process), and the CPU ratios to it are printed too: the two floors of the issue's goals, in one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOAL_OUT = 6.0


def bare_read(path: Path) -> tuple[float, float]:
    """(wall s, CPU s) of python-calamine reading the workbook's first sheet into Python rows."""
    import python_calamine

    t0, c0 = time.perf_counter(), time.process_time()
    python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_index(0).to_python()
    return time.perf_counter() - t0, time.process_time() - c0


_PANDAS_READ = (
    "import sys, time, pandas\n"
    "t = time.process_time()\n"
    "pandas.read_excel(sys.argv[1], engine='calamine', header=None)\n"
    "print(time.process_time() - t)\n"
)


def pandas_read(path: Path) -> float:
    """CPU s of ``pandas.read_excel(engine="calamine")`` of the workbook, timed around the read in its own process
    (:mod:`assess_json`'s floor)."""
    out = subprocess.run([sys.executable, "-c", _PANDAS_READ, str(path)], check=True, capture_output=True)
    return float(out.stdout)


def run(code: Path, args: list[str], out: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of ``python -m treecalc.cli *args`` with ``code`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    t0 = time.perf_counter()
    with open(out, "wb") as sink:
        # run from the checkout's folder: ``-m`` puts the working folder ahead of PYTHONPATH on the path
        proc = subprocess.Popen([sys.executable, "-m", "treecalc.cli", *args], stdout=sink, env=env, cwd=code)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"treecalc {' '.join(args)} failed (exit {os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the median ratio is reported")
    ap.add_argument("--before", type=Path, help="a checkout of the code to compare with, run interleaved")
    ap.add_argument("--keep", type=Path, help="write the survey and outputs here (else a temporary folder)")
    a = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from end_to_end import write_survey
    from installed import compile_like_pip

    codes = [("after", ROOT)] + ([("before", a.before.resolve())] if a.before else [])
    for _, code in codes:
        compile_like_pip(code)
    with tempfile.TemporaryDirectory() as tmp:
        folder = (a.keep or Path(tmp)).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        survey = folder / f"survey_{a.trees}.xlsx"
        if not survey.exists():
            write_survey(survey, a.trees)
        print(f"{a.trees:,} trees; load average at start: {os.getloadavg()[0]:.1f} (2 cores shared)")
        base = ["assess", str(survey), "--jurisdiction", "croton-on-hudson"]
        ratios: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
        bare: list[tuple[float, float]] = []
        floor: list[float] = []
        for i in range(a.repeat):
            wall0, cpu0 = bare_read(survey)
            bare.append((wall0, cpu0))
            floor.append(pandas_read(survey))
            for name, code in codes if i % 2 == 0 else codes[::-1]:  # each code first in every other round
                for cmd, extra in (("json", ["--json"]), ("out", ["--out", str(folder / f"{name}.xlsx")])):
                    wall, cpu, rss = run(code, [*base, *extra], folder / f"{name}_{cmd}.txt")
                    ratios.setdefault((name, cmd), []).append((cpu / cpu0, wall / wall0, rss, cpu / floor[-1], cpu))
        wall0 = statistics.median(b[0] for b in bare)
        cpu0 = statistics.median(b[1] for b in bare)
        print(f"bare python-calamine read: {cpu0:.3f} s CPU, {wall0:.3f} s wall (medians)")
        print(f"pandas.read_excel(engine='calamine'), its own process: {statistics.median(floor):.3f} s CPU (median)")
        print(f"{'code':<8}{'command':<9}{'CPU s':>7}{'CPU ratio':>10}{'wall ratio':>11}{'peak MB':>9}{'/ pandas':>10}")
        for (name, cmd), runs in ratios.items():
            cpu_r = statistics.median(r[0] for r in runs)
            wall_r = statistics.median(r[1] for r in runs)
            rss = statistics.median(r[2] for r in runs)
            pandas_r = statistics.median(r[3] for r in runs)
            cpu_s = statistics.median(r[4] for r in runs)
            goal = f"  goal <= {GOAL_OUT:g}x: {'met' if cpu_r <= GOAL_OUT else 'NOT met'}" if cmd == "out" else ""
            print(
                f"{name:<8}{cmd:<9}{cpu_s:>7.2f}{cpu_r:>9.1f}x{wall_r:>10.1f}x{rss:>9.0f}{pandas_r:>9.2f}x{goal}",
                flush=True,
            )
        print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0  # figures are printed, never asserted: a loaded machine must not fail `make bench`


if __name__ == "__main__":
    sys.exit(main())
