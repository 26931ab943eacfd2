"""Village of Croton-on-Hudson, Chapter 120 (Excavation, Filling and Topsoil Removal), in the chapter's order.

- :func:`check` the permit thresholds of §120-3A (with the topsoil proviso) and §120-3B on an
  :class:`~treecalc.earthwork.operation.Operation`, plus the numeric review standards of §120-8 that apply
  to it (called by :func:`treecalc.rules.excavation.check_permit`);
- :func:`tree_survey_required` the tree survey rule of §120-5E (diameter at 3 ft, not DBH);
- :func:`review_standards` the numeric standards of §120-8A, C, E checked on values;
- :func:`work_time_check`, :func:`work_time_allowed` the allowed work hours of §120-8G;
- :func:`permit_term_check` the permit's term and idle time of §120-10A;
- :func:`violation_penalties` the fines of §120-12.

Every number is the chapter's entry in ``data/law/croton_on_hudson/ch120_excavation.toml`` (:data:`LAW`), in
the conditions and in the sentences alike. Permit arithmetic is exact (:class:`decimal.Decimal`, compared in
cubic feet so "over 50 cubic yards" is ``> 1,350 cu ft`` exactly); the quantities are measured by
:mod:`treecalc.earthwork`.

Readings of numbers damaged in the extracted text of Chapter 120 (see
``/work/shared/ordinances/README.md``): "$2,0" in §120-12A reads $2,000; "$3,0" in §120-12B
reads $3,000; "8:0 a.m." and "10:0 a.m." in §120-8G read 8:00 a.m. and 10:00 a.m.; "Article 7"
of the CPLR (§120-9A, §120-12D) is Article 78.

References
----------
.. [1] Village of Croton-on-Hudson Code, Chapter 120, Excavation, Filling and Topsoil Removal,
   §120-3A, §120-5E, §120-8, §120-12 (``/work/shared/ordinances/000_93ddf96a0c457a74.txt``).
"""

from __future__ import annotations

import datetime as _dt
from decimal import Decimal
from typing import Any

from treecalc.earthwork.operation import MAX_WALL_FT, Operation
from treecalc.earthwork.quantities import CU_FT_PER_CU_YD, IN_PER_FT, PlanAreas, cuft_to_cuyd, fmt_number, fmt_sqft
from treecalc.law.numbers import numbers
from treecalc.messages import head, subsection
from treecalc.money import CENT, nonneg, round2
from treecalc.quantities import add_months, bounded, in_range, to_date, to_datetime
from treecalc.rules.excavation_check import PermitCheck, PermitTerm, unknown, verdict

__all__ = [
    "LAW",
    "check",
    "tree_survey_required",
    "review_standards",
    "work_time_check",
    "work_time_allowed",
    "permit_term_check",
    "violation_penalties",
]

LAW = numbers("croton_on_hudson", "ch120_excavation")
_D27 = Decimal(CU_FT_PER_CU_YD)
_CENT = CENT
_cy, _fmt, _sqft = cuft_to_cuyd, fmt_number, fmt_sqft


def _v(key: str) -> Decimal:
    return LAW[key].value


def _sec(key: str) -> str:
    """The section of the entry ``key`` (the number a sentence applies)."""
    return LAW[key].section


def _record(key: str) -> str:
    """The section of a provision of Chapter 120 that sets no number (its ``[sections.<key>]`` record)."""
    return LAW.provision(key)


def _paragraph(section: str) -> str:
    """A paragraph as said after another of its subsection: "§120-3A(5)" -> "(5)"."""
    return section[len(subsection(section)) :]


def _thresholds() -> str:
    """The subsection of the permit thresholds (an exempt foundation is left out of it): "§120-3A"."""
    return subsection(_sec("deep_cut_area"))


def _fill_items() -> str:
    """The fill thresholds the topsoil proviso leaves a placement out of, as paragraphs: "(5)-(7)"."""
    return f"{_paragraph(_sec('deep_fill_area'))}-{_paragraph(_sec('any_fill_area'))}"


def _clock(hour: Decimal) -> str:
    """An hour of the day (0-23, the law's data) as the ordinance writes it: 20 -> '8:00 p.m.'."""
    h = int(hour)
    return f"{(h - 1) % 12 + 1}:00 {'a.m.' if h < 12 else 'p.m.'}"


