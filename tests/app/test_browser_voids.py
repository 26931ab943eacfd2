"""The Cases page in a real browser: a payment button double-clicked records one payment; a payment voided
leaves the balance right, stays listed with its void, and the audit chain verifies."""

from __future__ import annotations

import os

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.app.test_browser_register import PASSWORD, _go_cases, _main, _metric, _sign_in, _survey
from tests.register.conftest import staff

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Chromium not found at /usr/bin/chromium (.ci/run installs it with apt-get where apt is available)",
    ),
]


def _wait_metric(page, label, value):
    page.wait_for_function(
        """([label, value]) => [...document.querySelectorAll('[data-testid=stMetric]')].some(
            m => m.innerText.includes(label) && m.querySelector('[data-testid=stMetricValue]').innerText === value)""",
        arg=[label, value],
    )


def test_a_double_clicked_payment_lands_once_and_a_voided_one_leaves_the_balance_right(tmp_path, chromium):
    from treecalc.register import Register, audit

    db = f"sqlite:///{tmp_path / 'register.db'}"
    reg = Register(db)
    # the register's first account is an engineer's ("admin"), who makes the clerk's
    staff(reg, "admin")
    reg.add_user("ann", "clerk", PASSWORD, by="admin")
    survey = _survey(tmp_path)  # the 4-tree survey of 14 Elm St, not the sample
    # the register records what the assessment said (it never recomputes it): 7 replacements needed, 3
    # plantable, 4 in lieu x $500.00 = $2,000.00
    reg.new_case(
        by="ann",
        title="14 Elm St",
        kind="permit",
        survey=(survey.name, survey.read_bytes()),
        assessment={"jurisdiction": "croton_on_hudson", "fund_in_lieu_cents": 200_000, "fund_in_lieu_usd": 2000.0},
    )
    env = {**os.environ, "TREECALC_DB": db}
    with streamlit_server(tmp_path, env=env) as (_, url):
        page = chromium.new_page(viewport={"width": 1400, "height": 2400})
        page.set_default_timeout(90_000)
        page.goto(url)
        _go_cases(page)
        _sign_in(page)
        main = _main(page)
        main.get_by_text("Case 1: 14 Elm St").wait_for()
        assert _metric(page, "Balance") == "$2,000.00"

        main.get_by_label("Amount (USD)").fill("750.00")
        main.get_by_role("button", name="Record the payment").dblclick()
        _wait_metric(page, "Paid into the Fund", "$750.00")
        page.wait_for_timeout(3000)  # the second click's run, had it recorded, would show by now
        assert [x["amount_usd"] for x in reg.show(1)["payments"]] == ["750.00"]  # once, not twice
        assert _metric(page, "Paid into the Fund") == "$750.00"

        # a second payment, on a form drawn anew: recorded (the form's key is a new one)
        main.get_by_role("button", name="Record the payment").click()
        _wait_metric(page, "Paid into the Fund", "$1,500.00")
        assert _metric(page, "Balance") == "$500.00"  # 2000.00 - 2 x 750.00

        # the second was the same check entered twice: void it
        main.get_by_label("Entry").click()
        page.get_by_role("option", name="payment 2").click()
        main.get_by_label("Reason (kept with the void)").fill("the same check entered twice")
        main.get_by_role("button", name="Void the entry").click()
        _wait_metric(page, "Balance", "$1,250.00")  # 2000.00 - 750.00
        assert _metric(page, "Paid into the Fund") == "$750.00"
        main.get_by_text("Voided entries").wait_for()  # its table (drawn on a canvas) holds the reason
    c = reg.show(1)
    assert [x["voided"] is None for x in c["payments"]] == [True, False]  # both listed, the second voided
    assert c["balance_usd"] == "1250.00"
    assert audit.verify(reg) is None
