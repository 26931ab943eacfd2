"""End to end in a real browser: ``streamlit run app.py`` driven by Playwright and Debian's Chromium.

The test uploads the bundled sample on the Survey page (through the file
chooser), opens the Permit & replacement page from the navigation, reads the
required replacement trees and the payment in lieu off the page and checks
them against ``assess`` on the same file, and downloads the Excel statement
and opens it. A screenshot of the permit page is
saved under the test's tmp dir and, when ``TREECALC_SCREENSHOT_DIR`` is set,
there too (``TREECALC_SCREENSHOT_DIR=docs`` refreshes ``docs/permit_page.png``).

No browser is downloaded: Playwright launches ``/usr/bin/chromium`` (``.ci/run``
installs it with apt-get where missing). The test skips, saying so, only when
that binary cannot be found.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.browser_nav import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def streamlit_server(tmp_path: Path, env: dict[str, str] | None = None) -> Iterator[tuple[subprocess.Popen, str]]:
    """A ``streamlit run app.py`` on a free localhost port (with ``env`` if given): ``(process, url)``
    once ``/_stcore/health`` answers; killed at exit. Every browser test starts its server here."""
    port = _free_port()
    log = open(tmp_path / "streamlit.log", "wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "app.py"),
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"streamlit exited with {proc.returncode}: "
                    f"{(tmp_path / 'streamlit.log').read_text(errors='replace')[-2000:]}"
                )
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("streamlit did not become healthy within 60 s")
            time.sleep(0.3)
        yield proc, url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


@pytest.fixture(scope="session")
def app_servers(tmp_path_factory):
    """The ``streamlit run app.py`` servers of this test process (pytest-xdist: of this worker) that
    :func:`shared_server` started, by their environment; stopped at the end of the session."""
    with contextlib.ExitStack() as stack:
        yield {"stack": stack, "folders": tmp_path_factory, "by_env": {}}


def shared_server(app_servers: dict, env: dict[str, str]) -> str:
    """The URL of this process's ``streamlit run app.py`` with the environment ``env``, started at the first
    call with it (and again when it died). A test that needs a server of its own (one it restarts, stops,
    reads the log of, or one whose register or memory it must find empty) starts it with
    :func:`streamlit_server` instead.

    Tests that share a server share only what the app keeps for every visitor: a browser context of a test is
    another visitor, with its own session, uploads and reload tokens (``treecalc.app.state.cache_key``), and the
    register is the environment's, which servers started one after another shared already. Starting a server
    and its first run of the app took seconds of each test."""
    env = {k: v for k, v in env.items() if k != "PYTEST_CURRENT_TEST"}  # pytest's name of the running test
    key = tuple(sorted(env.items()))
    running = app_servers["by_env"].get(key)
    if running is None or running[0].poll() is not None or not _healthy(running[1]):
        folder = app_servers["folders"].mktemp("streamlit")
        running = app_servers["stack"].enter_context(streamlit_server(folder, env))
        app_servers["by_env"][key] = running
    return running[1]


@pytest.fixture
def server(app_servers):
    """The URL of a ``streamlit run app.py`` on a free localhost port, with this test's environment: one
    server per test process and environment (:func:`shared_server`)."""
    return shared_server(app_servers, dict(os.environ))


def _amount(text: str) -> float:
    m = re.search(r"-?[\d,]+(?:\.\d+)?", text)
    assert m, f"no number in {text!r}"
    return float(m.group(0).replace(",", ""))


@contextlib.contextmanager
def survey_page(browser, url: str, survey: Path, timeout_ms: float = 60_000) -> Iterator:
    """A page of a new context of ``browser`` (the ``chromium`` fixture) on the app at ``url`` with ``survey``
    uploaded; the context closed at exit."""
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    try:
        page.set_default_timeout(timeout_ms)
        page.goto(url)
        upload(page, survey)
        yield page
    finally:
        page.context.close()


def upload(page, path: Path) -> None:
    """Upload ``path`` on the Survey page (through the file chooser) and wait until the page shows it."""
    page.get_by_text("Showing").first.wait_for()
    with page.expect_file_chooser() as fc:
        page.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzone"] button').first.click()
    fc.value.set_files(str(path))
    page.get_by_text(f"Showing {path.name}").first.wait_for()


def _metric(page, label: str) -> str:
    metric = page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=label)
    )
    metric.first.wait_for(timeout=60_000)
    return metric.first.locator('[data-testid="stMetricValue"]').inner_text()


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Chromium not found at /usr/bin/chromium (.ci/run installs it with apt-get where apt is available)",
)
def test_upload_sample_and_read_permit_page(server, chromium, tmp_path):
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey
    from treecalc.reference.data import SAMPLE_SURVEY

    expected = assess(read_survey(SAMPLE_SURVEY))
    want_trees = float(expected.replacement.trees_needed)
    want_fund = float(expected.fund.fund_in_lieu_usd)

    with survey_page(chromium, server, SAMPLE_SURVEY) as page:
        page.get_by_text("uploaded.").first.wait_for()
        _metric(page, "Trees")

        page.locator('[data-testid="stSidebarNav"]').get_by_text("Permit & replacement").click()
        trees_text = _metric(page, "Replacement trees required")
        fund_text = _metric(page, "Payment in lieu to the Tree Preservation Fund")
        page.locator('[data-testid="stSpinner"]').wait_for(state="detached")
        assert page.locator('[data-testid="stException"]').count() == 0
        assert page.locator('[data-testid="stAlertContentError"]').count() == 0

        # the Excel statement of this assessment downloads and opens
        with page.expect_download() as dl:
            page.get_by_role("button", name="Excel statement").click()
        statement = tmp_path / "statement.xlsx"
        dl.value.save_as(str(statement))

        shot = tmp_path / "permit_page.png"
        # back to the top (the download scrolled the page), where the figures are
        page.locator('[data-testid="stMain"]').evaluate("el => el.scrollTo(0, 0)")
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        if out := os.environ.get("TREECALC_SCREENSHOT_DIR"):
            Path(out).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(out) / "permit_page.png")

    import openpyxl

    wb = openpyxl.load_workbook(statement, read_only=True)
    assert "Summary" in wb.sheetnames and "Replacement plan" in wb.sheetnames
    assert _amount(trees_text) == pytest.approx(want_trees)
    assert _amount(fund_text) == pytest.approx(want_fund, abs=0.005)