def _damaged_text_readings() -> list[str]:
    """The numbers damaged in the extracted text ('$2,0', '8:0 a.m.'), read as the chapter's entries say."""
    later, civil = LAW["fine_later_max"], LAW["civil_penalty_max"]
    hours = LAW["work_start_hour"]
    return [
        f"Damaged numbers in the extracted text of Chapter 120, read as: '$2,0' ({later.section}) = "
        f"${_fmt(later.value)}; '$3,0' ({civil.section}) = ${_fmt(civil.value)}; '8:0 a.m.' / '10:0 a.m.' "
        f"({hours.section}) = {_clock(hours.value)} / {_clock(_v('sunday_start_hour'))}; "
        f"CPLR 'Article 7' ({_record('appeal_review')}, {_record('penalty_review')}) = Article 78. Check against "
        "the official code.",
    ]


def _depths(*keys: str) -> tuple[float, ...]:
    return tuple(float(_v(k)) for k in keys)


# The chapter's numbers as constants, read when asked for (PEP 562), in force on the date a check is made for
# (:func:`treecalc.law.numbers.law_on`, today otherwise): nothing is read when this module is imported.
#: CUT_DEPTHS_FT / FILL_DEPTHS_FT: the depths the plan areas are measured deeper than, the permit thresholds'
#: paragraphs (2) and (1) for a cut, (6) and (5) for a fill; PLAN_DEPTHS_FT: any depth (0) and each of them, the
#: keys of the plan areas a measured volume reports.
_LAZY = {
    "DAMAGED_TEXT_READINGS": lambda: _damaged_text_readings(),
    "CUT_DEPTHS_FT": lambda: _depths("cut_depth", "deep_cut_depth"),
    "FILL_DEPTHS_FT": lambda: _depths("fill_depth", "deep_fill_depth"),
    "PLAN_DEPTHS_FT": lambda: tuple(
        sorted({0.0, *_depths("cut_depth", "deep_cut_depth", "fill_depth", "deep_fill_depth")})
    ),
    "CROTON_INTERPRETATION": lambda: _croton_interpretation(),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return _LAZY[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        f"more than {_fmt(_v('excavation_volume') * _D27)} cu ft. Stripping topsoil is excavation "
        f"({_record('excavation_defined')} EXCAVATION: 'the stripping of topsoil'), so its volume (area x depth) "
        "counts; without its depth the volume is unknown.",
        f"{L['any_fill_area'].section}: filling over {_fmt(_v('any_fill_area'))} sq ft or more at any depth > 0.",
        f"{L['topsoil_proviso_depth'].section}: placing topsoil not over {_fmt(_v('topsoil_proviso_depth'))} in deep "
        f"over not more than {_fmt(_v('topsoil_proviso_area'))} sq ft, immediately seeded and mulched, is left out "
        f"of {_fill_items()}; otherwise it counts as fill (depth in / {IN_PER_FT} ft). fill_cy includes placed "
        "topsoil.",
        f"{_record('building_permit')}: excavation for a foundation under a building permit (given as a foundation) "
        "is covered by the building permit ('a building permit shall constitute the excavation and filling permit "
        "... strictly essential for ... the foundation, walls and basement') and is left out of "
        f"{_thresholds()}; other work is tested on its own. The building permit stays subject to "
        f"{_record('review_standards')}. {_record('planning_board_approval')} (Planning Board approvals) is not "
        "evaluated.",
    ]


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
        unknown(
            missing,
            "plan areas by depth of the measured cut/fill (cross-sections do not give them; use "
            "‹existing›/‹proposed› surfaces or ‹grid›)",
        )
        return {
            "section": section,
            "holds": None,
            "explanation": text + "; the measured volumes give no areas by depth, so this cannot be told",
        }
    return {"section": section, "holds": False, "explanation": text}


def _rule_lowering(o: Operation, missing: list[str]) -> dict[str, Any]:
    sec, fixed, pct = LAW["lowering_area"].section, _v("lowering_area"), _v("lowering_lot_percent")
    m = o.measured
    lowered = sum((a for a, d in o.exc if d > 0), Decimal(0)) + o.strip + (m.cut.total_sqft if m and m.cut else 0)
    head = f"grade lowered or topsoil stripped over {_sqft(lowered)} sq ft"
    if lowered >= fixed:
        return {"section": sec, "holds": True, "explanation": f"{head} (permit if >= {_fmt(fixed)} sq ft)"}
    if m is not None and m.cut is None and m.cut_cuft > 0:
        unknown(missing, "the plan area of the measured cut (cross-sections do not give it)")
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
    unknown(missing, f"the lot area (‹lot_area_sqft›): {sec} requires a permit on lots under {_fmt(below)} sq ft")
    return {
        "section": sec,
        "holds": None,
        "explanation": f"{head}: under {_fmt(fixed)} sq ft, so it depends on the lot area — required if the lot "
        f"is under {_fmt(below)} sq ft (more than {_fmt(pct)}% of the property); no lot area given",
    }


def _rule_volume(o: Operation, missing: list[str]) -> dict[str, Any]:
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
            f"({_record('excavation_defined')}: stripping topsoil is excavation)"
            if sv is not None and o.strip_depth_in is not None
            else f"; plus topsoil stripping over {_sqft(o.strip)} sq ft of unknown depth"
        )
    if known > limit:
        return {"section": sec, "holds": True, "explanation": text}
    if o.strip_cuft() is None:
        unknown(
            missing,
            f"the depth of the topsoil stripped (‹strip_topsoil=AREA:DEPTH_IN›): {sec} counts its "
            f"volume; more than {_fmt(((limit - known) * IN_PER_FT / o.strip).quantize(_CENT))} in deep "
            f"over {_sqft(o.strip)} "
            "sq ft would need a permit",
        )
        return {"section": sec, "holds": None, "explanation": text}
    return {"section": sec, "holds": False, "explanation": text}


