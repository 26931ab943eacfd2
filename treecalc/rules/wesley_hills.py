"""Wesley Hills Chapter 95 (Clearing, Filling and Excavation): clearing permits for trees and fines.

§ 95-3A(1)(c)-(e) make the removal of some trees an "operation" needing a clearing
permit; removing such a tree without one is fined up to $5,000 per tree; other
violations up to $2,500 per day. Chapter 95 has no replacement-value rule, and
treecalc does not invent one. Numbers from ``data/law/wesley_hills/ch95_clearing.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from treecalc.frames import actions, dbh
from treecalc.frames import join as _join
from treecalc.ingest.site import fact_bool as parse_bool
from treecalc.ingest.site import resolve_site, site_defaults
from treecalc.results import ChapterSummary, Findings, Permit
from treecalc.rules import law_data as _law_data
from treecalc.schema import REMOVALS

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.assessment import Context

NO_REPLACEMENT_RULE = "Wesley Hills Chapter 95 has no replacement-value rule"
PENALTY_SECTION = "Ch. 95 penalties A"  # the section number is not in the extracted text
OTHER_SECTION = "Ch. 95 penalties B"

#: Why each site fact not given is assumed as it is, in this chapter's words (``[site_why]`` of
#: ``data/law/wesley_hills/ch95_clearing.toml``); the assumed values themselves have one home,
#: :data:`treecalc.ingest.site.SITE_ASSUMED` (``data/readings/site_facts.toml``).
SITE_DEFAULTS: dict[str, tuple[Any, str]] = site_defaults("wesley_hills", _law_data.law("wesley_hills")["site_why"])


EXCEPTIONS = {
    "village_work": (
        "§95-3D(2)",
        "operations conducted by or for the Village of Wesley Hills: Chapter 95 does "
        "not apply, no clearing permit required",
    ),
    "normal_farming": (
        "§95-3D(3)",
        "normal use of land for farming, gardening or similar agricultural or "
        "horticultural uses: Chapter 95 does not prohibit or limit it",
    ),
    "subdivision_plans_approved": (
        "§95-3C(2)",
        "approved subdivision construction plans deemed a duly issued "
        "permit (removals within the street rights-of-way, slope rights "
        "and drainage areas, or shown on the approved, bonded grading "
        "plan)",
    ),
}

#: The law's numbers the sentences below are filled from (read once, from the data folder).
_LAW = _law_data.law("wesley_hills")
_FINE, _PERMIT = _LAW["fine"], _LAW["permit"]

READINGS = [
    "§95-3A(1): diameters are measured 54 inches above ground, which is DBH (4.5 ft).",
    "§95-3A(1)(c) 'vacant lot' is read as a lot without an existing residence (site fact has_residence, "
    "or vacant_lot where given).",
    "The penalty section of Chapter 95 is cited as 'Ch. 95 penalties A/B': its number is not in the text received.",
    "§95-3A(1)(c)-(e) and penalties A ('remove a tree for which a clearing permit is required'): only removals "
    "(remove, removed) need a clearing permit or are fined; a damaged tree that still stands is neither.",
    f"§95-3A(1)(e) within {_PERMIT['lot_line_distance_ft']:g} ft of a lot line: a tree whose lot-line cell is "
    "blank (a fact not given, never a "
    "'no'), or a survey without a lot-line column (flags_not_surveyed), is taken as within "
    f"{_PERMIT['lot_line_distance_ft']:g} ft (the cautious "
    "reading) and the assumption is stated; a removal fined through it is a conditional offence.",
    "Penalties A has no per-day clause: each tree removed without a permit is one violation, up to "
    f"${int(_FINE['per_tree_usd']):,}; the "
    "days of a continuing violation are not applied to it. Penalties B (any other violation, up to "
    f"${int(_FINE['other_per_day_usd']):,}, "
    "each day's continued violation a separate violation) is shown as a maximum per day and, with a days "
    f"count, days x ${int(_FINE['other_per_day_usd']):,} per other violation the Engineer finds; treecalc "
    "assesses no other violation.",
    "Exceptions read from the text: §95-3D(2) operations by or for the Village (site fact village_work) and "
    "§95-3C(2) approved subdivision construction plans deemed a permit (site fact subdivision_plans_approved). "
    "§95-3C(1) (building permit) and §95-3C(3) (approved site plan) are deemed permits for landfilling, "
    "excavation and removal of material, not for tree removal, and §95-3D(1), (4) concern excavation, "
    "filling and lawns: they are not applied to trees.",
    "§95-3D(3) (the chapter does not prohibit or limit the normal use of land for farming, gardening or similar "
    "agricultural or horticultural uses) is read as a site fact, normal_farming: when given yes, no clearing "
    "permit is needed and no fine applies.",
    "Fines only on established facts (Chapter 95 penalties A): a removal fined only through a fact that was "
    "assumed — a vacant lot read from a residence fact not given, a lot area not given, a missing distance to "
    "the residence, a lot-line flag absent or blank, a certificate of occupancy not given — is a conditional "
    "offence: listed with the fact it depends on, its amount summed apart (fine_conditional_usd); fine_max_usd "
    "counts definite offences only. The clearing-permit preview keeps the reading that needs a permit.",
]

SECTIONS_APPLIED = [
    "§95-3A(1)(c)",
    "§95-3A(1)(d)",
    "§95-3A(1)(e)",
    "§95-3C(2)",
    "§95-3D(2)",
    "§95-3D(3)",
    PENALTY_SECTION,
    OTHER_SECTION,
]


@dataclass
class WesleyHillsResult:
    triggers: list[list[str]]
    permit_needed: np.ndarray
    offence: np.ndarray
    fine_usd: np.ndarray
    site_triggers: list[dict[str, Any]]
    assumptions: list[str]
    exceptions_applied: list[dict[str, str]] = field(default_factory=list)
    definite: np.ndarray | None = None  # an offence on facts given
    depends_on: np.ndarray | None = None  # per tree: the assumed fact(s) a conditional offence rests on


def evaluate(
    trees: pd.DataFrame,
    site: dict[str, Any],
    law: dict[str, Any],
    *,
    flags_not_surveyed: Any = (),
    assumed: Any = frozenset(),
) -> WesleyHillsResult:
    """§ 95-3A(1)(c)-(e) per removal and the fines of penalties A.

    ``flags_not_surveyed``: flag names the survey had no column for (the reader fills them with
    False); ``within_20ft_of_lot_line`` among them is read as unknown. ``assumed``: the site facts
    not given. A trigger resting on an assumed fact makes a conditional offence only.
    """
    p = law["permit"]
    act = actions(trees)
    n = len(trees)
    # "remove a tree for which a clearing permit is required": removals only, never a damaged tree
    harmed = np.isin(act, REMOVALS)
    d = dbh(trees)
    tags = trees["tag"].astype(str).to_numpy(object) if "tag" in trees else np.arange(n).astype(str)
    text = np.full(n, "", dtype=object)
    given = np.zeros(n, dtype=bool)
    depends = np.full(n, "", dtype=object)
    site_triggers: list[dict[str, Any]] = []
    assumptions: list[str] = []

    def add(section: str, mask: np.ndarray, what: str, on_assumed: np.ndarray | str = "") -> None:
        nonlocal text, given, depends
        mask = mask & harmed
        if not mask.any():
            return
        text = _join(text, mask, section)
        dep = np.broadcast_to(np.asarray(on_assumed, dtype=object), (n,))
        given = given | (mask & (dep == ""))
        depends = np.where(mask & (dep != ""), np.where(depends == "", dep, depends + "; " + dep), depends)
        site_triggers.append({"section": section, "text": what, "tags": [str(t) for t in tags[mask]]})

    vacant = site.get("vacant_lot")
    vacant_assumed = "vacant_lot" in assumed and "has_residence" in assumed
    vacant = (not parse_bool(site.get("has_residence", False))) if vacant is None else parse_bool(vacant)
    # (c) 10 in or more on any vacant lot
    if vacant:
        add(
            "§95-3A(1)(c)",
            d >= p["vacant_lot_min_dbh_in"],
            f"{p['vacant_lot_min_dbh_in']:g} in or more on a vacant lot",
            "vacant lot (has_residence not given, §95-3A(1)(c))" if vacant_assumed else "",
        )
    survey = _Survey(add, trees, site, p, d, harmed, assumptions, assumed)
    _large_lot(survey)
    _lot_line(survey, flags_not_surveyed)
    needed = harmed & (text != "")
    exceptions = [{"section": EXCEPTIONS[k][0], "text": EXCEPTIONS[k][1]} for k in EXCEPTIONS if site.get(k)]
    if site.get("village_work") or site.get("normal_farming"):
        needed = np.zeros(n, dtype=bool)  # § 95-3D(2), (3): the chapter does not apply / limit
    held = bool(site.get("permit_held", False)) or bool(site.get("subdivision_plans_approved"))
    offence = needed & (act == "removed") & (not held)
    definite = offence & given
    fine = np.where(offence, int(law["fine"]["per_tree_usd"]), 0).astype(np.int64)
    return WesleyHillsResult(
        [t.split("; ") if t else [] for t in text],
        needed,
        offence,
        fine,
        site_triggers,
        assumptions,
        exceptions,
        definite=definite,
        depends_on=np.where(offence & ~definite, depends, ""),
    )


@dataclass(frozen=True)
class _Survey:
    """What each §95-3A(1) trigger reads: the trigger recorder ``add``, the survey, site facts, law numbers,
    DBH and harmed arrays, the assumptions list it appends to and the site facts not given."""

    add: Any
    trees: pd.DataFrame
    site: dict[str, Any]
    p: dict[str, Any]
    d: np.ndarray
    harmed: np.ndarray
    assumptions: list[str]
    assumed: Any


def _large_lot(s: _Survey) -> None:
    """(d) lot of 1.5 acres or more: 10 in or more farther than 200 ft from an existing one-family residence."""
    add, trees, site, p, d = s.add, s.trees, s.site, s.p, s.d
    harmed, assumptions = s.harmed, s.assumptions
    area = site.get("lot_area_acres")
    if area is not None and float(area) < p["large_lot_min_acres"]:
        return
    dist = (
        pd.to_numeric(trees["distance_to_residence_ft"], errors="coerce").to_numpy(float)
        if "distance_to_residence_ft" in trees
        else np.full(len(trees), np.nan)
    )
    unknown = np.isnan(dist) & harmed & (d >= p["large_lot_min_dbh_in"])
    if unknown.any():
        assumptions.append(
            f"{int(unknown.sum())} tree(s) without distance_to_residence_ft are assumed farther "
            f"than {p['large_lot_residence_distance_ft']:g} ft from a residence (§95-3A(1)(d))"
        )
    far = np.isnan(dist) | (dist > p["large_lot_residence_distance_ft"])
    dep = np.where(np.isnan(dist), "distance_to_residence_ft not given (§95-3A(1)(d))", "")
    if area is None:
        dep = np.where(dep == "", "lot_area_acres not given (§95-3A(1)(d))", "lot_area_acres and " + dep.astype(object))
    add(
        "§95-3A(1)(d)",
        (d >= p["large_lot_min_dbh_in"]) & far,
        f"{p['large_lot_min_dbh_in']:g} in or more, farther than {p['large_lot_residence_distance_ft']:g} ft "
        f"from a one-family residence, on a lot of {p['large_lot_min_acres']:g} acres or more",
        dep.astype(object),
    )


def _lot_line(s: _Survey, flags_not_surveyed: Any) -> None:
    """(e) 6 in or more within 20 ft of a lot line on a lot without a one-family certificate of occupancy."""
    add, trees, site, p, d = s.add, s.trees, s.site, s.p, s.d
    harmed, assumptions, assumed = s.harmed, s.assumptions, s.assumed
    if site.get("one_family_co_issued", False):
        return
    n = len(trees)
    not_surveyed = "within_20ft_of_lot_line" in set(flags_not_surveyed or ())
    if "within_20ft_of_lot_line" in trees and not not_surveyed:
        col = trees["within_20ft_of_lot_line"].astype("boolean")
        blank = col.isna().to_numpy(bool)
        near = col.fillna(True).to_numpy(bool)
    else:
        blank = np.ones(n, dtype=bool)
        near = np.ones(n, dtype=bool)
    unknown = blank & harmed & (d >= p["lot_line_min_dbh_in"])
    if unknown.any():
        why = "the survey has no lot-line column: " if not_surveyed else ""
        assumptions.append(
            f"{why}{int(unknown.sum())} tree(s) without within_20ft_of_lot_line are assumed "
            f"within {p['lot_line_distance_ft']:g} ft of a lot line (§95-3A(1)(e))"
        )
    dep = np.where(blank, "within_20ft_of_lot_line not given (§95-3A(1)(e))", "").astype(object)
    if "one_family_co_issued" in assumed:
        dep = np.where(
            dep == "", "one_family_co_issued not given (§95-3A(1)(e))", dep + "; one_family_co_issued not given"
        ).astype(object)
    add(
        "§95-3A(1)(e)",
        (d >= p["lot_line_min_dbh_in"]) & near,
        f"{p['lot_line_min_dbh_in']:g} in or more within {p['lot_line_distance_ft']:g} ft of a lot line, "
        f"no one-family certificate of occupancy",
        dep,
    )


def assess(ctx: Context) -> Findings:
    """Chapter 95 on a valued survey (``ctx``: :class:`treecalc.assessment.Context`) -> findings.

    Returns the :class:`treecalc.results.Findings` ``(permit, replacement, fund, penalties, lines, site)``;
    the summary is Chapter 95's own figures (:class:`Chapter95Summary`).
    """
    from treecalc.results import Fund, Penalties, Replacement

    site, site_assumptions = resolve_site(ctx.site_in, SITE_DEFAULTS)
    assumed = frozenset(k for k in SITE_DEFAULTS if _not_given(ctx.site_in.get(k)))
    ctx.assumptions.extend(site_assumptions)
    trees, law, options = ctx.trees, ctx.law, ctx.options
    # flags the survey had no column for were filled with False by the reader: not a survey of them
    source = getattr(ctx.survey, "source", None) or {}
    not_surveyed = list(source.get("flags_not_surveyed") or []) if isinstance(source, dict) else []
    r = evaluate(trees, site, law, flags_not_surveyed=not_surveyed, assumed=assumed)
    ctx.assumptions.extend(r.assumptions)
    _tree_columns(trees, r)
    definite = r.definite if r.definite is not None else r.offence
    per = int(law["fine"]["per_tree_usd"])
    fine_def = int(definite.sum()) * per
    fine_cond = int((r.offence & ~definite).sum()) * per
    wh = _summary(ctx, r, law, fine_def, fine_cond)
    permit = Permit(
        required=wh.permit_required,
        triggers=r.site_triggers,
        exceptions_applied=r.exceptions_applied,
        trees_needing_permit=int(r.permit_needed.sum()),
        approving_authority="Planning Board (clearing permit, Wesley Hills Chapter 95, §95-3A(1))",
    )
    replacement = Replacement(
        required=False,
        percent=None,
        section="",
        value_basis=options["value_basis"],
        value_basis_label=options["value_basis_label"],
        removed_value_usd=None,
        required_value_usd=None,
        notes=[NO_REPLACEMENT_RULE + ": no replacement is computed"],
    )
    fund = Fund(
        basis=None, fund_in_lieu_usd=None, notes=["Wesley Hills Chapter 95 has no tree fund or payment in lieu"]
    )
    tags, depends = trees["tag"].astype(str).to_numpy(object), r.depends_on
    per_tree = [
        {
            "tag": str(tags[i]),
            "fine_max_usd": int(r.fine_usd[i]),
            "status": "definite" if definite[i] else "conditional",
            "offence_sections": PENALTY_SECTION,
            "depends_on": str(depends[i]) if depends is not None else "",
        }
        for i in np.flatnonzero(r.offence)
    ]
    penalties = Penalties(  # Chapter 95 has fines only: no §208-29 civil penalty, criminal fine or doubling
        fine_max_usd=fine_def,
        fine_conditional_usd=fine_cond,
        continuing_days=ctx.opts.continuing_days,
        offences=int(r.offence.sum()),
        offences_definite=int(definite.sum()),
        offences_conditional=int((r.offence & ~definite).sum()),
        per_tree=per_tree,
        notes=wh.notes,
        sections=[PENALTY_SECTION],
    )
    return Findings(permit, replacement, fund, penalties, _lines(ctx, r, wh, permit), site, wh)


def _not_given(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip())


def _tree_columns(trees: pd.DataFrame, r: WesleyHillsResult) -> None:
    definite = r.definite if r.definite is not None else r.offence
    trees["permit_triggers"] = ["; ".join(t) for t in r.triggers]
    trees["permit_needed"] = r.permit_needed
    trees["offence"] = r.offence
    trees["offence_status"] = np.where(definite, "definite", np.where(r.offence, "conditional", ""))
    trees["offence_sections"] = np.where(r.offence, PENALTY_SECTION, "")
    trees["offence_depends_on"] = r.depends_on if r.depends_on is not None else ""
    trees["counted"] = False
    trees["exclusion"] = ""
    trees["penalty_tier"] = np.where(r.offence, PENALTY_SECTION, "")
    trees["penalty_base_usd"] = r.fine_usd
    trees["penalty_max_usd"] = r.fine_usd
    trees["criminal_max_usd"] = np.zeros(len(trees), dtype=np.int64)


@dataclass(eq=False)
class Chapter95Summary(ChapterSummary):
    """Chapter 95's own figures: the permit, its triggers, the fines (``*_usd``), other violations per day."""

    title: ClassVar[str] = "Wesley Hills Chapter 95"
    short: ClassVar[str] = "Wesley Hills"
    default_section: ClassVar[str] = "Chapter 95"

    permit_required: bool
    triggers: list[dict[str, Any]]
    per_tree: list[dict[str, Any]]
    offences: int
    fine_per_tree_usd: int
    fine_max_usd: int
    fine_conditional_usd: int
    daily_fine_max_usd: int
    continuing_days: int
    other_violation_max_usd: int | None
    exceptions_applied: list[dict[str, str]]
    note: str
    notes: list[str]


