"""The fee schedule (§208-24C) through the command line: recorded by an engineer in the register, charged by
``assess`` and ``case new`` against it, a clerk refused; a fee given on the command line flagged, never a case."""

from __future__ import annotations

import json

import pytest

from tests.register.conftest import treecalc
from treecalc.register import Register, fees


@pytest.fixture
def reg(db_url):
    """The register with an engineer and a clerk."""
    r = Register(db_url)
    r.add_user("eng", "engineer", "correct horse battery", by="setup")
    r.add_user("clk", "clerk", "correct horse battery", by="eng")
    return r


def test_cli_records_as_engineer_and_assess_charges_it(db_url, reg, survey_csv):
    r = treecalc(
        "fee-schedule",
        "record",
        "--resolution-date",
        "2026-03-02",
        "--fee-per-tree",
        "1125",
        "--resolution",
        "2026-41",
        "--by",
        "eng",
        db=db_url,
    )
    assert r.returncode == 0, r.stderr
    listed = treecalc("fee-schedule", "list", db=db_url, check=True).stdout
    assert "2026-03-02" in listed and "$1,125.00" in listed and "eng" in listed and "2026-41" in listed

    a = json.loads(
        treecalc("assess", str(survey_csv), "--plantable", "0", "--on", "2026-06-01", "--json", db=db_url).stdout
    )
    # 7 replacement trees none of which the site takes (tests/register/test_register_cli.py works them out:
    # 413.28 USD/yr required / 64.68 a red maple 2 in = 6.39 -> 7); 7 x $1,125.00 = $7,875.00 into the Fund
    assert a["replacement"]["trees_in_lieu"] == 7
    assert a["fund_in_lieu_usd"] == 7 * 1125 == 7875
    assert a["fund_placeholder"] is False
    assert a["fund_schedule"] == "Board resolution 2026-41 of 2026-03-02 (§208-24C)"
    assert a["options"]["fee_schedule_in_force"]["resolution_date"] == "2026-03-02"
    text = treecalc("assess", str(survey_csv), "--plantable", "0", "--on", "2026-06-01", db=db_url).stdout
    assert "Board resolution 2026-41 of 2026-03-02" in text

    # a case opened against the register carries the same amount
    out = treecalc(
        "case", "new", "--survey", str(survey_csv), "--plantable", "0", "--on", "2026-06-01", "--by", "eng", "--json",
        db=db_url, check=True,
    ).stdout  # fmt: skip
    shown = json.loads(treecalc("case", "show", str(json.loads(out)["id"]), "--json", db=db_url, check=True).stdout)
    assert shown["fund_in_lieu_usd"] == "7875.00"


def test_cli_refuses_a_clerk_naming_the_role(db_url, reg):
    r = treecalc(
        "fee-schedule", "record", "--resolution-date", "2026-03-02", "--fee-per-tree", "0.01", "--by", "clk",
        db=db_url,
    )  # fmt: skip
    assert r.returncode == 2
    assert "engineer role" in r.stderr and "clerk" in r.stderr
    assert fees.history(reg) == []


def test_a_fee_given_on_the_command_line_is_flagged_and_never_a_case(db_url, reg, survey_csv):
    fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="1125", resolution="2026-41")
    common = ("--plantable", "0", "--on", "2026-06-01")
    a = json.loads(treecalc("assess", str(survey_csv), *common, "--fee-per-tree", "0.01", "--json", db=db_url).stdout)
    # the what-if is computed (7 x $0.01 = $0.07) and said not to be the Village's schedule
    assert a["fund_in_lieu_usd"] == 0.07
    assert any("not the Village's fee schedule in force" in w for w in a["warnings"]), a["warnings"]
    r = treecalc(
        "case", "new", "--survey", str(survey_csv), *common, "--fee-per-tree", "0.01", "--by", "eng", db=db_url
    )
    assert r.returncode == 2 and "fee schedule in force" in r.stderr
