"""Village of Wesley Hills, Chapter 95 (Clearing, Filling and Excavation): the excavation sections, in order.

- :func:`check` an operation (§95-3A(1)(a)) with the 2x cellar-and-foundation rule (§95-3C(1)) and the waiver
  under 100 cubic yards (§95-3D(1)) (called by :func:`treecalc.rules.excavation.check_permit`);
- :func:`wesley_hills_building_permit_check` §95-3C(1) on its own; :func:`wesley_hills_waiver` §95-3D(1);
- :func:`wesley_hills_slope_check`, :func:`wesley_hills_topsoil_cy` rehabilitation (§95-4E).

Every number is the chapter's entry in ``data/law/wesley_hills/ch95_excavation.toml`` (:data:`LAW`), in the
conditions and in the sentences alike; the quantities are measured by :mod:`treecalc.earthwork`. The section
numbers (§95-3C(1), §95-3D(1), §95-4E) are reconstructed: the extracted text lost its section headings.

References
----------
.. [1] Village of Wesley Hills Code, Chapter 95, Clearing, Filling and Excavation, §95-3C(1),
   §95-3D(1), §95-4E(1) (``/work/shared/ordinances/004_408e8ed1e5666e02.txt``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from treecalc.earthwork.operation import MAX_AREA_SQFT, MAX_DEPTH_FT, MAX_DEPTH_IN, MAX_VOLUME_CY, Operation
from treecalc.earthwork.quantities import cuft_to_cuyd, fmt_number, fmt_sqft, inches_to_feet
from treecalc.law import access
from treecalc.law.numbers import numbers
from treecalc.money import nonneg, round2
from treecalc.quantities import bounded
from treecalc.rules.excavation_check import PermitCheck, unknown
from treecalc.rules.wesley_hills.readings import cited, provision

__all__ = [
    "LAW",
    "check",
    "WesleyHillsCheck",
    "wesley_hills_building_permit_check",
    "wesley_hills_waiver",
    "wesley_hills_waiver_eligible",
    "wesley_hills_slope_check",
    "wesley_hills_topsoil_cy",
]

LAW = numbers("wesley_hills", "ch95_excavation")
_cy, _fmt, _sqft = cuft_to_cuyd, fmt_number, fmt_sqft


def _times(n: Decimal) -> str:
    """A multiple as the ordinance says it: 2 -> 'twice', 3 -> '3 times'."""
    return {1: "once", 2: "twice"}.get(int(n), f"{_fmt(n)} times") if n == int(n) else f"{_fmt(n)} times"


def _slope(rise: Decimal, run: Decimal) -> str:
    """A slope as rise V : run H ('1V:2H')."""
    return f"{_fmt(rise)}V:{_fmt(run)}H"


# The steepest finished slope of the rehabilitation rule (``slope_rise``, ``slope_run``), and that of a surface excavated to fast rock (per 1 ft horizontal).
def _slopes() -> tuple[str, str]:
    return _slope(LAW["slope_rise"].value, LAW["slope_run"].value), _slope(LAW["rock_slope"].value, Decimal(1))


def _wesley_notes() -> list[str]:
    """The note every Wesley Hills excavation answer carries: its section numbers are reconstructed (each cited as
    the data gives it: the operation's record, the building-permit and waiver entries, the rehabilitation rule's)."""

    def head(section: str) -> str:  # the section a subsection is of ("(1)(a)" left off)
        return section.split("(")[0]

    cited_here = [head(provision("operation")), LAW["cellar_multiple"].section, LAW["waiver_volume"].section]
    return [
        f"Wesley Hills section numbers ({', '.join([*cited_here, head(LAW['slope_rise'].section)])}) are "
        "reconstructed: the extracted text of Chapter 95 lost its section headings.",
    ]


def __getattr__(name: str) -> Any:
    """``WESLEY_NOTES`` and ``WAIVER_READING``, filled from the data when asked for (PEP 562), in force on the date
    a check is made for: nothing is read when this module is imported."""
    if name == "WESLEY_NOTES":
        return _wesley_notes()
    if name == "WAIVER_READING":
        return _waiver_reading()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _measured_at() -> str:
    """Where §95-3A(1) measures a tree's diameter (inches above ground), from the clearing chapter's entry."""
    return f"{access.law('wesley_hills')['permit']['measured_above_ground_in']:g}"


def _tree_triggers() -> str:
    """§95-3A(1)(c) to (e), the tree removal triggers, from the clearing chapter's entries."""
    c, e = cited("permit.vacant_lot_min_dbh_in"), cited("permit.lot_line_min_dbh_in")
    return f"{c}-{e[e.rfind('(') :]}"


