"""What a person must never read on a page, in a report or in a statement's cell: a field name of the code, a raw
cell (``None``, ``True``, ``False``, ``nan``) or an amount of $1,000 or more written without its thousands separator.

The field names are read from the code and the data, never listed by hand: the site facts' keys
(:data:`treecalc.ingest.site.SITE_FIELDS`), the survey's columns (``treecalc/columns.csv``) and every key of the
assessment's JSON (:func:`treecalc.report.report_data`), each with an underscore (a one-word key is a word).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

#: a word: a path or a file name ("data/law/croton_on_hudson/fund.toml") is a word apart, not a field named
_WORD = re.compile(r"[^\s,;:()\[\]“”\"'’=]+")
RAW_CELLS = frozenset({"None", "True", "False", "nan", "NaN", "<NA>", "NaT"})
#: "$28000", "$1800.00": four digits or more before the point, no separator
_BARE_AMOUNT = re.compile(r"\$\d{4,}(?:\.\d+)?\b")


def json_keys(d: Any) -> set[str]:
    """Every key of a JSON document, at any depth (a list's dicts included)."""
    out: set[str] = set()
    if isinstance(d, Mapping):
        for k, v in d.items():
            out.add(str(k))
            out |= json_keys(v)
    elif isinstance(d, (list, tuple)):
        for v in d:
            out |= json_keys(v)
    return out


def field_names(*jsons: Any) -> set[str]:
    """The field names of the site facts, the survey's columns and the JSONs ``jsons``, with an underscore."""
    from treecalc.ingest.site import SITE_FIELDS
    from treecalc.schema import COLUMNS

    names = set(SITE_FIELDS) | set(COLUMNS)
    for d in jsons:
        names |= json_keys(d)
    return {n for n in names if "_" in n and re.fullmatch(r"[a-z][a-z0-9_]*", n)}


def problems(texts: Iterable[str], names: set[str]) -> list[str]:
    """Each field name, raw cell and unseparated amount in ``texts`` (a line each, with the text around it)."""
    assert names, "no field names to look for"
    out = []
    texts = [str(t) for t in texts]
    for i, t in enumerate(texts):
        if t.strip() in RAW_CELLS:
            out.append(f"raw cell {t.strip()!r} after {texts[max(0, i - 3) : i]!r}")
            continue
        for m in _WORD.finditer(t):
            w = m.group(0).strip(".")
            if "/" in w or re.search(r"\.(toml|csv|json|xlsx|py|pdf)$", w):
                continue
            if w in names:
                out.append(f"field {w!r} in: {t[max(0, m.start() - 60) : m.end() + 60]!r}")
        for m in _BARE_AMOUNT.finditer(t):
            out.append(f"amount {m.group(0)!r} in: {t[max(0, m.start() - 60) : m.end() + 60]!r}")
    return out
