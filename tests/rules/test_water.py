"""Water bills: §223-12F penalties / partial payments / relevy and the §223-6G meter test."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treecalc.rules.croton_on_hudson.ch223_meter import meter_test
from treecalc.rules.croton_on_hudson.ch223_water import (
    penalty_schedule,
    period_start_dates,
    relevy_date_for,
)

DUE = dt.date(2026, 1, 15)


def kinds(r):
    return [(e.date.isoformat(), e.kind) for e in r.events]


# --------------------------------------------------------------------------- the five schedules
def test_paid_on_time_no_penalty():
    # Paid in full on the due date: §223-12F(1)(a), nothing more is owed, ever.
    r = penalty_schedule(D("300.00"), DUE, [(DUE, D("300.00"))], as_of=dt.date(2026, 12, 31))
    assert kinds(r) == [("2026-01-15", "payment")]
    assert r.charge_outstanding == D("0.00")
    assert r.penalties_outstanding == D("0.00")
    assert r.total_due == D("0.00")
    assert r.credit == D("0.00")
    assert r.relevy_date is None and r.relevy_amount is None and r.scheduled_relevy_date is None
    assert any("§223-12F(1)(a)" in n for n in r.notes)


def test_paid_early_also_on_time():
    r = penalty_schedule("300", DUE, [(dt.date(2026, 1, 2), "300")], as_of=dt.date(2026, 3, 1))
    assert r.total_due == D("0.00") and r.penalties_assessed == D("0.00")


def test_one_day_late():
    # Due 15 Jan, paid 16 Jan. 16 Jan: +5% of 300.00 = 15.00 (assessed at the start of the day,
    # before the payment). Paying 300.00 that day: 15.00 to penalties, 285.00 to the charge,
    # leaving a charge of 15.00 (not yet any 1% penalty).
    r = penalty_schedule("300.00", DUE, [("2026-01-16", "300.00")], as_of="2026-01-16")
    assert kinds(r) == [("2026-01-16", "penalty"), ("2026-01-16", "payment")]
    pen, pay = r.events
    assert pen.amount == D("15.00") and pen.section == "§223-12F(2)"
    assert (pay.to_penalties, pay.to_charge, pay.to_credit) == (D("15.00"), D("285.00"), D("0"))
    assert r.charge_outstanding == D("15.00")
    assert r.penalties_outstanding == D("0.00")
    assert r.total_due == D("15.00")
    # Paying 315.00 on 16 Jan settles it: 15.00 + 300.00.
    r2 = penalty_schedule("300.00", DUE, [("2026-01-16", "315.00")], as_of="2026-06-30")
    assert r2.total_due == D("0.00") and r2.penalties_assessed == D("15.00")
    assert r2.relevy_date is None


def test_as_of_day_after_due_without_payment():
    # 16 Jan: 300.00 + 5% = 315.00
    r = penalty_schedule("300", DUE, [], as_of="2026-01-16")
    assert r.total_due == D("315.00") and r.penalties_outstanding == D("15.00")
    # 15 Jan (the due date itself): nothing yet
    assert penalty_schedule("300", DUE, [], as_of=DUE).total_due == D("300.00")


def test_one_month_and_one_day_late():
    # Due 15 Jan, paid 16 Feb: +5% on 16 Jan (15.00) and +1% on 16 Feb (3.00, the first
    # succeeding month starts on 16 Feb and the charge is unpaid at its start) = 18.00.
    # 318.00 paid on 16 Feb: 18.00 to penalties, 300.00 to the charge -> nothing owed;
    # no 1% on 16 Mar.
    r = penalty_schedule("300.00", DUE, [("2026-02-16", "318.00")], as_of="2026-03-31")
    assert kinds(r) == [("2026-01-16", "penalty"), ("2026-02-16", "penalty"), ("2026-02-16", "payment")]
    assert [e.amount for e in r.events[:2]] == [D("15.00"), D("3.00")]
    assert r.penalties_assessed == D("18.00")
    assert r.total_due == D("0.00")
    # One day earlier (15 Feb, one month late) only the 5% applies: 315.00 settles it.
    r = penalty_schedule("300.00", DUE, [("2026-02-15", "315.00")], as_of="2026-03-31")
    assert r.penalties_assessed == D("15.00") and r.total_due == D("0.00")


def test_partial_payment():
    # The example. 16 Jan +15.00 (5% of 300.00), 16 Feb +3.00 (1% of 300.00):
    # penalties 18.00. 10 Mar pay 100.00: 18.00 to penalties, 82.00 to the charge ->
    # charge 218.00. 16 Mar +1% of the unpaid charge 218.00 = 2.18.
    # As of 10 Apr: charge 218.00, penalties 2.18, total 220.18; relevy still ahead (15 Apr).
    r = penalty_schedule("300", "2026-01-15", [("2026-03-10", "100")], as_of="2026-04-10")
    pay = [e for e in r.events if e.kind == "payment"][0]
    assert (pay.to_penalties, pay.to_charge, pay.to_credit) == (D("18"), D("82"), D("0"))
    assert r.events[-1].amount == D("2.18") and r.events[-1].base == D("218")
    assert r.charge_outstanding == D("218.00")
    assert r.penalties_outstanding == D("2.18")
    assert r.total_due == D("220.18")
    assert r.relevy_date is None and r.scheduled_relevy_date == dt.date(2026, 4, 15)


def test_partial_payment_smaller_than_penalties():
    # 16 Jan +15.00; 20 Jan pay 10.00 -> all to penalties (5.00 left), charge still 300.00;
    # 16 Feb +1% of 300.00 = 3.00 -> penalties 8.00, total 308.00.
    r = penalty_schedule("300", DUE, [("2026-01-20", "10")], as_of="2026-02-20")
    assert r.penalties_outstanding == D("8.00")
    assert r.charge_outstanding == D("300.00")
    assert r.total_due == D("308.00")


def test_carried_past_15_april_relevy():
    # Due 15 Jan 2026, never paid. 16 Jan +15.00, 16 Feb +3.00, 16 Mar +3.00 = 21.00.
    # 15 Apr 2026 is 90 days after the due date (> 60): 300.00 + 21.00 = 321.00 go to the tax
    # bill; no 1% on 16 Apr or later on the water account.
    r = penalty_schedule("300", DUE, [], as_of="2026-07-01")
    assert kinds(r) == [
        ("2026-01-16", "penalty"),
        ("2026-02-16", "penalty"),
        ("2026-03-16", "penalty"),
        ("2026-04-15", "relevy"),
    ]
    assert r.relevy_date == dt.date(2026, 4, 15)
    assert r.relevy_amount == D("321.00")
    assert r.total_due == D("0.00")
    assert r.events[-1].section.startswith("§223-12F(2)")
    # A payment after the relevy goes toward the amount relevied (shown as such), not to a credit:
    # 321.00 relevied - 321.00 paid = 0.00 still owed on the tax bill; no credit.
    r = penalty_schedule("300", DUE, [("2026-05-01", "321")], as_of="2026-07-01")
    assert r.relevy_amount == D("321.00") and r.credit == D("0.00") and r.total_due == D("0.00")
    assert r.relevy_outstanding == D("0.00")
    pay = r.events[-1]
    assert pay.kind == "payment" and pay.to_relevied == D("321.00") and pay.to_credit == D("0.00")
    assert "relevied to the tax bill" in pay.description
    # Paying 21.00 only: 300.00 still owed on the tax bill.
    r = penalty_schedule("300", DUE, [("2026-05-01", "21")], as_of="2026-07-01")
    assert r.relevy_outstanding == D("300.00") and r.credit == D("0.00")


def test_payment_on_relevy_day_counts_before_transfer():
    # Pay 100.00 on 15 Apr: 21.00 to penalties, 79.00 to the charge -> 221.00 relevied.
    r = penalty_schedule("300", DUE, [("2026-04-15", "100")], as_of="2026-04-30")
    assert r.relevy_amount == D("221.00")


def test_bill_due_less_than_61_days_before_april_waits_a_year():
    # Due 20 Feb 2026: 15 Apr 2026 is only 54 days later -> relevy on 15 Apr 2027.
    # As of 1 May 2026: 21 Feb +15.00, 21 Mar +3.00, 21 Apr +3.00 = 21.00; total 321.00.
    r = penalty_schedule("300", "2026-02-20", [], as_of="2026-05-01")
    assert r.relevy_date is None
    assert r.scheduled_relevy_date == dt.date(2027, 4, 15)
    assert r.penalties_outstanding == D("21.00") and r.total_due == D("321.00")
    # Carried to 15 Apr 2027: 5% + 13 monthly 1% (21 Mar 2026 ... 21 Mar 2027)
    # = 15.00 + 13 x 3.00 = 54.00; relevy 354.00.
    r = penalty_schedule("300", "2026-02-20", [], as_of="2027-05-01")
    assert r.relevy_date == dt.date(2027, 4, 15)
    assert r.relevy_amount == D("354.00")


@pytest.mark.parametrize(
    "due,relevy",
    [
        ("2026-02-13", "2026-04-15"),  # 61 days before 15 Apr 2026: more than 60 days overdue
        ("2026-02-14", "2027-04-15"),  # 60 days: not more than 60
        ("2028-02-14", "2028-04-15"),  # leap year: 14 Feb is 61 days before
        ("2028-02-15", "2029-04-15"),
        ("2026-04-15", "2027-04-15"),  # due on 15 April: the *next* 15 April
        ("2026-04-16", "2027-04-15"),
        ("2025-12-31", "2026-04-15"),
    ],
)
def test_relevy_date_boundary(due, relevy):
    assert relevy_date_for(dt.date.fromisoformat(due)) == dt.date.fromisoformat(relevy)


def test_period_dates_clamped_to_month_end():
    # due 30 Jan: first day late 31 Jan; +1 month -> 28 Feb (clamped), +2 -> 31 Mar, +3 -> 30 Apr
    assert period_start_dates(dt.date(2026, 1, 30), dt.date(2026, 4, 30)) == [
        dt.date(2026, 1, 31),
        dt.date(2026, 2, 28),
        dt.date(2026, 3, 31),
        dt.date(2026, 4, 30),
    ]
    # leap year
    assert period_start_dates(dt.date(2028, 1, 30), dt.date(2028, 3, 1))[1] == dt.date(2028, 2, 29)


def test_each_penalty_is_rounded_to_the_cent_when_assessed():
    # 123.45 due 15 Jan, unpaid, as of 20 Feb: 5% = 6.1725 -> 6.17, 1% = 1.2345 -> 1.23 (half up,
    # at assessment); penalties 6.17 + 1.23 = 7.40; total 123.45 + 7.40 = 130.85.
    r = penalty_schedule("123.45", DUE, [], as_of="2026-02-20")
    assert [e.amount for e in r.events] == [D("6.17"), D("1.23")]
    assert r.penalties_outstanding == D("7.40")
    assert r.total_due == D("130.85")
    d = r.to_dict()
    assert d["events"][0]["amount"] == "6.17" and d["total_due"] == "130.85"


def test_paying_the_displayed_total_closes_the_account():
    # 123.45 due 15 Jan; 16 Jan +5% = 6.1725 -> 6.17; total 129.62. Paid 129.62 on 20 Jan:
    # 6.17 to penalties, 123.45 to the charge -> nothing left; no later penalty, no relevy.
    r = penalty_schedule("123.45", DUE, [("2026-01-20", "129.62")], as_of="2026-06-01")
    assert kinds(r) == [("2026-01-16", "penalty"), ("2026-01-20", "payment")]
    assert r.total_due == D("0.00") and r.credit == D("0.00") and r.relevy_amount is None
    # The displayed total on any date, paid that day, leaves 0.00 (as of 16 Mar: 123.45 + 6.17 +
    # 1.23 + 1.23 = 132.08).
    shown = penalty_schedule("123.45", DUE, [], as_of="2026-03-16").total_due
    assert shown == D("132.08")
    r = penalty_schedule("123.45", DUE, [("2026-03-16", shown)], as_of="2026-12-31")
    assert r.total_due == D("0.00") and r.credit == D("0.00") and r.relevy_amount is None


def test_small_bill_lines_sum_to_total():
    # 1.50 due 15 Jan, as of 16 Mar: 16 Jan 5% of 1.50 = 0.075 -> 0.08; 16 Feb 1% = 0.015 -> 0.02;
    # 16 Mar 0.02. Lines 0.08 + 0.02 + 0.02 = 0.12 = penalties; total 1.50 + 0.12 = 1.62.
    r = penalty_schedule("1.50", DUE, [], as_of="2026-03-16")
    assert [e.amount for e in r.events] == [D("0.08"), D("0.02"), D("0.02")]
    assert r.penalties_assessed == D("0.12") == sum(e.amount for e in r.events)
    assert r.total_due == D("1.62")


def test_calendar_month_reading_on_a_15_january_bill():
    # 300.00 due 15 Jan 2026, --months calendar, as of 10 Mar: 16 Jan +5% = 15.00, 1 Feb +1% =
    # 3.00, 1 Mar +1% = 3.00 -> 21.00; the anniversary reading has only 16 Jan and 16 Feb = 18.00.
    r = penalty_schedule("300", DUE, [], as_of="2026-03-10", months="calendar")
    assert kinds(r) == [("2026-01-16", "penalty"), ("2026-02-01", "penalty"), ("2026-03-01", "penalty")]
    assert r.penalties_outstanding == D("21.00") and r.months == "calendar"
    assert any("calendar" in s and "§223-12F(2)" in s for s in r.interpretation)
    a = penalty_schedule("300", DUE, [], as_of="2026-03-10")
    assert a.penalties_outstanding == D("18.00") and a.months == "anniversary"
    with pytest.raises(ValueError, match="anniversary' or 'calendar"):
        penalty_schedule("300", DUE, [], as_of="2026-03-10", months="lunar")


def test_two_bill_account_with_one_payment():
    # Bill A 100.00 due 15 Jan, bill B 200.00 due 15 Feb; one payment 110.00 on 20 Feb.
    # 16 Jan: A +5.00. 16 Feb: A +1% of 100.00 = 1.00 (A penalties 6.00); B +5% = 10.00.
    # 20 Feb 110.00: A penalties 6.00, A charge 100.00, then B's penalties 4.00 of 10.00.
    # As of 1 Mar: A 0.00; B charge 200.00 + penalties 6.00 = 206.00; account 206.00.
    from treecalc.rules.croton_on_hudson.ch223_water import account_statement

    s = account_statement(
        [("100", "2026-01-15", "A"), ("200", "2026-02-15", "B")], [("2026-02-20", "110")], as_of="2026-03-01"
    )
    a, b = s.bills
    assert (a.bill, a.total_due, a.penalties_assessed, a.payments_total) == ("A", D("0.00"), D("6.00"), D("106.00"))
    assert (b.bill, b.charge_outstanding, b.penalties_outstanding) == ("B", D("200.00"), D("6.00"))
    assert s.total_due == D("206.00") and s.credit == D("0.00") and s.payments_total == D("110.00")
    pays = [e for e in s.events if e.kind == "payment"]
    assert [(e.bill, e.to_penalties, e.to_charge) for e in pays] == [
        ("A", D("6.00"), D("100.00")),
        ("B", D("4.00"), D("0.00")),
    ]
    assert sum(e.amount for e in pays) == D("110.00")


def test_account_csv(tmp_path):
    from treecalc.ingest.water_account import read_account_csv
    from treecalc.rules.croton_on_hudson.ch223_water import account_statement

    p = tmp_path / "account.csv"
    p.write_text(
        "Kind,Date,Amount,Bill\nbill,2026-01-15,100.00,A\nbill,2026-02-15,200.00,B\npayment,2026-02-20,110.00,\n"
    )
    bills, pays = read_account_csv(p)
    s = account_statement(bills, pays, as_of="2026-03-01")
    assert s.total_due == D("206.00")  # as the two-bill case above
    p.write_text("kind,date,amount\nbill,2026-01-15,100\nrefund,2026-02-01,5\n")
    with pytest.raises(ValueError, match="row 3: kind must be 'bill' or 'payment'"):
        read_account_csv(p)
    p.write_text("kind,date,amount\nbill,2026-01-15,100.005\n")
    with pytest.raises(ValueError, match="row 2 amount .* fraction of a cent"):
        read_account_csv(p)


def test_overpayment_goes_to_credit():
    r = penalty_schedule("300", DUE, [("2026-01-10", "350")], as_of="2026-02-01")
    assert r.credit == D("50.00") and r.total_due == D("0.00")
    assert r.events[0].to_credit == D("50")


def test_to_dict_is_json_ready():
    import json

    d = penalty_schedule("300", "2026-01-15", [("2026-03-10", "100")], as_of="2026-04-10").to_dict()
    for k in (
        "charge_outstanding",
        "penalties_outstanding",
        "total_due",
        "events",
        "relevy_date",
        "relevy_amount",
        "interpretation",
    ):
        assert k in d
    assert d["total_due"] == "220.18" and d["relevy_date"] is None and d["relevy_amount"] is None
    assert d["events"][0] == {
        **d["events"][0],
        "date": "2026-01-16",
        "kind": "penalty",
        "section": "§223-12F(2)",
        "amount": "15.00",
    }
    json.dumps(d)
    assert any("more than 60 days" in s for s in d["interpretation"])


def test_payments_after_as_of_ignored_with_note():
    r = penalty_schedule("300", DUE, [("2026-03-01", "100")], as_of="2026-02-01")
    assert not any(e.kind == "payment" for e in r.events)
    assert any("not applied" in n for n in r.notes)


@pytest.mark.parametrize(
    "kw,msg",
    [
        (dict(amount="-1"), "must not be negative"),
        (dict(amount="abc"), "must be a number"),
        (dict(payments=[("2026-02-01", "0")]), "must be positive"),
        (dict(payments=[("2026-02-01", "-5")]), "must be positive"),
        (dict(payments=[("2026/02/01", "5")]), "YYYY-MM-DD"),
        (dict(payments=[("2026-02-01",)]), "expected (date, amount)"),
        (dict(due_date="15 Jan"), "YYYY-MM-DD"),
    ],
)
def test_bad_input(kw, msg):
    args = dict(amount="300", due_date="2026-01-15", payments=[], as_of="2026-03-01")
    args.update(kw)
    with pytest.raises(ValueError, match=msg.replace("(", r"\(").replace(")", r"\)")):
        penalty_schedule(**args)


# --------------------------------------------------------------------------- property tests
money = st.integers(min_value=1, max_value=500_000).map(lambda c: D(c) / 100)


@settings(max_examples=150, deadline=None)
@given(
    amount=money,
    due_off=st.integers(0, 400),
    pays=st.lists(st.tuples(st.integers(-20, 800), money), max_size=6),
    asof_off=st.integers(0, 900),
)
def test_balance_never_negative_and_payments_fully_applied(amount, due_off, pays, asof_off):
    due = dt.date(2025, 1, 1) + dt.timedelta(days=due_off)
    as_of = due + dt.timedelta(days=asof_off)
    payments = [(due + dt.timedelta(days=o), a) for o, a in pays]
    r = penalty_schedule(amount, due, payments, as_of=as_of)
    pens_before = D(0)
    charge_before = amount
    for e in r.events:
        assert e.charge_after >= 0 and e.penalties_after >= 0 and e.credit_after >= 0
        if e.kind == "payment":
            # fully applied: penalties, then charge, then credit
            assert e.to_penalties + e.to_charge + e.to_relevied + e.to_credit == e.amount
            assert min(e.to_penalties, e.to_charge, e.to_credit) >= 0
            assert e.to_penalties == min(e.amount, pens_before)
            if e.to_charge > 0:
                assert e.penalties_after == 0
            assert e.to_charge == min(e.amount - e.to_penalties, charge_before)
            if e.to_credit > 0:
                assert e.penalties_after == 0 and e.charge_after == 0
        pens_before, charge_before = e.penalties_after, e.charge_after
    assert r.total_due >= 0 and r.credit >= 0
    # the event lines add up to the totals, to the cent
    assert sum((e.amount for e in r.events if e.kind == "penalty"), D(0)) == r.penalties_assessed
    assert all(e.amount == e.amount.quantize(D("0.01")) for e in r.events)
    # conservation (exact): charge + penalties assessed - payments = what is left + relevied - credit
    assessed = sum((e.amount for e in r.events if e.kind == "penalty"), D(0))
    paid = sum((e.amount for e in r.events if e.kind == "payment"), D(0))
    moved = sum((e.amount for e in r.events if e.kind == "relevy"), D(0))
    last = r.events[-1] if r.events else None
    left = (last.charge_after + last.penalties_after - last.credit_after) if last else amount
    assert amount + assessed - paid == left + moved - (moved - r.relevy_outstanding)
    # events are in date order
    assert [e.date for e in r.events] == sorted(e.date for e in r.events)


# --------------------------------------------------------------------------- meter test §223-6G
def test_meter_over_registering():
    # +2%: adjusted; true consumption 10,200 / 1.02 = 10,000; fee refunded.
    r = meter_test(10200, 2, 75)
    assert r.adjusted and r.fee_refunded
    assert r.adjusted_consumption == D("10000")
    assert r.fee_refund == D("75")
    assert r.section == "§223-6G"
    assert any("tested (disputed) billing period only" in n for n in r.notes)


def test_meter_under_registering():
    # -4%: adjusted upwards, 9,600 / 0.96 = 10,000; fee retained.
    r = meter_test(9600, -4, 75)
    assert r.adjusted and not r.fee_refunded
    assert r.adjusted_consumption == D("10000") and r.fee_refund == D("0")


@pytest.mark.parametrize(
    "err,adjusted,refund",
    [
        ("1.5", False, False),
        ("-1.5", False, False),
        ("1.51", True, True),
        ("-1.51", True, False),
        ("1.49", False, False),
        ("0", False, False),
    ],
)
def test_meter_tolerance_boundary(err, adjusted, refund):
    r = meter_test(1000, err, 50)
    assert r.adjusted is adjusted and r.fee_refunded is refund
    if not adjusted:
        assert r.adjusted_consumption == D(1000)


@pytest.mark.parametrize("args", [(-1, 2, 50), (1000, -100, 50), (1000, 2, -1), (1000, "x", 5)])
def test_meter_bad_input(args):
    with pytest.raises(ValueError):
        meter_test(*args)


@pytest.mark.parametrize("amount", ["1e27", "1e12", "-1e400"])
def test_absurd_amounts_are_refused_not_crashed(amount):
    with pytest.raises(ValueError, match="too large|negative|finite"):
        penalty_schedule(amount, "2026-01-15", as_of="2026-04-10")
    with pytest.raises(ValueError, match="too large"):
        penalty_schedule("300", "2026-01-15", payments=[("2026-02-01", "1e400")], as_of="2026-04-10")


@settings(max_examples=120, deadline=None)
@given(
    bills=st.lists(st.tuples(money, st.integers(0, 200)), min_size=1, max_size=4),
    pays=st.lists(st.tuples(st.integers(-20, 700), money), max_size=6),
    asof_off=st.integers(0, 800),
    months=st.sampled_from(["anniversary", "calendar"]),
)
def test_account_lines_sum_to_totals_to_the_cent(bills, pays, asof_off, months):
    # For any bills and payments: every line is whole cents; penalties lines = penalties assessed;
    # each payment is fully applied (its parts sum to it); and exactly
    # bills + penalties - payments = water total + tax-bill remainder - credit.
    from treecalc.rules.croton_on_hudson.ch223_water import account_statement

    start = dt.date(2025, 1, 1)
    bl = [(a, start + dt.timedelta(days=o), f"b{i}") for i, (a, o) in enumerate(bills)]
    py = [(start + dt.timedelta(days=o), a) for o, a in pays]
    s = account_statement(bl, py, as_of=start + dt.timedelta(days=asof_off), months=months)
    assert all(e.amount == e.amount.quantize(D("0.01")) for e in s.events)
    assert sum((e.amount for e in s.events if e.kind == "penalty"), D(0)) == s.penalties_assessed
    for b in s.bills:
        assert sum((e.amount for e in b.events if e.kind == "penalty"), D(0)) == b.penalties_assessed
        assert b.total_due == b.charge_outstanding + b.penalties_outstanding >= 0
    applied = sum((e.amount for e in s.events if e.kind == "payment"), D(0))
    assert applied == s.payments_total == sum((a for d, a in py if d <= s.as_of), D(0))
    billed = sum((a for a, _, _ in bl), D(0))
    assert billed + s.penalties_assessed - s.payments_total == s.total_due + s.relevy_outstanding - s.credit


@pytest.mark.parametrize("text", ["1,50", "100,5", "1,0,0", "12,34.56"])
def test_a_decimal_comma_is_refused_not_read_as_thousands(text):
    # '1,50' (a European 1.50) was read as 150.00 by stripping the comma: a bill 100 times too big
    # (5% penalty 7.50 instead of 0.08). A comma is only a thousands separator (groups of three).
    with pytest.raises(ValueError, match="comma"):
        penalty_schedule(text, "2026-01-15", as_of="2026-02-01")
    with pytest.raises(ValueError, match="payment 1 amount.*comma"):
        penalty_schedule("300", "2026-01-15", payments=[("2026-01-20", text)], as_of="2026-02-01")


def test_thousands_separators_still_read():
    # '1,234.50' and '$12,000' are thousands separators: 5% of 1,234.50 = 61.725 -> 61.73 (half up).
    r = penalty_schedule("1,234.50", "2026-01-15", as_of="2026-01-16")
    assert r.amount == D("1234.50") and r.penalties_assessed == D("61.73")
    assert penalty_schedule("$12,000", "2026-01-15", as_of="2026-01-15").amount == D("12000.00")


def test_account_csv_extra_values_are_refused_not_dropped(tmp_path):
    # 'bill,2026-01-15,1,000.00' (an unquoted thousands separator) split into amount '1' and an
    # unnamed '000.00' that the reader dropped: a $1,000 bill read as $1.00. Refused, naming the row.
    from treecalc.ingest.water_account import read_account_csv

    p = tmp_path / "account.csv"
    p.write_text("kind,date,amount\nbill,2026-01-15,1,000.00\n")
    with pytest.raises(ValueError, match="row 2.*4 values.*3 columns"):
        read_account_csv(p)
    # a trailing empty field (a spreadsheet's trailing comma) is harmless
    p.write_text("kind,date,amount\nbill,2026-01-15,1000.00,\n")
    assert read_account_csv(p)[0][0][0] == D("1000.00")


def test_account_csv_semicolons_and_bom(tmp_path):
    # A spreadsheet's export with a BOM and ';' separators: the same account as test_account_csv
    # (100 due 15 Jan, 200 due 15 Feb, 110 paid 20 Feb -> 206.00 due on 1 March).
    from treecalc.ingest.water_account import read_account_csv
    from treecalc.rules.croton_on_hudson.ch223_water import account_statement

    p = tmp_path / "account.csv"
    p.write_bytes(
        "\ufeffkind;date;amount;bill\nbill;2026-01-15;100.00;A\nbill;2026-02-15;200.00;B\n\n"
        "payment;2026-02-20;110.00;\n".encode()
    )
    bills, pays = read_account_csv(p)
    assert account_statement(bills, pays, as_of="2026-03-01").total_due == D("206.00")
    # a decimal comma in a ';' file is refused (never read as 10,000 cents)
    p.write_text("kind;date;amount\nbill;2026-01-15;100,50\n")
    with pytest.raises(ValueError, match="row 2 amount.*comma"):
        read_account_csv(p)


# -- the amount owed after the relevy stands beside "total due"; a bill not yet late is an answer ----------------
def test_total_owed_includes_the_amount_relevied_to_the_tax_bill():
    # $300.00 due 15 Jan 2026, never paid: 16 Jan 5% = 15.00, 16 Feb and 16 Mar 1% = 3.00 each -> 321.00, all
    # relevied on 15 Apr (90 days > 60). As of 1 Jul the water account owes 0.00 but 321.00 is owed on the tax
    # bill: total_owed = 0.00 + 321.00 = 321.00, never a bare $0.00.
    r = penalty_schedule("300", DUE, [], as_of="2026-07-01")
    assert r.total_due == D("0.00") and r.total_owed == D("321.00")
    assert r.to_dict()["total_owed"] == "321.00"
    # paying 21.00 on 1 May: 321.00 - 21.00 = 300.00 still owed on the tax bill
    r = penalty_schedule("300", DUE, [("2026-05-01", "21")], as_of="2026-07-01")
    assert r.total_owed == D("300.00")
    # an account: that relevied bill and a 100.00 bill due 15 Jun, unpaid on 1 Jul: 16 Jun 5% = 5.00 ->
    # total due 105.00 on the water account, 321.00 on the tax bill, total owed 426.00
    from treecalc.rules.croton_on_hudson.ch223_water import account_statement

    s = account_statement([("300", DUE), ("100", "2026-06-15")], [], as_of="2026-07-01")
    assert s.total_due == D("105.00") and s.relevy_outstanding == D("321.00") and s.total_owed == D("426.00")
    assert s.to_dict()["total_owed"] == "426.00"
    assert [b.total_owed for b in s.bills] == [D("321.00"), D("105.00")]


def test_a_single_bill_before_its_due_date_is_not_yet_late():
    # $300.00 due 15 Jan, as of 1 Jan: nothing late, no penalty; 300.00 due (as two bills answer)
    r = penalty_schedule("300", DUE, [], as_of="2026-01-01")
    assert r.penalties_assessed == D("0.00") and r.total_due == D("300.00") and r.total_owed == D("300.00")
    assert r.events == [] and any(n.startswith("not yet late on 2026-01-01") for n in r.notes)


def test_a_date_that_does_not_exist_is_said_so():
    with pytest.raises(ValueError, match=r"2026-02-29 does not exist.*28 days"):
        penalty_schedule("300", "2026-02-29", [], as_of="2026-07-01")


def test_a_penalty_event_is_frozen_and_equal_by_its_fields():
    # the event sets its fields in one step (an account of 10,000 bills makes ~75,000 of them): still frozen,
    # its defaults filled, equal to an event of the same fields and hashable as a frozen dataclass is
    from dataclasses import FrozenInstanceError, fields

    from treecalc.rules.croton_on_hudson.ch223_water import PenaltyEvent

    day = dt.date(2026, 1, 16)
    e = PenaltyEvent(day, "penalty", "§223-12F(2)", "5%", D("15.00"), D("300.00"), D("15.00"), D("0"), bill="b")
    assert e == PenaltyEvent(day, "penalty", "§223-12F(2)", "5%", D("15.00"), D("300.00"), D("15.00"), D("0"), bill="b")
    assert e != PenaltyEvent(day, "penalty", "§223-12F(2)", "5%", D("15.01"), D("300.00"), D("15.00"), D("0"), bill="b")
    assert (e.to_penalties, e.base, e.rate, e.relevied_after) == (D("0"), None, None, D("0"))
    assert [f.name for f in fields(e)] == list(vars(e))  # every field set, in the dataclass's order
    with pytest.raises(FrozenInstanceError):
        e.amount = D("0")  # type: ignore[misc]
    assert hash(e) == hash(PenaltyEvent(**vars(e)))