def _topsoil_items(o: Operation, exemptions: list[dict[str, Any]]) -> list[tuple[Decimal, Decimal]]:
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
                f"mulched; left out of {subsection(_sec('deep_fill_area'))}{_fill_items()}",
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
    return [(top[0], top[1] / IN_PER_FT)]


#: The chapter's area rules on cuts and fills: (area limit, depth limit or None for any depth); the measured plan
#: area is read at the depth limit.
_CUT_AREA_RULES: tuple[tuple[str, str | None], ...] = (
    ("deep_cut_area", "deep_cut_depth"),
    ("cut_area", "cut_depth"),
)
_FILL_AREA_RULES: tuple[tuple[str, str | None], ...] = (
    ("deep_fill_area", "deep_fill_depth"),
    ("fill_area", "fill_depth"),
    ("any_fill_area", None),
)


def _croton_rules(o: Operation, exemptions: list[dict[str, Any]], missing: list[str]) -> list[dict[str, Any]]:
    m, has_m = o.measured, o.measured is not None

    def over(items: list[tuple[Decimal, Decimal]], depth: Decimal) -> Decimal:
        return sum((a for a, d in items if d > depth), Decimal(0))

    def depth_rule(
        items: list[tuple[Decimal, Decimal]],
        has: bool,
        areas: PlanAreas | None,
        rule: tuple[str, str | None],
        what: str,
    ) -> dict[str, Any]:
        area_key, depth_key = rule
        depth = _v(depth_key) if depth_key else Decimal(0)
        text = f"{what} deeper than {_fmt(depth)} ft" if depth_key else f"{what} at any depth"
        known = areas[depth] if areas else None  # the measured plan area deeper than the law's depth
        return _area_rule(LAW[area_key].section, over(items, depth), known, has, _v(area_key), text, missing)

    cut, fill = (m.cut, m.fill) if m else (None, None)
    rules = [depth_rule(o.exc, has_m, cut, rule, "excavation") for rule in _CUT_AREA_RULES]
    rules += [_rule_lowering(o, missing), _rule_volume(o, missing)]
    fills = o.fil + _topsoil_items(o, exemptions)
    has_fill_m = has_m and bool(m and m.fill_cuft > 0)
    rules += [depth_rule(fills, has_fill_m, fill, rule, "fill") for rule in _FILL_AREA_RULES]
    return rules


def _foundation_exemption(o: Operation) -> list[dict[str, Any]]:
    if not o.foundations:
        return []
    cuft = sum((a * d for a, d in o.foundations), Decimal(0))
    return [
        {
            "section": _record("building_permit"),
            "applies": True,
            "explanation": f"foundation excavation {_sqft(sum((a for a, _ in o.foundations), Decimal(0)))} sq ft, "
            f"{_fmt(cuft)} cu ft = {round2(_cy(cuft)):,.2f} cu yd, under a building permit: the building "
            f"permit constitutes the excavation and filling permit for it (subject to {_record('review_standards')}); "
            f"left out of {_thresholds()}",
        }
    ]


def _croton_areas_and_standards(
    o: Operation, retaining_wall_height_ft: Any
) -> tuple[Decimal, Decimal, list[dict[str, Any]]]:
    """Excavated and filled areas (sq ft) and the §120-8 review standards they bring."""
    m = o.measured
    # a building permit stays subject to the review standards, so foundation depths count for the fence
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


