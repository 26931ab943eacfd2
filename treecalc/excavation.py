"""Excavation and filling: permit checks and earthwork volumes.

Village of Croton-on-Hudson, Chapter 120 (Excavation, Filling and Topsoil Removal):

- :func:`check_permit` the permit thresholds of §120-3A (with the topsoil proviso), plus the
  numeric review standards of §120-8 that apply to the operation;
- :func:`review_standards` the numeric standards of §120-8A, C, E and G checked on values;
- :func:`work_time_allowed` the allowed work hours of §120-8G;
- :func:`tree_survey_required` the tree survey rule of §120-5E (diameter at 3 ft, not DBH);
- :func:`violation_penalties` the fines of §120-12.

Village of Wesley Hills, Chapter 95 (Clearing, Filling and Excavation):

- :func:`wesley_hills_building_permit_check` the 2x cellar-and-foundation rule (§95-3C(1))
  and the waiver under 100 cubic yards (§95-3D(1));
- :func:`wesley_hills_slope_check`, :func:`wesley_hills_topsoil_cy` rehabilitation (§95-4E).

Volumes, feet in and cubic yards out (27 cu ft per cu yd; ``metric=True`` takes metres):

- :func:`grid_volumes` (and :func:`grid_volumes_from_frame`, :func:`volume_from_grid_csv`) the
  grid / borrow-pit method;
- :func:`end_area_volumes` (and :func:`volume_from_sections_csv`) the average-end-area method
  with an optional prismoidal correction.

Permit arithmetic is exact (:class:`decimal.Decimal`, compared in cubic feet so "over 50 cubic
yards" is ``> 1,350 cu ft`` exactly); grid volumes are float64 (numpy, vectorised).

Readings of numbers damaged in the extracted text of Chapter 120 (see
``/work/shared/ordinances/README.md``): "$2,0" in §120-12A reads $2,000; "$3,0" in §120-12B
reads $3,000; "8:0 a.m." and "10:0 a.m." in §120-8G read 8:00 a.m. and 10:00 a.m.; "Article 7"
of the CPLR (§120-9A, §120-12D) is Article 78. The Wesley Hills section numbers (§95-3C(1),
§95-3D(1), §95-4E) are reconstructed: the extracted text lost its section headings.

References
----------
.. [1] Village of Croton-on-Hudson Code, Chapter 120, Excavation, Filling and Topsoil Removal,
   §120-3A, §120-5E, §120-8, §120-12 (``/work/shared/ordinances/000_93ddf96a0c457a74.txt``).
.. [2] Village of Wesley Hills Code, Chapter 95, Clearing, Filling and Excavation, §95-3C(1),
   §95-3D(1), §95-4E(1) (``/work/shared/ordinances/004_408e8ed1e5666e02.txt``).
.. [3] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying: An Introduction to Geomatics*,
   13th ed., Pearson, 2012, chapter 26 "Volumes": borrow-pit (unit-area) method, average-end-
   area method, prismoidal formula and correction.
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from os import PathLike
from typing import Any, Iterable, Sequence

import numpy as np

__all__ = [
    "PermitCheck", "check_permit", "review_standards", "work_time_allowed", "work_time_check",
    "tree_survey_required", "violation_penalties", "WesleyHillsCheck",
    "wesley_hills_building_permit_check", "wesley_hills_waiver_eligible",
    "wesley_hills_slope_check", "wesley_hills_topsoil_cy", "GridVolumes", "grid_volumes",
    "grid_volumes_from_frame", "volume_from_grid_csv", "EndAreaVolumes", "end_area_volumes",
    "end_area_volumes_from_frame", "volume_from_sections_csv", "parse_station",
    "CU_FT_PER_CU_YD", "M3_PER_CU_YD", "DAMAGED_TEXT_READINGS",
]

CU_FT_PER_CU_YD = 27
#: 1 yd = 0.9144 m exactly, so 1 cu yd = 0.9144**3 m3 = 0.764554857984 m3.
M3_PER_CU_YD = 0.9144 ** 3
_D27 = Decimal(27)
_CENT = Decimal("0.01")

DAMAGED_TEXT_READINGS = [
    "Damaged numbers in the extracted text of Chapter 120, read as: '$2,0' (§120-12A) = $2,000; "
    "'$3,0' (§120-12B) = $3,000; '8:0 a.m.' / '10:0 a.m.' (§120-8G) = 8:00 a.m. / 10:00 a.m.; "
    "CPLR 'Article 7' (§120-9A, §120-12D) = Article 78. Check against the official code.",
]

JURISDICTIONS = {"croton-on-hudson": "croton-on-hudson", "croton": "croton-on-hudson",
                 "wesley-hills": "wesley-hills", "wesleyhills": "wesley-hills"}


# =========================================================================== helpers
def _num(x: Any, name: str) -> Decimal:
    """``x`` as an exact Decimal (floats via ``str``); ValueError naming ``name`` otherwise."""
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a number, got {x!r}")
    try:
        d = x if isinstance(x, Decimal) else Decimal(str(x).strip().replace(",", ""))
    except (InvalidOperation, ValueError):
        raise ValueError(f"{name} must be a number, got {x!r}") from None
    if not d.is_finite():
        raise ValueError(f"{name} must be a finite number, got {x!r}")
    return d


def _nonneg(x: Any, name: str) -> Decimal:
    d = _num(x, name)
    if d < 0:
        raise ValueError(f"{name} must not be negative, got {x!r}")
    return d


def _cy(cu_ft: Decimal) -> Decimal:
    """Cubic feet to cubic yards, exact to 28 significant digits."""
    return cu_ft / _D27


def _r2(d: Decimal) -> float:
    return float(d.quantize(_CENT, rounding=ROUND_HALF_UP))


def _fmt(d: Decimal) -> str:
    """A Decimal without trailing zeros, with thousands separators (for explanations)."""
    d = d.normalize()
    s = f"{d:,f}"
    return s


def _pairs(items: Iterable[Any] | None, name: str) -> list[tuple[Decimal, Decimal]]:
    out = []
    for i, it in enumerate(items or []):
        try:
            a, d = it
        except (TypeError, ValueError):
            raise ValueError(f"{name} {i + 1}: expected (area_sqft, depth_ft), got {it!r}") from None
        out.append((_nonneg(a, f"{name} {i + 1} area_sqft"), _nonneg(d, f"{name} {i + 1} depth_ft")))
    return out


# =========================================================================== §120-3A permit
@dataclass(frozen=True)
class PermitCheck:
    """Whether an excavation / filling operation needs a permit, and why.

    Areas in square feet, volumes in cubic yards (exact Decimals; rounded in ``to_dict``).
    ``explanations`` lists every rule evaluated (``holds`` True or False) with its section;
    ``triggers`` the sections that hold.
    """

    jurisdiction: str
    permit_required: bool
    triggers: list[str]
    explanations: list[dict[str, Any]]
    excavation_cy: Decimal
    fill_cy: Decimal
    topsoil_cy: Decimal
    excavation_area_sqft: Decimal
    fill_area_sqft: Decimal
    review_standards: list[dict[str, Any]] = field(default_factory=list)
    exemptions: list[dict[str, Any]] = field(default_factory=list)
    waiver_eligible: bool | None = None
    interpretation: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "jurisdiction": self.jurisdiction, "permit_required": self.permit_required,
            "triggers": list(self.triggers), "explanations": [dict(e) for e in self.explanations],
            "excavation_cy": _r2(self.excavation_cy), "fill_cy": _r2(self.fill_cy),
            "topsoil_cy": _r2(self.topsoil_cy),
            "excavation_area_sqft": float(self.excavation_area_sqft),
            "fill_area_sqft": float(self.fill_area_sqft),
            "exemptions": [dict(e) for e in self.exemptions],
            "waiver_eligible": self.waiver_eligible,
            "review_standards": [dict(e) for e in self.review_standards],
            "interpretation": list(self.interpretation), "notes": list(self.notes),
        }


CROTON_INTERPRETATION = [
    "§120-3A: each excavation or fill is an area (sq ft) at a uniform depth (ft); areas listed "
    "separately do not overlap. The area thresholds of (1), (2), (5), (6) and (7) are applied to "
    "the total area of the operation that is deeper than the depth threshold (pieces are added "
    "up, so splitting an operation does not avoid a permit).",
    "§120-3A(1), (2), (5), (6): 'in excess of four/two feet' is strictly deeper than 4/2 ft; 'over "
    "an area of 100/500 square feet or more' is an area of at least 100/500 sq ft.",
    "§120-3A(3): 'over an area of 5,000 square feet or more, or over more than 50% of the area "
    "of the property, whichever is less' is met when the lowered or stripped area is at least "
    "5,000 sq ft or more than half the lot area (the two conditions together are exactly the "
    "lower of the two thresholds). The area is every excavation area (any depth > 0) plus the "
    "topsoil stripping area. Without a lot area only the 5,000 sq ft test can be applied.",
    "§120-3A(4): 'in excess of 50 cubic yards' is strictly more than 50 cu yd (1,350 cu ft); the "
    "volume is the sum of area x depth of the excavations (topsoil stripping has no depth given "
    "and is not included).",
    "§120-3A(7): 'filling over an area of 1,000 square feet or more, regardless of the depth' is "
    "a total fill area (any depth > 0) of at least 1,000 sq ft.",
    "§120-3A topsoil proviso: placing topsoil not exceeding 3 in deep over an area not exceeding "
    "5,000 sq ft, immediately seeded and mulched, is left out of (5)-(7); otherwise the topsoil "
    "counts as fill (depth in / 12 ft). The proviso covers only the topsoil placement; other fill "
    "is tested on its own. fill_cy includes placed topsoil (topsoil_cy shows it separately).",
    "§120-3A applies whether soil is moved between properties or redistributed on the same land. "
    "§120-3B (a building permit standing as the permit for foundation-only work) and §120-3C "
    "(Planning Board approvals incorporating the permit) are not evaluated here.",
]


def _norm_jurisdiction(j: str) -> str:
    key = str(j).strip().lower().replace("_", "-").replace(" ", "-")
    if key not in JURISDICTIONS:
        raise ValueError(f"unknown jurisdiction {j!r}: expected 'croton-on-hudson' or 'wesley-hills'")
    return JURISDICTIONS[key]


def check_permit(excavations: Iterable[tuple[Any, Any]] | None = None,
                 fills: Iterable[tuple[Any, Any]] | None = None,
                 strip_topsoil_sqft: Any = 0, lot_area_sqft: Any = None,
                 topsoil_placement: tuple[Any, Any, bool] | None = None,
                 jurisdiction: str = "croton-on-hudson") -> PermitCheck:
    """Say whether an excavation and filling permit is required, and which items hold.

    Parameters
    ----------
    excavations : iterable of (area_sqft, depth_ft)
        Each excavation area (square feet) and its depth of cut (feet).
    fills : iterable of (area_sqft, depth_ft)
        Each fill area (square feet) and its depth of fill (feet).
    strip_topsoil_sqft : number
        Area where topsoil is stripped (square feet), in addition to the excavations.
    lot_area_sqft : number, optional
        Area of the property (square feet), for the half-the-lot test of §120-3A(3).
    topsoil_placement : (area_sqft, depth_in, seeded_and_mulched), optional
        Topsoil to be placed: area (square feet), depth (inches), and whether it is
        immediately seeded and mulched.
    jurisdiction : {'croton-on-hudson', 'wesley-hills'}
        Croton-on-Hudson Chapter 120 §120-3A, or Wesley Hills Chapter 95 §95-3A(1)(a) (any
        operation needs a permit; the waiver under 100 cu yd of §95-3D(1) is reported).

    Returns
    -------
    PermitCheck
        ``permit_required``, ``triggers`` (section strings such as "§120-3A(2)"), an explanation
        for every rule evaluated, ``excavation_cy`` and ``fill_cy`` (cubic yards), the §120-8
        review standards that apply, the interpretation and notes.

    Raises
    ------
    ValueError
        Negative areas or depths, a non-positive lot area, an unknown jurisdiction.

    References
    ----------
    .. [1] Croton-on-Hudson Code §120-3A, §120-8; Wesley Hills Code §95-3A(1), §95-3D(1).
    """
    jur = _norm_jurisdiction(jurisdiction)
    exc = _pairs(excavations, "excavation")
    fil = _pairs(fills, "fill")
    strip = _nonneg(strip_topsoil_sqft or 0, "strip_topsoil_sqft")
    lot = None
    if lot_area_sqft is not None:
        lot = _num(lot_area_sqft, "lot_area_sqft")
        if lot <= 0:
            raise ValueError(f"lot_area_sqft must be positive, got {lot_area_sqft!r}")

    top: tuple[Decimal, Decimal, bool] | None = None
    if topsoil_placement is not None:
        try:
            ta, td, ts = topsoil_placement
        except (TypeError, ValueError):
            raise ValueError("topsoil_placement: expected (area_sqft, depth_in, seeded_and_mulched), "
                             f"got {topsoil_placement!r}") from None
        top = (_nonneg(ta, "topsoil_placement area_sqft"), _nonneg(td, "topsoil_placement depth_in"),
               bool(ts))

    exc_cuft = sum((a * d for a, d in exc), Decimal(0))
    topsoil_cuft = top[0] * top[1] / 12 if top else Decimal(0)
    fill_cuft = sum((a * d for a, d in fil), Decimal(0)) + topsoil_cuft
    exc_area = sum((a for a, d in exc if d > 0), Decimal(0))
    fill_area = sum((a for a, d in fil if d > 0), Decimal(0)) + (top[0] if top and top[1] > 0 else 0)

    if jur == "wesley-hills":
        return _wesley_hills_check(exc_cuft, fill_cuft, topsoil_cuft, exc_area, fill_area, strip, top)

    explanations: list[dict[str, Any]] = []
    exemptions: list[dict[str, Any]] = []

    def rule(section: str, holds: bool, text: str) -> None:
        explanations.append({"section": section, "holds": bool(holds), "explanation": text})

    # §120-3A(1): excavation in excess of four feet over an area of 100 square feet or more.
    a4 = sum((a for a, d in exc if d > 4), Decimal(0))
    rule("§120-3A(1)", a4 >= 100,
         f"excavation deeper than 4 ft over {_fmt(a4)} sq ft (permit if >= 100 sq ft)")
    # §120-3A(2): excavation in excess of two feet over an area of 500 square feet or more.
    a2 = sum((a for a, d in exc if d > 2), Decimal(0))
    rule("§120-3A(2)", a2 >= 500,
         f"excavation deeper than 2 ft over {_fmt(a2)} sq ft (permit if >= 500 sq ft)")
    # §120-3A(3): lowering grade / stripping topsoil over 5,000 sq ft or more, or over more than
    # 50% of the property, whichever is less, regardless of depth.
    lowered = exc_area + strip
    if lot is None:
        holds3 = lowered >= 5000
        t3 = (f"grade lowered or topsoil stripped over {_fmt(lowered)} sq ft (permit if >= 5,000 sq ft; "
              "no lot area given, so the 50%-of-lot test was not applied)")
    else:
        half = lot / 2
        holds3 = lowered >= 5000 or lowered > half
        less = ("5,000 sq ft or more" if Decimal(5000) <= half
                else f"more than 50% of the lot ({_fmt(half)} sq ft)")
        t3 = (f"grade lowered or topsoil stripped over {_fmt(lowered)} sq ft; the lesser threshold for a "
              f"{_fmt(lot)} sq ft lot is {less}")
    rule("§120-3A(3)", holds3, t3)
    # §120-3A(4): excavation in excess of 50 cubic yards (1,350 cu ft).
    rule("§120-3A(4)", exc_cuft > 50 * _D27,
         f"excavation volume {_fmt(exc_cuft)} cu ft = {_r2(_cy(exc_cuft))} cu yd (permit if more than "
         "50 cu yd = 1,350 cu ft)")

    # Fill items for (5)-(7), with the topsoil proviso.
    fill_items = list(fil)
    if top is not None and top[0] > 0 and top[1] > 0:
        exempt = top[1] <= 3 and top[0] <= 5000 and top[2]
        why = (f"topsoil {_fmt(top[1])} in deep over {_fmt(top[0])} sq ft, "
               f"{'seeded and mulched' if top[2] else 'NOT seeded and mulched'}")
        if exempt:
            exemptions.append({"section": "§120-3A (topsoil proviso)", "applies": True,
                               "explanation": why + ": not over 3 in, not over 5,000 sq ft, seeded "
                               "and mulched; left out of §120-3A(5)-(7)"})
        else:
            fails = [s for s, bad in (("deeper than 3 in", top[1] > 3),
                                      ("larger than 5,000 sq ft", top[0] > 5000),
                                      ("not immediately seeded and mulched", not top[2])) if bad]
            exemptions.append({"section": "§120-3A (topsoil proviso)", "applies": False,
                               "explanation": why + ": proviso does not apply (" + ", ".join(fails)
                               + "); counted as fill"})
            fill_items.append((top[0], top[1] / 12))
    # §120-3A(5): filling in excess of four feet over an area of 100 square feet or more.
    f4 = sum((a for a, d in fill_items if d > 4), Decimal(0))
    rule("§120-3A(5)", f4 >= 100, f"fill deeper than 4 ft over {_fmt(f4)} sq ft (permit if >= 100 sq ft)")
    # §120-3A(6): filling in excess of two feet over an area of 500 square feet or more.
    f2 = sum((a for a, d in fill_items if d > 2), Decimal(0))
    rule("§120-3A(6)", f2 >= 500, f"fill deeper than 2 ft over {_fmt(f2)} sq ft (permit if >= 500 sq ft)")
    # §120-3A(7): filling over an area of 1,000 square feet or more, regardless of depth.
    f0 = sum((a for a, d in fill_items if d > 0), Decimal(0))
    rule("§120-3A(7)", f0 >= 1000, f"fill at any depth over {_fmt(f0)} sq ft (permit if >= 1,000 sq ft)")

    triggers = [e["section"] for e in explanations if e["holds"]]
    max_depth = max((d for a, d in exc if a > 0), default=Decimal(0))
    standards = _applicable_standards(max_depth, bool(exc_area > 0 or strip > 0), bool(fill_area > 0),
                                      bool(strip > 0))
    notes = [
        "§120-5E: the site plan must locate every live tree 6 in or more in diameter measured 3 ft "
        "above existing ground (not DBH at 4.5 ft) within the grading area and a 25-ft strip around it.",
        "§120-12: without a required permit, a fine of $500-$1,000 (first offence) or $1,000-$2,000 "
        "and/or up to 15 days (later offences), and a civil penalty up to $3,000 per violation; each "
        "day is a separate offence.",
        *DAMAGED_TEXT_READINGS,
    ]
    return PermitCheck(
        jurisdiction=jur, permit_required=bool(triggers), triggers=triggers, explanations=explanations,
        excavation_cy=_cy(exc_cuft), fill_cy=_cy(fill_cuft), topsoil_cy=_cy(topsoil_cuft),
        excavation_area_sqft=exc_area, fill_area_sqft=fill_area, review_standards=standards,
        exemptions=exemptions, waiver_eligible=None, interpretation=list(CROTON_INTERPRETATION),
        notes=notes)


def _applicable_standards(max_exc_depth_ft: Decimal, excavation: bool, fill: bool,
                          stripping: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if max_exc_depth_ft > 4:
        # §120-8A: excavation below surrounding grade deeper than four feet -> fence with gates.
        out.append({"section": "§120-8A", "requirement": "excavation deeper than 4 ft below surrounding "
                    "grade: substantial fence of proper height and strength with gates, locked when "
                    "the property is not being worked (permanent fence if the authority requires)"})
    if excavation:
        # §120-8C: standing water at most one foot during construction, none after.
        out.append({"section": "§120-8C", "requirement": "excavations drained: standing water at most "
                    "1 ft deep during construction, none after construction"})
    if fill:
        out.append({"section": "§120-8D", "requirement": "clean fill, smooth transition to adjoining "
                    "grade, reseeded"})
    if stripping:
        # §120-8E: at least two inches of topsoil left where topsoil is removed.
        out.append({"section": "§120-8E", "requirement": "at least 2 in of topsoil left on the surface "
                    "from which topsoil is removed; reseeded and mulched"})
    if excavation or fill or stripping:
        # §120-8G: hours.
        out.append({"section": "§120-8G", "requirement": "no work 8:00 p.m.-8:00 a.m. any day, nor "
                    "8:00 p.m. Saturday-10:00 a.m. Sunday (text reads '8:0 a.m.', '10:0 a.m.')"})
        out.append({"section": "§120-8H", "requirement": "slopes no steeper than the permanent stable "
                    "slope of the material; exposed slopes seeded or protected"})
    return out


# =========================================================================== §120-8
def review_standards(max_excavation_depth_ft: Any = 0, standing_water_ft: Any = None,
                     after_construction: bool = False, topsoil_left_in: Any = None,
                     fence_provided: bool | None = None) -> list[dict[str, Any]]:
    """Check the numeric review standards of §120-8 on given values.

    Parameters
    ----------
    max_excavation_depth_ft : number
        Deepest excavation below the grade of surrounding property (feet).
    standing_water_ft : number, optional
        Depth of standing water at the bottom of the excavation (feet).
    after_construction : bool
        Whether ``standing_water_ft`` is measured after construction (then none is allowed).
    topsoil_left_in : number, optional
        Topsoil left on a surface from which topsoil was removed (inches).
    fence_provided : bool, optional
        Whether the fence of §120-8A is in place.

    Returns
    -------
    list of dict
        One item per standard checked: ``section``, ``requirement``, ``complies`` (True, False,
        or None when not determinable) and ``explanation``.

    References
    ----------
    .. [1] Croton-on-Hudson Code §120-8A, C, E.
    """
    depth = _nonneg(max_excavation_depth_ft, "max_excavation_depth_ft")
    out: list[dict[str, Any]] = []
    # §120-8A: "to a depth greater than four feet" -> fence (strictly greater).
    fence_needed = depth > 4
    out.append({"section": "§120-8A", "requirement": "fence with locked gates if deeper than 4 ft",
                "fence_required": fence_needed,
                "complies": (True if not fence_needed else fence_provided),
                "explanation": f"excavation {_fmt(depth)} ft deep: fence "
                               f"{'required' if fence_needed else 'not required'} (required if > 4 ft)"})
    if standing_water_ft is not None:
        w = _nonneg(standing_water_ft, "standing_water_ft")
        # §120-8C: "not greater in depth than one foot" during; "no standing water" after.
        limit = Decimal(0) if after_construction else Decimal(1)
        out.append({"section": "§120-8C", "requirement": "standing water <= 1 ft during construction, "
                    "none after", "complies": w <= limit,
                    "explanation": f"{_fmt(w)} ft of standing water "
                                   f"{'after' if after_construction else 'during'} construction "
                                   f"(limit {_fmt(limit)} ft)"})
    if topsoil_left_in is not None:
        t = _nonneg(topsoil_left_in, "topsoil_left_in")
        # §120-8E: "at least two inches of topsoil shall be left".
        out.append({"section": "§120-8E", "requirement": "at least 2 in of topsoil left",
                    "complies": t >= 2, "explanation": f"{_fmt(t)} in of topsoil left (minimum 2 in)"})
    return out


def _to_datetime(when: Any) -> _dt.datetime:
    if isinstance(when, _dt.datetime):
        return when
    if isinstance(when, str):
        try:
            return _dt.datetime.fromisoformat(when.strip())
        except ValueError:
            raise ValueError(f"expected a date-time YYYY-MM-DDTHH:MM, got {when!r}") from None
    raise ValueError(f"expected a datetime, got {when!r}")


def work_time_check(when: Any) -> dict[str, Any]:
    """Whether excavation or filling may be done at a local date-time (§120-8G), and why.

    Prohibited: from 8:00 p.m. to 8:00 a.m. every day, and from 8:00 p.m. Saturday to 10:00
    a.m. Sunday. Read as half-open intervals: work may start at 8:00 a.m. (10:00 a.m. on
    Sunday) and must stop at 8:00 p.m. (8:00 p.m. itself is not allowed).

    Returns
    -------
    dict
        ``allowed`` (bool), ``section``, ``reason``, ``interpretation``.
    """
    dt = _to_datetime(when)
    t = dt.time()
    interp = ("§120-8G read as: work allowed from 8:00 a.m. (Sunday 10:00 a.m.) up to but not "
              "including 8:00 p.m., local time; the text's '8:0 a.m.' and '10:0 a.m.' read as "
              "8:00 a.m. and 10:00 a.m.")
    day = dt.strftime("%A")
    if t >= _dt.time(20, 0) or t < _dt.time(8, 0):
        return {"allowed": False, "section": "§120-8G", "interpretation": interp,
                "reason": f"{day} {t:%H:%M} is between 8:00 p.m. and 8:00 a.m."}
    if dt.weekday() == 6 and t < _dt.time(10, 0):
        return {"allowed": False, "section": "§120-8G", "interpretation": interp,
                "reason": f"Sunday {t:%H:%M} is between 8:00 p.m. Saturday and 10:00 a.m. Sunday"}
    return {"allowed": True, "section": "§120-8G", "interpretation": interp,
            "reason": f"{day} {t:%H:%M} is within the allowed hours"}


def work_time_allowed(when: Any) -> bool:
    """True if excavation/filling work is allowed at the local date-time ``when`` (§120-8G).

    Parameters
    ----------
    when : datetime.datetime or ISO str
        Local wall-clock time at the site.

    References
    ----------
    .. [1] Croton-on-Hudson Code §120-8G: no operations between 8:00 p.m. and 8:00 a.m. Sunday
       through Saturday, nor between 8:00 p.m. Saturday and 10:00 a.m. Sunday.
    """
    return bool(work_time_check(when)["allowed"])


# =========================================================================== §120-5E, §120-12
def tree_survey_required(diameter_in: Any, distance_outside_grading_area_ft: Any = 0) -> dict[str, Any]:
    """Whether a tree must be shown on the §120-5E site plan.

    Parameters
    ----------
    diameter_in : number
        Trunk diameter measured 3 ft above existing ground level (inches). This is not DBH
        (4.5 ft, used by Chapter 208) nor Wesley Hills' 54 in (4.5 ft) point.
    distance_outside_grading_area_ft : number
        0 inside the grading area, otherwise distance from its edge (feet).

    Returns
    -------
    dict
        ``required`` (bool), ``section`` and ``explanation``: live trees 6 in or larger within
        the grading area or the 25-ft-wide boundary strip around it.
    """
    d = _nonneg(diameter_in, "diameter_in")
    dist = _nonneg(distance_outside_grading_area_ft, "distance_outside_grading_area_ft")
    req = d >= 6 and dist <= 25
    return {"required": bool(req), "section": "§120-5E",
            "explanation": f"{_fmt(d)} in at 3 ft above ground, {_fmt(dist)} ft outside the grading area: "
                           "survey required for live trees >= 6 in within the grading area or the 25-ft "
                           "strip around it (diameter at 3 ft, not DBH at 4.5 ft)"}


def violation_penalties(offense_number: int = 1, days: int = 1) -> dict[str, Any]:
    """Fines for violating Chapter 120 (§120-12), in US dollars.

    Parameters
    ----------
    offense_number : int
        1 for a first offence, 2 or more for a second or subsequent one.
    days : int
        Days of a continuing violation; each day is a separate offence / violation.

    Returns
    -------
    dict
        Per-day criminal fine range (§120-12A), civil penalty cap (§120-12B), and the totals over
        ``days`` (Decimals), with the readings of the damaged text.

    Notes
    -----
    Totals treat every day of a continuing first offence as fined in the first-offence range;
    whether days after the first are "subsequent offences" is for the court.
    """
    if not isinstance(offense_number, int) or offense_number < 1:
        raise ValueError(f"offense_number must be an integer >= 1, got {offense_number!r}")
    if not isinstance(days, int) or days < 1:
        raise ValueError(f"days must be an integer >= 1, got {days!r}")
    # §120-12A: first offence $500-$1,000; second and subsequent $1,000-"$2,0" (read $2,000)
    # or up to 15 days' imprisonment, or both.
    lo, hi = (Decimal(500), Decimal(1000)) if offense_number == 1 else (Decimal(1000), Decimal(2000))
    # §120-12B: civil penalty not to exceed "$3,0" (read $3,000) per violation; each day separate.
    civil = Decimal(3000)
    return {
        "section_criminal": "§120-12A", "section_civil": "§120-12B",
        "criminal_fine_min_per_day": lo, "criminal_fine_max_per_day": hi,
        "imprisonment_max_days": 15 if offense_number > 1 else 0,
        "civil_penalty_max_per_day": civil,
        "criminal_fine_min_total": lo * days, "criminal_fine_max_total": hi * days,
        "civil_penalty_max_total": civil * days,
        "notes": ["§120-12A: the extracted text reads '$2,0'; read as $2,000.",
                  "§120-12B: the extracted text reads '$3,0'; read as $3,000.",
                  "Each day's continuance is a separate offence (§120-12A) / violation (§120-12B)."],
    }


# =========================================================================== Wesley Hills
WESLEY_NOTES = [
    "Wesley Hills section numbers (§95-3A, §95-3C(1), §95-3D(1), §95-4E) are reconstructed: the "
    "extracted text of Chapter 95 lost its section headings.",
]


def _wesley_hills_check(exc_cuft: Decimal, fill_cuft: Decimal, topsoil_cuft: Decimal, exc_area: Decimal,
                        fill_area: Decimal, strip: Decimal,
                        top: tuple[Decimal, Decimal, bool] | None) -> PermitCheck:
    any_op = exc_cuft > 0 or fill_cuft > 0 or strip > 0 or exc_area > 0 or fill_area > 0
    total_cy = _cy(exc_cuft + fill_cuft)
    explanations = [{
        "section": "§95-3A(1)(a)", "holds": bool(any_op),
        "explanation": "any landfilling, excavation, regrading, removal, stripping or disturbance of "
                       "topsoil or earth is an 'operation' needing a clearing, filling or excavation "
                       "permit from the Planning Board" + ("" if any_op else " (none given)")}]
    waiver = bool(any_op and total_cy < 100)
    explanations.append({
        "section": "§95-3D(1)", "holds": waiver,
        "explanation": f"material {_r2(total_cy)} cu yd (excavation + fill): the Planning Board may waive "
                       "the permit for an operation involving less than 100 cu yd"})
    notes = [
        "§95-3C(1): a building permit stands as the permit while added fill and excavated material "
        "removed each stay within twice the cellar-and-foundation volume; use "
        "wesley_hills_building_permit_check.",
        "§95-3D(4): the normal addition of topsoil to lawns and gardens is not limited by the chapter.",
        "§95-3A(1)(c)-(e): tree removal triggers (diameter at 54 in) are evaluated by the tree law.",
        "§95-4E(1): rehabilitation: slopes no steeper than 1V:2H (rock 6V:1H), at least 4 in of "
        "topsoil over exposed ground.",
        *WESLEY_NOTES,
    ]
    interp = ["§95-3D(1): 'less than 100 cubic yards of material' is read as excavation plus fill "
              "volume strictly below 100 cu yd; the waiver is the Planning Board's discretion, so "
              "permit_required stays true and waiver_eligible is reported."]
    return PermitCheck(
        jurisdiction="wesley-hills", permit_required=bool(any_op),
        triggers=["§95-3A(1)(a)"] if any_op else [], explanations=explanations,
        excavation_cy=_cy(exc_cuft), fill_cy=_cy(fill_cuft), topsoil_cy=_cy(topsoil_cuft),
        excavation_area_sqft=exc_area, fill_area_sqft=fill_area, review_standards=[],
        exemptions=[], waiver_eligible=waiver, interpretation=interp, notes=notes)


def wesley_hills_waiver_eligible(material_cy: Any) -> bool:
    """True if the Planning Board may waive the permit: less than 100 cu yd of material (§95-3D(1))."""
    return _nonneg(material_cy, "material_cy") < 100


@dataclass(frozen=True)
class WesleyHillsCheck:
    """The building-permit volume rule of Wesley Hills §95-3C(1) and the waiver of §95-3D(1).

    Volumes in cubic yards (exact Decimals).
    """

    cellar_volume_cy: Decimal
    limit_cy: Decimal
    fill_cy: Decimal
    excavated_cy: Decimal
    building_permit_suffices: bool
    separate_permit_required: bool
    waiver_eligible: bool
    explanations: list[dict[str, Any]]
    notes: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"cellar_volume_cy": _r2(self.cellar_volume_cy), "limit_cy": _r2(self.limit_cy),
                "fill_cy": _r2(self.fill_cy), "excavated_cy": _r2(self.excavated_cy),
                "building_permit_suffices": self.building_permit_suffices,
                "separate_permit_required": self.separate_permit_required,
                "waiver_eligible": self.waiver_eligible,
                "explanations": [dict(e) for e in self.explanations], "notes": list(self.notes)}


def wesley_hills_building_permit_check(cellar_length_ft: Any, cellar_width_ft: Any, cellar_depth_ft: Any,
                                       fill_cy: Any, excavated_cy: Any) -> WesleyHillsCheck:
    """Whether a building permit stands as the filling/excavation permit (Wesley Hills §95-3C(1)).

    Parameters
    ----------
    cellar_length_ft, cellar_width_ft, cellar_depth_ft : number
        Outside dimensions of the cellar and foundation (feet); the volume is their product.
    fill_cy : number
        Volume of fill added to the property (cubic yards).
    excavated_cy : number
        Volume of excavated material removed from the property (cubic yards).

    Returns
    -------
    WesleyHillsCheck
        The building permit suffices while the fill and the removed material each do not exceed
        twice the cellar-and-foundation volume; otherwise a separate permit is required, which
        the Planning Board may waive if the operation involves less than 100 cu yd
        (``waiver_eligible``, fill + excavated < 100).

    References
    ----------
    .. [1] Wesley Hills Code §95-3C(1) ("does not exceed two times the volume of the cellar and
       foundation") and §95-3D(1) ("less than 100 cubic yards of material").
    """
    L = _nonneg(cellar_length_ft, "cellar_length_ft")
    W = _nonneg(cellar_width_ft, "cellar_width_ft")
    D = _nonneg(cellar_depth_ft, "cellar_depth_ft")
    f = _nonneg(fill_cy, "fill_cy")
    e = _nonneg(excavated_cy, "excavated_cy")
    vol = _cy(L * W * D)
    limit = 2 * vol
    # §95-3C(1): "does not exceed two times" -> <= 2x, each of fill and removed material.
    fill_ok, exc_ok = f <= limit, e <= limit
    suffices = fill_ok and exc_ok
    waiver = (f + e) < 100  # §95-3D(1): "less than 100 cubic yards"
    expl = [
        {"section": "§95-3C(1)", "holds": fill_ok,
         "explanation": f"added fill {_r2(f)} cu yd vs 2 x cellar and foundation {_r2(vol)} cu yd = "
                        f"{_r2(limit)} cu yd ({'within' if fill_ok else 'exceeds'})"},
        {"section": "§95-3C(1)", "holds": exc_ok,
         "explanation": f"excavated material removed {_r2(e)} cu yd vs limit {_r2(limit)} cu yd "
                        f"({'within' if exc_ok else 'exceeds'})"},
        {"section": "§95-3D(1)", "holds": waiver,
         "explanation": f"operation involves {_r2(f + e)} cu yd (fill + removed): the Planning Board "
                        f"{'may' if waiver else 'may not'} waive the permit (less than 100 cu yd)"},
    ]
    notes = [
        f"cellar and foundation volume {_fmt(L)} x {_fmt(W)} x {_fmt(D)} ft = {_fmt(L * W * D)} cu ft = "
        f"{_r2(vol)} cu yd (outside dimensions, cellar floor to top of foundation)",
        "§95-3C(1) read as: the fill added and the excavated material removed are each compared with "
        "twice the volume ('shall specify ... the maximum volumes of added fill and/or excavated "
        "material'); exactly 2x is within the rule ('does not exceed').",
        "§95-3D(1) read as: fill plus removed material strictly below 100 cu yd; a waiver is the "
        "Planning Board's discretion, not automatic.",
        *WESLEY_NOTES,
    ]
    return WesleyHillsCheck(vol, limit, f, e, suffices, not suffices, waiver, expl, notes)


def wesley_hills_slope_check(rise_ft: Any, run_ft: Any, rock: bool = False,
                             retained: bool = False) -> dict[str, Any]:
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
    rise = _nonneg(rise_ft, "rise_ft")
    run = _nonneg(run_ft, "run_ft")
    limit = Decimal(6) if rock else Decimal("0.5")
    if rise == 0:
        ok, ratio = True, Decimal(0)
    elif run == 0:
        ok, ratio = False, None
    else:
        ratio = rise / run
        ok = rise <= limit * run
    if retained and not rock:
        ok = True
    what = "rock: no steeper than 6V:1H" if rock else "no steeper than 1V:2H"
    return {"ok": bool(ok), "section": "§95-4E(1)(a)", "max_rise_per_run": float(limit),
            "rise_per_run": None if ratio is None else float(ratio),
            "explanation": f"slope {_fmt(rise)} ft rise over {_fmt(run)} ft run; {what}"
                           + ("; supported by a retaining wall or foundation" if retained and not rock else "")}


def wesley_hills_topsoil_cy(exposed_area_sqft: Any, depth_in: Any = 4) -> Decimal:
    """Topsoil needed to cover exposed ground (Wesley Hills §95-4E(1)(c)), cubic yards.

    ``exposed_area_sqft`` (square feet) x ``depth_in`` (inches, at least the minimum 4 in) / 12 / 27.
    Rock, roads, driveways, parking places, garden spaces and surfaces below high-water marks
    are excepted by the rule and should be left out of the area.
    """
    a = _nonneg(exposed_area_sqft, "exposed_area_sqft")
    d = _nonneg(depth_in, "depth_in")
    if d < 4:
        raise ValueError(f"depth_in must be at least the 4 in minimum of §95-4E(1)(c), got {depth_in!r}")
    return _cy(a * d / 12)


# =========================================================================== grid volumes
@dataclass(frozen=True)
class GridVolumes:
    """Cut and fill by the grid (borrow-pit) method.

    ``cut_cy``, ``fill_cy`` are cubic yards (>= 0); ``net_cy = cut_cy - fill_cy`` (positive:
    surplus to export; negative: material to import). ``cell_cut_cy``/``cell_fill_cy`` are
    per-cell arrays of shape (ny - 1, nx - 1), rows along y ascending, columns along x.
    """

    cut_cy: float
    fill_cy: float
    net_cy: float
    cell_cut_cy: np.ndarray
    cell_fill_cy: np.ndarray
    dx: float
    dy: float
    nx: int
    ny: int
    mixed_cells: int
    units: str
    notes: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"method": "grid (borrow-pit)", "cut_cy": round(self.cut_cy, 2), "fill_cy": round(self.fill_cy, 2),
                "net_cy": round(self.net_cy, 2), "nx": self.nx, "ny": self.ny, "dx": self.dx, "dy": self.dy,
                "cells": (self.nx - 1) * (self.ny - 1), "mixed_cells": self.mixed_cells,
                "units_in": self.units, "notes": list(self.notes)}


GRID_NOTES = [
    "Grid (borrow-pit) method: depth h = proposed - existing at each node (h > 0 fill, h < 0 "
    "cut). A cell with all four corners of one sign has volume = cell area x mean of the four "
    "corner depths.",
    "A cell whose corners change sign is split from the corner values (Ghilani & Wolf, "
    "Elementary Surveying, ch. 26): cut = A (sum of cut depths)^2 / (4 sum |h|), fill = A (sum "
    "of fill depths)^2 / (4 sum |h|); fill - cut then equals A x mean h.",
    "Volumes in cubic yards: cu ft / 27 (or m3 / 0.764554857984 with metric input).",
    "net_cy = cut_cy - fill_cy: positive is surplus material, negative is material to import "
    "(no shrink/swell factor applied).",
]


def _axis_spacing(coords: np.ndarray, name: str) -> float:
    if coords.size < 2:
        raise ValueError(f"grid needs at least 2 distinct {name} values, got {coords.size}")
    d = np.diff(coords)
    step = float(d.mean())
    if step <= 0 or not np.all(d > 0):
        raise ValueError(f"{name} coordinates must be strictly increasing")
    tol = 1e-6 * abs(step)
    if np.max(np.abs(d - step)) > tol:
        raise ValueError(f"grid is not regular: {name} spacing varies from {d.min():g} to {d.max():g}")
    return step


def _borrow_pit(h: np.ndarray, cell_area: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell cut and fill volumes (cell_area units x h units) from node depths ``h`` (ny, nx)."""
    pos = np.maximum(h, 0.0)
    neg = np.maximum(-h, 0.0)
    P = pos[:-1, :-1] + pos[:-1, 1:] + pos[1:, :-1] + pos[1:, 1:]
    N = neg[:-1, :-1] + neg[:-1, 1:] + neg[1:, :-1] + neg[1:, 1:]
    S = P + N
    safe = np.where(S > 0, S, 1.0)
    k = cell_area / 4.0
    fill = k * P * P / safe
    cut = k * N * N / safe
    return cut, fill


def _check_finite_volumes(cut_cy: float, fill_cy: float) -> None:
    """Refuse inputs so large that the volumes overflow (no NaN or inf reaches a user)."""
    if not (math.isfinite(cut_cy) and math.isfinite(fill_cy) and math.isfinite(cut_cy - fill_cy)):
        raise ValueError("the volumes overflow: elevations, areas or spacings are far too large "
                         "(check the units and the file)")


def grid_volumes(x: Any, y: Any, existing: Any, proposed: Any, *, metric: bool = False) -> GridVolumes:
    """Cut and fill between two surfaces on a regular grid (grid / borrow-pit method).

    Parameters
    ----------
    x, y : array_like or float
        Either 1-D arrays of node coordinates, one per node, listing a complete regular grid in
        any order (with 1-D ``existing`` and ``proposed``), or — with 2-D ``existing`` and
        ``proposed`` of shape (ny, nx) — the node coordinates along each axis (lengths nx and
        ny, increasing, evenly spaced) or the spacings as scalars. Feet (metres if ``metric``).
    existing, proposed : array_like
        Existing and proposed elevations at the nodes, feet (metres if ``metric``).
    metric : bool
        Coordinates and elevations in metres; volumes are still returned in cubic yards.

    Returns
    -------
    GridVolumes
        ``cut_cy``, ``fill_cy`` (cubic yards, >= 0), ``net_cy = cut_cy - fill_cy`` and per-cell
        arrays. Vectorised: a 1,000 x 1,000 node grid takes a few tens of milliseconds.

    Raises
    ------
    ValueError
        Mismatched shapes, NaN, missing or duplicate nodes, a non-regular grid.

    Notes
    -----
    Each cell of area A = dx x dy has corner depths h = proposed - existing (h > 0 fill). With
    P the sum of the positive corner depths and N the sum of the magnitudes of the negative ones,
    fill = A P^2 / (4 (P + N)) and cut = A N^2 / (4 (P + N)). For a cell all in fill this is
    A P / 4 (the average of the four corners times the area), and for a cell that changes sign it
    is the standard split of the borrow-pit method for transition cells [1]_.

    References
    ----------
    .. [1] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying*, 13th ed., 2012, ch. 26
       (borrow-pit / unit-area method).
    """
    E = np.asarray(existing, dtype=float)
    Pz = np.asarray(proposed, dtype=float)
    if E.shape != Pz.shape:
        raise ValueError(f"existing and proposed must have the same shape, got {E.shape} and {Pz.shape}")
    if E.ndim == 2:
        ny, nx = E.shape
        if ny < 2 or nx < 2:
            raise ValueError(f"grid needs at least 2 x 2 nodes, got {ny} x {nx}")
        dx = _spacing_arg(x, nx, "x")
        dy = _spacing_arg(y, ny, "y")
        Eg, Pg = E, Pz
    elif E.ndim == 1:
        X = np.asarray(x, dtype=float)
        Y = np.asarray(y, dtype=float)
        if X.shape != E.shape or Y.shape != E.shape:
            raise ValueError("x, y, existing and proposed must have the same length")
        if np.isnan(X).any() or np.isnan(Y).any():
            raise ValueError("x and y must not contain missing values")
        xs, ix = np.unique(X, return_inverse=True)
        ys, iy = np.unique(Y, return_inverse=True)
        nx, ny = xs.size, ys.size
        dx = _axis_spacing(xs, "x")
        dy = _axis_spacing(ys, "y")
        if X.size != nx * ny:
            raise ValueError(f"grid is not complete: {X.size} nodes given for {nx} x values x {ny} y values "
                             f"= {nx * ny} nodes (missing or duplicate nodes)")
        flat = iy * nx + ix
        if np.bincount(flat, minlength=nx * ny).max() > 1:
            raise ValueError("grid has duplicate nodes (the same x, y more than once)")
        Eg = np.empty(nx * ny)
        Pg = np.empty(nx * ny)
        Eg[flat] = E
        Pg[flat] = Pz
        Eg = Eg.reshape(ny, nx)
        Pg = Pg.reshape(ny, nx)
    else:
        raise ValueError(f"existing and proposed must be 1-D (with x, y per node) or 2-D grids, got {E.ndim}-D")
    if not (np.isfinite(Eg).all() and np.isfinite(Pg).all()):
        raise ValueError("existing and proposed elevations must not contain missing or infinite values")

    with np.errstate(over="ignore", invalid="ignore"):  # overflow is refused just below
        h = Pg - Eg
        cut, fill = _borrow_pit(h, dx * dy)
    factor = 1.0 / M3_PER_CU_YD if metric else 1.0 / CU_FT_PER_CU_YD
    cut *= factor
    fill *= factor
    mixed = int(np.count_nonzero((cut > 0) & (fill > 0)))
    c, f = float(cut.sum()), float(fill.sum())
    _check_finite_volumes(c, f)
    return GridVolumes(cut_cy=c, fill_cy=f, net_cy=c - f, cell_cut_cy=cut, cell_fill_cy=fill,
                       dx=float(dx), dy=float(dy), nx=int(nx), ny=int(ny), mixed_cells=mixed,
                       units="metres" if metric else "feet", notes=list(GRID_NOTES))


def _spacing_arg(v: Any, n: int, name: str) -> float:
    a = np.asarray(v, dtype=float)
    if a.ndim == 0:
        s = float(a)
        if not math.isfinite(s) or s <= 0:
            raise ValueError(f"{name} spacing must be positive, got {v!r}")
        return s
    if a.ndim != 1 or a.size != n:
        raise ValueError(f"{name} must be a spacing or {n} node coordinates, got shape {a.shape}")
    return _axis_spacing(a, name)


def _columns(df: Any, required: Sequence[str], what: str) -> Any:
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{what}: expected a DataFrame")
    df = df.rename(columns={c: str(c).strip().lower() for c in df.columns})
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ValueError(f"{what}: missing column(s) {', '.join(repr(m) for m in missing)} "
                         f"(found: {', '.join(map(str, df.columns)) or 'none'})")
    if len(df) == 0:
        raise ValueError(f"{what}: no rows")
    return df


def _numeric_column(df: Any, col: str, what: str) -> np.ndarray:
    import pandas as pd

    s = pd.to_numeric(df[col], errors="coerce")
    bad = s.isna()
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(f"{what}: column {col!r} row {row + 2} is not a number: {df[col].iloc[row]!r}")
    return s.to_numpy(dtype=float)


def grid_volumes_from_frame(df: Any, *, metric: bool = False) -> GridVolumes:
    """:func:`grid_volumes` from a DataFrame with columns ``x``, ``y``, ``existing``, ``proposed``."""
    what = "grid"
    df = _columns(df, ["x", "y", "existing", "proposed"], what)
    cols = {c: _numeric_column(df, c, what) for c in ("x", "y", "existing", "proposed")}
    return grid_volumes(cols["x"], cols["y"], cols["existing"], cols["proposed"], metric=metric)


def _read_csv(path: str | PathLike[str], what: str) -> Any:
    import pandas as pd

    try:
        return pd.read_csv(path, skipinitialspace=True, dtype=str)
    except FileNotFoundError:
        raise ValueError(f"{what} file not found: {path}") from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"{what} file is empty: {path}") from None
    except (pd.errors.ParserError, UnicodeDecodeError) as e:
        raise ValueError(f"{what} file {path} is not a readable CSV: {e}") from None


