"""Money, dates and the law's numbers: small shared helpers.

- :func:`to_decimal`, :func:`cents`, :func:`parse_money_cents`: exact money (Decimal, half-up
  to the cent) from user text, with a message naming the flag or column on bad input.
- :func:`to_date`, :func:`add_months`: ISO dates and calendar-month arithmetic.
- :func:`bounded`: a number in a stated range, refused with a message naming the input.
- :func:`read_csv_table`: a user's CSV as text cells (BOM, ',' ';' or tab), rows longer than the
  header refused naming the row.
- :class:`LawNumber`, :func:`load_law_numbers`: a number of the law with its unit and section,
  read from ``data/law/*.toml`` (each entry ``{value, unit, section, text}``).

References
----------
.. [1] Python ``decimal`` module, ``ROUND_HALF_UP`` (the rounding of a clerk's ledger).
"""

from __future__ import annotations

import calendar
import csv
import datetime as _dt
import re
import tomllib
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import cache
from os import PathLike
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
    "read_csv_table",
    "LawNumber",
    "load_law_numbers",
    "LAW_DIR",
]

CENT = Decimal("0.01")
#: Largest amount of money accepted (USD): far above any bill, far below decimal's precision.
MAX_MONEY = Decimal(10) ** 12
LAW_DIR = Path(__file__).resolve().parent.parent / "data" / "law"


_THOUSANDS = re.compile(r"[+-]?\$?\d{1,3}(,\d{3})+(\.\d*)?([eE][+-]?\d+)?")


def _number_text(x: Any, name: str) -> str:
    """User text of a number without '$' and thousands separators.

    A comma is read only as a thousands separator (1,234.50): '1,50' (a decimal comma) is refused,
    never read as 150.
    """
    t = str(x).strip()
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
    t = None if isinstance(x, Decimal) else _number_text(x, name)
    try:
        d = x if t is None else Decimal(t)
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
            raise ValueError(f"{name} must be a date YYYY-MM-DD, got {x!r}") from None
    else:
        raise ValueError(f"{name} must be a date, got {x!r}")
    if not MIN_YEAR <= d.year <= MAX_YEAR:
        raise ValueError(f"{name} {d.isoformat()} is outside the years {MIN_YEAR}-{MAX_YEAR}")
    return d


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


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252")  # a spreadsheet's Windows export


def read_csv_table(path: str | PathLike[str], what: str) -> Any:
    """A CSV as a DataFrame of stripped text cells; ``index + 2`` is each row's line in the file.

    UTF-8 (with or without BOM) or Windows-1252; the separator (',', ';' or tab) is the one the
    header uses most. Blank lines are skipped; a row with more values than the header is refused
    naming the row (an unquoted '1,000.00' or a decimal comma would otherwise shift or drop values);
    a trailing empty value is allowed. Raises ValueError naming ``what`` and the file.
    """
    import io

    import pandas as pd

    name = Path(path).name
    try:
        text = _decode(Path(path).read_bytes())
    except FileNotFoundError:
        raise ValueError(f"{what} file not found: {path}") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{what} file {name} is not text (UTF-8 or Windows-1252): {e}") from None
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if not first:
        raise ValueError(f"{what} file is empty: {name}")
    sep = max((",", ";", "\t"), key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    header: list[str] | None = None
    rows, lines = [], []
    try:
        for row in reader:
            cells = [c.strip() for c in row]
            if not any(cells):
                continue
            if header is None:
                header = cells
                dup = sorted({c for c in header if header.count(c) > 1 and c})
                if dup:
                    raise ValueError(f"{what} file {name}: column(s) {', '.join(map(repr, dup))} appear twice")
                continue
            if len(cells) > len(header) and any(cells[len(header) :]):
                raise ValueError(
                    f"{what} file {name} row {reader.line_num}: {len(cells)} values but "
                    f"{len(header)} columns ({', '.join(header)}); quote a value with a comma "
                    "('1,000.00') and write decimals with a point"
                )
            rows.append((cells + [""] * len(header))[: len(header)])
            lines.append(reader.line_num - 2)
    except csv.Error as e:
        raise ValueError(f"{what} file {name} is not a readable CSV: {e}") from None
    assert header is not None
    return pd.DataFrame(rows, columns=header, index=lines, dtype=str)


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