def _wesley_hills_readings(cellar_given: bool) -> tuple[list[str], list[str]]:
    """The notes and the readings of a Wesley Hills excavation check."""
    sec_bp, sec_lawn = LAW["cellar_multiple"].section, provision("lawns_and_gardens")
    notes = [
        f"{sec_bp}: a building permit stands as the permit while added fill and excavated material removed each "
        f"stay within {_fmt(LAW['cellar_multiple'].value)} times the cellar-and-foundation volume"
        + ("" if cellar_given else " (give the cellar to check it)")
        + ".",
        f"{sec_lawn}: the normal addition of topsoil to lawns and gardens is not limited by the chapter.",
        f"{_tree_triggers()}: tree removal triggers (diameter measured {_measured_at()} in above ground) are evaluated by "
        "the tree law.",
        f"{LAW['slope_rise'].section}: rehabilitation: slopes no steeper than {_slopes()[0]} (rock {_slopes()[1]}); "
        f"{LAW['topsoil_depth'].section}: at least {_fmt(LAW['topsoil_depth'].value)} in of topsoil over "
        "exposed ground.",
        *_wesley_notes(),
    ]
    interp = [
        _waiver_reading(),
        f"{sec_bp}: with a cellar given, the excavation volume is taken as removed from the property and the "
        f"fill as added to it (the most it can be); exactly {_times(LAW['cellar_multiple'].value)} the volume is "
        "within the rule. A foundation "
        "given without the cellar makes the answer unknown, naming the cellar.",
        f"{sec_lawn}: a topsoil placement that is the only operation given may be the normal addition of topsoil "
        "to a lawn or garden, which the chapter does not limit: the answer is unknown, naming that fact.",
    ]
    return notes, interp


