"""Water bills: late-payment penalties (§223-12F) and the meter accuracy test (§223-6G).

Village of Croton-on-Hudson, Chapter 223 (Water), Article I, Water Service Regulations.

- :func:`penalty_schedule`: every penalty, payment and relevy event of one water bill, in
  order, and the balance (charge, penalties, total, credit) as of a date (§223-12F).
- :func:`meter_test`: whether a disputed bill is adjusted after a meter test, the adjusted
  consumption for the tested period, and whether the test fee is refunded (§223-6G).

Money is exact (:class:`decimal.Decimal`); amounts are rounded to cents (half-up) only in the
totals and in :meth:`PenaltySchedule.to_dict`.

References
----------
.. [1] Village of Croton-on-Hudson Code, Chapter 223, Water, §223-12F "Penalties for
   nonpayment of charges" (amended 12-7-2020 by L.L. No. 11-2020) and §223-6G (meter
   testing). Text in ``/work/shared/ordinances/001_0c9dbbc0a401b0cd.txt``.
"""

from __future__ import annotations

import calendar
import datetime as _dt
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Iterable

__all__ = [
    "PenaltyEvent", "PenaltySchedule", "MeterTestResult", "penalty_schedule", "meter_test",
    "relevy_date_for", "period_start_dates", "to_decimal", "cents",
]

CENT = Decimal("0.01")
ZERO = Decimal("0")

# §223-12F(2): "a penalty of 5% of the amount due shall be assessed"
FIRST_PENALTY_RATE = Decimal("0.05")
# §223-12F(2): "a further penalty of 1% ... for each succeeding month or any portion thereof"
MONTHLY_PENALTY_RATE = Decimal("0.01")
# §223-12F(2): "on the next succeeding April 15 ... more than 60 days overdue"
RELEVY_MONTH, RELEVY_DAY = 4, 15
RELEVY_MIN_DAYS_OVERDUE = 61  # "more than 60 days" = at least 61 whole days
# §223-6G: "an error in registration (more than 1.5%, plus or minus)"
METER_TOLERANCE_PCT = Decimal("1.5")

SEC_NO_PENALTY = "§223-12F(1)(a)"
SEC_PENALTY = "§223-12F(2)"
SEC_PARTIAL = "§223-12F(2) (partial payments)"
SEC_RELEVY = "§223-12F(2) (relevy to Village tax bill)"
SEC_METER = "§223-6G"

INTERPRETATION = [
    f"{SEC_NO_PENALTY}: no penalty is assessed if the whole water charge is paid on or before the "
    "due date set forth on the bill.",
    f"{SEC_PENALTY}: on the day after the due date, 5% of the water charge then unpaid is added "
    "('5% of the amount due').",
    f"{SEC_PENALTY}: 'each succeeding month or any portion thereof' is read as periods starting one, "
    "two, ... calendar months after the day after the due date (due 15 Jan: +5% on 16 Jan, +1% on "
    "16 Feb, +1% on 16 Mar, ...), each counted from that first day and clamped to the last day of "
    "a shorter month (due 30 Jan: 31 Jan, 28/29 Feb, 31 Mar). A period is charged if any part of "
    "the water charge is unpaid at its start; the 1% is taken on the unpaid water charge at that "
    "moment, not on penalties (no compounding).",
    f"{SEC_PARTIAL}: partial payments are applied first to outstanding penalties, then to the water "
    "charge; any excess is shown as a credit. A penalty falling on a day is assessed at the start "
    "of that day, before payments received that day (a payment on the day after the due date is "
    "late).",
    f"{SEC_RELEVY}: 'more than 60 days overdue' on 15 April is read as the due date falling at "
    "least 61 days before that 15 April (e.g. due on or before 13 February in a common year, 14 "
    "February in a leap year). A bill due later than that, or on/after 15 April, is relevied on "
    "the following year's 15 April. On the relevy date (after that day's penalty and payments) "
    "the whole unpaid water charge and all penalties thereon are transferred to the Village tax "
    "bill and become a lien; no further penalties accrue on the water account for what was "
    "transferred. Payments to the water account after the relevy are shown as a credit (the "
    "transferred amount is collected with the tax bill).",
    "Arithmetic is exact; totals are rounded to cents half-up only at the end, so the rounded "
    "event amounts may differ from the totals by a cent.",
]


