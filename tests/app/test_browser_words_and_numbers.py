"""In Chromium, at a desktop's 1,280 px and a phone's 390 px: the pages speak the user's words and write their numbers
one way, on surveys users send (not the bundled sample: a developer's application and a steep-slope violation in
Croton-on-Hudson, a Wesley Hills lot; ``tests/helpers/app_surveys.py``).

* no field name of the code, raw cell or unseparated amount in any page's visible text (the field names read from
  the code and the data: :mod:`tests.helpers.plain_words`), nor in the "All penalty figures" table;
* the dollar tiles of a row in one format (all in full, or all compact), the exact figure in each tile's help;
* the §208-22F alternative payment says its basis (120% of the appraised value) beside annual benefits;
* the Permit page's placeholders fit their boxes; under Wesley Hills its own site facts come first.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from tests.app.test_browser import CHROMIUM
from tests.helpers import app_surveys as surveys
from tests.helpers.browser_nav import app_page, nav, settle
from tests.helpers.plain_words import field_names, problems

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]

WIDTHS = (1280, 390)
PAGES = ("Survey", "Benefits", "Map", "Permit & replacement", "Violations & penalties", "Fund & fee schedule")


def _write(tmp_path: Path, name: str, blob: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(blob)
    return p


def _names(path: Path) -> set[str]:
    """The field names of the code and of this survey's assessment (its JSON's keys)."""
    from treecalc import assess, read_survey
    from treecalc.report import report_data

    return field_names(report_data(assess(read_survey(path)), path.name))


def _drawn(page) -> None:
    """Wait until the page's body is drawn (a page's title comes before its assessment), and the rerun is over."""
    page.wait_for_function(
        """() => (document.querySelector('[data-testid="stMain"]')?.innerText || "").length > 400""", timeout=120_000
    )
    settle(page)


def _main_text(page) -> str:
    """The page's visible text, its expanders opened (a collapsed one's content is not drawn)."""
    _drawn(page)
    page.evaluate(  # those in sight: an expander in a tab not chosen stays closed
        """() => document.querySelectorAll('[data-testid="stMain"] [data-testid="stExpander"] details:not([open])')
             .forEach(d => { if (d.offsetParent !== null) d.querySelector("summary").click(); })"""
    )
    page.wait_for_timeout(800)
    return page.locator('[data-testid="stMain"]').inner_text()


#: each row of dollar tiles: the values of the metrics in one horizontal block's own columns, with their help
_TILE_ROWS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stHorizontalBlock"]')].map(
  row => [...row.querySelectorAll('[data-testid="stMetricValue"]')]
    .filter(v => v.closest('[data-testid="stHorizontalBlock"]') === row)
    .map(v => v.innerText.trim()).filter(v => v.includes("$")))
  .filter(r => r.length > 1)"""


def _tiles_one_format(page) -> list[list[str]]:
    rows = page.evaluate(_TILE_ROWS)
    for r in rows:
        compact = [bool(re.search(r"\$[\d.]+[KMBT]$", v)) for v in r]
        assert all(compact) or not any(compact), f"a row of tiles in two formats: {r}"
    return rows


# the rows of dollar tiles change format with the width (the violation's pages have them); the words do not, so the
# Wesley Hills lot is read once, at a phone's width, where every element is in sight in one column
@pytest.mark.parametrize(
    ("survey", "width"), [("slope_violation_5", 1280), ("slope_violation_5", 390), ("wesley_hills_lot", 390)]
)
def test_every_page_says_no_field_name_no_raw_cell_and_one_format_per_row(server, chromium, tmp_path, width, survey):
    path = _write(tmp_path, f"{survey}.xlsx", getattr(surveys, survey)())
    names = _names(path)
    assert "has_residence" in names and "within_20ft_of_lot_line" in names  # read from the code, not empty
    seen, rows = [], []
    with app_page(chromium, server, path, width=width) as page:
        for title in PAGES:
            nav(page, title)
            text = _main_text(page)
            assert len(text) > 200, (title, text)
            seen.append(title)
            found = problems(text.splitlines(), names)
            assert not found, f"{title} at {width} px:\n" + "\n".join(found[:30])
            rows += _tiles_one_format(page)
    assert seen == list(PAGES)
    if survey == "slope_violation_5":
        assert rows  # the Permit, Violations and Benefits pages have rows of dollar tiles