def volume_from_grid_csv(path: str | PathLike[str], *, metric: bool = False) -> GridVolumes:
    """:func:`grid_volumes` from a CSV with columns ``x``, ``y``, ``existing``, ``proposed``.

    Feet and regular spacing (metres with ``metric=True``); cubic yards out.
    """
    return grid_volumes_from_frame(_read_csv(path, "grid"), metric=metric)


# =========================================================================== end areas
@dataclass(frozen=True)
class EndAreaVolumes:
    """Cut and fill between cross-sections by the average-end-area method (cubic yards).

    ``segment_cut_cy``/``segment_fill_cy`` hold one value per interval between stations.
    """

    cut_cy: float
    fill_cy: float
    net_cy: float
    stations: np.ndarray
    segment_cut_cy: np.ndarray
    segment_fill_cy: np.ndarray
    prismoidal: bool
    units: str
    notes: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"method": "average end area" + (" with prismoidal correction" if self.prismoidal else ""),
                "cut_cy": round(self.cut_cy, 2), "fill_cy": round(self.fill_cy, 2),
                "net_cy": round(self.net_cy, 2), "stations": len(self.stations),
                "segments": [{"from": float(a), "to": float(b), "cut_cy": round(float(c), 2),
                              "fill_cy": round(float(f), 2)}
                             for a, b, c, f in zip(self.stations[:-1], self.stations[1:],
                                                   self.segment_cut_cy, self.segment_fill_cy)],
                "units_in": self.units, "notes": list(self.notes)}


