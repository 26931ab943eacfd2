"""The sections Chapter 208's rules cite, read from the law file, never written in the code: a number's section is
its entry's (:func:`cited`), a provision that states no number (an exception, a definition, an offence) is its
``[sections]`` record's (:func:`provision`), so a village's copy of the data folder that renumbers the chapter is
what every output cites. :func:`whole` and :func:`paragraph` cut a section to the part a sentence names.
"""

from __future__ import annotations

import functools
import re

from treecalc.law import loader as _loader

VILLAGE = "croton_on_hudson"

#: A section as the law file writes it: the chapter-section number, then its subsection and paragraphs.
_SECTION = re.compile(r"^(§ ?\d+-\d+)(.*)$")


@functools.cache
def cited(key: str) -> str:
    """The section of the entry ``key`` of Chapter 208 (``"replacement.percent"``), or of a bracket
    (``"penalty.civil_tiers"``): the section a rule applying that number cites."""
    found = _loader.entries(VILLAGE).get(key)
    if found is None:
        raise KeyError(f"{_loader.law_path(VILLAGE, _loader.TREE_CHAPTER[VILLAGE])} has no entry {key}")
    return found.section


_loader.CACHES.append(cited)


def provision(key: str) -> str:
    """The section of a provision of Chapter 208 that states no number (its record ``[sections.<key>]``)."""
    return _loader.provision(VILLAGE, key)


def whole(section: str) -> str:
    """The section a subsection is of, as a sentence naming the whole section says it."""
    m = _SECTION.match(section)
    return m.group(1) if m else section


def subsection(section: str) -> str:
    """A subsection without its paragraphs (the subsection of a paragraph)."""
    m = _SECTION.match(section)
    if not m:
        return section
    head, rest = m.groups()
    return head + rest.split("(", 1)[0]


def paragraph(section: str) -> str:
    """What follows the section number (its subsection and paragraphs), as a list after the first item says it
    ("§208-5C/D": the second item is its subsection letter alone)."""
    m = _SECTION.match(section)
    return m.group(2) if m else section


@functools.cache
def tier(n: int) -> str:
    """The section of the civil penalty tier ``n`` (its row of ``penalty.civil_tiers``)."""
    found = _loader.entries(VILLAGE).get("penalty.civil_tiers")
    for row in getattr(found, "rows", ()):
        if row.get("tier") == n:
            return str(row["section"])
    raise KeyError(f"{_loader.law_path(VILLAGE, _loader.TREE_CHAPTER[VILLAGE])}: penalty.civil_tiers has no tier {n}")


_loader.CACHES.append(tier)


def through(first: str, last: str) -> str:
    """A run of paragraphs of one subsection, as the ordinance writes it: "§208-29B(1)-(3)"."""
    return f"{first}-{last[last.rfind('(') :]}" if "(" in last else f"{first}-{last}"
