"""Packaging: a wheel (``pip install .``) carries ``data/`` as ``treecalc/_data`` and an installed copy reads it
without ``TREECALC_DATA`` (pyproject.toml ``[tool.setuptools]``: ``treecalc/_data`` is a symlink to ``data/``,
package-data names its files). ``data/`` itself stays at the top of the repository."""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from setuptools import find_namespace_packages

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_the_package_list_names_every_subpackage_of_treecalc():
    # the list is written out (discovery cannot find the mapped data folder): a new subpackage must join it
    # (the data packages below treecalc/_data are package-data's business, tested below)
    found = {
        p
        for p in find_namespace_packages(str(ROOT), include=["treecalc", "treecalc.*"])
        if "__" not in p and not p.startswith("treecalc._data")
    }
    listed = {p for p in SETUPTOOLS["packages"] if not p.startswith("treecalc._data")}
    assert listed == found


def test_the_data_stays_at_the_top_and_the_package_reaches_it_through_a_link():
    # data/ is the folder users edit and the docs cite (data/law/<village>/); the package sees it as treecalc/_data.
    # Before: package-dir mapped data/ in as treecalc._data, and that mapping alone made setuptools give every
    # `pip install -e .` an import hook and its "Editable installation" warning (test_packaging_install.py).
    link = ROOT / "treecalc" / "_data"
    assert link.is_symlink() and os.readlink(link) == "../data"  # relative: the link holds in any clone
    assert (ROOT / "data").is_dir() and not (ROOT / "data").is_symlink()
    assert SETUPTOOLS["package-dir"] == {"": "."}  # exactly this: setuptools' quiet .pth editable install


def _shipped(rel: str) -> bool:
    """Whether ``data/<rel>`` matches a package-data glob of its folder's package."""
    # a glob may name a file in a plain folder below its package ("*/*.csv"), as setuptools reads package-data
    parts = rel.split("/")
    for k in range(len(parts) - 1, -1, -1):
        package = ".".join(["treecalc._data", *parts[:k]])
        name = "/".join(parts[k:])
        if any(
            fnmatch.fnmatch(name, g) and g.count("/") == name.count("/")
            for g in SETUPTOOLS["package-data"].get(package, [])
        ):
            return True
    return False


def test_every_data_file_but_the_readmes_is_in_package_data():
    files = sorted(p.relative_to(ROOT / "data").as_posix() for p in (ROOT / "data").rglob("*") if p.is_file())
    assert [f for f in files if not _shipped(f)] == [f for f in files if f.endswith(".md")]
    assert "readings/site_facts.toml" in files and "species/benefit_tables.csv" in files


