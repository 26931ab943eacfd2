"""Each Chapter 223 comparison takes its operator from the law file (``ch223_water.toml``), not from code.

Every comparison is checked at its bound (the value exactly at it, and just over it) as the ordinance states it
(/work/shared/ordinances/001_0c9dbbc0a401b0cd.txt), then with its operator amended in a copy of the law folder
read in this process: the outcome at the bound and the sentences follow the file.

- §223-12F(2) "unpaid water rents and penalties thereon more than 60 days overdue" (``relevy_overdue_days``, ``>``);
- §223-6G "an error in registration (more than 1.5%, plus or minus)": the bill adjusted (``meter_tolerance``, ``>``);
- §223-6G "over-registering by more than the aforesaid allowable rate": the test fee returned (the same entry).
"""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal as D

import pytest

from treecalc.law import clear_caches
from treecalc.reference import datafolder
from treecalc.rules.croton_on_hudson.ch223_meter import meter_test
from treecalc.rules.croton_on_hudson.ch223_water import penalty_schedule, relevy_date_for

WATER_LAW = "law/croton_on_hudson/ch223_water.toml"


@pytest.fixture
def amended(tmp_path, monkeypatch):
    """``amend(table, old, new)``: the law folder copied with ``old`` replaced by ``new`` once in ``[table]`` of
    ch223_water.toml, read from now on in this process (the caches cleared either side)."""
    folder = tmp_path / "data"
    shutil.copytree(datafolder.BUNDLED_DATA_DIR / "law", folder / "law")

    def amend(table: str, old: str, new: str) -> None:
        p = folder / WATER_LAW
        s = p.read_text(encoding="utf-8")
        i = s.index(f"[{table}]")
        end = s.find("\n[", i + 1)
        end = len(s) if end < 0 else end
        part = s[i:end]
        assert part.count(old) == 1, f"{old!r} is not once in [{table}]"
        p.write_text(s[:i] + part.replace(old, new) + s[end:], encoding="utf-8")
        monkeypatch.setattr(datafolder, "DATA_DIR", folder)
        clear_caches()

    clear_caches()
    yield amend
    clear_caches()


# --------------------------------------------------------------------------- §223-12F(2) relevy: more than 60 days
def test_a_bill_exactly_60_days_overdue_on_15_april_waits_a_year_and_61_days_is_relevied():
    # due 14 Feb 2026 -> 15 Apr 2026: 14 days left of February (28 days) + 31 in March + 15 in April = 60 days,
    # not "more than 60": the next 15 April, 2027. Due 13 Feb: 15 + 31 + 15 = 61 days, more than 60: 15 Apr 2026.
    assert relevy_date_for(dt.date(2026, 2, 14)) == dt.date(2027, 4, 15)
    assert relevy_date_for(dt.date(2026, 2, 13)) == dt.date(2026, 4, 15)
    # $100.00 due 13 Feb: 14 Feb 5% = 5.00, 14 Mar and 14 Apr 1% = 1.00 each; relevied 15 Apr: 107.00
    r = penalty_schedule("100", "2026-02-13", [], as_of="2026-05-01")
    assert (r.relevy_date, r.relevy_amount) == (dt.date(2026, 4, 15), D("107.00"))
    relevy = [e for e in r.events if e.kind == "relevy"]
    assert "more than 60 days overdue (61 days)" in relevy[0].description
    assert any("at least 61 days before that 15 April" in s for s in r.interpretation)


def test_relevy_at_60_days_or_more_reads_the_amended_operator(amended):
    # amended to "60 days or more" (>=): due 14 Feb 2026 is 60 days before 15 Apr 2026 and is relevied then:
    # 15 Feb 5.00 + 15 Mar 1.00 + 15 Apr 1.00 (the day's penalty before the relevy) = 7.00 -> 107.00 relevied.
    # Due 15 Feb is 13 + 31 + 15 = 59 days: not 60 or more, 15 April 2027.
    amended("relevy_overdue_days", 'operator = ">"', 'operator = ">="')
    assert relevy_date_for(dt.date(2026, 2, 14)) == dt.date(2026, 4, 15)
    assert relevy_date_for(dt.date(2026, 2, 15)) == dt.date(2027, 4, 15)
    r = penalty_schedule("100", "2026-02-14", [], as_of="2026-05-01")
    assert (r.relevy_date, r.relevy_amount) == (dt.date(2026, 4, 15), D("107.00"))
    relevy = [e for e in r.events if e.kind == "relevy"]
    assert "at least 60 days overdue (60 days)" in relevy[0].description
    assert any("at least 60 days before that 15 April" in s for s in r.interpretation)


def test_a_relevy_operator_that_is_a_maximum_is_refused_naming_the_entry(amended):
    amended("relevy_overdue_days", 'operator = ">"', 'operator = "<"')
    with pytest.raises(ValueError, match=r"\[relevy_overdue_days\] states operator '<'"):
        penalty_schedule("100", "2026-02-14", [], as_of="2026-05-01")


# --------------------------------------------------------------------------- §223-6G meter: more than 1.5%
@pytest.mark.parametrize(
    "err,adjusted,consumption,refund",
    [
        # exactly 1.5% either way: not "more than 1.5%": the bill stands, the $50.00 fee retained
        ("1.5", False, D("1000"), D("0.00")),
        ("-1.5", False, D("1000"), D("0.00")),
        # just over, at the test's 0.01 %: 1000 / 1.0151 = 985.1246 -> 985.12, over-registering: fee returned
        ("1.51", True, D("985.12"), D("50.00")),
        # 1000 / 0.9849 = 1015.3315 -> 1015.33, under-registering: the bill raised, the fee retained
        ("-1.51", True, D("1015.33"), D("0.00")),
    ],
)
def test_the_meter_tolerance_at_its_bound_and_just_over(err, adjusted, consumption, refund):
    r = meter_test(1000, err, 50)
    assert (r.adjusted, r.adjusted_consumption, r.fee_refund) == (adjusted, consumption, refund)


def test_the_meter_tolerance_reads_the_amended_operator(amended):
    # amended to "1.5% or more" (>=): exactly +1.5% is an error: 1000 / 1.015 = 985.2217 -> 985.22, over-
    # registering, the fee returned; -1.5%: 1000 / 0.985 = 1015.2284 -> 1015.23, fee retained; 1.49% stands
    amended("meter_tolerance", 'operator = ">"', 'operator = ">="')
    up, down, under = meter_test(1000, "1.5", 50), meter_test(1000, "-1.5", 50), meter_test(1000, "1.49", 50)
    assert (up.adjusted, up.adjusted_consumption, up.fee_refund) == (True, D("985.22"), D("50.00"))
    assert (down.adjusted, down.adjusted_consumption, down.fee_refund) == (True, D("1015.23"), D("0.00"))
    assert (under.adjusted, under.fee_refund) == (False, D("0.00"))
    notes = " ".join(up.notes)
    assert "error is at least 1.5% (plus or minus); an error of exactly 1.5% is an error" in notes
    assert "over-registers by at least 1.5%" in notes and "more than" not in notes


def test_the_meter_notes_say_more_than_under_the_bundled_operator():
    notes = " ".join(meter_test(1000, "1.5", 50).notes)
    assert "error is more than 1.5% (plus or minus); an error of exactly 1.5% is read as no error" in notes
    assert "over-registers by more than 1.5%" in notes
