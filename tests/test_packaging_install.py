"""What a Python user who installs treecalc meets: a build that prints no warning, a wheel carrying the licence,
``py.typed`` and the app, and ``treecalc app`` serving the installed app from any folder (no checkout)."""

from __future__ import annotations

import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from tests.test_packaging import ROOT, _sources, fresh_env
from treecalc import __version__


def _warnings(log: str) -> list[str]:
    """The lines of a build's log that warn: "warning" in any case (pip's "WARNING:", setuptools' "...Warning:"
    categories, "warning: build_py"), setuptools' InformationOnly notices (shown as such by an older pip) and the
    "!!" rule setuptools draws around every notice it prints."""
    said = ("warning", "informationonly", "deprecat")
    return [line for line in log.splitlines() if any(s in line.lower() for s in said) or line.strip() == "!!"]


@pytest.mark.slow  # the wheel's build log, and the checkout's copy installed editable in a new venv: ~20 s, offline
def test_the_wheel_and_the_editable_install_build_without_a_warning(built_wheel, tmp_path):
    # before: the build printed 16 blocks of ~40 lines, "Package 'treecalc._data.species.zones.CaNCCoJBK' is absent
    # from the `packages` configuration", one per climate-zone folder: ~650 lines a newcomer read as a failure
    wheel, log = built_wheel
    assert "Building wheel for treecalc" in log  # the backend's output is in the log (pip -v)
    assert _warnings(log) == []
    # `pip install -e .` (make run), as a newcomer's pip shows it and as pip -v shows it (the backend's own output)
    (tmp_path / "editable").mkdir()
    src = _sources(tmp_path / "editable")
    venv = _venv_over_this_one(tmp_path)
    py = venv / "bin" / "python"
    for verbose in ([], ["-v"]):
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", *verbose, "--python", str(py)]
        install = [*pip, "install", "-e", str(src), "--no-deps", "--no-build-isolation", "--no-index"]
        r = subprocess.run(install, env=fresh_env(), capture_output=True, text=True, timeout=300, check=False)
        assert r.returncode == 0, r.stderr[-3000:]
        assert "Building editable for treecalc" in r.stdout + r.stderr
        # before: setuptools' ~10-line notice on every editable install, because package-dir mapped data/ in as
        # treecalc._data: "BuildBackendWarning: Editable installation. !! ... Please be careful with folders in
        # your working directory with the same name as your package ... !!"
        assert _warnings(r.stdout + r.stderr) == [], r.stdout + r.stderr
    # the quiet kind of editable install: a .pth naming the copy's top folder, no import hook
    purelib = Path(subprocess.run([py, "-c", _PURELIB], capture_output=True, text=True, check=True).stdout.strip())
    assert [p.name for p in purelib.glob("__editable__*")] == [f"__editable__.treecalc-{__version__}.pth"]
    assert (purelib / f"__editable__.treecalc-{__version__}.pth").read_text(encoding="utf-8").split() == [str(src)]
    # and it reads the checkout's data/ (through treecalc/_data), from any folder
    code = "import treecalc.reference.datafolder as u; print(u.__file__); print(u.DATA_DIR)"
    where = subprocess.run([py, "-c", code], cwd=tmp_path, env=fresh_env(), capture_output=True, text=True, check=True)
    assert where.stdout.split() == [str(src / "treecalc" / "reference" / "datafolder.py"), str(src / "data")]


@pytest.mark.slow  # the wheel, built once per process: ~8 s, offline
def test_the_wheel_carries_the_licence_the_types_marker_and_the_metadata(built_wheel):
    wheel, _ = built_wheel
    z = zipfile.ZipFile(wheel)
    names = set(z.namelist())
    info = next(n for n in names if n.endswith(".dist-info/METADATA")).rsplit("/", 1)[0]
    # before: no LICENSE anywhere, no py.typed (a type checker ignored treecalc's annotations)
    assert f"{info}/licenses/LICENSE" in names
    assert z.read(f"{info}/licenses/LICENSE").decode() == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "treecalc/py.typed" in names
    meta = Parser().parsestr(z.read(f"{info}/METADATA").decode())
    assert meta["Version"] == __version__  # the one version, treecalc.__version__, read by the build
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["Author"] or meta["Author-email"]
    assert meta["Keywords"] and "i-tree" in meta["Keywords"].lower()
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers and "Programming Language :: Python :: 3.11" in classifiers


_PURELIB = "import sysconfig; print(sysconfig.get_path('purelib'))"


def _venv_over_this_one(tmp_path: Path) -> Path:
    """A new venv (no pip of its own) that sees this venv's packages (streamlit, pandas) but not its editable
    treecalc: a plain path line in a .pth file adds the folder without running that folder's own .pth files."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    purelib = subprocess.run([py, "-c", _PURELIB], capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "outer_venv.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    return venv


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow  # the wheel installed in a new venv, the app's server started once: ~20 s, offline
def test_treecalc_app_serves_the_installed_app_with_no_checkout(built_wheel, tmp_path):
    wheel, _ = built_wheel
    venv = _venv_over_this_one(tmp_path)
    py = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "--python", str(py)]
    env = fresh_env()  # the checkout not on the path: only the installed copy can be found
    # (pip too: with the checkout on PYTHONPATH it takes treecalc for installed and installs nothing)
    subprocess.run([*pip, "install", "--no-deps", "--no-index", str(wheel)], check=True, timeout=300, env=env)
    away = tmp_path / "elsewhere"  # no app.py, no checkout: only what the wheel installed
    away.mkdir()
    where = subprocess.run(
        [py, "-c", "import treecalc; print(treecalc.__file__)"],
        cwd=away,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert where.startswith(str(venv)), where

    # before: "invalid choice: 'app'"; the app ran only as `streamlit run app.py` in a checkout
    r = subprocess.run(
        [venv / "bin" / "treecalc", "app", "--help"],
        cwd=away,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert "--port" in r.stdout

    port = _free_port()
    server = subprocess.Popen(
        [venv / "bin" / "treecalc", "app", "--port", str(port), "--", "--server.headless", "true"],
        cwd=away,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        health = ""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as resp:
                    health = resp.read().decode()
                break
            except OSError:
                time.sleep(0.5)
        assert health == "ok", f"the app did not answer; exit {server.poll()}"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as resp:
            assert resp.status == 200 and "<title>" in resp.read().decode().lower()
    finally:
        server.terminate()
        out = server.communicate(timeout=30)[0]
    assert f"Local URL: http://localhost:{port}" in out, out