def _sources(tmp_path: Path) -> Path:
    """A copy of what the build reads (it writes build/ and *.egg-info beside its sources)."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, src)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    # symlinks kept, as a clone has them: treecalc/_data stays a link to the copy's data/
    shutil.copytree(ROOT / "treecalc", src / "treecalc", ignore=ignore, symlinks=True)
    shutil.copytree(ROOT / "data", src / "data", ignore=ignore)
    return src


def fresh_env() -> dict[str, str]:
    """The environment of a newcomer's shell: no checkout on PYTHONPATH, no data folder named, and byte-compiling
    left on (a machine that turns it off makes every build print "byte-compiling is disabled")."""
    drop = {"PYTHONPATH", "TREECALC_DATA", "PYTHONDONTWRITEBYTECODE"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def build_wheel(tmp_path: Path) -> tuple[Path, str]:
    """The wheel ``pip wheel .`` builds from a copy of the checkout's sources (offline, this venv's setuptools), and
    everything the build printed (``-v``: the build backend's own output and warnings included)."""
    src = _sources(tmp_path)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-v"]
    # this venv's setuptools (the dev extra): the test needs no package index
    build = [*pip, "wheel", str(src), "--no-deps", "--no-build-isolation", "--no-index", "-w", str(tmp_path / "dist")]
    r = subprocess.run(build, capture_output=True, text=True, timeout=300, check=False, env=fresh_env())
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("treecalc-*.whl")
    return wheel, r.stdout + r.stderr


@pytest.mark.slow  # the wheel (built once per process: ~10 s, offline) installed
def test_a_wheel_carries_the_data_and_an_installed_copy_reads_it(built_wheel, tmp_path):
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    wheel = built_wheel[0]
    names = set(zipfile.ZipFile(wheel).namelist())
    files = [p.relative_to(ROOT / "data").as_posix() for p in (ROOT / "data").rglob("*") if p.is_file()]
    # before: no file of data/ was in the wheel, so an installed treecalc worked only with TREECALC_DATA
    assert {f"treecalc/_data/{f}" for f in files if _shipped(f)} <= names
    # and nothing else of the top folder (package-dir is "."): no tests/, tools/ or app.py beside the package
    assert [n for n in names if not n.startswith(("treecalc/", "treecalc-"))] == []
    assert "treecalc/_data/readings/site_facts.toml" in names and "treecalc/_data/examples/sample_survey.xlsx" in names

    target = tmp_path / "site"
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k != "TREECALC_DATA"}
    env["PYTHONPATH"] = str(target)  # ahead of the editable install of the checkout
    away = tmp_path / "elsewhere"  # not the checkout: only the installed copy can be found
    away.mkdir()

    def run(*args: str) -> str:
        r = subprocess.run(
            [sys.executable, *args], cwd=away, env=env, capture_output=True, text=True, timeout=300, check=False
        )
        assert r.returncode == 0, r.stderr
        return r.stdout

    where = run("-c", "import treecalc.reference.datafolder as u; print(u.__file__); print(u.DATA_DIR)").split()
    assert where == [str(target / "treecalc" / "reference" / "datafolder.py"), str(target / "treecalc" / "_data")]
    # the law and the species tables of the installed copy: the sample survey assessed under Chapter 208,
    # and the water companion's §223-12F(2) 5% of an unpaid 300.00 = 15.00
    assert json.loads(run("-m", "treecalc.cli", "assess", "--json"))["jurisdiction"] == "croton_on_hudson"
    water = ("water-penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-01-20", "--json")
    assert json.loads(run("-m", "treecalc.cli", *water))["penalties_outstanding"] == "15.00"


@pytest.mark.slow  # the wheel (built once per process) installed, the app run once in AppTest: ~30 s, offline
def test_a_wheel_carries_the_app_and_an_installed_copy_runs_it_from_elsewhere(built_wheel, tmp_path):
    # before: the app (app.py, treecalc_app/, app_support/) was no part of the wheel: installed, there was no app
    wheel = built_wheel[0]
    z = zipfile.ZipFile(wheel)
    names = set(z.namelist())
    app = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "treecalc" / "app").rglob("*.py"))
    assert "treecalc/app/pages/permit.py" in app and "treecalc/app/views.py" in app
    assert [f for f in app if f not in names] == []
    # what the app draws with is its extra, not the library's: pip install 'treecalc[app]'
    (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    requires = [line for line in z.read(meta).decode().splitlines() if line.startswith(("Requires-Dist", "Provides"))]
    assert "Provides-Extra: app" in requires
    for name in ("streamlit", "altair", "pydeck", "pillow"):
        (line,) = [r for r in requires if r.startswith(f"Requires-Dist: {name}")]
        assert line.endswith('; extra == "app"'), line

    target = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True, timeout=300)
    away = tmp_path / "elsewhere"  # neither the checkout nor its working directory: only the installed copy
    away.mkdir()
    shutil.copy(ROOT / "app.py", away / "app.py")
    env = {k: v for k, v in os.environ.items() if k != "TREECALC_DATA"}
    env["PYTHONPATH"] = str(target)  # ahead of the editable install of the checkout
    code = (
        "import sys; from streamlit.testing.v1 import AppTest; import treecalc.app as t; print(t.__file__); "
        "at = AppTest.from_file(sys.argv[1], default_timeout=120).run(); "
        "print(not at.exception, at.session_state['tc_url_restored'] if 'tc_url_restored' in at.session_state else '-'); "
        "at.switch_page(str(t.page_path('permit'))).run(); print(not at.exception, len(at.metric) > 0)"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, str(away / "app.py")],
        cwd=away,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    where, first, permit = r.stdout.splitlines()[-3:]
    assert where == str(target / "treecalc" / "app" / "__init__.py")
    assert first == "True True"  # the Survey page ran, and the sidebar after it (the URL was read)
    assert permit == "True True"  # the Permit page, found in the installed package, drew its figures
