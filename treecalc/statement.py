"""The Excel statement of an assessment: one workbook a permit reviewer can check line by line.

``write_statement(assessment, path_or_buffer)`` writes one ``.xlsx`` workbook;
``statement_bytes(assessment)`` returns the same workbook as bytes (the app's
download button). Sheets, in order:

``Summary``
    Every line of ``assessment.lines`` (section, item, value, unit, note),
    the permit triggers found, the warnings, and the value of the trees
    harmed by species with a bar chart of it.
``Trees``
    Every tree with its benefits (units in the headers), value, permit
    triggers, penalty tier and penalty maxima.
``Replacement plan``
    The §208-22 requirement, the cheapest planting plan, the stock offered.
``Fund``
    The Tree Preservation Fund payment in lieu.
``Penalties``
    Civil and criminal maxima, doubling, per-tree penalties (and Wesley Hills).
``Rejected rows``
    The survey rows that could not be used, with the reason and the raw text.
``Method & sources``
    The method dict flattened (value basis, prices, parameters, data sources,
    sections applied, readings of unclear text with their sections), the survey source, the
    options, assumptions and warnings.

Formats: money cells ``$#,##0.00``; units in the column headers (``Stormwater
(gal/yr)``) or in a ``Unit`` column; header rows frozen; auto-filters;
column widths from the content. No cell of the statement holds a formula.

**Formula injection.** Any text can come from the user (tags, species, notes,
rejected raw values, option values). Every string is written as an *inline
string* (``t="inlineStr"``; never a formula, never an error code, whatever it
starts with), and a string that starts with ``= + - @``, a tab, CR or LF also
carries the ``quotePrefix`` cell style, the file-format equivalent of typing a
leading apostrophe: Excel and LibreOffice keep it text even when the cell is
edited and re-entered. The text itself is unchanged (no visible apostrophe),
so tags read back exactly. Characters XML cannot hold (C0 controls other than
tab, LF, CR) are replaced with U+FFFD.

The workbook is written with XlsxWriter in ``constant_memory`` mode: rows go
to disk in order, so a 100,000-tree survey never holds millions of cells in
memory (strings are then inline strings). The small sheets are written one
XlsxWriter call per cell; the body of the Trees and Rejected rows tables is
encoded a column at a time and streamed into XlsxWriter's row file as whole
rows (:class:`_StreamSheet`), because one call per cell costs ~5 µs and a
50,000-tree Trees sheet has ~2.5 million cells (8 s for the whole statement
that way). Both paths write the same cells (a test compares them).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import io
import math
import os
import re
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xlsxwriter
import xlsxwriter.workbook
from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import Worksheet

from treecalc.results import records as _records
from treecalc.schema import (
    BENEFIT_COLUMNS,
    COLUMNS,
    INT,
    NUM,
    NUM0,
    NUM1,
    NUM2,
    SHARE,
    SURVEY_FIELD_COLUMNS,
    SURVEY_KEY_COLUMNS,
    TREE_PENALTY_COLUMNS,
    TREE_PERMIT_COLUMNS,
    USD,
    USD_RATE,
)

__all__ = ["SHEETS", "write_statement", "statement_bytes", "build_workbook", "safe_text", "needs_quote_prefix"]

#: Sheet names, in order.
SHEETS = ("Summary", "Trees", "Replacement plan", "Fund", "Penalties", "Rejected rows", "Method & sources")

# ---------------------------------------------------------------------------
# number formats
# (the formats of named columns: treecalc.schema, which names each column's label and unit once)
DATE = "yyyy-mm-dd"
DATETIME = "yyyy-mm-dd hh:mm"

#: Characters a spreadsheet may read as the start of a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
#: What XML 1.0 cannot hold: C0 controls other than tab/LF/CR, lone surrogates (not encodable as UTF-8),
#: and the non-characters U+FFFE, U+FFFF (a worksheet holding one is not well-formed: the file will not open).
_ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: OOXML reads ``_xHHHH_`` in cell text as the character HHHH; a literal one is escaped as ``_x005F_xHHHH_``.
_OOXML_ESCAPE = re.compile(r"(_x[0-9a-fA-F]{4}_)")
_MAX_CELL_TEXT = 32767  # Excel's limit, in UTF-16 code units (an emoji counts 2)
_CUT_MARK = " … [cut: an Excel cell holds 32,767 characters]"
#: Excel's sheet size (an .xlsx sheet cannot hold more; XlsxWriter silently drops what does not fit).
_MAX_ROWS = 1_048_576
_MAX_COLS = 16_384
_WIDTH_SAMPLE = 2000  # rows looked at to size a column
_CHUNK_ROWS = 5000  # rows encoded at a time (bounds the memory of the encoded XML)
_ZIP_LEVEL = 1  # deflate level of the .xlsx (see _ZipFile)


class _ZipFile(zipfile.ZipFile):
    """The zip XlsxWriter packs the workbook into, at deflate level :data:`_ZIP_LEVEL` unless told otherwise.

    XlsxWriter leaves zlib at its default level (6); a 50,000-tree statement is ~140 MB of sheet XML,
    which level 6 takes ~2 s to compress and level 1 ~0.7 s, for a file of ~24 MB instead of ~18 MB.
    The cells are the same; only the compression differs. XlsxWriter has no option for it, so its
    module's ``ZipFile`` is this class (the zip of any workbook it writes in this process).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("compresslevel", _ZIP_LEVEL)
        super().__init__(*args, **kwargs)


xlsxwriter.workbook.ZipFile = _ZipFile


def needs_quote_prefix(text: str) -> bool:
    """True when ``text`` would be taken for a formula if typed into a cell."""
    return text.startswith(_FORMULA_START)


def safe_text(value: Any) -> str:
    """``value`` as text a worksheet can hold: characters XML cannot hold (C0
    controls, lone surrogates, U+FFFE, U+FFFF) replaced with U+FFFD; text over
    Excel's 32,767 characters (UTF-16 units) cut, with a note that it was."""
    s = value if isinstance(value, str) else str(value)
    s = _ILLEGAL_XML.sub("\ufffd", s)
    if len(s) > _MAX_CELL_TEXT // 2 and _utf16_len(s) > _MAX_CELL_TEXT:
        # cut to the limit in UTF-16 units (an emoji is 2), never inside a pair, and say so: nothing is lost silently
        room = _MAX_CELL_TEXT - len(_CUT_MARK)
        s = s.encode("utf-16-le")[: 2 * room].decode("utf-16-le", errors="ignore") + _CUT_MARK
    return s


def _utf16_len(s: str) -> int:
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


# ---------------------------------------------------------------------------
# values


def _missing(v: Any) -> bool:
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    if isinstance(v, (float, np.floating)):
        return math.isnan(v)
    return False


def _scalar(v: Any) -> Any:
    """numpy / pandas scalars to Python ones."""
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, pd.Timestamp):
        return None if pd.isna(v) else v.to_pydatetime()
    return v