# --------------------------------------------------------------------------- helpers
#: Largest amount accepted (USD): far above any water bill, far below decimal's precision.
MAX_AMOUNT = Decimal(10) ** 12


def to_decimal(x: Any, name: str = "amount") -> Decimal:
    """``x`` as an exact Decimal (floats through ``str`` so 0.1 stays 0.1); ValueError if not finite."""
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a number, got {x!r}")
    try:
        d = x if isinstance(x, Decimal) else Decimal(str(x).strip().replace(",", "").lstrip("$"))
    except (InvalidOperation, ValueError):
        raise ValueError(f"{name} must be a number, got {x!r}") from None
    if not d.is_finite():
        raise ValueError(f"{name} must be a finite number, got {x!r}")
    if abs(d) >= MAX_AMOUNT:
        # beyond this the cent arithmetic would exceed decimal's 28-digit precision
        raise ValueError(f"{name} {x!r} is too large: amounts must be under ${MAX_AMOUNT:,}")
    return d


def cents(x: Decimal) -> Decimal:
    """Round to cents, half-up (the only rounding step)."""
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def _to_date(x: Any, name: str) -> _dt.date:
    if isinstance(x, _dt.datetime):
        return x.date()
    if isinstance(x, _dt.date):
        return x
    if isinstance(x, str):
        try:
            return _dt.date.fromisoformat(x.strip())
        except ValueError:
            raise ValueError(f"{name} must be a date YYYY-MM-DD, got {x!r}") from None
    raise ValueError(f"{name} must be a date, got {x!r}")


def _add_months(d: _dt.date, months: int) -> _dt.date:
    """``d`` plus whole calendar months, clamped to the last day of the target month."""
    m = d.month - 1 + months
    y, m = d.year + m // 12, m % 12 + 1
    return _dt.date(y, m, min(d.day, calendar.monthrange(y, m)[1]))


def period_start_dates(due_date: _dt.date, until: _dt.date) -> list[_dt.date]:
    """Start dates of the penalty periods of §223-12F(2) up to and including ``until``.

    The first is the day after the due date (5%); then one, two, ... calendar months after
    that first day (1% each), clamped to the month's last day.
    """
    first = due_date + _dt.timedelta(days=1)
    out, k = [], 0
    while True:
        d = _add_months(first, k)
        if d > until:
            return out
        out.append(d)
        k += 1


