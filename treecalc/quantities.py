"""Conversions between the units treecalc reads and writes, each stated once.

The exact ones are definitions (1 in = 2.54 cm, 1 ft = 0.3048 m, 1 yd = 0.9144 m: the international yard and
pound agreement of 1959; 1 therm = 100,000 Btu). Two are rounded: i-Tree Streets' resource units are m³ and kg,
and the gallons and pounds its benefits are read and priced in are m³ x 264.172 and kg x 2.20462 (six figures;
exactly 264.172052... and 2.20462262...). OpenTreeMap's treemap code, which prices the same tables, has
LBS_PER_KG = 2.20462 and GAL_PER_CUBIC_M = 264.172052; benchmarks/peer_otm_go.py compares treecalc's
benefits with its Go service at these factors. A change here moves every benefit's gallons or pounds.

Dates: ISO dates and date-times from user text, in the years 1900-2200, and calendar-month arithmetic.

The plausible range of every number a user gives (flags, site facts, companion inputs) and its checks.

- :data:`RANGES`, :func:`in_range`, :func:`within`: the one table of ranges; a number outside its range is
  refused with a message naming the flag, option or field (:class:`OutOfRange`).
- :func:`bounded`, :func:`number`: a number in a range stated by the caller.
- :func:`small_file`: a path that must be a regular file of at most a given size.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import math
import os
import re
import stat
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from treecalc.money import CENT, OutOfRange, number_text, to_decimal

# ----------------------------------------------------------------------------------------- length
#: 1 in = 2.54 cm exactly.
CM_PER_IN = 2.54
#: 1 in = 25.4 mm exactly.
MM_PER_IN = 25.4
CM_PER_M = 100
IN_PER_FT = 12
#: 1 ft = 0.3048 m exactly.
M_PER_FT = 0.3048
FT_PER_M = 1 / M_PER_FT
#: 1 yd = 0.9144 m exactly.
M_PER_YD = 0.9144

#: A length in each unit a survey gives a trunk's diameter in, as inches (1 m = 100 / 2.54 = 39.37 in).
IN_PER_UNIT = {
    "in": 1.0,
    "cm": 1 / CM_PER_IN,
    "mm": 1 / MM_PER_IN,
    "ft": float(IN_PER_FT),
    "m": CM_PER_M / CM_PER_IN,
}

# ------------------------------------------------------------------------------------------- area
#: 1 m² = 1 / 0.3048² = 10.7639... sq ft.
SQFT_PER_M2 = 1 / M_PER_FT**2

# ----------------------------------------------------------------------------------------- volume
#: 1 cu yd = 3 ft x 3 ft x 3 ft.
CU_FT_PER_CU_YD = 27
#: 1 cu yd = 0.9144³ m³ = 0.764554857984 m³.
M3_PER_CU_YD = M_PER_YD**3
#: US gallons in a cubic metre, as i-Tree rounds it (exactly 1 / 0.003785411784 = 264.172052...).
GAL_PER_M3 = 264.172

# ----------------------------------------------------------------------------------- energy, mass
#: 1 therm = 100,000 Btu = 100 kBtu exactly (natural gas is priced per therm, i-Tree gives kBtu).
KBTU_PER_THERM = 100.0
#: Pounds in a kilogram, as i-Tree rounds it (exactly 1 / 0.45359237 = 2.20462262...).
LB_PER_KG = 2.20462


#: Dates accepted: a water bill or a permit far outside these years is a typing error, and date
#: arithmetic (a relevy on the next 15 April, a one-year term) must not overflow year 9999.
MIN_YEAR, MAX_YEAR = 1900, 2200


def to_date(x: Any, name: str = "date") -> _dt.date:
    """A date from a ``date``, a ``datetime`` or ISO text ``YYYY-MM-DD``, in the years 1900-2200.

    Raises ValueError naming ``name``.
    """
    if isinstance(x, _dt.datetime):
        d = x.date()
    elif isinstance(x, _dt.date):
        d = x
    elif isinstance(x, str):
        try:
            d = _dt.date.fromisoformat(x.strip())
        except ValueError:
            raise ValueError(_no_such_date(x.strip(), name) or f"{name} must be a date YYYY-MM-DD, got {x!r}") from None
    else:
        raise ValueError(f"{name} must be a date, got {x!r}")
    if not MIN_YEAR <= d.year <= MAX_YEAR:
        raise ValueError(f"{name} {d.isoformat()} is outside the years {MIN_YEAR}-{MAX_YEAR}")
    return d


def _no_such_date(t: str, name: str) -> str:
    """For text of the form YYYY-MM-DD naming a day that does not exist (2026-02-29, 2026-04-31), the message
    saying so; else ""."""
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", t)
    if not m:
        return ""
    y, mo, day = (int(g) for g in m.groups())
    if not 1 <= mo <= 12:
        return f"{name} {t} does not exist: there is no month {mo}"
    last = calendar.monthrange(y, mo)[1]
    if day < 1 or day > last:
        return f"{name} {t} does not exist: {calendar.month_name[mo]} {y} has {last} days"
    return ""


def to_datetime(x: Any) -> _dt.datetime:
    """A local date-time from a ``datetime`` or ISO text ``YYYY-MM-DDTHH:MM``; ValueError otherwise."""
    if isinstance(x, _dt.datetime):
        return x
    if isinstance(x, str):
        try:
            return _dt.datetime.fromisoformat(x.strip())
        except ValueError:
            raise ValueError(f"expected a date-time YYYY-MM-DDTHH:MM, got {x!r}") from None
    raise ValueError(f"expected a datetime, got {x!r}")


def add_months(d: _dt.date, months: int) -> _dt.date:
    """``d`` plus whole calendar months, clamped to the last day of the target month."""
    m = d.month - 1 + months
    y, m = d.year + m // 12, m % 12 + 1
    if d.day <= 28:  # every month has the day (a water account asks this ~12 times a bill a year)
        return _dt.date(y, m, d.day)
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
