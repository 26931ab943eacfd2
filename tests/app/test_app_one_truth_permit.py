"""The app's tree pages say things once and in the app's own words: the law the survey is assessed under
once per screen, controls named without sending the reader to the page they are on, and a replacement stock
row without its species refused by name, never dropped.

Headless (Streamlit ``AppTest``) on surveys written here, not the bundled sample.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.test_app_downloads_and_roles import _app, _ok, survey_bytes

# four maples and an oak removed on a lot with no residence (§208-19A(2): each needs a permit), no Unit cost
# given: the replacement's cost is the engine's placeholder, whose note asks for the nursery's price
CROTON = survey_bytes(["Removed"] * 4 + ["Retain"], species="Red maple")


def _texts(at: AppTest) -> list[str]:
    return [
        str(e.value)
        for kind in (at.markdown, at.caption, at.info, at.warning, at.success, at.error)
        for e in kind
        if isinstance(getattr(e, "value", None), str)
    ]


@pytest.mark.parametrize(
    "page",
    [
        "treecalc/app/pages/permit.py",
        "treecalc/app/pages/violations.py",
        "treecalc/app/pages/fund.py",
        "treecalc/app/pages/map.py",
    ],
)
def test_the_law_is_named_once_per_screen(page):
    at = _app(CROTON, "maple_lane.xlsx")
    at.switch_page(page).run()
    _ok(at)
    said = [t for t in _texts(at) if "Assessed under" in t or "Law applied" in t]
    assert len(said) == 1, said  # the header, "Assessed under Croton-on-Hudson ...", and nothing else
    assert "Croton-on-Hudson" in said[0]


def test_the_permit_page_names_the_unit_cost_control_without_sending_you_to_itself():
    at = _app(CROTON, "maple_lane.xlsx")
    at.switch_page("treecalc/app/pages/permit.py").run()
    _ok(at)
    texts = _texts(at)
    assert not [t for t in texts if "on the Permit page" in t], [t for t in texts if "Permit page" in t]
    assert any("give the Unit cost under “Replacement stock and planting space”" in t for t in texts), texts


def test_a_stock_row_without_its_species_is_refused_by_name():
    at = _app(CROTON, "maple_lane.xlsx")
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.radio(key="w_stock_mode").set_value("A stock list").run()
    _ok(at)
    # a second kind of tree begun: its size and price typed, its species not chosen
    at.session_state["w_stock"] = {
        "edited_rows": {},
        "added_rows": [{"dbh_in": 3.0, "unit_cost_usd": 600.0}],
        "deleted_rows": [],
    }
    at.run()
    errors = [e.value for e in at.error]
    assert any("Replacement stock, row 2: no species" in e for e in errors), errors
    # no plan that leaves the row out: the cost is not shown until the row is finished or deleted
    assert not [m for m in at.metric if m.label.startswith("Total out of pocket")], [m.label for m in at.metric]
