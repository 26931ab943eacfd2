"""In Chromium: per-tree facts and reading at a glance, on surveys written here.

Items: a tree's facts edited where they are seen (the tree table, a tick per removal on the Permit page, a
flag the notes suggest); the figures in sight at 1,280 px; one total per figure; the site facts as a form
by law; the map's legend in words and its scale; the water account's two amounts owed and its refused rows;
the excavation's wall permit and one lot area; the phone's first screen; the first visit's next step.
Screenshots at 1,280 and 390 px go to ``TREECALC_SCREENSHOT_DIR`` when it is set (``docs``).
"""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.app.test_browser import _amount, _metric
from tests.app.test_browser_user_surveys import _download, _no_errors, _write
from tests.helpers import app_surveys as surveys
from tests.helpers.browser_nav import app_page, until_it_lands, wait_sidebar
from tests.helpers.browser_nav import nav as _nav
from tests.helpers.browser_nav import settle as _settle
from tests.helpers.browser_nav import upload as _upload

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


def test_tree_facts_are_edited_in_the_app_and_said_in_the_statement_and_project(server, chromium, tmp_path):
    expect = importlib.import_module("playwright.sync_api").expect
    field = _write(tmp_path, "old_post_rd_field_survey.xlsx", surveys.arborist_25())
    with app_page(chromium, server, field) as page:
        # the notes' "Street tree – Village ROW" offers the flag; taking it is a change made in the app
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
    import openpyxl

    ws = openpyxl.load_workbook(io.BytesIO(field_statement), read_only=True)["Summary"]
    said = " ".join(str(c) for r in ws.iter_rows(values_only=True) for c in r if c is not None)
    assert "Tree 117: street tree changed in the app to yes (the survey: no)" in said
    meta = json.loads(zipfile.ZipFile(io.BytesIO(project)).read("project.json"))
    assert '"tree_facts"' in json.dumps(meta) and '"117"' in json.dumps(meta)


def test_a_tick_per_tree_keeps_it_and_the_cost_follows(server, chromium, tmp_path):
    expect = importlib.import_module("playwright.sync_api").expect
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, server, survey, "Permit & replacement") as page:
        # the applicant's lever: a tick keeps a tree, and the cost is worked out again at once
        assert _metric(page, "Total out of pocket") == "$2,700.00"
        grid = page.locator('[data-testid="stDataFrame"]').filter(has_text="Keep it").first
        grid.wait_for()
        kept = page.get_by_text("1 of the 3 trees proposed for removal kept").first

        def tick() -> None:
            grid.scroll_into_view_if_needed()
            _cell_click(
                page, grid, 2, 73
            )  # D-3, the 12 in red oak: its "Keep it" box (the centre of the column, 147 px wide beside the "If kept" column)
            _settle(page)

        until_it_lands(tick, lambda: expect(kept).to_be_visible(timeout=15_000))
        # kept: two removals are left, and the replacement is owed on removals of three or more trees under
        # a permit (§208-22A, 90%): nothing to plant and nothing to pay, where $2,700.00 stood
        expect(page.get_by_text("No replacement is required").first).to_be_visible()
        assert page.locator('[data-testid="stMetricLabel"]', has_text="Total out of pocket").count() == 0
        statement = _download(page, "Excel statement")
        _no_errors(page)
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


def test_figures_in_sight_at_1280_one_total_and_the_site_form_by_law(server, chromium, tmp_path):
    expect = importlib.import_module("playwright.sync_api").expect
    survey = _write(tmp_path, "ridge_rd_slope_violation.xlsx", surveys.slope_violation_5())
    with app_page(chromium, server, survey) as page:
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
        expect(page.get_by_text(re.compile(r"^Not given: .* assumed ")).first).to_be_visible()  # in the law's words
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


# --- 11. the map ----------------------------------------------------------------------------------------


def test_map_legend_in_words_dead_trees_ringed_and_a_scale(server, chromium, tmp_path):
    expect = importlib.import_module("playwright.sync_api").expect
    survey = _write(tmp_path, "maple_st_mapped.csv", surveys.mapped_lot_csv())
    with app_page(chromium, server, survey, "Map") as page:
        page.get_by_text("4 trees placed").first.wait_for()
        legend = page.get_by_text("dot size: radius in proportion to DBH").first
        expect(legend).to_contain_text("removed (1)")
        expect(legend).to_contain_text("kept (3)")
        expect(legend).to_contain_text("ringed in black: dead (1)")
        page.locator('[data-testid="stRadio"]').get_by_text("Penalty tier").click()
        _settle(page)
        # M1, 24 in, removed without a permit: the tier over 12 in DBH, in words and with its maximum
        expect(page.get_by_text("dot size: radius in proportion to DBH").first).to_contain_text(
            "§208-29B(3): DBH over 12 in, up to $3,000 (1)"
        )
        page.locator('[data-testid="stDeckGlJsonChart"] canvas').first.wait_for()
        page.wait_for_timeout(1500)
        _shot(page, tmp_path, "map_page.png")
        _no_errors(page)


# --- 12. water and excavation ---------------------------------------------------------------------------


