"""The law in force on a date as typed nodes: ``at("croton_on_hudson", on).replacement.percent`` is the
:class:`~treecalc.law.schema.Entry` of §208-22A (value, unit, section, text, operator, its dated values), as
OpenFisca's ``parameters(period)`` gives nodes with their metadata.

A group of the file (``[permit]``, ``[replacement]``) is a :class:`Node`: its entries, brackets and groups are its
attributes (and its items: a node is a mapping, iterable in the file's order). A name the file does not hold is
:class:`MissingEntry` naming the file and the dotted key, both an AttributeError and a KeyError. treecalc's own
readings of a chapter (``data/readings/<village>.toml``) are not the law's and are not in it: :func:`readings`.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
from collections.abc import Iterator, Mapping
from typing import Any, Union

from treecalc.law.loader import CACHES, TREE_CHAPTER, _bracket, _check_date, _raw, law_path
from treecalc.law.registry import jurisdiction_key
from treecalc.law.schema import META_KEYS, Bracket, Entry, as_date, is_bracket, is_entry, value_on


class MissingEntry(KeyError, AttributeError):
    """A name a law file does not hold: says the file and the dotted key (not a bare ``'percent'``)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


Item = Union["Node", Entry, Bracket]


class Node(Mapping[str, Item]):
    """A group of a law file in force on a date: ``node.percent`` / ``node["percent"]`` is its entry."""

    def __init__(self, file: str, key: str, items: dict[str, Item]) -> None:
        self._file, self._key, self._items = file, key, items

    def _missing(self, name: str) -> MissingEntry:
        dotted = f"{self._key}.{name}" if self._key else name
        return MissingEntry(f"{self._file} has no entry {dotted}")

    def __getattr__(self, name: str) -> Item:
        if name.startswith("__") or name in ("_file", "_key", "_items"):
            raise AttributeError(name)  # copy, pickle and the dataclass machinery ask for these
        try:
            return self._items[name]
        except KeyError:
            raise self._missing(name) from None

    def __getitem__(self, name: str) -> Item:
        try:
            return self._items[name]
        except KeyError:
            raise self._missing(name) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Node({self._file}{' [' + self._key + ']' if self._key else ''}: {', '.join(self._items)})"

    @property
    def key(self) -> str:
        """The node's dotted key in its file (``"replacement"``; ``""`` for the chapter itself)."""
        return self._key

    def entries(self) -> Iterator[Entry | Bracket]:
        """Every entry and bracket under this node, depth first in the file's order."""
        for v in self._items.values():
            if isinstance(v, Node):
                yield from v.entries()
            else:
                yield v


def _node(t: dict[str, Any], file: str, key: str, on: dt.date | None) -> Node:
    items: dict[str, Item] = {}
    for k, v in t.items():
        if not isinstance(v, dict) or (not key and k in META_KEYS):
            continue
        dotted = f"{key}.{k}" if key else k
        if is_entry(v):
            value, dated = value_on(v, on, dotted)
            items[k] = Entry(dotted, value, v["unit"], v["section"], v["text"], v.get("operator"), dated)
        elif is_bracket(v):
            items[k] = _bracket(v, dotted, on)
        else:
            items[k] = _node(v, file, dotted, on)
    return Node(file, key, items)


def at(village: str, on: dt.date | str | None = None, chapter: str | None = None) -> Node:
    """The chapter (the tree chapter when ``chapter`` is not given: ``"ch223_water"`` another) of ``village`` (any
    spelling the registry accepts: ``"croton-on-hudson"``) in force on ``on`` (a date, a date-time or ISO text as
    :func:`treecalc.assess` takes it; None: the latest held) as typed nodes, validated when read;
    :class:`~treecalc.law.schema.LawNotInForce` for a date before the chapter's effective date. Read-only: the
    nodes and entries are shared."""
    return _at(jurisdiction_key(village), as_date(on, "on"), chapter)


@functools.cache
def _at(village: str, on: dt.date | None, chapter: str | None) -> Node:
    name = chapter or TREE_CHAPTER[village]
    _check_date(village, name, on)
    return _node(_raw(law_path(village, name)), law_path(village, name), "", on)


CACHES.append(_at)


def readings(village: str) -> dict[str, Any]:
    """treecalc's own readings of the village's law (``data/readings/<village>.toml``: assumed defaults, the
    words of its assumptions, labels), kept apart from the law's numbers. A fresh copy."""
    return copy.deepcopy(_raw(f"readings/{village}.toml"))


def readings_shared(village: str) -> dict[str, Any]:
    """:func:`readings` read only, not copied: for a reader that only reads a table of it (the labels every page
    of the app fills several hundred times a run, where a deep copy of the whole file each time was a third of the
    Permit page's time). Never changed by its caller."""
    return _raw(f"readings/{village}.toml")