@pytest.mark.parametrize("width", [390])  # the label's words are the same at any width; a phone's is the narrowest
def test_alternative_payment_says_its_basis(server, chromium, tmp_path, width):
    # three red oaks (10, 11, 12 in) removed on a steep slope without a permit: a violation, so §208-22F applies
    path = _write(tmp_path, "slope_violation_5.xlsx", surveys.slope_violation_5())
    with app_page(chromium, server, path, "Violations & penalties", width=width) as page:
        _drawn(page)
        label = page.locator('[data-testid="stMetricLabel"]', has_text="Or pay instead of replacing").first
        # 120 is data/law's replacement.violation_percent; the default fee schedule's capital basis is "appraised"
        assert "120% of the appraised value" in label.inner_text(), label.inner_text()
        assert "annual" not in label.inner_text()


def test_all_penalty_figures_are_written_by_their_schema():
    """The "All penalty figures" table as the Violations page draws it (Streamlit AppTest: a grid's cells are drawn
    on a canvas, not in the page's text): no raw cell, money with separators and cents, yes/no."""
    from tests.helpers.headless import new_app, no_exception
    from treecalc.app import state

    at = new_app()
    at.session_state["tc_source"] = state.make_source("slope_violation_5.xlsx", surveys.slope_violation_5())
    at.run()
    at.switch_page("treecalc/app/pages/violations.py").run()
    no_exception(at)
    tables = [d.value for d in at.dataframe if list(d.value.columns) == ["Item", "Value"]]
    assert len(tables) == 1, [list(d.value.columns) for d in at.dataframe]
    cells = [str(v) for v in tables[0]["Value"]]
    assert cells and not problems(cells, {"civil_penalty_max_usd"}), problems(cells, {"civil_penalty_max_usd"})
    assert not {"None", "True", "False", "nan"} & set(cells), cells
    # the civil penalty maximum of three red oaks removed (§208-29B tiers), written with its separator and cents
    assert any(re.fullmatch(r"\$\d{1,3}(,\d{3})+\.\d{2}", c) for c in cells), cells
    assert {"yes", "no"} & set(cells), cells  # "doubled" and the like as a person writes them


_PLACEHOLDERS = """() => [...document.querySelectorAll('[data-testid="stMain"] input[placeholder]')]
  .filter(i => i.placeholder && i.offsetParent !== null).map(i => {
    const s = getComputedStyle(i), c = document.createElement("canvas").getContext("2d");
    c.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const room = i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    return {text: i.placeholder, width: c.measureText(i.placeholder).width, room};
  })"""


@pytest.mark.parametrize("width", WIDTHS)
def test_permit_placeholders_fit_their_boxes(server, chromium, tmp_path, width):
    path = _write(tmp_path, "developer_8.xlsx", surveys.developer_8())
    with app_page(chromium, server, path, "Permit & replacement", width=width) as page:
        _main_text(page)  # the replacement stock's expander opened
        boxes = page.evaluate(_PLACEHOLDERS)
        assert any(b["text"] == "450" for b in boxes), boxes  # the placeholder unit cost, shown
        cut = [b for b in boxes if b["width"] > b["room"]]
        assert not cut, cut


@pytest.mark.parametrize("width", [390])  # the form's order does not change with the width
def test_wesley_hills_site_facts_come_first_under_wesley_hills(server, chromium, tmp_path, width):
    path = _write(tmp_path, "wesley_hills_lot.xlsx", surveys.wesley_hills_lot())
    with app_page(chromium, server, path, "Survey", width=width) as page:
        _drawn(page)
        page.get_by_role("tab", name="Site facts").click()
        strong = page.locator('[data-testid="stForm"] [data-testid="stMarkdownContainer"] strong')
        # the form of the run before the upload's (the sample's, Croton-on-Hudson's law first) can still be on
        # screen on a loaded machine: wait for the rerun to settle on this survey's law, then read the order
        expect = importlib.import_module("playwright.sync_api").expect
        expect(strong.nth(1)).to_have_text(re.compile(r"^Read by .*Wesley Hills"), timeout=60_000)
        settle(page)
        heads = [t.strip() for t in strong.all_inner_texts()]
        assert heads[0] == "Which law", heads
        assert heads[1].startswith("Read by") and "Wesley Hills" in heads[1], heads
