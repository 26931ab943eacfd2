"""Chapter 223 (Water), §223-12F: late-payment penalties, partial payments and the relevy to the tax bill.

Village of Croton-on-Hudson, Chapter 223 (Water), Article I, Water Service Regulations. The chapter's
sections in its order: §223-6G (the meter test) in :mod:`treecalc.rules.croton_on_hudson.ch223_meter`,
§223-12F here:

- :func:`account_statement`: several bills on one account, payments applied oldest bill first
  (its penalties, then its charge, then the next bill), each bill's penalties and relevy to the
  tax bill, and the balance per bill and for the account as of a date (§223-12F).
- :func:`penalty_schedule`: the same for one bill (the statement of that bill).

The bills and payments of an account file are read by :func:`treecalc.ingest.water_account.read_account_csv`.

Money is in exact cents: each penalty is rounded to the cent (half up) when it is assessed, so
the event lines add up to the totals and paying the displayed total closes the account. The
rates and dates come from ``data/law/croton_on_hudson/ch223_water.toml``, and so do the numbers in
every sentence (readings, notes, event descriptions): they are templates over its entries.

References
----------
.. [1] Village of Croton-on-Hudson Code, Chapter 223, Water, §223-12F "Penalties for
   nonpayment of charges" (amended 12-7-2020 by L.L. No. 11-2020). Text in
   ``/work/shared/ordinances/001_0c9dbbc0a401b0cd.txt``.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from treecalc.ingest.water_account import MAX_ACCOUNT_ROWS
from treecalc.law import operator_of
from treecalc.law.access import meets
from treecalc.law.numbers import law_on, numbers
from treecalc.law.schema import OPERATOR_WORDS
from treecalc.money import MAX_MONEY, cents, parse_money_cents
from treecalc.quantities import add_months, to_date

__all__ = [
    "PenaltyEvent",
    "PenaltySchedule",
    "AccountStatement",
    "penalty_schedule",
    "account_statement",
    "relevy_date_for",
    "relevy_min_days_overdue",
    "relevy_overdue_words",
    "period_start_dates",
    "LAW",
]

ZERO = Decimal("0.00")
LAW = numbers("croton_on_hudson", "ch223_water")
MAX_AMOUNT = MAX_MONEY


# The chapter's numbers are read when a bill is worked out, in force on its due date (:func:`law_on`), never when
# this module is imported: an amendment applies to the bills due from its date, not to those due before it.
def _rate(key: str) -> Decimal:
    return LAW[key].value / 100


def _relevy_month_day() -> tuple[int, int]:
    return int(LAW["relevy_month"].value), int(LAW["relevy_day"].value)


def _sec_penalty() -> str:
    return LAW["first_penalty_rate"].section


def _sec_partial() -> str:
    return f"{_sec_penalty()} (partial payments)"


def _sec_relevy() -> str:
    return f"{LAW['relevy_overdue_days'].section} (relevy to Village tax bill)"


def _sec_no_penalty() -> str:
    """What no number of the chapter states: the whole charge paid by the due date carries no penalty (its
    ``[sections.no_penalty]`` record)."""
    return LAW.provision("no_penalty")


#: The names the chapter's numbers had as constants, read in force today (the presenters' labels).
_TODAY = {
    "FIRST_PENALTY_RATE": lambda: _rate("first_penalty_rate"),
    "MONTHLY_PENALTY_RATE": lambda: _rate("monthly_penalty_rate"),
    "RELEVY_MONTH": lambda: _relevy_month_day()[0],
    "RELEVY_DAY": lambda: _relevy_month_day()[1],
    "RELEVY_MONTH_NAME": lambda: calendar.month_name[_relevy_month_day()[0]],
    "SEC_PENALTY": _sec_penalty,
    "SEC_PARTIAL": _sec_partial,
    "SEC_RELEVY": _sec_relevy,
    "SEC_NO_PENALTY": _sec_no_penalty,
    "MONTH_READINGS": lambda: _month_readings(),
    "INTERPRETATION": lambda: _interpretation("anniversary"),
}


def __getattr__(name: str) -> Any:
    if name in _TODAY:
        return _TODAY[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _pct(n: Any) -> str:
    return f"{n.value.normalize():f}%"


def _operator(key: str) -> str:
    """The comparison the entry ``key`` of ch223_water.toml states (``relevy_overdue_days``: ``>``)."""
    return operator_of("croton_on_hudson", key, "ch223_water")


def _meets(key: str, x: Any) -> bool:
    """``x <operator> value`` as Chapter 223 states the comparison ``key``: the number and the operator are both
    the entry's (ch223_water.toml), so "more than 60 days" amended to "60 days or more" is an edit of the file."""
    return bool(meets("croton_on_hudson", key, x, LAW[key].value, chapter="ch223_water"))


