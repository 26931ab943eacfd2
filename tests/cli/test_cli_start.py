"""``treecalc --help`` answers at once: the CLI package imports only the standard library until a
command runs (pandas, numpy, scipy, openpyxl are imported by the command)."""

from __future__ import annotations

import os
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


def test_assess_json_of_a_csv_survey_imports_only_what_it_uses(tmp_path):
    # the libraries a one-tree CSV survey never needs: shtab (a completion script), rapidfuzz (a misspelt name),
    # defusedxml (a workbook's XML), and the writers, the register and the GIS stack; each cost start-up
    survey = tmp_path / "one.csv"
    survey.write_text("Tag,Species,DBH (in),Action\n1,Red maple,14,Remove\n")
    unused = ("shtab", "rapidfuzz", "defusedxml", "openpyxl", "xlsxwriter", "sqlalchemy", "dask", "pyproj", "shapely")
    code = (
        "import sys, contextlib, io\n"
        "from treecalc.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    rc = main(['assess', {str(survey)!r}, '--json'])\n"
        "assert rc == 0 and out.getvalue().startswith('{'), rc\n"
        f"print(sorted(m for m in {unused!r} if m in sys.modules))\n"
    )
    env = {**os.environ, "TREECALC_CACHE": str(tmp_path / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_the_completion_option_still_refuses_an_unknown_shell(capsys):
    # shtab is imported only when a script is asked for: the shells it knows are checked then
    with pytest.raises(SystemExit) as e:
        main(["--print-completion", "cmd.exe"])
    assert e.value.code == 2
    assert "--print-completion cmd.exe: give one of bash, zsh" in capsys.readouterr().err


def test_water_penalty_of_an_account_imports_neither_pandas_nor_chapter_208(tmp_path):
    # the water chapter's modules need the law, money and dates only: pandas and numpy (~0.5 s of CPU) are not
    # imported, nor Croton's package __init__ (Chapter 208, which imports pandas)
    account = tmp_path / "account.csv"
    account.write_text("kind,date,amount,bill\nbill,2026-01-15,120.00,B1\npayment,2026-02-01,50.00,\n")
    code = (
        "import sys, contextlib, io\n"
        "from treecalc.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    rc = main(['water', 'penalty', '--csv', {str(account)!r}, '--as-of', '2026-11-30'])\n"
        "assert rc == 0 and 'B1' in out.getvalue(), rc\n"
        "print(sorted(m for m in ('pandas', 'numpy', 'treecalc.rules.croton_on_hudson') if m in sys.modules))\n"
    )
    env = {**os.environ, "TREECALC_CACHE": str(tmp_path / "cache"), "XDG_DATA_HOME": str(tmp_path / "data")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_a_module_imported_alone_is_the_one_the_package_gives_later():
    # the water command imports ch223_water without Croton's package; the package imported after it (the app
    # does both in one process) finds that same module, so its classes are one class
    code = (
        "import sys\n"
        "from treecalc.rules import standalone_module\n"
        "alone = standalone_module('treecalc.rules.croton_on_hudson', 'ch223_water')\n"
        "assert 'treecalc.rules.croton_on_hudson' not in sys.modules\n"
        "import treecalc.rules.croton_on_hudson as croton\n"
        "from treecalc.rules.croton_on_hudson import ch223_water\n"
        "import importlib\n"
        "assert ch223_water is alone is importlib.import_module('treecalc.rules.croton_on_hudson.ch223_water')\n"
        "assert callable(croton.assess)\n"
        "assert standalone_module('treecalc.rules.croton_on_hudson', 'ch223_water') is alone\n"
        "print('ok')\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
