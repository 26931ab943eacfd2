"""Money on arrays of tree values: half-up to the cent, exact sums in integer cents. (Single amounts:
:func:`treecalc.money.money`, :func:`treecalc.money.cents`.) Neutral: no jurisdiction's law is here.

Exact money: Decimal amounts from user text, half-up to the cent, with a message naming the flag or column.

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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by the array functions that use it: the water account's exact cents need no numpy
    import numpy as np


class OutOfRange(ValueError):
    """A number outside its documented range (:data:`treecalc.quantities.RANGES`), naming the flag, option or
    field it came from."""


def round_cents(x: Any) -> np.ndarray:
    """Half-up to the cent on integer cents, as arrays (1.005 -> 1.01, as Decimal("1.005") rounds)."""
    import numpy as np  # heavy: numpy, loaded only when this runs

    c = np.round(np.asarray(x, dtype=float) * 100, 6)
    return np.floor(c + 0.5) / 100


def largest_remainder_cents(parts: Any, totals: Any = None) -> np.ndarray:
    """Whole cents of each part (a row of parts per item) that add up, row by row, to the row's total rounded
    once to the cent, half up: the largest-remainder method.

    Each part is first cut down to its whole cents; the cents the row still owes (its rounded total less the
    sum of those) go one each to the parts with the largest cut-off remainders (the first part wins a tie).
    ``totals`` (dollars, one per row): the amounts to round; default each row's sum. A row whose rounded total
    cannot be reached so (a total that is not its parts' sum) is a ValueError, never a row that does not add up.

    Example: parts $1.004, $2.004, $3.007 (total $6.015, shown $6.02): cut to 100 + 200 + 300 = 600 cents, owed
    602 - 600 = 2, remainders 0.4, 0.4, 0.7 cents: the third and (the tie to the first) the first get one:
    $1.01 + $2.00 + $3.01 = $6.02.
    """
    import numpy as np  # heavy: numpy, loaded only when this runs

    x = np.round(np.atleast_2d(np.asarray(parts, dtype=float)) * 100, 6)  # 100.49999999999999 is 100.5 cents
    cut = np.floor(x)
    rem = x - cut
    t = x.sum(axis=1) / 100 if totals is None else np.asarray(totals, dtype=float).reshape(-1)
    owed = np.floor(np.round(t * 100, 6) + 0.5) - cut.sum(axis=1)
    k = x.shape[1]
    if ((owed < 0) | (owed > k)).any():
        i = int(np.flatnonzero((owed < 0) | (owed > k))[0])
        raise ValueError(f"row {i}: a total of {t[i]!r} is not the sum of its parts {x[i] / 100!r}")
    order = np.argsort(-rem, axis=1, kind="stable")  # largest remainder first, the first part first on a tie
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(k)[None, :].repeat(len(x), axis=0), axis=1)
    return cut + (rank < owed[:, None])


def cents_sum(values: Any, mask: np.ndarray) -> Decimal:
    """The exact sum of amounts already rounded to cents (integer cents, no binary drift, never a wrap).

    The cents are summed in int64 only when no sum of them can pass 2**62; beyond that (30,000 trees of
    $3.8 trillion each) in Python integers, exactly. A value that is not finite (NaN, infinite) is refused
    (:class:`treecalc.quantities.OutOfRange`): cast to int64 it would be an arbitrary number of dollars."""
    import numpy as np  # heavy: numpy, loaded only when this runs

    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused just below, not warned of
        c = np.rint(np.asarray(values, dtype=float)[mask] * 100)
    if not np.isfinite(c).all():
        raise OutOfRange(
            "a tree's value is not a finite number (NaN or infinite): the prices or options given are beyond "
            "what can be valued; give them within their ranges"
        )
    if not len(c):
        return Decimal(0)
    if float(np.abs(c).max()) * len(c) < 2.0**62:
        return Decimal(int(c.astype(np.int64).sum())) / 100
    return Decimal(sum(int(x) for x in c.tolist())) / 100  # int(float) is exact: each value's own cents


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