def _summary(
    ctx: Context, r: WesleyHillsResult, law: dict[str, Any], fine_def: int, fine_cond: int
) -> Chapter95Summary:
    trees = ctx.trees
    damaged = int(trees["action"].isin(["damaged", "topped", "excessively_pruned"]).sum())
    daily = int(law["fine"]["other_per_day_usd"])
    days = int(ctx.opts.continuing_days)
    notes = [
        "Wesley Hills Chapter 95: maxima 'not more than'; a court sets the fine (or up to 15 days' imprisonment)",
        f"Chapter 95 other violations (not the removal of a tree): up to ${daily:,}, each day's continued "
        f"violation a separate violation ({OTHER_SECTION}); treecalc assesses no other violation",
        "Chapter 95 penalties A has no per-day clause: each tree removed without a clearing permit is one "
        f"violation (up to ${int(law['fine']['per_tree_usd']):,}); days of a continuing violation do not multiply it",
        "Chapter 95: fine_max_usd counts definite offences (facts given); a removal fined only through an "
        "assumed fact is conditional and summed apart (fine_conditional_usd)",
    ]
    if damaged:
        notes.append(
            f"{damaged} damaged tree(s) (topped, pruned or injured) still standing: Wesley Hills Chapter 95 regulates and "
            "fines the removal of trees only, so they need no clearing permit and are not fined"
        )
    return Chapter95Summary(
        permit_required=bool(r.permit_needed.any()),
        triggers=r.site_triggers,
        per_tree=[{"tag": str(t), "sections": s} for t, s in zip(trees["tag"], r.triggers) if s],
        offences=int(r.offence.sum()),
        fine_per_tree_usd=int(law["fine"]["per_tree_usd"]),
        fine_max_usd=fine_def,
        fine_conditional_usd=fine_cond,
        daily_fine_max_usd=daily,
        continuing_days=days,
        other_violation_max_usd=daily * days if days > 1 else None,
        exceptions_applied=r.exceptions_applied,
        note=NO_REPLACEMENT_RULE,
        notes=notes,
    )