def _text(v: Any) -> str:
    """Any value as one line of text (lists joined with '; ')."""
    v = _scalar(v)
    if _missing(v):
        return ""
    if isinstance(v, bool):
        return "Yes" if v else "No"
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, float):
        return f"{v:,.2f}" if abs(v) >= 1 else f"{v:g}"
    if isinstance(v, Mapping):
        return "; ".join(f"{k}: {_text(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple, set, frozenset, np.ndarray, pd.Series)):
        return "; ".join(_text(x) for x in v)
    if isinstance(v, pd.DataFrame):
        return f"table of {len(v)} rows"
    return str(v)


def _cell(v: Any) -> Any:
    """The value a spreadsheet cell receives: None, bool->Yes/No, number, datetime or text."""
    v = _scalar(v)
    if _missing(v):
        return None
    if isinstance(v, bool):
        return "Yes" if v else "No"
    if isinstance(v, decimal.Decimal):
        v = float(v) if v.is_finite() else str(v)
    if isinstance(v, (int, float)):
        if isinstance(v, float) and math.isinf(v):
            return "∞" if v > 0 else "-∞"
        return v
    if isinstance(v, _dt.datetime):
        return v.replace(tzinfo=None)
    if isinstance(v, (_dt.date, _dt.time)):
        return v
    if isinstance(v, str):
        return v
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    return _text(v)


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if obj is None:
        return default
    if isinstance(obj, Mapping):
        v = obj.get(name, default)
    else:
        v = getattr(obj, name, default)
    return default if v is None else v


# ---------------------------------------------------------------------------
# labels and units

#: Known keys: (label, unit, number format).
_KEYS: dict[str, tuple[str, str, str | None]] = {
    k: (c.label, c.unit, c.fmt) for k, c in COLUMNS.items() if c.label is not None
}

#: Units of the i-Tree Streets prices (``prices.csv``; see :func:`treecalc.models.itree_streets.resolve_prices`).
_PRICE_UNITS = {
    "electricity": "$/kWh",
    "natural_gas": "$/kBtu",
    "hydro_interception": "$/gal",
    "co2": "$/lb",
    "o3": "$/lb",
    "nox": "$/lb",
    "pm10": "$/lb",
    "sox": "$/lb",
    "voc": "$/lb",
}

#: Headings of the method dict's top-level keys.
_METHOD_SECTIONS = {
    "readings": "Readings",
    "sections_applied": "Sections applied",
    "data_sources": "Data sources",
    "benefit_parameters": "Parameters and prices",
    "value_basis": "Value basis",
    "value_basis_label": "Value basis",
    "law": "Law",
    "law_file": "Law",
    "fee_schedule": "Fee schedule",
}
#: Method keys filed under a sibling's heading: their name is kept as the item.
_METHOD_KEEP_KEY = {"value_basis_label", "law_file"}

_SUFFIX_UNITS: tuple[tuple[str, str, str], ...] = (
    ("_usd_per_tree", "$/tree", USD),
    ("_usd_per_day", "$/day", USD),
    ("_usd", "$", USD),
    ("_pct", "%", NUM),
    ("_percent", "%", NUM),
    ("_trees", "trees", INT),
    ("_in", "in", NUM1),
    ("_ft", "ft", NUM1),
    ("_m2", "m²", NUM2),
    ("_acres", "acres", NUM2),
    ("_sqft", "ft²", NUM2),  # areas to 0.01 sq ft, as the app shows them
    ("_gal", "gal", NUM0),  # gallons whole: a modelled tenth of a gallon is no measurement
    ("_kwh", "kWh", NUM1),
    ("_lb", "lb", NUM2),
    ("_days", "days", INT),
    ("_years", "years", NUM),
    ("_count", "count", INT),
)


def _key_info(key: Any) -> tuple[str, str, str | None]:
    """(label, unit, number format) of a key, known or inferred from its suffix."""
    k = str(key)
    if k in _KEYS:
        return _KEYS[k]
    m = re.match(r"^(.*)_usd_per_(\w+)$", k)
    if m:
        return (_humanize(m.group(1)), f"$/{m.group(2)}", USD_RATE)
    for suffix, unit, fmt in _SUFFIX_UNITS:
        if k.endswith(suffix) and len(k) > len(suffix):
            base = _humanize(k[: -len(suffix)])
            if suffix in ("_pct", "_percent"):
                base += " percentage"
            elif suffix == "_trees":
                base = _humanize(k)
            return (base, unit, fmt)
    if k.startswith("trees_") or k == "offences" or "removals" in k or k == "native_planted":
        return (_humanize(k), "trees", INT)
    if k.startswith("usd_"):
        return (_humanize(k[4:]), "$", USD)
    return (_humanize(k), "", None)


def _humanize(k: str) -> str:
    s = str(k).replace("_", " ").strip()
    return s[:1].upper() + s[1:] if s else s


def _header(key: Any, unit_override: str | None = None) -> str:
    label, unit, _ = _key_info(key)
    unit = unit_override if unit_override is not None else unit
    return f"{label} ({unit})" if unit and unit != "share" else label


def _fmt_for_unit(unit: str, value: Any) -> str | None:
    """Number format for a value given with a free-text unit (Summary lines)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    u = (unit or "").strip().lower()
    if u in ("$", "usd", "us$", "dollars") or u.startswith(("usd", "$")):
        if "/" in u and not u.endswith(("/yr", "/year", "/tree", "/day")):
            return USD_RATE
        return USD
    if u in ("trees", "tree", "rows", "row", "days", "day", "count", "species"):
        return INT if float(value).is_integer() else NUM
    if u in ("share", "fraction"):
        return SHARE
    if u in ("in", "inches", "ft", "feet"):
        return NUM1
    if u in ("sq ft", "ft²", "ft2", "square feet"):
        return NUM2
    if u.startswith(("gal", "gallons")):
        return NUM0
    return NUM if isinstance(value, float) else INT


# ---------------------------------------------------------------------------
# the workbook writer


class _StreamSheet(Worksheet):
    """An XlsxWriter worksheet that also takes whole rows as ready-made ``<row>`` XML.

    In ``constant_memory`` mode XlsxWriter streams rows to a temporary file; the
    body of a 50,000-tree table is encoded a column at a time (see
    :func:`_xml_column`) and appended to that stream here, which is 5-6× faster
    than one ``write_*`` call per cell. The hooks used (``_write_single_row``,
    ``_check_dimensions``, ``previous_row``, ``fh``) are XlsxWriter's own
    streaming machinery; :meth:`can_stream` says whether they are there, and
    the per-cell path is used when they are not.
    """

    def can_stream(self) -> bool:
        return bool(self.constant_memory) and all(
            hasattr(self, n) for n in ("_write_single_row", "_check_dimensions", "previous_row", "fh")
        )

    def append_rows_xml(self, first_row: int, last_row: int, last_col: int, xml: str) -> None:
        """Append rows ``first_row..last_row`` (0-based) given as ``<row>`` elements."""
        self._write_single_row(first_row)  # flush the row XlsxWriter holds; it now expects first_row
        self._check_dimensions(first_row, 0)
        self._check_dimensions(last_row, last_col)
        self.fh.write(xml)
        self.previous_row = last_row + 1  # the next row written through the public API follows these


#: Cell styles of the statement (XlsxWriter format properties).
_STYLES: dict[str, dict[str, Any]] = {
    "title": {"bold": True, "font_size": 13},
    "sub": {"bold": True, "italic": True},
    "bold": {"bold": True},
    "header": {
        "bold": True,
        "font_color": "#FFFFFF",
        "bg_color": "#2F5F3A",
        "pattern": 1,
        "text_wrap": True,
        "valign": "top",
    },
}
_TIME = "h:mm:ss"
_EXCEL_EPOCH = _dt.datetime(1899, 12, 30)


class _Book:
    """An XlsxWriter workbook (``constant_memory``: rows stream to disk in order) with the statement's styles.

    Every string is written with ``write_string`` (never ``write``, which would
    take ``=...`` for a formula), and the workbook is told not to turn strings
    into formulas, URLs or numbers. In ``constant_memory`` mode strings are
    inline strings. A string that :func:`needs_quote_prefix` carries the
    ``quotePrefix`` style.
    """

    def __init__(self, target: Any, *, stream_rows: bool = True) -> None:
        self.wb = xlsxwriter.Workbook(
            target,
            {
                "constant_memory": True,
                "strings_to_formulas": False,
                "strings_to_urls": False,
                "strings_to_numbers": False,
            },
        )
        self.stream_rows = stream_rows
        self._formats: dict[tuple[str | None, str | None, bool, bool], Any] = {}
        self._xml_values: dict[tuple[Any, ...], str] = {}

    def format(
        self, style: str | None = None, num: str | None = None, *, quote: bool = False, wrap: bool = False
    ) -> Any:
        """The (cached) XlsxWriter format of a style, number format, quote prefix and wrap; None for none."""
        key = (style, num, quote, wrap)
        if key not in self._formats:
            props: dict[str, Any] = dict(_STYLES.get(style or "", {}))
            if num:
                props["num_format"] = num
            if quote:
                props["quote_prefix"] = True
            if wrap:
                props.update(text_wrap=True, valign="top")
            self._formats[key] = self.wb.add_format(props) if props else None
        return self._formats[key]

    def sheet(self, title: str) -> _StreamSheet:
        return self.wb.add_worksheet(title, worksheet_class=_StreamSheet)

    def layout(self, ws: _StreamSheet, widths: Sequence[float], freeze: str | None, auto_filter: str | None) -> None:
        for j, width in enumerate(widths):
            ws.set_column(j, j, width)
        if freeze:
            ws.freeze_panes(freeze)
        if auto_filter:
            ws.autofilter(auto_filter)

    def cell(
        self,
        ws: _StreamSheet,
        row: int,
        col: int,
        value: Any,
        fmt: str | None = None,
        *,
        style: str | None = None,
        wrap: bool = False,
    ) -> None:
        """Write ``value`` at (row, col), 0-based; strings always as strings (never formulas)."""
        v = _cell(value)
        if v is None or (isinstance(v, str) and not v):
            if style:
                ws.write_blank(row, col, None, self.format(style))
            return
        if isinstance(v, str):
            s = safe_text(v)
            f = self.format(style, quote=needs_quote_prefix(s), wrap=wrap)
            if s.startswith("<r>") and s.endswith("</r>"):
                # XlsxWriter (constant_memory) copies such a string into the file as raw rich-text XML, unescaped:
                # "<r>&</r>" would make the sheet unreadable. Plain runs of the same text are escaped.
                ws.write_rich_string(row, col, s[:1], s[1:-1], s[-1:], *([f] if f is not None else []))
                return
            ws.write_string(row, col, s, f)
        elif isinstance(v, _dt.datetime):
            ws.write_datetime(row, col, v, self.format(style, DATETIME))
        elif isinstance(v, _dt.date):
            ws.write_datetime(row, col, v, self.format(style, DATE))
        elif isinstance(v, _dt.time):
            ws.write_datetime(row, col, v, self.format(style, _TIME))
        else:
            ws.write_number(row, col, v, self.format(style, fmt))

    @staticmethod
    def check_size(ws: _StreamSheet, rows: int, cols: int) -> None:
        """A clear error when a sheet would exceed Excel's size (XlsxWriter would drop the excess silently)."""
        if rows > _MAX_ROWS or cols > _MAX_COLS:
            raise ValueError(
                f"the statement's {ws.name!r} sheet would need {rows:,} rows and {cols:,} columns; an Excel sheet "
                f"holds at most {_MAX_ROWS:,} rows and {_MAX_COLS:,} columns: split the survey, or use the JSON "
                "output (--json), which has no such limit"
            )

    def header_cells(self, ws: _StreamSheet, row: int, headers: Sequence[Any]) -> None:
        for j, h in enumerate(headers):
            self.cell(ws, row, j, h, style="header")

    def table_rows(self, ws: _StreamSheet, first_row: int, frame: pd.DataFrame, fmts: Sequence[str | None]) -> None:
        """The body of a big table from row ``first_row`` (0-based), column by column, in chunks."""
        chunk = _CHUNK_ROWS
        stream = self.stream_rows and ws.can_stream()
        ncol = len(frame.columns)
        if not ncol:
            return
        for start in range(0, len(frame), chunk):
            part = frame.iloc[start : start + chunk]
            r0 = first_row + start
            if stream:
                xml = _rows_xml([_xml_column(self, part.iloc[:, j], fmts[j]) for j in range(ncol)], r0, len(part))
                ws.append_rows_xml(r0, r0 + len(part) - 1, max(ncol - 1, 0), xml)
                continue
            values = [_column_values(part.iloc[:, j]) for j in range(ncol)]
            for i, row in enumerate(zip(*values)):
                for j, v in enumerate(row):
                    if v is not None:
                        self.cell(ws, r0 + i, j, v, fmts[j])

    def grid_rows(self, ws: _StreamSheet, rows: Sequence[Sequence[tuple[Any, str | None, str | None, bool]]]) -> None:
        """Rows from the top of a sheet, each a list of (value, number format, style, wrap) cells."""
        chunk = _CHUNK_ROWS
        self.check_size(ws, len(rows), max((len(r) for r in rows), default=0))
        for start in range(0, len(rows), chunk):
            part = rows[start : start + chunk]
            if not (self.stream_rows and ws.can_stream()):
                for i, row in enumerate(part, start):
                    for j, (v, f, style, wrap) in enumerate(row):
                        self.cell(ws, i, j, v, f, style=style, wrap=wrap)
                continue
            xml = []
            for i, row in enumerate(part, start + 1):
                cells = [(j, self.xml_value(v, f, style, wrap)) for j, (v, f, style, wrap) in enumerate(row)]
                body = "".join([f'<c r="{xl_col_to_name(j)}{i}"{c}' for j, c in cells if c])
                if body:
                    xml.append(f'<row r="{i}">{body}</row>')
            ncol = max((len(r) for r in part), default=1)
            ws.append_rows_xml(start, start + len(part) - 1, max(ncol - 1, 0), "".join(xml))

    def xml_value(self, v: Any, fmt: str | None, style: str | None, wrap: bool) -> str:
        """:func:`_xml_value`, each distinct text, int or bool with its format and style encoded once."""
        t = v.__class__
        if not (t is str or t is int or t is bool):  # floats: -0.0 == 0.0 but is written apart
            return _xml_value(self, v, fmt, style, wrap)
        key = (t, v, fmt, style, wrap)
        body = self._xml_values.get(key)
        if body is None:
            body = self._xml_values[key] = _xml_value(self, v, fmt, style, wrap)
        return body

    def bar_chart(
        self,
        ws: _StreamSheet,
        *,
        title: str,
        value_axis: str,
        categories: str,
        series: Sequence[tuple[str, str]],
        anchor: str,
        height_cm: float,
        width_cm: float,
    ) -> None:
        """A stacked horizontal bar chart, largest category at the top; ranges are A1 references."""
        ch = self.wb.add_chart({"type": "bar", "subtype": "stacked"})
        for name, values in series:
            ch.add_series({"name": name, "categories": categories, "values": values, "overlap": 100})
        ch.set_title({"name": title})
        ch.set_x_axis({"name": value_axis, "num_format": "$#,##0"})  # a bar chart's x axis is its value axis
        ch.set_y_axis({"reverse": True})
        ch.set_legend({"position": "bottom"})
        px_per_cm = 96 / 2.54
        ch.set_size({"width": round(width_cm * px_per_cm), "height": round(height_cm * px_per_cm)})
        ws.insert_chart(anchor, ch)

    def close(self, title: str) -> None:
        self.wb.set_properties({"title": title, "author": "treecalc"})
        self.wb.close()


def _excel_serial(v: _dt.date | _dt.time) -> float:
    """Excel's serial date (1900 date system; a time is a fraction of a day).

    Excel counts a 29 February 1900 that never was, so serials from 1900-03-01
    on are days since 1899-12-30, and earlier ones days since 1899-12-31 (the
    rule XlsxWriter's ``write_datetime`` applies; 1900-01-01 is 1).
    """
    if isinstance(v, _dt.time):
        return (v.hour * 3600 + v.minute * 60 + v.second + v.microsecond / 1e6) / 86400
    if not isinstance(v, _dt.datetime):
        v = _dt.datetime(v.year, v.month, v.day)
    days = (v.replace(tzinfo=None) - _EXCEL_EPOCH) / _dt.timedelta(days=1)
    return days if days >= 61 else days - 1  # 61 = 1900-03-01


def _column_values(s: pd.Series) -> list[Any]:
    """A column as Python values, None where missing; booleans as Yes/No."""
    vals = s.astype(object).where(s.notna(), None).tolist()
    if pd.api.types.is_bool_dtype(s.dtype):
        return [None if v is None else ("Yes" if v else "No") for v in vals]
    return vals


def _xml_escape(s: str) -> str:
    if "_x" in s:
        s = _OOXML_ESCAPE.sub(r"_x005F\1", s)  # as XlsxWriter does: a literal "_x0041_" must not read as "A"
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return s.replace("\r", "&#13;") if "\r" in s else s  # a raw CR would be read back as LF


def _xml_value(book: _Book, v: Any, fmt: str | None, style: str | None = None, wrap: bool = False) -> str:
    """The part of a ``<c>`` element after its ``r`` attribute, or "" for no cell (what :meth:`_Book.cell` writes)."""
    if v.__class__ is not str:
        v = _cell(v)
    if v is None or (isinstance(v, str) and not v):
        return f' s="{book.format(style)._get_xf_index()}"/>' if style else ""
    if isinstance(v, str):
        s = safe_text(v)
        f = book.format(style, quote=needs_quote_prefix(s), wrap=wrap)
        sty = f' s="{f._get_xf_index()}"' if f is not None else ""
        space = ' xml:space="preserve"' if s[0].isspace() or s[-1].isspace() else ""
        return f'{sty} t="inlineStr"><is><t{space}>{_xml_escape(s)}</t></is></c>'
    if isinstance(v, (_dt.date, _dt.time)):
        fmt = DATETIME if isinstance(v, _dt.datetime) else DATE if isinstance(v, _dt.date) else _TIME
        v = _excel_serial(v)
    f = book.format(style, fmt)
    sty = f' s="{f._get_xf_index()}"' if f is not None else ""
    return f"{sty}><v>{v!r}</v></c>"


def _xml_column(book: _Book, s: pd.Series, fmt: str | None) -> list[str]:
    """Of each cell of one column, the part of its ``<c>`` element after the ``r`` attribute; "" for no cell.

    Each distinct value is encoded once (a column of species names has a few dozen; numbers repeat too):
    numbers exactly (``repr``; floats told apart by their bits, so -0.0 stays -0.0), other values as
    :func:`_xml_value` writes them.
    """
    dtype = s.dtype
    # integers and floats only: a numeric Arrow decimal column (kind "O") holds Decimal objects, whose repr is no number
    if isinstance(dtype, np.dtype) and dtype.kind in "iuf":
        arr = s.to_numpy()
        if not np.isinf(arr).any():
            f = book.format(num=fmt)
            head = f' s="{f._get_xf_index()}"><v>' if f is not None else "><v>"
            missing = np.isnan(arr) if dtype.kind == "f" else np.zeros(len(arr), dtype=bool)
            codes, uniques = pd.factorize(arr.view(np.int64) if dtype == np.float64 else arr)
            values = uniques.view(np.float64) if dtype == np.float64 else uniques
            texts = np.array([f"{head}{v!r}</v></c>" for v in values.tolist()] + [""], dtype=object)
            return texts[np.where(missing, len(texts) - 1, codes)].tolist()
    if getattr(dtype, "kind", "O") in "iuf":
        arr = s.to_numpy(dtype=float, na_value=np.nan)
        if not np.isinf(arr).any():
            f = book.format(num=fmt)
            head = f' s="{f._get_xf_index()}"><v>' if f is not None else "><v>"
            vals = s.astype(object).where(s.notna(), None).tolist()
            return ["" if v is None else f"{head}{v!r}</v></c>" for v in vals]
    values = _column_values(s)
    if set(map(type, values)) <= {str, type(None)}:  # texts: each distinct one encoded once, in order of appearance
        codes, uniques = pd.factorize(np.array(values, dtype=object))
        texts = np.array([_xml_value(book, u, fmt) for u in uniques.tolist()] + [""], dtype=object)
        return texts[np.where(codes < 0, len(texts) - 1, codes)].tolist()
    bodies = []
    seen: dict[tuple[type, Any], str] = {}
    for v in values:
        if v is None:
            bodies.append("")
            continue
        try:
            body = seen[(v.__class__, v)]
        except KeyError:
            body = seen[(v.__class__, v)] = _xml_value(book, v, fmt)
        except TypeError:  # unhashable (a list of warnings)
            body = _xml_value(book, v, fmt)
        bodies.append(body)
    return bodies


def _rows_xml(columns: list[list[str]], first_row: int, n: int) -> str:
    """``<row>`` elements of ``n`` rows from row ``first_row`` (0-based), from each column's cell bodies
    (:func:`_xml_column`). A column with a cell in every row is a slot of one row template (``<c r="B%s"%s``);
    the others are written cell by cell; each row is one ``%`` of the template."""
    numbers = [str(r) for r in range(first_row + 1, first_row + 1 + n)]
    parts, slots = [numbers], ['<row r="%s">']
    for j, bodies in enumerate(columns):
        letter = xl_col_to_name(j)
        if all(bodies):
            parts += [numbers, bodies]
            slots.append(f'<c r="{letter}%s"%s')
        else:
            parts.append([f'<c r="{letter}{r}"{b}' if b else "" for r, b in zip(numbers, bodies)])
            slots.append("%s")
    template = "".join(slots) + "</row>"
    return "".join([template % row for row in zip(*parts)])


class _Grid:
    """Rows of a small sheet, collected so that widths are known before writing.

    Each row is a list of (value, format, font) triples (or None).
    """

    def __init__(self) -> None:
        self.rows: list[list[tuple[Any, str | None, str | None]] | None] = []

    @property
    def next_row(self) -> int:
        return len(self.rows) + 1

    def add(self, values: Sequence[Any], fmts: Sequence[str | None] | None = None, font: str | None = None) -> int:
        fmts = list(fmts or [None] * len(values))
        self.rows.append([(v, f, font) for v, f in zip(values, fmts + [None] * (len(values) - len(fmts)))])
        return len(self.rows)

    def note(self, label: str, text: Any) -> int:
        """A label and a long text that overflows into the empty cells to its right."""
        return self.add([label, text], font="note")

    def blank(self) -> None:
        self.rows.append([])

    def notes(self, notes: Sequence[str]) -> None:
        """A "Notes" block after a blank row; nothing when there are none."""
        if notes:
            self.blank()
            self.subtitle("Notes")
            for n in notes:
                self.note("Note", n)

    def title(self, text: str) -> int:
        return self.add([text], font="title")

    def subtitle(self, text: str) -> int:
        return self.add([text], font="sub")

    def header(self, headers: Sequence[str]) -> int:
        return self.add(list(headers), font="header")

    def widths(self, minimum: int = 8, maximum: int = 60) -> list[float]:
        w: dict[int, float] = {}
        for row in self.rows[:_WIDTH_SAMPLE]:
            if not row:
                continue
            if row and row[0][2] in ("title", "sub") and len(row) == 1:
                continue  # titles overflow into the empty cells to the right
            for j, (v, f, font) in enumerate(row):
                if font == "note" and j == len(row) - 1:
                    continue  # overflows to the right
                n = _display_len(v, f)
                if font == "header":
                    n = min(n, 28)  # headers wrap
                w[j] = max(w.get(j, 0), n)
        ncol = max(w) + 1 if w else 1
        return [min(maximum, max(minimum, w.get(j, 0) + 2)) for j in range(ncol)]

    def write(
        self,
        book: _Book,
        ws,
        *,
        freeze: str | None = None,
        auto_filter: str | None = None,
        widths: Sequence[float] | None = None,
        wrap_cols: Sequence[int] = (),
    ) -> None:
        """Write the rows; text in the 1-based columns ``wrap_cols`` wraps (long notes, readings)."""
        book.layout(ws, widths or self.widths(), freeze, auto_filter)
        wrap = {j - 1 for j in wrap_cols}
        rows = []
        for row in self.rows:
            header = bool(row and row[0][2] == "header")
            rows.append(
                [
                    (
                        v,
                        None if header else f,
                        "header" if header else font if font in ("title", "sub", "bold") else None,
                        j in wrap and not header and isinstance(v, str) and len(v) > 40,
                    )
                    for j, (v, f, font) in enumerate(row or [])
                ]
            )
        book.grid_rows(ws, rows)


def _distinct_values(s: pd.Series) -> list[Any]:
    """The values of a column, each distinct one once (the widest of a column is the widest of these).

    Floats are told apart by their bits (-0.0 is wider than 0.0); strings, ints and bools by value (1 and
    True stay apart); anything else is kept as it is.
    """
    if s.dtype == np.float64:
        arr = s.to_numpy()
        return np.unique(arr.view(np.int64)).view(np.float64).tolist()
    out: list[Any] = []
    seen: set[tuple[type, Any]] = set()
    for v in s.tolist():
        t = v.__class__
        if t is str or t is int or t is bool:
            if (t, v) in seen:
                continue
            seen.add((t, v))
        out.append(v)
    return out


def _display_len(v: Any, fmt: str | None) -> int:
    v = _cell(v)
    if v is None:
        return 0
    if isinstance(v, (int, float)):
        if fmt in (USD, USD_RATE):
            return len(f"${v:,.2f}")
        if fmt == SHARE:
            return 6
        return len(f"{v:,.2f}") if isinstance(v, float) else len(f"{v:,}")
    if isinstance(v, (_dt.date, _dt.time)):
        return 16
    s = str(v)
    return max((len(line) for line in s.splitlines()), default=0)


def _range(first_row: int, last_row: int, ncols: int) -> str:
    return f"A{first_row}:{xl_col_to_name(max(1, ncols) - 1)}{max(first_row, last_row)}"


# ---------------------------------------------------------------------------
# sheets


def _jurisdiction(a: Any) -> str:
    """The jurisdiction's full name ("Village of Croton-on-Hudson, Chapter 208") or the key as given."""
    key = str(_get(a, "jurisdiction", "") or "")
    try:
        from treecalc.rules.law_data import JURISDICTIONS, jurisdiction_key

        return JURISDICTIONS.get(jurisdiction_key(key), key)
    except Exception:  # rules not importable, or an unknown name: show it as given
        return key


def _value_basis(a: Any) -> str:
    rep = _get(a, "replacement", {}) or {}
    basis = (
        _get(rep, "value_basis")
        or _get(_get(a, "method", {}), "value_basis")
        or _get(_get(a, "options", {}), "value_basis")
    )
    if isinstance(basis, Mapping):
        basis = basis.get("name") or basis.get("basis") or _text(basis)
    return str(basis) if basis else "annual"


def _kv_block(
    grid: _Grid,
    d: Mapping[str, Any] | None,
    *,
    skip: Iterable[str] = (),
    order: Sequence[str] = (),
    default_section: str = "",
    list_rows: Iterable[str] = (),
    tables: list[tuple[str, list[dict[str, Any]]]] | None = None,
) -> None:
    """Rows Item | Value | Unit | Section | Note for the scalar entries of ``d``.

    Keys in ``list_rows`` get one row per element (notes, warnings).
    Nested dicts are flattened ("parent › child"). A list of dicts is appended
    to ``tables`` as (label, records), for the caller to write as a table
    after the block (without ``tables`` it is joined into one cell).
    """
    if not d:
        return
    skip = set(skip)
    list_rows = set(list_rows)
    keys = [k for k in order if k in d] + [k for k in d if k not in order]
    for k in keys:
        if k in skip:
            continue
        v = d[k]
        if _missing(_scalar(v)) if not isinstance(v, (list, tuple, Mapping, pd.DataFrame, np.ndarray)) else False:
            continue  # not applicable here (e.g. no civil penalty in Wesley Hills)
        if isinstance(v, (list, tuple)) and not v:
            continue  # nothing to list (no doubling reasons)
        label, unit, fmt = _key_info(k)
        if k in list_rows and isinstance(v, (list, tuple)):
            for x in v:
                grid.add([label.rstrip("s") if label.endswith("s") else label, _text(x), "text", default_section, ""])
            continue
        if tables is not None and isinstance(v, (list, tuple)) and v and all(isinstance(x, Mapping) for x in v):
            tables.append((label, _records(v)))
            grid.add([label, len(v), "rows", default_section, "see the table below"], [None, INT])
            continue
        if isinstance(v, Mapping):
            for path, x in _flatten(v, [str(k)]):
                lab = " › ".join(_path_labels(path))
                _, u2, f2 = _key_info(path[-1])
                x = _cell(x)
                grid.add(
                    [lab, x, _unit_text(u2, x), default_section, ""],
                    [None, f2 if isinstance(x, (int, float)) else None],
                )
            continue
        x = _cell(v) if not isinstance(v, (list, tuple, set)) else _text(v)
        grid.add(
            [label, x, _unit_text(unit, x), default_section, ""], [None, fmt if isinstance(x, (int, float)) else None]
        )


def _records_table(g: _Grid, title: str, records: list[dict[str, Any]]) -> tuple[int, int]:
    """A sub-table: heading, header row, one row per record. Returns (header row, last row)."""
    g.blank()
    g.subtitle(title)
    keys = list(dict.fromkeys(k for r in records for k in r))
    first = [k for k in _TREE_FIRST if k in keys]
    keys = first + [k for k in keys if k not in first]
    h = g.header([_header(k) for k in keys])
    fmts = [_key_info(k)[2] for k in keys]
    for r in records:
        g.add([r.get(k) for k in keys], fmts)
    return h, g.next_row - 1


def _unit_text(unit: str, value: Any) -> str:
    if unit:
        return unit
    if value is None:
        return ""
    if isinstance(value, str) and value.strip().lower() in ("yes", "no"):
        return "yes/no"
    if isinstance(value, (int, float)):
        return "number"
    return "text"


def _path_labels(path: Sequence[str]) -> list[str]:
    """Labels of a flattened path; the last key loses its unit suffix (the unit has its own column)."""
    out = [p if p.startswith("[") else _humanize(p) for p in path[:-1]]
    if path:
        p = path[-1]
        out.append(p if p.startswith("[") else _key_info(p)[0])
    return out


def _flatten(obj: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    """(path, scalar) pairs of a nested structure of dicts, lists and DataFrames."""
    if isinstance(obj, pd.DataFrame):
        obj = obj.to_dict("records")
    if isinstance(obj, pd.Series):
        obj = obj.to_dict()
    if isinstance(obj, Mapping):
        if not obj:
            yield path, "(none)"
        for k, v in obj.items():
            yield from _flatten(v, path + [str(k)])
    elif isinstance(obj, (list, tuple, set, frozenset, np.ndarray)):
        items = list(obj)
        if not items:
            yield path, "(none)"
        elif (
            all(not isinstance(x, (Mapping, list, tuple, set, pd.DataFrame)) for x in items)
            and sum(len(_text(x)) for x in items) <= 120
        ):
            yield path, "; ".join(_text(x) for x in items)
        else:
            for i, x in enumerate(items, 1):
                if isinstance(x, Mapping) or isinstance(x, (list, tuple)):
                    yield from _flatten(x, path + [f"[{i}]"])
                else:
                    yield path, x
    else:
        yield path, obj


def _summary(book: _Book, a: Any) -> None:
    ws = book.sheet("Summary")
    g = _Grid()
    survey = _get(a, "survey")
    src = _get(survey, "source", {}) or {}
    file_name = _get(src, "file") or _get(src, "file_name") or _get(src, "name") or _get(src, "path") or ""
    sheet = _get(src, "sheet") or _get(src, "sheet_name") or ""
    where = f"{os.path.basename(str(file_name))}" + (f" (sheet {sheet})" if sheet else "") if file_name else ""
    rows_read = _get(survey, "rows_read")
    parts = [f"Tree statement — {_jurisdiction(a) or 'jurisdiction not given'}"]
    if where:
        parts.append(where)
    if rows_read is not None:
        parts.append(f"{rows_read} rows read")
    parts.append(f"value basis: {_value_basis(a)}")
    g.title(" — ".join(parts))
    hdr = g.header(["Section", "Item", "Value", "Unit", "Note"])
    for line in _records(_get(a, "lines", [])):
        v = _cell(line.get("value"))
        if isinstance(line.get("value"), (list, tuple, Mapping)):
            v = _text(line.get("value"))
        unit = str(_get(line, "unit", "") or "") or _unit_text("", v)
        g.add(
            [_get(line, "section", "") or "—", _get(line, "item", ""), v, unit, _get(line, "note", "")],
            [None, None, _fmt_for_unit(unit, v)],
        )
    last_line = g.next_row - 1
    total = _out_of_pocket(a)
    if total is not None:  # the applicant's headline under the lines, in the words of the app and the PDF
        g.blank()
        g.add(list(total), [None, None, _fmt_for_unit("USD", total[2])])

    permit = _get(a, "permit", {}) or {}
    triggers = _records(_get(permit, "triggers", []))
    g.blank()
    g.subtitle("Permit triggers that hold" + ("" if triggers else ": none"))
    if triggers:
        g.header(["Section", "Trigger", "Trees (tags)", "", ""])
        for t in triggers:
            g.add([_get(t, "section", ""), _get(t, "text", ""), _text(_get(t, "tags", []))])
    exc = _get(permit, "exceptions_applied", [])
    if exc:
        g.add(["Exceptions applied", _text(exc)])

    warnings = list(_get(a, "warnings", []) or [])
    if warnings:
        g.blank()
        g.subtitle(f"Warnings ({len(warnings)})")
        for w in warnings:
            g.note("Warning", _text(w))

    # removed value by species (the chart's data)
    table = _removed_by_species(_get(a, "trees"))
    g.blank()
    basis = _value_basis(a)
    g.subtitle(
        f"Value of the trees removed or harmed, by species ($, value basis {basis})"
        + ("" if len(table) else ": no tree harmed")
    )
    chart_rows = None
    if len(table):
        h = g.header(["Species", "Trees", "Counted for replacement ($)", "Not counted ($)", "Total ($)"])
        for r in table.itertuples(index=False):
            g.add(
                [r.label, int(r.trees), float(r.counted), float(r.not_counted), float(r.total)],
                [None, INT, USD, USD, USD],
            )
        chart_rows = (h, g.next_row - 1)

    widths = g.widths()
    if len(widths) >= 3:
        widths[1] = max(widths[1], 30)
        widths[2] = min(max(widths[2], 14), 40)
    g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=_range(hdr, last_line, 5), widths=widths, wrap_cols=(3, 5))

    if chart_rows:
        h, last = chart_rows
        top = min(last, h + 25)  # the 25 largest species
        n = last - h
        book.bar_chart(
            ws,
            title="Value of trees removed, by species" + (f" (largest 25 of {n})" if n > 25 else ""),
            value_axis=f"$ ({basis})",
            categories=f"='Summary'!$A${h + 1}:$A${top}",
            series=[(f"='Summary'!${c}${h}", f"='Summary'!${c}${h + 1}:${c}${top}") for c in "CD"],
            anchor=f"G{hdr}",
            height_cm=max(7.5, 0.6 * (top - h) + 3),
            width_cm=18,
        )


def _out_of_pocket(a: Any) -> tuple[str, str, float, str, str] | None:
    """The applicant's total (planting cost + payment in lieu) as a Summary row, from the findings as the PDF
    adds it up (:func:`treecalc.report.content.plain_answer`); ``None`` when no replacement is required or the
    law has no fund."""
    from treecalc.report.content import plain_answer

    rep, fund = _get(a, "replacement", {}) or {}, _get(a, "fund", {}) or {}
    if not _get(rep, "required") or not _fund_name(a):
        return None
    d = {
        "jurisdiction": _get(a, "jurisdiction"),
        "lines": _records(_get(a, "lines", [])),
        "replacement": {k: _get(rep, k) for k in ("trees_planted", "planting_cost_usd", "trees_in_lieu")},
        "fund_in_lieu_usd": _get(fund, "fund_in_lieu_usd"),
    }
    p = plain_answer(d)
    if p["total_usd"] is None:
        return None
    s = p["sections"]
    return (
        f"{s['planting_cost_usd']} + {s['fund_in_lieu_usd']}",
        "Total out of pocket",
        float(p["total_usd"]),
        "USD",
        "planting cost + payment in lieu; penalties, if any, are not part of it",
    )


def _removed_by_species(trees: Any) -> pd.DataFrame:
    """Species | trees | counted value | not counted value | total of the harmed trees."""
    cols = ["label", "trees", "counted", "not_counted", "total"]
    if not isinstance(trees, pd.DataFrame) or trees.empty:
        return pd.DataFrame(columns=cols)
    t = trees
    if "harmed" in t:
        sel = t["harmed"].fillna(False).astype(bool)
    elif "action" in t:
        sel = t["action"].astype(str).str.strip().str.lower().str.startswith("remov")
    else:
        sel = pd.Series(True, index=t.index)
    t = t[sel.to_numpy()]
    if t.empty:
        return pd.DataFrame(columns=cols)
    vcol = "value_usd" if "value_usd" in t else ("usd_total_annual" if "usd_total_annual" in t else None)
    value = pd.to_numeric(t[vcol], errors="coerce").fillna(0.0) if vcol else pd.Series(0.0, index=t.index)
    counted = t["counted"].fillna(False).astype(bool) if "counted" in t else pd.Series(True, index=t.index)
    name = (
        t["species"].astype(object).where(t["species"].notna(), "").astype(str).str.strip()
        if "species" in t
        else pd.Series("", index=t.index)
    )
    if "species_code" in t:
        key = t["species_code"].astype(object).where(t["species_code"].notna(), "").astype(str)
    else:
        key = name.str.lower()
    df = pd.DataFrame(
        {
            "key": key.to_numpy(),
            "name": name.to_numpy(),
            "value": value.to_numpy(float),
            "counted": counted.to_numpy(bool),
        }
    )
    df["cv"] = np.where(df["counted"], df["value"], 0.0)
    df["nv"] = np.where(df["counted"], 0.0, df["value"])
    out = []
    for k, grp in df.groupby("key", sort=False):
        names = grp["name"][grp["name"] != ""]
        nm = names.mode().iloc[0] if len(names) else ""
        label = f"{nm} ({k})" if nm and k and nm.lower() != k.lower() else (nm or k or "(unknown)")
        out.append(
            (label, len(grp), round(grp["cv"].sum(), 2), round(grp["nv"].sum(), 2), round(grp["value"].sum(), 2))
        )
    res = pd.DataFrame(out, columns=cols).sort_values(["total", "label"], ascending=[False, True], kind="stable")
    return res.reset_index(drop=True)


#: Column order on the Trees sheet; unknown columns (flags...) go after ``notes``.
_TREE_FIRST = (*SURVEY_KEY_COLUMNS, "scientific_name", "common_name", *SURVEY_FIELD_COLUMNS)
_TREE_LAST = (
    "value_row",
    "benefit_land_use",
    *BENEFIT_COLUMNS,
    "value_usd",
    *TREE_PERMIT_COLUMNS,
    *TREE_PENALTY_COLUMNS,
    "warnings",
)


def _table_sheet(
    book: _Book,
    title: str,
    heading: str,
    frame: pd.DataFrame,
    first: Sequence[str],
    last: Sequence[str],
    headers: Mapping[str, str] | None = None,
    freeze_col: str = "A",
    empty_note: str = "",
) -> None:
    """A sheet holding one table (title row 1, header row 2, frozen, filtered)."""
    ws = book.sheet(title)
    frame = frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(_records(frame))
    cols = [c for c in frame.columns if not str(c).startswith("_")]
    order = [c for c in first if c in cols]
    order += [c for c in cols if c not in first and c not in last]
    order += [c for c in last if c in cols]
    headers = dict(headers or {})
    head = [headers.get(c) or _header(c) for c in order]
    fmts = [_key_info(c)[2] for c in order]
    n = len(frame)
    book.check_size(ws, n + 2, len(order))  # title, header, one row per record

    # widths from the header and a sample of the rows
    sample = frame.head(_WIDTH_SAMPLE)
    widths = []
    for c, h, f in zip(order, head, fmts):
        w = min(len(h), 24)
        for v in _distinct_values(sample[c]):
            w = max(w, _display_len(v, f))
        widths.append(min(60, max(8, w + 2)))
    book.layout(ws, widths, f"{freeze_col}3", _range(2, n + 2, len(order)))
    book.cell(ws, 0, 0, heading if n or not empty_note else f"{heading} — {empty_note}", style="title")
    if head:
        book.header_cells(ws, 1, head)
    else:
        book.cell(ws, 1, 0, empty_note or "(no columns)")
    book.table_rows(ws, 2, frame[order], fmts)


def _trees(book: _Book, a: Any) -> None:
    trees = _get(a, "trees")
    if not isinstance(trees, pd.DataFrame):
        trees = pd.DataFrame(_records(trees))
    basis = _value_basis(a)
    n = len(trees)
    harmed = int(trees["harmed"].fillna(False).astype(bool).sum()) if "harmed" in trees else None
    heading = (
        f"Trees — {n} surveyed"
        + (f", {harmed} removed or harmed" if harmed is not None else "")
        + '; benefits per year (i-Tree Streets), value, permit triggers, penalty tier; penalties are maxima ("up to")'
    )
    _table_sheet(
        book,
        "Trees",
        heading,
        trees,
        _TREE_FIRST,
        _TREE_LAST,
        headers={"value_usd": f"Value ($, {basis})"},
        freeze_col="C" if "tag" in trees and "source_row" in trees else "B",
        empty_note="no trees",
    )


#: The first rows of the Replacement plan and Fund sheets, in the order of the §208-22 reckoning: what is
#: required, the trees needed and planted, the fee for trees not planted (§208-22D), the values planted and
#: unmet, the cost, the natives (§208-22C), the payment to the Fund (§208-24). Each sheet shows the keys its
#: finding has (:class:`treecalc.results.Replacement`, :class:`treecalc.results.Fund`), then the rest in
#: their own order.
_FINDING_ORDER = (
    "required",
    "percent",
    "value_basis",
    "removed_value_usd",
    "required_value_usd",
    "trees_needed",
    "trees_planted",
    "basis",
    "fee_per_tree_usd",
    "multiplier",
    "placeholder",
    "trees_in_lieu",
    "planted_value_usd",
    "unmet_value_usd",
    "planting_cost_usd",
    "native_share",
    "fund_in_lieu_usd",
)


def _kv_header(g: _Grid, given: Any, item: str, rule: str) -> int:
    """The Item/Value/Unit/Section/Note header of a sheet of key-value rows; a 'not applicable' row when the
    assessment gave nothing for it (no ``rule`` rule was applied). Returns the header's row."""
    hdr = g.header(["Item", "Value", "Unit", "Section", "Note"])
    if not given:
        g.add([item, "not applicable", "text", "", f"no {rule} rule was applied"])
    return hdr


def _min_trees_words(a: Any) -> str:
    """§208-22A's count of trees under a permit (the law's data), spelt as the ordinance does ("three")."""
    from treecalc.rules.croton_on_hudson import _words
    from treecalc.rules.law_data import law

    on = (getattr(a, "options", None) or {}).get("on")
    from treecalc.law.schema import as_date

    return _words(law(str(_get(a, "jurisdiction")), as_date(on))["replacement"]["min_trees"])  # a law with parts


def _replacement(book: _Book, a: Any) -> None:
    ws = book.sheet("Replacement plan")
    rep = _get(a, "replacement", {}) or {}
    g = _Grid()
    section = _get(rep, "section", "")
    basis = _value_basis(a)
    g.title(f"Replacement plan — {_jurisdiction(a)} — {section or 'no replacement rule'} — value basis: {basis}")
    hdr = _kv_header(g, rep, "Replacement", "replacement")
    share = rep.get("native_share") if isinstance(rep, Mapping) else None
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    _kv_block(
        g,
        {k: v for k, v in dict(rep).items() if k != "native_share"} if rep else {},
        skip=("plan", "stock", "warnings", "notes", "section", "parts", "excluded", "conditional_22f"),
        order=_FINDING_ORDER,
        default_section=section,
        tables=tables,
    )
    # the parts of §208-22 (120% on trees harmed in offences, 90% on removals proposed under a permit)
    parts = [{k: v for k, v in p.items() if k != "tags"} for p in _records(_get(rep, "parts", []))]
    if parts:
        tables.insert(
            0,
            (
                "Replacement parts (§208-22F: trees harmed in offences; §208-22A: proposed removals "
                f"under a permit for {_min_trees_words(a)} or more trees)",
                parts,
            ),
        )
    excluded = _records(_get(rep, "excluded", []))
    if excluded:
        tables.append(("Trees harmed, not counted (with the reason)", excluded))
    cond = _get(rep, "conditional_22f")
    if cond:  # §208-22F on conditional offences: apart, never in the required value above
        row = {k: v for k, v in dict(cond).items() if k not in ("tags", "text")}
        tables.append(("§208-22F on conditional offences: would be required if established, not required", [row]))
    if share is not None and not _missing(_scalar(share)):
        sv = float(_scalar(share))
        if sv <= 1.0:
            g.add(
                [_KEYS["native_share"][0], sv, "share", section, "§208-22C: natives should be the majority"],
                [None, SHARE],
            )
        else:
            g.add([_KEYS["native_share"][0], sv, "%", section, "§208-22C: natives should be the majority"], [None, NUM])
    last_kv = g.next_row - 1

    plan = _records(_get(rep, "plan", []))
    g.blank()
    g.subtitle("Planting plan (the cheapest mix that meets the requirement)" + ("" if plan else ": no trees to plant"))
    plan_hdr = None
    if plan:
        keys = ["species_code", "scientific_name", "dbh_in", "unit_cost_usd", "value_per_tree_usd", "count", "native"]
        keys += [k for k in plan[0] if k not in keys]
        # the plan's own line totals when it gives them, else count x unit amounts
        own = "cost_usd" in keys or "planted_value_usd" in keys
        plan_hdr = g.header([_header(k) for k in keys] + ([] if own else ["Line cost ($)", "Line value ($)"]))
        for p in plan:
            cnt = _scalar(p.get("count"))
            cost = _scalar(p.get("unit_cost_usd"))
            val = _scalar(p.get("value_per_tree_usd"))
            lc = cnt * cost if isinstance(cnt, (int, float)) and isinstance(cost, (int, float)) else None
            lv = cnt * val if isinstance(cnt, (int, float)) and isinstance(val, (int, float)) else None
            g.add(
                [p.get(k) for k in keys] + ([] if own else [lc, lv]),
                [_key_info(k)[2] for k in keys] + ([] if own else [USD, USD]),
            )
    last_plan = g.next_row - 1

    stock = _records(_get(rep, "stock", []))
    if stock:
        _records_table(g, "Replacement stock offered (§208-22D minimum sizes)", stock)
    for label, records in tables:
        _records_table(g, label, records)
    for name in ("warnings", "notes"):
        items = list(_get(rep, name, []) or [])
        if items:
            g.blank()
            g.subtitle(name.capitalize())
            for x in items:
                g.note(name[:-1].capitalize(), _text(x))
    if plan and hasattr(a, "trees"):  # the replacements against the trees removed, with mortality
        from treecalc.projection import PLANTED, REMOVED, projection, summary

        ps = summary(a)
        g.blank()
        g.subtitle(f"{ps['years']}-year projection")
        g.note("Mortality", f"{ps['mortality_rate']:.1%} of the trees die each year ({ps['mortality_source']})")
        g.note("Payback", _text(ps["payback"]))
        # the chart's figures, year by year (expected annual benefits under that mortality)
        wide = projection(a, ps["years"]).pivot(index="year", columns="series", values="value_usd")
        g.header(["Years from now", f"{REMOVED} ($/yr)", f"{PLANTED} ($/yr)"])
        for year, row in wide.iterrows():
            g.add([int(year), float(row.get(REMOVED, 0.0)), float(row.get(PLANTED, 0.0))], [None, USD, USD])
    widths = g.widths()
    widths[0] = max(widths[0], 30)
    if plan_hdr:
        g.write(
            book,
            ws,
            freeze=f"A{hdr + 1}",
            auto_filter=_range(plan_hdr, last_plan, len(g.rows[plan_hdr - 1] or ())),
            widths=widths,
            wrap_cols=(2, 5),
        )
    else:
        g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=_range(hdr, last_kv, 5), widths=widths, wrap_cols=(2, 5))


