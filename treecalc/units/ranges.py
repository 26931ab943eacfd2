"""The plausible range of every number a user gives (flags, site facts, companion inputs) and its checks.

- :data:`RANGES`, :func:`in_range`, :func:`within`: the one table of ranges; a number outside its range is
  refused with a message naming the flag, option or field (:class:`OutOfRange`).
- :func:`bounded`, :func:`number`: a number in a range stated by the caller.
- :func:`small_file`: a path that must be a regular file of at most a given size.
"""

from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from treecalc.units.money import CENT, number_text, to_decimal


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


def number(
    name: str,
    value: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    strict: bool = False,
    whole: bool = False,
) -> float:
    """``value`` as a finite float within bounds, else a ``ValueError`` naming ``name``.

    ``low`` is inclusive unless ``strict``; ``high`` is inclusive; ``whole``
    asks for a whole number. Booleans are refused (``True`` is not a count).
    """
    try:
        if isinstance(value, bool):
            raise TypeError
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a {'whole ' if whole else ''}number, got {value!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if whole and v != int(v):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    kind = "a whole number " if whole else ""
    if low is not None and (v <= low if strict else v < low):
        raise ValueError(f"{name} must be {kind}{'greater than' if strict else 'at least'} {low:g}, got {v:g}")
    if high is not None and v > high:
        raise ValueError(f"{name} must be {kind}at most {high:g}, got {v:g}")
    return v


# ------------------------------------------------------------------ plausible ranges
#
# Each number a user gives has a documented plausible range; a value outside it is refused with a
# message naming the flag (exit 2 on the command line) instead of overflowing, wrapping or running
# for ever. The ranges are wide — they stop absurd input (``--days 1e20``, ``--home-price 1e300``),
# not unusual cases — and each says why it stops where it does.


@dataclass(frozen=True)
class Range:
    low: float
    high: float
    unit: str
    why: str
    whole: bool = False
    strict_low: bool = False


RANGES: dict[str, Range] = {
    # money
    "price_usd": Range(0, 1_000_000, "USD per unit", "a unit price (per kWh, therm, gallon or lb) of at most $1M"),
    "home_price_usd": Range(1_000, 1_000_000_000, "USD", "a median home price from $1,000 to $1 billion"),
    "usd": Range(0, 1_000_000_000, "USD", "an amount of money up to $1 billion"),
    "multiplier": Range(0, 100, "times", "a fee schedule's multiplier of the value, up to 100 times"),
    "percent": Range(0, 1_000, "%", "a replacement percentage up to ten times the value", strict_low=True),
    "fraction": Range(0, 1, "", "a rate from 0 to 1"),
    # time
    "days": Range(1, 36_500, "days", "a continuing violation of up to 100 years", whole=True),
    "years": Range(1, 200, "years", "a horizon of up to 200 years", whole=True),
    "cumulative_years": Range(1, 200, "years", "benefits with growth over up to 200 years", whole=True),
    # trees
    "dbh_in": Range(
        0, 250, "in", "a trunk diameter up to 250 in (the largest trees are ~450 in around)", strict_low=True
    ),
    "height_ft": Range(0, 400, "ft", "a tree height up to 400 ft", strict_low=True),
    "leaf_area_m2": Range(
        0, 100_000, "m²", "the leaf area of one tree (the largest are a few thousand m²)", strict_low=True
    ),
    "plantable": Range(0, 10_000_000, "trees", "replacement trees a site can take", whole=True),
    "tree_count": Range(0, 10_000_000, "trees", "a count of trees on one lot", whole=True),
    # land and earthwork
    "lot_area_acres": Range(0, 100_000, "acres", "about 156 square miles, beyond any village lot"),
    "area_sqft": Range(0, 1_000_000_000, "sq ft", "an area of up to 1 billion sq ft (36 square miles)"),
    "earthwork_area_sqft": Range(0, 100_000_000, "sq ft", "an excavated area of up to 3.6 sq mi, beyond any lot"),
    "depth_ft": Range(0, 1_000, "ft", "an excavation or fill depth of up to 1,000 ft"),
    "depth_in": Range(0, 120, "in", "a topsoil depth of up to 10 ft"),
    "wall_height_ft": Range(0, 200, "ft", "a retaining wall of up to 200 ft"),
    # files
    "max_mb": Range(0, 10_000, "MB", "a file size limit of up to 10 GB", strict_low=True),
}

#: Numeric site facts (``--site``, the Site sheet) and their range in :data:`RANGES`.
SITE_RANGES = {
    "lot_area_acres": "lot_area_acres",
    "prior_removals_12mo": "tree_count",
    "prior_removals_without_permit": "tree_count",
}


class OutOfRange(ValueError):
    """A number outside its documented range (:data:`RANGES`), naming the flag, option or field it came from."""


def range_words(kind: str) -> str:
    """What a number of :data:`RANGES` ``[kind]`` must be, as :func:`in_range` says it: "a whole number from 1 to
    200 years (benefits with growth over up to 200 years)"."""
    r = RANGES[kind]

    def shown(x: float) -> str:
        return f"{int(x):,}" if x == int(x) else f"{x:,g}"

    lo = f"greater than {shown(r.low)} and at most" if r.strict_low else f"from {shown(r.low)} to"
    span = f"{lo} {shown(r.high)} {r.unit}".rstrip()
    return f"{'a whole number ' if r.whole else ''}{span} ({r.why})"


def in_range(flag: str, value: Any, kind: str) -> float:
    """``value`` checked against :data:`RANGES` ``[kind]``; :class:`OutOfRange` naming ``flag`` and the range."""
    r = RANGES[kind]
    text = str(value).strip() if isinstance(value, str) else value
    if isinstance(text, str):
        try:  # the same reading as money: '1,25' is a decimal comma refused, never 125; '1_0' and '\u0663' refused
            text = number_text(text, flag)
        except ValueError as e:
            raise OutOfRange(str(e)) from None
    try:
        if isinstance(text, bool):
            raise TypeError
        v = float(text)
    except (TypeError, ValueError, OverflowError):
        raise OutOfRange(f"{flag} must be a {'whole ' if r.whole else ''}number, got {value!r}") from None

    if not math.isfinite(v) or (v <= r.low if r.strict_low else v < r.low) or v > r.high or (r.whole and v != int(v)):
        raise OutOfRange(f"{flag} must be {range_words(kind)}, got {value!r}")
    if kind == "usd":  # within range here, so the quantize cannot overflow
        exact = Decimal(text if isinstance(text, str) else repr(text))
        if exact != exact.quantize(CENT):  # a fee or a cost is set in cents: 12.345 a tree is a slip
            raise OutOfRange(f"{flag} {value!r} has a fraction of a cent: give dollars and cents (e.g. 123.45)")
    return float(int(v)) if r.whole else v


def small_file(flag: str, path: Any, max_bytes: int) -> None:
    """``path`` must be a regular file of at most ``max_bytes`` (not ``/dev/zero``, a fifo or a folder)."""
    try:
        st = os.stat(path)
    except OSError:
        return  # a file that is not there: the reader of the file says so in its own words
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{flag} {path}: not a regular file")
    if st.st_size > max_bytes:
        raise ValueError(f"{flag} {path}: {st.st_size:,} bytes, over the {max_bytes:,}-byte limit for this file")


def within(x: Any, name: str, kind: str) -> Decimal:
    """``x`` as a Decimal within :data:`RANGES` ``[kind]`` (message in the form of :func:`bounded`)."""
    r = RANGES[kind]
    return bounded(x, name, r.low, r.high, lo_open=r.strict_low, unit=r.unit)
