"""``treecalc excavation check|volume``: the excavation and filling permit and earthwork volumes.

Bad input prints one ``error: ...`` line to stderr and returns 2 (never a traceback). No domain
logic lives here: see :mod:`treecalc.rules.excavation`.
"""

from __future__ import annotations

import argparse
import datetime as _dt
from decimal import Decimal
from typing import Any

from treecalc.cli.common import (
    add_options,
    add_switches,
    choose_subcommand,
    dump_indented,
    guard,
    helps_cite_the_law,
    print_readings,
    repeatable,
    split_parts,
)
from treecalc.cli.words import render
from treecalc.law import cites
from treecalc.law.registry import default, with_chapter, with_excavation_input
from treecalc.messages import subsection

__all__ = ["register"]


def _bnum(s: str, flag: str, what: str, hi: float, unit: str, lo_open: bool = False) -> Decimal:
    """A number from a flag, within 0..hi (refused naming the flag)."""
    from treecalc.quantities import bounded  # start-up: with the command that runs, not every command

    return bounded(s, f"{flag}: {what}", 0, hi, lo_open=lo_open, unit=unit)


def _area_depths(values: list[str], flag: str) -> list[tuple[Decimal, Decimal]]:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.rules.excavation import MAX_AREA_SQFT, MAX_DEPTH_FT

    out = []
    for v in values or []:
        area, depth = split_parts(v, flag, (2, 2), "AREA_SQFT:DEPTH_FT")
        out.append((_bnum(area, flag, "area", MAX_AREA_SQFT, "sq ft"), _bnum(depth, flag, "depth", MAX_DEPTH_FT, "ft")))
    return out


#: The flags of ``excavation check`` that one law reads (:func:`treecalc.rules.excavation.one_law_inputs`):
#: flag -> (its namespace attribute, the input of check_permit it sets).
_ONE_LAW_FLAGS = (
    ("--permit-issued", "permit_issued", "term"),
    ("--last-work", "last_work", "term"),
    ("--as-of", "as_of", "term"),
    ("--retaining-wall", "retaining_wall", "retaining_wall_height_ft"),
    ("--lot-area", "lot_area", "lot_area_sqft"),
    ("--cellar", "cellar", "cellar"),
)


def _check_one_law_flags(a: argparse.Namespace) -> None:
    """A flag the chosen law does not read is an error naming it (never silently dropped): ``--permit-issued``
    with Wesley Hills (§120-10A is Croton-on-Hudson's), ``--cellar`` with Croton-on-Hudson (§95-3C(1))."""
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.rules.excavation import excavation_law, one_law_input

    jur = excavation_law(a.jurisdiction)  # a law without an excavation chapter: refused before any file is read
    for flag, attr, name in _ONE_LAW_FLAGS:
        why = one_law_input(name, jur, shown=flag) if getattr(a, attr, None) is not None else ""
        if why:
            raise ValueError(why)
    if getattr(a, "as_of", None) and not getattr(a, "permit_issued", None):
        raise ValueError(f"--as-of needs --permit-issued (the {_read_under('term')} term is counted from the permit)")


def _read_under(name: str) -> str:
    """The section the check's input ``name`` (``"term"``) is read under, as the law reading it states it: the entry
    its record names (:attr:`treecalc.law.registry.Jurisdiction.excavation_inputs`), from its law file (its rules,
    and pandas with them, are not imported for a help)."""
    law = with_excavation_input(name)[0]
    return cites.companion(law.key, law.excavation_inputs[name][0], _dt.date.today())