def _fund_name(a: Any) -> str:
    """The name of the fund of the law the assessment applied, as its record gives it (:mod:`treecalc.jurisdictions`);
    "" for a law without one, or a jurisdiction not known."""
    from treecalc.jurisdictions import get

    try:
        return get(_get(a, "jurisdiction")).fund_name
    except ValueError:
        return ""


def _fund(book: _Book, a: Any) -> None:
    ws = book.sheet("Fund")
    fund = _get(a, "fund", {}) or {}
    section = _get(fund, "section", "")
    g = _Grid()
    fund_name = _fund_name(a) or "Fund"
    g.title(f"{fund_name} — {_jurisdiction(a)} — payment in lieu of planting{f' ({section})' if section else ''}")
    hdr = _kv_header(g, fund, "Payment in lieu", "fund")
    _kv_block(g, dict(fund), skip=("notes", "section"), order=_FINDING_ORDER, default_section=section)
    if fund and fund.get("placeholder"):
        # flag the fee row itself
        for row in g.rows:
            if row and row[0][0] == _KEYS["fee_per_tree_usd"][0]:
                label = str(_get(fund, "label") or "")
                note = (
                    label
                    if "placeholder" in label.lower()
                    else "PLACEHOLDER: the Board sets the fee by resolution in its fee schedule"
                    + (f" ({label})" if label else "")
                )
                row[4] = (note, None, None)
    last = g.next_row - 1
    notes = [_text(x) for x in (_get(fund, "notes", []) or [])]
    if isinstance(_get(fund, "notes"), str):
        notes = [fund["notes"]]
    g.notes(notes)
    widths = g.widths()
    widths[0] = max(widths[0], 30)
    g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=_range(hdr, last, 5), widths=widths, wrap_cols=(2, 5))


