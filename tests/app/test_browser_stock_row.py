"""In Chromium: a replacement stock row begun on the Permit page without its species reaches the app and is
refused by name, never dropped from the cheapest plan.

Why in a browser: Streamlit's grid holds back a new row whose ``required`` cell is empty (it never reaches
the app), so a headless test that sets the table's state directly cannot see a row the browser drops.
"""

from __future__ import annotations

import importlib

import pytest

from tests.app.test_browser_rows_and_areas import _leave
from tests.app.test_browser_user_surveys import _write
from tests.helpers import app_surveys as surveys
from tests.helpers.browser_nav import app_page, until_it_lands
from tests.helpers.browser_nav import nav as _nav
from tests.helpers.browser_nav import settle as _settle

pytestmark = [pytest.mark.slow]


def test_a_stock_row_without_its_species_is_refused_in_the_browser(server, chromium, tmp_path):
    expect = importlib.import_module("playwright.sync_api").expect
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, server, survey, "Permit & replacement") as page:
        page.locator('[data-testid="stRadio"]').get_by_text("A stock list").click()
        _settle(page)
        grid = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').filter(has_text="Unit cost")
        grid = grid.first
        refused = page.get_by_text("Replacement stock, row 2: no species").first

        def new_row() -> None:
            grid.scroll_into_view_if_needed()
            box = grid.bounding_box()
            # the row after the table's one row: a new row, its DBH and unit cost filled by their defaults,
            # its species not chosen
            page.mouse.click(box["x"] + 60, box["y"] + 35 + 35 + 17)
            page.keyboard.press("Escape")
            _leave(page)

        # (clicked again only while no row came: on a row already added a click only selects it)
        until_it_lands(new_row, lambda: expect(refused).to_be_visible(timeout=15_000))
        main = page.locator('[data-testid="stMain"]')
        # no plan and no cost that leave the row out
        assert main.locator('[data-testid="stMetric"]').filter(has_text="Total out of pocket").count() == 0


def test_the_permit_page_says_its_law_once_and_names_its_controls_without_sending_you_to_itself(
    server, chromium, tmp_path
):
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    with app_page(chromium, server, survey) as page:
        for title in ("Permit & replacement", "Violations & penalties", "Fund & fee schedule"):
            _nav(page, title)
            main = page.locator('[data-testid="stMain"]')
            main.get_by_text("Assessed under").first.wait_for()
            text = main.inner_text()
            assert text.count("Assessed under") == 1 and "Law applied" not in text, title
            here = title.split()[0]
            assert f"on the {here} page" not in text, (title, text)
