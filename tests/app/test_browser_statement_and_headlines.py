"""In Chromium (Playwright, ``/usr/bin/chromium``): what is downloaded is what is shown; headlines fit.

* Upload a survey that is not the sample (written here), change an option on the Permit page,
  download the Excel statement, open it, and compare its Summary (survey name, payment in lieu,
  trees in lieu) with the page.
* At 1,100 px and at a phone's 390 px, no headline figure is cut off: each metric value's text
  is the full figure or its compact form (``$2.57M``, the exact figure then in the help), and
  neither the value nor its label overflows (``scrollWidth`` <= ``clientWidth``: nothing hidden
  behind an ellipsis).

Uses the ``server`` fixture of ``test_browser.py`` (``streamlit run app.py`` on a free port).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from tests.app.test_app_downloads_and_roles import BLOB
from tests.app.test_browser import CHROMIUM, _amount, _metric
from tests.helpers.browser_nav import app_page, click_sidebar_page

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")


def _settle(page) -> None:
    """Let the rerun finish: no spinner, then a moment for the last elements."""
    page.wait_for_timeout(300)
    page.locator('[data-testid="stSpinner"]').wait_for(state="detached")
    page.wait_for_timeout(800)


def _summary(path: Path) -> tuple[str, dict[str, object]]:
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True)
    rows = [r for r in wb["Summary"].iter_rows(values_only=True)]
    title = " ".join(str(c) for c in rows[0] if c is not None)
    items = {str(r[1]): r[2] for r in rows if len(r) >= 3 and r[1] is not None}
    return title, items


def test_statement_download_is_the_upload_and_options_on_screen(server, chromium, tmp_path):
    sync_api = importlib.import_module("playwright.sync_api")
    survey = tmp_path / "oaks_on_the_hill.xlsx"
    survey.write_bytes(BLOB)
    with app_page(chromium, server, survey, width=1400, height=1600) as page:
        page.locator('[data-testid="stSidebarNav"]').get_by_text("Permit & replacement").click()
        _metric(page, "Replacement trees required")
        # the option: the site can take a number of trees (0 until given): every tree is paid in lieu
        page.get_by_text("A number of trees").first.click()
        page.get_by_label("Trees the site can take").wait_for()
        _settle(page)
        lieu = page.locator('[data-testid="stMetric"]').filter(
            has=page.locator('[data-testid="stMetricLabel"]', has_text="Trees paid in lieu (trees, §208-22D)")
        )
        sync_api.expect(lieu.first.locator('[data-testid="stMetricValue"]')).to_have_text("8", timeout=60_000)
        fund_text = _metric(page, "Payment in lieu to the Tree Preservation Fund (USD, §208-24)")
        lieu_text = _metric(page, "Trees paid in lieu (trees, §208-22D)")
        with page.expect_download() as dl:
            page.get_by_role("button", name="Excel statement").click()
        got = tmp_path / "statement.xlsx"
        dl.value.save_as(str(got))
    title, items = _summary(got)
    assert survey.name in title, title  # the upload, not the bundled sample
    # 3 oaks removed without a permit: 8 red maples needed (worked by hand in test_app_downloads_and_roles: 467.18 /
    # 64.68 = 7.22 at $0.008/gal stormwater); none planted, 8 x $450 placeholder fee = $3,600
    assert _amount(lieu_text) == 8 == items["Trees not planted (in lieu)"]
    assert _amount(fund_text) == 3600 == float(items["Payment in lieu to the Tree Preservation Fund"])


FIGURE = re.compile(r"^-?\$[\d,]+(\.\d\d)?$|^-?\$\d+(\.\d+)?[KMBT]$|^[\d,]+%?$|^Yes$|^No$|^None$|^—$")


def _headlines(page) -> list[dict]:
    """Each metric's value text, and whether its value or its label overflows (is cut off)."""
    return page.locator('[data-testid="stMetric"]').evaluate_all(
        """els => els.map(m => {
            const cut = sel => [...m.querySelectorAll(sel)].some(
                e => [e, ...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1));
            const v = m.querySelector('[data-testid="stMetricValue"]');
            return {text: v.innerText.trim(), over: cut('[data-testid="stMetricValue"]'),
                    label_cut: cut('[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"]'),
                    label: m.querySelector('[data-testid="stMetricLabel"]').innerText.trim()};
        })"""
    )


@pytest.mark.parametrize("width", [1100, 390])
def test_no_headline_is_cut_off(server, chromium, tmp_path, width):
    from benchmarks.app_permit_update import make_survey

    survey = tmp_path / "village_2000.xlsx"  # big enough for seven-figure sums
    survey.write_bytes(make_survey(2000))
    with app_page(chromium, server, survey, width=width, height=1600) as page:
        seen = []
        for name in ("Benefits", "Permit & replacement", "Violations & penalties", "Fund & fee schedule"):
            click_sidebar_page(page, name)  # a phone: opens the collapsed sidebar first
            page.locator('[data-testid="stMetricValue"]').first.wait_for()
            _settle(page)
            for h in _headlines(page):
                seen.append((name, h["text"]))
                assert FIGURE.match(h["text"]), (name, h["text"])  # a whole figure, no "…"
                assert not h["over"], (name, width, h["text"])
                assert not h["label_cut"], (name, width, h["label"])
    assert any(re.search(r"\d[KM]$", t) for _, t in seen), seen  # the big sums are shown compact


def test_the_water_pages_headlines_show_whole_at_1100_px(server, chromium, tmp_path):
    # the relevy date, a fourth metric in its row, showed "2026-0…" at 1,100 px: its text 166 px in a 148 px box
    with app_page(chromium, server, None, "Water bill", width=1100, height=1400) as page:
        page.locator('[data-testid="stMetric"]').filter(has_text="Relevy date").first.wait_for()
        _settle(page)
        heads = _headlines(page)
        assert len(heads) >= 7, heads  # the amounts owed, the three outstanding figures and the relevy date
        for h in heads:
            assert not h["over"] and not h["label_cut"], h
        # the page's bill of $300.00 due 2026-01-15, unpaid: relevied on the law's 15 April (§223-12F(2)),
        # 2026-04-15, the first 15 April more than 60 days after the due date (90 days)
        relevy = [h["text"] for h in heads if h["label"] == "Relevy date"]
        assert relevy == ["2026-04-15"]


def test_the_permit_names_its_value_basis_beside_its_total(server, chromium, tmp_path):
    # the basis was named 869 px below the total, after the card's levers and the table of trees to keep
    survey = tmp_path / "oaks_on_the_hill.xlsx"
    survey.write_bytes(BLOB)
    with app_page(chromium, server, survey, "Permit & replacement", width=1100, height=1400) as page:
        total = page.locator('[data-testid="stMetric"]').filter(has_text="Total out of pocket").first
        total.wait_for()
        _settle(page)
        basis = page.locator('[data-testid="stCaptionContainer"]').filter(has_text="Value basis:")
        assert basis.count() == 1  # said once, by the answer
        assert basis.first.inner_text().startswith("Value basis: ")
        box, b = total.bounding_box(), basis.first.bounding_box()
        assert 0 <= b["y"] - (box["y"] + box["height"]) < 120, (box, b)  # right under the total's row
        # in the answer's own box: the smallest block holding the total and the card's title holds the basis too
        card = total.evaluate(
            """e => { let a = e.parentElement;
                      while (a && !a.innerText.includes('What will this permit cost me?')) a = a.parentElement;
                      return a ? a.innerText : ''; }"""
        )
        assert "Value basis: " in card and "it changes the figures on this page" not in card  # not the radio below
