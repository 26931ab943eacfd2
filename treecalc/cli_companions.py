"""CLI subcommands for the companion modules: ``water-penalty`` and ``excavation check|volume``.

``register(subparsers)`` adds the subcommands to the main parser; each sets ``func`` to a
callable ``(args) -> int``. Bad input prints one ``error: ...`` line to stderr and returns 2
(never a traceback). No domain logic lives here: see :mod:`treecalc.water` and
:mod:`treecalc.excavation`.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
from typing import Any, Callable

__all__ = ["register"]


def _error(msg: str) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return 2


def _guard(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn bad input (ValueError, OSError, KeyError) into ``error: ...`` and exit code 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except (ValueError, OSError, KeyError) as e:
            return _error(str(e).strip("'\"") or e.__class__.__name__)

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
    from treecalc.validate import in_range

    try:
        v = float(s.replace(",", ""))
    except ValueError:
        raise ValueError(f"{flag}: {what} {s!r} is not a number") from None
    kind = "depth_in" if flag == "--place-topsoil" and what == "depth" else _KINDS.get(what)
    # the upper bound here; a negative or missing number is left to the library's own message
    return in_range(f"{flag} ({what})", v, kind) if kind and v >= 0 else v


# --------------------------------------------------------------------------- water-penalty
@_guard
def _cmd_water(a: argparse.Namespace) -> int:
    from treecalc.water import cents, penalty_schedule

    if a.amount is None or a.due is None:
        raise ValueError("--amount and --due are required")
    payments = []
    for p in a.payment or []:
        d, amt = _split(p, "--payment", (2, 2), "DATE:AMOUNT, e.g. 2026-03-10:100")
        payments.append((d, amt))
    r = penalty_schedule(a.amount, a.due, payments, as_of=a.as_of or _dt.date.today())
    if a.json:
        _dump(r.to_dict())
        return 0
    print(f"Water bill {cents(r.amount)} due {r.due_date}, as of {r.as_of}  (Croton-on-Hudson §223-12F)")
    print(f"{'date':<10}  {'kind':<8}  {'amount':>10}  {'charge':>10}  {'penalties':>10}  {'credit':>9}  section")
    for e in r.events:
        print(f"{e.date.isoformat():<10}  {e.kind:<8}  {cents(e.amount):>10}  {cents(e.charge_after):>10}  "
              f"{cents(e.penalties_after):>10}  {cents(e.credit_after):>9}  {e.section}")
        print(f"{'':<10}  {e.description}")
    if not r.events:
        print("(no events)")
    print()
    print(f"charge outstanding     {r.charge_outstanding:>10}")
    print(f"penalties outstanding  {r.penalties_outstanding:>10}")
    print(f"total due              {r.total_due:>10}")
    if r.credit:
        print(f"credit                 {r.credit:>10}")
    if r.relevy_date:
        print(f"relevied to tax bill   {r.relevy_amount:>10}  on {r.relevy_date}")
    elif r.scheduled_relevy_date:
        print(f"relevy to tax bill if unpaid on {r.scheduled_relevy_date}")
    _print_readings(r)
    return 0


def _print_readings(r: object) -> None:
    """The notes and the interpretation of unclear text every companion result carries."""
    for n in r.notes:
        print(f"note: {n}")
    print("interpretation:")
    for n in r.interpretation:
        print(f"  - {n}")


# --------------------------------------------------------------------------- excavation check
@_guard
def _cmd_check(a: argparse.Namespace) -> int:
    from treecalc.excavation import check_permit

    exc = [tuple(_float(x, "--excavate", w) for x, w in
                 zip(_split(v, "--excavate", (2, 2), "AREA_SQFT:DEPTH_FT"), ("area", "depth")))
           for v in a.excavate or []]
    fil = [tuple(_float(x, "--fill", w) for x, w in
                 zip(_split(v, "--fill", (2, 2), "AREA_SQFT:DEPTH_FT"), ("area", "depth")))
           for v in a.fill or []]
    top = None
    if a.place_topsoil:
        bits = _split(a.place_topsoil, "--place-topsoil", (2, 3), "AREA_SQFT:DEPTH_IN[:seeded]")
        seeded = False
        if len(bits) == 3:
            if bits[2].lower() not in ("seeded", "seeded-and-mulched", "yes", "y", "true", "1"):
                raise ValueError(f"--place-topsoil {a.place_topsoil!r}: the third part must be 'seeded' "
                                 "(topsoil immediately seeded and mulched)")
            seeded = True
        top = (_float(bits[0], "--place-topsoil", "area"), _float(bits[1], "--place-topsoil", "depth"), seeded)
    strip = _float(a.strip_topsoil, "--strip-topsoil", "area") if a.strip_topsoil is not None else 0
    lot = _float(a.lot_area, "--lot-area", "area") if a.lot_area is not None else None
    r = check_permit(excavations=exc, fills=fil, strip_topsoil_sqft=strip, lot_area_sqft=lot,
                     topsoil_placement=top, jurisdiction=a.jurisdiction)
    if a.json:
        _dump(r.to_dict())
        return 0
    print(f"Excavation and filling permit ({r.jurisdiction}): "
          f"{'REQUIRED' if r.permit_required else 'not required'}")
    print(f"triggers: {', '.join(r.triggers) if r.triggers else 'none'}")
    print(f"excavation {r.to_dict()['excavation_cy']:.2f} cu yd, fill {r.to_dict()['fill_cy']:.2f} cu yd")
    print()
    for e in r.explanations:
        print(f"  [{'x' if e['holds'] else ' '}] {e['section']:<14} {e['explanation']}")
    for e in r.exemptions:
        print(f"  {'exempt' if e['applies'] else 'no exemption'}: {e['section']}: {e['explanation']}")
    if r.waiver_eligible is not None:
        print(f"  waiver possible (§95-3D(1)): {'yes' if r.waiver_eligible else 'no'}")
    if r.review_standards:
        print("review standards that apply:")
        for s in r.review_standards:
            print(f"  {s['section']:<8} {s['requirement']}")
    _print_readings(r)
    return 0


# --------------------------------------------------------------------------- excavation volume
@_guard
def _cmd_volume(a: argparse.Namespace) -> int:
    from treecalc.excavation import volume_from_grid_csv, volume_from_sections_csv

    if bool(a.grid) == bool(a.sections):
        raise ValueError("give exactly one of --grid FILE or --sections FILE")
    if a.grid:
        if a.prismoidal:
            raise ValueError("--prismoidal applies to --sections (average end area), not --grid")
        r = volume_from_grid_csv(a.grid, metric=a.metric)
        head = (f"Grid (borrow-pit) method: {r.nx} x {r.ny} nodes, spacing {r.dx:g} x {r.dy:g} "
                f"{'m' if a.metric else 'ft'}, {r.mixed_cells} cells changing between cut and fill")
    else:
        r = volume_from_sections_csv(a.sections, prismoidal=a.prismoidal, metric=a.metric)
        head = (f"Average end area{' with prismoidal correction' if a.prismoidal else ''}: "
                f"{len(r.stations)} sections")
    if a.json:
        _dump(r.to_dict())
        return 0
    print(head)
    print(f"cut   {r.cut_cy:>14,.2f} cu yd")
    print(f"fill  {r.fill_cy:>14,.2f} cu yd")
    print(f"net   {r.net_cy:>14,.2f} cu yd  (cut - fill; positive = surplus)")
    for n in r.notes:
        print(f"note: {n}")
    return 0


def _cmd_excavation_help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def run(a: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return _error("choose a subcommand: check or volume")

    return run


# --------------------------------------------------------------------------- register
def register(subparsers: Any) -> None:
    """Add ``water-penalty`` and ``excavation`` (``check``, ``volume``) to ``subparsers``."""
    w = subparsers.add_parser(
        "water-penalty", help="late-payment penalties of a water bill (Croton-on-Hudson §223-12F)",
        description="Penalties, partial payments and relevy to the tax bill of one water bill "
                    "(Croton-on-Hudson Chapter 223, §223-12F).")
    w.add_argument("--amount", help="water charge on the bill, USD")
    w.add_argument("--due", help="due date on the bill, YYYY-MM-DD")
    w.add_argument("--payment", action="append", default=[], metavar="DATE:AMOUNT",
                   help="a payment, e.g. 2026-03-10:100 (repeatable)")
    w.add_argument("--as-of", dest="as_of", help="balance date, YYYY-MM-DD (default today)")
    w.add_argument("--json", action="store_true", help="print JSON")
    w.set_defaults(func=_cmd_water)

    e = subparsers.add_parser(
        "excavation", help="excavation/fill permit check and earthwork volumes (Chapter 120 / 95)",
        description="Excavation and filling: permit check (Croton-on-Hudson §120-3A, Wesley Hills "
                    "§95-3) and cut/fill volumes (grid or average end area).")
    sub = e.add_subparsers(dest="excavation_command", metavar="{check,volume}")
    e.set_defaults(func=_cmd_excavation_help(e))

    c = sub.add_parser("check", help="is an excavation and filling permit required?")
    c.add_argument("--jurisdiction", default="croton-on-hudson",
                   help="croton-on-hudson (default) or wesley-hills")
    c.add_argument("--excavate", action="append", default=[], metavar="AREA_SQFT:DEPTH_FT",
                   help="an excavation area and depth (repeatable)")
    c.add_argument("--fill", action="append", default=[], metavar="AREA_SQFT:DEPTH_FT",
                   help="a fill area and depth (repeatable)")
    c.add_argument("--strip-topsoil", dest="strip_topsoil", metavar="AREA_SQFT",
                   help="area where topsoil is stripped")
    c.add_argument("--lot-area", dest="lot_area", metavar="AREA_SQFT", help="lot area")
    c.add_argument("--place-topsoil", dest="place_topsoil", metavar="AREA_SQFT:DEPTH_IN[:seeded]",
                   help="topsoil placement; add ':seeded' if immediately seeded and mulched")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.set_defaults(func=_cmd_check)

    v = sub.add_parser("volume", help="cut and fill volumes in cubic yards")
    v.add_argument("--grid", metavar="FILE", help="CSV with x, y, existing, proposed (feet, regular grid)")
    v.add_argument("--sections", metavar="FILE", help="CSV with station, cut_area, fill_area (feet, sq ft)")
    v.add_argument("--metric", action="store_true", help="input in metres / square metres (output cu yd)")
    v.add_argument("--prismoidal", action="store_true", help="prismoidal correction (--sections only)")
    v.add_argument("--json", action="store_true", help="print JSON")
    v.set_defaults(func=_cmd_volume)
