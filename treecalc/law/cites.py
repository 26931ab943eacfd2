"""The sections the outputs cite, read from the law file (never retyped): an entry's, a bracket's or one of its rows',
or a provision's record (``[sections]``: a section the outputs cite that sets no number, the value basis), and
the shorter forms a sentence cites them by (the whole section, the subsection).

An amendment renumbering a section is an edit of the law file: every figure and sentence that cites it follows.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping
from typing import Any

from treecalc.law.loader import CACHES, TREE_CHAPTER, _raw, entries, law_path
from treecalc.law.registry import DEFAULT, by_key, jurisdiction_key
from treecalc.law.schema import PROVISIONS, Bracket
from treecalc.messages import head, joined, letter, subsection

__all__ = [
    "cite",
    "companion",
    "every_chapter",
    "head",
    "joined",
    "letter",
    "of",
    "provisions",
    "section",
    "sections",
    "subsection",
]

#: a bracket's row by its ``tier`` (``penalty.civil_tiers[3]``)
_ROW = re.compile(r"^(.+)\[(\w+)\]$")


def provisions(village: str, chapter: str | None = None) -> dict[str, str]:
    """The sections of the ``[sections]`` records of ``village``'s tree chapter (or of its file ``chapter``,
    ``"ch120_excavation"``) by name (``"valuation_method"``: "§208-22B")."""
    key = jurisdiction_key(village)
    raw = _raw(law_path(key, chapter or TREE_CHAPTER[key])).get(PROVISIONS) or {}
    return {k: v["section"] for k, v in raw.items()}


def sections(village: str, on: dt.date | None = None) -> dict[str, str]:
    """Every section the tree chapter of ``village`` cites, by key: each entry's and bracket's (its dotted key,
    ``"replacement.percent"``), each bracket row's (``"penalty.civil_tiers[3]"``, by its ``tier``) and each
    provision's (``"sections.valuation_method"``). Read-only (shared)."""
    return _sections(jurisdiction_key(village), on)


@functools.cache
def _sections(key: str, on: dt.date | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for k, e in entries(key, on=on).items():
        out[k] = e.section
        if isinstance(e, Bracket):
            for row in e.rows:
                if "tier" in row:
                    out[f"{k}[{row['tier']}]"] = str(row["section"])
    out.update({f"{PROVISIONS}.{k}": s for k, s in provisions(key).items()})
    return out


CACHES.append(_sections)


def every_chapter(village: str, on: dt.date | None = None) -> dict[str, str]:
    """:func:`sections`, and each entry and provision's record of the village's other chapters by ``<file>:<key>``
    (``"ch120_excavation:deep_cut_depth"``, ``"ch120_excavation:sections.building_permit"``): what a page or a
    command about another chapter cites a record's words with (:func:`treecalc.law.registry.said`)."""
    key = jurisdiction_key(village)
    out = dict(sections(key, on))
    for name in by_key(key).law_files:
        if name != TREE_CHAPTER[key]:
            out.update({f"{name}:{k}": e.section for k, e in entries(key, name, on=on).items()})
            out.update({f"{name}:{PROVISIONS}.{k}": s for k, s in provisions(key, name).items()})
    return out


def companion(village: str, key: str, on: dt.date | None = None) -> str:
    """The section of the entry or provision ``key`` (``"permit_term"``, ``"sections.building_permit"``) of the one
    chapter of ``village`` beside its tree chapter that holds it (its excavation or water chapter), read from the
    law file without the chapter's rules (a command's help cites it); KeyError naming the key when no chapter, or
    more than one, holds it."""
    found = [s for k, s in every_chapter(village, on).items() if ":" in k and k.partition(":")[2] == key]
    if len(found) != 1:
        raise KeyError(f"{key}: {len(found)} chapters of {village} beside its tree chapter hold it, not one")
    return found[0]


def section(village: str, key: str, on: dt.date | None = None) -> str:
    """The section ``key`` cites (an entry's dotted key, a bracket row ``penalty.civil_tiers[3]``, a provision
    ``sections.valuation_method``) in the tree chapter of ``village``; KeyError naming the key and the file."""
    held = sections(village, on)
    if key not in held:
        v = jurisdiction_key(village)
        raise KeyError(f"{law_path(v, TREE_CHAPTER[v])} has no entry or provision {key}")
    return held[key]


def of(found: Mapping[str, Any], key: str) -> str:
    """The section of the entry ``key`` a finding carries (:attr:`treecalc.results.Replacement.entries`), or of a
    bracket row ``penalty.civil_tiers[3]``; KeyError naming the key when the finding applied no such entry."""
    m = _ROW.match(key)
    e = found.get(m[1] if m else key)
    if e is None:
        raise KeyError(f"the finding applied no entry {key}")
    if m:
        return str(next(r["section"] for r in e.rows if str(r.get("tier")) == m[2]))
    return str(e.section)


def cite(held: Mapping[str, str] | None, key: str, on: dt.date | None = None) -> str:
    """The section ``key`` cites: of ``held`` (the sections an assessment recorded, :attr:`treecalc.results.
    QuotedLabels.sections`) when it has it, else of the registry's default law in force on ``on`` (a page's words
    written before any assessment, or of a part another law lacks, as the default law cites it)."""
    if held and key in held:
        return held[key]

    return section(DEFAULT, key, on)
