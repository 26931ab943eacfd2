"""``treecalc water penalty|meter-test`` (``water-penalty`` is an alias of ``water penalty``).

Bad input prints one ``error: ...`` line to stderr and returns 2 (never a traceback). No domain
logic lives here: see :mod:`treecalc.rules.croton_on_hudson.ch223_water` (§223-12F),
:mod:`treecalc.rules.croton_on_hudson.ch223_meter` (§223-6G) and :mod:`treecalc.ingest.water_account` (the account file).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import sys
from decimal import Decimal
from typing import Any

from treecalc.cli.common import choose_subcommand, dump_indented, guard, print_readings, repeatable, split_parts
from treecalc.law import registry as jurisdictions
from treecalc.law.loader import entry

__all__ = ["register"]


def _bills_and_payments(a: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    # start-up: with the command that runs, not every command
    from treecalc.ingest.water_account import read_account_csv
    from treecalc.money import parse_money_cents  # start-up: with the command that runs, not every command

    bills: list[Any] = []
    payments: list[Any] = []
    if a.csv:
        bills, payments = read_account_csv(a.csv)
    if a.amount is not None or a.due is not None:
        if a.amount is None or a.due is None:
            raise ValueError("--amount and --due are required together (or use --bill AMOUNT:DUE)")
        bills.append((a.amount, a.due, None))
    for b in a.bill or []:
        amt, due, *label = split_parts(b, "--bill", (2, 3), "AMOUNT:DUE[:LABEL], e.g. 123.45:2026-01-15")
        if parse_money_cents(amt, f"--bill {b!r}: amount") < 0:
            raise ValueError(f"--bill {b!r}: the amount must not be negative")
        bills.append((amt, due, label[0] if label else None))
    for p in a.payment or []:
        d, amt = split_parts(p, "--payment", (2, 2), "DATE:AMOUNT, e.g. 2026-03-10:100")
        payments.append((d, amt))
    if not bills:
        raise ValueError("give a bill: --amount and --due, --bill AMOUNT:DUE (repeatable) or --csv FILE")
    return bills, payments


def _water_law() -> Any:
    """The law whose water chapter these commands apply (its rules: ``ch223_water``, ``ch223_meter``), from the
    jurisdiction registry: named as the registry names it, never retyped here."""
    return jurisdictions.with_chapter("water")[0]


def _section(key: str, whole: bool = False) -> str:
    """The section of the entry ``key`` of the water chapter (``relevy_overdue_days``: "§223-12F(2)"), or with
    ``whole`` the section it is a paragraph of ("§223-12F"): cited from the law file, never retyped here."""
    section = entry(_water_law().key, key, "ch223_water").section
    return section.split("(")[0] if whole else section


def _bill_lines(b: Any) -> str:
    """A bill's balance as the statement prints it, after a blank line."""
    out = (
        f"\n{b.bill}: {b.amount} due {b.due_date}\n"
        f"  charge outstanding     {b.charge_outstanding:>10}\n"
        f"  penalties outstanding  {b.penalties_outstanding:>10}   (assessed {b.penalties_assessed})\n"
        f"  total due              {b.total_due:>10}   (on the water account)\n"
        f"  total owed             {b.total_owed:>10}   (water account + tax bill, {_section('relevy_overdue_days')})\n"
    )
    if b.relevy_date:
        out += (
            f"  relevied to tax bill   {b.relevy_amount:>10}  on {b.relevy_date}; still unpaid {b.relevy_outstanding}\n"
        )
    elif b.scheduled_relevy_date:
        out += f"  relevy to tax bill if unpaid on {b.scheduled_relevy_date}\n"
    return out


#: An event's two lines: date, bill, kind, amount and the balances after it; then its section and what happened
_EVENT_LINES = "%-10s  %-20s  %-8s  %10s  %10s  %10s  %9s  %9s\n            %s: %s\n"