def _penalties(book: _Book, a: Any) -> None:
    ws = book.sheet("Penalties")
    pen = _get(a, "penalties", {}) or {}
    g = _Grid()
    sections = _get(pen, "sections", [])
    sec_text = _text(sections) if sections else ""
    g.title(
        f'Penalties — {_jurisdiction(a)} — maxima ("up to") on definite offences; conditional ones apart'
        + (f" ({sec_text})" if sec_text else "")
    )
    hdr = _kv_header(g, pen, "Penalties", "penalty")
    order = (
        "civil_penalty_max_usd",
        "civil_penalty_conditional_usd",
        "criminal_fine_max_usd",
        "criminal_fine_conditional_usd",
        "fine_max_usd",
        "fine_conditional_usd",
        "offences_definite",
        "offences_conditional",
        "doubled",
        "doubling_reasons",
        "continuing_days",
        "criminal_sections",
        "criminal_alternative_usd",
    )
    _kv_block(
        g,
        dict(pen),
        skip=("per_tree", "not_offences", "notes"),
        order=order,
        default_section=sec_text if len(sec_text) < 40 else "",
    )
    last_kv = g.next_row - 1

    # definite offences (facts given) and conditional ones (an assumed fact) apart, each tree with
    # its own sections; then the trees harmed that are no offence, with the reason
    per_tree = _records(_get(pen, "per_tree", []))
    groups = [
        (
            "Definite offences (facts given): each tree with the sections it broke",
            [r for r in per_tree if r.get("status", "definite") == "definite"],
        ),
        (
            "Conditional offences (rest on a fact that was assumed; not in the maxima)",
            [r for r in per_tree if r.get("status") == "conditional"],
        ),
        ("Harmed, not an offence (listed for the Engineer, no amount)", _records(_get(pen, "not_offences", []))),
    ]
    pt_hdr = None
    last_pt = g.next_row - 1
    for title, rows in groups:
        if rows:
            h, last = _records_table(g, title, rows)
            if pt_hdr is None:
                pt_hdr, last_pt = h, last
        elif per_tree or title.startswith("Definite"):
            g.blank()
            g.subtitle(f"{title}: none")

    notes = _get(pen, "notes", []) or []
    if isinstance(notes, str):
        notes = [notes]
    notes = [_text(n) for n in notes]
    summary = _get(a, "summary")
    if summary is not None:  # the law's own figures (treecalc.results.ChapterSummary), under its own title
        figures = summary.figures()
        g.blank()
        g.subtitle(summary.title)
        g.header(["Item", "Value", "Unit", "Section", "Note"])
        tables: list[tuple[str, list[dict[str, Any]]]] = []
        _kv_block(g, figures, skip=("notes", "warnings"), default_section=summary.default_section, tables=tables)
        for label, records in tables:
            _records_table(g, f"{summary.short} — {label.lower()}", records)
        for name in ("notes", "warnings"):
            items = figures.get(name, []) or []
            notes += [_text(x) for x in ([items] if isinstance(items, str) else items)]
    g.notes(list(dict.fromkeys(notes)))
    widths = g.widths()
    widths[0] = max(widths[0], 30)
    if pt_hdr:
        ref = _range(pt_hdr, last_pt, len(g.rows[pt_hdr - 1] or ()))
    else:
        ref = _range(hdr, last_kv, 5)
    g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=ref, widths=widths, wrap_cols=(2, 5))


