"""Run treecalc in a benchmark as an installed copy runs: with its modules' bytecode compiled.

pip compiles a wheel's modules when it installs them. A checkout run with ``PYTHONDONTWRITEBYTECODE=1`` (which
this machine's environment sets) compiles every treecalc module it imports on every run instead: ~110 modules and
~0.4 s of CPU a command at 50,000 trees, a cost no installed treecalc pays. The benchmarks compile the checkout
once, as pip would, before timing it; reading compiled bytecode is allowed under that setting, only writing it is
not.
"""

from __future__ import annotations

import compileall
from pathlib import Path


def compile_like_pip(code: Path) -> None:
    """Compile ``code/treecalc``'s modules to ``__pycache__`` (a no-op for those already compiled and current)."""
    if not compileall.compile_dir(str(Path(code) / "treecalc"), quiet=1):
        raise SystemExit(f"{code}/treecalc: a module did not compile")
