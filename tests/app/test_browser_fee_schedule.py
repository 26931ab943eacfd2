"""In Chromium: the fee schedule an engineer records on the Fund page in one browser is the fee of a second browser,
and still after the server restarts (it is the register's, not a browser's).

The survey is a developer's own (not the bundled sample): three removals and one tree kept. With no planting space
("A number of trees", 0) every replacement tree is paid in lieu: 7 trees (tests/register/test_register_cli.py
works them out: 413.28 USD/yr required / 64.68 a red maple 2 in = 6.39 -> 7). 7 x $450.00 (the data folder's
placeholder) = $3,150.00; 7 x $1,125.00 (the Board's, recorded) = $7,875.00. The Permit page's total out of pocket is
the planting cost (0 trees planted: $0.00) plus that payment: $3,150.00, then $7,875.00.
"""

from __future__ import annotations

import os

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.app.test_browser_register import _go_cases, _main, _metric, _sign_in, _survey
from tests.helpers.browser_nav import nav, upload

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]

FUND = "Fund & fee schedule"
IN_LIEU = "Payment in lieu to the Tree Preservation Fund"
PERMIT = "Permit & replacement"
TOTAL = "Total out of pocket"


def _fresh(browser, url, survey):
    """A second browser (a context of its own: no session shared), the survey uploaded, no planting space."""
    page = browser.new_context(viewport={"width": 1400, "height": 1800}).new_page()
    page.set_default_timeout(90_000)
    page.goto(url)
    upload(page, survey)
    nav(page, FUND)
    _main(page).get_by_text("A number of trees").click()
    return page


def _in_lieu(page, want: str) -> str:
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('[data-testid=stMetricValue]')].some(e => e.innerText === want)",
        arg=want,
    )
    return _metric(page, IN_LIEU)


def _permit_total(page, want: str) -> str:
    """The Permit page's total out of pocket (planting + payment in lieu), once it reads ``want``."""
    nav(page, PERMIT)
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('[data-testid=stMetricValue]')].some(e => e.innerText === want)",
        arg=want,
    )
    return _metric(page, TOTAL)


def test_a_schedule_recorded_in_one_browser_is_the_fee_in_another_and_after_a_restart(tmp_path, chromium):
    from treecalc.register import Register

    db = f"sqlite:///{tmp_path / 'register.db'}"
    Register(db).add_user("ann", "engineer", "correct horse battery", by="admin")
    survey = _survey(tmp_path)
    env = {**os.environ, "TREECALC_DB": db}
    with streamlit_server(tmp_path, env=env) as (_, url):
        other = _fresh(chromium, url, survey)
        assert _in_lieu(other, "$3,150.00") == "$3,150.00"  # nothing recorded: the placeholder
        assert _permit_total(other, "$3,150.00") == "$3,150.00"

        eng = chromium.new_context(viewport={"width": 1400, "height": 1800}).new_page()
        eng.set_default_timeout(90_000)
        eng.goto(url)
        upload(eng, survey)
        _go_cases(eng)
        _sign_in(eng)
        _main(eng).get_by_text("Signed in as").wait_for()
        nav(eng, FUND)
        main = _main(eng)
        main.get_by_label("Fee per tree (USD)").fill("1125")
        main.get_by_label("Resolution (number or reference)").fill("2026-99")
        main.get_by_role("button", name="Record the schedule").click()
        main.get_by_text("Board resolution 2026-99 of").first.wait_for()

        third = _fresh(chromium, url, survey)  # another chromium, not signed in
        assert _in_lieu(third, "$7,875.00") == "$7,875.00"
        assert "Record the schedule" not in _main(third).inner_text()  # an applicant has no control
        assert _permit_total(third, "$7,875.00") == "$7,875.00"
        # the browser opened before the schedule was recorded charges it too, once it reruns
        assert _permit_total(other, "$7,875.00") == "$7,875.00"

    with streamlit_server(tmp_path, env=env) as (_, url):  # the server restarted
        after = _fresh(chromium, url, survey)
        assert _in_lieu(after, "$7,875.00") == "$7,875.00"
        assert "Board resolution 2026-99 of" in _main(after).inner_text()
        assert _permit_total(after, "$7,875.00") == "$7,875.00"
