"""What the outputs say where a part of the law is not held (:class:`treecalc.results.NotHeld`: the permit, the fund,
the penalties of a town whose text treecalc read in part): "not held (see <section>)" in the place of the figure,
never the 0, "no" or empty value its finding holds there. Read from the findings only (no law is read here), so
that the statement, the PDF report, the GIS layers and the app say it alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from treecalc.assessment import Assessment
    from treecalc.results import NotHeld

__all__ = [
    "counts_trees",
    "credits_value",
    "parts_not_held",
    "replacement_not_held",
    "trees_as_held",
    "TREE_COLUMNS_OF",
]

#: The per-tree column of each part that is not held: whether a tree's removal needs the permit, whether it is an
#: offence (the finding holds empty and "no" for them)
TREE_COLUMNS_OF = {"permit": "permit_needed", "penalties": "offence"}


def parts_not_held(a: Assessment) -> dict[str, NotHeld]:
    """Each part of the assessment's law its findings say is not held ("permit", "fund", "penalties"), in that
    order; {} for a law held whole."""
    found: dict[str, NotHeld | None] = {
        "permit": a.permit.not_held if a.permit is not None else None,
        "fund": a.fund.not_held if a.fund is not None else None,
        "penalties": a.penalties.not_held if a.penalties is not None else None,
    }
    return {part: n for part, n in found.items() if n is not None}


def trees_as_held(a: Assessment, trees: pd.DataFrame) -> pd.DataFrame:
    """``trees`` (the assessment's, or a copy of them) with the column of each part not held saying so in every row
    (:data:`TREE_COLUMNS_OF`); the frame as given when every part is held."""
    for part, held_not in parts_not_held(a).items():
        column = TREE_COLUMNS_OF.get(part)
        if column is not None and column in trees:
            trees = trees.assign(**{column: pd.Series(held_not.short, index=trees.index, dtype=object)})
    return trees


def counts_trees(a: Assessment) -> bool:
    """Whether the law applied counts replacement trees by class (its finding gives each removed tree's count): it
    prices no stock, so no plan is made, the planting is not costed and the share of value's texts are empty."""
    return a.replacement is not None and a.replacement.trees_by_tag is not None


def credits_value(a: Assessment) -> bool:
    """Whether the law applied requires a value of the replacements and credits the trees planted against it
    without pricing a stock (a share-of-value town held as data): no plan is made and the planting is not costed,
    and it counts no trees (its figures are values)."""
    rep = a.replacement
    return rep is not None and rep.trees_by_tag is None and bool(rep.required) and rep.planting_cost_usd is None


def replacement_not_held(a: Assessment) -> dict[str, NotHeld]:
    """The replacement's figures that rest on a part of the law not held, by field: whether it is a violation (the
    penalties'), the removals under a permit (the permit's)."""
    held = parts_not_held(a)
    fields = {"violation": held.get("penalties"), "removals_under_permit": held.get("permit")}
    return {k: v for k, v in fields.items() if v is not None}
