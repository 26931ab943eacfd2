"""Peak memory of ``treecalc assess FILE --json`` and ``--out statement.xlsx``, whole processes (issue 39).

Usage::

    python benchmarks/memory.py [--sizes 100000 200000] [--repeat 1] [--before DIR] [--keep DIR]

For each size a survey workbook is written (``end_to_end.write_survey``), then each command runs as a child
process and its peak resident memory is read from the kernel (``os.wait4``: the largest of the process and the
survey reader's own child). With ``--before DIR`` (a checkout of the code to compare, e.g. made with
``git worktree add DIR main``) the same commands run with that checkout first on ``PYTHONPATH``, interleaved
with these (one run of each in turn), so that the shared machine's load falls on both alike. The goal: 500,000
trees under 1.5 GB for both commands. CPU time (user + system) is printed beside; the machine's load average too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOAL_MB = 1500


def run(code: Path, args: list[str], out: Path) -> tuple[float, float]:
    """(peak RSS in MB, CPU s) of ``python -m treecalc.cli *args`` with ``code`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    with open(out, "wb") as sink:
        # run from the checkout's folder: ``-m`` puts the working folder ahead of PYTHONPATH on the path
        proc = subprocess.Popen([sys.executable, "-m", "treecalc.cli", *args], stdout=sink, env=env, cwd=code)
        _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"treecalc {' '.join(args)} failed (exit {os.waitstatus_to_exitcode(status)})")
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 200_000])
    ap.add_argument("--repeat", type=int, default=1, help="runs of each command; the median is reported")
    ap.add_argument("--before", type=Path, help="a checkout of the code to compare with, run interleaved")
    ap.add_argument("--keep", type=Path, help="write the surveys and outputs here (else a temporary folder)")
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
        print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores shared)")
        print(f"{'trees':>8}  {'code':<7}{'command':<8}{'peak MB':>9}{'CPU s':>8}")
        for n in a.sizes:
            survey = folder / f"survey_{n}.xlsx"
            if not survey.exists():
                write_survey(survey, n)
            # (the read may take an hour: on a loaded shared machine 500,000 rows can take longer than the default limit)
            base = [str(survey), "--jurisdiction", "croton-on-hudson", "--limit", "seconds=3600"]
            results: dict[tuple[str, str], list[tuple[float, float]]] = {}
            for _ in range(a.repeat):
                for name, code in codes:  # interleaved: each code's run of a command beside the other's
                    for cmd, extra in (("json", ["--json"]), ("out", ["--out", str(folder / f"{name}_{n}.xlsx")])):
                        out = folder / f"{name}_{cmd}_{n}.txt"
                        results.setdefault((name, cmd), []).append(run(code, ["assess", *base, *extra], out))
            for (name, cmd), runs in results.items():
                peak = statistics.median(r[0] for r in runs)
                cpu = statistics.median(r[1] for r in runs)
                goal = "" if n != 500_000 else f"  goal <= {GOAL_MB} MB: {'met' if peak <= GOAL_MB else 'NOT met'}"
                print(f"{n:>8,}  {name:<7}{cmd:<8}{peak:>9.0f}{cpu:>8.1f}{goal}", flush=True)
        print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0  # figures are printed, never asserted: a loaded machine must not fail `make bench`


if __name__ == "__main__":
    sys.exit(main())