def relevy_overdue_words() -> str:
    """The §223-12F(2) condition of the relevy as the law file states it: "more than 60 days overdue"."""
    return f"{OPERATOR_WORDS[_operator('relevy_overdue_days')]} {LAW['relevy_overdue_days'].value} days overdue"


def relevy_min_days_overdue() -> int:
    """The fewest whole days overdue that meet §223-12F(2) ("more than 60 days overdue": 61). A number of days
    overdue that is a maximum (``<``, ``<=``) is no reading of "more than": refused naming the entry."""
    return _min_days(_operator("relevy_overdue_days"), int(LAW["relevy_overdue_days"].value))


@functools.cache
def _min_days(op: str, v: int) -> int:
    # asked once per comparison and number (every bill's relevy date is found from it)
    if op not in (">", ">="):
        raise ValueError(
            f"data/law/croton_on_hudson/ch223_water.toml: [relevy_overdue_days] states operator {op!r}; the days "
            "overdue before the relevy are a minimum, > or >="
        )
    return next(n for n in (v, v + 1) if _meets("relevy_overdue_days", n))


# --------------------------------------------------------------------------- the penalties
def _month_readings() -> dict[str, str]:
    first, monthly = _pct(LAW["first_penalty_rate"]), _pct(LAW["monthly_penalty_rate"])
    return {
        "anniversary": f"each succeeding month is counted from the day after the due date (due 15 Jan: +{first} on "
        f"16 Jan, +{monthly} on 16 Feb, 16 Mar, ...), clamped to the last day of a shorter month",
        "calendar": f"each succeeding month is a calendar month: +{monthly} on the first day of every calendar month "
        f"after the month of the {first} penalty (due 15 Jan: +{first} on 16 Jan, +{monthly} on 1 Feb, 1 Mar, ...), "
        "as a clerk whose billing posts on the first of the month reads it",
    }


def _interpretation(months: str) -> list[str]:
    """The readings of §223-12F, built from the law's numbers in data/law (a new list each call: a schedule may
    add to its own)."""
    return list(_interpretation_text(months, relevy_min_days_overdue(), tuple(LAW.values())))


@functools.cache
def _interpretation_text(months: str, min_days: int, held: tuple[Any, ...]) -> tuple[str, ...]:
    # once per reading, comparison and version of the law (``held``, its numbers in force on the bill's due date):
    # every bill's schedule states it
    lf, lm, lr = LAW["first_penalty_rate"], LAW["monthly_penalty_rate"], LAW["relevy_overdue_days"]
    relevy_month, relevy_day = _relevy_month_day()
    month_name = calendar.month_name[relevy_month]
    return (
        f"{_sec_no_penalty()}: no penalty is assessed if the whole water charge is paid on or before the due "
        "date set forth on the bill.",
        f"{lf.section}: on the day after the due date, {_pct(lf)} of the water charge then unpaid is added "
        f"('{lf.text}').",
        f"{lm.section}: 'each succeeding month or any portion thereof' — months reading '{months}': "
        f"{_month_readings()[months]}. A month is charged if any part of the water charge is unpaid at its "
        f"start; the {_pct(lm)} is taken on the unpaid water charge, not on penalties (no compounding).",
        f"{lm.section}: each penalty is rounded to the cent, half up, when it is assessed; every line of the "
        "statement is in cents and the lines add up to the totals.",
        f"{_sec_partial()}: payments are applied to the oldest bill first: its penalties, then its water "
        "charge (the text: 'applied first to penalties'), then the next bill; what exceeds everything owed "
        "is a credit. A penalty falling on a day is assessed before payments received that day.",
        f"{lr.section}: '{lr.text}' on {relevy_day} {month_name} is read as the due date falling at least "
        f"{min_days} days before that {relevy_day} {month_name}; otherwise the following "
        "year's. On "
        "the relevy date (after that day's penalty and payments) the bill's unpaid charge and penalties are "
        "transferred to the Village tax bill (a lien); no further penalty accrues on the water account for "
        "them. Payments received afterwards go toward the amount relevied (shown as such); any tax-bill "
        "interest is the tax collector's and is not computed here.",
    )