def relevy_date_for(due_date: _dt.date) -> _dt.date:
    """The 15 April on which an unpaid bill is relevied to the tax bill (§223-12F(2)).

    The next 15 April strictly after the due date on which the bill is more than 60 days
    overdue, i.e. the due date is at least 61 days earlier; otherwise the following year's.
    """
    d = _dt.date(due_date.year, RELEVY_MONTH, RELEVY_DAY)
    if d <= due_date:
        d = _dt.date(due_date.year + 1, RELEVY_MONTH, RELEVY_DAY)
    if (d - due_date).days < RELEVY_MIN_DAYS_OVERDUE:
        d = _dt.date(d.year + 1, RELEVY_MONTH, RELEVY_DAY)
    return d


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class PenaltyEvent:
    """One event of a water bill: a penalty, a payment, or the relevy to the tax bill.

    Amounts are exact Decimals in US dollars (rounded in :meth:`to_dict`). For a payment,
    ``to_penalties + to_charge + to_credit == amount``; for the relevy, ``amount`` is what was
    transferred to the Village tax bill.
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

    @property
    def total_after(self) -> Decimal:
        return self.charge_after + self.penalties_after

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "date": self.date.isoformat(), "kind": self.kind, "section": self.section,
            "description": self.description, "amount": str(cents(self.amount)),
            "charge_after": str(cents(self.charge_after)),
            "penalties_after": str(cents(self.penalties_after)),
            "total_after": str(cents(self.total_after)),
            "credit_after": str(cents(self.credit_after)),
        }
        if self.kind == "payment":
            d.update(to_penalties=str(cents(self.to_penalties)), to_charge=str(cents(self.to_charge)),
                     to_credit=str(cents(self.to_credit)))
        if self.kind == "penalty":
            d.update(base=str(cents(self.base or ZERO)), rate_pct=str((self.rate or ZERO) * 100))
        return d


@dataclass(frozen=True)
class PenaltySchedule:
    """The schedule and balance of one water bill as of ``as_of`` (§223-12F).

    ``charge_outstanding``, ``penalties_outstanding`` and ``total_due`` are what remains on the
    water account (after any relevy); ``relevy_amount`` is what was transferred to the Village
    tax bill on ``relevy_date`` (None if no relevy by ``as_of``); ``scheduled_relevy_date`` is
    the 15 April on which the bill would be relevied if still unpaid. Dollars, rounded to cents.
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: Decimals as strings with 2 decimals, dates ISO."""
        return {
            "amount": str(cents(self.amount)), "due_date": self.due_date.isoformat(),
            "as_of": self.as_of.isoformat(),
            "charge_outstanding": str(self.charge_outstanding),
            "penalties_outstanding": str(self.penalties_outstanding),
            "total_due": str(self.total_due), "credit": str(self.credit),
            "penalties_assessed": str(self.penalties_assessed),
            "payments_total": str(self.payments_total),
            "relevy_date": self.relevy_date.isoformat() if self.relevy_date else None,
            "relevy_amount": None if self.relevy_amount is None else str(self.relevy_amount),
            "scheduled_relevy_date": (self.scheduled_relevy_date.isoformat()
                                      if self.scheduled_relevy_date else None),
            "events": [e.to_dict() for e in self.events],
            "interpretation": list(self.interpretation), "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- schedule
def penalty_schedule(amount: Any, due_date: Any, payments: Iterable[tuple[Any, Any]] | None = None,
                     as_of: Any = None) -> PenaltySchedule:
    """Penalties, payments and relevy of one water bill, and its balance as of a date.

    Parameters
    ----------
    amount : Decimal, str, int or float
        The water charge on the bill, US dollars (>= 0).
    due_date : datetime.date or ISO str
        The due date set forth on the bill.
    payments : iterable of (date, amount), optional
        Payments received, each a date and a positive amount in US dollars. Payments on the
        same date are applied in the order given; payments after ``as_of`` are ignored (noted).
    as_of : datetime.date or ISO str, optional
        The date of the balance (default: today). Must not be before ``due_date``.

    Returns
    -------
    PenaltySchedule
        Events in date order (within a day: penalty, then payments, then relevy), balances in
        dollars rounded to cents, the relevy date and amount, and the interpretation used.

    Raises
    ------
    ValueError
        Negative amount, non-positive payment, a bad date, or ``as_of`` before ``due_date``.

    References
    ----------
    .. [1] Croton-on-Hudson Code §223-12F(1)(a) and (2).
    """
    charge0 = to_decimal(amount, "amount")
    if charge0 < 0:
        raise ValueError(f"amount must not be negative, got {amount!r}")
    due = _to_date(due_date, "due_date")
    asof = _dt.date.today() if as_of is None else _to_date(as_of, "as_of")
    if asof < due:
        raise ValueError(f"as_of ({asof.isoformat()}) is before the due date ({due.isoformat()})")

    notes: list[str] = []
    pays: list[tuple[_dt.date, Decimal, int]] = []
    for i, p in enumerate(payments or []):
        try:
            pd_, pa_ = p
        except (TypeError, ValueError):
            raise ValueError(f"payment {i + 1}: expected (date, amount), got {p!r}") from None
        pdate = _to_date(pd_, f"payment {i + 1} date")
        pamt = to_decimal(pa_, f"payment {i + 1} amount")
        if pamt <= 0:
            raise ValueError(f"payment {i + 1} amount must be positive, got {pa_!r}")
        if pdate > asof:
            notes.append(f"payment of {cents(pamt)} on {pdate.isoformat()} is after as_of "
                         f"({asof.isoformat()}) and was not applied")
            continue
        pays.append((pdate, pamt, i))
    pays.sort(key=lambda t: (t[0], t[2]))

    charge, pens, credit = charge0, ZERO, ZERO
    assessed, paid = ZERO, ZERO
    events: list[PenaltyEvent] = []
    relevy_on = relevy_date_for(due)
    relevied_date: _dt.date | None = None
    relevied_amount: Decimal | None = None

    def apply_payment(d: _dt.date, amt: Decimal) -> None:
        # §223-12F(2): "such payments shall be applied first to penalties", then the charge,
        # then (our reading) a credit for any excess.
        nonlocal charge, pens, credit, paid
        paid += amt
        to_p = min(amt, pens)
        pens -= to_p
        to_c = min(amt - to_p, charge)
        charge -= to_c
        to_cr = amt - to_p - to_c
        credit += to_cr
        desc = (f"payment {cents(amt)}: {cents(to_p)} to penalties, {cents(to_c)} to the water "
                f"charge, {cents(to_cr)} to credit")
        events.append(PenaltyEvent(d, "payment", SEC_PARTIAL, desc, amt, charge, pens, credit,
                                   to_penalties=to_p, to_charge=to_c, to_credit=to_cr))

    # Payments on or before the due date (no penalty yet can exist).
    k = 0
    while k < len(pays) and pays[k][0] <= due:
        apply_payment(pays[k][0], pays[k][1])
        k += 1

    # Walk the days on which something can happen: period starts, payment dates, relevy date.
    periods = period_start_dates(due, asof)
    period_set = {d: n for n, d in enumerate(periods)}
    days = sorted(set(periods) | {p[0] for p in pays[k:]}
                  | ({relevy_on} if relevy_on <= asof else set()))
    for day in days:
        n = period_set.get(day)
        if n is not None and charge > 0 and relevied_date is None:
            # §223-12F(2): 5% the day after the due date, then 1% for each succeeding month or
            # portion thereof, on the unpaid water charge at the start of the period.
            rate = FIRST_PENALTY_RATE if n == 0 else MONTHLY_PENALTY_RATE
            pen = charge * rate
            pens += pen
            assessed += pen
            what = ("5% of the unpaid water charge, not paid by the due date" if n == 0 else
                    f"1% of the unpaid water charge for succeeding month {n} (or portion) unpaid")
            events.append(PenaltyEvent(day, "penalty", SEC_PENALTY, what, pen, charge, pens, credit,
                                       base=charge, rate=rate))
        while k < len(pays) and pays[k][0] == day:
            apply_payment(day, pays[k][1])
            k += 1
        if day == relevy_on and relevied_date is None and charge + pens > 0:
            # §223-12F(2): on the next succeeding April 15 unpaid rents and penalties more than
            # 60 days overdue are added to the Village tax bills and become a lien.
            moved = charge + pens
            desc = (f"water charge {cents(charge)} and penalties {cents(pens)}, more than 60 days "
                    f"overdue ({(day - due).days} days), transferred to the Village tax bill (lien)")
            charge, pens = ZERO, ZERO
            relevied_date, relevied_amount = day, moved
            events.append(PenaltyEvent(day, "relevy", SEC_RELEVY, desc, moved, charge, pens, credit))

    if charge0 == 0:
        notes.append("the bill is for $0.00: nothing can be owed")
    elif not any(e.kind == "penalty" for e in events) and charge == 0 and relevied_date is None:
        notes.append(f"{SEC_NO_PENALTY}: paid in full by the due date; no penalty assessed")
    scheduled = None
    if relevied_date is None and charge + pens > 0:
        scheduled = relevy_on
        notes.append(f"{SEC_RELEVY}: if still unpaid on {relevy_on.isoformat()}, the unpaid charge and "
                     "penalties will be transferred to the Village tax bill")
    if relevied_date is not None:
        notes.append(f"{SEC_RELEVY}: {cents(relevied_amount or ZERO)} was transferred to the Village tax "
                     f"bill on {relevied_date.isoformat()}; it is collected with the taxes, not in total_due")
    if credit > 0:
        notes.append(f"payments exceed what the water account owed: credit of {cents(credit)}")

    return PenaltySchedule(
        amount=charge0, due_date=due, as_of=asof, events=events,
        charge_outstanding=cents(charge), penalties_outstanding=cents(pens),
        total_due=cents(charge + pens), credit=cents(credit),
        penalties_assessed=cents(assessed), payments_total=cents(paid),
        relevy_date=relevied_date,
        relevy_amount=None if relevied_amount is None else cents(relevied_amount),
        scheduled_relevy_date=scheduled, interpretation=list(INTERPRETATION), notes=notes,
    )


# --------------------------------------------------------------------------- meter test
@dataclass(frozen=True)
class MeterTestResult:
    """Outcome of a meter accuracy test on a disputed account (§223-6G).

    Consumption in the billing unit of the bill (e.g. cubic feet or gallons); fee in US dollars.
    """

    billed_consumption: Decimal
    registration_error_pct: Decimal
    adjusted: bool
    adjusted_consumption: Decimal
    consumption_change: Decimal
    fee_refunded: bool
    fee_refund: Decimal
    section: str
    notes: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "billed_consumption": str(self.billed_consumption),
            "registration_error_pct": str(self.registration_error_pct),
            "adjusted": self.adjusted, "adjusted_consumption": str(self.adjusted_consumption),
            "consumption_change": str(self.consumption_change),
            "fee_refunded": self.fee_refunded, "fee_refund": str(cents(self.fee_refund)),
            "section": self.section, "notes": list(self.notes),
        }


def meter_test(billed_consumption: Any, registration_error_pct: Any, test_fee: Any) -> MeterTestResult:
    """Adjust a disputed bill after a meter accuracy test (§223-6G).

    Parameters
    ----------
    billed_consumption : number
        Consumption billed for the tested (disputed) period, in the bill's unit (>= 0).
    registration_error_pct : number
        Tested registration error in percent: positive = the meter over-registers (records
        more than passed through it), negative = under-registers. Must be > -100.
    test_fee : number
        The fee paid for the test, US dollars (>= 0).

    Returns
    -------
    MeterTestResult
        ``adjusted`` when ``|error| > 1.5``; ``adjusted_consumption = billed / (1 + error/100)``
        (the true consumption) for the tested period only; ``fee_refunded`` when over-registering
        by more than 1.5%.

    References
    ----------
    .. [1] Croton-on-Hudson Code §223-6G.
    """
    billed = to_decimal(billed_consumption, "billed_consumption")
    err = to_decimal(registration_error_pct, "registration_error_pct")
    fee = to_decimal(test_fee, "test_fee")
    if billed < 0:
        raise ValueError(f"billed_consumption must not be negative, got {billed_consumption!r}")
    if fee < 0:
        raise ValueError(f"test_fee must not be negative, got {test_fee!r}")
    if err <= -100:
        raise ValueError(f"registration_error_pct must be greater than -100, got {registration_error_pct!r}")
    # §223-6G: "an error in registration (more than 1.5%, plus or minus)" -> bill adjusted.
    adjusted = abs(err) > METER_TOLERANCE_PCT
    true = billed / (1 + err / 100) if adjusted else billed
    # §223-6G: "over-registering by more than the aforesaid allowable rate" -> test fee returned.
    refunded = err > METER_TOLERANCE_PCT
    notes = [
        f"{SEC_METER}: the bill is increased or decreased only when the registration error is more "
        "than 1.5% (plus or minus); an error of exactly 1.5% is read as no error (the text says "
        "'less than 1.5%' is no error and 'more than 1.5%' is an error, and is silent on exactly "
        "1.5%): no adjustment and the fee is retained.",
        f"{SEC_METER}: the adjusted consumption is billed / (1 + error/100), i.e. what actually "
        "passed through the meter, for the tested (disputed) billing period only: 'no retroactive "
        "reimbursement shall be made ... for previous billing period(s)'.",
        f"{SEC_METER}: the test fee is returned only if the meter over-registers by more than 1.5% "
        "(positive error); otherwise the Department retains it.",
        "adjusted_consumption is exact to 28 significant digits; round it to the billing unit.",
    ]
    return MeterTestResult(billed, err, adjusted, true, true - billed, refunded,
                           fee if refunded else ZERO, SEC_METER, notes)