def _rejected(book: _Book, a: Any) -> None:
    survey = _get(a, "survey")
    rej = _get(survey, "rejected")
    if not isinstance(rej, pd.DataFrame):
        rej = pd.DataFrame(_records(rej)) if rej is not None else pd.DataFrame()
    if rej.empty and not len(rej.columns):
        rej = pd.DataFrame(columns=["source_row", "tag", "species", "dbh", "column", "reason", "suggestions", "raw"])
    n = len(rej)
    _table_sheet(
        book,
        "Rejected rows",
        f"Rejected rows — {n} row{'s' if n != 1 else ''} of the survey could not be used (text exactly as written)",
        rej,
        ("source_row", "tag", "species", "dbh", "column", "reason", "kind", "suggestions", "raw"),
        (),
        empty_note="none",
    )


def _method(book: _Book, a: Any) -> None:
    ws = book.sheet("Method & sources")
    g = _Grid()
    g.title("Method & sources — value basis, prices, parameters, data sources, sections applied, readings")
    hdr = g.header(["Section", "Item", "Value", "Unit"])

    def emit(section: str, obj: Any, prefix: Sequence[str] = ()) -> None:
        for path, x in _flatten(obj, list(prefix)):
            x = _cell(x)
            unit, fmt = "", None
            if path:
                _, unit, fmt = _key_info(path[-1])
                if len(path) >= 2 and path[-2] == "prices" and path[-1] in _PRICE_UNITS:
                    unit, fmt = _PRICE_UNITS[path[-1]], USD_RATE
            if x is None:
                x, unit = "(not given)", ""
            g.add(
                [section, " › ".join(_path_labels(path)), x, _unit_text(unit, x)],
                [None, None, fmt if isinstance(x, (int, float)) else None],
            )

    method = _get(a, "method", {}) or {}
    method = dict(method) if isinstance(method, Mapping) else dict(vars(method))
    if "value_basis" not in method:
        g.add(["Value basis", "", _value_basis(a), "text"])
    items = method.pop("reading_items", None)
    for k, v in method.items():
        if k == "readings" and items:  # each reading under its section (the item), read from reading_items
            for r in items:
                g.add(["Readings", _text(r.get("section", "")), _text(r.get("reading", "")), "text"])
            continue
        section = _METHOD_SECTIONS.get(k) or _humanize(k)
        # a key filed under a heading other than its own keeps its name as the item
        emit(section, v, [k] if k in _METHOD_KEEP_KEY else [])
    survey = _get(a, "survey")
    if survey is not None:
        emit("Survey source", _get(survey, "source", {}) or {})
        if _get(survey, "rows_read") is not None:
            g.add(["Survey source", "Rows read", _cell(_get(survey, "rows_read")), "rows"], [None, None, INT])
    site = _get(a, "site") or _get(survey, "site")
    if site:
        emit("Site", site)
    emit("Jurisdiction", _jurisdiction(a))
    if _get(a, "options"):
        emit("Options", _get(a, "options"))
    for x in _get(a, "assumptions", []) or []:
        g.add(["Assumptions", "", _text(x), "text"])
    for x in _get(a, "warnings", []) or []:
        g.add(["Warnings", "", _text(x), "text"])
    last = g.next_row - 1
    widths = g.widths(maximum=100)
    g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=_range(hdr, last, 4), widths=widths, wrap_cols=(3,))


