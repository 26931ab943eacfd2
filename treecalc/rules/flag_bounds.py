"""A survey flag column whose header quotes a number other than the law's, read against the law in force.

A crew's "Slope over 10%" column is read as the slope flag, whose law (Croton-on-Hudson §208-19A(3)) reads
"slopes of over 20%"; a "Within 20 ft of a lot line" column, read under a Wesley Hills law amended to 30 ft
(§95-3A(1)(e)), says nothing of the trees 20 to 30 ft from the line. Which answers establish the law's fact
follows from the two numbers and the law's comparison (the entry's operator, as data):

- the law "over L" (``>``, ``>=``), the header "over N": a yes (over N) establishes "over L" when N >= L; a no (N or
  less) establishes "not over L" when N <= L;
- the law "within L" (``<``, ``<=``), the header "within N": a yes (within N) establishes "within L" when N <= L; a
  no (farther than N) establishes "not within L" when N >= L.

An answer that does not establish the law's fact is read as an unclear cell ("maybe"): taken as yes for the
permit preview, and what rests on it (a permit trigger of a tree removed, an offence) is conditional, never
definite; a fact not given never makes an offence. The law's number is the one its readings' ``[column_labels]``
template quotes (``{permit[slope_percent]:g}``), in force on the assessment's date: the label, the number and the
comparison are the law's data. Jurisdiction-neutral: a law whose readings label no flag with a number reads none.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

#: ``{permit[slope_percent]:g}`` in a label template: the entry whose number the label quotes
_QUOTED = re.compile(r"\{(\w+)\[(\w+)\]")
#: a number followed by the unit an entry is in (its ``unit`` starts with the word the pattern is keyed by)
_NUMBER_IN = {
    "percent": re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|pct\b|percent\b)", re.I),
    "ft": re.compile(r"(\d+(?:\.\d+)?)\s*(?:ft\b|feet\b|foot\b|')", re.I),
}


def _header_of(survey: Any, flag: str) -> str | None:
    source = getattr(survey, "source", None) or {}
    headers = [h for h, f in (source.get("column_map") or {}).items() if f == flag]
    return str(headers[0]) if headers else None


def read_bounds(trees: pd.DataFrame, survey: Any, jurisdiction: str, law: dict[str, Any]) -> list[str]:
    """Mark as unclear (``trees["flags_unclear"]``, the flag taken as yes) the cells of each flag column whose header
    quotes a number other than the law's, where the answer does not establish the law's fact; returns the warnings
    that say so, each naming the column, the two numbers and the section."""
    from treecalc.law import entry, operator_of

    out: list[str] = []
    for flag, template in (law.get("column_labels") or {}).items():
        header = _header_of(survey, flag)
        quoted = _QUOTED.search(str(template))
        if header is None or quoted is None or flag not in trees:
            continue
        key = f"{quoted[1]}.{quoted[2]}"
        e = entry(jurisdiction, key)
        pattern = next((p for w, p in _NUMBER_IN.items() if str(e.unit).startswith(w)), None)
        said = pattern.search(header) if pattern is not None else None
        if said is None:  # the header quotes no number in the law's unit ("Slope", "Steep slope"): read as the law's
            continue
        n, bound = float(said[1]), float(law[quoted[1]][quoted[2]])
        if n == bound:
            continue
        above = operator_of(jurisdiction, key) in (">", ">=")
        # the answer that does not establish the law's fact: yes when the header's yes is a wider fact than the law's
        doubtful_answer = (n < bound) if above else (n > bound)
        col = trees[flag].astype("boolean")
        doubt = (col == doubtful_answer).fillna(False).to_numpy(bool)
        if not doubt.any():
            continue
        answer = "yes" if doubtful_answer else "no"
        _mark_unclear(trees, flag, doubt, f"{answer} in the column {header!r}")
        label = str(template).format_map(law)
        out.append(
            f"column {header!r} is read as {label!r} ({e.section}: {e.text!r}), but its number is {n:g}, not "
            f"{bound:g}: its {doubt.sum():,} '{answer}' answer(s) do not establish the law's fact; taken as yes for "
            f"the permit preview, and what rests on them is conditional (tags "
            f"{', '.join(trees.loc[doubt, 'tag'].astype(str).head(10))}{', ...' if doubt.sum() > 10 else ''})"
        )
    return out


def _mark_unclear(trees: pd.DataFrame, flag: str, rows: np.ndarray, text: str) -> None:
    """``flag`` taken as yes on ``rows``, each recorded unclear with ``text`` (the ``flags_unclear`` pairs)."""
    values = trees[flag].astype("boolean").copy()
    values[rows] = True
    trees[flag] = values
    if "flags_unclear" in trees:
        cells = trees["flags_unclear"].to_numpy(object).copy()
    else:
        cells = np.empty(len(trees), dtype=object)
        cells.fill(())
    for i in np.flatnonzero(rows):
        kept = tuple(p for p in (cells[i] or ()) if p[0] != flag)
        cells[i] = (*kept, (flag, text))
    trees["flags_unclear"] = pd.Series(cells, index=trees.index, dtype=object)
