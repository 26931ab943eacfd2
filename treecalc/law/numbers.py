"""The numbers of a companion chapter (Ch. 223 water, the excavation chapters) as exact decimals, each with its unit
and section: a view of the one loader's entries (:func:`treecalc.law.loader.entries`, validated when the file is
read), the value in force today (these chapters' commands take no date of their own).

``LAW = numbers("croton_on_hudson", "ch223_water")`` reads nothing when the module that holds it is imported: the
file is read, and refused if it breaks the schema, the first time a number of it is asked for.
"""

from __future__ import annotations

import datetime as _dt
import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal

from treecalc.law.loader import CACHES, entries
from treecalc.law.schema import Entry


@dataclass(frozen=True)
class LawNumber:
    """One number of the law: its value, unit, section and the words it comes from."""

    value: Decimal
    unit: str
    section: str
    text: str = ""

    def __str__(self) -> str:
        return f"{self.value.normalize():f} {self.unit} ({self.section})"


@functools.cache
def _numbers(village: str, chapter: str, on: _dt.date) -> dict[str, LawNumber]:
    return {
        key: LawNumber(Decimal(str(e.value)), e.unit, e.section, e.text)
        for key, e in entries(village, chapter, on).items()
        if isinstance(e, Entry)
    }


CACHES.append(_numbers)


class LawNumbers(Mapping[str, LawNumber]):
    """A chapter's numbers by key (``LAW["relevy_day"].value``), read from the data folder when first asked for."""

    def __init__(self, village: str, chapter: str) -> None:
        self.village, self.chapter = village, chapter

    def _held(self) -> dict[str, LawNumber]:
        return _numbers(self.village, self.chapter, _dt.date.today())

    def __getitem__(self, key: str) -> LawNumber:
        held = self._held()
        if key not in held:
            raise KeyError(f"law/{self.village}/{self.chapter}.toml has no entry {key}")
        return held[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._held())

    def __len__(self) -> int:
        return len(self._held())


def numbers(village: str, chapter: str) -> LawNumbers:
    """The numbers of ``data/law/<village>/<chapter>.toml``, read lazily (:class:`LawNumbers`)."""
    return LawNumbers(village, chapter)