@guard
def _cmd_water(a: argparse.Namespace) -> int:
    from treecalc.rules import standalone_module  # start-up: with the command that runs, not every command

    # not through Croton's package, whose __init__ (Chapter 208) imports pandas: the account needs none of it
    water = standalone_module(_water_law().rules, "ch223_water")
    account_statement, penalty_schedule = water.account_statement, water.penalty_schedule

    bills, payments = _bills_and_payments(a)
    as_of = a.as_of or _dt.date.today()
    if len(bills) == 1 and not a.csv:
        amt, due, _ = bills[0]
        r: Any = penalty_schedule(amt, due, payments, as_of=as_of, months=a.months)
        scheds = [r]
    else:
        r = account_statement(bills, payments, as_of=as_of, months=a.months)
        scheds = r.bills
    if a.json:
        dump_indented(r.to_dict())
        return 0
    print(
        f"Water account, {len(scheds)} bill(s), as of {r.as_of}  ({_water_law().chapters['water']}, "
        f"{_section('monthly_penalty_rate', whole=True)}; months: {r.months}, {_section('monthly_penalty_rate')})"
    )
    print(
        f"{'date':<10}  {'bill':<20}  {'kind':<8}  {'amount':>10}  {'charge':>10}  {'penalties':>10}  "
        f"{'tax bill':>9}  {'credit':>9}"
    )
    # the events written as one text (an account of 10,000 bills has ~200,000 lines: a print each cost seconds),
    # each by one %-format of the amounts' str() (an f-string formatting six Decimals a line cost twice the time)
    sys.stdout.write(
        "".join(
            [
                _EVENT_LINES
                % (
                    e.date.isoformat(),
                    (e.bill or "-")[:20],
                    e.kind,
                    e.amount,
                    e.charge_after,
                    e.penalties_after,
                    e.relevied_after,
                    e.credit_after,
                    e.section,
                    e.description,
                )
                for e in r.events
            ]
        )
    )
    if not r.events:
        print("(no events)")
    sys.stdout.write("".join(map(_bill_lines, scheds)))
    if len(scheds) > 1:
        print()
        print(f"account total due      {r.total_due:>10}   (on the water account)")
        print(f"still owed on tax bill {r.relevy_outstanding:>10}")
        print(
            f"account total owed     {r.total_owed:>10}   (water account + tax bill, {_section('relevy_overdue_days')})"
        )
    if r.credit:
        print(f"credit                 {r.credit:>10}")
    print_readings(r)
    return 0


@guard
def _cmd_meter(a: argparse.Namespace) -> int:
    from treecalc.rules import standalone_module  # start-up: with the command that runs, not every command

    meter_test = standalone_module(_water_law().rules, "ch223_meter").meter_test

    if not a.result:
        raise ValueError("give at least one --result PCT (the registration error at a tested flow rate)")
    from treecalc.quantities import to_date  # with the command, as the others here (start-up time)

    on = to_date(a.on, "--on") if a.on else None
    r = meter_test(a.billed, list(a.result), a.fee, a.rate, on=on)
    if a.json:
        dump_indented(r.to_dict())
        return 0
    d = r.to_dict()
    print(
        f"Meter test ({r.section}): results {', '.join(f'{x:+}%' for x in r.results_pct)}; "
        f"average error {r.registration_error_pct.quantize(Decimal('0.01')):+}% (tolerance ±{d['tolerance_pct']}%)"
    )
    print(f"bill adjusted          {'yes' if r.adjusted else 'no'}")
    print(f"billed consumption     {r.billed_consumption:>14,}")
    print(f"corrected consumption  {r.adjusted_consumption:>14,}   (change {r.consumption_change:+,})")
    if r.corrected_usd is not None:
        print(f"billed amount          {r.billed_usd:>14,}   at {r.rate_usd} USD per unit")
        print(f"corrected bill         {r.corrected_usd:>14,}   (change {r.bill_change_usd:+,})")
    print(f"test fee refunded      {r.fee_refund if r.fee_refunded else 'no'}")
    if on is None:  # the date the tolerance is read on, said when it was not given
        print(
            f"note: the law in force today ({_dt.date.today().isoformat()}) is applied; give --on DATE for the test's"
        )
    for n in r.notes:
        print(f"note: {n}")
    return 0


