"""The law's comparison of a plain Python number (a count of days, one tree's diameter) gives what numpy's array
comparison gives, without importing numpy: the water account compares days overdue and imports no numpy."""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest

from treecalc.law.schema import compare


@pytest.mark.parametrize(
    ("op", "x", "v", "expected"),
    [
        # 20.32 cm / 2.54 = 7.999999999999999 in: within 1e-9 of 8, so "8 inches or more" holds, "under 8" does not
        (">=", 20.32 / 2.54, 8, True),
        ("<", 20.32 / 2.54, 8, False),
        ("<=", 8.000000001, 8, True),  # 1e-9 over 8 is 1.25e-10 relative: at the bound
        (">", 8.000000001, 8, False),
        (">", 8.00001, 8, True),  # 1.25e-6 relative: a real difference
        (">", 61, Decimal(60), True),  # Chapter 223's days overdue against the law file's Decimal: as written
        (">", 60, Decimal(60), False),
        (">", 7.9, -math.inf, True),  # an infinite bound is close only to itself
        (">=", math.inf, math.inf, True),
        ("<", math.nan, 8.0, False),
    ],
)
def test_a_plain_number_against_the_bound(op, x, v, expected):
    assert compare(op, x, v) is expected
    if not isinstance(v, Decimal):  # numpy's answer for the same number, as an array of one
        assert bool(compare(op, np.array([x]), v)[0]) is expected
