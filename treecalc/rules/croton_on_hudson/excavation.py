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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from os import PathLike
from typing import Any

import numpy as np

from treecalc.isolated import read_csv_table
from treecalc.surfaces import CutFill, Earthwork, PlanAreas
from treecalc.units import (
    CENT,
    RANGES,
    add_months,
    bounded,
    in_range,
    load_law_numbers,
    nonneg,
    round2,
    to_date,
    to_datetime,
)

__all__ = [
    "PermitCheck",
    "check_permit",
    "one_law_inputs",
    "one_law_input",
    "review_standards",
    "work_time_allowed",
    "work_time_check",
    "tree_survey_required",
    "violation_penalties",
    "WesleyHillsCheck",
    "wesley_hills_building_permit_check",
    "wesley_hills_waiver",
    "wesley_hills_waiver_eligible",
    "wesley_hills_slope_check",
    "wesley_hills_topsoil_cy",
    "GridVolumes",
    "grid_volumes",
    "grid_volumes_from_frame",
    "volume_from_grid_csv",
    "EndAreaVolumes",
    "end_area_volumes",
    "end_area_volumes_from_frame",
    "volume_from_sections_csv",
    "parse_station",
    "CU_FT_PER_CU_YD",
    "M3_PER_CU_YD",
    "DAMAGED_TEXT_READINGS",
]

CU_FT_PER_CU_YD = 27
#: 1 yd = 0.9144 m exactly, so 1 cu yd = 0.9144**3 m3 = 0.764554857984 m3.
M3_PER_CU_YD = 0.9144**3
_D27 = Decimal(27)
_CENT = CENT

DAMAGED_TEXT_READINGS = [
    "Damaged numbers in the extracted text of Chapter 120, read as: '$2,0' (§120-12A) = $2,000; "
    "'$3,0' (§120-12B) = $3,000; '8:0 a.m.' / '10:0 a.m.' (§120-8G) = 8:00 a.m. / 10:00 a.m.; "
    "CPLR 'Article 7' (§120-9A, §120-12D) = Article 78. Check against the official code.",
]


# =========================================================================== helpers
def _cy(cu_ft: Decimal) -> Decimal:
    """Cubic feet to cubic yards, exact to 28 significant digits."""
    return cu_ft / _D27


def _fmt(d: Decimal) -> str:
    """A Decimal without trailing zeros, with thousands separators (for explanations).

    A computed quantity with more than four decimals (1,000 x 7 / 12 = 583.333... cu ft) is said to the cent
    (583.33), or to four decimals under 1; a law number or an input keeps its digits (0.3375)."""
    d = Decimal(d)
    if d.is_finite() and d.normalize().as_tuple().exponent < -4:  # type: ignore[operator]
        d = d.quantize(_CENT if abs(d) >= 1 else Decimal("0.0001"))
    d = d.normalize()
    s = f"{d:,f}"
    return s


def _sqft(d: Decimal | int) -> str:
    """An area as said in a sentence: to 0.01 sq ft (a measured plan area of 1,234.5678 sq ft is 1,234.57), a
    whole area whole (600 sq ft)."""
    return _fmt(Decimal(d).quantize(_CENT))


def _pairs(items: Iterable[Any] | None, name: str) -> list[tuple[Decimal, Decimal]]:
    out = []
    for i, it in enumerate(items or []):
        try:
            a, d = it
        except (TypeError, ValueError):
            raise ValueError(f"{name} {i + 1}: expected (area_sqft, depth_ft), got {it!r}") from None
        out.append((nonneg(a, f"{name} {i + 1} area_sqft"), nonneg(d, f"{name} {i + 1} depth_ft")))
    return out


# =========================================================================== §120-3A permit
LAW = load_law_numbers("croton_on_hudson/ch120_excavation.toml")
WH_LAW = load_law_numbers("wesley_hills/ch95_excavation.toml")

#: The excavation chapter of each law this module applies, by key (its rules are here).
_EXCAVATION_LAW = {"croton_on_hudson": LAW, "wesley_hills": WH_LAW}


def one_law_inputs() -> dict[str, tuple[str, str, str]]:
    """Inputs of :func:`check_permit` that one law reads and another does not, as each law's record declares
    them (:attr:`treecalc.jurisdictions.Jurisdiction.excavation_inputs`): name -> (the law that reads it, its
    section and what it decides). Given for another law, ``term`` and ``cellar`` are refused (ValueError:
    :func:`one_law_input`); the retaining wall and the lot area, which the app passes for either law, are said
    in the notes. The command line refuses all four (exit 2), naming the flag."""
    from treecalc import jurisdictions

    out = {}
    for r in jurisdictions.REGISTRY.values():
        for name, (entry, what) in r.excavation_inputs.items():
            number = _EXCAVATION_LAW[r.key][entry]  # "{value}" in the words: the entry's number, from the data
            out[name] = (r.key, number.section, what.format(value=f"{number.value.normalize():f}"))
    return out


def one_law_input(name: str, jurisdiction: str, shown: str = "", refused: bool = True) -> str:
    """Why input ``name`` (shown as ``shown``: a flag) is not read under ``jurisdiction`` (a key); ``""`` if it is.

    ``refused``: the words of an error (leave it out, or choose the other law), else those of a note.
    """
    from treecalc import jurisdictions

    law_key, section, what = one_law_inputs()[name]
    if law_key == jurisdiction:
        return ""
    reader, own = jurisdictions.by_key(law_key), jurisdictions.by_key(jurisdiction)
    if refused:
        other = f"give --jurisdiction {reader.user_spelling}" if shown.startswith("--") else f"use {law_key!r}"
        outcome = f"it would not be used; leave it out, or {other}"
    else:
        outcome = "it is not used"
    return (
        f"{shown or name} is a {reader.chapters['excavation']} input ({section}: {what}): "
        f"{own.chapters['excavation']} does not read it, so {outcome}"
    )


#: Bounds of every input (a number outside is refused with a message naming it).
#: (the one table of plausible ranges: :data:`treecalc.units.RANGES`)
MAX_AREA_SQFT = int(RANGES["earthwork_area_sqft"].high)  # 3.6 sq mi: larger than any lot this chapter governs
MAX_DEPTH_FT = int(RANGES["depth_ft"].high)
MAX_DEPTH_IN = int(RANGES["depth_in"].high)
MAX_WALL_FT = int(RANGES["wall_height_ft"].high)
#: The largest volume an input may give: the largest area at the deepest depth, in cubic yards
MAX_VOLUME_CY = MAX_AREA_SQFT * MAX_DEPTH_FT // 27


def _v(key: str) -> Decimal:
    return LAW[key].value


def _clock(hour: Decimal) -> str:
    """An hour of the day (0-23, the law's data) as the ordinance writes it: 20 -> '8:00 p.m.'."""
    h = int(hour)
    return f"{(h - 1) % 12 + 1}:00 {'a.m.' if h < 12 else 'p.m.'}"


#: The depths the plan areas are measured deeper than: §120-3A(2) and (1) for a cut, (6) and (5) for a fill.
CUT_DEPTHS_FT = (float(_v("cut_depth")), float(_v("deep_cut_depth")))
FILL_DEPTHS_FT = (float(_v("fill_depth")), float(_v("deep_fill_depth")))


@dataclass(frozen=True)
class PermitTerm:
    """The dates of an issued permit, for its term and idle time (:func:`permit_term_check`, §120-10A).

    Each a date or ISO text; ``as_of`` None is today, ``last_work`` None is not given.
    """

    issued: _dt.date | str
    last_work: _dt.date | str | None = None
    as_of: _dt.date | str | None = None


@dataclass(frozen=True)
class PermitCheck:
    """Whether an excavation / filling operation needs a permit, and why.

    ``permit_required`` is True, False, or ``"unknown"`` when a rule depends on a fact that was
    not given (``missing_facts`` names it); it is never False when the answer cannot be told.
    Areas in square feet, volumes in cubic yards (exact Decimals; rounded in ``to_dict``).
    ``explanations`` lists every rule evaluated (``holds`` True, False or None = unknown).
    """

    jurisdiction: str
    permit_required: bool | str
    triggers: list[str]
    explanations: list[dict[str, Any]]
    excavation_cy: Decimal
    fill_cy: Decimal
    topsoil_cy: Decimal
    excavation_area_sqft: Decimal
    fill_area_sqft: Decimal
    review_standards: list[dict[str, Any]] = field(default_factory=list)
    exemptions: list[dict[str, Any]] = field(default_factory=list)
    waiver_eligible: bool | str | None = None
    interpretation: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    missing_facts: list[str] = field(default_factory=list)
    term: dict[str, Any] | None = None
    building_permit: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "jurisdiction": self.jurisdiction,
            "permit_required": self.permit_required,
            "missing_facts": list(self.missing_facts),
            "triggers": list(self.triggers),
            "explanations": [dict(e) for e in self.explanations],
            "excavation_cy": round2(self.excavation_cy),
            "fill_cy": round2(self.fill_cy),
            "topsoil_cy": round2(self.topsoil_cy),
            "excavation_area_sqft": float(self.excavation_area_sqft),
            "fill_area_sqft": float(self.fill_area_sqft),
            "exemptions": [dict(e) for e in self.exemptions],
            "waiver_eligible": (
                "not applicable"
                if self.waiver_eligible is None and self.jurisdiction == "wesley_hills"
                else self.waiver_eligible
            ),
            "building_permit": self.building_permit,
            "term": self.term,
            "review_standards": [dict(e) for e in self.review_standards],
            "interpretation": list(self.interpretation),
            "notes": list(self.notes),
        }


