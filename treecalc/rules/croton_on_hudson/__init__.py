"""Croton-on-Hudson Chapter 208 (Local Law Intro. No. 4 of 2025): permits, offences, replacement, penalties.

Pure rules on a table of trees and a dict of site facts; every number comes from
``data/law/croton_on_hudson/ch208_trees.toml``, readings ``data/readings/croton_on_hudson.toml`` and every finding names its section. Valuation
(what a tree is worth) is not here: see :mod:`treecalc.assessment`, which values the
trees and calls :func:`assess`.

Tree ``action`` values: ``retain``; ``remove`` (proposed: a permit application);
``removed``, ``topped``, ``excessively_pruned``, ``damaged`` (done: harmed already);
``transplant`` (moved, not removed: no harm assessed). The module follows the chapter:
permit triggers (§ 208-19), offences (§ 208-5, -11, -14, -18, -20F through § 208-29),
civil and criminal penalties (§ 208-29B, A), replacement (§ 208-22) and the fund (§ 208-24).

A module per group of sections, in the chapter's order: :mod:`.permit` (§208-19, §208-17), :mod:`.offences`
(§208-5 ... §208-29), :mod:`.penalties` (§208-29B, A), :mod:`.replacement` (§208-22, §208-6A), :mod:`.fund`
(§208-22D/F, §208-24) with :mod:`.schedule` (the §208-24C fee schedule), :mod:`.lines` (the statement's
lines), :mod:`.readings` (readings, notes, site facts assumed) and :mod:`.words` (the numbers the sentences are
filled from). :func:`assess` here puts them together.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pandas as pd

from treecalc.frames import actions, dbh, flag, set_text
from treecalc.frames import isin as _isin
from treecalc.frames import map_unique as _map_unique
from treecalc.ingest.site import fact_bool as parse_bool
from treecalc.ingest.site import resolve_site, site_defaults
from treecalc.law import readings as village_readings
from treecalc.law.schema import OPERATOR_WORDS
from treecalc.money import cents_sum, round2
from treecalc.reference import data
from treecalc.results import Findings, Replacement
from treecalc.rules.croton_on_hudson import readings as _readings
from treecalc.rules.croton_on_hudson.cite import cited, provision, whole
from treecalc.rules.croton_on_hudson.fund import _fund_findings as _fund_findings
from treecalc.rules.croton_on_hudson.fund import fee_schedule as fee_schedule
from treecalc.rules.croton_on_hudson.lines import _lines as _lines
from treecalc.rules.croton_on_hudson.lines import _tree_columns as _tree_columns
from treecalc.rules.croton_on_hudson.offences import OffenceResult as OffenceResult
from treecalc.rules.croton_on_hudson.offences import offences as offences
from treecalc.rules.croton_on_hudson.penalties import PenaltyResult as PenaltyResult
from treecalc.rules.croton_on_hudson.penalties import _penalty_findings as _penalty_findings
from treecalc.rules.croton_on_hudson.penalties import _plain_records as _plain_records
from treecalc.rules.croton_on_hudson.penalties import _times_days as _times_days
from treecalc.rules.croton_on_hudson.penalties import civil_tiers as civil_tiers
from treecalc.rules.croton_on_hudson.penalties import penalties as penalties
from treecalc.rules.croton_on_hudson.permit import EXCEPTIONS as EXCEPTIONS
from treecalc.rules.croton_on_hudson.permit import TRIGGERS as TRIGGERS
from treecalc.rules.croton_on_hudson.permit import PermitResult as PermitResult
from treecalc.rules.croton_on_hudson.permit import _permit_findings as _permit_findings
from treecalc.rules.croton_on_hudson.permit import not_given as not_given
from treecalc.rules.croton_on_hudson.permit import permit as permit
from treecalc.rules.croton_on_hudson.permit import village_work as village_work
from treecalc.rules.croton_on_hudson.planting import share_words
from treecalc.rules.croton_on_hudson.readings import OTHER_LAW_FLAGS as OTHER_LAW_FLAGS
from treecalc.rules.croton_on_hudson.readings import _blank as _blank
from treecalc.rules.croton_on_hudson.readings import _not_given as _not_given
from treecalc.rules.croton_on_hudson.readings import assessment_reading_items as assessment_reading_items
from treecalc.rules.croton_on_hudson.readings import dead_tree_reading as dead_tree_reading
from treecalc.rules.croton_on_hudson.readings import note_22g, site_why
from treecalc.rules.croton_on_hudson.readings import reading_items as reading_items
from treecalc.rules.croton_on_hudson.replacement import ReplacementParts as ReplacementParts
from treecalc.rules.croton_on_hudson.replacement import _parts as _parts
from treecalc.rules.croton_on_hudson.replacement import conditional_22f as conditional_22f
from treecalc.rules.croton_on_hudson.replacement import plan_replacement as plan_replacement
from treecalc.rules.croton_on_hudson.replacement import replacement_parts as replacement_parts
from treecalc.rules.croton_on_hudson.replacement import replacement_scope as replacement_scope
from treecalc.rules.croton_on_hudson.replacement import required_value as required_value
from treecalc.rules.croton_on_hudson.words import _pct as _pct
from treecalc.rules.croton_on_hudson.words import _words as _words
from treecalc.rules.pruning import pruned_short_of_excessive
from treecalc.schema import ACTIONS, DONE, HARMED, PRUNING, REMOVALS

#: When a harmed tree is an offence, as the Violations page says it over its tree pickers (every rules package's name)

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context


__all__ = [
    "ACTIONS",
    "DONE",
    "HARMED",
    "PRUNING",
    "REMOVALS",
    "actions",
    "cents_sum",
    "dbh",
    "flag",
    "parse_bool",
    "resolve_site",
]


def assess(ctx: Context) -> Findings:
    """Chapter 208 on a valued survey (``ctx``: :class:`treecalc.rules.context.Context`) -> Assessment parts.

    Returns the :class:`treecalc.results.Findings` ``(permit, replacement, fund, penalties, lines, site)``.
    """
    opts = ctx.opts
    site_in = dict(ctx.site_in)
    if opts.violation is not None:  # --violation decides it; a site fact "violation" otherwise
        site_in["violation"] = bool(opts.violation)
    # the chapter's words in force on the assessment's date (a count or window amended is quoted as amended)
    defaults = site_defaults("croton_on_hudson", site_why(ctx.law))
    site, site_assumptions = resolve_site(site_in, defaults)
    assumed = frozenset(k for k in defaults if _not_given(site_in.get(k)))
    ctx.assumptions.extend(site_assumptions)
    trees = ctx.trees
    law = ctx.law
    source = getattr(ctx.survey, "source", None)
    not_surveyed = frozenset(source.get("flags_not_surveyed") or ()) if isinstance(source, dict) else frozenset()
    _tree_fact_assumptions(ctx.assumptions, trees, site_in, law)
    pr = permit(trees, site, law, clear_cutting=opts.clear_cutting, assumed=assumed, not_surveyed=not_surveyed)
    set_text(trees, "permit_triggers", pr.trigger_text)
    trees["permit_needed"] = pr.permit_needed
    off = offences(trees, site, law, pr)
    pen = penalties(
        trees,
        site,
        law,
        pr,
        off,
        application_pending=bool(site.get("application_pending")),
        continuing_days=opts.continuing_days,
    )
    _tree_columns(trees, off, pen)
    if off.conditional.any():
        facts = "; ".join(sorted(set(off.depends_on[off.conditional])))
        ctx.assumptions.append(
            f"{int(off.conditional.sum())} offence(s) rest on facts not given ({facts}): conditional, their "
            "penalties summed apart"
        )
    parts = replacement_parts(trees, data.catalogue(), law, pr, off, violation=site.get("violation"))
    if parts.forestry_kept is not None:
        ctx.assumptions.append(
            f"{provision('good_forestry')}: {int(parts.forestry_kept.sum())} tree(s) counted toward the "
            f"{cited('replacement.percent')} replacement though "
            "their good_forestry cell is neither yes nor no (named in their warnings): no determination of good "
            "forestry practice is given, so the permit preview keeps the replacement"
        )
    penalties_f = _penalty_findings(trees, site, law, pr, off, pen)
    replacement, fund = _replacement_findings(ctx, trees, law, pr, parts)
    permit_f = _permit_findings(trees, pr)
    lines = _lines(ctx, trees, law, permit_f, off, pen, replacement, fund)
    return Findings(permit_f, replacement, fund, penalties_f, lines, site, site_assumed=tuple(sorted(assumed)))


def _tree_fact_assumptions(
    assumptions: list[str], trees: pd.DataFrame, site_in: dict[str, Any], law: dict[str, Any]
) -> None:
    """A per-tree column says what the site fact would: the site fact's assumption is then said of the trees
    whose cell is blank (not given), or not at all when every tree harmed has its cell given."""
    harmed = _isin(actions(trees), HARMED)
    # the Department's approval is read of street trees only, harmed or pruned short of excessive pruning (the
    # approval conditions.street_tree_pruning_min_percent asks for)
    street = flag(trees, "street_tree") & (harmed | pruned_short_of_excessive(trees, "croton_on_hudson", law))
    for fact, col, on in (
        ("permit_held", "permit", harmed),
        ("village_work", "village_work", harmed),
        ("department_approval", "department_approval", street),
    ):
        if col not in trees or not _not_given(site_in.get(fact)):
            continue
        said = _readings.SITE_DEFAULTS[fact][1]
        col_blank = _map_unique(trees[col].astype(object).to_numpy(object), lambda v: "y" if _blank(v) else "")
        blank = int((on & (col_blank == "y")).sum())
        i = assumptions.index(said) if said in assumptions else len(assumptions)
        if said in assumptions:
            assumptions.remove(said)
        if blank:
            assumptions.insert(i, f"{blank} tree(s) harmed with a blank {col} cell: {said}")


def _replacement_findings(
    ctx: Context, trees: pd.DataFrame, law: dict[str, Any], pr: PermitResult, parts: ReplacementParts
) -> tuple[Any, Any]:
    rules = law["replacement"]
    opts = ctx.opts
    a_22a, a_22f = cited("replacement.percent"), cited("replacement.violation_percent")
    counted = parts.violation_part | parts.permit_part
    trees["counted"] = counted
    set_text(trees, "exclusion", parts.exclusion)
    part_list = _parts(ctx, trees, law, parts)
    required = any(p.percent > 0 for p in part_list)  # a 0 % share of any value requires nothing
    # summed in exact cents (the parts' floats lose the cents of a very large value)
    required_cents = sum(int(p.required_value_cents or 0) for p in part_list)
    removed_cents = sum(int(p.value_cents or 0) for p in part_list)
    required_usd = float(Decimal(required_cents) / 100)
    removed_usd = float(Decimal(removed_cents) / 100)
    if opts.replacement_percent is not None and not parts.violation_part.any():
        ctx.warnings.append(
            f"a replacement percentage was given but applies only after a violation ({a_22f}): "
            f"{rules['percent']}% ({a_22a}) is used"
        )
    section = "; ".join(p.section for p in part_list) or (a_22f if parts.violation else a_22a)
    percent = part_list[0].percent if len(part_list) == 1 else None
    pct_note = "; ".join(f"{p.section}: {p.reason}" for p in part_list) or "nothing to replace"
    plan_out = plan_replacement(ctx, law, required_usd if required else 0.0, required)
    fund = _fund_findings(ctx, trees, parts, plan_out, required, part_list)
    conditional = conditional_22f(ctx, trees, law, parts, plan_out["options"])
    pl, rep_warnings, rep_notes = plan_out["plan"], plan_out["warnings"], plan_out["notes"]
    if parts.violation_part.any() and required:
        rep_notes.append(
            f"{a_22f}: the applicant may instead pay the Tree Preservation Fund a sum equivalent to "
            f"{_pct(rules['violation_percent'])} of the value destroyed, or combine planting and payment"
        )
    rep_notes.append(
        f"{whole(a_22a)}: {_pct(law['replacement']['violation_percent'])} (or the Engineer's percentage) only on the "
        f"trees harmed in offences, {_pct(law['replacement']['percent'])} on the removals proposed under a permit "
        f"for {_words(law['replacement']['min_trees'])} or more trees; a lawful removal that needs no "
        "permit, or a tree only damaged without an offence, carries nothing"
    )
    rep_notes.append(note_22g(law))
    ctx.warnings.extend(rep_warnings)
    ex = parts.exclusion != ""
    excluded = _plain_records(
        pd.DataFrame(
            {
                "tag": trees["tag"].to_numpy(object)[ex],
                "species_code": trees["species_code"].to_numpy(object)[ex],
                "reason": parts.exclusion[ex],
            },
            dtype=object,
        )
    )
    replacement = Replacement(
        required=required,
        percent=percent,
        section=section,
        value_basis=ctx.options["value_basis"],
        value_basis_label=ctx.options["value_basis_label"],
        removed_value_usd=removed_usd,
        required_value_usd=required_usd if required else 0.0,
        removed_value_cents=removed_cents,
        required_value_cents=required_cents if required else 0,
        parts=part_list,
        percent_note=pct_note,
        violation=parts.violation,
        trees_counted=int(counted.sum()),
        removals_under_permit=parts.removals_under_permit,
        min_trees=rules["min_trees"],
        excluded=excluded,
        stock=plan_out["stock"],
        plan=plan_out["rows"],
        trees_needed=plan_out["trees_needed"] if required else 0,
        trees_planted=plan_out["planted"],
        trees_in_lieu=int(pl.trees_in_lieu) if required else 0,
        planted_value_usd=round2(pl.planted_value_usd),
        unmet_value_usd=round2(pl.unmet_value_usd),
        planting_cost_usd=round2(pl.planting_cost_usd),
        native_share=plan_out["native_share"],
        native_planted=plan_out["native_planted"],
        policy=pl.policy,
        status=pl.status,
        warnings=rep_warnings,
        notes=rep_notes,
        conditional_22f=conditional,
        said=_replacement_said(law),
    )
    return replacement, fund


def _replacement_said(law: dict[str, Any]) -> dict[str, str]:
    """What the statement says of §208-22A's count and §208-22C's native share, in the law of the assessment's date:
    ``min_trees`` "three", ``native_share`` "§208-22C: natives should be more than half of the trees planted"."""
    # the native share's "predominantly": treecalc's reading, not the law
    r = village_readings("croton_on_hudson")["replacement"]
    op, share = OPERATOR_WORDS[str(r["predominantly_native_operator"])], float(r["predominantly_native_share"])
    return {
        "min_trees": _words(law["replacement"]["min_trees"]),
        "native_share": f"{provision('native_species')}: natives should be {op} {share_words(share)} of the trees planted",
    }


def __getattr__(name: str) -> Any:
    """The readings filled from the law (``SITE_DEFAULTS``, ``READINGS`` ...), read when asked for, not at import."""
    if name in _readings._LAZY:
        return getattr(_readings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
