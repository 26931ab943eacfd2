"""Money on arrays of tree values: half-up to the cent, exact sums in integer cents. (Single amounts:
:func:`treecalc.units.money.money`, :func:`treecalc.units.money.cents`.) Neutral: no jurisdiction's law is here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np

from treecalc.units.ranges import OutOfRange


def round_cents(x: Any) -> np.ndarray:
    """Half-up to the cent on integer cents, as arrays (1.005 -> 1.01, as Decimal("1.005") rounds)."""
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
    (:class:`treecalc.units.ranges.OutOfRange`): cast to int64 it would be an arbitrary number of dollars."""
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