def _penalty_args(w: argparse.ArgumentParser, monthly: str) -> None:
    w.add_argument("--amount", help="water charge on the bill, USD (with --due)")
    w.add_argument("--due", help="due date on the bill, YYYY-MM-DD")
    repeatable(w, "--bill", "AMOUNT:DUE[:LABEL]", "a bill on the account, e.g. 123.45:2026-01-15 (repeatable)")
    w.add_argument("--csv", metavar="FILE", help="CSV of bills and payments: kind,date,amount[,bill]")
    repeatable(w, "--payment", "DATE:AMOUNT", "a payment, e.g. 2026-03-10:100 (repeatable); oldest bill first")
    w.add_argument("--as-of", dest="as_of", help="statement date, YYYY-MM-DD (default today)")
    w.add_argument(
        "--months",
        choices=["anniversary", "calendar"],
        default="anniversary",
        help=f"{monthly} 'each succeeding month': counted from the day after the due date "
        "(anniversary, default) or the first of each calendar month (calendar)",
    )
    w.add_argument("--json", action="store_true", help="print JSON")
    w.set_defaults(func=_cmd_water)


def register(subparsers: Any) -> None:
    """Add ``water-penalty`` and ``water`` (``penalty``, ``meter-test``) to ``subparsers``."""
    chapter = _water_law().chapters["water"]
    try:  # the tolerance and the sections are the law's (data/law); a data folder that cannot be read is said when
        # a command runs. Read from the law file, not the rules module: the rules package imports pandas, and --help
        # imports none

        meter = entry(_water_law().key, "meter_tolerance", "ch223_water")
        tolerance, meter_sec = f"outside ±{meter.value}% ({meter.section})", meter.section
        penalty_sec, monthly_sec = _section("first_penalty_rate", whole=True), _section("monthly_penalty_rate")
    except (OSError, ValueError, KeyError):
        tolerance, meter_sec = "outside the law's tolerance", "the meter test"
        penalty_sec, monthly_sec = "the late-payment penalties", "The law's"
    desc = (
        "Penalties, partial payments and relevy to the tax bill of the bills on a water account "
        f"({chapter}, {penalty_sec})."
    )
    _penalty_args(
        subparsers.add_parser(
            "water-penalty", help="late-payment penalties of a water bill (alias of 'water penalty')", description=desc
        ),
        monthly_sec,
    )
    w = subparsers.add_parser(
        "water",
        help="water account penalties and the meter test (Chapter 223)",
        description=f"Water: penalties ({penalty_sec}) and the meter test ({meter_sec}).",
    )
    sub = w.add_subparsers(dest="water_command", metavar="{penalty,meter-test}")
    w.set_defaults(func=choose_subcommand(w, "penalty or meter-test"))
    _penalty_args(
        sub.add_parser("penalty", help="penalties and balance of a water account", description=desc), monthly_sec
    )
    m = sub.add_parser(
        "meter-test",
        help=f"the bill after a meter accuracy test ({meter_sec})",
        # a description is printed as written (only help texts are %-formatted): a single %
        description=f"Meter accuracy test ({chapter}, {meter_sec}): the flow-rate results are "
        f"averaged; {tolerance} the tested period's bill is corrected.",
    )
    m.add_argument("--billed", required=True, help="consumption billed for the tested period (bill's unit)")
    repeatable(m, "--result", "PCT", "registration error at one tested flow rate, %% (+ over-registers; repeatable)")
    m.add_argument("--fee", default="0", help="test fee paid, USD (default 0)")
    m.add_argument("--rate", help="water rate, USD per billing unit: gives the corrected bill in dollars")
    m.add_argument("--on", help="date of the test, YYYY-MM-DD: the tolerance of the law then in force (default today)")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=_cmd_meter)