def _check_kwargs(a: argparse.Namespace) -> dict[str, Any]:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.rules.excavation import MAX_AREA_SQFT, MAX_DEPTH_FT, MAX_DEPTH_IN, MAX_WALL_FT

    kw: dict[str, Any] = {
        "excavations": _area_depths(a.excavate, "--excavate"),
        "fills": _area_depths(a.fill, "--fill"),
        "foundations": _area_depths(a.foundation, "--foundation"),
        "jurisdiction": a.jurisdiction,
    }
    if a.place_topsoil:
        bits = split_parts(a.place_topsoil, "--place-topsoil", (2, 3), "AREA_SQFT:DEPTH_IN[:seeded]")
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
        bits = split_parts(a.strip_topsoil, "--strip-topsoil", (1, 2), "AREA_SQFT[:DEPTH_IN]")
        kw["strip_topsoil_sqft"] = _bnum(bits[0], "--strip-topsoil", "area", MAX_AREA_SQFT, "sq ft")
        if len(bits) == 2:
            kw["strip_topsoil_depth_in"] = _bnum(bits[1], "--strip-topsoil", "depth", MAX_DEPTH_IN, "in")
    if a.lot_area is not None:
        kw["lot_area_sqft"] = _bnum(a.lot_area, "--lot-area", "area", MAX_AREA_SQFT, "sq ft", lo_open=True)
    if getattr(a, "retaining_wall", None) is not None:
        kw["retaining_wall_height_ft"] = _bnum(a.retaining_wall, "--retaining-wall", "height", MAX_WALL_FT, "ft")
    if getattr(a, "cellar", None) is not None:  # given empty: refused (split_parts), never dropped
        bits = split_parts(a.cellar, "--cellar", (3, 3), "LENGTH_FT:WIDTH_FT:DEPTH_FT")
        kw["cellar"] = tuple(
            _bnum(b, "--cellar", w, MAX_DEPTH_FT, "ft") for b, w in zip(bits, ("length", "width", "depth"))
        )
    if getattr(a, "permit_issued", None) is not None:  # given empty: refused as no date, never dropped
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.rules.excavation import PermitTerm

        kw["term"] = PermitTerm(a.permit_issued, last_work=a.last_work, as_of=a.as_of)
    elif getattr(a, "last_work", None) is not None:
        _check_one_law_flags(a)  # with Wesley Hills, --last-work is refused as such: not "give --permit-issued"
        raise ValueError(f"--last-work needs --permit-issued ({_read_under('term')} counts from the permit)")
    if getattr(a, "on", None) is not None:
        from treecalc.quantities import to_date  # with the command, as the others here (start-up time)

        kw["on"] = to_date(a.on, "--on")
    _check_one_law_flags(a)  # each value read and checked first: a malformed one is said as such
    return kw


def _say(text: object = "") -> None:
    """A line of the output, with the library's keywords as this command's flags."""
    print(render(str(text)))


def _print_check(r: Any) -> None:
    verdict = {True: "REQUIRED", False: "not required", "unknown": "UNKNOWN (depends on facts not given)"}
    _say(f"Excavation and filling permit ({r.jurisdiction}): {verdict[r.permit_required]}")
    _say(f"triggers: {', '.join(r.triggers) if r.triggers else 'none'}")
    for m in r.missing_facts:
        _say(f"missing fact: {m}")
    d = r.to_dict()
    _say(f"excavation {d['excavation_cy']:,.2f} cu yd, fill {d['fill_cy']:,.2f} cu yd")
    print()
    for e in r.explanations:
        mark = {True: "x", False: " ", None: "?"}[e["holds"]]
        _say(f"  [{mark}] {e['section']:<14} {e['explanation']}")
    for e in r.exemptions:
        _say(f"  {'exempt' if e['applies'] else 'no exemption'}: {e['section']}: {e['explanation']}")
    if d["waiver_eligible"] is not None:  # a law with a waiver says it ("not applicable" with no operation)
        w = d["waiver_eligible"]
        _say(f"  waiver possible ({r.cited['waiver']}): {w if isinstance(w, str) else ('yes' if w else 'no')}")
    if r.building_permit:
        bp = r.building_permit
        _say(
            f"  {r.cited['building_permit']}: building permit "
            f"{'suffices' if bp['building_permit_suffices'] else 'does not suffice'}"
            f" (limit {bp['limit_cy']:,.2f} cu yd = {bp['cellar_multiple']:g} x cellar {bp['cellar_volume_cy']:,.2f} cu yd)"
        )
    if r.term:
        _say(f"  {r.term['section']}: {r.term['explanation']}")
    if r.review_standards:
        _say("review standards that apply:")
        for s in r.review_standards:
            _say(f"  {s['section']:<8} {s['requirement']}")


