"""In Chromium (Playwright): the tree map without network tiles, the PDF report download, and projects.

Driven like ``test_browser.py``: ``streamlit run app.py`` on a free port and Debian's ``/usr/bin/chromium``.
The server gets ``tests/app/coords`` on PYTHONPATH: its ``sitecustomize`` lets a CSV survey's
Latitude/Longitude columns reach the trees frame until the survey reader (issue 13) reads them itself.
Every request the page makes to a host other than the app is refused and recorded: the map must
draw its trees without any.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.app.test_browser import shared_server
from tests.helpers.browser_nav import CHROMIUM, settle

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]

SURVEY = (
    b"Tag,Species,DBH (in),Action,Latitude,Longitude\n"
    b"1,Red mapel,12,remove,41.2000,-73.9000\n2,Pin oak,14,remove,41.2002,-73.9003\n"
    b"3,Red maple,8,retain,41.2004,-73.9001\n4,Red maple,9,remove,41.2001,-73.9006\n"
    b"5,Red maple,10,removed,41.2005,-73.9004\n"
)
NAME = "Birch Lane lot 12.csv"


@pytest.fixture
def server(app_servers):
    """The app served with the coordinates stand-in on its path (``tests/app/coords``), one server for the
    process's tests (:func:`tests.app.test_browser.shared_server`)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).parent / "coords"), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    }
    return shared_server(app_servers, env)


def _page(browser, server, outside: list[str]):
    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    page.set_default_timeout(90_000)
    host = urllib.parse.urlparse(server).netloc

    def route(r):
        if urllib.parse.urlparse(r.request.url).netloc == host or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    return page


def _upload(page, tmp_path, name: str = NAME, data: bytes = SURVEY) -> None:
    f = tmp_path / name
    f.write_bytes(data)
    page.get_by_text("Showing").first.wait_for()
    with page.expect_file_chooser() as fc:
        page.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzone"] button').first.click()
    fc.value.set_files(str(f))
    page.get_by_text(f"Showing {name}").first.wait_for()


def _nav(page, title: str) -> None:
    page.locator('[data-testid="stSidebarNav"]').get_by_text(title, exact=True).click()


def _no_errors(page) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0


def test_map_draws_the_trees_without_network_tiles(server, chromium, tmp_path):
    from PIL import Image

    from treecalc.app.map import PALETTE

    outside: list[str] = []
    page = _page(chromium, server, outside)
    page.goto(server)
    _upload(page, tmp_path)
    _nav(page, "Map")
    page.get_by_text("5 trees placed").first.wait_for()
    chart = page.locator('[data-testid="stDeckGlJsonChart"]')
    chart.locator("canvas").first.wait_for()
    _no_errors(page)
    time.sleep(2)  # let deck.gl draw its first frame
    shot = tmp_path / "map.png"
    chart.screenshot(path=str(shot))
    img = Image.open(shot).convert("RGB")
    # the trees layer drew: pixels in the action colours (remove, removed; retain is grey)
    px = list(img.get_flattened_data()) if hasattr(img, "get_flattened_data") else list(img.getdata())
    near = {c: sum(1 for p in px if all(abs(p[i] - c[i]) <= 12 for i in range(3))) for c in PALETTE[:2]}
    assert all(n > 20 for n in near.values()), near
    # hover the one tree already removed (tag 5, orange): its tag, species, DBH and value show
    orange = [
        (i % img.width, i // img.width)
        for i, p in enumerate(px)
        if all(abs(p[k] - PALETTE[1][k]) <= 12 for k in range(3))
    ]
    x, y = orange[len(orange) // 2]
    box = chart.bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + y)
    tip = page.locator(".deck-tooltip")
    tip.wait_for()
    assert "Tree 5" in tip.inner_text() and "Red maple (ACRU)" in tip.inner_text() and "DBH 10 in" in tip.inner_text()
    # nothing was asked of another host: no tile, no map style, and the page icon is drawn locally
    assert outside == [], outside


def _pdf_text(data: bytes) -> str:
    pypdf = importlib.import_module("pypdf")
    assert data[:5] == b"%PDF-"
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages)


def test_pdf_download_is_the_report_of_the_upload(server, chromium, tmp_path):
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey
    from treecalc.report import plain_answer, report_data

    want = plain_answer(report_data(assess(read_survey(io.BytesIO(SURVEY), filename=NAME)), NAME))["total_usd"]
    outside: list[str] = []
    page = _page(chromium, server, outside)
    page.goto(server)
    _upload(page, tmp_path)
    _nav(page, "Permit & replacement")
    button = page.get_by_role("button", name="Applicant's permit report (PDF)", exact=True)
    button.wait_for()
    _no_errors(page)
    with page.expect_download() as dl:
        button.click()
    out = tmp_path / "report.pdf"
    dl.value.save_as(str(out))
    text = _pdf_text(out.read_bytes())
    assert f"Survey: {NAME}" in text
    assert f"Total out of pocket: ${want:,.2f}" in text


def test_project_save_reload_open_restores_correction_and_site_facts(server, chromium, tmp_path):
    outside: list[str] = []
    page = _page(chromium, server, outside)
    page.goto(server)
    _upload(page, tmp_path)
    # a species correction and a site fact, as a link carries them (the URL's query parameters)
    page.get_by_text("Survey:").first.wait_for()
    page.wait_for_function("() => new URLSearchParams(location.search).has('resume')")
    q = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    link = f"{server}/?" + urllib.parse.urlencode(
        {
            "resume": q["resume"][0],
            "read": json.dumps({"site": {"prior_removals_12mo": "2"}}),
            "opts": json.dumps({"species_fix": {"2": "QURU"}}),
        }
    )
    page.goto(link)
    page.get_by_text("1 species corrected by you").first.wait_for(state="attached")  # in the Species tab

    # save the project
    page.locator('[data-testid="stSidebar"]').get_by_text("Project", exact=True).click()
    with page.expect_download() as dl:
        page.get_by_role("button", name="Save project").click()
    project = tmp_path / "lot12.treecalc.zip"
    dl.value.save_as(str(project))

    # a reload keeps the work (restored from the URL)
    page.reload()
    page.get_by_text("1 species corrected by you").first.wait_for(state="attached")  # in the Species tab
    _nav(page, "Permit & replacement")
    page.get_by_text("including 2 earlier").first.wait_for()  # the site fact prior_removals_12mo = 2

    # a fresh start (no URL state): the sample; then Open project restores everything
    page.goto(server)
    page.get_by_text("Showing sample_survey.xlsx").first.wait_for()
    page.locator('[data-testid="stSidebar"]').get_by_text("Project", exact=True).click()
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    browse = page.locator('[data-testid="stSidebar"] [data-testid="stFileUploaderDropzone"] button').first
    # a click landing while the sidebar reruns opens no chooser: click again (three tries, then fail)
    for attempt in range(3):
        settle(page)
        try:
            with page.expect_file_chooser(timeout=20_000) as fc:
                browse.click()
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    fc.value.set_files(str(project))
    page.get_by_text(f"Survey: {NAME}").first.wait_for()
    page.get_by_text("1 species corrected by you").first.wait_for(state="attached")  # in the Species tab
    _nav(page, "Permit & replacement")
    page.get_by_text("including 2 earlier").first.wait_for()
    _no_errors(page)