def parse_station(s: Any) -> float:
    """A station as feet: a number, or surveyor's notation '12+50' (= 1,250 ft, '+' after the hundreds)."""
    if isinstance(s, (int, float, np.integer, np.floating)) and not isinstance(s, bool):
        return float(s)
    t = str(s).strip()
    try:
        if "+" in t[1:]:
            sign = -1.0 if t.startswith("-") else 1.0
            hundreds, _, rest = t.lstrip("+-").partition("+")
            return sign * (float(hundreds) * 100 + float(rest))
        return float(t)
    except ValueError:
        raise ValueError(f"station {s!r} is not a number or NN+NN station") from None


def end_area_volumes(stations: Any, cut_area: Any, fill_area: Any, prismoidal: bool = False, *,
                     metric: bool = False) -> EndAreaVolumes:
    """Cut and fill by the average-end-area method, optionally with a prismoidal correction.

    Parameters
    ----------
    stations : array_like
        Station of each cross-section, feet along the alignment (metres if ``metric``), strictly
        increasing; numbers or '12+50' strings.
    cut_area, fill_area : array_like
        Cut and fill area of each cross-section, square feet (square metres if ``metric``).
    prismoidal : bool
        Apply the prismoidal correction for sections of similar shape: V = L/3 (A1 + A2 +
        sqrt(A1 A2)), i.e. the end-area volume minus L (sqrt(A1) - sqrt(A2))^2 / 6. Where one end
        area is zero this is the pyramid volume L A / 3.
    metric : bool
        Input in metres / square metres; output still in cubic yards.

    Returns
    -------
    EndAreaVolumes
        ``cut_cy``, ``fill_cy``, ``net_cy = cut_cy - fill_cy`` and per-segment volumes.

    Notes
    -----
    Average end area: V = L (A1 + A2) / 2 per interval of length L [1]_. The end-area method
    overestimates a prismoid; the correction used here assumes the two end sections are similar
    figures (no section widths or centre heights are given, so the three-level correction
    C = L (c1 - c2)(D1 - D2) / 12 of [1]_ cannot be applied).

    References
    ----------
    .. [1] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying*, 13th ed., 2012, ch. 26
       (average-end-area formula, prismoidal formula and correction).
    """
    try:
        st = np.array([parse_station(s) for s in np.atleast_1d(np.asarray(stations, dtype=object))], dtype=float)
    except TypeError:
        raise ValueError("stations must be a sequence") from None
    ca = np.asarray(cut_area, dtype=float)
    fa = np.asarray(fill_area, dtype=float)
    if ca.shape != st.shape or fa.shape != st.shape:
        raise ValueError("stations, cut_area and fill_area must have the same length")
    if st.size < 2:
        raise ValueError("at least two cross-sections are needed")
    for name, a in (("station", st), ("cut_area", ca), ("fill_area", fa)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} must not contain missing or infinite values")
    if (ca < 0).any() or (fa < 0).any():
        raise ValueError("cut_area and fill_area must not be negative (give cut and fill as positive areas)")
    L = np.diff(st)
    if (L <= 0).any():
        i = int(np.flatnonzero(L <= 0)[0])
        raise ValueError(f"stations must be strictly increasing: {st[i]:g} is followed by {st[i + 1]:g}")

    def seg(a: np.ndarray) -> np.ndarray:
        v = L * (a[:-1] + a[1:]) / 2.0
        if prismoidal:
            v = v - L * (np.sqrt(a[:-1]) - np.sqrt(a[1:])) ** 2 / 6.0
        return np.maximum(v, 0.0)

    factor = 1.0 / M3_PER_CU_YD if metric else 1.0 / CU_FT_PER_CU_YD
    sc, sf = seg(ca) * factor, seg(fa) * factor
    c, f = float(sc.sum()), float(sf.sum())
    _check_finite_volumes(c, f)
    notes = ["Average-end-area method: V = L (A1 + A2) / 2 between consecutive stations "
             "(Ghilani & Wolf, Elementary Surveying, ch. 26).",
             "net_cy = cut_cy - fill_cy: positive is surplus material, negative is material to import."]
    if prismoidal:
        notes.append("Prismoidal correction for similar end sections: V = L/3 (A1 + A2 + sqrt(A1 A2)) = "
                     "end-area volume - L (sqrt A1 - sqrt A2)^2 / 6; a zero end gives the pyramid L A / 3.")
    return EndAreaVolumes(cut_cy=c, fill_cy=f, net_cy=c - f, stations=st, segment_cut_cy=sc,
                          segment_fill_cy=sf, prismoidal=bool(prismoidal),
                          units="metres" if metric else "feet", notes=notes)


def end_area_volumes_from_frame(df: Any, prismoidal: bool = False, *, metric: bool = False) -> EndAreaVolumes:
    """:func:`end_area_volumes` from a DataFrame with columns ``station``, ``cut_area``, ``fill_area``."""
    what = "sections"
    df = _columns(df, ["station", "cut_area", "fill_area"], what)
    st = [parse_station(s) for s in df["station"]]
    return end_area_volumes(st, _numeric_column(df, "cut_area", what), _numeric_column(df, "fill_area", what),
                            prismoidal, metric=metric)


def volume_from_sections_csv(path: str | PathLike[str], prismoidal: bool = False, *,
                             metric: bool = False) -> EndAreaVolumes:
    """:func:`end_area_volumes` from a CSV with columns ``station``, ``cut_area``, ``fill_area``.

    Stations in feet (numbers or '12+50'), areas in square feet (metres / m2 with ``metric``).
    """
    return end_area_volumes_from_frame(_read_csv(path, "sections"), prismoidal, metric=metric)
