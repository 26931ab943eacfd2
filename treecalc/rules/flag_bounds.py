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

from treecalc.law import entry, operator_of, readings

#: ``{permit[slope_percent]:g}`` in a label template: the entry whose number the label quotes
_QUOTED = re.compile(r"\{(\w+)\[(\w+)\]")
#: a number (a decimal point or comma) and the unit written after it, if any
_NUMBER = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(%|pct\b|percent\b|ft\b|feet\b|foot\b|'|\u2032|\u2019|m\b|meters?\b|metres?\b|yds?\b|"
    r"yards?\b|deg\w*|\u00b0|in\b|inch\w*|\")?",
    re.I,
)
#: the units a law's entry is in (its ``unit`` starts with the key), as a header may write them after a number
_UNITS = {"percent": {"%", "pct", "percent"}, "ft": {"ft", "feet", "foot", "'", "\u2032", "\u2019"}}
#: The words a header of the flag may hold besides its number: what the flag is ("slope", "lot line"), and the
#: comparison the law states, by the entry's operator. A header with any other word ("under", "not", "from", "<",
#: "20%+") or with two numbers, or a number in another unit (degrees, metres), says another fact than the law's:
#: none of its answers establishes the law's. These are treecalc's reading of the headers crews write, not law.
_FLAG_WORDS = {
    "slope_over_20pct": {"slope", "slopes", "sloped", "steep", "on", "a", "tree", "trees", "growing", "grade"},
    "within_20ft_of_lot_line": {
        "lot",
        "line",
        "lines",
        "property",
        "boundary",
        "of",
        "a",
        "any",
        "the",
        "tree",
        "near",
    },
}
_COMPARISON_WORDS = {
    ">": {"over", "greater", "than", "more", "above", "gt", ">"},
    "<=": {"within", "<=", "\u2264"},
}
#: what says a cell is yes/no, not part of the fact: "(Y/N)", "yes/no", a question mark
_YES_NO = re.compile(r"\(?\b(?:y\s*/\s*n|yes\s*/\s*no)\b\)?|\?", re.I)


def _header_of(survey: Any, flag: str) -> str | None:
    source = getattr(survey, "source", None) or {}
    headers = [h for h, f in (source.get("column_map") or {}).items() if f == flag]
    return str(headers[0]) if headers else None


def _read_header(header: str, flag: str, operator: str, unit: str) -> tuple[str, float | None]:
    """How a flag column's header is read against the law: ``("law", None)`` a header that names the flag without a
    number (read as the law's flag); ``("number", n)`` the law's comparison at the number ``n`` (in the law's unit);
    ``("other", None)`` a header that says another fact (another comparison, word, unit, or two numbers)."""
    # a snake_case header (treecalc's own column names, as its exports write them) is read as words: "20ft_of" would
    # otherwise hide the unit from ``ft\b``
    text = _YES_NO.sub(" ", header.replace("_", " "))
    numbers = list(_NUMBER.finditer(text))
    units = next((u for k, u in _UNITS.items() if unit.startswith(k)), set())
    for m in reversed(numbers):
        text = text[: m.start()] + " " + text[m.end() :]
    words = re.findall(r"[a-z]+|<=|>=|\u2264|\u2265|[<>+]", text.lower().replace("\u2264", " \u2264 "))
    family = ">" if operator in (">", ">=") else "<="
    allowed = _FLAG_WORDS.get(flag, set()) | _COMPARISON_WORDS[family]
    if any(w not in allowed for w in words) or len(numbers) > 1:
        return "other", None
    if not numbers:
        return "law", None
    said = numbers[0]
    if said[2] is not None and said[2].lower() not in units:
        return "other", None
    return "number", float(said[1].replace(",", "."))


def read_bounds(trees: pd.DataFrame, survey: Any, jurisdiction: str, law: dict[str, Any]) -> list[str]:
    """Mark as unclear (``trees["flags_unclear"]``, the flag taken as yes) the cells of each flag column whose header
    says another fact than the law's, where the answer does not establish the law's fact; returns the warnings
    that say so, each naming the column, the law's label (its number in force) and section, and the trees."""
    out: list[str] = []
    for flag, template in (readings(jurisdiction).get("column_labels") or {}).items():
        header = _header_of(survey, flag)
        quoted = _QUOTED.search(str(template))
        if header is None or quoted is None or flag not in trees:
            continue
        key = f"{quoted[1]}.{quoted[2]}"
        e, op = entry(jurisdiction, key), operator_of(jurisdiction, key)
        how, n = _read_header(header, flag, op, str(e.unit))
        bound = float(law[quoted[1]][quoted[2]])
        col = trees[flag].astype("boolean")
        label = str(template).format_map(law)
        if how == "law" or (how == "number" and n == bound):
            continue
        if how == "other":  # neither answer establishes the law's fact
            doubt = col.notna().to_numpy(bool)
            answer, why = "yes' or 'no", "its words are not the law's comparison at one number in its unit"
        else:
            assert n is not None
            # the answer that does not establish the law's fact: yes when the header's yes is a wider fact
            doubtful = (n < bound) if op in (">", ">=") else (n > bound)
            doubt = (col == doubtful).fillna(False).to_numpy(bool)
            answer, why = ("yes" if doubtful else "no"), f"its number is {n:g}, not {bound:g}"
        if not doubt.any():
            continue
        said = np.where(col.fillna(False).to_numpy(bool), "yes", "no")
        _mark_unclear(trees, flag, doubt, np.char.add(said, f" in the column {header!r}"))
        out.append(
            f"column {header!r} is read as {label!r} ({e.section}), but {why}: its {doubt.sum():,} "
            f"'{answer}' answer(s) do not establish the law's fact; taken as yes for the permit preview, and what "
            f"rests on them is conditional (tags {', '.join(trees.loc[doubt, 'tag'].astype(str).head(10))}"
            f"{', ...' if doubt.sum() > 10 else ''})"
        )
    return out


def _mark_unclear(trees: pd.DataFrame, flag: str, rows: np.ndarray, texts: np.ndarray) -> None:
    """``flag`` taken as yes on ``rows``, each recorded unclear with its text (the ``flags_unclear`` pairs)."""
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
        cells[i] = (*kept, (flag, str(texts[i])))
    trees["flags_unclear"] = pd.Series(cells, index=trees.index, dtype=object)
