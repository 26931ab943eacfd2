"""Money, dates and the law's numbers: small shared helpers.

- :func:`to_decimal`, :func:`cents`, :func:`parse_money_cents`: exact money (Decimal, half-up
  to the cent) from user text, with a message naming the flag or column on bad input.
- :func:`to_date`, :func:`add_months`: ISO dates and calendar-month arithmetic.
- :func:`bounded`: a number in a stated range, refused with a message naming the input.
- :func:`parse_csv_table`: a user's CSV as text cells (BOM, ',' ';' or tab), rows longer than the
  header refused naming the row (read it through :func:`treecalc.isolated.read_csv_table`).
- :func:`within`: a number in a stated range, refused with a message naming the input.
- :data:`RANGES`, :func:`in_range`, :func:`number`, :func:`small_file`: the one table of plausible
  ranges of every number a user gives (flags, site facts, companion inputs) and its checks.
- :class:`LawNumber`, :func:`load_law_numbers`: a number of the law with its unit and section,
  read from ``data/law/*.toml`` (each entry ``{value, unit, section, text}``).
- :data:`DATA_DIR`, :func:`data_file`, :func:`read_data_toml`: the one data folder (``TREECALC_DATA``
  when set, else the copy that ships with treecalc) and its files, a missing file or table said clearly.

References
----------
.. [1] Python ``decimal`` module, ``ROUND_HALF_UP`` (the rounding of a clerk's ledger).
"""

from __future__ import annotations

import calendar
import csv
import datetime as _dt
import math
import os
import re
import stat
import tomllib
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal, InvalidOperation
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any

__all__ = [
    "CENT",
    "MAX_MONEY",
    "to_decimal",
    "cents",
    "round2",
    "percent_of_up",
    "money",
    "nonneg",
    "to_datetime",
    "parse_money_cents",
    "to_date",
    "add_months",
    "bounded",
    "parse_csv_table",
    "read_limited",
    "count_lines",
    "InputRefused",
    "MAX_INPUT_MB",
    "MAX_INPUT_CELLS",
    "within",
    "Range",
    "RANGES",
    "SITE_RANGES",
    "in_range",
    "OutOfRange",
    "number",
    "small_file",
    "pct",
    "LawNumber",
    "load_law_numbers",
    "LAW_DIR",
    "DATA_DIR",
    "DATA_ENV",
    "BUNDLED_DATA_DIR",
    "MissingDataFile",
    "data_file",
    "read_data_toml",
    "data_files_read",
]

CENT = Decimal("0.01")
#: Largest amount of money accepted (USD): far above any bill, far below decimal's precision.
MAX_MONEY = Decimal(10) ** 12

#: The environment variable naming another ``data`` folder (a village's edited copy).
DATA_ENV = "TREECALC_DATA"


def _bundled_data_dir() -> Path:
    """The data that ships with treecalc: ``treecalc/_data`` in an installed wheel (pyproject.toml maps
    the repository's ``data/`` there), else ``data/`` beside the package in a checkout or editable install."""
    here = Path(__file__).resolve().parent
    packaged = here / "_data"
    return packaged if packaged.is_dir() else here.parent / "data"


BUNDLED_DATA_DIR = _bundled_data_dir()
#: The one data folder every table and law file is read from (data.py, rules, water, excavation).
DATA_DIR = Path(os.environ.get(DATA_ENV) or BUNDLED_DATA_DIR).expanduser()  # ~: a value no shell expanded
LAW_DIR = DATA_DIR / "law"


class MissingDataFile(FileNotFoundError):
    """A data file or one of its tables is missing from the data folder (an old or incomplete copy)."""


def _where(folder: Path) -> str:
    if os.environ.get(DATA_ENV) and folder == DATA_DIR:
        return f"the data folder {folder} ({DATA_ENV} points there; an old or incomplete copy?)"
    return f"the data folder {folder} (treecalc's own data: the installation is incomplete)"


def data_file(relpath: str, folder: Path | None = None) -> Path:
    """``relpath`` (``"readings/site_facts.toml"``) in the data folder; :class:`MissingDataFile` naming the file,
    the folder and ``TREECALC_DATA`` when it is not there (never a bare "No such file")."""
    base = DATA_DIR if folder is None else folder
    path = base / relpath
    if not path.is_file() and not base.is_dir() and os.environ.get(DATA_ENV) and base == DATA_DIR:
        raise MissingDataFile(
            f"the data folder {base} does not exist ({DATA_ENV} points there): give a copy of "
            f"{BUNDLED_DATA_DIR}, or unset {DATA_ENV}"
        )
    if not path.is_file():
        raise MissingDataFile(
            f"{relpath} is missing from {_where(base)}: copy it from {BUNDLED_DATA_DIR / relpath}"
            + (f" or unset {DATA_ENV}" if os.environ.get(DATA_ENV) else "")
        )
    _READ[relpath] = path
    return path


