"""In Chromium, at 1,280 and 390 px, on surveys written here (tests/helpers/app_surveys.py): the next step one
click away. A plan's keeps applied by "Use this plan"; the PDF in one click; the columns read as a panel of
selects under the upload; the map fitting a phone, its tags on hover and its GeoPackage the library's; a shared
view opening on its page and saying so; the meter test's original bill and change."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.app.test_browser_user_surveys import _no_errors, _write
from tests.helpers import app_surveys as surveys
from tests.helpers.browser_nav import app_page, settle, wait_sidebar

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]

WIDTHS = [1280, 390]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One ``streamlit run app.py`` for the module, with a register (a view is shared into it)."""
    folder = tmp_path_factory.mktemp("next_step")
    env = {**os.environ, "TREECALC_DB": f"sqlite:///{folder / 'register.db'}"}
    with streamlit_server(folder, env) as (_p, url):
        yield url


def _height(width: int) -> int:
    return 844 if width == 390 else 1400


def _main(page):
    return page.locator('[data-testid="stMain"]')


def _sidebar(page):
    """The sidebar, opened when it is closed (a phone)."""
    if wait_sidebar(page) == "closed":
        page.locator('[data-testid="stExpandSidebarButton"]').first.click()
        wait_sidebar(page, "open")
    return page.locator('[data-testid="stSidebar"]')


def _within_width(box: dict, width: int) -> None:
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box


# --- 6. Use this plan -------------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_use_this_plan_keeps_its_trees_and_the_cost_follows(served, chromium, tmp_path, width):
    survey = _write(tmp_path, "lot_9_birch_ln.xlsx", surveys.keeps_8())
    with app_page(chromium, served, survey, "Permit & replacement", width=width, height=_height(width)) as page:
        # every proposed removal made: 4 under the permit, 3 red oaks counted: $2,700.00 (3 trees x $900)
        total = page.locator('[data-testid="stMetric"]').filter(has_text="Total out of pocket").first
        total.wait_for()
        assert total.locator('[data-testid="stMetricValue"]').inner_text() == "$2,700.00"
        _main(page).get_by_role("button", name="Find the cheapest plans").click()
        use = _main(page).get_by_role("button", name="Use this plan")
        use.nth(3).wait_for()
        assert use.count() == 4  # k = 0 to 3
        _within_width(use.nth(1).bounding_box(), width)
        use.nth(1).click()  # one optional removal: K-1 (must) and K-4 (invasive) go, K-2 and K-3 are kept
        _main(page).get_by_text("Plan used (1 optional, $0.00): kept K-2, K-3").first.wait_for()
        settle(page)
        # 2 trees under the permit (K-1, K-4), under §208-22A's 3: nothing to plant or pay
        _main(page).get_by_text("No replacement is required").first.wait_for()
        _main(page).get_by_text("2 of the 4 trees proposed for removal kept").first.wait_for()
        _no_errors(page)


# --- 7. one click per PDF ---------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [390])  # one click is one click at any width; a phone's hides the most
def test_the_pdf_downloads_in_one_click(served, chromium, tmp_path, width):
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, served, survey, "Permit & replacement", width=width, height=_height(width)) as page:
        button = _main(page).get_by_role("button", name="Applicant's permit report (PDF)", exact=True)
        button.scroll_into_view_if_needed()
        _within_width(button.bounding_box(), width)
        with page.expect_download() as dl:
            button.click()
        pdf = Path(dl.value.path()).read_bytes()
        assert pdf[:5] == b"%PDF-"
        assert dl.value.suggested_filename == "permit_report_d_lot_application.pdf"
        assert _main(page).get_by_role("button", name=re.compile("^Download the")).count() == 0  # no second button


# --- 8. the columns read, under the upload ---------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_columns_read_are_a_panel_of_selects_under_the_upload(served, chromium, tmp_path, width):
    survey = _write(tmp_path, "lot_3_gis_export.csv", surveys.mapped_lot_csv())
    with app_page(chromium, served, survey, width=width, height=_height(width)) as page:
        settle(page)
        head = _main(page).get_by_text("These columns were read as … (7 of 7 columns read)").first
        head.wait_for()
        upload = _main(page).locator('[data-testid="stFileUploader"]').first.bounding_box()
        assert head.bounding_box()["y"] > upload["y"]  # under the upload
        panel = _main(page).locator('[data-testid="stExpander"]').filter(has_text="These columns were read as").first
        _within_width(panel.bounding_box(), width)
        select = panel.get_by_label("Condition", exact=True)
        select.scroll_into_view_if_needed()
        _within_width(select.bounding_box(), width)
        select.click()
        page.keyboard.type("ignore")  # the list of fields is long: typed, it is filtered to the one
        page.get_by_role("option", name="ignore (not read)").click()
        _main(page).get_by_text("These columns were read as … (6 of 7 columns read)").first.wait_for()
        settle(page)
        _no_errors(page)


# --- 9. the map -------------------------------------------------------------------------------------------


