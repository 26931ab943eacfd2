"""Chapter 95 penalties A and B: the fines, and Chapter 95's own figures (:class:`Chapter95Summary`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from treecalc.results import ChapterSummary
from treecalc.rules.wesley_hills.permit import WesleyHillsResult
from treecalc.rules.wesley_hills.readings import NO_REPLACEMENT_RULE, OTHER_SECTION

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context


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
    days = int(ctx.opts.continuing_days)  # recorded: penalties A has no per-day clause, B is not assessed
    notes = [
        "Wesley Hills Chapter 95: maxima 'not more than'; a court sets the fine (or up to "
        f"{int(law['fine']['imprisonment_max_days'])} days' imprisonment, or both)",
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
        # penalties B's days count multiplies an other violation, and treecalc assesses none: no days total is
        # printed for a violation that is not there
        other_violation_max_usd=None,
        exceptions_applied=r.exceptions_applied,
        note=NO_REPLACEMENT_RULE,
        notes=notes,
    )
