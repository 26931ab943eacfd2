"""The statement's lines of Chapter 95 and the per-tree columns, each naming its section."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.results import Permit, line
from treecalc.rules.wesley_hills.penalties import Chapter95Summary
from treecalc.rules.wesley_hills.permit import WesleyHillsResult
from treecalc.rules.wesley_hills.readings import (
    NO_REPLACEMENT_RULE,
    OTHER_SECTION,
    PENALTY_SECTION,
    clearing_permit_section,
)

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context


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


def _lines(ctx: Context, r: WesleyHillsResult, wh: Chapter95Summary, permit: Permit) -> list[dict[str, Any]]:
    daily = wh.daily_fine_max_usd
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
    L += permit.statement_lines(clearing_permit_section(), items, f"{permit.trees_needing_permit} tree(s)")
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
    return L