# --------------------------------------------------------------------------- dates
def _check_months(months: str) -> str:
    m = str(months).strip().lower()
    if m not in ("anniversary", "calendar"):
        raise ValueError(f"months must be 'anniversary' or 'calendar', got {months!r}")
    return m


def period_start_dates(due_date: _dt.date, until: _dt.date, months: str = "anniversary") -> list[_dt.date]:
    """Start dates of the penalty periods of §223-12F(2) up to and including ``until``.

    The first is the day after the due date (5%). Then (1% each), by ``months``:
    ``'anniversary'`` one, two, ... calendar months after that first day, clamped to the month's
    last day; ``'calendar'`` the first day of each calendar month after the first day's month.
    """
    months = _check_months(months)
    first = due_date + _dt.timedelta(days=1)
    out: list[_dt.date] = []
    anchor = first if months == "anniversary" else first.replace(day=1)
    k = 0
    while True:
        d = first if k == 0 else add_months(anchor, k)
        if d > until:
            return out
        out.append(d)
        k += 1


def relevy_date_for(due_date: _dt.date) -> _dt.date:
    """The 15 April on which an unpaid bill is relevied to the tax bill (§223-12F(2)).

    The next 15 April strictly after the due date on which the bill is more than 60 days
    overdue, i.e. the due date is at least 61 days earlier; otherwise the following year's. The day, the days
    and the comparison ("more than": ``>``) are the law file's entries in force on the due date.
    """
    with law_on(due_date):  # the law in force on the bill's due date
        month, day = _relevy_month_day()
        d = _dt.date(due_date.year, month, day)
        if d <= due_date:
            d = _dt.date(due_date.year + 1, month, day)
        # "more than 60 days" met from the fewest days that meet it (the entry's number and comparison, asked once)
        if (d - due_date).days < relevy_min_days_overdue():
            d = _dt.date(d.year + 1, month, day)
        return d


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, init=False)
class PenaltyEvent:
    """One event of a water account: a penalty, a payment (or its part for one bill), or a relevy.

    Amounts are US dollars in exact cents. For a payment ``to_penalties + to_charge +
    to_relevied + to_credit == amount``; for the relevy, ``amount`` is what was transferred to the
    Village tax bill. ``*_after`` are the bill's balances after the event (``credit_after`` the
    account's); ``bill`` names the bill (None for a payment that went wholly to credit).
    """

    date: _dt.date
    kind: str  # 'penalty' | 'payment' | 'relevy'
    section: str
    description: str
    amount: Decimal
    charge_after: Decimal
    penalties_after: Decimal
    credit_after: Decimal
    to_penalties: Decimal = ZERO
    to_charge: Decimal = ZERO
    to_credit: Decimal = ZERO
    base: Decimal | None = None  # the unpaid charge a penalty was computed on
    rate: Decimal | None = None
    bill: str | None = None
    to_relevied: Decimal = ZERO
    relevied_after: Decimal = ZERO

    def __init__(
        self,
        date: _dt.date,
        kind: str,
        section: str,
        description: str,
        amount: Decimal,
        charge_after: Decimal,
        penalties_after: Decimal,
        credit_after: Decimal,
        to_penalties: Decimal = ZERO,
        to_charge: Decimal = ZERO,
        to_credit: Decimal = ZERO,
        base: Decimal | None = None,
        rate: Decimal | None = None,
        bill: str | None = None,
        to_relevied: Decimal = ZERO,
        relevied_after: Decimal = ZERO,
    ) -> None:
        # the fields set in one step: the frozen dataclass's own __init__ sets them one at a time through
        # object.__setattr__, and an account of 10,000 bills makes ~75,000 events (frozen all the same after)
        self.__dict__.update(
            date=date,
            kind=kind,
            section=section,
            description=description,
            amount=amount,
            charge_after=charge_after,
            penalties_after=penalties_after,
            credit_after=credit_after,
            to_penalties=to_penalties,
            to_charge=to_charge,
            to_credit=to_credit,
            base=base,
            rate=rate,
            bill=bill,
            to_relevied=to_relevied,
            relevied_after=relevied_after,
        )

    @property
    def total_after(self) -> Decimal:
        return self.charge_after + self.penalties_after

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "date": self.date.isoformat(),
            "bill": self.bill,
            "kind": self.kind,
            "section": self.section,
            "description": self.description,
            "amount": str(self.amount),
            "charge_after": str(self.charge_after),
            "penalties_after": str(self.penalties_after),
            "total_after": str(self.total_after),
            "relevied_after": str(self.relevied_after),
            "credit_after": str(self.credit_after),
        }
        if self.kind == "payment":
            d.update(
                to_penalties=str(self.to_penalties),
                to_charge=str(self.to_charge),
                to_relevied=str(self.to_relevied),
                to_credit=str(self.to_credit),
            )
        if self.kind == "penalty":
            d.update(base=str(self.base or ZERO), rate_pct=f"{((self.rate or ZERO) * 100).normalize():f}")
        return d


