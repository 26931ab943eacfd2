"""The law and the fee schedule in force on the date of the application or violation (assess(on=...), --on)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from decimal import Decimal

import pytest

from treecalc.law import LawNotInForce
from treecalc.rules.croton_on_hudson.schedule import load_fee_schedule, record_schedule


def _two_schedules(path):
    # the Board set $600 a tree on 2026-03-01 and $700 on 2026-09-01 (§208-24C)
    record_schedule(path, {"basis": "per_tree", "fee_per_tree_usd": "600.00", "label": "resolution 1"}, "2026-03-01")
    record_schedule(path, {"basis": "per_tree", "fee_per_tree_usd": "700.00", "label": "resolution 2"}, "2026-09-01")
    return path


def test_two_schedules_with_resolution_dates_pick_the_one_in_force(tmp_path):
    f = _two_schedules(tmp_path / "fees.toml")
    assert load_fee_schedule(f, on=dt.date(2026, 3, 1)).fee_per_tree_usd == Decimal("600.00")  # its own day
    assert load_fee_schedule(f, on=dt.date(2026, 8, 31)).fee_per_tree_usd == Decimal("600.00")
    s = load_fee_schedule(f, on=dt.date(2026, 9, 1))
    assert (s.fee_per_tree_usd, s.resolution_date) == (Decimal("700.00"), dt.date(2026, 9, 1))
    assert load_fee_schedule(f).fee_per_tree_usd == Decimal("700.00")  # no date: the latest
    # the earlier schedule stays in the file
    assert f.read_text().count("\n[[schedule]]\n") == 2
    with pytest.raises(ValueError, match="a schedule set on 2026-03-01 is already recorded"):
        record_schedule(f, {"basis": "per_tree", "fee_per_tree_usd": "1.00"}, "2026-03-01")


def test_a_date_before_every_schedule_is_refused_naming_the_earliest(tmp_path):
    f = _two_schedules(tmp_path / "fees.toml")
    with pytest.raises(LawNotInForce, match="earliest held was set by Board resolution of 2026-03-01"):
        load_fee_schedule(f, on=dt.date(2025, 6, 1))
    # the placeholder schedule has no resolution: in force on any date the law is
    assert load_fee_schedule(None, on=dt.date(2025, 6, 1)).placeholder


def _treecalc(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "treecalc.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_assess_on_a_date_before_the_schedule_or_the_law_is_refused(tmp_path):
    f = _two_schedules(tmp_path / "fees.toml")
    # 2024-06-01: before the 2025 law (its placeholder effective date 2025-01-01) -> exit 2 naming that version
    r = _treecalc("assess", "--fee-schedule", str(f), "--on", "2024-06-01", "--json", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "earliest version held is Village of Croton-on-Hudson, Chapter 208" in r.stderr
    assert "effective 2025-01-01 (a PLACEHOLDER date" in r.stderr
    # 2025-06-01: the law is held, the schedule set in 2026 is not in force -> refused naming it
    r = _treecalc("assess", "--fee-schedule", str(f), "--on", "2025-06-01", "--json", cwd=tmp_path)
    assert r.returncode == 2 and "Board resolution of 2026-03-01" in r.stderr
    r = _treecalc("assess", "--on", "2025-13-01", "--json", cwd=tmp_path)
    assert r.returncode == 2 and "--on must be a date YYYY-MM-DD, got '2025-13-01'" in r.stderr


def test_the_date_is_stated_as_an_assumption_with_the_placeholder_effective_date(tmp_path):
    from treecalc.assessment import assess
    from treecalc.reference import data

    f = _two_schedules(tmp_path / "fees.toml")
    a = assess(data.SAMPLE_SURVEY, on="2026-10-01", fee_schedule=str(f))
    said = [x for x in a.assumptions if x.startswith("the law in force on 2026-10-01")]
    assert len(said) == 1 and "effective 2025-01-01 (a PLACEHOLDER date" in said[0]
    assert a.options["on"] == "2026-10-01"
    assert a.method["fee_schedule"]["fee_per_tree_usd"] == 700.0  # the 2026-09-01 resolution
    assert a.method["fee_schedule"]["resolution_date"] == "2026-09-01"
    today = assess(data.SAMPLE_SURVEY)
    assert today.options["on"] == dt.date.today().isoformat()


def test_fee_schedule_record_command_keeps_the_earlier_schedule(tmp_path):
    f = tmp_path / "fees.toml"
    for day, fee in (("2026-03-01", "600"), ("2026-09-01", "700")):
        r = _treecalc("fee-schedule", "record", str(f), "--resolution-date", day, "--fee-per-tree", fee, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    r = _treecalc("assess", "--fee-schedule", str(f), "--on", "2026-05-01", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["fingerprint"]["options"]["on"] == "2026-05-01"
    r = _treecalc(
        "fee-schedule", "record", str(f), "--resolution-date", "2026-3-1", "--fee-per-tree", "1", cwd=tmp_path
    )
    assert r.returncode == 2 and "--resolution-date must be a date YYYY-MM-DD" in r.stderr


@pytest.mark.parametrize(("town", "on"), [("manalapan", "2006-01-01"), ("milltown", "1950-01-01")])
def test_a_date_before_a_new_jersey_text_was_read_is_refused(tmp_path, town, on):
    # neither chapter's adoption date is held (Manalapan's data says a 2005 ordinance set other amounts): today's
    # amounts are known from the day the text was read (2026-12-07), not on an earlier date -> exit 2, saying why
    survey = tmp_path / "s.csv"
    survey.write_text("Tag,Common Name,DBH (in.),Action\n1,Red Maple,14,Removed\n")
    r = _treecalc("assess", str(survey), "--jurisdiction", town, "--on", on, "--json", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"the law in force on {on} is not held" in r.stderr and "read on 2026-12-07" in r.stderr, r.stderr
    assert "adoption date" in r.stderr, r.stderr
    # on or after the day read: assessed (the text read is the law then held)
    r = _treecalc("assess", str(survey), "--jurisdiction", town, "--on", "2026-12-07", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