def _croton_interpretation() -> list[str]:
    L = LAW
    return [
        f"{L['deep_cut_area'].section}, {L['cut_area'].section}, {L['lowering_area'].section}, "
        f"{L['any_fill_area'].section}: each excavation or fill is an area (sq ft) at a uniform depth (ft); areas "
        "listed separately do not overlap, and the area thresholds apply to the total area of the operation deeper "
        "than the depth threshold (splitting an operation does not avoid a permit). Measured surfaces give these "
        "areas exactly from the triangulated difference.",
        f"'in excess of {_fmt(_v('deep_cut_depth'))}/{_fmt(_v('cut_depth'))} feet' is strictly deeper; 'over an "
        f"area of {_fmt(_v('deep_cut_area'))}/{_fmt(_v('cut_area'))} square feet or more' is at least that area.",
        f"{L['lowering_area'].section}: met when the lowered or stripped area is at least "
        f"{_fmt(_v('lowering_area'))} sq ft or more than {_fmt(_v('lowering_lot_percent'))}% of the lot ('whichever "
        "is less': the two conditions together are exactly the lower threshold). Without a "
        "lot area and below the fixed threshold, the answer depends on the lot area and is reported as unknown, "
        "naming the lot size below which a permit is required.",
        f"{L['excavation_volume'].section}: 'in excess of {_fmt(_v('excavation_volume'))} cubic yards' is strictly "
        f"more than {_fmt(_v('excavation_volume') * 27)} cu ft. Stripping topsoil is excavation (§120-2 EXCAVATION: "
        "'the stripping of topsoil'), so its volume (area x depth) counts; without its depth the volume is unknown.",
        f"{L['any_fill_area'].section}: filling over {_fmt(_v('any_fill_area'))} sq ft or more at any depth > 0.",
        f"{L['topsoil_proviso_depth'].section}: placing topsoil not over {_fmt(_v('topsoil_proviso_depth'))} in deep "
        f"over not more than {_fmt(_v('topsoil_proviso_area'))} sq ft, immediately seeded and mulched, is left out "
        "of (5)-(7); otherwise it counts as fill (depth in / 12 ft). fill_cy includes placed topsoil.",
        "§120-3B: excavation for a foundation under a building permit (given as a foundation) is covered by the "
        "building permit ('a building permit shall constitute the excavation and filling permit ... strictly "
        "essential for ... the foundation, walls and basement') and is left out of §120-3A; other work is tested "
        "on its own. The building permit stays subject to §120-8. §120-3C (Planning Board approvals) is not "
        "evaluated.",
    ]


CROTON_INTERPRETATION = _croton_interpretation()


def _norm_jurisdiction(j: str) -> str:
    """The one key spelling (``croton_on_hudson``, ``wesley_hills``) of any accepted name."""
    from treecalc.rules.law_data import jurisdiction_key

    return jurisdiction_key(j)


@dataclass
class _Ops:
    """The operation, validated: areas sq ft, depths ft, topsoil depths in."""

    exc: list[tuple[Decimal, Decimal]]
    fil: list[tuple[Decimal, Decimal]]
    strip: Decimal
    strip_depth_in: Decimal | None
    lot: Decimal | None
    top: tuple[Decimal, Decimal, bool] | None
    foundations: list[tuple[Decimal, Decimal]]
    measured: Earthwork | None

    @property
    def any(self) -> bool:
        m = self.measured
        return bool(
            any(a > 0 and d > 0 for a, d in self.exc + self.fil)
            or self.strip > 0
            or (self.top and self.top[0] > 0 and self.top[1] > 0)
            or (m is not None and (m.cut_cuft > 0 or m.fill_cuft > 0))
        )

    def strip_cuft(self) -> Decimal | None:
        if self.strip == 0:
            return Decimal(0)
        return None if self.strip_depth_in is None else self.strip * self.strip_depth_in / 12

    def exc_cuft(self) -> Decimal:
        """Known excavation volume (topsoil stripping without a depth left out)."""
        m = self.measured.cut_cuft if self.measured else Decimal(0)
        return sum((a * d for a, d in self.exc), Decimal(0)) + (self.strip_cuft() or Decimal(0)) + m

    def topsoil_cuft(self) -> Decimal:
        return self.top[0] * self.top[1] / 12 if self.top else Decimal(0)

    def fill_cuft(self) -> Decimal:
        m = self.measured.fill_cuft if self.measured else Decimal(0)
        return sum((a * d for a, d in self.fil), Decimal(0)) + self.topsoil_cuft() + m


def _bounded_pairs(items: Iterable[Any] | None, name: str) -> list[tuple[Decimal, Decimal]]:
    out = []
    for i, (a, d) in enumerate(_pairs(items, name)):
        out.append(
            (
                bounded(a, f"{name} {i + 1} area_sqft", 0, MAX_AREA_SQFT, unit="sq ft"),
                bounded(d, f"{name} {i + 1} depth_ft", 0, MAX_DEPTH_FT, unit="ft"),
            )
        )
    return out


def _ops(
    excavations: Any,
    fills: Any,
    strip_topsoil_sqft: Any,
    strip_topsoil_depth_in: Any,
    lot_area_sqft: Any,
    topsoil_placement: Any,
    foundations: Any,
    measured: Earthwork | None,
) -> _Ops:
    exc = _bounded_pairs(excavations, "excavation")
    fil = _bounded_pairs(fills, "fill")
    fnd = _bounded_pairs(foundations, "foundation")
    strip = bounded(strip_topsoil_sqft or 0, "strip_topsoil_sqft", 0, MAX_AREA_SQFT, unit="sq ft")
    sdep = (
        None
        if strip_topsoil_depth_in is None
        else bounded(strip_topsoil_depth_in, "strip_topsoil_depth_in", 0, MAX_DEPTH_IN, unit="in")
    )
    lot = None
    if lot_area_sqft is not None:
        lot = bounded(lot_area_sqft, "lot_area_sqft", 0, MAX_AREA_SQFT, lo_open=True, unit="sq ft")
    top = None
    if topsoil_placement is not None:
        try:
            ta, td, ts = topsoil_placement
        except (TypeError, ValueError):
            raise ValueError(
                f"topsoil_placement: expected (area_sqft, depth_in, seeded_and_mulched), got {topsoil_placement!r}"
            ) from None
        top = (
            bounded(ta, "topsoil_placement area_sqft", 0, MAX_AREA_SQFT, unit="sq ft"),
            bounded(td, "topsoil_placement depth_in", 0, MAX_DEPTH_IN, unit="in"),
            bool(ts),
        )
    ops = _Ops(exc, fil, strip, sdep, lot, top, fnd, measured)
    _check_fits_lot(ops)
    return ops


def _check_fits_lot(o: _Ops) -> None:
    """Refuse work larger than the lot (areas listed separately are read as not overlapping)."""
    if o.lot is None:
        return
    sums = {
        "the excavation, foundation and topsoil-stripping areas": sum((a for a, _ in o.exc + o.foundations), Decimal(0))
        + o.strip,
        "the fill areas": sum((a for a, _ in o.fil), Decimal(0)) + (o.top[0] if o.top else 0),
    }
    for what, total in sums.items():
        if total > o.lot:
            raise ValueError(
                f"{what} add up to {_sqft(total)} sq ft, more than the lot area ({_sqft(o.lot)} sq ft): "
                "check the areas and the lot area"
            )


def _unknown(missing: list[str], fact: str) -> None:
    if fact not in missing:
        missing.append(fact)


def _area_rule(
    section: str,
    known: Decimal,
    measured: Decimal | None,
    has_measured: bool,
    threshold: Decimal,
    what: str,
    missing: list[str],
) -> dict[str, Any]:
    """An 'over an area of N square feet or more' rule on known areas plus a measured one."""
    total = known + (measured or 0)
    text = f"{what} over {_sqft(total)} sq ft (permit if >= {_fmt(threshold)} sq ft)"
    if total >= threshold:
        return {"section": section, "holds": True, "explanation": text}
    if has_measured and measured is None:
        _unknown(
            missing,
            "plan areas by depth of the measured cut/fill (cross-sections do not give them; use "
            "--existing/--proposed surfaces or --grid)",
        )
        return {
            "section": section,
            "holds": None,
            "explanation": text + "; the measured volumes give no areas by depth, so this cannot be told",
        }
    return {"section": section, "holds": False, "explanation": text}


