"""CLI subcommands for the companion modules: ``water penalty|meter-test`` (``water-penalty`` is an
alias of ``water penalty``) and ``excavation check|volume``.

``register(subparsers)`` adds the subcommands to the main parser; each sets ``func`` to a
callable ``(args) -> int``. Bad input prints one ``error: ...`` line to stderr and returns 2
(never a traceback). No domain logic lives here: see :mod:`treecalc.water` and
:mod:`treecalc.excavation`.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import re
import sys
from collections.abc import Callable
from decimal import Decimal
from typing import Any

__all__ = ["register"]


def _error(msg: str) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return 2


#: The library's parameter names as the command line spells them (an error names the flag to fix).
_FLAGS = {"due_date": "--due", "as_of": "--as-of", "amount": "--amount", "payment": "--payment"}
_LEADING_NAME = re.compile(r"^([a-z_]+)\b")


def _flag_names(msg: str) -> str:
    """'due_date must be a date ...' → '--due must be a date ...'."""
    return _LEADING_NAME.sub(lambda m: _FLAGS.get(m.group(1), m.group(1)), msg, count=1)


def _guard(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn bad input (ValueError, OSError, KeyError) into ``error: ...`` and exit code 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except KeyError as e:  # str() of a KeyError is the repr of its key: say the key itself
            return _error(str(e.args[0]) if e.args else e.__class__.__name__)
        except (ValueError, OSError) as e:
            return _error(_flag_names(str(e)) or e.__class__.__name__)

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _dump(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def _split(value: str, flag: str, parts: tuple[int, int], form: str) -> list[str]:
    bits = value.split(":")
    if not parts[0] <= len(bits) <= parts[1] or any(not b.strip() for b in bits):
        raise ValueError(f"{flag} {value!r}: expected {form}")
    return [b.strip() for b in bits]


#: The plausible range (treecalc.validate.RANGES) of each part of an excavation flag.
_KINDS = {"area": "area_sqft", "depth": "depth_ft"}


def _float(s: str, flag: str, what: str) -> float:
    from treecalc.units import in_range

    try:
        v = float(s.replace(",", ""))
    except ValueError:
        raise ValueError(f"{flag}: {what} {s!r} is not a number") from None
    kind = "depth_in" if flag == "--place-topsoil" and what == "depth" else _KINDS.get(what)
    # the upper bound here; a negative or missing number is left to the library's own message
    return in_range(f"{flag} ({what})", v, kind) if kind and v >= 0 else v


# --------------------------------------------------------------------------- water
def _bills_and_payments(a: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    from treecalc.water import read_account_csv

    bills: list[Any] = []
    payments: list[Any] = []
    if a.csv:
        bills, payments = read_account_csv(a.csv)
    if a.amount is not None or a.due is not None:
        if a.amount is None or a.due is None:
            raise ValueError("--amount and --due are required together (or use --bill AMOUNT:DUE)")
        bills.append((a.amount, a.due, None))
    for b in a.bill or []:
        amt, due, *label = _split(b, "--bill", (2, 3), "AMOUNT:DUE[:LABEL], e.g. 123.45:2026-01-15")
        bills.append((amt, due, label[0] if label else None))
    for p in a.payment or []:
        d, amt = _split(p, "--payment", (2, 2), "DATE:AMOUNT, e.g. 2026-03-10:100")
        payments.append((d, amt))
    if not bills:
        raise ValueError("give a bill: --amount and --due, --bill AMOUNT:DUE (repeatable) or --csv FILE")
    return bills, payments


@_guard
def _cmd_water(a: argparse.Namespace) -> int:
    from treecalc.water import account_statement, penalty_schedule

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
        _dump(r.to_dict())
        return 0
    print(
        f"Water account, {len(scheds)} bill(s), as of {r.as_of}  (Croton-on-Hudson §223-12F; months: "
        f"{r.months}, §223-12F(2))"
    )
    print(
        f"{'date':<10}  {'bill':<20}  {'kind':<8}  {'amount':>10}  {'charge':>10}  {'penalties':>10}  "
        f"{'tax bill':>9}  {'credit':>9}"
    )
    for e in r.events:
        print(
            f"{e.date.isoformat():<10}  {(e.bill or '-')[:20]:<20}  {e.kind:<8}  {e.amount:>10}  "
            f"{e.charge_after:>10}  {e.penalties_after:>10}  {e.relevied_after:>9}  {e.credit_after:>9}"
        )
        print(f"{'':<10}  {e.section}: {e.description}")
    if not r.events:
        print("(no events)")
    for b in scheds:
        print()
        print(f"{b.bill}: {b.amount} due {b.due_date}")
        print(f"  charge outstanding     {b.charge_outstanding:>10}")
        print(f"  penalties outstanding  {b.penalties_outstanding:>10}   (assessed {b.penalties_assessed})")
        print(f"  total due              {b.total_due:>10}")
        if b.relevy_date:
            print(
                f"  relevied to tax bill   {b.relevy_amount:>10}  on {b.relevy_date}; still unpaid "
                f"{b.relevy_outstanding}"
            )
        elif b.scheduled_relevy_date:
            print(f"  relevy to tax bill if unpaid on {b.scheduled_relevy_date}")
    if len(scheds) > 1:
        print()
        print(f"account total due      {r.total_due:>10}")
        print(f"still owed on tax bill {r.relevy_outstanding:>10}")
    if r.credit:
        print(f"credit                 {r.credit:>10}")
    _print_readings(r)
    return 0


@_guard
def _cmd_meter(a: argparse.Namespace) -> int:
    from treecalc.water import meter_test

    if not a.result:
        raise ValueError("give at least one --result PCT (the registration error at a tested flow rate)")
    r = meter_test(a.billed, list(a.result), a.fee, a.rate)
    if a.json:
        _dump(r.to_dict())
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
    for n in r.notes:
        print(f"note: {n}")
    return 0


def _water_help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def run(a: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return _error("choose a subcommand: penalty or meter-test")

    return run


def _penalty_args(w: argparse.ArgumentParser) -> None:
    w.add_argument("--amount", help="water charge on the bill, USD (with --due)")
    w.add_argument("--due", help="due date on the bill, YYYY-MM-DD")
    w.add_argument(
        "--bill",
        action="append",
        default=[],
        metavar="AMOUNT:DUE[:LABEL]",
        help="a bill on the account, e.g. 123.45:2026-01-15 (repeatable)",
    )
    w.add_argument("--csv", metavar="FILE", help="CSV of bills and payments: kind,date,amount[,bill]")
    w.add_argument(
        "--payment",
        action="append",
        default=[],
        metavar="DATE:AMOUNT",
        help="a payment, e.g. 2026-03-10:100 (repeatable); oldest bill first",
    )
    w.add_argument("--as-of", dest="as_of", help="statement date, YYYY-MM-DD (default today)")
    w.add_argument(
        "--months",
        choices=["anniversary", "calendar"],
        default="anniversary",
        help="§223-12F(2) 'each succeeding month': counted from the day after the due date "
        "(anniversary, default) or the first of each calendar month (calendar)",
    )
    w.add_argument("--json", action="store_true", help="print JSON")
    w.set_defaults(func=_cmd_water)


def _register_water(subparsers: Any) -> None:
    desc = (
        "Penalties, partial payments and relevy to the tax bill of the bills on a water account "
        "(Croton-on-Hudson Chapter 223, §223-12F)."
    )
    _penalty_args(
        subparsers.add_parser(
            "water-penalty", help="late-payment penalties of a water bill (alias of 'water penalty')", description=desc
        )
    )
    w = subparsers.add_parser(
        "water",
        help="water account penalties and the meter test (Chapter 223)",
        description="Water: penalties (§223-12F) and the meter test (§223-6G).",
    )
    sub = w.add_subparsers(dest="water_command", metavar="{penalty,meter-test}")
    w.set_defaults(func=_water_help(w))
    _penalty_args(sub.add_parser("penalty", help="penalties and balance of a water account", description=desc))
    m = sub.add_parser(
        "meter-test",
        help="the bill after a meter accuracy test (§223-6G)",
        description="Meter accuracy test (Croton-on-Hudson §223-6G): the flow-rate results are "
        "averaged; outside ±1.5%% the tested period's bill is corrected.",
    )
    m.add_argument("--billed", required=True, help="consumption billed for the tested period (bill's unit)")
    m.add_argument(
        "--result",
        action="append",
        default=[],
        metavar="PCT",
        help="registration error at one tested flow rate, %% (+ over-registers; repeatable)",
    )
    m.add_argument("--fee", default="0", help="test fee paid, USD (default 0)")
    m.add_argument("--rate", help="water rate, USD per billing unit: gives the corrected bill in dollars")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=_cmd_meter)


def _print_readings(r: object) -> None:
    """The notes and the interpretation of unclear text every companion result carries."""
    for n in r.notes:
        print(f"note: {n}")
    print("interpretation:")
    for n in r.interpretation:
        print(f"  - {n}")


# --------------------------------------------------------------------------- excavation check
def _bnum(s: str, flag: str, what: str, hi: float, unit: str, lo_open: bool = False) -> Decimal:
    """A number from a flag, within 0..hi (refused naming the flag)."""
    from treecalc.units import bounded

    return bounded(s, f"{flag}: {what}", 0, hi, lo_open=lo_open, unit=unit)


def _area_depths(values: list[str], flag: str) -> list[tuple[Decimal, Decimal]]:
    from treecalc.excavation import MAX_AREA_SQFT, MAX_DEPTH_FT

    out = []
    for v in values or []:
        area, depth = _split(v, flag, (2, 2), "AREA_SQFT:DEPTH_FT")
        out.append((_bnum(area, flag, "area", MAX_AREA_SQFT, "sq ft"), _bnum(depth, flag, "depth", MAX_DEPTH_FT, "ft")))
    return out


def _check_kwargs(a: argparse.Namespace) -> dict[str, Any]:
    from treecalc.excavation import MAX_AREA_SQFT, MAX_DEPTH_FT, MAX_DEPTH_IN, MAX_WALL_FT

    kw: dict[str, Any] = {
        "excavations": _area_depths(a.excavate, "--excavate"),
        "fills": _area_depths(a.fill, "--fill"),
        "foundations": _area_depths(a.foundation, "--foundation"),
        "jurisdiction": a.jurisdiction,
    }
    if a.place_topsoil:
        bits = _split(a.place_topsoil, "--place-topsoil", (2, 3), "AREA_SQFT:DEPTH_IN[:seeded]")
        seeded = False
        if len(bits) == 3:
            if bits[2].lower() not in ("seeded", "seeded-and-mulched", "yes", "y", "true", "1"):
                raise ValueError(
                    f"--place-topsoil {a.place_topsoil!r}: the third part must be 'seeded' "
                    "(topsoil immediately seeded and mulched)"
                )
            seeded = True
        kw["topsoil_placement"] = (
            _bnum(bits[0], "--place-topsoil", "area", MAX_AREA_SQFT, "sq ft"),
            _bnum(bits[1], "--place-topsoil", "depth", MAX_DEPTH_IN, "in"),
            seeded,
        )
    if a.strip_topsoil is not None:
        bits = _split(a.strip_topsoil, "--strip-topsoil", (1, 2), "AREA_SQFT[:DEPTH_IN]")
        kw["strip_topsoil_sqft"] = _bnum(bits[0], "--strip-topsoil", "area", MAX_AREA_SQFT, "sq ft")
        if len(bits) == 2:
            kw["strip_topsoil_depth_in"] = _bnum(bits[1], "--strip-topsoil", "depth", MAX_DEPTH_IN, "in")
    if a.lot_area is not None:
        kw["lot_area_sqft"] = _bnum(a.lot_area, "--lot-area", "area", MAX_AREA_SQFT, "sq ft", lo_open=True)
    if getattr(a, "retaining_wall", None) is not None:
        kw["retaining_wall_height_ft"] = _bnum(a.retaining_wall, "--retaining-wall", "height", MAX_WALL_FT, "ft")
    if getattr(a, "cellar", None):
        bits = _split(a.cellar, "--cellar", (3, 3), "LENGTH_FT:WIDTH_FT:DEPTH_FT")
        kw["cellar"] = tuple(
            _bnum(b, "--cellar", w, MAX_DEPTH_FT, "ft") for b, w in zip(bits, ("length", "width", "depth"))
        )
    if getattr(a, "permit_issued", None):
        kw.update(permit_issued=a.permit_issued, last_work=a.last_work, as_of=a.as_of)
    elif getattr(a, "last_work", None):
        raise ValueError("--last-work needs --permit-issued (§120-10A counts from the permit)")
    return kw


def _print_check(r: Any) -> None:
    verdict = {True: "REQUIRED", False: "not required", "unknown": "UNKNOWN (depends on facts not given)"}
    print(f"Excavation and filling permit ({r.jurisdiction}): {verdict[r.permit_required]}")
    print(f"triggers: {', '.join(r.triggers) if r.triggers else 'none'}")
    for m in r.missing_facts:
        print(f"missing fact: {m}")
    d = r.to_dict()
    print(f"excavation {d['excavation_cy']:,.2f} cu yd, fill {d['fill_cy']:,.2f} cu yd")
    print()
    for e in r.explanations:
        mark = {True: "x", False: " ", None: "?"}[e["holds"]]
        print(f"  [{mark}] {e['section']:<14} {e['explanation']}")
    for e in r.exemptions:
        print(f"  {'exempt' if e['applies'] else 'no exemption'}: {e['section']}: {e['explanation']}")
    if r.jurisdiction == "wesley_hills":
        w = d["waiver_eligible"]
        print(f"  waiver possible (§95-3D(1)): {w if isinstance(w, str) else ('yes' if w else 'no')}")
    if r.building_permit:
        bp = r.building_permit
        print(
            f"  §95-3C(1): building permit {'suffices' if bp['building_permit_suffices'] else 'does not suffice'}"
            f" (limit {bp['limit_cy']:,.2f} cu yd = 2 x cellar {bp['cellar_volume_cy']:,.2f} cu yd)"
        )
    if r.term:
        print(f"  {r.term['section']}: {r.term['explanation']}")
    if r.review_standards:
        print("review standards that apply:")
        for s in r.review_standards:
            print(f"  {s['section']:<8} {s['requirement']}")


@_guard
def _cmd_check(a: argparse.Namespace) -> int:
    from treecalc.excavation import check_permit

    r = check_permit(**_check_kwargs(a))
    if a.json:
        _dump(r.to_dict())
        return 0
    _print_check(r)
    _print_readings(r)
    return 0


# --------------------------------------------------------------------------- excavation volume
def _volume(a: argparse.Namespace) -> tuple[Any, str]:
    from treecalc import excavation as ex
    from treecalc.surfaces import volume_between_files

    methods = [m for m in ("grid", "sections", "existing") if getattr(a, m)]
    if bool(a.existing) != bool(a.proposed):
        raise ValueError("--existing and --proposed go together (two surfaces)")
    if len(methods) != 1:
        raise ValueError("give exactly one of --grid FILE, --sections FILE or --existing FILE --proposed FILE")
    if a.prismoidal and not a.sections:
        raise ValueError("--prismoidal applies to --sections (average end area), not --grid or surfaces")
    u = "m" if a.metric else "ft"
    if a.grid:
        r = ex.volume_from_grid_csv(a.grid, metric=a.metric)
        return r, (
            f"Grid (borrow-pit) method: {r.nx} x {r.ny} nodes, spacing {r.dx:g} x {r.dy:g} {u}, "
            f"{r.mixed_cells} cells changing between cut and fill"
        )
    if a.sections:
        r = ex.volume_from_sections_csv(a.sections, prismoidal=a.prismoidal, metric=a.metric)
        return r, f"{r.method[0].upper()}{r.method[1:]}: {len(r.stations)} sections"
    r = volume_between_files(a.existing, a.proposed, metric=a.metric)
    return r, (
        f"TIN surface to surface: {r.n_existing:,} existing and {r.n_proposed:,} proposed points, "
        f"{r.area_sqft:,.2f} sq ft covered by both"
    )


@_guard
def _cmd_volume(a: argparse.Namespace) -> int:
    from treecalc.excavation import check_permit

    r, head = _volume(a)
    kw: dict[str, Any] = {"jurisdiction": a.jurisdiction}
    if a.lot_area is not None:
        from treecalc.excavation import MAX_AREA_SQFT

        kw["lot_area_sqft"] = _bnum(a.lot_area, "--lot-area", "area", MAX_AREA_SQFT, "sq ft", lo_open=True)
    permit = check_permit(measured=r.earthwork(), **kw)
    if a.json:
        _dump({**r.to_dict(), "permit": permit.to_dict()})
        return 0
    print(head)
    print(f"cut   {r.cut_cy:>14,.2f} cu yd")
    print(f"fill  {r.fill_cy:>14,.2f} cu yd")
    print(f"net   {r.net_cy:>14,.2f} cu yd  (cut - fill; positive = surplus)")
    for n in r.notes:
        print(f"note: {n}")
    print()
    _print_check(permit)
    return 0


def _cmd_excavation_help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def run(a: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return _error("choose a subcommand: check or volume")

    return run


# --------------------------------------------------------------------------- register
def register(subparsers: Any) -> None:
    """Add ``water-penalty`` and ``excavation`` (``check``, ``volume``) to ``subparsers``."""
    _register_water(subparsers)

    e = subparsers.add_parser(
        "excavation",
        help="excavation/fill permit check and earthwork volumes (Chapter 120 / 95)",
        description="Excavation and filling: permit check (Croton-on-Hudson §120-3A, Wesley Hills "
        "§95-3) and cut/fill volumes (grid or average end area).",
    )
    sub = e.add_subparsers(dest="excavation_command", metavar="{check,volume}")
    e.set_defaults(func=_cmd_excavation_help(e))

    c = sub.add_parser("check", help="is an excavation and filling permit required?")
    c.add_argument("--jurisdiction", default="croton-on-hudson", help="croton-on-hudson (default) or wesley-hills")
    c.add_argument(
        "--excavate",
        action="append",
        default=[],
        metavar="AREA_SQFT:DEPTH_FT",
        help="an excavation area and depth (repeatable)",
    )
    c.add_argument(
        "--fill", action="append", default=[], metavar="AREA_SQFT:DEPTH_FT", help="a fill area and depth (repeatable)"
    )
    c.add_argument(
        "--strip-topsoil",
        dest="strip_topsoil",
        metavar="AREA_SQFT[:DEPTH_IN]",
        help="area where topsoil is stripped, and its depth in inches (stripping is excavation, §120-2)",
    )
    c.add_argument(
        "--foundation",
        action="append",
        default=[],
        metavar="AREA_SQFT:DEPTH_FT",
        help="excavation for a foundation under a building permit (§120-3B; repeatable)",
    )
    c.add_argument(
        "--retaining-wall",
        dest="retaining_wall",
        metavar="HEIGHT_FT",
        help="height of a retaining wall to be built (§120-8M)",
    )
    c.add_argument("--cellar", metavar="L:W:D", help="Wesley Hills: cellar and foundation, feet (§95-3C(1))")
    c.add_argument("--permit-issued", dest="permit_issued", metavar="DATE", help="permit issue date (§120-10A)")
    c.add_argument("--last-work", dest="last_work", metavar="DATE", help="last day of work (§120-10A)")
    c.add_argument("--as-of", dest="as_of", metavar="DATE", help="date of the term check (default today)")
    c.add_argument("--lot-area", dest="lot_area", metavar="AREA_SQFT", help="lot area")
    c.add_argument(
        "--place-topsoil",
        dest="place_topsoil",
        metavar="AREA_SQFT:DEPTH_IN[:seeded]",
        help="topsoil placement; add ':seeded' if immediately seeded and mulched",
    )
    c.add_argument("--json", action="store_true", help="print JSON")
    c.set_defaults(func=_cmd_check)

    v = sub.add_parser("volume", help="cut and fill volumes in cubic yards")
    v.add_argument(
        "--grid",
        metavar="FILE",
        help="CSV with x, y, existing, proposed (or Easting, Northing, EG, FG); feet, regular grid",
    )
    v.add_argument(
        "--existing",
        metavar="FILE",
        help="existing ground: point CSV (Easting/Northing/Elevation or EG) or LandXML surface (FILE#NAME picks one)",
    )
    v.add_argument("--proposed", metavar="FILE", help="proposed ground: point CSV (... FG) or LandXML surface")
    v.add_argument("--lot-area", dest="lot_area", metavar="AREA_SQFT", help="lot area for the §120-3A check")
    v.add_argument("--jurisdiction", default="croton-on-hudson", help="croton-on-hudson (default) or wesley-hills")
    v.add_argument("--sections", metavar="FILE", help="CSV with station, cut_area, fill_area (feet, sq ft)")
    v.add_argument("--metric", action="store_true", help="input in metres / square metres (output cu yd)")
    v.add_argument(
        "--prismoidal",
        action="store_true",
        help="prismoidal volumes (--sections with cut_mid_area/fill_mid_area or center_height/width)",
    )
    v.add_argument("--json", action="store_true", help="print JSON")
    v.set_defaults(func=_cmd_volume)
