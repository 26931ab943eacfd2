"""The Village's fee schedule (§208-24C) in the app: recorded by an engineer in the register, it is the fee of every
assessment in every session; a clerk sees it read-only, an applicant sees the schedule in force and no control; a
schedule carried by an address, a link or a project is flagged and never charged, never a case's basis.

The survey is a developer's own (not the bundled sample): three removals and one tree kept. With no planting space
(``plantable`` 0) every replacement tree is paid in lieu: 7 trees (tests/register/test_register_cli.py works them
out: 413.28 USD/yr required / 64.68 a red maple 2 in = 6.39 -> 7).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from tests.app.test_app_pages import amount, metrics
from tests.helpers.headless import new_app, no_exception, page_path
from treecalc.app import state

SURVEY = (
    b"Tag,Species,DBH (in),Action\n101,Red maple,14,remove\n102,Northern red oak,20,remove\n"
    b"103,Sugar maple,9,retain\n104,White pine,16,remove\n"
)
NAME = "14 Elm St survey.csv"
PASSWORD = "correct horse battery"
#: 7 trees in lieu x $450.00, the data folder's placeholder fee
PLACEHOLDER_TOTAL = 7 * 450.00  # $3,150.00
#: 7 trees in lieu x $1,125.00, the fee the Board set by resolution 2026-41 of 2026-03-02
BOARD_TOTAL = 7 * 1125.00  # $7,875.00


@pytest.fixture
def reg(tmp_path, monkeypatch):
    from treecalc.register import Register

    url = f"sqlite:///{tmp_path / 'register.db'}"
    monkeypatch.setenv("TREECALC_DB", url)
    r = Register(url)
    r.add_user("eng", "engineer", PASSWORD, by="setup")
    r.add_user("clk", "clerk", PASSWORD, by="eng")
    return r


def _session(reg, who: str | None = None, opts: dict | None = None):
    """A fresh browser: signed in as ``who`` (None: an applicant), the survey uploaded, no planting space."""
    from treecalc.register import auth

    at = new_app()
    if who:
        at.session_state["tc_staff_token"] = auth.sign_in(reg, who, PASSWORD)[0]
    at.run()
    at.file_uploader(key="w_upload").set_value((NAME, SURVEY, "text/csv")).run()
    at.session_state[state._OPTS] = {"plantable": 0, **(opts or {})}
    at.run()
    no_exception(at)
    return at


def _permit_total(at) -> float:
    at.switch_page(page_path("permit")).run()
    no_exception(at)
    return amount(metrics(at)["Payment in lieu to the Tree Preservation Fund"])


def test_a_schedule_the_engineer_records_is_the_fee_in_a_fresh_session(reg):
    from treecalc.register import fees

    assert _permit_total(_session(reg)) == PLACEHOLDER_TOTAL  # nothing recorded: the data folder's placeholder

    eng = _session(reg, "eng")
    eng.switch_page(page_path("fund")).run()
    eng.number_input(key="w_fee_per_tree").set_value(1125.0)
    eng.date_input(key="w_fee_resolution_date").set_value(dt.date(2026, 3, 2))
    eng.text_input(key="w_fee_resolution").input("2026-41")
    eng.button(key="FormSubmitter:w_fee_record-Record the schedule").click().run()
    no_exception(eng)
    assert not eng.error, [e.value for e in eng.error]
    (row,) = fees.history(reg)
    assert (row["fee_per_tree_usd"], row["resolution"], row["recorded_by"]) == ("1125.00", "2026-41", "eng")

    # another browser, an applicant: the Board's fee, the resolution named, and no control to change it
    other = _session(reg)
    assert _permit_total(other) == BOARD_TOTAL
    fund = other.session_state[state._MEMO_ASSESS][1].fund
    assert fund.placeholder is False and fund.label == "Board resolution 2026-41 of 2026-03-02 (§208-24C)"
    other.switch_page(page_path("fund")).run()
    no_exception(other)
    shown = " ".join(m.value for m in other.main.markdown)
    assert "Board resolution 2026-41 of 2026-03-02" in shown and "$1,125.00" in shown
    assert not [w for w in other.number_input if w.key == "w_fee_per_tree"]

    # a clerk sees the history read-only
    clerk = _session(reg, "clk")
    clerk.switch_page(page_path("fund")).run()
    no_exception(clerk)
    assert not [w for w in clerk.number_input if w.key == "w_fee_per_tree"]
    assert any("Read-only" in c.value for c in clerk.caption)


HOSTILE = {
    "fee_schedule": {
        "fee_per_tree_usd": "0.01",
        "placeholder": False,
        "label": "set by Board resolution of 2026-03-01 (§208-24C)",
    },
    "plantable": 0,
}


def test_a_schedule_in_the_address_is_flagged_and_never_a_case(reg):
    from treecalc.register import fees

    fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="1125", resolution="2026-41")
    up = _session(reg, "clk")
    q = {k: v[0] if isinstance(v, list) else v for k, v in dict(up.query_params).items()}
    from treecalc.register import auth

    clerk = new_app()
    clerk.session_state["tc_staff_token"] = auth.sign_in(reg, "clk", PASSWORD)[0]
    for k, v in {**q, "opts": json.dumps(HOSTILE)}.items():
        clerk.query_params[k] = v
    clerk.run()
    no_exception(clerk)
    # the address's schedule is kept with the options (a link made from here carries it) but never charged:
    # 7 x $1,125.00, not 7 x $0.01 = $0.07
    assert clerk.session_state[state._OPTS]["fee_schedule"] == HOSTILE["fee_schedule"]
    assert _permit_total(clerk) == BOARD_TOTAL
    said = " ".join(w.value for w in clerk.main.warning)
    assert "$0.01 a tree" in said and "not the Village's fee schedule in force" in said
    fund = clerk.session_state[state._MEMO_ASSESS][1].fund
    assert "set by Board resolution of 2026-03-01" not in fund.label

    clerk.switch_page(page_path("cases")).run()
    clerk.button(key="FormSubmitter:w_case_open-Open the case").click().run()
    no_exception(clerk)
    (case,) = reg.cases()
    assert case["fund_in_lieu_usd"] == "7875.00"  # 7 x $1,125.00, never $0.07