def test_water_amounts_owed_side_by_side(server, chromium, tmp_path):
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, server, survey, "Water bill") as page:
        due = page.locator('[data-testid="stMetric"]').filter(has_text="Total due").first
        owed = page.locator('[data-testid="stMetric"]').filter(has_text="Still owed on the tax bill").first
        for _ in range(20):  # the last layout of the row (a loaded machine draws the columns seconds apart)
            a, b = due.bounding_box(), owed.bounding_box()
            if abs(a["y"] - b["y"]) < 2 and abs(a["height"] - b["height"]) < 2:
                break
            page.wait_for_timeout(500)
        assert abs(a["y"] - b["y"]) < 2 and abs(a["height"] - b["height"]) < 2  # one row, the same size
        fa = due.locator('[data-testid="stMetricValue"]').evaluate("e => getComputedStyle(e).fontSize")
        fb = owed.locator('[data-testid="stMetricValue"]').evaluate("e => getComputedStyle(e).fontSize")
        assert fa == fb
        _no_errors(page)


def test_excavation_wall_permit_is_a_headline_and_one_lot_area(server, chromium, tmp_path):
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, server, survey, "Excavation") as page:
        wall = page.get_by_role("spinbutton", name="Retaining wall height (ft)")
        wall.fill("5")
        wall.press("Enter")
        _settle(page)
        # §120-8M: a wall over 4 ft needs a building permit; 5 ft is over
        assert _metric(page, "Building permit for the retaining wall (§120-8M)") == "Required"
        lot = page.get_by_role("spinbutton", name="Lot area (sq ft)")
        assert lot.count() == 1  # one lot area for the page's tabs
        lot.fill("20000")
        lot.press("Enter")
        _settle(page)
        page.get_by_role("tab", name="Volumes").click()
        page.wait_for_timeout(500)
        # the Volumes tab asks for no lot area of its own: the one given stays the page's only one
        assert page.locator('input[aria-label="Lot area (sq ft)"]').count() == 1  # every tab, shown or not
        body = page.locator('[data-testid="stMain"]').inner_text()
        assert "--lot-area" not in body and "--jurisdiction" not in body


# --- 13-14. the phone and the first visit ---------------------------------------------------------------


def test_phone_first_screen_has_the_total_and_the_sidebar_closes(server, chromium, tmp_path):
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, server, survey, width=390, height=844) as page:
        # a page chosen at once, while the upload's run is still going (a quick user, a loaded server):
        # the run that would have put the closing script in place is stopped by the click
        _nav(page, "Permit & replacement")
        # the sidebar closed over the page once a page was chosen (waited on its state: a loaded machine
        # can take seconds for its slide)
        assert wait_sidebar(page, "closed") == "closed"
        total = page.locator('[data-testid="stMetric"]').filter(has_text="Total out of pocket").first
        total.wait_for()
        page.locator('[data-testid="stMain"]').evaluate("el => el.scrollTo(0, 0)")
        b = total.bounding_box()
        assert b["y"] + b["height"] <= 844, b  # in the first screen
        # nothing over the figure: what is drawn at its centre is the page's own
        on_top = "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-testid=\"stMain\"]')"
        assert page.evaluate(on_top, [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2])
        assert total.locator('[data-testid="stMetricValue"]').inner_text() == "$2,700.00"
        _shot(page, tmp_path, "permit_page_phone.png")
        # the 20-year chart: its legend under the plot, the whole chart within the screen's width
        chart = page.locator('[data-testid="stVegaLiteChart"]').first
        chart.scroll_into_view_if_needed()
        page.wait_for_timeout(1000)
        cb = chart.bounding_box()
        assert cb["x"] >= 0 and cb["x"] + cb["width"] <= 390, cb
        _no_errors(page)
        _nav(page, "Survey")  # and again on a second page chosen, once the runs have settled
        assert wait_sidebar(page, "closed") == "closed"
        _shot(page, tmp_path, "survey_page_phone.png")


def test_first_visit_says_what_to_do_and_an_upload_the_next_step(server, chromium, tmp_path):
    expect = importlib.import_module("playwright.sync_api").expect
    survey = _write(tmp_path, "ridge_rd_slope_violation.xlsx", surveys.slope_violation_5())
    with app_page(chromium, server) as page:
        expect(page.get_by_text("What to do first.").first).to_be_visible()
        expect(page.get_by_text("explore the bundled sample survey").first).to_be_visible()
        _upload(page, survey)
        _settle(page)
        expect(page.get_by_text("Next step.").first).to_be_visible()
        for role in ("Applicant: Permit & replacement", "Arborist: Benefits", "Village Engineer: Violations"):
            expect(page.get_by_role("link", name=re.compile(role)).first).to_be_visible()
        page.get_by_role("link", name=re.compile("Village Engineer: Violations")).first.click()
        page.locator('[data-testid="stMain"] h1').filter(has_text="Violations").first.wait_for()
        _settle(page)
        assert _metric(page, "Civil penalty, maximum (USD, §208-29B)") == "$4,500.00"  # 3 x $1,500
