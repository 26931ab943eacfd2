"""Exact money: Decimal amounts from user text, half-up to the cent, with a message naming the flag or column.

- :func:`to_decimal`, :func:`cents`, :func:`parse_money_cents`, :func:`money`, :func:`nonneg`: an amount from
  user text ('$1,234.50'; a decimal comma refused, never read as a thousands separator).
- :func:`round2`, :func:`percent_of_up`, :func:`pct`: an amount as reported, a share rounded up, a percentage.

(Arrays of tree values: :mod:`treecalc.money`.)

References
----------
.. [1] Python ``decimal`` module, ``ROUND_HALF_UP`` (the rounding of a clerk's ledger).
"""

from __future__ import annotations

import re
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

CENT = Decimal("0.01")
#: Largest amount of money accepted (USD): far above any bill, far below decimal's precision.
MAX_MONEY = Decimal(10) ** 12

_THOUSANDS = re.compile(r"[+-]?\$?\d{1,3}(,\d{3})+(\.\d*)?([eE][+-]?\d+)?")


def number_text(x: Any, name: str) -> str:
    """User text of a number without '$' and thousands separators.

    A comma is read only as a thousands separator (1,234.50): '1,50' (a decimal comma) is refused,
    never read as 150.
    """
    t = str(x).strip()
    if "_" in t or not t.isascii():
        # Decimal() reads "1_0" as 10 and other scripts' digits ("\u0663" as 3): typed money is ASCII digits
        raise ValueError(f"{name} must be a number written with the digits 0-9, got {x!r}")
    if "," in t:
        if not _THOUSANDS.fullmatch(t.replace(" ", "")):
            raise ValueError(
                f"{name} {x!r}: a comma is read only as a thousands separator (1,234.50); "
                "write decimals with a point (1.50)"
            )
        t = t.replace(",", "")
    return t.replace("$", "")


def to_decimal(x: Any, name: str = "amount", limit: Decimal | None = MAX_MONEY) -> Decimal:
    """``x`` as an exact Decimal (floats through ``str`` so 0.1 stays 0.1; '$1,234.50' accepted).

    Raises ValueError naming ``name`` if ``x`` is not a finite number, has a decimal comma, or
    ``|x| >= limit``.
    """
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a number, got {x!r}")
    t = None if isinstance(x, Decimal) else number_text(x, name)
    try:
        d = x if t is None else Decimal(t)
    except (InvalidOperation, ValueError):
        raise ValueError(f"{name} must be a number, got {x!r}") from None
    if not d.is_finite():
        raise ValueError(f"{name} must be a finite number, got {x!r}")
    if limit is not None and abs(d) >= limit:
        raise ValueError(f"{name} {x!r} is too large: it must be under {limit:,}")
    return d


def cents(x: Decimal | float | int) -> Decimal:
    """``x`` rounded to the cent, half up (0.005 -> 0.01); a float through its shortest repr (2.675 -> 2.68)."""
    d = x if isinstance(x, Decimal) else Decimal(repr(x) if isinstance(x, float) else str(x))
    return d.quantize(CENT, rounding=ROUND_HALF_UP)


def round2(x: Decimal | float | int) -> float:
    """An amount as reported: rounded to the cent, half up (:func:`cents`), as a float."""
    return float(cents(x if isinstance(x, Decimal) else float(x)))


def percent_of_up(value: Decimal | float, percent: float) -> Decimal:
    """``percent`` % of ``value`` rounded UP to the cent ("at least" a share): 11.16 x 90% = 10.044 -> 10.05."""
    d = value if isinstance(value, Decimal) else Decimal(repr(float(value)))
    return (d * Decimal(repr(float(percent))) / 100).quantize(CENT, rounding=ROUND_CEILING)


def money(value: Any, what: str = "amount") -> Decimal:
    """An exact, non-negative dollar amount from a TOML/CLI value (``"450.00"``, ``450``, ``"$1,450.5"``)."""
    if isinstance(value, bool):
        raise ValueError(f"{what}: expected an amount in USD, got {value!r}")
    try:
        # through number_text: '1,25' (a decimal comma) was read as 125 by dropping the comma
        d = Decimal(number_text(value, what))
    except (InvalidOperation, AttributeError):
        raise ValueError(f"{what}: expected an amount in USD, got {value!r}") from None
    if not d.is_finite() or d < 0:
        raise ValueError(f"{what}: expected a non-negative amount in USD, got {value!r}")
    return d


def nonneg(x: Any, name: str) -> Decimal:
    """``x`` as an exact Decimal (no size limit) that is not negative; ValueError naming ``name``."""
    d = to_decimal(x, name, limit=None)
    if d < 0:
        raise ValueError(f"{name} must not be negative, got {x!r}")
    return d


def parse_money_cents(x: Any, name: str = "amount") -> Decimal:
    """Money in whole cents: refuses fractions of a cent (a bill or a payment is in cents)."""
    d = to_decimal(x, name)
    if d != d.quantize(CENT):
        raise ValueError(f"{name} {x!r} has a fraction of a cent: give dollars and cents (e.g. 123.45)")
    return d.quantize(CENT)


def pct(x: Any) -> Decimal:
    """A percentage as a fraction: ``pct(15)`` → ``Decimal('0.15')`` (exact)."""
    return to_decimal(x, "percent", limit=None) / 100
