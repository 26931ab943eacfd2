"""Chapter 223 (Water), §223-6G: the bill after a meter accuracy test.

Village of Croton-on-Hudson, Chapter 223 (Water), Article I. :func:`meter_test` averages the flow-rate
results of the test, corrects the tested (disputed) period's consumption when the error is beyond the
tolerance, and says whether the test fee is returned. The tolerance and its comparison ("more than": ``>``) come
from ``data/law/croton_on_hudson/ch223_water.toml`` (``[meter_tolerance]``), and so does every number in the notes.

References
----------
.. [1] Village of Croton-on-Hudson Code, Chapter 223, Water, §223-6G (meter testing). Text in
   ``/work/shared/ordinances/001_0c9dbbc0a401b0cd.txt``.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from treecalc.law import operator_of
from treecalc.law.access import meets
from treecalc.law.numbers import law_on, numbers
from treecalc.law.schema import OPERATOR_WORDS
from treecalc.money import MAX_MONEY, cents, parse_money_cents, to_decimal

__all__ = ["MeterTestResult", "meter_test"]

ZERO = Decimal("0.00")
LAW = numbers("croton_on_hudson", "ch223_water")


def __getattr__(name: str) -> Any:
    # the tolerance as constants read in force today (the presenters' labels); a test reads the law in force on its
    # date (:func:`meter_test`'s ``on``), and nothing is read when this module is imported
    if name == "METER_TOLERANCE_PCT":
        return LAW["meter_tolerance"].value
    if name == "SEC_METER":
        return LAW["meter_tolerance"].section
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _operator() -> str:
    """The comparison of ``[meter_tolerance]``: an error beyond the tolerance (``>``, ``>=``), refused otherwise."""
    op = operator_of("croton_on_hudson", "meter_tolerance", "ch223_water")
    if op not in (">", ">="):
        raise ValueError(
            f"data/law/croton_on_hudson/ch223_water.toml: [meter_tolerance] states operator {op!r}; an error in "
            "registration is one beyond the tolerance, > or >="
        )
    return op


def _beyond(error_pct: Decimal) -> bool:
    """``error_pct <operator> tolerance`` as §223-6G states it ("more than 1.5%"): both from the law file."""
    _operator()
    tolerance = LAW["meter_tolerance"].value
    return bool(meets("croton_on_hudson", "meter_tolerance", error_pct, tolerance, chapter="ch223_water"))


@dataclass(frozen=True)
class MeterTestResult:
    """Outcome of a meter accuracy test on a disputed account (§223-6G).

    Consumption in the billing unit of the bill (e.g. cubic feet or gallons), rounded to 0.01 of
    that unit; money in US dollars and cents.
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
    results_pct: tuple[Decimal, ...] = ()
    rate_usd: Decimal | None = None
    billed_usd: Decimal | None = None
    corrected_usd: Decimal | None = None
    #: the tolerance of the law in force on the test's date (meter_tolerance)
    tolerance_pct: Decimal = field(kw_only=True)

    @property
    def bill_change_usd(self) -> Decimal | None:
        return None if self.corrected_usd is None or self.billed_usd is None else self.corrected_usd - self.billed_usd

    def to_dict(self) -> dict[str, Any]:
        def s(x: Decimal | None) -> str | None:
            return None if x is None else str(x)

        return {
            "billed_consumption": str(self.billed_consumption),
            "results_pct": [str(r) for r in self.results_pct],
            "registration_error_pct": str(self.registration_error_pct),
            "tolerance_pct": str(self.tolerance_pct),
            "adjusted": self.adjusted,
            "adjusted_consumption": str(self.adjusted_consumption),
            "consumption_change": str(self.consumption_change),
            "rate_usd_per_unit": s(self.rate_usd),
            "billed_usd": s(self.billed_usd),
            "corrected_usd": s(self.corrected_usd),
            "bill_change_usd": s(self.bill_change_usd),
            "fee_refunded": self.fee_refunded,
            "fee_refund": str(self.fee_refund),
            "section": self.section,
            "notes": list(self.notes),
        }


def _meter_results(registration_error_pct: Any) -> tuple[Decimal, ...]:
    items = (
        list(registration_error_pct) if isinstance(registration_error_pct, (list, tuple)) else [registration_error_pct]
    )
    if not items:
        raise ValueError("the meter test needs at least one flow-rate result")
    out = []
    for i, x in enumerate(items):
        name = "registration_error_pct" if len(items) == 1 else f"flow-rate result {i + 1} (error %)"
        e = to_decimal(x, name, limit=Decimal(10) ** 6)
        if e <= -100:
            raise ValueError(f"{name} must be greater than -100 (a meter cannot register less than nothing), got {x!r}")
        out.append(e)
    return tuple(out)