def check(o: Operation, *, cellar: tuple[Any, Any, Any] | None = None, **_not_read: Any) -> PermitCheck:
    """Whether the operation ``o`` needs a clearing, filling or excavation permit (§95-3A(1)(a)), with the
    building-permit rule of §95-3C(1) (``cellar``: length, width, depth in feet) and the §95-3D(1) waiver.

    Inputs other laws read (``term``, ...) are not read here: :func:`treecalc.rules.excavation.check_permit`
    refuses or notes them.
    """
    fnd = sum((a * d for a, d in o.foundations), Decimal(0))
    exc_cuft, fill_cuft = o.exc_cuft() + fnd, o.fill_cuft()
    any_op = o.any or fnd > 0
    sec_op, sec_bp, sec_w = provision("operation"), LAW["cellar_multiple"].section, LAW["waiver_volume"].section
    sec_lawn = provision("lawns_and_gardens")  # no number: a record of the readings' [sections]
    explanations: list[dict[str, Any]] = [
        {
            "section": sec_op,
            "holds": bool(any_op),
            "explanation": "any landfilling, excavation, regrading, removal, stripping or disturbance of topsoil or earth "
            "is an 'operation' needing a clearing, filling or excavation permit from the Planning Board"
            + ("" if any_op else " (none given: not applicable)"),
        }
    ]
    m = o.measured
    # the topsoil placement is the only operation given: the lawns-and-gardens exception may leave it unlimited
    topsoil_only = bool(
        o.top
        and o.top[0] > 0
        and o.top[1] > 0
        and fnd == 0
        and o.strip == 0
        and not any(a > 0 and d > 0 for a, d in o.exc + o.fil)
        and not (m is not None and (m.cut_cuft > 0 or m.fill_cuft > 0))
    )
    waiver: bool | str | None = None
    missing: list[str] = []
    if any_op:
        w = wesley_hills_waiver(_cy(exc_cuft), _cy(fill_cuft))
        # stripping of no given depth only adds to the excavation: the waiver rests on it only while the
        # known amount is under the limit
        waiver = "unknown" if o.strip_cuft() is None and w["eligible"] else w["eligible"]
        if waiver == "unknown":
            unknown(
                missing, f"the depth of the topsoil stripped (‹strip_topsoil=AREA:DEPTH_IN›), for the {sec_w} waiver"
            )
        explanations.append(
            {"section": sec_w, "holds": waiver if isinstance(waiver, bool) else None, "explanation": w["explanation"]}
        )
    required: bool | str = bool(any_op)
    bp = None
    if cellar is not None and any_op:
        L, W, D = cellar
        # the Planning Board's waiver is the one decided above (it also knows the stripping): one answer per check
        bp = wesley_hills_building_permit_check(L, W, D, _cy(fill_cuft), _cy(exc_cuft), waiver=waiver).to_dict()
        explanations += [{**e, "holds": e["holds"]} for e in bp["explanations"]]
        if bp["building_permit_suffices"]:
            required = False
    if required is True and topsoil_only and o.top:
        required = "unknown"
        lawn = (
            f"whether the topsoil placed is the normal addition of topsoil to a lawn or garden ({sec_lawn}: "
            f"then the chapter does not limit it and no permit is needed; otherwise it is an operation, {sec_op})"
        )
        unknown(missing, lawn)
        explanations.append(
            {
                "section": sec_lawn,
                "holds": None,
                "explanation": f"topsoil {_fmt(o.top[1])} in deep over {_sqft(o.top[0])} sq ft placed, and nothing "
                "else: the chapter does not limit 'the normal addition of topsoil or fertilizer to lawns and "
                "gardens'; not given whether this is it",
            }
        )
    if required is True and fnd > 0 and cellar is None:
        required = "unknown"
        unknown(
            missing,
            f"the cellar and foundation of the building permit (‹cellar=L:W:D›, {sec_bp}): the building permit stands "
            f"as the permit while the fill added and the material removed each stay within "
            f"{_fmt(LAW['cellar_multiple'].value)} times its volume",
        )
        explanations.append(
            {
                "section": sec_bp,
                "holds": None,
                "explanation": f"foundation excavation under a building permit, {round2(_cy(fnd)):,.2f} cu yd: the "
                "cellar-and-foundation volume is not given, so whether the building permit suffices cannot be told",
            }
        )
    if required is not True:
        explanations[0]["holds"] = None if required == "unknown" else explanations[0]["holds"]
    notes, interp = _wesley_hills_readings(cellar is not None)
    return PermitCheck(
        jurisdiction="wesley_hills",
        permit_required=required,
        triggers=[sec_op] if required is True else [],
        explanations=explanations,
        excavation_cy=_cy(exc_cuft),
        fill_cy=_cy(fill_cuft),
        topsoil_cy=_cy(o.topsoil_cuft()),
        excavation_area_sqft=sum((a for a, d in o.exc if d > 0), Decimal(0)),
        fill_area_sqft=sum((a for a, d in o.fil if d > 0), Decimal(0)),
        review_standards=[],
        exemptions=[],
        waiver_eligible=waiver,
        interpretation=interp,
        notes=notes,
        missing_facts=missing,
        building_permit=bp,
        has_waiver=True,
        cited={"waiver": sec_w, "building_permit": sec_bp},
    )


def wesley_hills_waiver_eligible(material_cy: Any) -> bool:
    """True if the Planning Board may waive the permit: less than 100 cu yd of material (§95-3D(1)).

    ``material_cy`` is the amount moved; for an excavation and a fill, :func:`wesley_hills_waiver` reads it."""
    return nonneg(material_cy, "material_cy") < LAW["waiver_volume"].value


#: The one reading of the waiver (``waiver_volume``) "an excavation or filling operation involving less than 100 cubic yards of
#: material", used by :func:`check_permit` and :func:`wesley_hills_building_permit_check` alike.
def _waiver_reading() -> str:
    return (
        f"{LAW['waiver_volume'].section}: 'less than {_fmt(LAW['waiver_volume'].value)} cubic yards of material' "
        "is read as the amount moved (imported, exported or excavated): excavated soil placed as fill on the same site "
        "is counted once, so the amount is the larger of the excavation and the fill volume, strictly below the limit. "
        "The waiver is the Planning Board's discretion: permit_required stays true and waiver_eligible is reported "
        "('not applicable' when there is no operation)."
    )


def wesley_hills_waiver(excavation_cy: Any, fill_cy: Any) -> dict[str, Any]:
    """The Planning Board's waiver of Wesley Hills §95-3D(1) for an excavation and a fill (cubic yards).

    One reading (:data:`WAIVER_READING`): the material is the amount moved, the larger of the two; eligible
    while strictly less than 100 cu yd. Returns ``eligible``, ``moved_cy``, ``both_cy`` (the sum, were the
    fill imported), ``section`` and ``explanation``.
    """
    e = nonneg(excavation_cy, "excavation_cy")
    f = nonneg(fill_cy, "fill_cy")
    moved = max(e, f)
    ok = wesley_hills_waiver_eligible(moved)
    wlim = LAW["waiver_volume"].value
    alt = (
        f"; if the fill were imported rather than the excavated soil, {round2(e + f):,.2f} cu yd would be moved"
        if e > 0 and f > 0
        else ""
    )
    return {
        "eligible": ok,
        "moved_cy": moved,
        "both_cy": e + f,
        "section": LAW["waiver_volume"].section,
        "explanation": f"material moved {round2(moved):,.2f} cu yd (the larger of excavation {round2(e):,.2f} and fill "
        f"{round2(f):,.2f} cu yd): the Planning Board {'may' if ok else 'may not'} waive the permit for an operation "
        f"involving less than {_fmt(wlim)} cu yd{alt}",
    }


