"""Run the command line as a user would, bounded: a 3 GB address space and 30 s, in a subprocess."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

CAP_BYTES = 3 * 2**30
SECONDS = 30.0


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def run_capped(args: list[str], cwd: Path | None = None, seconds: float = SECONDS) -> tuple[int, str, str, float]:
    """(exit code, stdout, stderr, seconds) of ``python -m treecalc.cli ARGS`` under the cap.

    A run over the time limit fails the test (subprocess.TimeoutExpired), never passes it."""
    env = {**os.environ, "PYTHONFAULTHANDLER": "0"}
    start = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-m", "treecalc.cli", *args],
        capture_output=True,
        text=True,
        timeout=seconds,
        preexec_fn=_cap,
        cwd=cwd,
        env=env,
    )
    return p.returncode, p.stdout, p.stderr, time.monotonic() - start


def refused(args: list[str], *words: str, cwd: Path | None = None) -> str:
    """Assert the command exits 2 with an ``error:`` naming ``words`` and no traceback; its stderr."""
    code, _out, err, took = run_capped(args, cwd=cwd)
    assert code == 2, (code, err[-2000:])
    assert "Traceback" not in err, err[-2000:]
    assert took < SECONDS
    for w in words:
        assert w in err, (w, err[-2000:])
    return err
