"""Dates: ISO dates and date-times from user text, in the years 1900-2200, and calendar-month arithmetic."""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from typing import Any

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
