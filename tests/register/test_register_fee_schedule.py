"""The Village's fee schedule (§208-24C) recorded in the register by an engineer, its history kept, and the
assessments made against the register charging the schedule in force on their date."""

from __future__ import annotations

import pytest

from treecalc.register import Register, RegisterError, audit, fees

PASSWORD = "correct horse battery"


@pytest.fixture
def reg(db_url):
    r = Register(db_url)
    r.add_user("eng", "engineer", PASSWORD, by="setup")
    r.add_user("clk", "clerk", PASSWORD, by="eng")
    r.add_user("ro", "viewer", PASSWORD, by="eng")
    return r


def test_an_engineer_records_and_the_history_is_kept(reg):
    a = fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="1,125.00", resolution="2026-41")
    b = fees.record(reg, by="eng", resolution_date="2027-01-05", fee_per_tree_usd="1200", resolution="2027-3")
    rows = fees.history(reg)
    assert [r["id"] for r in rows] == [a, b]  # the first is kept, not overwritten
    assert rows[0]["fee_per_tree_usd"] == "1125.00" and rows[1]["fee_per_tree_usd"] == "1200.00"
    assert rows[0]["recorded_by"] == "eng" and rows[0]["resolution"] == "2026-41"
    assert rows[0]["label"] == "Board resolution 2026-41 of 2026-03-02 (§208-24C)"
    # in force on a date: the latest resolution on or before it
    assert fees.in_force(reg, "2026-02-28") is None
    assert fees.in_force(reg, "2026-12-31")["fee_per_tree_usd"] == "1125.00"
    now = fees.in_force(reg, "2027-01-05")
    assert now["fee_per_tree_usd"] == "1200.00" and now["placeholder"] is False
    assert now["resolution_date"] == "2027-01-05"
    assert audit.verify(reg) is None  # each record is an event of the chain, replayed by the audit


@pytest.mark.parametrize("who", ["clk", "ro", "nobody"])
def test_only_an_engineer_records_a_schedule(reg, who):
    with pytest.raises(RegisterError, match="engineer role"):
        fees.record(reg, by=who, resolution_date="2026-03-02", fee_per_tree_usd="1125")
    assert fees.history(reg) == []


def test_a_resolution_is_recorded_once_and_a_schedule_must_read(reg):
    fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="1125")
    with pytest.raises(RegisterError, match="already recorded"):
        fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="0.01")
    with pytest.raises(ValueError, match=r"more than \$0"):
        fees.record(reg, by="eng", resolution_date="2026-04-01", fee_per_tree_usd="0")
    with pytest.raises(RegisterError, match="fee per tree"):
        fees.record(reg, by="eng", resolution_date="2026-04-01")
    assert [r["fee_per_tree_usd"] for r in fees.history(reg)] == ["1125.00"]


def test_an_option_that_is_not_the_schedule_in_force_is_named(reg):
    fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="1125", resolution="2026-41")
    village = fees.in_force(reg, "2026-06-01")
    assert fees.differs({"fee_schedule": village}, village) == []
    assert fees.differs({}, village) == []
    said = fees.differs({"fee_per_tree_usd": "0.01"}, village)
    assert said and "$0.01" in said[0] and "$1,125.00" in said[0] and "2026-41" in said[0]
    outside = {"fee_per_tree_usd": "0.01", "placeholder": False, "label": "set by Board resolution of 2026-03-01"}
    assert fees.differs({"fee_schedule": outside}, village)
