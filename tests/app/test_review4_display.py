"""The fourth review's display defects: dollar signs, a number not set, fund.csv labels, the in-lieu note,
and the rejected-rows table's Arrow conversion."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest


@pytest.mark.parametrize(
    "x,cents,want",
    [
        (-999_950, False, "-$999,950"),  # was "$-999,950": the sign before the dollar sign, as compact_usd writes it
        (-12.5, True, "-$12.50"),
        (-0.4, False, "$0"),  # rounds to nothing: no "-$0"
        (math.nan, False, "—"),  # was "$nan": a number not set
        (math.nan, True, "—"),
        (math.inf, True, "—"),
        (None, True, "—"),
        (1_234.5, True, "$1,234.50"),
        (1_234.5, False, "$1,234"),  # 1,234.5 -> $1,234 (round half to even)
        (Decimal("2572500.00"), True, "$2,572,500.00"),
    ],
)
def test_usd_sign_and_not_set(x, cents, want):
    from app_support.ui import usd

    assert usd(x, cents=cents) == want


def test_compact_and_num_of_a_number_not_set():
    from app_support.ui import compact_usd, num

    assert compact_usd(math.nan) == "—" and num(math.nan) == "—"  # were "$nan" and "nan"
    assert compact_usd(-0.4) == "$0" and compact_usd(-999_950) == "-$1M"


def test_water_page_shows_cents_in_full_below_a_million_and_compact_above():
    # The water page's own compact_usd/money_metric gave way to the ui ones: what it shows stays the same.
    # A $950,000.00 bill 5 days late carries the 5% penalty (§223-12F): 950,000.00 x 1.05 = 997,500.00, shown
    # in full to the cent ("$997,500.00", 11 characters; the ui default of 10 would show "$998K"); 2,450,000.00
    # x 1.05 = 2,572,500.00 is shown "$2.57M" with "Exactly $2,572,500.00." first in the help text.
    import datetime as dt

    from tests.app.test_companion_pages import _helps, _metrics, _page

    at = _page("treecalc_app/water.py")
    at.number_input(key="w_water_amount").set_value(950_000.0)
    at.date_input(key="w_water_due").set_value(dt.date(2026, 1, 15))
    at.date_input(key="w_water_asof").set_value(dt.date(2026, 1, 20)).run()
    assert _metrics(at)["Total due"] == "$997,500.00"
    at.number_input(key="w_water_amount").set_value(2_450_000.0).run()
    m, h = _metrics(at), _helps(at)
    assert m["Total due"] == "$2.57M" and h["Total due"].startswith("Exactly $2,572,500.00. What the water account")
