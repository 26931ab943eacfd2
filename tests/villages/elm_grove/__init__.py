"""Elm Grove Chapter 7 (a village of the tests): § 7-2 permit, § 7-3 exceptions, § 7-5 fines.

A rules package as any village's: ``assess(ctx)`` returns :class:`treecalc.results.Findings`, every number
read from its law file (``law/elm_grove.toml``), every line naming its section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from treecalc.frames import actions, dbh
from treecalc.ingest.site import resolve_site, site_defaults
from treecalc.law import readings
from treecalc.results import Findings, Fund, Penalties, Permit, Replacement, line
from treecalc.schema import DONE, REMOVALS

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context

SITE_DEFAULTS: dict[str, tuple[Any, str]] = site_defaults("elm_grove", readings("elm_grove")["site_why"])
SECTIONS_APPLIED = ["§7-2", "§7-3", "§7-5"]
READING_ITEMS = [("§7-5", "§7-5 'for each tree so removed': a removal proposed is no offence; one done is one")]


def assess(ctx: Context) -> Findings:
    site, assumed = resolve_site(ctx.site_in, SITE_DEFAULTS)
    ctx.assumptions.extend(assumed)
    trees, numbers = ctx.trees, ctx.law
    act = actions(trees)
    min_dbh = float(numbers["permit"]["min_dbh_in"])
    village = bool(site["village_work"])
    needs = np.isin(act, REMOVALS) & (dbh(trees) >= min_dbh) & (not village)
    offence = needs & np.isin(act, DONE) & (not bool(site["permit_held"]))
    per = int(numbers["fine"]["per_tree_usd"])
    fine = int(offence.sum()) * per
    trees["permit_needed"], trees["offence"] = needs, offence
    trees["penalty_max_usd"] = np.where(offence, per, 0)
    triggers = (
        [
            {
                "section": "§7-2",
                "text": f"a tree of {min_dbh:g} in DBH or more removed",
                "tags": list(trees["tag"][needs]),
            }
        ]
        if needs.any()
        else []
    )
    exceptions = [{"section": "§7-3", "text": "work done by or on behalf of the Village"}] if village else []
    permit = Permit(bool(needs.any()), triggers, exceptions, int(needs.sum()), "Village Clerk (§7-2)")
    basis, label = ctx.options["value_basis"], ctx.options["value_basis_label"]
    replacement = Replacement(False, None, "", basis, label, None, None, notes=["Chapter 7 has no replacement rule"])
    fund = Fund(basis=None, fund_in_lieu_usd=None, notes=["Chapter 7 has no tree fund"])
    per_tree = [{"tag": str(t), "fine_max_usd": per, "offence_sections": "§7-5"} for t in trees["tag"][offence]]
    n = int(offence.sum())
    penalties = Penalties(
        fine_max_usd=fine,
        fine_conditional_usd=0,
        continuing_days=ctx.opts.continuing_days,
        offences=n,
        offences_definite=n,
        offences_conditional=0,
        per_tree=per_tree,
        sections=["§7-5"],
    )
    lines = ctx.survey_lines + permit.statement_lines(
        "§7-2", ("Permit trigger", "Exception", "Tree permit required"), "Village Clerk"
    )
    lines.append(
        line("§7-5", "Fine, maximum (trees removed without a permit)", fine, "USD", f"up to ${per:,} per tree")
    )
    return Findings(permit, replacement, fund, penalties, lines, site)