def _rule_lowering(o: _Ops, missing: list[str]) -> dict[str, Any]:
    sec, fixed, pct = LAW["lowering_area"].section, _v("lowering_area"), _v("lowering_lot_percent")
    m = o.measured
    lowered = sum((a for a, d in o.exc if d > 0), Decimal(0)) + o.strip + (m.cut.total_sqft if m and m.cut else 0)
    head = f"grade lowered or topsoil stripped over {_sqft(lowered)} sq ft"
    if lowered >= fixed:
        return {"section": sec, "holds": True, "explanation": f"{head} (permit if >= {_fmt(fixed)} sq ft)"}
    if m is not None and m.cut is None and m.cut_cuft > 0:
        _unknown(missing, "the plan area of the measured cut (cross-sections do not give it)")
        return {"section": sec, "holds": None, "explanation": head + " plus the unmeasured area of the cut"}
    if o.lot is not None:
        half = o.lot * pct / 100
        less = (
            f"{_fmt(fixed)} sq ft or more"
            if fixed <= half
            else f"more than {_fmt(pct)}% of the lot ({_sqft(half)} sq ft)"
        )
        return {
            "section": sec,
            "holds": bool(lowered > half),
            "explanation": f"{head}; the lesser threshold for a {_sqft(o.lot)} sq ft lot is {less}",
        }
    if lowered == 0:
        return {"section": sec, "holds": False, "explanation": head}
    below = (lowered * 100 / pct).quantize(_CENT)
    _unknown(missing, f"the lot area (--lot-area): {sec} requires a permit on lots under {_fmt(below)} sq ft")
    return {
        "section": sec,
        "holds": None,
        "explanation": f"{head}: under {_fmt(fixed)} sq ft, so it depends on the lot area — required if the lot "
        f"is under {_fmt(below)} sq ft (more than {_fmt(pct)}% of the property); no lot area given",
    }


def _rule_volume(o: _Ops, missing: list[str]) -> dict[str, Any]:
    sec, limit = LAW["excavation_volume"].section, _v("excavation_volume") * _D27
    known = o.exc_cuft()
    text = (
        f"excavation volume {_fmt(known)} cu ft = {round2(_cy(known)):,.2f} cu yd (permit if more than "
        f"{_fmt(_v('excavation_volume'))} cu yd = {_fmt(limit)} cu ft)"
    )
    if o.strip > 0:
        sv = o.strip_cuft()
        text += (
            f"; includes topsoil stripping {_sqft(o.strip)} sq ft x {_fmt(o.strip_depth_in)} in = {_fmt(sv)} cu ft "
            "(§120-2: stripping topsoil is excavation)"
            if sv is not None and o.strip_depth_in is not None
            else f"; plus topsoil stripping over {_sqft(o.strip)} sq ft of unknown depth"
        )
    if known > limit:
        return {"section": sec, "holds": True, "explanation": text}
    if o.strip_cuft() is None:
        _unknown(
            missing,
            f"the depth of the topsoil stripped (--strip-topsoil AREA:DEPTH_IN): {sec} counts its "
            f"volume; more than {_fmt(((limit - known) * 12 / o.strip).quantize(_CENT))} in deep "
            f"over {_sqft(o.strip)} "
            "sq ft would need a permit",
        )
        return {"section": sec, "holds": None, "explanation": text}
    return {"section": sec, "holds": False, "explanation": text}


def _topsoil_items(o: _Ops, exemptions: list[dict[str, Any]]) -> list[tuple[Decimal, Decimal]]:
    """The topsoil placement as a fill item (ft), unless the proviso of §120-3A leaves it out."""
    top = o.top
    if top is None or top[0] <= 0 or top[1] <= 0:
        return []
    sec, dmax, amax = LAW["topsoil_proviso_depth"].section, _v("topsoil_proviso_depth"), _v("topsoil_proviso_area")
    why = (
        f"topsoil {_fmt(top[1])} in deep over {_sqft(top[0])} sq ft, "
        f"{'seeded and mulched' if top[2] else 'NOT seeded and mulched'}"
    )
    if top[1] <= dmax and top[0] <= amax and top[2]:
        exemptions.append(
            {
                "section": sec,
                "applies": True,
                "explanation": why + f": not over {_fmt(dmax)} in, not over {_fmt(amax)} sq ft, seeded and "
                "mulched; left out of §120-3A(5)-(7)",
            }
        )
        return []
    fails = [
        s
        for s, bad in (
            (f"deeper than {_fmt(dmax)} in", top[1] > dmax),
            (f"larger than {_fmt(amax)} sq ft", top[0] > amax),
            ("not immediately seeded and mulched", not top[2]),
        )
        if bad
    ]
    exemptions.append(
        {
            "section": sec,
            "applies": False,
            "explanation": why + ": proviso does not apply (" + ", ".join(fails) + "); counted as fill",
        }
    )
    return [(top[0], top[1] / 12)]


#: The §120 area rules on cuts and fills: (area limit, depth limit or None for any depth, measured PlanAreas field).
_CUT_AREA_RULES: tuple[tuple[str, str | None, str], ...] = (
    ("deep_cut_area", "deep_cut_depth", "over_4ft_sqft"),
    ("cut_area", "cut_depth", "over_2ft_sqft"),
)
_FILL_AREA_RULES: tuple[tuple[str, str | None, str], ...] = (
    ("deep_fill_area", "deep_fill_depth", "over_4ft_sqft"),
    ("fill_area", "fill_depth", "over_2ft_sqft"),
    ("any_fill_area", None, "total_sqft"),
)


def _croton_rules(o: _Ops, exemptions: list[dict[str, Any]], missing: list[str]) -> list[dict[str, Any]]:
    m, has_m = o.measured, o.measured is not None

    def over(items: list[tuple[Decimal, Decimal]], depth: Decimal) -> Decimal:
        return sum((a for a, d in items if d > depth), Decimal(0))

    def depth_rule(
        items: list[tuple[Decimal, Decimal]],
        has: bool,
        areas: PlanAreas | None,
        rule: tuple[str, str | None, str],
        what: str,
    ) -> dict[str, Any]:
        area_key, depth_key, measured = rule
        depth = _v(depth_key) if depth_key else Decimal(0)
        text = f"{what} deeper than {_fmt(depth)} ft" if depth_key else f"{what} at any depth"
        known = getattr(areas, measured) if areas else None
        return _area_rule(LAW[area_key].section, over(items, depth), known, has, _v(area_key), text, missing)

    cut, fill = (m.cut, m.fill) if m else (None, None)
    rules = [depth_rule(o.exc, has_m, cut, rule, "excavation") for rule in _CUT_AREA_RULES]
    rules += [_rule_lowering(o, missing), _rule_volume(o, missing)]
    fills = o.fil + _topsoil_items(o, exemptions)
    has_fill_m = has_m and bool(m and m.fill_cuft > 0)
    rules += [depth_rule(fills, has_fill_m, fill, rule, "fill") for rule in _FILL_AREA_RULES]
    return rules


def _foundation_exemption(o: _Ops) -> list[dict[str, Any]]:
    if not o.foundations:
        return []
    cuft = sum((a * d for a, d in o.foundations), Decimal(0))
    return [
        {
            "section": "§120-3B",
            "applies": True,
            "explanation": f"foundation excavation {_sqft(sum((a for a, _ in o.foundations), Decimal(0)))} sq ft, "
            f"{_fmt(cuft)} cu ft = {round2(_cy(cuft)):,.2f} cu yd, under a building permit: the building "
            "permit constitutes the excavation and filling permit for it (subject to §120-8); left "
            "out of §120-3A",
        }
    ]


def _verdict(rules: list[dict[str, Any]]) -> tuple[bool | str, list[str]]:
    triggers = [e["section"] for e in rules if e["holds"] is True]
    if triggers:
        return True, triggers
    return ("unknown" if any(e["holds"] is None for e in rules) else False), []


def _croton_areas_and_standards(
    o: _Ops, retaining_wall_height_ft: Any
) -> tuple[Decimal, Decimal, list[dict[str, Any]]]:
    """Excavated and filled areas (sq ft) and the §120-8 review standards they bring."""
    m = o.measured
    # §120-3B: the building permit stays subject to §120-8, so foundation depths count for the fence of §120-8A
    measured_depth = [m.max_cut_ft] if m and m.max_cut_ft is not None else []
    max_depth = max([d for a, d in o.exc + o.foundations if a > 0] + measured_depth, default=Decimal(0))
    exc_area = sum((a for a, d in o.exc if d > 0), Decimal(0)) + (m.cut.total_sqft if m and m.cut else 0)
    fill_area = (
        sum((a for a, d in o.fil if d > 0), Decimal(0))
        + (o.top[0] if o.top and o.top[1] > 0 else 0)
        + (m.fill.total_sqft if m and m.fill else 0)
    )
    standards = _applicable_standards(
        max_depth, bool(exc_area > 0 or o.strip > 0 or o.foundations), bool(fill_area > 0), bool(o.strip > 0)
    )
    standards += _retaining_wall(retaining_wall_height_ft)
    return exc_area, fill_area, standards


def _croton_notes(o: _Ops) -> list[str]:
    """The notes of a Croton-on-Hudson check: the §120-5E tree survey, the penalty, the readings."""
    notes = [
        f"§120-5E: the site plan must locate every live tree {_fmt(_v('tree_survey_diameter'))} in or more in "
        f"diameter measured 3 ft above existing ground (not DBH at 4.5 ft) within the grading area and a "
        f"{_fmt(_v('tree_survey_strip'))}-ft strip around it.",
        _penalty_note(),
        *DAMAGED_TEXT_READINGS,
    ]
    m = o.measured
    if m is not None:
        notes.insert(
            0,
            f"measured between surfaces ({m.method}): cut {round2(_cy(m.cut_cuft)):,.2f} cu yd, fill "
            f"{round2(_cy(m.fill_cuft)):,.2f} cu yd",
        )
    if o.foundations and not o.any:
        notes.insert(
            0,
            "only foundation excavation under a building permit was given: the building permit is the "
            "excavation and filling permit (§120-3B)",
        )
    return notes