@guard
def _cmd_check(a: argparse.Namespace) -> int:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.rules.excavation import check_permit

    r = check_permit(**_check_kwargs(a))
    if a.json:
        dump_indented(r.to_dict())
        return 0
    _print_check(r)
    if a.on is None and a.permit_issued is None:  # the date the law is read on, said when it was not given
        print(f"note: the law in force today ({_dt.date.today().isoformat()}) is applied; give --on DATE for another")
    print_readings(r)
    return 0


# --------------------------------------------------------------------------- excavation volume
def _volume(a: argparse.Namespace) -> tuple[Any, str]:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.rules import excavation as ex

    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.rules.excavation import volume_between_files

    methods = [m for m in ("grid", "sections", "existing") if getattr(a, m)]
    if bool(a.existing) != bool(a.proposed):
        raise ValueError("--existing and --proposed go together (two surfaces)")
    if len(methods) != 1:
        raise ValueError("give exactly one of --grid FILE, --sections FILE or --existing FILE --proposed FILE")
    if a.prismoidal and not a.sections:
        raise ValueError("--prismoidal applies to --sections (average end area), not --grid or surfaces")
    u = "m" if a.metric else "ft"
    if a.grid:
        g = ex.volume_from_grid_csv(a.grid, metric=a.metric)
        return g, (
            f"Grid (borrow-pit) method: {g.nx} x {g.ny} nodes, spacing {g.dx:g} x {g.dy:g} {u}, "
            f"{g.mixed_cells} cells changing between cut and fill"
        )
    if a.sections:
        s = ex.volume_from_sections_csv(a.sections, prismoidal=a.prismoidal, metric=a.metric)
        return s, f"{s.method[0].upper()}{s.method[1:]}: {len(s.stations)} sections"
    t = volume_between_files(a.existing, a.proposed, metric=a.metric)
    return t, (
        f"TIN surface to surface: {t.n_existing:,} existing and {t.n_proposed:,} proposed points, "
        f"{t.area_sqft:,.2f} sq ft covered by both"
    )


@guard
def _cmd_volume(a: argparse.Namespace) -> int:
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.rules.excavation import check_permit

    _check_one_law_flags(a)  # --lot-area is one law's input: refused with another, before any file is read
    r, head = _volume(a)
    kw: dict[str, Any] = {"jurisdiction": a.jurisdiction}
    if a.lot_area is not None:
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.rules.excavation import MAX_AREA_SQFT

        kw["lot_area_sqft"] = _bnum(a.lot_area, "--lot-area", "area", MAX_AREA_SQFT, "sq ft", lo_open=True)
    permit = check_permit(measured=r.earthwork(), **kw)
    if a.json:
        dump_indented({**r.to_dict(), "permit": permit.to_dict()})
        return 0
    _say(head)
    _say(f"cut   {r.cut_cy:>14,.2f} cu yd")
    _say(f"fill  {r.fill_cy:>14,.2f} cu yd")
    _say(f"net   {r.net_cy:>14,.2f} cu yd  (cut - fill; positive = surplus)")
    for n in r.notes:
        _say(f"note: {n}")
    print()
    _print_check(permit)
    return 0


def _place(record: Any) -> str:
    """The place a law is of, as its chapter names it (``Wesley Hills`` of ``Wesley Hills Chapter 95``)."""
    return str(record.chapter).split(" Chapter ")[0]


def _add_site(p: argparse.ArgumentParser) -> None:
    """The flags of the site, which both subcommands check the permit for."""
    names = [r.user_spelling + (" (default)" if r is default() else "") for r in with_chapter("excavation")]
    laws = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
    p.add_argument("--jurisdiction", default=default().user_spelling, help=laws)
    p.add_argument("--lot-area", metavar="AREA_SQFT", help="lot area, for the {lot_area} check")


def _cited_in_help() -> dict[str, str]:
    """The sections the options' helps cite, by name: each one-law input's (:func:`_read_under`; ``lot_area``: the
    subsection of the threshold it is read under), and the default law's records of the definition of excavation
    and of the building permit standing as the permit (its excavation chapter's ``[sections]``)."""
    inputs = {name: _read_under(name) for name in dict.fromkeys(name for _, _, name in _ONE_LAW_FLAGS)}
    law, today = default().key, _dt.date.today()
    return {
        **inputs,
        "lot_area": subsection(inputs["lot_area_sqft"]),
        "excavation_defined": cites.companion(law, "sections.excavation_defined", today),
        "building_permit": cites.companion(law, "sections.building_permit", today),
    }