def _meter_notes(n_results: int, tol: str) -> list[str]:
    op = _operator()
    section = LAW["meter_tolerance"].section
    beyond = f"{OPERATOR_WORDS[op]} {tol}"
    exactly = (
        f"an error of exactly {tol} is read as no error (the text says 'less than {tol}' is no error and 'more "
        f"than {tol}' is an error, and is silent on exactly {tol}): no adjustment, fee retained"
        if op == ">"
        else f"an error of exactly {tol} is an error: the bill is adjusted"
    )
    return [
        f"{section}: the bill is increased or decreased only when the registration error is {beyond} "
        f"(plus or minus); {exactly}.",
        f"{section}: the error is the average of the {n_results} flow-rate result(s) as the test reports them "
        "(arithmetic mean of the percent errors, each + when the meter over-registers).",
        f"{section}: the corrected consumption is billed / (1 + error/100), i.e. what actually passed through "
        "the meter, rounded to 0.01 of the billing unit, for the tested (disputed) billing period only: 'no "
        "retroactive reimbursement shall be made ... for previous billing period(s)'.",
        f"{section}: the test fee is returned only if the meter over-registers by {beyond} (positive "
        "error); otherwise the Department retains it.",
    ]


def meter_test(
    billed_consumption: Any,
    registration_error_pct: Any,
    test_fee: Any,
    rate_usd_per_unit: Any = None,
    on: _dt.date | None = None,
) -> MeterTestResult:
    """Adjust a disputed bill after a meter accuracy test (§223-6G).

    Parameters
    ----------
    billed_consumption : number
        Consumption billed for the tested (disputed) period, in the bill's unit (>= 0).
    registration_error_pct : number or sequence of numbers
        Tested registration error in percent, or one per flow rate tested (averaged): positive =
        the meter over-registers, negative = under-registers. Each must be > -100.
    test_fee : number
        The fee paid for the test, US dollars and cents (>= 0).
    rate_usd_per_unit : number, optional
        The water rate, US dollars per billing unit: gives the billed and corrected bill.
    on : datetime.date, optional
        The date of the test: the tolerance of the law in force then (default today).

    Returns
    -------
    MeterTestResult
        ``adjusted`` when ``|mean error| > 1.5``; ``adjusted_consumption = billed / (1 + error/100)``
        for the tested period only; the corrected bill in cents when a rate is given;
        ``fee_refunded`` when over-registering by more than 1.5%.

    References
    ----------
    .. [1] Croton-on-Hudson Code §223-6G.
    """
    with law_on(on):
        return _meter_test(billed_consumption, registration_error_pct, test_fee, rate_usd_per_unit)


def _meter_test(
    billed_consumption: Any, registration_error_pct: Any, test_fee: Any, rate_usd_per_unit: Any
) -> MeterTestResult:
    billed = to_decimal(billed_consumption, "billed_consumption")
    results = _meter_results(registration_error_pct)
    fee = parse_money_cents(test_fee, "test_fee")
    if billed < 0:
        raise ValueError(f"billed_consumption must not be negative, got {billed_consumption!r}")
    if fee < 0:
        raise ValueError(f"test_fee must not be negative, got {test_fee!r}")
    err = sum(results, Decimal(0)) / len(results)
    if err <= -100:
        raise ValueError(f"the average registration error must be greater than -100%, got {err}")
    # meter_tolerance: "an error in registration (more than 1.5%, plus or minus)" -> bill adjusted.
    adjusted = _beyond(abs(err))
    if adjusted and billed / (1 + err / 100) >= MAX_MONEY:  # -99.999...% would make 28-digit cents
        name = "registration_error_pct" if len(results) == 1 else "the average registration error"
        raise ValueError(
            f"{name} {err:f}%: the corrected consumption would be {billed / (1 + err / 100):.3e}, beyond any bill "
            f"(under {MAX_MONEY:,}); a meter registering this little is stopped, not slow: check the test result"
        )
    true = cents(billed / (1 + err / 100)) if adjusted else billed
    # meter_tolerance: "over-registering by more than the aforesaid allowable rate" -> test fee returned: the same
    # entry's number and comparison ("the aforesaid allowable rate").
    refunded = _beyond(err)
    rate = billed_usd = corrected = None
    if rate_usd_per_unit is not None:
        rate = to_decimal(rate_usd_per_unit, "rate_usd_per_unit")
        if rate < 0:
            raise ValueError(f"rate_usd_per_unit must not be negative, got {rate_usd_per_unit!r}")
        billed_usd, corrected = cents(billed * rate), cents(true * rate)
    tolerance = LAW["meter_tolerance"]
    notes = _meter_notes(len(results), f"{tolerance.value.normalize():f}%")
    return MeterTestResult(
        billed,
        err.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP),
        adjusted,
        true,
        true - billed,
        refunded,
        fee if refunded else ZERO,
        tolerance.section,
        notes,
        results_pct=results,
        rate_usd=rate,
        billed_usd=billed_usd,
        corrected_usd=corrected,
        tolerance_pct=tolerance.value,
    )