#: Every file of the data folder this process has opened (relative path -> path), for the fingerprint of a
#: statement (:mod:`treecalc.fingerprint`): tables are cached once read, so a file counts from its first read on.
_READ: dict[str, Path] = {}


def data_files_read() -> dict[str, Path]:
    """The data files read so far (``"law/croton_on_hudson/ch208_trees.toml"``, ``"species/catalogue.csv"``), sorted."""
    return dict(sorted(_READ.items()))


def read_data_toml(relpath: str, folder: Path | None = None) -> dict[str, Any]:
    """A TOML file of the data folder; :class:`MissingDataFile` when it, or a table the copy that ships with
    treecalc has (``[site_why]``, ``[assumed]``, a number of the law), is missing."""
    base = DATA_DIR if folder is None else folder
    path = data_file(relpath, base)
    with path.open("rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:  # an Engineer's edit of the copy: say which file, not only the line
            raise ValueError(f"{relpath} in {_where(base)} is not valid TOML: {e}") from None
    shipped = BUNDLED_DATA_DIR / relpath
    if path.resolve() != shipped.resolve() and shipped.is_file():
        with shipped.open("rb") as f:
            want = [k for k, v in tomllib.load(f).items() if isinstance(v, dict) and k not in raw]
        if want:
            tables = ", ".join(f"[{k}]" for k in want)
            raise MissingDataFile(
                f"{relpath} in {_where(base)} lacks {tables}: this version of treecalc reads "
                f"{'it' if len(want) == 1 else 'them'}; copy the file from {shipped}"
            )
    return raw


_THOUSANDS = re.compile(r"[+-]?\$?\d{1,3}(,\d{3})+(\.\d*)?([eE][+-]?\d+)?")


def _number_text(x: Any, name: str) -> str:
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
        # through _number_text: '1,25' (a decimal comma) was read as 125 by dropping the comma
        d = Decimal(_number_text(value, what))
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


#: The largest companion or auxiliary file read (a water account, a grid, sections, points, LandXML, a
#: species map): tens of thousands of rows are a few MB; ``TREECALC_INPUT_MB`` raises it.
INPUT_MB_ENV = "TREECALC_INPUT_MB"
MAX_INPUT_MB = 50.0
#: Rows and columns of a companion CSV: the survey's limits (Excel's sheet; a table has tens of columns).
MAX_INPUT_ROWS = 1_048_576
MAX_INPUT_COLUMNS = 1_000
#: Cells of a companion CSV: a million-point grid of x, y, existing, proposed is 4 million; each cell is a
#: Python string while it is read (~60 bytes), so this bound keeps a hostile file well under 1 GB.
MAX_INPUT_CELLS = 10_000_000


class InputRefused(ValueError):
    """A file refused before it is parsed: not a regular file, too large, or beyond a row or column limit."""


def max_input_bytes() -> int:
    """The size limit of a companion or auxiliary file: :data:`MAX_INPUT_MB`, or ``TREECALC_INPUT_MB``."""
    raw = os.environ.get(INPUT_MB_ENV)
    mb = in_range(INPUT_MB_ENV, raw, "max_mb") if raw else MAX_INPUT_MB
    return int(mb * 1e6)


def read_limited(path: str | PathLike[str], what: str, max_bytes: int | None = None) -> bytes:
    """The bytes of the file ``path``, refused by type and size before they are read (:class:`InputRefused`).

    A device (``/dev/zero``), a pipe, a socket or a folder is refused by its type, never read; a regular file
    over ``max_bytes`` (default :func:`max_input_bytes`) by its size, and again if it grew while read (at most
    ``max_bytes + 1`` bytes are read). A missing file is a ``ValueError`` naming ``what``."""
    limit = max_input_bytes() if max_bytes is None else int(max_bytes)
    shown = f"{limit / 1e6:g} MB"
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ValueError(f"{what} file not found: {path}") from None
    except OSError as e:
        raise ValueError(f"{what} file {path}: cannot open ({e.strerror or e})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputRefused(f"{what} file {path} is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputRefused(
            f"{what} file {path} is not a regular file (a device, a pipe or a socket): give a saved file"
        )
    too_big = InputRefused(
        f"{what} file {path} is over the {shown} limit for this file ({st.st_size:,} bytes); "
        f"split it, or raise the limit with {INPUT_MB_ENV}=N"
    )
    if st.st_size > limit:
        raise too_big
    try:  # O_NONBLOCK: a file swapped for a pipe after the check cannot make the open wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise ValueError(f"{what} file {path}: cannot open ({e.strerror or e})") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputRefused(f"{what} file {path} is not a regular file: give a saved file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise too_big
    return data


_LINE_ENDS = re.compile(r"\r\n?|\n")


def count_lines(text: str) -> int:
    """Lines of ``text`` ended by ``\\r\\n``, ``\\r`` or ``\\n`` alike (the last may have no end)."""
    ends = text.count("\n") + text.count("\r") - text.count("\r\n")
    return ends + (bool(text) and not text.endswith(("\n", "\r")))


def first_line(text: str) -> str:
    """The first line of ``text`` that is not blank ("" if none), found without splitting the whole text."""
    pos = 0
    for m in _LINE_ENDS.finditer(text):
        if text[pos : m.start()].strip():
            return text[pos : m.start()]
        pos = m.end()
    return text[pos:] if text[pos:].strip() else ""


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252")  # a spreadsheet's Windows export


def parse_csv_table(
    path: str | PathLike[str], what: str, max_bytes: int | None = None, max_rows: int | None = None
) -> Any:
    """A CSV as a DataFrame of stripped text cells; ``index + 2`` is each row's line in the file.

    UTF-8 (with or without BOM) or Windows-1252; the separator (',', ';' or tab) is the one the
    header uses most. Blank lines are skipped; a row with more values than the header is refused
    naming the row (an unquoted '1,000.00' or a decimal comma would otherwise shift or drop values);
    a trailing empty value is allowed. The file is read through :func:`read_limited` (type and size) and
    its lines (``\\r``, ``\\n`` or ``\\r\\n``) and header columns are counted before it is parsed. Raises
    ValueError naming ``what`` and the file.
    """
    import io

    import pandas as pd

    name = Path(path).name
    raw = read_limited(path, what, max_bytes)
    if b"\x00" in raw[:8192]:
        raise InputRefused(f"{what} file {name} is not text (it holds NUL bytes): give a CSV")
    try:
        text = _decode(raw)
    except UnicodeDecodeError as e:
        raise ValueError(f"{what} file {name} is not text (UTF-8 or Windows-1252): {e}") from None
    # rows and columns bounded before the text is split into cells, line ends of every kind counted
    n_lines = count_lines(text)
    top = (MAX_INPUT_ROWS if max_rows is None else max_rows) + 1  # the header's line too
    if n_lines > top:
        raise InputRefused(
            f"{what} file {name} has {n_lines:,} lines, over the limit of {top - 1:,} rows and a header line"
        )
    first = first_line(text)
    if not first:
        raise ValueError(f"{what} file is empty: {name}")
    sep = max((",", ";", "\t"), key=first.count)
    if first.count(sep) >= MAX_INPUT_COLUMNS:
        raise InputRefused(
            f"{what} file {name}: its header has {first.count(sep) + 1:,} columns, over the limit of "
            f"{MAX_INPUT_COLUMNS:,}"
        )
    n_cells = text.count(sep) + n_lines  # at most this many cells: bounded before a cell is made
    if n_cells > MAX_INPUT_CELLS:
        raise InputRefused(f"{what} file {name} has about {n_cells:,} cells, over the limit of {MAX_INPUT_CELLS:,}")
    if csv.field_size_limit() < len(text) + 1:  # a long cell is read (the file's size is bounded above)
        csv.field_size_limit(len(text) + 1)
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
    "days": Range(1, 36_500, "days", "a continuing violation of up to 100 years", whole=True),
    "percent": Range(0, 1_000, "%", "a replacement percentage up to ten times the value", strict_low=True),
    "price_usd": Range(0, 1_000_000, "USD per unit", "a unit price (per kWh, therm, gallon or lb) of at most $1M"),
    "home_price_usd": Range(1_000, 1_000_000_000, "USD", "a median home price from $1,000 to $1 billion"),
    "leaf_area_m2": Range(
        0, 100_000, "m²", "the leaf area of one tree (the largest are a few thousand m²)", strict_low=True
    ),
    "plantable": Range(0, 10_000_000, "trees", "replacement trees a site can take", whole=True),
    "area_sqft": Range(0, 1_000_000_000, "sq ft", "an area of up to 1 billion sq ft (36 square miles)"),
    "depth_ft": Range(0, 1_000, "ft", "an excavation or fill depth of up to 1,000 ft"),
    "depth_in": Range(0, 120, "in", "a topsoil depth of up to 10 ft"),
    "earthwork_area_sqft": Range(0, 100_000_000, "sq ft", "an excavated area of up to 3.6 sq mi, beyond any lot"),
    "wall_height_ft": Range(0, 200, "ft", "a retaining wall of up to 200 ft"),
    "cumulative_years": Range(1, 200, "years", "benefits with growth over up to 200 years", whole=True),
    "years": Range(1, 200, "years", "a horizon of up to 200 years", whole=True),
    "usd": Range(0, 1_000_000_000, "USD", "an amount of money up to $1 billion"),
    "multiplier": Range(0, 100, "times", "a fee schedule's multiplier of the value, up to 100 times"),
    "dbh_in": Range(
        0, 250, "in", "a trunk diameter up to 250 in (the largest trees are ~450 in around)", strict_low=True
    ),
    "height_ft": Range(0, 400, "ft", "a tree height up to 400 ft", strict_low=True),
    "fraction": Range(0, 1, "", "a rate from 0 to 1"),
    "max_mb": Range(0, 10_000, "MB", "a file size limit of up to 10 GB", strict_low=True),
    "lot_area_acres": Range(0, 100_000, "acres", "about 156 square miles, beyond any village lot"),
    "tree_count": Range(0, 10_000_000, "trees", "a count of trees on one lot", whole=True),
}

#: Numeric site facts (``--site``, the Site sheet) and their range in :data:`RANGES`.
SITE_RANGES = {
    "lot_area_acres": "lot_area_acres",
    "prior_removals_12mo": "tree_count",
    "prior_removals_without_permit": "tree_count",
}


class OutOfRange(ValueError):
    """A number outside its documented range (:data:`RANGES`), naming the flag, option or field it came from."""


def in_range(flag: str, value: Any, kind: str) -> float:
    """``value`` checked against :data:`RANGES` ``[kind]``; :class:`OutOfRange` naming ``flag`` and the range."""
    r = RANGES[kind]
    text = str(value).strip() if isinstance(value, str) else value
    if isinstance(text, str):
        try:  # the same reading as money: '1,25' is a decimal comma refused, never 125; '1_0' and '\u0663' refused
            text = _number_text(text, flag)
        except ValueError as e:
            raise OutOfRange(str(e)) from None
    try:
        if isinstance(text, bool):
            raise TypeError
        v = float(text)
    except (TypeError, ValueError, OverflowError):
        raise OutOfRange(f"{flag} must be a {'whole ' if r.whole else ''}number, got {value!r}") from None

    def shown(x: float) -> str:
        return f"{int(x):,}" if x == int(x) else f"{x:,g}"

    lo = f"greater than {shown(r.low)} and at most" if r.strict_low else f"from {shown(r.low)} to"
    span = f"{lo} {shown(r.high)} {r.unit}".rstrip()
    if not math.isfinite(v) or (v <= r.low if r.strict_low else v < r.low) or v > r.high or (r.whole and v != int(v)):
        raise OutOfRange(f"{flag} must be {'a whole number ' if r.whole else ''}{span} ({r.why}), got {value!r}")
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


def pct(x: Any) -> Decimal:
    """A percentage as a fraction: ``pct(15)`` → ``Decimal('0.15')`` (exact)."""
    return to_decimal(x, "percent", limit=None) / 100


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
    """The numbers in ``data/law/<filename>``: every table with ``value`` (or ``values`` keyed by the date each took
    effect: the one in force today, these chapters' commands having no date of their own), ``unit`` and ``section``.

    Raises ValueError naming the file and key if an entry lacks one of them.
    """
    path = LAW_DIR / filename
    raw = read_data_toml(f"law/{filename}", LAW_DIR.parent)
    out: dict[str, LawNumber] = {}
    for key, entry in raw.items():
        if not isinstance(entry, dict) or key == "effective":
            continue
        missing = [k for k in ("unit", "section") if k not in entry]
        if "value" not in entry and "values" not in entry:
            missing.insert(0, "value")
        if missing:
            raise ValueError(f"{path.name}: [{key}] lacks {', '.join(missing)}")
        value = entry["value"] if "value" in entry else _value_today(entry["values"], f"{path.name}: [{key}]")
        out[key] = LawNumber(Decimal(str(value)), str(entry["unit"]), str(entry["section"]), str(entry.get("text", "")))
    return out


def _value_today(values: Any, where: str) -> Any:
    """Of a table keyed by the ISO date each value took effect, the one in force today."""
    try:
        dated = sorted((_dt.date.fromisoformat(str(k)), v) for k, v in dict(values).items())
    except (TypeError, ValueError):
        raise ValueError(f"{where}: values must be a table keyed by dates YYYY-MM-DD") from None
    today = _dt.date.today()
    held = [v for d, v in dated if d <= today]
    if not held:
        raise ValueError(
            f"{where}: no value in force today ({today.isoformat()}): the earliest takes effect {dated[0][0]}"
        )
    return held[-1]
