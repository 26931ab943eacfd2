"""``treecalc --help`` answers at once: the CLI package imports only the standard library until a
command runs (pandas, numpy, scipy, openpyxl are imported by the command)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from treecalc.cli import main

HEAVY = ("pandas", "numpy", "scipy", "openpyxl", "streamlit")


def test_help_imports_no_heavy_library():
    code = (
        "import sys, contextlib, io\n"
        "from treecalc.cli import build_parser\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        build_parser().parse_args(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_command_is_registered(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for command in ("benefits", "survey", "assess", "water-penalty", "water", "excavation"):
        assert command in out


def test_version(capsys):
    from treecalc import __version__

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.strip() == f"treecalc {__version__}"


def test_python_dash_m_runs_the_cli():
    r = subprocess.run([sys.executable, "-m", "treecalc.cli", "water"], capture_output=True, text=True)
    assert r.returncode == 2 and "choose a subcommand: penalty or meter-test" in r.stderr
