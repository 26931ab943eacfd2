"""A tree's facts changed in the app (action, street tree, slope, landmark, permit, condition), like editing
the spreadsheet: applied to the survey's trees before ``assess``, and each change said in words ("changed in
the app") in the survey's warnings, which the statement, the PDF and the saved project carry."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from treecalc.ingest.values import parse_condition
from treecalc.law.access import column_labels

#: The per-tree facts the tree table lets the user change, in words. A per-tree permit column is among
#: them when the survey reader gives one (its name: :data:`PERMIT_COLUMNS`).
FLAGS = {
    "street_tree": "street tree",
    "slope_over_20pct": "slope over 20%",
    "excessively_steep_slope": "excessively steep slope",
    "landmark": "landmark tree",
}
PERMIT_COLUMNS = ("permit_held", "has_permit", "permit")
TEXTS = {"condition": "condition"}

#: The actions a tree can be given in the app (the survey reader's normalised actions)
ACTIONS = ("retain", "remove", "removed", "damaged", "topped", "excessively_pruned", "transplant")

#: Notes that suggest a flag the survey did not set: (words in the notes, the flag)
SUGGESTIONS = (
    # "ROW" (right-of-way) in capitals only: "a row of trees" is no street tree
    (re.compile(r"(?i:\bstreet\s*tree\b|\bright[- ]of[- ]way\b|\bcurb\s*strip\b)|\bROW\b"), "street_tree"),
    (re.compile(r"excessively\s+steep", re.I), "excessively_steep_slope"),
    (re.compile(r"\bsteep\b|\bslope\b", re.I), "slope_over_20pct"),
    (re.compile(r"\blandmark\b|\bheritage\b|\bspecimen\b", re.I), "landmark"),
)


def fact_names(trees: pd.DataFrame) -> dict[str, str]:
    """The facts of this survey the table can change: {column: words}; a flag whose words quote a law's number
    ("slope over 20%") in the words of the law files."""
    by_law = {c: w[:1].lower() + w[1:] for c, w in column_labels().items()}
    flags = {c: by_law.get(c, w) for c, w in FLAGS.items()}
    permit = {c: "permit held" for c in PERMIT_COLUMNS if c in trees}
    return {c: w for c, w in {**flags, **dict(list(permit.items())[:1]), **TEXTS}.items() if c in trees}


def _said(v: Any) -> str:
    if v is None or (isinstance(v, float) and v != v) or v is pd.NA:
        return "not given"
    if isinstance(v, bool) or str(v) in ("True", "False"):
        return "yes" if str(v) == "True" else "no"
    return str(v) if str(v).strip() else "not given"


def apply(trees: pd.DataFrame, actions: dict[str, str] | None, facts: dict[str, dict[str, Any]] | None):
    """``trees`` with the actions {tag: action} and facts {tag: {column: value}} set; and the changes in
    words, one per tree and fact whose value the survey had otherwise."""
    trees = trees.copy()
    tags = trees["tag"].astype(str)
    changes: list[str] = []
    names = fact_names(trees)
    for tag, action in (actions or {}).items():
        sel = tags == str(tag)
        was = sorted(set(trees.loc[sel, "action"].astype(str)))
        if sel.any() and was != [action]:
            changes.append(f"Tree {tag}: action changed in the app to {action} (the survey: {', '.join(was)})")
        trees.loc[sel, "action"] = action
    for tag, row in (facts or {}).items():
        sel = tags == str(tag)
        if not sel.any():
            continue
        for col, value in row.items():
            if col not in names:
                continue
            was = trees.loc[sel, col].iloc[0]
            if col == "condition":  # read as the survey reader reads the column: "75%" is good, "Fair " fair
                code = parse_condition(value)
                if code is None:  # a text no condition class reads would stop the assessment: not taken
                    changes.append(
                        f"Tree {tag}: condition {str(value)[:60]!r} given in the app is not recognised (excellent, "
                        f"good, fair, poor, dead); the survey's is kept ({_said(was)})"
                    )
                    continue
                value = code
            if _said(was) == _said(value):
                continue
            if col in TEXTS:
                trees[col] = trees[col].astype(object)
            trees.loc[sel, col] = value
            changes.append(f"Tree {tag}: {names[col]} changed in the app to {_said(value)} (the survey: {_said(was)})")
    return trees, changes


def suggested(trees: pd.DataFrame, facts: dict[str, dict[str, Any]] | None) -> list[tuple[str, str, str]]:
    """(tag, column, the notes' text) for each tree whose notes suggest a flag it does not have (yet)."""
    if "notes" not in trees:
        return []
    facts = facts or {}
    names = fact_names(trees)
    out = []
    for tag, note, row in zip(trees["tag"].astype(str), trees["notes"].astype(str), trees.to_dict("records")):
        if not note.strip() or note == "nan":
            continue
        for pattern, col in SUGGESTIONS:
            if col in names and pattern.search(note):
                have = facts.get(tag, {}).get(col, row.get(col))
                if _said(have) != "yes":
                    out.append((tag, col, note))
                break
    return out