def _balances(s: PenaltySchedule | AccountStatement, **between: str) -> dict[str, str]:
    """The balances of a bill's or an account's statement, in the JSON's order (``between`` after the totals)."""
    return {
        "charge_outstanding": str(s.charge_outstanding),
        "penalties_outstanding": str(s.penalties_outstanding),
        "total_due": str(s.total_due),
        "total_owed": str(s.total_owed),
        **between,
        "credit": str(s.credit),
        "penalties_assessed": str(s.penalties_assessed),
        "payments_total": str(s.payments_total),
    }


@dataclass(frozen=True)
class PenaltySchedule:
    """The statement of one water bill as of ``as_of`` (§223-12F), in exact cents.

    ``charge_outstanding``, ``penalties_outstanding`` and ``total_due`` remain on the water account;
    ``relevy_amount`` was transferred to the Village tax bill on ``relevy_date`` and
    ``relevy_outstanding`` of it is still unpaid; ``scheduled_relevy_date`` is the 15 April on which
    the bill will be relevied if still unpaid. ``events`` are this bill's (for a one-bill
    statement, also payments that went wholly to credit).
    """

    amount: Decimal
    due_date: _dt.date
    as_of: _dt.date
    events: list[PenaltyEvent]
    charge_outstanding: Decimal
    penalties_outstanding: Decimal
    total_due: Decimal
    credit: Decimal
    penalties_assessed: Decimal
    payments_total: Decimal
    relevy_date: _dt.date | None
    relevy_amount: Decimal | None
    scheduled_relevy_date: _dt.date | None
    interpretation: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    relevy_outstanding: Decimal = ZERO
    months: str = "anniversary"
    bill: str = "bill 1"

    @property
    def total_owed(self) -> Decimal:
        """What is still owed on the bill: ``total_due`` on the water account plus ``relevy_outstanding`` on the
        tax bill (§223-12F(2)); after the 15 April relevy ``total_due`` alone reads 0.00 while this is owed."""
        return self.total_due + self.relevy_outstanding

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: amounts as strings in cents, dates ISO."""
        return {
            "bill": self.bill,
            "amount": str(self.amount),
            "due_date": self.due_date.isoformat(),
            "as_of": self.as_of.isoformat(),
            "months": self.months,
            **_balances(self),
            "relevy_date": self.relevy_date.isoformat() if self.relevy_date else None,
            "relevy_amount": None if self.relevy_amount is None else str(self.relevy_amount),
            "relevy_outstanding": str(self.relevy_outstanding),
            "scheduled_relevy_date": (self.scheduled_relevy_date.isoformat() if self.scheduled_relevy_date else None),
            "events": [e.to_dict() for e in self.events],
            "interpretation": list(self.interpretation),
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class AccountStatement:
    """Several bills on one water account as of ``as_of``: per bill and totals, exact cents.

    ``total_due`` is what the water account owes; ``relevy_outstanding`` what remains of the
    amounts relevied to the tax bill; ``credit`` payments beyond everything owed.
    """

    as_of: _dt.date
    months: str
    bills: list[PenaltySchedule]
    events: list[PenaltyEvent]
    charge_outstanding: Decimal
    penalties_outstanding: Decimal
    total_due: Decimal
    relevy_outstanding: Decimal
    credit: Decimal
    penalties_assessed: Decimal
    payments_total: Decimal
    interpretation: list[str]
    notes: list[str]

    @property
    def total_owed(self) -> Decimal:
        """What the account still owes: ``total_due`` on the water account plus ``relevy_outstanding`` on the
        tax bill (§223-12F(2))."""
        return self.total_due + self.relevy_outstanding

    def to_dict(self) -> dict[str, Any]:
        return {
            "as_of": self.as_of.isoformat(),
            "months": self.months,
            **_balances(self, relevy_outstanding=str(self.relevy_outstanding)),
            "bills": [b.to_dict() for b in self.bills],
            "events": [e.to_dict() for e in self.events],
            "interpretation": list(self.interpretation),
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- the ledger
@dataclass
class _Bill:
    """Mutable state of one bill while the account is walked day by day."""

    label: str
    amount: Decimal
    due: _dt.date
    periods: dict[_dt.date, int]
    relevy_on: _dt.date
    charge: Decimal = ZERO
    pens: Decimal = ZERO
    relevied: Decimal = ZERO  # unpaid part of what went to the tax bill
    assessed: Decimal = ZERO
    paid: Decimal = ZERO
    relevy_date: _dt.date | None = None
    relevy_amount: Decimal | None = None
    events: list[PenaltyEvent] = field(default_factory=list)
    #: the first and the monthly penalty rates in force on the due date, read at the bill's first penalty (an
    #: account of many bills would otherwise look the dated law up for every month of every bill)
    rates: tuple[Any, Any] | None = None

    def owed(self) -> Decimal:
        return self.pens + self.charge + self.relevied


class _Account:
    def __init__(self, bills: list[_Bill]):
        self.bills = bills
        self.first = 0  # no bill before this one owes anything
        self.credit = ZERO
        self.paid = ZERO
        self.events: list[PenaltyEvent] = []

    def _add(self, b: _Bill | None, e: PenaltyEvent) -> None:
        self.events.append(e)
        if b is not None:
            b.events.append(e)

    def penalty(self, b: _Bill, day: _dt.date, n: int | None = None) -> None:
        # the first penalty the day after the due date, then the monthly one for each succeeding month or portion
        # thereof, on the unpaid water charge at the start of the period; rounded to the cent now.
        # ``n``: the period that starts on ``day``, when the caller found the bill by its periods already
        n = b.periods.get(day) if n is None else n
        if n is None or b.charge <= 0 or b.relevy_date is not None:
            return
        if b.rates is None:
            with law_on(b.due):  # the rates in force on the bill's due date
                b.rates = (LAW["first_penalty_rate"], LAW["monthly_penalty_rate"])
        entry = b.rates[0 if n == 0 else 1]
        rate = entry.value / 100
        pen = cents(b.charge * rate)
        b.pens += pen
        b.assessed += pen
        what = (
            f"{_pct(entry)} of the unpaid water charge {b.charge}, not paid by the due date"
            if n == 0
            else f"{_pct(entry)} of the unpaid water charge {b.charge} for succeeding month {n} (or portion)"
        )
        self._add(
            b,
            PenaltyEvent(
                day,
                "penalty",
                entry.section,
                what,
                pen,
                b.charge,
                b.pens,
                self.credit,
                base=b.charge,
                rate=rate,
                bill=b.label,
            ),
        )

    def payment(self, day: _dt.date, amount: Decimal) -> None:
        # the partial payments: "such payments shall be applied first to penalties"; oldest bill first (reading).
        self.paid += amount
        left = amount
        last: tuple[_Bill, dict[str, Decimal]] | None = None
        parts: list[tuple[_Bill | None, dict[str, Decimal]]] = []
        # a bill that owes nothing never owes again (a penalty needs an unpaid charge): the paid ones before
        # the first that owes are skipped once, so many payments on many bills stay linear
        while self.first < len(self.bills) and self.bills[self.first].owed() <= 0:
            self.first += 1
        for i in range(self.first, len(self.bills)):
            b = self.bills[i]
            if left <= 0:
                break
            if b.owed() <= 0:
                continue
            to_r = min(left, b.relevied)
            to_p = min(left - to_r, b.pens)
            to_c = min(left - to_r - to_p, b.charge)
            b.relevied, b.pens, b.charge = b.relevied - to_r, b.pens - to_p, b.charge - to_c
            b.paid += to_r + to_p + to_c
            left -= to_r + to_p + to_c
            last = (b, {"r": to_r, "p": to_p, "c": to_c, "cr": ZERO})
            parts.append(last)
        self.credit += left
        if last is not None:
            last[1]["cr"] = left
        for bill, a in parts or [(None, {"r": ZERO, "p": ZERO, "c": ZERO, "cr": left})]:
            self._payment_event(day, amount, bill, a)

    def _payment_event(self, day: _dt.date, amount: Decimal, b: _Bill | None, a: dict[str, Decimal]) -> None:
        part = a["r"] + a["p"] + a["c"] + a["cr"]
        bits = [f"{a['p']} to penalties", f"{a['c']} to the water charge"]
        if a["r"]:
            bits.insert(0, f"{a['r']} to the amount relevied to the tax bill")
        bits.append(f"{a['cr']} to credit")
        whole = "" if part == amount else f" (part of a payment of {amount})"
        desc = f"payment {part}{whole}" + (f" on {b.label}" if b else "") + ": " + ", ".join(bits)
        with law_on(b.due if b else None):  # the bill's law (a payment wholly to credit: today's)
            section = _sec_partial()
        self._add(
            b,
            PenaltyEvent(
                day,
                "payment",
                section,
                desc,
                part,
                b.charge if b else ZERO,
                b.pens if b else ZERO,
                self.credit,
                to_penalties=a["p"],
                to_charge=a["c"],
                to_credit=a["cr"],
                bill=b.label if b else None,
                to_relevied=a["r"],
                relevied_after=b.relevied if b else ZERO,
            ),
        )

    def relevy(self, b: _Bill, day: _dt.date) -> None:
        # relevy_overdue_days: on the next succeeding April 15 unpaid rents and penalties more than 60 days
        # overdue are added to the Village tax bills and become a lien (relevy_on: relevy_date_for).
        if day != b.relevy_on or b.relevy_date is not None or b.charge + b.pens <= 0:
            return
        moved = b.charge + b.pens
        with law_on(b.due):  # the law in force on the bill's due date
            section = _sec_relevy()
            desc = (
                f"water charge {b.charge} and penalties {b.pens}, {relevy_overdue_words()} ({(day - b.due).days} "
                "days), transferred to the Village tax bill (lien)"
            )
        b.charge, b.pens, b.relevied = ZERO, ZERO, b.relevied + moved
        b.relevy_date, b.relevy_amount = day, moved
        self._add(
            b,
            PenaltyEvent(
                day, "relevy", section, desc, moved, ZERO, ZERO, self.credit, bill=b.label, relevied_after=b.relevied
            ),
        )


# --------------------------------------------------------------------------- inputs
def _payments(payments: Iterable[Any] | None, asof: _dt.date, notes: list[str]) -> list[tuple[_dt.date, Decimal]]:
    pays: list[tuple[_dt.date, Decimal, int]] = []
    for i, p in enumerate(payments or []):
        if i >= MAX_ACCOUNT_ROWS:
            raise ValueError(f"an account takes at most {MAX_ACCOUNT_ROWS:,} payments")
        try:
            pd_, pa_ = p
        except (TypeError, ValueError):
            raise ValueError(f"payment {i + 1}: expected (date, amount), got {p!r}") from None
        pdate = to_date(pd_, f"payment {i + 1} date")
        pamt = parse_money_cents(pa_, f"payment {i + 1} amount")
        if pamt <= 0:
            raise ValueError(f"payment {i + 1} amount must be positive, got {pa_!r}")
        if pdate > asof:
            notes.append(
                f"payment of {pamt} on {pdate.isoformat()} is after the statement date "
                f"({asof.isoformat()}) and was not applied"
            )
            continue
        pays.append((pdate, pamt, i))
    pays.sort(key=lambda t: (t[0], t[2]))
    return [(d, a) for d, a, _ in pays]


def _bills(bills: Iterable[Any], asof: _dt.date, months: str) -> list[_Bill]:
    out: list[_Bill] = []
    for i, b in enumerate(bills):
        if i >= MAX_ACCOUNT_ROWS:
            raise ValueError(f"an account takes at most {MAX_ACCOUNT_ROWS:,} bills (monthly bills for over 800 years)")
        try:
            amt, due, *rest = b
        except (TypeError, ValueError):
            raise ValueError(f"bill {i + 1}: expected (amount, due date[, label]), got {b!r}") from None
        amount = parse_money_cents(amt, f"bill {i + 1} amount")
        if amount < 0:
            raise ValueError(f"bill {i + 1} amount must not be negative, got {amt!r}")
        d = to_date(due, f"bill {i + 1} due date")
        label = str(rest[0]) if rest and rest[0] else f"bill due {d.isoformat()}"
        periods = {p: n for n, p in enumerate(period_start_dates(d, asof, months))}
        out.append(_Bill(label, amount, d, periods, relevy_date_for(d), charge=amount))
    if not out:
        raise ValueError("an account needs at least one bill")
    labels = [b.label for b in out]
    if len(set(labels)) != len(labels):
        raise ValueError("two bills have the same label: give each bill its own label or due date")
    out.sort(key=lambda b: b.due)  # oldest bill first (stable for equal due dates)
    return out


# --------------------------------------------------------------------------- statements
def _walk(acct: _Account, pays: list[tuple[_dt.date, Decimal]], asof: _dt.date) -> None:
    """Every day on which something happens, in order: penalties, then payments, then relevies."""
    # each day's bills found by the day (bills in their order), not by asking every bill on every day: the
    # walk is linear in the periods, payments and bills (10,000 bills took minutes when it was quadratic)
    pen_on: dict[_dt.date, list[tuple[_Bill, int]]] = {}
    relevy_on: dict[_dt.date, list[_Bill]] = {}
    for b in acct.bills:
        for d, n in b.periods.items():
            pen_on.setdefault(d, []).append((b, n))
        if b.relevy_on <= asof:
            relevy_on.setdefault(b.relevy_on, []).append(b)
    days = set(pen_on) | set(relevy_on) | {d for d, _ in pays}
    k = 0
    for day in sorted(days):
        for b, n in pen_on.get(day, ()):
            if b.charge > 0 and b.relevy_date is None:  # (a bill paid or relevied owes no penalty: not asked)
                acct.penalty(b, day, n)
        while k < len(pays) and pays[k][0] == day:
            acct.payment(day, pays[k][1])
            k += 1
        for b in relevy_on.get(day, ()):
            acct.relevy(b, day)


def _bill_schedule(
    b: _Bill,
    asof: _dt.date,
    credit: Decimal,
    months: str,
    events: list[PenaltyEvent] | None = None,
    notes: list[str] | None = None,
) -> PenaltySchedule:
    with law_on(b.due):  # the notes and readings of the law in force on the bill's due date
        return _bill_schedule_on(b, asof, credit, months, events, list(notes or []))


def _bill_schedule_on(
    b: _Bill, asof: _dt.date, credit: Decimal, months: str, events: list[PenaltyEvent] | None, notes: list[str]
) -> PenaltySchedule:
    if b.amount == 0:
        notes.append(f"{b.label} is for $0.00: nothing can be owed")
    elif b.assessed == 0 and b.charge == 0 and b.relevy_date is None:
        notes.append(f"{_sec_no_penalty()}: {b.label} paid in full by the due date; no penalty assessed")
    scheduled = None
    if b.relevy_date is None and b.charge + b.pens > 0:
        scheduled = b.relevy_on
        notes.append(
            f"{_sec_relevy()}: if {b.label} is still unpaid on {b.relevy_on.isoformat()}, its unpaid "
            "charge and penalties will be transferred to the Village tax bill"
        )
    if b.relevy_date is not None:
        notes.append(
            f"{_sec_relevy()}: {b.relevy_amount} of {b.label} was transferred to the Village tax bill on "
            f"{b.relevy_date.isoformat()}; {b.relevied} of it is still unpaid (collected with the "
            "taxes, not in total_due)"
        )
    return PenaltySchedule(
        amount=b.amount,
        due_date=b.due,
        as_of=asof,
        events=list(b.events if events is None else events),
        charge_outstanding=b.charge,
        penalties_outstanding=b.pens,
        total_due=b.charge + b.pens,
        credit=credit,
        penalties_assessed=b.assessed,
        payments_total=b.paid,
        relevy_date=b.relevy_date,
        relevy_amount=b.relevy_amount,
        scheduled_relevy_date=scheduled,
        interpretation=_interpretation(months),
        notes=notes,
        relevy_outstanding=b.relevied,
        months=months,
        bill=b.label,
    )


def account_statement(
    bills: Iterable[Any],
    payments: Iterable[tuple[Any, Any]] | None = None,
    as_of: Any = None,
    months: str = "anniversary",
) -> AccountStatement:
    """Penalties, payments and relevies of several bills on one water account, as of a date.

    Parameters
    ----------
    bills : iterable of (amount, due_date[, label])
        Each bill's water charge (US dollars in cents, >= 0) and the due date set forth on it.
    payments : iterable of (date, amount), optional
        Payments received (US dollars in cents, > 0). Payments after ``as_of`` are not applied (noted).
    as_of : datetime.date or ISO str, optional
        The date of the statement (default: today).
    months : {'anniversary', 'calendar'}
        The reading of "each succeeding month" in §223-12F(2) (see :func:`_month_readings`).

    Returns
    -------
    AccountStatement
        Per bill (:class:`PenaltySchedule`) and account totals, every event, exact cents.

    References
    ----------
    .. [1] Croton-on-Hudson Code §223-12F(1)(a) and (2).
    """
    months = _check_months(months)
    asof = _dt.date.today() if as_of is None else to_date(as_of, "as_of")
    notes: list[str] = []
    pays = _payments(payments, asof, notes)
    acct = _Account(_bills(bills, asof, months))
    _walk(acct, pays, asof)
    scheds = [_bill_schedule(b, asof, ZERO, months) for b in acct.bills]
    if acct.credit > 0:
        notes.append(f"payments exceed what the account owed: credit of {acct.credit}")
    not_due = [b.label for b in acct.bills if b.due >= asof]
    if not_due:
        notes.append(f"not yet late on {asof.isoformat()}: {', '.join(not_due)}")
    total = sum((b.charge + b.pens for b in acct.bills), ZERO)
    return AccountStatement(
        as_of=asof,
        months=months,
        bills=scheds,
        events=acct.events,
        charge_outstanding=sum((b.charge for b in acct.bills), ZERO),
        penalties_outstanding=sum((b.pens for b in acct.bills), ZERO),
        total_due=total,
        relevy_outstanding=sum((b.relevied for b in acct.bills), ZERO),
        credit=acct.credit,
        penalties_assessed=sum((b.assessed for b in acct.bills), ZERO),
        payments_total=acct.paid,
        interpretation=scheds[-1].interpretation,  # the readings of the law in force on the latest bill's due date
        notes=notes,
    )


def penalty_schedule(
    amount: Any,
    due_date: Any,
    payments: Iterable[tuple[Any, Any]] | None = None,
    as_of: Any = None,
    months: str = "anniversary",
) -> PenaltySchedule:
    """Penalties, payments and relevy of one water bill, and its balance as of a date.

    The :func:`account_statement` of an account with this one bill, which is due by ``as_of``.

    Parameters
    ----------
    amount : Decimal, str, int or float
        The water charge on the bill, US dollars in cents (>= 0).
    due_date : datetime.date or ISO str
        The due date set forth on the bill.
    payments : iterable of (date, amount), optional
        Payments received, each a date and a positive amount in US dollars and cents. Payments
        on the same date are applied in the order given; payments after ``as_of`` are ignored (noted).
    as_of : datetime.date or ISO str, optional
        The date of the balance (default: today); before ``due_date`` the bill is not yet late (noted).
    months : {'anniversary', 'calendar'}
        The reading of "each succeeding month" (§223-12F(2)).

    Returns
    -------
    PenaltySchedule
        Events in date order (within a day: penalty, then payments, then relevy), balances in
        exact cents, the relevy date and amount, and the readings used.

    Raises
    ------
    ValueError
        Negative amount, non-positive payment, a fraction of a cent, or a bad date.

    References
    ----------
    .. [1] Croton-on-Hudson Code §223-12F(1)(a) and (2).
    """
    due = to_date(due_date, "due_date")
    amt = parse_money_cents(amount, "amount")
    if amt < 0:
        raise ValueError(f"amount must not be negative, got {amount!r}")
    asof = _dt.date.today() if as_of is None else to_date(as_of, "as_of")
    s = account_statement([(amt, due, "bill 1")], payments, as_of=asof, months=months)
    b = s.bills[0]
    # before (or on) the due date the bill is not yet late: said, as for an account of several bills
    notes = [n for n in s.notes if not n.startswith("not yet late")]
    if due >= asof:
        with law_on(due):  # the provision in force on the bill's due date
            notes.append(f"not yet late on {asof.isoformat()}: due {due.isoformat()}, no penalty ({_sec_no_penalty()})")
    return _bill_schedule_from(b, s, notes)


def _bill_schedule_from(b: PenaltySchedule, s: AccountStatement, notes: list[str]) -> PenaltySchedule:
    """The one bill of ``s`` with the account's events (payments wholly to credit included) and credit."""
    return PenaltySchedule(
        amount=b.amount,
        due_date=b.due_date,
        as_of=b.as_of,
        events=list(s.events),
        charge_outstanding=b.charge_outstanding,
        penalties_outstanding=b.penalties_outstanding,
        total_due=b.total_due,
        credit=s.credit,
        penalties_assessed=b.penalties_assessed,
        payments_total=s.payments_total,
        relevy_date=b.relevy_date,
        relevy_amount=b.relevy_amount,
        scheduled_relevy_date=b.scheduled_relevy_date,
        interpretation=list(s.interpretation),
        notes=[*b.notes, *notes],
        relevy_outstanding=b.relevy_outstanding,
        months=s.months,
        bill=b.bill,
    )