def check_permit(
    excavations: Iterable[tuple[Any, Any]] | None = None,
    fills: Iterable[tuple[Any, Any]] | None = None,
    strip_topsoil_sqft: Any = 0,
    lot_area_sqft: Any = None,
    topsoil_placement: tuple[Any, Any, bool] | None = None,
    jurisdiction: str = "croton_on_hudson",
    *,
    strip_topsoil_depth_in: Any = None,
    foundations: Iterable[tuple[Any, Any]] | None = None,
    retaining_wall_height_ft: Any = None,
    measured: Earthwork | None = None,
    cellar: tuple[Any, Any, Any] | None = None,
    term: PermitTerm | None = None,
) -> PermitCheck:
    """Say whether an excavation and filling permit is required, which items hold, and what is unknown.

    Parameters
    ----------
    excavations, fills : iterable of (area_sqft, depth_ft)
        Each excavation (cut) or fill area (square feet) and its depth (feet).
    strip_topsoil_sqft, strip_topsoil_depth_in : number
        Area where topsoil is stripped (sq ft) and its depth (inches; None = not given).
    lot_area_sqft : number, optional
        Area of the property (sq ft), for the half-the-lot test of §120-3A(3).
    topsoil_placement : (area_sqft, depth_in, seeded_and_mulched), optional
        Topsoil to be placed.
    jurisdiction : {'croton_on_hudson', 'wesley_hills'} (``croton-on-hudson`` etc. accepted)
    foundations : iterable of (area_sqft, depth_ft), optional
        Excavation for a foundation under a building permit (§120-3B).
    retaining_wall_height_ft : number, optional
        Height of a retaining wall to be built (§120-8M: over 4 ft needs a building permit).
    measured : Earthwork, optional
        Cut and fill measured between two surfaces (:meth:`TinVolumes.earthwork`, ...).
    cellar : (length_ft, width_ft, depth_ft), optional
        Wesley Hills: cellar and foundation of the building permit (§95-3C(1)).
    term : PermitTerm, optional
        The permit's dates, for its term and idle time (§120-10A).

    Returns
    -------
    PermitCheck
        ``permit_required`` True, False or "unknown" (with ``missing_facts``), the rules with their
        sections, the volumes, exemptions, review standards and readings.

    Raises
    ------
    ValueError
        A number out of its range (named), work larger than the lot, an unknown jurisdiction.

    References
    ----------
    .. [1] Croton-on-Hudson Code §120-2, §120-3A, §120-3B, §120-8, §120-10A; Wesley Hills Code
       §95-3A(1), §95-3C(1), §95-3D(1).
    """
    jur = _norm_jurisdiction(jurisdiction)
    o = _ops(
        excavations,
        fills,
        strip_topsoil_sqft,
        strip_topsoil_depth_in,
        lot_area_sqft,
        topsoil_placement,
        foundations,
        measured,
    )
    given = {"term": term, "cellar": cellar}
    for name in ("term", "cellar"):  # never silently dropped (the app passes neither to the other law)
        why = one_law_input(name, jur) if given[name] is not None else ""
        if why:
            raise ValueError(why)
    if jur == "wesley_hills":
        r = _wesley_hills_check(o, cellar)
        noted = {"retaining_wall_height_ft": retaining_wall_height_ft, "lot_area_sqft": lot_area_sqft}
        r.notes.extend(one_law_input(k, jur, refused=False) for k, v in noted.items() if v is not None)
        return r
    missing: list[str] = []
    exemptions = _foundation_exemption(o)
    rules = _croton_rules(o, exemptions, missing)
    required, triggers = _verdict(rules)
    if required is True:  # a rule that holds decides: the facts the others lack change nothing
        missing = []
    exc_area, fill_area, standards = _croton_areas_and_standards(o, retaining_wall_height_ft)
    notes = _croton_notes(o)
    return PermitCheck(
        jurisdiction=jur,
        permit_required=required,
        triggers=triggers,
        explanations=rules,
        excavation_cy=_cy(o.exc_cuft()),
        fill_cy=_cy(o.fill_cuft()),
        topsoil_cy=_cy(o.topsoil_cuft()),
        excavation_area_sqft=exc_area,
        fill_area_sqft=fill_area,
        review_standards=standards,
        exemptions=exemptions,
        interpretation=list(CROTON_INTERPRETATION),
        notes=notes,
        missing_facts=missing,
        term=permit_term_check(term.issued, term.as_of, term.last_work) if term else None,
    )


def _penalty_note() -> str:
    return (
        f"§120-12: without a required permit, a fine of ${_fmt(_v('fine_first_min'))}-"
        f"${_fmt(_v('fine_first_max'))} "
        f"(first offence) or ${_fmt(_v('fine_later_min'))}-${_fmt(_v('fine_later_max'))} and/or up to "
        f"{_fmt(_v('imprisonment_max'))} days (later offences), and a civil penalty up to "
        f"${_fmt(_v('civil_penalty_max'))} per violation; each day is a separate offence."
    )


def _retaining_wall(height: Any) -> list[dict[str, Any]]:
    if height is None:
        return []
    h = bounded(height, "retaining_wall_height_ft", 0, MAX_WALL_FT, unit="ft")
    lim = _v("retaining_wall_height")
    need = h > lim
    return [
        {
            "section": LAW["retaining_wall_height"].section,
            "building_permit_required": bool(need),
            "requirement": f"retaining wall {_fmt(h)} ft high: a building permit is "
            f"{'required' if need else 'not required by §120-8M'} (required if more than "
            f"{_fmt(lim)} ft); sheet piling and bracing as necessary until permanent supports",
        }
    ]


def permit_term_check(issued: Any, as_of: Any = None, last_work: Any = None) -> dict[str, Any]:
    """The permit's term and idle time (§120-10A): one year at most; termination after 60 idle days.

    Parameters
    ----------
    issued : date
        The day the permit was issued.
    as_of : date, optional
        The day of the check (default today).
    last_work : date, optional
        The last day work was done; more than 60 days before ``as_of`` makes the permit subject to
        termination unless the interruption was due to weather or seasonal conditions.
    """
    iss = to_date(issued, "permit_issued")
    asof = _dt.date.today() if as_of is None else to_date(as_of, "as_of")
    if asof < iss:
        raise ValueError(f"as_of ({asof}) is before the permit was issued ({iss})")
    years, idle = int(_v("permit_term")), int(_v("idle_days"))
    expires = add_months(iss, 12 * years)
    out: dict[str, Any] = {
        "section": LAW["permit_term"].section,
        "issued": iss.isoformat(),
        "expires": expires.isoformat(),
        "expired": asof >= expires,
        "idle_days": None,
        "subject_to_termination": None,
    }
    text = [
        f"the permit runs for no longer than {years} year: from {iss} to {expires} (or a shorter period set by "
        f"the approving authority); {'expired' if asof >= expires else 'in force'} on {asof}"
    ]
    if last_work is not None:
        lw = to_date(last_work, "last_work")
        if lw > asof or lw < iss:
            raise ValueError(f"last_work ({lw}) must be between the permit's issue ({iss}) and as_of ({asof})")
        days = (asof - lw).days
        out.update(idle_days=days, subject_to_termination=days > idle)
        text.append(
            f"work interrupted for {days} days: "
            + (
                f"more than {idle} days, so the permit is subject to termination unless the interruption was due to "
                "the weather or other seasonal conditions"
                if days > idle
                else f"not more than {idle} days"
            )
        )
    out["explanation"] = "; ".join(text)
    return out


