"""The Cases page of a violation in a real browser: what it owes line by line, the Planning Board's civil penalty
recorded by the engineer, and the case's survey reopened in the calculator, read-only."""

from __future__ import annotations

import json
import os

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.app.test_browser_register import PASSWORD, _go_cases, _main, _metric, _sign_in
from tests.register.conftest import treecalc

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Chromium not found at /usr/bin/chromium (.ci/run installs it with apt-get where apt is available)",
    ),
]


def test_violation_case_owes_decides_and_reopens(tmp_path, chromium):
    from treecalc.register import Register

    db = f"sqlite:///{tmp_path / 'register.db'}"
    Register(db).add_user("ann", "engineer", PASSWORD, by="admin")
    survey = tmp_path / "9_Birch_Ln_violation.csv"  # an owner's clearing without a permit, not the sample
    survey.write_text(
        "Tag,Species,DBH (in),Action\n201,Red maple,12,removed\n202,Northern red oak,18,removed\n"
        "203,Sugar maple,7,removed\n204,White pine,16,retain\n"
    )
    site = ["--site", "subdividable=true", "--site", "has_residence=false", "--site", "site_plan_required=true"]
    r = treecalc(
        *("case", "new", "--survey", survey, "--fee-per-tree", "450", "--plantable", "2", "--kind", "violation"),
        *(*site, "--title", "9 Birch Ln", "--by", "ann", "--json"),
        db=db,
        check=True,
    )
    cid = json.loads(r.stdout)["id"]
    env = {**os.environ, "TREECALC_DB": db}
    with streamlit_server(tmp_path, env=env) as (_, url):
        page = chromium.new_page(viewport={"width": 1400, "height": 2400})
        page.set_default_timeout(90_000)
        page.goto(url)
        _go_cases(page)
        _sign_in(page)
        main = _main(page)
        main.get_by_text(f"Case {cid}: 9 Birch Ln").wait_for()
        # tree 201 (12 in) §208-29B(2) up to $1,500, 202 (18 in) §208-29B(3) up to $3,000: $4,500, not owed
        main.get_by_text("not yet assessed by the Planning Board: up to $4,500.00").first.wait_for()
        # 120% x (127.11 + 194.57) = 386.02; / 64.68 -> 6 trees, 2 on site, 4 x $450 = $1,800.00 in lieu
        main.get_by_text("Replacement owed (§208-22F): 6 trees").wait_for()
        assert _metric(page, "Balance") == "$1,800.00"
        main.get_by_label("Civil penalty assessed (USD; 0: released)").fill("3000")
        main.get_by_label("Reference (the Board's resolution or minutes)").fill("PB res. 2026-41")
        main.get_by_role("button", name="Record it").click()
        # 1,800.00 in lieu + 3,000.00 assessed by the Board = 4,800.00 owed, nothing paid
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stMetricValue]')].some(e => e.innerText === '$4,800.00')"
        )
        assert _metric(page, "Civil penalty assessed") == "$3,000.00"
        main.get_by_text("PB res. 2026-41").first.wait_for()

        main.get_by_role("button", name="Open this case's survey in the calculator").click()
        main.get_by_text("open in the calculator").wait_for()
        page.locator('[data-testid="stSidebarNav"]').get_by_text("Violations & penalties").click()
        main = _main(page)
        main.get_by_text(f"Case {cid}: 9 Birch Ln, its survey and options as assessed on").wait_for()
        main.get_by_text("Read-only: nothing done here changes the case").wait_for()
        side = page.locator('[data-testid="stSidebar"]')
        side.get_by_text(survey.name).first.wait_for()
        assert "bundled sample" not in side.inner_text()
        # the case's site facts came with it: both offences are definite, $4,500.00 at most
        page.wait_for_function("() => document.body.innerText.includes('4,500')")

        # a page that draws the options the case came with leaves them the case's
        page.locator('[data-testid="stSidebarNav"]').get_by_text("Permit & replacement").click()
        main = _main(page)
        field = main.get_by_label("Trees the site can take")
        assert field.input_value() == "2"
        main.get_by_text("Read-only: nothing done here changes the case").wait_for()
        # changed: the page says its figures are no longer the case's
        field.fill("3")
        field.press("Tab")
        main.get_by_text("The options shown are no longer the case's").wait_for()
        # recorded as a new assessment of the case (signed in as the engineer): the case's again, read-only
        _go_cases(page)
        main = _main(page)
        main.get_by_role("button", name=f"Record them as a new assessment of case {cid}").click()
        main.get_by_text("Read-only: nothing done here changes the case").wait_for()
        # 6 trees, 3 on site, 3 in lieu x $450.00 (the Village's schedule) = $1,350.00; + $3,000.00 decided
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stMetricValue]')].some(e => e.innerText === '$4,350.00')"
        )
        assert _metric(page, "Payment in lieu assessed") == "$1,350.00"
    assert len(Register(db).show(cid)["events"]) == 3  # opened, decided, assessed again