def _croton_notes(o: Operation) -> list[str]:
    """The notes of a Croton-on-Hudson check: the §120-5E tree survey, the penalty, the readings."""
    notes = [
        f"{_sec('tree_survey_diameter')}: the site plan must locate every live tree "
        f"{_fmt(_v('tree_survey_diameter'))} in or more in "
        f"diameter measured {_fmt(_v('tree_survey_height'))} ft above existing ground (not DBH at 4.5 ft) within "
        "the grading area and a "
        f"{_fmt(_v('tree_survey_strip'))}-ft strip around it.",
        _penalty_note(),
        *_damaged_text_readings(),
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
            f"excavation and filling permit ({_record('building_permit')})",
        )
    return notes


def check(
    o: Operation,
    *,
    retaining_wall_height_ft: Any = None,
    term: PermitTerm | None = None,
    cellar: Any = None,
) -> PermitCheck:
    """Whether the operation ``o`` needs an excavation and filling permit under Chapter 120 (§120-3A, §120-3B),
    the §120-8 standards it brings (a retaining wall: §120-8M) and the permit's term (§120-10A).

    ``cellar`` is not read here (a Wesley Hills input: :func:`treecalc.rules.excavation.check_permit` refuses it).
    """
    missing: list[str] = []
    exemptions = _foundation_exemption(o)
    rules = _croton_rules(o, exemptions, missing)
    required, triggers = verdict(rules)
    if required is True:  # a rule that holds decides: the facts the others lack change nothing
        missing = []
    exc_area, fill_area, standards = _croton_areas_and_standards(o, retaining_wall_height_ft)
    notes = _croton_notes(o)
    return PermitCheck(
        jurisdiction="croton_on_hudson",
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
        interpretation=_croton_interpretation(),
        notes=notes,
        missing_facts=missing,
        term=permit_term_check(term.issued, term.as_of, term.last_work) if term else None,
    )


def _penalty_note() -> str:
    return (
        f"{head(_sec('fine_first_min'))}: without a required permit, a fine of ${_fmt(_v('fine_first_min'))}-"
        f"${_fmt(_v('fine_first_max'))} "
        f"(first offence) or ${_fmt(_v('fine_later_min'))}-${_fmt(_v('fine_later_max'))} and/or up to "
        f"{_fmt(_v('imprisonment_max'))} days (later offences), and a civil penalty up to "
        f"${_fmt(_v('civil_penalty_max'))} per violation; each day is a separate offence."
    )


