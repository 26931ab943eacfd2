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