@dataclass(frozen=True)
class WesleyHillsCheck:
    """The building-permit volume rule of Wesley Hills §95-3C(1) and the waiver of §95-3D(1).

    Volumes in cubic yards (exact Decimals); ``cellar_multiple``: the times the cellar-and-foundation volume
    the limit is (the law's number).
    """

    cellar_volume_cy: Decimal
    limit_cy: Decimal
    fill_cy: Decimal
    excavated_cy: Decimal
    building_permit_suffices: bool
    separate_permit_required: bool
    waiver_eligible: bool | str
    explanations: list[dict[str, Any]]
    notes: list[str]
    cellar_multiple: Decimal = Decimal(0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cellar_volume_cy": round2(self.cellar_volume_cy),
            "cellar_multiple": float(self.cellar_multiple),
            "limit_cy": round2(self.limit_cy),
            "fill_cy": round2(self.fill_cy),
            "excavated_cy": round2(self.excavated_cy),
            "building_permit_suffices": self.building_permit_suffices,
            "separate_permit_required": self.separate_permit_required,
            "waiver_eligible": self.waiver_eligible,
            "explanations": [dict(e) for e in self.explanations],
            "notes": list(self.notes),
        }


def wesley_hills_building_permit_check(
    cellar_length_ft: Any,
    cellar_width_ft: Any,
    cellar_depth_ft: Any,
    fill_cy: Any,
    excavated_cy: Any,
    waiver: bool | str | None = None,
) -> WesleyHillsCheck:
    """Whether a building permit stands as the filling/excavation permit (Wesley Hills §95-3C(1)).

    Parameters
    ----------
    cellar_length_ft, cellar_width_ft, cellar_depth_ft : number
        Outside dimensions of the cellar and foundation (feet); the volume is their product.
    fill_cy : number
        Volume of fill added to the property (cubic yards).
    excavated_cy : number
        Volume of excavated material removed from the property (cubic yards).
    waiver : bool or "unknown", optional
        The §95-3D(1) waiver as :func:`check_permit` has decided it (it also knows the topsoil stripped);
        not given, it is decided here by the same one reading (:func:`wesley_hills_waiver`).

    Returns
    -------
    WesleyHillsCheck
        The building permit suffices while the fill and the removed material each do not exceed
        twice the cellar-and-foundation volume; otherwise a separate permit is required, which
        the Planning Board may waive if the operation involves less than 100 cu yd
        (``waiver_eligible``: :func:`wesley_hills_waiver`, the larger of fill and excavated < 100).

    References
    ----------
    .. [1] Wesley Hills Code §95-3C(1) ("does not exceed two times the volume of the cellar and
       foundation") and §95-3D(1) ("less than 100 cubic yards of material").
    """
    # the ranges of the excavation's other inputs (units.RANGES): a cellar of 1e300 ft crashed the check
    L = bounded(cellar_length_ft, "cellar_length_ft", 0, MAX_DEPTH_FT, unit="ft")
    W = bounded(cellar_width_ft, "cellar_width_ft", 0, MAX_DEPTH_FT, unit="ft")
    D = bounded(cellar_depth_ft, "cellar_depth_ft", 0, MAX_DEPTH_FT, unit="ft")
    f = bounded(fill_cy, "fill_cy", 0, MAX_VOLUME_CY, unit="cu yd")
    e = bounded(excavated_cy, "excavated_cy", 0, MAX_VOLUME_CY, unit="cu yd")
    vol = _cy(L * W * D)
    multiple = LAW["cellar_multiple"].value
    limit = multiple * vol
    # the building-permit rule: "does not exceed two times" -> <= 2x, each of fill and removed material.
    sec = LAW["cellar_multiple"].section
    fill_ok, exc_ok = f <= limit, e <= limit
    suffices = fill_ok and exc_ok
    expl = [
        {
            "section": sec,
            "holds": fill_ok,
            "explanation": f"added fill {round2(f):,.2f} cu yd vs {_fmt(multiple)} x cellar and foundation "
            f"{round2(vol):,.2f} cu yd = "
            f"{round2(limit):,.2f} cu yd ({'within' if fill_ok else 'exceeds'})",
        },
        {
            "section": sec,
            "holds": exc_ok,
            "explanation": f"excavated material removed {round2(e):,.2f} cu yd vs limit {round2(limit):,.2f} cu yd "
            f"({'within' if exc_ok else 'exceeds'})",
        },
    ]
    if waiver is None:  # the waiver: "less than 100 cubic yards", the one reading, decided once
        w = wesley_hills_waiver(e, f)
        waiver = w["eligible"]
        expl.append({"section": w["section"], "holds": waiver, "explanation": w["explanation"]})
    notes = [
        f"cellar and foundation volume {_fmt(L)} x {_fmt(W)} x {_fmt(D)} ft = {_fmt(L * W * D)} cu ft = "
        f"{round2(vol):,.2f} cu yd (outside dimensions, cellar floor to top of foundation)",
        f"{sec} read as: the fill added and the excavated material removed are each compared with "
        f"{_times(multiple)} the volume ('shall specify ... the maximum volumes of added fill and/or excavated "
        f"material'); exactly {_fmt(multiple)}x is within the rule ('does not exceed').",
        _waiver_reading(),
        *_wesley_notes(),
    ]
    return WesleyHillsCheck(vol, limit, f, e, suffices, not suffices, waiver, expl, notes, multiple)