def _description() -> str:
    """What ``treecalc excavation --help`` says, each law's excavation permit as its chapters in force today (the
    help is written before any check) number it."""
    laws = ", ".join(
        f"{_place(r)} {r.parts(cites.every_chapter(r.key, _dt.date.today()))['excavation_permit']}"
        for r in with_chapter("excavation")
    )
    return f"Excavation and filling: permit check ({laws}) and cut/fill volumes (grid or average end area)."


def register(subparsers: Any) -> None:
    """Add ``excavation`` (``check``, ``volume``) to ``subparsers``."""
    e = subparsers.add_parser(
        "excavation",
        help="excavation/fill permit check and earthwork volumes (Chapter 120 / 95)",
    )
    # the description cites each law's excavation chapter: read when the help is asked for, not on every command
    # (a command would otherwise read two chapters it does not apply, and its fingerprint would list them)
    formatted = e.format_help

    def format_help() -> str:
        e.description = _description()
        return formatted()

    e.format_help = format_help
    sub = e.add_subparsers(dest="excavation_command", metavar="{check,volume}")
    e.set_defaults(func=choose_subcommand(e, "check or volume"))

    c = sub.add_parser("check", help="is an excavation and filling permit required?")
    _add_site(c)
    repeatable(c, "--excavate", "AREA_SQFT:DEPTH_FT", "an excavation area and depth (repeatable)")
    repeatable(c, "--fill", "AREA_SQFT:DEPTH_FT", "a fill area and depth (repeatable)")
    repeatable(
        c,
        "--foundation",
        "AREA_SQFT:DEPTH_FT",
        "excavation for a foundation under a building permit ({building_permit}; repeatable)",
    )
    add_options(
        c,
        (
            "--strip-topsoil",
            "AREA_SQFT[:DEPTH_IN]",
            "area where topsoil is stripped, and its depth in inches (stripping is excavation, {excavation_defined})",
        ),
        (
            "--place-topsoil",
            "AREA_SQFT:DEPTH_IN[:seeded]",
            "topsoil placement; add ':seeded' if immediately seeded and mulched",
        ),
        ("--retaining-wall", "HEIGHT_FT", "height of a retaining wall to be built ({retaining_wall_height_ft})"),
        (
            "--cellar",
            "L:W:D",
            f"{_place(with_excavation_input('cellar')[0])}: cellar and foundation, feet ({{cellar}})",
        ),
        ("--permit-issued", "DATE", "permit issue date ({term})"),
        ("--last-work", "DATE", "last day of work ({term})"),
        ("--as-of", "DATE", "date of the term check (default today)"),
        ("--on", "DATE", "date of the application or the work: the law then in force (default the permit's or today)"),
    )
    add_switches(c, ("--json", "print JSON"))
    helps_cite_the_law(c, _cited_in_help)
    c.set_defaults(func=_cmd_check)

    v = sub.add_parser("volume", help="cut and fill volumes in cubic yards")
    _add_site(v)
    add_options(
        v,
        ("--grid", "FILE", "CSV with x, y, existing, proposed (or Easting, Northing, EG, FG); feet, regular grid"),
        (
            "--existing",
            "FILE",
            "existing ground: point CSV (Easting/Northing/Elevation or EG) or LandXML surface (FILE#NAME picks one)",
        ),
        ("--proposed", "FILE", "proposed ground: point CSV (... FG) or LandXML surface"),
        ("--sections", "FILE", "CSV with station, cut_area, fill_area (feet, sq ft)"),
    )
    add_switches(
        v,
        ("--metric", "input in metres / square metres (output cu yd)"),
        ("--prismoidal", "prismoidal volumes (--sections with cut_mid_area/fill_mid_area or center_height/width)"),
        ("--json", "print JSON"),
    )
    helps_cite_the_law(v, _cited_in_help)
    v.set_defaults(func=_cmd_volume)