def _assessed(path: Path):
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey

    return assess(read_survey(path))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_map_fits_the_screen_shows_tags_on_hover_and_downloads_the_librarys_geopackage(
    served, chromium, tmp_path, width
):
    from tests.app.test_map import _on_screen
    from treecalc.app import map as tree_map

    survey = _write(tmp_path, "maple_st_mapped.csv", surveys.mapped_lot_csv())
    with app_page(chromium, served, survey, "Map", width=width, height=_height(width)) as page:
        _main(page).get_by_text("4 trees placed").first.wait_for()
        chart = page.locator('[data-testid="stDeckGlJsonChart"]').first
        chart.locator("canvas").first.wait_for()
        page.wait_for_timeout(1500)
        box = chart.bounding_box()
        _within_width(box, width)
        # the first view as the page draws it for this survey: every tree and the scale label in the chart's box
        df, _ = tree_map.points(_assessed(survey).trees, {})
        where = _on_screen(tree_map.deck(df), df, box["width"], box["height"])
        assert len(where) == 6
        for name, (x, y) in where.items():
            assert 0 <= x <= box["width"] and 0 <= y <= box["height"], (name, x, y, box)
        # hover a tree where the view puts it: its tag shows
        x, y = where["M4"]
        page.mouse.move(box["x"] + x, box["y"] + y)
        tip = page.locator(".deck-tooltip")
        tip.wait_for()
        assert "Tree M4" in tip.inner_text()
        # the GeoPackage is the one the library writes (treecalc assess FILE --out trees.gpkg): the same rows
        button = _main(page).get_by_role("button", name="Trees as a GeoPackage")
        button.scroll_into_view_if_needed()
        _within_width(button.bounding_box(), width)
        with page.expect_download() as dl:
            button.click()
        got = tmp_path / "from_the_app.gpkg"
        dl.value.save_as(str(got))  # the browser's copy goes with the browser
        _no_errors(page)
    from treecalc.cli import main

    want = tmp_path / "trees.gpkg"
    assert main(["assess", str(survey), "--out", str(want)]) == 0
    app, cli = _rows(got), _rows(want)
    assert len(app["trees"]) == 4 and app == cli
    # the fingerprint names the same survey; the law's data files it lists are those the process had read so far
    # (the app's server had read the water chapter's too)
    assert json.loads(_fingerprint(got))["survey"] == json.loads(_fingerprint(want))["survey"]


def _rows(path: Path) -> dict[str, list[tuple]]:
    """The rows of a GeoPackage's layers (trees with their geometry, the summary but its fingerprint), read with
    sqlite3."""
    with sqlite3.connect(path) as db:
        names = [r[0] for r in db.execute("SELECT table_name FROM gpkg_contents ORDER BY table_name")]
        rows = {n: sorted(db.execute(f'SELECT * FROM "{n}"').fetchall(), key=repr) for n in names}
    rows["summary"] = [r for r in rows["summary"] if "fingerprint" not in r]
    return rows


def _fingerprint(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return str(db.execute("SELECT value FROM summary WHERE name = 'fingerprint'").fetchone()[0])


# --- 10. a shared view ------------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [390])  # the link and its banner do not change with the width
def test_a_view_shared_from_the_permit_page_opens_there_and_says_shared_view(served, chromium, tmp_path, width):
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, served, survey, "Permit & replacement", width=width, height=_height(width)) as page:
        side = _sidebar(page)
        side.get_by_text("Share this view").click()
        code = side.locator("code").filter(has_text="?link=")
        for _ in range(3):  # a click landing during a rerun is dropped by Streamlit: click again
            side.get_by_role("button", name="Make a link").click()
            try:
                code.first.wait_for(timeout=20_000)
                break
            except Exception:  # noqa: BLE001
                continue
        address = code.first.inner_text().strip()
        assert re.fullmatch(re.escape(served) + r"/permit\?link=[\w-]+", address), address
        # another browser (its own cookies) opens the address
        other = page.context.browser.new_context(viewport={"width": width, "height": _height(width)})
        try:
            theirs = other.new_page()
            theirs.set_default_timeout(90_000)
            theirs.goto(address)
            theirs.locator('[data-testid="stMain"] h1').filter(has_text="Permit").first.wait_for()
            side = _sidebar(theirs)
            side.get_by_text("Shared view of", exact=False).first.wait_for()  # drawn once the page has run
            said = side.inner_text()
            assert "Shared view of d_lot_application.xlsx" in said and "(uploaded)" not in said, said
        finally:
            other.close()


# --- 11. the meter test -----------------------------------------------------------------------------------


def _number(page, label: str, value: str) -> None:
    box = _main(page).get_by_label(label, exact=True)
    box.fill(value)
    box.press("Enter")
    settle(page)


@pytest.mark.parametrize("width", [1280])  # the bill's figures do not change with the width
def test_the_meter_test_shows_the_original_bill_and_the_change(served, chromium, tmp_path, width):
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, served, survey, "Water bill", width=width, height=_height(width)) as page:
        _number(page, "Billed consumption, tested period", "18400")
        _number(page, "Registration error, first flow rate (%)", "3.5")
        more = _main(page).get_by_label("Other flow-rate results (%)", exact=True)
        more.fill("2.9")
        more.press("Enter")
        settle(page)
        _number(page, "Water rate (USD per unit), optional", "0.0125")
        table = _main(page).locator('[data-testid="stTable"]').filter(has_text="Change in the bill").first
        table.scroll_into_view_if_needed()
        _within_width(table.bounding_box(), width)
        text = " ".join(table.inner_text().split())
        # (3.5 + 2.9) / 2 = 3.2 % > 1.5 %: 18,400 / 1.032 = 17,829.46 (-570.54); $230.00 -> $222.87, -$7.13
        for want in (
            "Consumption billed 18,400.00",
            "Corrected consumption 17,829.46",
            "Change in consumption -570.54",
            "Original bill (at $0.0125 per unit) $230.00",
            "Corrected bill $222.87",
            "Change in the bill -$7.13",
        ):
            assert want in text, text
        _no_errors(page)
