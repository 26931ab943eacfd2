"""The numbers of a companion chapter (Ch. 223 water, the excavation chapters) as exact decimals, each with its unit
and section: a view of the one loader's entries (:func:`treecalc.law.loader.entries`, validated when the file is
read), the value in force on the date concerned: the one :func:`law_on` sets while a bill or a permit is worked
out (a bill's due date), today otherwise.

``LAW = numbers("croton_on_hudson", "ch223_water")`` reads nothing when the module that holds it is imported: the
file is read, and refused if it breaks the schema, the first time a number of it is asked for.
"""

from __future__ import annotations

import datetime as _dt
import functools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal

from treecalc.law.loader import CACHES, entries, provision
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
def _numbers(village: str, chapter: str, on: _dt.date | None) -> dict[str, LawNumber]:
    return {
        key: LawNumber(Decimal(str(e.value)), e.unit, e.section, e.text)
        for key, e in entries(village, chapter, on).items()
        if isinstance(e, Entry)
    }


@functools.cache
def _amended_on(village: str, chapter: str) -> tuple[_dt.date, ...]:
    """The dates on which a number of the chapter took effect, in order."""
    dated = {d for e in entries(village, chapter).values() if isinstance(e, Entry) for d, _ in e.values}
    return tuple(sorted(dated))


@functools.cache
def _held_on(village: str, chapter: str, on: _dt.date) -> dict[str, LawNumber]:
    """The numbers in force on ``on``: read once per version of the chapter, not once per date (a bill's due date
    maps to the amendment in force), and looked up once per date (an account asks for them on every bill)."""
    amended = _amended_on(village, chapter)
    held = [d for d in amended if d <= on]
    return _numbers(village, chapter, held[-1] if held else on if amended else None)


CACHES.append(_numbers)
CACHES.append(_amended_on)
CACHES.append(_held_on)

#: The date whose law a companion's numbers are read on while a bill or a permit is worked out (None: today).
_ON: ContextVar[_dt.date | None] = ContextVar("treecalc_companion_law_on", default=None)


@contextmanager
def law_on(on: _dt.date | None) -> Iterator[None]:
    """Read the companions' numbers (:class:`LawNumbers`) in force on ``on`` while the block runs (None: today)."""
    token = _ON.set(on)
    try:
        yield
    finally:
        _ON.reset(token)


class LawNumbers(Mapping[str, LawNumber]):
    """A chapter's numbers by key (``LAW["relevy_day"].value``), read from the data folder when first asked for."""

    def __init__(self, village: str, chapter: str) -> None:
        self.village, self.chapter = village, chapter

    def _held(self) -> dict[str, LawNumber]:
        return _held_on(self.village, self.chapter, _ON.get() or _dt.date.today())

    def __getitem__(self, key: str) -> LawNumber:
        held = self._held()
        if key not in held:
            raise KeyError(f"law/{self.village}/{self.chapter}.toml has no entry {key}")
        return held[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._held())

    def __len__(self) -> int:
        return len(self._held())

    def provision(self, key: str) -> str:
        """The section of a provision of the chapter that states no number (an exception, a definition: its record
        ``[sections.<key>]``), as a sentence applying it cites it; LawSchemaError naming the file when it has none."""
        return provision(self.village, key, self.chapter)


def numbers(village: str, chapter: str) -> LawNumbers:
    """The numbers of ``data/law/<village>/<chapter>.toml``, read lazily (:class:`LawNumbers`)."""
    return LawNumbers(village, chapter)