def wesley_hills_slope_check(rise_ft: Any, run_ft: Any, rock: bool = False, retained: bool = False) -> dict[str, Any]:
    """Check a finished slope against Wesley Hills §95-4E(1)(a).

    Parameters
    ----------
    rise_ft, run_ft : number
        Vertical and horizontal extent of the slope (feet).
    rock : bool
        Surface excavated to fast rock (limit 6 ft vertical per 1 ft horizontal).
    retained : bool
        Supported by a retaining wall or foundation (the 1V:2H limit then does not apply).

    Returns
    -------
    dict
        ``ok``, ``section``, ``max_rise_per_run`` (0.5 or 6), ``rise_per_run`` and explanation.
    """
    rise = bounded(rise_ft, "rise_ft", 0, MAX_DEPTH_FT, unit="ft")
    run = bounded(run_ft, "run_ft", 0, MAX_DEPTH_FT, unit="ft")
    limit = LAW["rock_slope"].value if rock else LAW["slope_rise"].value / LAW["slope_run"].value
    if rise == 0:
        ok, ratio = True, Decimal(0)
    elif run == 0:
        ok, ratio = False, None
    else:
        ratio = rise / run
        ok = rise <= limit * run
    if retained and not rock:
        ok = True
    what = f"rock: no steeper than {_slopes()[1]}" if rock else f"no steeper than {_slopes()[0]}"
    return {
        "ok": bool(ok),
        "section": LAW["rock_slope" if rock else "slope_rise"].section,
        "max_rise_per_run": float(limit),
        "rise_per_run": None if ratio is None else float(ratio),
        "explanation": f"slope {_fmt(rise)} ft rise over {_fmt(run)} ft run; {what}"
        + ("; supported by a retaining wall or foundation" if retained and not rock else ""),
    }


def wesley_hills_topsoil_cy(exposed_area_sqft: Any, depth_in: Any = None) -> Decimal:
    """Topsoil needed to cover exposed ground (Wesley Hills §95-4E(1)(c)), cubic yards.

    ``exposed_area_sqft`` (square feet) x ``depth_in`` (inches, at least the minimum of the law: its default)
    / 12 / 27.
    Rock, roads, driveways, parking places, garden spaces and surfaces below high-water marks
    are excepted by the rule and should be left out of the area.
    """
    a = bounded(exposed_area_sqft, "exposed_area_sqft", 0, MAX_AREA_SQFT, unit="sq ft")
    d = LAW["topsoil_depth"].value if depth_in is None else bounded(depth_in, "depth_in", 0, MAX_DEPTH_IN, unit="in")
    if d < LAW["topsoil_depth"].value:
        raise ValueError(
            f"depth_in must be at least the {_fmt(LAW['topsoil_depth'].value)} in minimum of {LAW['topsoil_depth'].section}, got {depth_in!r}"
        )
    return _cy(inches_to_feet(a * d))