def _applicable_standards(
    max_exc_depth_ft: Decimal, excavation: bool, fill: bool, stripping: bool
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if max_exc_depth_ft > _v("fence_depth"):
        # §120-8A: excavation below surrounding grade deeper than four feet -> fence with gates.
        out.append(
            {
                "section": "§120-8A",
                "requirement": f"excavation deeper than {_fmt(_v('fence_depth'))} ft below surrounding "
                "grade: substantial fence of proper height and strength with gates, locked when "
                "the property is not being worked (permanent fence if the authority requires)",
            }
        )
    if excavation:
        # §120-8C: standing water at most one foot during construction, none after.
        out.append(
            {
                "section": "§120-8C",
                "requirement": "excavations drained: standing water at most "
                f"{_fmt(_v('standing_water_during'))} ft deep during construction, none after construction",
            }
        )
    if fill:
        out.append({"section": "§120-8D", "requirement": "clean fill, smooth transition to adjoining grade, reseeded"})
    if stripping:
        # §120-8E: at least two inches of topsoil left where topsoil is removed.
        out.append(
            {
                "section": "§120-8E",
                "requirement": f"at least {_fmt(_v('topsoil_left'))} in of topsoil left on the surface "
                "from which topsoil is removed; reseeded and mulched",
            }
        )
    if excavation or fill or stripping:
        # §120-8G: hours.
        out.append(
            {
                "section": "§120-8G",
                "requirement": f"no work {_clock(_v('work_end_hour'))}-{_clock(_v('work_start_hour'))} any day, "
                f"nor {_clock(_v('work_end_hour'))} Saturday-{_clock(_v('sunday_start_hour'))} Sunday "
                "(text reads '8:0 a.m.', '10:0 a.m.')",
            }
        )
        out.append(
            {
                "section": "§120-8H",
                "requirement": "slopes no steeper than the permanent stable "
                "slope of the material; exposed slopes seeded or protected",
            }
        )
    return out


# =========================================================================== §120-8
def review_standards(
    max_excavation_depth_ft: Any = 0,
    standing_water_ft: Any = None,
    after_construction: bool = False,
    topsoil_left_in: Any = None,
    fence_provided: bool | None = None,
) -> list[dict[str, Any]]:
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
    depth = nonneg(max_excavation_depth_ft, "max_excavation_depth_ft")
    out: list[dict[str, Any]] = []
    # §120-8A: "to a depth greater than four feet" -> fence (strictly greater).
    fence_needed = depth > _v("fence_depth")
    out.append(
        {
            "section": "§120-8A",
            "requirement": f"fence with locked gates if deeper than {_fmt(_v('fence_depth'))} ft",
            "fence_required": fence_needed,
            "complies": (True if not fence_needed else fence_provided),
            "explanation": f"excavation {_fmt(depth)} ft deep: fence "
            f"{'required' if fence_needed else 'not required'} (required if > {_fmt(_v('fence_depth'))} ft)",
        }
    )
    if standing_water_ft is not None:
        w = nonneg(standing_water_ft, "standing_water_ft")
        # §120-8C: "not greater in depth than one foot" during; "no standing water" after.
        limit = Decimal(0) if after_construction else _v("standing_water_during")
        out.append(
            {
                "section": "§120-8C",
                "requirement": f"standing water <= {_fmt(_v('standing_water_during'))} ft during construction, "
                "none after",
                "complies": w <= limit,
                "explanation": f"{_fmt(w)} ft of standing water "
                f"{'after' if after_construction else 'during'} construction "
                f"(limit {_fmt(limit)} ft)",
            }
        )
    if topsoil_left_in is not None:
        t = nonneg(topsoil_left_in, "topsoil_left_in")
        # §120-8E: "at least two inches of topsoil shall be left".
        out.append(
            {
                "section": "§120-8E",
                "requirement": f"at least {_fmt(_v('topsoil_left'))} in of topsoil left",
                "complies": t >= _v("topsoil_left"),
                "explanation": f"{_fmt(t)} in of topsoil left (minimum {_fmt(_v('topsoil_left'))} in)",
            }
        )
    return out


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
    dt = to_datetime(when)
    t = dt.time()
    interp = (
        "§120-8G read as: work allowed from 8:00 a.m. (Sunday 10:00 a.m.) up to but not "
        "including 8:00 p.m., local time; the text's '8:0 a.m.' and '10:0 a.m.' read as "
        "8:00 a.m. and 10:00 a.m."
    )
    day = dt.strftime("%A")
    start, end, sunday = (_dt.time(int(_v(k))) for k in ("work_start_hour", "work_end_hour", "sunday_start_hour"))
    if t >= end or t < start:
        return {
            "allowed": False,
            "section": "§120-8G",
            "interpretation": interp,
            "reason": f"{day} {t:%H:%M} is between 8:00 p.m. and 8:00 a.m.",
        }
    if dt.weekday() == 6 and t < sunday:
        return {
            "allowed": False,
            "section": "§120-8G",
            "interpretation": interp,
            "reason": f"Sunday {t:%H:%M} is between 8:00 p.m. Saturday and 10:00 a.m. Sunday",
        }
    return {
        "allowed": True,
        "section": "§120-8G",
        "interpretation": interp,
        "reason": f"{day} {t:%H:%M} is within the allowed hours",
    }


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
    d = nonneg(diameter_in, "diameter_in")
    dist = nonneg(distance_outside_grading_area_ft, "distance_outside_grading_area_ft")
    req = d >= _v("tree_survey_diameter") and dist <= _v("tree_survey_strip")
    return {
        "required": bool(req),
        "section": "§120-5E",
        "explanation": f"{_fmt(d)} in at 3 ft above ground, {_fmt(dist)} ft outside the grading area: "
        f"survey required for live trees >= {_fmt(_v('tree_survey_diameter'))} in within the grading area or the "
        f"{_fmt(_v('tree_survey_strip'))}-ft "
        "strip around it (diameter at 3 ft, not DBH at 4.5 ft)",
    }


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
    days = int(in_range("days", days, "days"))  # the range of --days (units.RANGES), for every caller alike
    # §120-12A: first offence $500-$1,000; second and subsequent $1,000-"$2,0" (read $2,000)
    # or up to 15 days' imprisonment, or both.
    lo, hi = (
        (_v("fine_first_min"), _v("fine_first_max"))
        if offense_number == 1
        else (_v("fine_later_min"), _v("fine_later_max"))
    )
    # §120-12B: civil penalty not to exceed "$3,0" (read $3,000) per violation; each day separate.
    civil = _v("civil_penalty_max")
    return {
        "section_criminal": "§120-12A",
        "section_civil": "§120-12B",
        "criminal_fine_min_per_day": lo,
        "criminal_fine_max_per_day": hi,
        "imprisonment_max_days": int(_v("imprisonment_max")) if offense_number > 1 else 0,
        "civil_penalty_max_per_day": civil,
        "criminal_fine_min_total": lo * days,
        "criminal_fine_max_total": hi * days,
        "civil_penalty_max_total": civil * days,
        "notes": [
            "§120-12A: the extracted text reads '$2,0'; read as $2,000.",
            "§120-12B: the extracted text reads '$3,0'; read as $3,000.",
            "Each day's continuance is a separate offence (§120-12A) / violation (§120-12B).",
        ],
    }


# =========================================================================== Wesley Hills
WESLEY_NOTES = [
    "Wesley Hills section numbers (§95-3A, §95-3C(1), §95-3D(1), §95-4E) are reconstructed: the "
    "extracted text of Chapter 95 lost its section headings.",
]


def _wesley_hills_readings(cellar_given: bool) -> tuple[list[str], list[str]]:
    """The notes and the readings of a Wesley Hills excavation check."""
    sec_bp, sec_lawn = WH_LAW["cellar_multiple"].section, "§95-3D(4)"
    notes = [
        f"{sec_bp}: a building permit stands as the permit while added fill and excavated material removed each "
        f"stay within {_fmt(WH_LAW['cellar_multiple'].value)} times the cellar-and-foundation volume"
        + ("" if cellar_given else " (give the cellar to check it)")
        + ".",
        f"{sec_lawn}: the normal addition of topsoil to lawns and gardens is not limited by the chapter.",
        "§95-3A(1)(c)-(e): tree removal triggers (diameter at 54 in) are evaluated by the tree law.",
        f"{WH_LAW['slope_rise'].section}: rehabilitation: slopes no steeper than 1V:2H (rock 6V:1H); "
        f"{WH_LAW['topsoil_depth'].section}: at least {_fmt(WH_LAW['topsoil_depth'].value)} in of topsoil over "
        "exposed ground.",
        *WESLEY_NOTES,
    ]
    interp = [
        WAIVER_READING,
        f"{sec_bp}: with a cellar given, the excavation volume is taken as removed from the property and the "
        "fill as added to it (the most it can be); exactly twice the volume is within the rule. A foundation "
        "given without the cellar makes the answer unknown, naming the cellar.",
        f"{sec_lawn}: a topsoil placement that is the only operation given may be the normal addition of topsoil "
        "to a lawn or garden, which the chapter does not limit: the answer is unknown, naming that fact.",
    ]
    return notes, interp


def _wesley_hills_check(o: _Ops, cellar: tuple[Any, Any, Any] | None) -> PermitCheck:
    fnd = sum((a * d for a, d in o.foundations), Decimal(0))
    exc_cuft, fill_cuft = o.exc_cuft() + fnd, o.fill_cuft()
    any_op = o.any or fnd > 0
    sec_op, sec_bp, sec_w = "§95-3A(1)(a)", WH_LAW["cellar_multiple"].section, WH_LAW["waiver_volume"].section
    sec_lawn = "§95-3D(4)"  # no number: the section and its words live here
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
    # the topsoil placement is the only operation given: §95-3D(4) may leave it unlimited
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
            _unknown(
                missing, f"the depth of the topsoil stripped (--strip-topsoil AREA:DEPTH_IN), for the {sec_w} waiver"
            )
        explanations.append(
            {"section": sec_w, "holds": waiver if isinstance(waiver, bool) else None, "explanation": w["explanation"]}
        )
    required: bool | str = bool(any_op)
    bp = None
    if cellar is not None and any_op:
        L, W, D = cellar
        # the §95-3D(1) waiver is the one decided above (it also knows the stripping): one answer per check
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
        _unknown(missing, lawn)
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
        _unknown(
            missing,
            f"the cellar and foundation of the building permit (--cellar L:W:D, {sec_bp}): the building permit stands "
            f"as the permit while the fill added and the material removed each stay within "
            f"{_fmt(WH_LAW['cellar_multiple'].value)} times its volume",
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
    )


def wesley_hills_waiver_eligible(material_cy: Any) -> bool:
    """True if the Planning Board may waive the permit: less than 100 cu yd of material (§95-3D(1)).

    ``material_cy`` is the amount moved; for an excavation and a fill, :func:`wesley_hills_waiver` reads it."""
    return nonneg(material_cy, "material_cy") < WH_LAW["waiver_volume"].value


#: The one reading of §95-3D(1) "an excavation or filling operation involving less than 100 cubic yards of
#: material", used by :func:`check_permit` and :func:`wesley_hills_building_permit_check` alike.
WAIVER_READING = (
    f"{WH_LAW['waiver_volume'].section}: 'less than {_fmt(WH_LAW['waiver_volume'].value)} cubic yards of material' "
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
    wlim = WH_LAW["waiver_volume"].value
    alt = (
        f"; if the fill were imported rather than the excavated soil, {round2(e + f):,.2f} cu yd would be moved"
        if e > 0 and f > 0
        else ""
    )
    return {
        "eligible": ok,
        "moved_cy": moved,
        "both_cy": e + f,
        "section": WH_LAW["waiver_volume"].section,
        "explanation": f"material moved {round2(moved):,.2f} cu yd (the larger of excavation {round2(e):,.2f} and fill "
        f"{round2(f):,.2f} cu yd): the Planning Board {'may' if ok else 'may not'} waive the permit for an operation "
        f"involving less than {_fmt(wlim)} cu yd{alt}",
    }


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
    waiver_eligible: bool | str
    explanations: list[dict[str, Any]]
    notes: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "cellar_volume_cy": round2(self.cellar_volume_cy),
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
    limit = WH_LAW["cellar_multiple"].value * vol
    # §95-3C(1): "does not exceed two times" -> <= 2x, each of fill and removed material.
    fill_ok, exc_ok = f <= limit, e <= limit
    suffices = fill_ok and exc_ok
    expl = [
        {
            "section": "§95-3C(1)",
            "holds": fill_ok,
            "explanation": f"added fill {round2(f):,.2f} cu yd vs 2 x cellar and foundation {round2(vol):,.2f} cu yd = "
            f"{round2(limit):,.2f} cu yd ({'within' if fill_ok else 'exceeds'})",
        },
        {
            "section": "§95-3C(1)",
            "holds": exc_ok,
            "explanation": f"excavated material removed {round2(e):,.2f} cu yd vs limit {round2(limit):,.2f} cu yd "
            f"({'within' if exc_ok else 'exceeds'})",
        },
    ]
    if waiver is None:  # §95-3D(1): "less than 100 cubic yards", the one reading, decided once
        w = wesley_hills_waiver(e, f)
        waiver = w["eligible"]
        expl.append({"section": w["section"], "holds": waiver, "explanation": w["explanation"]})
    notes = [
        f"cellar and foundation volume {_fmt(L)} x {_fmt(W)} x {_fmt(D)} ft = {_fmt(L * W * D)} cu ft = "
        f"{round2(vol):,.2f} cu yd (outside dimensions, cellar floor to top of foundation)",
        "§95-3C(1) read as: the fill added and the excavated material removed are each compared with "
        "twice the volume ('shall specify ... the maximum volumes of added fill and/or excavated "
        "material'); exactly 2x is within the rule ('does not exceed').",
        WAIVER_READING,
        *WESLEY_NOTES,
    ]
    return WesleyHillsCheck(vol, limit, f, e, suffices, not suffices, waiver, expl, notes)


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
    limit = WH_LAW["rock_slope"].value if rock else WH_LAW["slope_rise"].value / WH_LAW["slope_run"].value
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
    return {
        "ok": bool(ok),
        "section": "§95-4E(1)(a)",
        "max_rise_per_run": float(limit),
        "rise_per_run": None if ratio is None else float(ratio),
        "explanation": f"slope {_fmt(rise)} ft rise over {_fmt(run)} ft run; {what}"
        + ("; supported by a retaining wall or foundation" if retained and not rock else ""),
    }


def wesley_hills_topsoil_cy(exposed_area_sqft: Any, depth_in: Any = 4) -> Decimal:
    """Topsoil needed to cover exposed ground (Wesley Hills §95-4E(1)(c)), cubic yards.

    ``exposed_area_sqft`` (square feet) x ``depth_in`` (inches, at least the minimum 4 in) / 12 / 27.
    Rock, roads, driveways, parking places, garden spaces and surfaces below high-water marks
    are excepted by the rule and should be left out of the area.
    """
    a = bounded(exposed_area_sqft, "exposed_area_sqft", 0, MAX_AREA_SQFT, unit="sq ft")
    d = bounded(depth_in, "depth_in", 0, MAX_DEPTH_IN, unit="in")
    if d < WH_LAW["topsoil_depth"].value:
        raise ValueError(
            f"depth_in must be at least the {_fmt(WH_LAW['topsoil_depth'].value)} in minimum of §95-4E(1)(c), got {depth_in!r}"
        )
    return _cy(a * d / 12)


# =========================================================================== grid volumes
@dataclass(frozen=True)
class GridVolumes(CutFill):
    """Cut and fill by the grid (borrow-pit) method.

    ``cut_cy``, ``fill_cy`` are cubic yards (>= 0); ``net_cy = cut_cy - fill_cy`` (positive:
    surplus to export; negative: material to import). ``cell_cut_cy``/``cell_fill_cy`` are
    per-cell arrays of shape (ny - 1, nx - 1), rows along y ascending, columns along x.
    """

    cell_cut_cy: np.ndarray
    cell_fill_cy: np.ndarray
    dx: float
    dy: float
    nx: int
    ny: int
    mixed_cells: int
    units: str
    notes: list[str]
    node_depth: np.ndarray | None = field(default=None, repr=False)  # proposed - existing, (ny, nx), input units

    def earthwork(self) -> Earthwork:
        """Volumes and plan areas for :func:`check_permit` (``measured=``).

        Areas cut or filled deeper than 2 and 4 ft come from the node depths, each cell split into
        two triangles with the depth linear on each (the volumes stay the borrow-pit ones).
        """
        from treecalc.surfaces import FT_PER_M, SQFT_PER_M2, _area_above, depth_ft

        k_len, k_area = (FT_PER_M, SQFT_PER_M2) if self.units == "metres" else (1.0, 1.0)
        # depths in feet at the survey's precision: exactly 4.00 ft is not "in excess of four feet"
        h = depth_ft(self.node_depth, k_len)
        a, b, c, d = h[:-1, :-1].ravel(), h[:-1, 1:].ravel(), h[1:, :-1].ravel(), h[1:, 1:].ravel()
        tris = np.concatenate([np.column_stack([a, b, d]), np.column_stack([a, d, c])])
        area = np.full(len(tris), self.dx * self.dy / 2)

        def over(g: np.ndarray, t: float) -> Decimal:
            return Decimal(repr(round(float(_area_above(g - t, area).sum() * k_area), 6)))

        def cuft(cy: float) -> Decimal:
            return Decimal(repr(round(cy * CU_FT_PER_CU_YD, 6)))

        return Earthwork(
            cut_cuft=cuft(self.cut_cy),
            fill_cuft=cuft(self.fill_cy),
            cut=PlanAreas.by_depth(lambda t: over(-tris, t)),
            fill=PlanAreas.by_depth(lambda t: over(tris, t), FILL_DEPTHS_FT),
            max_cut_ft=Decimal(repr(max(0.0, float((-h).max())))),
            method="grid (borrow-pit)",
        )

    def cut_fill_map(self, max_cells: int = 80) -> Any:
        """Net cut - fill per cell (cu yd; + cut, - fill), block-summed to at most ``max_cells`` per axis.

        A DataFrame with ``x``, ``y`` (block centres from the first node, input units) and ``net_cy``;
        its sum is ``net_cy`` of the result.
        """
        import pandas as pd

        net = np.asarray(self.cell_cut_cy, float) - np.asarray(self.cell_fill_cy, float)
        ny, nx = net.shape
        by, bx = max(1, -(-ny // max_cells)), max(1, -(-nx // max_cells))
        if by > 1 or bx > 1:
            pad = np.zeros((-(-ny // by) * by, -(-nx // bx) * bx))
            pad[:ny, :nx] = net
            net = pad.reshape(pad.shape[0] // by, by, pad.shape[1] // bx, bx).sum(axis=(1, 3))
        yy, xx = np.mgrid[0 : net.shape[0], 0 : net.shape[1]]
        return pd.DataFrame(
            {
                "x": np.round((xx.ravel() + 0.5) * bx * self.dx, 2),
                "y": np.round((yy.ravel() + 0.5) * by * self.dy, 2),
                "net_cy": net.ravel(),
            }
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._totals("grid (borrow-pit)"),
            "nx": self.nx,
            "ny": self.ny,
            "dx": self.dx,
            "dy": self.dy,
            "cells": (self.nx - 1) * (self.ny - 1),
            "mixed_cells": self.mixed_cells,
            "units_in": self.units,
            "notes": list(self.notes),
        }


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
        raise ValueError(
            "the volumes overflow: elevations, areas or spacings are far too large (check the units and the file)"
        )


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
            raise ValueError(
                f"grid is not complete: {X.size} nodes given for {nx} x values x {ny} y values "
                f"= {nx * ny} nodes (missing or duplicate nodes)"
            )
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
    return GridVolumes(
        cut_cy=c,
        fill_cy=f,
        cell_cut_cy=cut,
        cell_fill_cy=fill,
        dx=float(dx),
        dy=float(dy),
        nx=int(nx),
        ny=int(ny),
        mixed_cells=mixed,
        units="metres" if metric else "feet",
        notes=list(GRID_NOTES),
        node_depth=h,
    )


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
        raise ValueError(
            f"{what}: missing column(s) {', '.join(repr(m) for m in missing)} "
            f"(found: {', '.join(map(str, df.columns)) or 'none'})"
        )
    if len(df) == 0:
        raise ValueError(f"{what}: no rows")
    return df


def _line(df: Any, pos: int) -> Any:
    """The file row of position ``pos`` (header = row 1); frames from :func:`read_csv_table` skip blank lines."""
    idx = df.index[pos]
    return idx + 2 if isinstance(idx, (int, np.integer)) else pos + 2


def _numeric_column(df: Any, col: str, what: str) -> np.ndarray:
    import pandas as pd

    s = pd.to_numeric(df[col], errors="coerce")
    bad = s.isna()
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(f"{what}: column {col!r} row {_line(df, row)} is not a number: {df[col].iloc[row]!r}")
    return s.to_numpy(dtype=float)


def _map_grid_headers(df: Any) -> Any:
    """Surveyor headers mapped to the grid's columns: Easting/Northing -> x/y, EG/FG -> existing/proposed."""
    from treecalc.surfaces import find_columns

    names = {str(c).strip().lower() for c in df.columns}
    if {"x", "y", "existing", "proposed"} <= names:
        return df
    try:
        e = find_columns(df.columns, "existing")
        p = find_columns(df.columns, "proposed")
    except ValueError:
        return df  # _columns names what is missing
    if e["z"] == p["z"]:
        return df
    return df.rename(columns={e["x"]: "x", e["y"]: "y", e["z"]: "existing", p["z"]: "proposed"})


def grid_volumes_from_frame(df: Any, *, metric: bool = False) -> GridVolumes:
    """:func:`grid_volumes` from a DataFrame with columns ``x``, ``y``, ``existing``, ``proposed``.

    Surveyor headers are mapped: Easting/Northing (E/N, POINT_X/POINT_Y) for x/y and EG/FG
    (existing/proposed grade) for the elevations.
    """
    what = "grid"
    df = _columns(_map_grid_headers(df), ["x", "y", "existing", "proposed"], what)
    cols = {c: _numeric_column(df, c, what) for c in ("x", "y", "existing", "proposed")}
    return grid_volumes(cols["x"], cols["y"], cols["existing"], cols["proposed"], metric=metric)


def _read_csv(path: str | PathLike[str], what: str) -> Any:
    return read_csv_table(path, what)


def volume_from_grid_csv(path: str | PathLike[str], *, metric: bool = False) -> GridVolumes:
    """:func:`grid_volumes` from a CSV with columns ``x``, ``y``, ``existing``, ``proposed``.

    Feet and regular spacing (metres with ``metric=True``); cubic yards out.
    """
    return grid_volumes_from_frame(_read_csv(path, "grid"), metric=metric)


# =========================================================================== end areas
@dataclass(frozen=True)
class EndAreaVolumes(CutFill):
    """Cut and fill between cross-sections by the average-end-area method (cubic yards).

    ``segment_cut_cy``/``segment_fill_cy`` hold one value per interval between stations;
    ``transitions`` the zero-area points inserted where a section changes from cut to fill.
    """

    stations: np.ndarray
    segment_cut_cy: np.ndarray
    segment_fill_cy: np.ndarray
    prismoidal: bool
    units: str
    notes: list[str]
    transitions: list[dict[str, float]] = field(default_factory=list)
    method: str = "average end area"

    def earthwork(self) -> Earthwork:
        """Volumes for :func:`check_permit`; cross-sections give no plan areas (those rules may be unknown)."""
        return Earthwork(
            cut_cuft=Decimal(repr(round(self.cut_cy * CU_FT_PER_CU_YD, 6))),
            fill_cuft=Decimal(repr(round(self.fill_cy * CU_FT_PER_CU_YD, 6))),
            method=self.method,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._totals(self.method),
            "stations": len(self.stations),
            "segments": [
                {"from": float(a), "to": float(b), "cut_cy": round(float(c), 2), "fill_cy": round(float(f), 2)}
                for a, b, c, f in zip(self.stations[:-1], self.stations[1:], self.segment_cut_cy, self.segment_fill_cy)
            ],
            "transitions": [dict(t) for t in self.transitions],
            "units_in": self.units,
            "notes": list(self.notes),
        }


def _station_notation(t: str) -> str | None:
    """'feet' for 12+50 (hundreds + feet), 'metric' for 1+000 (kilometres + metres), None for a number."""
    if "+" not in t[1:]:
        return None
    digits = t.lstrip("+-").partition("+")[2].split(".")[0]
    return "metric" if len(digits) == 3 else "feet"


def parse_station(s: Any, metric: bool | None = None) -> float:
    """A station as a distance: a number, '12+50' (feet: 1,250 ft) or '1+000' (metric: 1,000 m).

    With ``metric`` given, a station in the other notation is refused (feet notation puts two
    digits after the '+', metric three).
    """
    if isinstance(s, (int, float, np.integer, np.floating)) and not isinstance(s, bool):
        return float(s)
    t = str(s).strip()
    kind = _station_notation(t)
    if kind is not None and metric is not None and (kind == "metric") != metric:
        raise ValueError(
            f"station {s!r} is in {kind} notation ("
            + (
                "kilometres+metres): give --metric / metric=True"
                if kind == "metric"
                else "hundreds of feet+feet): with metric input give stations as 1+250 or in metres"
            )
            + ")"
        )
    try:
        if kind is not None:
            sign = -1.0 if t.startswith("-") else 1.0
            big, _, rest = t.lstrip("+-").partition("+")
            return sign * (float(big) * (1000 if kind == "metric" else 100) + float(rest))
        return float(t)
    except ValueError:
        raise ValueError(f"station {s!r} is not a number or a 12+50 / 1+000 station") from None


def _as_array(a: Any, n: int, name: str) -> np.ndarray | None:
    if a is None:
        return None
    v = np.asarray(a, dtype=float)
    if v.shape != (n,):
        raise ValueError(f"{name} must have one value per station ({n})")
    return v


def _check_sections(st: np.ndarray, ca: np.ndarray, fa: np.ndarray) -> np.ndarray:
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
    return L


def _transitions(st: np.ndarray, L: np.ndarray, ca: np.ndarray, fa: np.ndarray) -> tuple[np.ndarray, list[dict]]:
    """Intervals from an all-cut to an all-fill section (or back) and their zero-area (grade) points.

    The grade point is where the signed area (cut - fill), linear between the sections, is zero:
    at L A1 / (A1 + A2) from the first station.
    """
    a1c, a2c, a1f, a2f = ca[:-1], ca[1:], fa[:-1], fa[1:]
    to_fill = (a1c > 0) & (a1f == 0) & (a2c == 0) & (a2f > 0)
    to_cut = (a1f > 0) & (a1c == 0) & (a2f == 0) & (a2c > 0)
    trans = to_fill | to_cut
    first = np.where(to_fill, a1c, a1f)
    second = np.where(to_fill, a2f, a2c)
    with np.errstate(invalid="ignore", divide="ignore"):
        x0 = np.where(trans, L * first / (first + second), 0.0)
    out = [
        {
            "from": float(st[i]),
            "to": float(st[i + 1]),
            "grade_point": float(st[i] + x0[i]),
            "kind": "cut to fill" if to_fill[i] else "fill to cut",
        }
        for i in np.flatnonzero(trans)
    ]
    return x0, out


def _segment_volumes(
    L: np.ndarray, a: np.ndarray, other: np.ndarray, x0: np.ndarray, trans: np.ndarray, mid: np.ndarray | None
) -> np.ndarray:
    """One kind (cut or fill) per interval: end area, to the grade point, or prismoidal with mid-areas."""
    if mid is not None:
        return L * (a[:-1] + 4 * mid[:-1] + a[1:]) / 6.0  # prismoidal formula V = L/6 (A1 + 4 Am + A2)
    v = L * (a[:-1] + a[1:]) / 2.0
    # transition: this kind is non-zero at one end only; it runs from that end to the grade point
    near = np.where(a[:-1] > 0, x0, L - x0)
    return np.where(trans, near * (a[:-1] + a[1:]) / 2.0, v)


def _three_level_correction(L: np.ndarray, c: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Prismoidal correction C = L (c1 - c2)(D1 - D2) / 12 per interval, applied to cut (c >= 0) or fill (c <= 0)."""
    corr = L * (np.abs(c[:-1]) - np.abs(c[1:])) * (w[:-1] - w[1:]) / 12.0
    cut_side = (c[:-1] >= 0) & (c[1:] >= 0)
    fill_side = (c[:-1] <= 0) & (c[1:] <= 0)
    return np.where(cut_side, corr, 0.0), np.where(fill_side & ~cut_side, corr, 0.0)


def _check_correction(st: np.ndarray, volume: np.ndarray, corr: np.ndarray, kind: str, unit: str) -> None:
    """A prismoidal correction larger than the end-area volume it corrects is refused, naming the interval: the
    centre heights and widths do not describe those areas (the volume was clamped to 0 without a word)."""
    over = corr > volume * (1 + 1e-9) + 1e-9
    if over.any():
        i = int(np.flatnonzero(over)[0])
        raise ValueError(
            f"the prismoidal correction of the {kind} between stations {st[i]:g} and {st[i + 1]:g} "
            f"({corr[i]:,.2f} {unit}) is larger than its end-area volume ({volume[i]:,.2f} {unit}): the center_height "
            "and width columns do not describe these areas; check them, or leave out --prismoidal"
        )


PRISMOIDAL_NEEDS = (
    "--prismoidal needs mid-section areas (columns cut_mid_area, fill_mid_area: the areas halfway to "
    "the next station) or centre heights and widths (columns center_height, + cut / - fill, and "
    "width between slope stakes) for the correction C = L (c1 - c2)(D1 - D2) / 12"
)


def end_area_volumes(
    stations: Any,
    cut_area: Any,
    fill_area: Any,
    prismoidal: bool = False,
    *,
    metric: bool = False,
    cut_mid_area: Any = None,
    fill_mid_area: Any = None,
    center_height: Any = None,
    width: Any = None,
) -> EndAreaVolumes:
    """Cut and fill by the average-end-area method, optionally prismoidal.

    Parameters
    ----------
    stations : array_like
        Station of each cross-section, feet along the alignment (metres if ``metric``), strictly
        increasing; numbers, '12+50' (feet) or '1+000' (metric) strings.
    cut_area, fill_area : array_like
        Cut and fill area of each cross-section, square feet (square metres if ``metric``).
    prismoidal : bool
        Prismoidal volumes: with ``cut_mid_area``/``fill_mid_area`` (the areas halfway to the next
        station) V = L/6 (A1 + 4 Am + A2); with ``center_height`` and ``width`` (three-level
        sections) the end-area volume less the correction L (c1 - c2)(D1 - D2) / 12. One of them
        is required: without it the correction cannot be computed.
    metric : bool
        Input in metres / square metres; output still in cubic yards.

    Returns
    -------
    EndAreaVolumes
        ``cut_cy``, ``fill_cy``, ``net_cy = cut_cy - fill_cy``, per-segment volumes and the
        zero-area grade points inserted where a section changes from cut to fill.

    Notes
    -----
    Average end area: V = L (A1 + A2) / 2 per interval of length L [1]_. Between an all-cut and an
    all-fill section the cut runs from its section to the grade point (where the signed area is
    zero, at L A1 / (A1 + A2)) and the fill from there: each volume is a wedge to a zero area.
    A wedge from 0 to 100 sq ft over 100 ft is 5,000 cu ft = 185.19 cu yd, exactly what the end-area
    and prismoidal formulas give for areas that change linearly.

    References
    ----------
    .. [1] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying*, 13th ed., 2012, ch. 26
       (average-end-area formula, prismoidal formula and correction).
    """
    try:
        st = np.array(
            [parse_station(s, metric) for s in np.atleast_1d(np.asarray(stations, dtype=object))], dtype=float
        )
    except TypeError:
        raise ValueError("stations must be a sequence") from None
    ca, fa = np.asarray(cut_area, dtype=float), np.asarray(fill_area, dtype=float)
    L = _check_sections(st, ca, fa)
    n = st.size
    cm, fm = _as_array(cut_mid_area, n, "cut_mid_area"), _as_array(fill_mid_area, n, "fill_mid_area")
    ch, wd = _as_array(center_height, n, "center_height"), _as_array(width, n, "width")
    for name, a in (("center_height", ch), ("width", wd)):
        if prismoidal and a is not None and not np.isfinite(a).all():
            raise ValueError(f"{name} must be given (a finite number) for every station")
    if prismoidal and wd is not None and (wd < 0).any():
        i = int(np.flatnonzero(wd < 0)[0])
        raise ValueError(f"width must not be negative (the width between slope stakes): {wd[i]:g} at station {st[i]:g}")
    use_mid = prismoidal and cm is not None and fm is not None
    use_corr = prismoidal and not use_mid and ch is not None and wd is not None
    if prismoidal and not (use_mid or use_corr):
        raise ValueError(PRISMOIDAL_NEEDS)
    if (
        use_mid
        and cm is not None
        and fm is not None
        and (
            not np.isfinite(cm[:-1]).all()
            or not np.isfinite(fm[:-1]).all()
            or (cm[:-1] < 0).any()
            or (fm[:-1] < 0).any()
        )
    ):
        raise ValueError(
            "cut_mid_area and fill_mid_area must be given (>= 0) for every interval (all rows but the last)"
        )
    # overflow of absurd inputs is caught by _check_finite_volumes (a message, not numpy warnings)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        x0, trans_list = _transitions(st, L, ca, fa) if not use_mid else (np.zeros_like(L), [])
        trans = np.zeros(L.shape, bool) if use_mid else np.isin(st[:-1], [t["from"] for t in trans_list])
        sc = _segment_volumes(L, ca, fa, x0, trans, cm if use_mid else None)
        sf = _segment_volumes(L, fa, ca, x0, trans, fm if use_mid else None)
        if use_corr and ch is not None and wd is not None:
            cc, cf = _three_level_correction(L, ch, wd)
            _check_correction(st, sc, cc, "cut", "m³" if metric else "cu ft")
            _check_correction(st, sf, cf, "fill", "m³" if metric else "cu ft")
            sc, sf = sc - cc, sf - cf
        factor = 1.0 / M3_PER_CU_YD if metric else 1.0 / CU_FT_PER_CU_YD
        sc, sf = np.maximum(sc, 0.0) * factor, np.maximum(sf, 0.0) * factor
        c, f = float(sc.sum()), float(sf.sum())
    _check_finite_volumes(c, f)
    method = (
        "prismoidal formula (mid-section areas)"
        if use_mid
        else "average end area with prismoidal correction (three-level)"
        if use_corr
        else "average end area"
    )
    return EndAreaVolumes(
        cut_cy=c,
        fill_cy=f,
        stations=st,
        segment_cut_cy=sc,
        segment_fill_cy=sf,
        prismoidal=bool(prismoidal),
        units="metres" if metric else "feet",
        notes=_end_area_notes(use_mid, use_corr, trans_list, metric),
        transitions=trans_list,
        method=method,
    )


def _end_area_notes(use_mid: bool, use_corr: bool, trans: list[dict], metric: bool) -> list[str]:
    u = "m" if metric else "ft"
    ref = "(Ghilani & Wolf, Elementary Surveying, ch. 26)"
    notes: list[str] = []
    # a prismoidal result opens with its own formula: the average end area is only its base (or not used)
    if use_mid:
        notes.append(f"Prismoidal formula with the mid-section areas given: V = L/6 (A1 + 4 Am + A2) {ref}.")
    if use_corr:
        notes.append(
            "Prismoidal correction for three-level sections: C = L (c1 - c2)(D1 - D2) / 12 (c centre "
            "height, D width between slope stakes) subtracted from the end-area volume L (A1 + A2) / 2 "
            f"{ref}."
        )
    if not (use_mid or use_corr):
        notes.append(f"Average-end-area method: V = L (A1 + A2) / 2 between consecutive stations {ref}.")
    notes.append("net_cy = cut_cy - fill_cy: positive is surplus material, negative is material to import.")
    for t in trans:
        notes.append(
            f"section changes {t['kind']} between stations {t['from']:g} and {t['to']:g} {u}: a zero-area "
            f"point is inserted at the grade line, station {t['grade_point']:.2f} {u}; each side is a "
            "wedge to that point."
        )
    return notes


def end_area_volumes_from_frame(df: Any, prismoidal: bool = False, *, metric: bool = False) -> EndAreaVolumes:
    """:func:`end_area_volumes` from a DataFrame with columns ``station``, ``cut_area``, ``fill_area``.

    Optional columns for ``prismoidal``: ``cut_mid_area``, ``fill_mid_area`` or ``center_height``,
    ``width``.
    """
    import pandas as pd

    what = "sections"
    df = _columns(df, ["station", "cut_area", "fill_area"], what)
    st = [parse_station(s, metric) for s in df["station"]]

    def opt(col: str, all_rows: bool = True) -> np.ndarray | None:
        if col not in df.columns:
            return None
        rows = df[col] if all_rows else df[col].iloc[:-1]
        if not all_rows:
            v = pd.to_numeric(df[col], errors="coerce").to_numpy(dtype=float)
            if np.isnan(v[:-1]).any():
                i = int(np.flatnonzero(np.isnan(v[:-1]))[0])
                raise ValueError(f"{what}: column {col!r} row {_line(df, i)} is not a number: {rows.iloc[i]!r}")
            return v
        return _numeric_column(df, col, what)

    return end_area_volumes(
        st,
        _numeric_column(df, "cut_area", what),
        _numeric_column(df, "fill_area", what),
        prismoidal,
        metric=metric,
        cut_mid_area=opt("cut_mid_area", False),
        fill_mid_area=opt("fill_mid_area", False),
        center_height=opt("center_height"),
        width=opt("width"),
    )


def volume_from_sections_csv(
    path: str | PathLike[str], prismoidal: bool = False, *, metric: bool = False
) -> EndAreaVolumes:
    """:func:`end_area_volumes` from a CSV with columns ``station``, ``cut_area``, ``fill_area``.

    Stations in feet (numbers or '12+50') or metres ('1+000' with ``metric``), areas in square feet
    (m2 with ``metric``); optional prismoidal columns as in :func:`end_area_volumes_from_frame`.
    """
    return end_area_volumes_from_frame(_read_csv(path, "sections"), prismoidal, metric=metric)
