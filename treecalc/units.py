"""Money, dates and the law's numbers: small shared helpers.

- :func:`to_decimal`, :func:`cents`, :func:`parse_money_cents`: exact money (Decimal, half-up
  to the cent) from user text, with a message naming the flag or column on bad input.
- :func:`to_date`, :func:`add_months`: ISO dates and calendar-month arithmetic.
- :func:`bounded`: a number in a stated range, refused with a message naming the input.
- :class:`LawNumber`, :func:`load_law_numbers`: a number of the law with its unit and section,
  read from ``data/law/*.toml`` (each entry ``{value, unit, section, text}``).

References
----------
.. [1] Python ``decimal`` module, ``ROUND_HALF_UP`` (the rounding of a clerk's ledger).
"""

from __future__ import annotations

import calendar
import datetime as _dt
import tomllib
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "CENT",
    "MAX_MONEY",
    "to_decimal",
    "cents",
    "parse_money_cents",
    "to_date",
    "add_months",
    "bounded",
    "LawNumber",
    "load_law_numbers",
    "LAW_DIR",
]

CENT = Decimal("0.01")
#: Largest amount of money accepted (USD): far above any bill, far below decimal's precision.
MAX_MONEY = Decimal(10) ** 12
LAW_DIR = Path(__file__).resolve().parent.parent / "data" / "law"


def to_decimal(x: Any, name: str = "amount", limit: Decimal | None = MAX_MONEY) -> Decimal:
    """``x`` as an exact Decimal (floats through ``str`` so 0.1 stays 0.1; '$1,234.50' accepted).

    Raises ValueError naming ``name`` if ``x`` is not a finite number or ``|x| >= limit``.
    """
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a number, got {x!r}")
    try:
        d = x if isinstance(x, Decimal) else Decimal(str(x).strip().replace(",", "").replace("$", ""))
    except (InvalidOperation, ValueError):
        raise ValueError(f"{name} must be a number, got {x!r}") from None
    if not d.is_finite():
        raise ValueError(f"{name} must be a finite number, got {x!r}")
    if limit is not None and abs(d) >= limit:
        raise ValueError(f"{name} {x!r} is too large: it must be under {limit:,}")
    return d


def cents(x: Decimal) -> Decimal:
    """``x`` rounded to the cent, half up (0.005 -> 0.01)."""
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def parse_money_cents(x: Any, name: str = "amount") -> Decimal:
    """Money in whole cents: refuses fractions of a cent (a bill or a payment is in cents)."""
    d = to_decimal(x, name)
    if d != d.quantize(CENT):
        raise ValueError(f"{name} {x!r} has a fraction of a cent: give dollars and cents (e.g. 123.45)")
    return d.quantize(CENT)


def to_date(x: Any, name: str = "date") -> _dt.date:
    """A date from a ``date``, a ``datetime`` or ISO text ``YYYY-MM-DD``; ValueError naming ``name``."""
    if isinstance(x, _dt.datetime):
        return x.date()
    if isinstance(x, _dt.date):
        return x
    if isinstance(x, str):
        try:
            return _dt.date.fromisoformat(x.strip())
        except ValueError:
            raise ValueError(f"{name} must be a date YYYY-MM-DD, got {x!r}") from None
    raise ValueError(f"{name} must be a date, got {x!r}")


def add_months(d: _dt.date, months: int) -> _dt.date:
    """``d`` plus whole calendar months, clamped to the last day of the target month."""
    m = d.month - 1 + months
    y, m = d.year + m // 12, m % 12 + 1
    return _dt.date(y, m, min(d.day, calendar.monthrange(y, m)[1]))


def bounded(x: Any, name: str, lo: float, hi: float, *, lo_open: bool = False, unit: str = "") -> Decimal:
    """``x`` as a Decimal within ``[lo, hi]`` (``(lo, hi]`` if ``lo_open``); ValueError naming ``name``."""
    d = to_decimal(x, name, limit=None)
    low = Decimal(str(lo))
    if d < low or (lo_open and d == low) or d > Decimal(str(hi)):
        u = f" {unit}" if unit else ""

        def f(v: float) -> str:
            return f"{Decimal(str(v)).normalize():,f}"

        rng = f"{'more than' if lo_open else 'from'} {f(lo)}{u} {'and at most' if lo_open else 'to'} {f(hi)}{u}"
        raise ValueError(f"{name} must be {rng}, got {x}")
    return d


@dataclass(frozen=True)
class LawNumber:
    """One number of the law: its value, unit, section and the words it comes from."""

    value: Decimal
    unit: str
    section: str
    text: str = ""

    def __str__(self) -> str:
        return f"{self.value.normalize():f} {self.unit} ({self.section})"


@cache
def load_law_numbers(filename: str) -> dict[str, LawNumber]:
    """The numbers in ``data/law/<filename>``: every table with ``value``, ``unit`` and ``section``.

    Raises ValueError naming the file and key if an entry lacks one of them.
    """
    path = LAW_DIR / filename
    with path.open("rb") as f:
        raw = tomllib.load(f)
    out: dict[str, LawNumber] = {}
    for key, entry in raw.items():
        if not isinstance(entry, dict):
            continue
        missing = [k for k in ("value", "unit", "section") if k not in entry]
        if missing:
            raise ValueError(f"{path.name}: [{key}] lacks {', '.join(missing)}")
        out[key] = LawNumber(
            Decimal(str(entry["value"])), str(entry["unit"]), str(entry["section"]), str(entry.get("text", ""))
        )
    return out