def _retaining_wall(height: Any) -> list[dict[str, Any]]:
    if height is None:
        return []
    h = bounded(height, "retaining_wall_height_ft", 0, MAX_WALL_FT, unit="ft")
    lim, sec = _v("retaining_wall_height"), _sec("retaining_wall_height")
    need = h > lim
    return [
        {
            "section": sec,
            "building_permit_required": bool(need),
            "requirement": f"retaining wall {_fmt(h)} ft high: a building permit is "
            f"{'required' if need else f'not required by {sec}'} (required if more than "
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
        f"the permit runs for no longer than {years} year{'' if years == 1 else 's'}: from {iss} to {expires} (or a shorter period set by "
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
        # excavation below surrounding grade deeper than the fence depth -> fence with gates
        out.append(
            {
                "section": _sec("fence_depth"),
                "requirement": f"excavation deeper than {_fmt(_v('fence_depth'))} ft below surrounding "
                "grade: substantial fence of proper height and strength with gates, locked when "
                "the property is not being worked (permanent fence if the authority requires)",
            }
        )
    if excavation:
        # standing water at most the law's depth during construction, none after
        out.append(
            {
                "section": _sec("standing_water_during"),
                "requirement": "excavations drained: standing water at most "
                f"{_fmt(_v('standing_water_during'))} ft deep during construction, none after construction",
            }
        )
    if fill:
        out.append(
            {
                "section": _record("clean_fill"),
                "requirement": "clean fill, smooth transition to adjoining grade, reseeded",
            }
        )
    if stripping:
        # at least the law's depth of topsoil left where topsoil is removed
        out.append(
            {
                "section": _sec("topsoil_left"),
                "requirement": f"at least {_fmt(_v('topsoil_left'))} in of topsoil left on the surface "
                "from which topsoil is removed; reseeded and mulched",
            }
        )
    if excavation or fill or stripping:
        # the hours of work
        out.append(
            {
                "section": _sec("work_start_hour"),
                "requirement": f"no work {_clock(_v('work_end_hour'))}-{_clock(_v('work_start_hour'))} any day, "
                f"nor {_clock(_v('work_end_hour'))} Saturday-{_clock(_v('sunday_start_hour'))} Sunday "
                "(text reads '8:0 a.m.', '10:0 a.m.')",
            }
        )
        out.append(
            {
                "section": _record("stable_slopes"),
                "requirement": "slopes no steeper than the permanent stable "
                "slope of the material; exposed slopes seeded or protected",
            }
        )
    return out


# =========================================================================== the review standards
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
    # "to a depth greater than four feet" -> fence (strictly greater)
    fence_needed = depth > _v("fence_depth")
    out.append(
        {
            "section": _sec("fence_depth"),
            "requirement": f"fence with locked gates if deeper than {_fmt(_v('fence_depth'))} ft",
            "fence_required": fence_needed,
            "complies": (True if not fence_needed else fence_provided),
            "explanation": f"excavation {_fmt(depth)} ft deep: fence "
            f"{'required' if fence_needed else 'not required'} (required if > {_fmt(_v('fence_depth'))} ft)",
        }
    )
    if standing_water_ft is not None:
        w = nonneg(standing_water_ft, "standing_water_ft")
        # "not greater in depth than one foot" during; "no standing water" after
        limit = Decimal(0) if after_construction else _v("standing_water_during")
        out.append(
            {
                "section": _sec("standing_water_during"),
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
        # "at least two inches of topsoil shall be left"
        out.append(
            {
                "section": _sec("topsoil_left"),
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
    keys = ("work_start_hour", "work_end_hour", "sunday_start_hour")
    said_start, said_end, said_sunday = (_clock(_v(k)) for k in keys)
    sec = _sec("work_start_hour")
    interp = (
        f"{sec} read as: work allowed from {said_start} (Sunday {said_sunday}) up to but not "
        f"including {said_end}, local time; the text's '8:0 a.m.' and '10:0 a.m.' read as "
        f"{said_start} and {said_sunday}"
    )
    day = dt.strftime("%A")
    start, end, sunday = (_dt.time(int(_v(k))) for k in keys)
    if t >= end or t < start:
        return {
            "allowed": False,
            "section": sec,
            "interpretation": interp,
            "reason": f"{day} {t:%H:%M} is between {said_end} and {said_start}",
        }
    if dt.weekday() == 6 and t < sunday:
        return {
            "allowed": False,
            "section": sec,
            "interpretation": interp,
            "reason": f"Sunday {t:%H:%M} is between {said_end} Saturday and {said_sunday} Sunday",
        }
    return {
        "allowed": True,
        "section": sec,
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


# =========================================================================== the tree survey, the penalties
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
    at = _fmt(_v("tree_survey_height"))
    return {
        "required": bool(req),
        "section": LAW["tree_survey_diameter"].section,
        "explanation": f"{_fmt(d)} in at {at} ft above ground, {_fmt(dist)} ft outside the grading area: "
        f"survey required for live trees >= {_fmt(_v('tree_survey_diameter'))} in within the grading area or the "
        f"{_fmt(_v('tree_survey_strip'))}-ft "
        f"strip around it (diameter at {at} ft, not DBH at 4.5 ft)",
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
    # the criminal fines: a range for a first offence, another for a second and subsequent (its maximum damaged in the
    # text: "$2,0"), or imprisonment, or both.
    lo, hi = (
        (_v("fine_first_min"), _v("fine_first_max"))
        if offense_number == 1
        else (_v("fine_later_min"), _v("fine_later_max"))
    )
    # the civil penalty: up to a maximum (damaged in the text: "$3,0") per violation; each day separate.
    civil = _v("civil_penalty_max")
    criminal_sec, civil_sec = _sec("fine_first_min"), _sec("civil_penalty_max")
    return {
        "section_criminal": criminal_sec,
        "section_civil": civil_sec,
        "criminal_fine_min_per_day": lo,
        "criminal_fine_max_per_day": hi,
        "imprisonment_max_days": int(_v("imprisonment_max")) if offense_number > 1 else 0,
        "civil_penalty_max_per_day": civil,
        "criminal_fine_min_total": lo * days,
        "criminal_fine_max_total": hi * days,
        "civil_penalty_max_total": civil * days,
        "notes": [
            f"{LAW['fine_later_max'].section}: the extracted text reads '$2,0'; read as ${_fmt(_v('fine_later_max'))}.",
            f"{LAW['civil_penalty_max'].section}: the extracted text reads '$3,0'; read as ${_fmt(civil)}.",
            f"Each day's continuance is a separate offence ({criminal_sec}) / violation ({civil_sec}).",
        ],
    }
