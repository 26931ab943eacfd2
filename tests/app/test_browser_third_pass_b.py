"""In Chromium: the app's third pass, per-tree facts and reading at a glance, on surveys written here.

Items: a tree's facts edited where they are seen (the tree table, a tick per removal on the Permit page, a
flag the notes suggest); the figures in sight at 1,280 px; one total per figure; the site facts as a form
by law; the map's legend in words and its scale; the water account's two amounts owed and its refused rows;
the excavation's wall permit and one lot area; the phone's first screen; the first visit's next step.
Screenshots at 1,280 and 390 px go to ``TREECALC_SCREENSHOT_DIR`` when it is set (``docs``).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.app import third_pass_surveys as surveys
from tests.app.test_browser import _amount, _metric
from tests.app.test_browser_third_pass import _download, _nav, _no_errors, _open, _settle, _upload, _write

pytestmark = [pytest.mark.slow]


def _shot(page, tmp_path: Path, name: str) -> None:
    """A screenshot of the page's first screen, kept in the test's tmp dir and, when asked, in docs/."""
    page.locator('[data-testid="stMain"]').evaluate("el => el.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    shot = tmp_path / name
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 5_000
    if out := os.environ.get("TREECALC_SCREENSHOT_DIR"):
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(out) / name)


def _cell_click(page, grid, row: int, col_x: float) -> None:
    """Click a cell of a data editor (a canvas): ``row`` 0 is the first data row, ``col_x`` px from its left."""
    box = grid.bounding_box()
    page.mouse.click(box["x"] + col_x, box["y"] + 35 * (row + 1) + 17)


# --- 7. a tree's facts where they are seen --------------------------------------------------------------


def test_tree_facts_are_edited_in_the_app_and_said_in_the_statement_and_project(server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    expect = sync_api.expect
    field = _write(tmp_path, "old_post_rd_field_survey.xlsx", surveys.arborist_25())
    with sync_api.sync_playwright() as p:
        browser, page = _open(p, server)
        try:
            # the notes' "Street tree – Village ROW" offers the flag; taking it is a change made in the app
            _upload(page, field)
            _settle(page)
            expect(page.get_by_text("Tree 117's notes say “Street tree – Village ROW”").first).to_be_visible()
            page.get_by_role("button", name="Mark tree 117 a street tree").click()
            _settle(page)
            expect(page.get_by_text("1 tree(s) changed in the app").first).to_be_visible()
            field_statement = _download(page, "Excel statement")
            with page.expect_download() as dl:
                page.locator('[data-testid="stSidebar"]').get_by_text("Project").first.click()
                page.get_by_role("button", name="Save project").click()
            project = Path(dl.value.path()).read_bytes()
            _no_errors(page)
        finally:
            browser.close()
    import openpyxl

    ws = openpyxl.load_workbook(io.BytesIO(field_statement), read_only=True)["Summary"]
    said = " ".join(str(c) for r in ws.iter_rows(values_only=True) for c in r if c is not None)
    assert "Tree 117: street tree changed in the app to yes (the survey: no)" in said
    meta = json.loads(zipfile.ZipFile(io.BytesIO(project)).read("project.json"))
    assert '"tree_facts"' in json.dumps(meta) and '"117"' in json.dumps(meta)


def test_a_tick_per_tree_keeps_it_and_the_cost_follows(server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    expect = sync_api.expect
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with sync_api.sync_playwright() as p:
        browser, page = _open(p, server)
        try:
            # the applicant's lever: a tick keeps a tree, and the cost is worked out again at once
            _upload(page, survey)
            _nav(page, "Permit & replacement")
            assert _metric(page, "Total out of pocket") == "$2,700.00"
            grid = page.locator('[data-testid="stDataFrame"]').filter(has_text="Keep it").first
            grid.wait_for()
            grid.scroll_into_view_if_needed()
            _cell_click(page, grid, 2, 85)  # D-3, the 12 in red oak: its "Keep it" box (the column's centre)
            _settle(page)
            # kept: two removals are left, and the replacement is owed on removals of three or more trees under
            # a permit (§208-22A, 90%): nothing to plant and nothing to pay, where $2,700.00 stood
            expect(page.get_by_text("1 of the 3 trees proposed for removal kept").first).to_be_visible()
            expect(page.get_by_text("No replacement is required").first).to_be_visible()
            assert page.locator('[data-testid="stMetricLabel"]', has_text="Total out of pocket").count() == 0
            statement = _download(page, "Excel statement")
            _no_errors(page)
        finally:
            browser.close()
    import openpyxl

    ws = openpyxl.load_workbook(io.BytesIO(statement), read_only=True)["Summary"]
    said = " ".join(str(c) for r in ws.iter_rows(values_only=True) for c in r if c is not None)
    assert "Tree D-3: action changed in the app to retain (the survey: remove)" in said


# --- 8-10. reading at a glance --------------------------------------------------------------------------


def _header_texts(page, grid) -> list[str]:
    """The column headers a data grid shows in sight (its canvas draws them; the accessible table lists them)."""
    return grid.locator('[role="columnheader"]').all_inner_texts()


def _in_sight(page, grid, names: list[str]) -> None:
    """The grid's first columns are ``names``, in order (the accessible table the canvas keeps lists them):
    at its left, where the grid starts, they are in sight at 1,280 px without scrolling sideways."""
    grid.locator('[role="columnheader"]').first.wait_for(state="attached")
    texts = grid.locator('[role="columnheader"]').evaluate_all("els => els.map(e => e.textContent)")
    heads = [t.strip() for t in texts if t and t.strip()]
    assert len(heads) >= len(names), heads
    for n, h in zip(names, heads):
        assert h.startswith(n), (names, heads)


def test_figures_in_sight_at_1280_one_total_and_the_site_form_by_law(server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    expect = sync_api.expect
    survey = _write(tmp_path, "ridge_rd_slope_violation.xlsx", surveys.slope_violation_5())
    with sync_api.sync_playwright() as p:
        browser, page = _open(p, server, 1280)
        try:
            _upload(page, survey)
            _settle(page)
            expect(page.get_by_text("Assessed under").first).to_contain_text("Croton-on-Hudson")
            grid = page.locator('[data-testid="stDataFrame"]').first
            _in_sight(page, grid, ["Tag", "Species", "DBH", "Action"])
            _shot(page, tmp_path, "survey_page.png")
            # the site facts: a form in plain words, by the law that reads them, each with its reason
            page.get_by_role("tab", name="Site facts").click()
            expect(page.get_by_text("Read by Croton-on-Hudson Chapter 208 (trees)").first).to_be_visible()
            expect(page.get_by_text("Read by Wesley Hills Chapter 95").first).to_be_visible()
            expect(page.get_by_text("From the Site sheet.").first).to_be_visible()
            expect(page.get_by_text(re.compile(r"^Not given: assumed (yes|no), because")).first).to_be_visible()
            body = page.locator('[data-testid="stMain"]').inner_text()
            assert "has_residence" not in body and "--site" not in body
            _nav(page, "Violations & penalties")
            grid = page.locator('[data-testid="stDataFrame"]').filter(has_text="Tag").first
            _in_sight(page, grid, ["Tag", "Penalty tier", "Base", "Maximum", "Criminal"])
            _shot(page, tmp_path, "violations_page.png")
            _nav(page, "Permit & replacement")
            grid = page.locator('[data-testid="stDataFrame"]').filter(has_text="Permit needed").first
            _in_sight(page, grid, ["Tag", "Species", "DBH", "Value"])
            _shot(page, tmp_path, "permit_page.png")
            _nav(page, "Benefits")
            # one figure: the page's total is each tree's value to the cent, summed, the same as on the basis
            total = _amount(_metric(page, "Total (USD/yr)"))
            basis = _amount(_metric(page, "All trees on this basis (USD/yr)"))
            assert total == basis
            _shot(page, tmp_path, "benefits_page.png")
            _no_errors(page)
        finally:
            browser.close()