# ---------------------------------------------------------------------------
# API


def build_workbook(assessment: Any, target: Any, *, stream_rows: bool = True) -> None:
    """Write the statement of ``assessment`` to ``target`` (a path or a seekable binary buffer).

    ``stream_rows=False`` writes the big tables one XlsxWriter call per cell
    instead of streaming whole rows (slower; the tests compare the two).
    """
    book = _Book(target, stream_rows=stream_rows)
    _summary(book, assessment)
    _trees(book, assessment)
    _replacement(book, assessment)
    _fund(book, assessment)
    _penalties(book, assessment)
    _rejected(book, assessment)
    _method(book, assessment)
    _fingerprint(book, assessment)
    book.close(f"Tree statement — {_jurisdiction(assessment)}")


def _fingerprint(book: _Book, a: Any) -> None:
    """The sheet ``treecalc verify`` reads: the fingerprint's figures for a reader, then the whole of it as JSON."""
    import json

    from treecalc.report import carriers as fpmod

    fp = getattr(a, "fingerprint", None)
    if not fp:
        return
    ws = book.sheet(fpmod.SHEET_NAME)
    book.layout(ws, [34, 90], None, None)
    survey = fp.get("survey") or {}
    rows: list[tuple[str, Any]] = [
        ("Fingerprint: check with `treecalc verify STATEMENT SURVEY`", ""),
        ("treecalc version", fp.get("treecalc_version")),
        ("Survey file", survey.get("file")),
        ("Survey SHA-256", survey.get("sha256")),
        *((f"SHA-256 of {rel}", sha) for rel, sha in (fp.get("data_files") or {}).items()),
        ("Result SHA-256", fp.get("result_sha256")),
        (fpmod.JSON_ITEM, json.dumps(fp, ensure_ascii=False, sort_keys=True)),
    ]
    for i, (item, value) in enumerate(rows):
        book.cell(ws, i, 0, item, style="header" if i == 0 else None)
        book.cell(ws, i, 1, value)


def write_statement(assessment: Any, path_or_buffer: Any = None) -> bytes | None:
    """Write the Excel statement of ``assessment``.

    ``path_or_buffer`` is a file path (str or PathLike) or a binary file-like
    object; with ``None`` the workbook is returned as bytes instead.
    """
    if isinstance(path_or_buffer, (str, os.PathLike)):
        build_workbook(assessment, os.fspath(path_or_buffer))
        return None
    buf = io.BytesIO()
    build_workbook(assessment, buf)
    if path_or_buffer is None:
        return buf.getvalue()
    path_or_buffer.write(buf.getvalue())
    return None


def statement_bytes(assessment: Any) -> bytes:
    """The Excel statement as bytes (for a download button)."""
    out = write_statement(assessment, None)
    assert out is not None
    return out
