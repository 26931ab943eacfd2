"""Wesley Hills Chapter 95 (Clearing, Filling and Excavation): clearing permits for trees and fines.

§ 95-3A(1)(c)-(e) make the removal of some trees an "operation" needing a clearing
permit; removing such a tree without one is fined up to $5,000 per tree; other
violations up to $2,500 per day. Chapter 95 has no replacement-value rule, and
treecalc does not invent one. Numbers from ``data/law/wesley_hills/ch95_clearing.toml``.

Modules: :mod:`.permit` (§95-3A(1)(c)-(e), the exceptions), :mod:`.penalties` (the fines, Chapter 95's own
figures), :mod:`.lines` (the statement's lines), :mod:`.readings`; :func:`assess` here puts them together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from treecalc.ingest.site import resolve_site, site_defaults
from treecalc.results import Findings, Fund, Penalties, Permit, Replacement
from treecalc.rules.wesley_hills import readings as _readings
from treecalc.rules.wesley_hills.lines import _lines as _lines
from treecalc.rules.wesley_hills.lines import _tree_columns as _tree_columns
from treecalc.rules.wesley_hills.penalties import Chapter95Summary as Chapter95Summary
from treecalc.rules.wesley_hills.penalties import _summary as _summary
from treecalc.rules.wesley_hills.permit import EXCEPTIONS as EXCEPTIONS
from treecalc.rules.wesley_hills.permit import WesleyHillsResult as WesleyHillsResult
from treecalc.rules.wesley_hills.permit import evaluate as evaluate
from treecalc.rules.wesley_hills.readings import NO_REPLACEMENT_RULE as NO_REPLACEMENT_RULE
from treecalc.rules.wesley_hills.readings import OTHER_SECTION as OTHER_SECTION
from treecalc.rules.wesley_hills.readings import PENALTY_SECTION as PENALTY_SECTION
from treecalc.rules.wesley_hills.readings import PENALTY_SETTER as PENALTY_SETTER
from treecalc.rules.wesley_hills.readings import _not_given as _not_given
from treecalc.rules.wesley_hills.readings import clearing_permit_section, site_why
from treecalc.rules.wesley_hills.readings import reading_texts as reading_texts

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context


def assess(ctx: Context) -> Findings:
    """Chapter 95 on a valued survey (``ctx``: :class:`treecalc.rules.context.Context`) -> findings.

    Returns the :class:`treecalc.results.Findings` ``(permit, replacement, fund, penalties, lines, site)``;
    the summary is Chapter 95's own figures (:class:`Chapter95Summary`).
    """
    defaults = site_defaults("wesley_hills", site_why(ctx.law))  # in the words of the law in force on the date
    site, site_assumptions = resolve_site(ctx.site_in, defaults)
    assumed = frozenset(k for k in defaults if _not_given(ctx.site_in.get(k)))
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
        approving_authority=f"Planning Board (clearing permit, Wesley Hills Chapter 95, {clearing_permit_section()})",
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
    penalties = Penalties(  # Chapter 95 has fines only: no Chapter 208 civil penalty, criminal fine or doubling
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
    return Findings(permit, replacement, fund, penalties, _lines(ctx, r, wh, permit), site, wh, tuple(sorted(assumed)))


def __getattr__(name: str) -> Any:
    """The readings filled from the law (``SITE_DEFAULTS``, ``READINGS``, ``SECTIONS_APPLIED``, ``OFFENCE_RULE``),
    read when asked for, not at import."""
    if name in _readings._LAZY:
        return getattr(_readings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