def _lines(ctx: Context, r: WesleyHillsResult, wh: Chapter95Summary, permit: Permit) -> list[dict[str, Any]]:
    from treecalc.results import line

    daily, days = wh.daily_fine_max_usd, wh.continuing_days
    L = list(ctx.survey_lines)
    L.append(
        line(
            "Ch. 95",
            "Value basis",
            ctx.options["value_basis_label"],
            "",
            "tree values only: Wesley Hills Chapter 95 has no replacement-value rule",
        )
    )
    items = (
        "Clearing permit trigger (Wesley Hills Ch. 95)",
        "Exception (Wesley Hills Ch. 95)",
        "Clearing permit required (Wesley Hills Ch. 95)",
    )
    L += permit.statement_lines("§95-3A(1)", items, f"{permit.trees_needing_permit} tree(s)")
    L.append(line("Ch. 95", "Replacement", "none", "", NO_REPLACEMENT_RULE))
    L.append(line(PENALTY_SECTION, "Trees removed without a required clearing permit", wh.offences, "trees"))
    L.append(
        line(
            PENALTY_SECTION,
            "Fine, maximum",
            wh.fine_max_usd,
            "USD",
            f"up to ${wh.fine_per_tree_usd:,} per tree; definite offences only",
        )
    )
    L.append(
        line(
            PENALTY_SECTION,
            "Fine, conditional offences (on assumed facts)",
            wh.fine_conditional_usd,
            "USD",
            "up to, only if the assumed facts hold; not in the maximum",
        )
    )
    L.append(
        line(
            OTHER_SECTION,
            "Other violations, maximum per day",
            daily,
            "USD/day",
            "up to; each day's continued violation a separate violation; not the removal of a tree",
        )
    )
    if days > 1:
        L.append(
            line(
                OTHER_SECTION,
                f"Other violation continuing {days} days, maximum",
                daily * days,
                "USD",
                f"{days} x ${daily:,}, for each other violation the Engineer finds; not applied to the "
                f"per-tree fine, which has no per-day clause",
            )
        )
    return L
