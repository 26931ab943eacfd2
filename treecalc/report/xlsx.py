"""A safe, streaming xlsx writer: no law, only cells (the statement's sheets: :mod:`treecalc.report.statement`).

:class:`Book` is an XlsxWriter workbook with the statement's styles; :class:`Grid` collects the rows of a small
sheet so that its column widths are known before it is written; :meth:`Book.table_rows` streams a big table.

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
rows (:class:`StreamSheet`), because one call per cell costs ~5 µs and a
50,000-tree Trees sheet has ~2.5 million cells (8 s for the whole statement
that way). Both paths write the same cells (a test compares them).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import os
import re
import shutil
import zipfile
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd
import xlsxwriter
import xlsxwriter.workbook
from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import Worksheet

from treecalc.messages import shown
from treecalc.quantities import CM_PER_IN
from treecalc.report.field_words import said
from treecalc.schema import SHARE, USD, USD_RATE

__all__ = [
    "Book",
    "Grid",
    "StreamSheet",
    "as_text",
    "cell_range",
    "cell_value",
    "display_len",
    "distinct_values",
    "is_missing",
    "csv_cell",
    "csv_frame",
    "needs_quote_prefix",
    "safe_text",
    "scalar",
]

# ---------------------------------------------------------------------------
# number formats
# (the formats of named columns: treecalc.schema, which names each column's label and unit once)
DATE = "yyyy-mm-dd"
DATETIME = "yyyy-mm-dd hh:mm"

#: Characters a spreadsheet may read as the start of a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
#: A number as a spreadsheet reads one typed in: a sign, digits, a decimal point, an exponent. Such a text starts
#: with "-" or "+" and is no formula.
_NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: What XML 1.0 cannot hold: C0 controls other than tab/LF/CR, lone surrogates (not encodable as UTF-8),
#: and the non-characters U+FFFE, U+FFFF (a worksheet holding one is not well-formed: the file will not open).
_ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: OOXML reads ``_xHHHH_`` in cell text as the character HHHH; a literal one is escaped as ``_x005F_xHHHH_``.
_OOXML_ESCAPE = re.compile(r"(_x[0-9a-fA-F]{4}_)")
_MAX_CELL_TEXT = 32767  # Excel's limit, in UTF-16 code units (an emoji counts 2)
CUT_MARK = " … [cut: an Excel cell holds 32,767 characters]"
#: Excel's sheet size (an .xlsx sheet cannot hold more; XlsxWriter silently drops what does not fit).
_MAX_ROWS = 1_048_576
_MAX_COLS = 16_384
WIDTH_SAMPLE = 2000  # rows looked at to size a column
_CHUNK_ROWS = 5000  # rows encoded at a time (bounds the memory of the encoded XML)
_ZIP_LEVEL = 1  # deflate level of the .xlsx (see _ZipFile)
try:  # ISA-L's deflate, 3-4x zlib's speed at level 1 (see _ZipFile); zlib where its wheel is not installed
    from isal import isal_zlib as _isal_zlib

    _FAST_DEFLATE: Any = _isal_zlib
except ImportError:  # pragma: no cover - a platform without a wheel of isal
    _FAST_DEFLATE = None
_FAST_LEVEL = 1  # ISA-L's levels are 0-3; its 1 made a smaller statement than zlib's 1 (16.7 MB against 18.4 MB)
#: What a cell that refers to the shared-string table holds after its style (``<c r="A1" t="s"><v>3</v></c>``).
_SHARED_REF = ' t="s"><v>'


class _ZipFile(zipfile.ZipFile):
    """The zip XlsxWriter packs the workbook into, at deflate level :data:`_ZIP_LEVEL` unless told otherwise,
    deflated by ISA-L (:data:`_FAST_DEFLATE`) where it is installed.

    XlsxWriter leaves zlib at its default level (6); a 50,000-tree statement is ~95 MB of sheet XML,
    which zlib's level 6 takes ~2 s to compress and its level 1 ~0.4 s; ISA-L's level 1 takes ~0.1 s
    and makes a smaller file (16.7 MB against 18.4 MB). Any of them is plain deflate: the cells are the
    same, only the compression differs. XlsxWriter has no option for it, so its module's ``ZipFile`` is
    this class (the zip of any workbook it writes in this process).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("compresslevel", _ZIP_LEVEL)
        super().__init__(*args, **kwargs)

    def open(
        self, name: Any, mode: Literal["r", "w"] = "r", pwd: bytes | None = None, *, force_zip64: bool = False
    ) -> Any:
        handle: Any = super().open(name, mode, pwd, force_zip64=force_zip64)
        # zipfile's writer deflates through its ``_compressor`` (a zlib compressobj): ISA-L's in its place writes
        # the same raw deflate format (the CRC is zipfile's own, of the data)
        if (
            mode == "w"
            and _FAST_DEFLATE is not None
            and getattr(getattr(handle, "_zinfo", None), "compress_type", None) == zipfile.ZIP_DEFLATED
            and getattr(handle, "_compressor", None) is not None
        ):
            handle._compressor = _FAST_DEFLATE.compressobj(_FAST_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        return handle


xlsxwriter.workbook.ZipFile = _ZipFile


def needs_quote_prefix(text: str) -> bool:
    """True when ``text`` would be taken for a formula if typed into a cell: it starts with ``= + - @``, a tab,
    CR or LF and is not a number ("-229.52", a credit, is a number and stays one; "-1+2" is a formula)."""
    return text.startswith(_FORMULA_START) and _NUMBER_TEXT.fullmatch(text) is None


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell: a text :func:`needs_quote_prefix` gets a leading apostrophe (what a spreadsheet
    user types to keep it text); numbers, and texts that are numbers, are written as they are. Every CSV
    treecalc writes goes through this (or :func:`csv_frame`)."""
    return "'" + value if isinstance(value, str) and needs_quote_prefix(value) else value


def csv_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with :func:`csv_cell` applied to its text columns (a copy; number columns are untouched)."""
    out = frame.copy()
    for c in out.columns:
        col = out[c]
        if isinstance(col, pd.Series) and (col.dtype == object or pd.api.types.is_string_dtype(col)):
            out[c] = col.map(csv_cell)
    return out


def safe_text(value: Any) -> str:
    """``value`` as text a worksheet can hold: characters XML cannot hold (C0
    controls, lone surrogates, U+FFFE, U+FFFF) replaced with U+FFFD; text over
    Excel's 32,767 characters (UTF-16 units) cut, with a note that it was."""
    s = value if isinstance(value, str) else str(value)
    s = _ILLEGAL_XML.sub("\ufffd", s)
    if len(s) > _MAX_CELL_TEXT // 2 and _utf16_len(s) > _MAX_CELL_TEXT:
        # cut to the limit in UTF-16 units (an emoji is 2), never inside a pair, and say so: nothing is lost silently
        room = _MAX_CELL_TEXT - len(CUT_MARK)
        s = s.encode("utf-16-le")[: 2 * room].decode("utf-16-le", errors="ignore") + CUT_MARK
    return s


def _utf16_len(s: str) -> int:
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


# ---------------------------------------------------------------------------
# values


def is_missing(v: Any) -> bool:
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    if isinstance(v, (float, np.floating)):
        return math.isnan(v)
    return False


def scalar(v: Any) -> Any:
    """numpy / pandas scalars to Python ones."""
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, pd.Timestamp):
        return None if pd.isna(v) else v.to_pydatetime()
    return v


def as_text(v: Any) -> str:
    """Any value as one line of text (lists joined with '; ')."""
    v = scalar(v)
    if is_missing(v):
        return ""
    if isinstance(v, bool):
        return "Yes" if v else "No"
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, float):
        return f"{v:,.2f}" if abs(v) >= 1 else f"{v:g}"
    if isinstance(v, Mapping):
        return "; ".join(f"{k}: {as_text(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple, set, frozenset, np.ndarray, pd.Series)):
        return "; ".join(as_text(x) for x in v)
    if isinstance(v, pd.DataFrame):
        return f"table of {len(v)} rows"
    return str(v)


def cell_value(v: Any) -> Any:
    """The value a spreadsheet cell receives: None, bool->Yes/No, number, datetime or text."""
    v = scalar(v)
    if is_missing(v):
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
    return as_text(v)


# ---------------------------------------------------------------------------
# the workbook writer


class StreamSheet(Worksheet):
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

    def _write_optimized_sheet_data(self) -> None:
        """XlsxWriter's copy of the streamed rows into the sheet's file, as bytes: its own reads them as text, 64 KB
        at a time, decoding and encoding again ~100 MB of a 50,000-tree Trees sheet."""
        rows, out = self.row_data_fh, self.fh
        if self.dim_rowmin is None or not (hasattr(rows, "buffer") and hasattr(out, "buffer")):
            super()._write_optimized_sheet_data()
            return
        self._xml_start_tag("sheetData")
        rows.flush()
        out.flush()
        rows.buffer.seek(0)
        shutil.copyfileobj(rows.buffer, out.buffer, 1 << 20)
        rows.close()
        os.unlink(self.row_data_filename)
        self._xml_end_tag("sheetData")

    def append_rows_xml(
        self, first_row: int, last_row: int, last_col: int, xml: str, shared_refs: int | None = None
    ) -> None:
        """Append rows ``first_row..last_row`` (0-based) given as ``<row>`` elements, ``shared_refs`` of whose cells
        refer to the shared-string table (counted in ``xml`` when not given)."""
        self._write_single_row(first_row)  # flush the row XlsxWriter holds; it now expects first_row
        self._check_dimensions(first_row, 0)
        self._check_dimensions(last_row, last_col)
        # the shared-string table's count is of the cells that refer to it (text is escaped: no "<v>" in it)
        self.str_table.count += xml.count(_SHARED_REF) if shared_refs is None else shared_refs
        out = self.fh
        if getattr(out, "encoding", None) == "utf-8" and hasattr(out, "buffer"):
            # the UTF-8 written as bytes: through the text layer, ~95 MB of a 50,000-tree Trees sheet took twice as
            # long (an XML reader takes a line end as LF either way)
            out.flush()
            out.buffer.write(xml.encode("utf-8"))
        else:
            out.write(xml)
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


class Book:
    """An XlsxWriter workbook (``constant_memory``: rows stream to disk in order) with the statement's styles.

    Every string is written with ``write_string`` (never ``write``, which would
    take ``=...`` for a formula), and the workbook is told not to turn strings
    into formulas, URLs or numbers. In ``constant_memory`` mode strings are
    inline strings. A string that :func:`needs_quote_prefix` carries the
    ``quotePrefix`` style.
    """

    def __init__(self, target: Any, *, stream_rows: bool = True, in_words: bool = False) -> None:
        # in_words: a field name in a text cell said by its label (a statement, read by a person); an export keeps
        # its keys (a survey export's header is the field names a program reads back)
        self.in_words = in_words
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

    def shared_index(self, text: str) -> int:
        """The index of ``text`` in the workbook's shared-string table (added when new). Each cell that refers to
        it is counted as its row is appended (:meth:`StreamSheet.append_rows_xml`), not here: a column's text is
        encoded once however many cells hold it."""
        table = self.wb.str_table
        index = table._get_shared_string_index(text)
        table.count -= 1
        return int(index)

    def words(self, text: str) -> str:
        """A text cell's words: a keyword (treecalc.messages) in the reader's words; in a statement, a field name
        by its label (:func:`treecalc.report.field_words.said`)."""
        s = shown(text)
        return said(s) if self.in_words else s

    def sheet(self, title: str) -> StreamSheet:
        return self.wb.add_worksheet(title, worksheet_class=StreamSheet)

    def layout(self, ws: StreamSheet, widths: Sequence[float], freeze: str | None, auto_filter: str | None) -> None:
        for j, width in enumerate(widths):
            ws.set_column(j, j, width)
        if freeze:
            ws.freeze_panes(freeze)
        if auto_filter:
            ws.autofilter(auto_filter)

    def cell(
        self,
        ws: StreamSheet,
        row: int,
        col: int,
        value: Any,
        fmt: str | None = None,
        *,
        style: str | None = None,
        wrap: bool = False,
    ) -> None:
        """Write ``value`` at (row, col), 0-based; strings always as strings (never formulas)."""
        v = cell_value(value)
        if v is None or (isinstance(v, str) and not v):
            if style:
                ws.write_blank(row, col, None, self.format(style))
            return
        if isinstance(v, str):
            s = safe_text(self.words(v))
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
    def check_size(ws: StreamSheet, rows: int, cols: int) -> None:
        """A clear error when a sheet would exceed Excel's size (XlsxWriter would drop the excess silently)."""
        if rows > _MAX_ROWS or cols > _MAX_COLS:
            raise ValueError(
                f"the statement's {ws.name!r} sheet would need {rows:,} rows and {cols:,} columns; an Excel sheet "
                f"holds at most {_MAX_ROWS:,} rows and {_MAX_COLS:,} columns: split the survey, or use the JSON "
                "output (‹json›), which has no such limit"
            )

    def header_cells(self, ws: StreamSheet, row: int, headers: Sequence[Any]) -> None:
        for j, h in enumerate(headers):
            self.cell(ws, row, j, h, style="header")

    def table_rows(self, ws: StreamSheet, first_row: int, frame: pd.DataFrame, fmts: Sequence[str | None]) -> None:
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
                cols = [_xml_column(self, part.iloc[:, j], fmts[j]) for j in range(ncol)]
                refs = _shared_refs(cols)
                ws.append_rows_xml(r0, r0 + len(part) - 1, max(ncol - 1, 0), _rows_xml(cols, r0, len(part)), refs)
                continue
            values = [_column_values(part.iloc[:, j]) for j in range(ncol)]
            for i, row in enumerate(zip(*values)):
                for j, v in enumerate(row):
                    if v is not None:
                        self.cell(ws, r0 + i, j, v, fmts[j])

    def grid_rows(self, ws: StreamSheet, rows: Sequence[Any]) -> None:
        """Rows from the top of a sheet, each a list of (value, number format, style, wrap) cells, or a table held
        as columns (:class:`_Block`, which stands for as many rows as it holds)."""
        n_rows = sum(len(r) if isinstance(r, _Block) else 1 for r in rows)
        n_cols = max((len(r.fmts) if isinstance(r, _Block) else len(r) for r in rows), default=0)
        self.check_size(ws, n_rows, n_cols)
        at = 0
        run: list[Any] = []
        for row in [*rows, None]:
            if isinstance(row, _Block) or row is None:
                if run:
                    self._cell_rows(ws, at, run)
                    at += len(run)
                    run = []
                if row is not None:
                    self._block_rows(ws, at, row)
                    at += len(row)
                continue
            run.append(row)

    def _block_rows(self, ws: StreamSheet, first_row: int, block: _Block) -> None:
        """A table held as columns from row ``first_row`` (0-based): the cells :meth:`cell` writes for its values."""
        frame, fmts, wrap = block.frame, block.fmts, block.wrap
        if not (self.stream_rows and ws.can_stream()):
            for i, row in enumerate(zip(*(_column_values(frame.iloc[:, j]) for j in range(frame.shape[1])))):
                for j, v in enumerate(row):
                    if v is not None:
                        w = j in wrap and isinstance(v, str) and len(v) > 40
                        self.cell(ws, first_row + i, j, v, fmts[j], wrap=w)
            return
        ncol = frame.shape[1]
        for start in range(0, len(frame), _CHUNK_ROWS):
            part = frame.iloc[start : start + _CHUNK_ROWS]
            r0 = first_row + start
            cols = [_xml_column(self, part.iloc[:, j], fmts[j], wrap=j in wrap) for j in range(ncol)]
            xml = _rows_xml(cols, r0, len(part))
            ws.append_rows_xml(r0, r0 + len(part) - 1, max(ncol - 1, 0), xml, _shared_refs(cols))

    def _cell_rows(self, ws: StreamSheet, first: int, rows: Sequence[Any]) -> None:
        """Rows of (value, number format, style, wrap) cells from row ``first`` (0-based)."""
        chunk = _CHUNK_ROWS
        for start in range(0, len(rows), chunk):
            part = rows[start : start + chunk]
            r0 = first + start
            if not (self.stream_rows and ws.can_stream()):
                for i, row in enumerate(part, r0):
                    for j, (v, f, style, wrap) in enumerate(row):
                        self.cell(ws, i, j, v, f, style=style, wrap=wrap)
                continue
            xml = []
            texts = Counter(v for row in part for v, *_ in row if v.__class__ is str)
            once = {v for v, n in texts.items() if n == 1}  # (a tag in a table of offences: an inline string)
            for i, row in enumerate(part, r0 + 1):
                cells = [
                    (j, self.xml_value(v, f, style, wrap, shared=v.__class__ is not str or v not in once))
                    for j, (v, f, style, wrap) in enumerate(row)
                ]
                body = "".join([f'<c r="{xl_col_to_name(j)}{i}"{c}' for j, c in cells if c])
                if body:
                    xml.append(f'<row r="{i}">{body}</row>')
            ncol = max((len(r) for r in part), default=1)
            ws.append_rows_xml(r0, r0 + len(part) - 1, max(ncol - 1, 0), "".join(xml))

    def xml_value(self, v: Any, fmt: str | None, style: str | None, wrap: bool, *, shared: bool = True) -> str:
        """:func:`_xml_value`, each distinct text, int or bool with its format and style encoded once."""
        t = v.__class__
        if not (t is str or t is int or t is bool):  # floats: -0.0 == 0.0 but is written apart
            return _xml_value(self, v, fmt, style, wrap)
        key = (t, v, fmt, style, wrap, shared)
        body = self._xml_values.get(key)
        if body is None:
            body = self._xml_values[key] = _xml_value(self, v, fmt, style, wrap, shared)
        return body

    def bar_chart(
        self,
        ws: StreamSheet,
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
        px_per_cm = 96 / CM_PER_IN  # 96 px to the inch
        ch.set_size({"width": round(width_cm * px_per_cm), "height": round(height_cm * px_per_cm)})
        ws.insert_chart(anchor, ch)

    def close(self, title: str) -> None:
        self.wb.set_properties({"title": title, "author": "treecalc"})
        self.wb.close()


def excel_serial(v: _dt.date | _dt.time) -> float:
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


def _xml_value(
    book: Book, v: Any, fmt: str | None, style: str | None = None, wrap: bool = False, shared: bool = True
) -> str:
    """The part of a ``<c>`` element after its ``r`` attribute, or "" for no cell (what :meth:`Book.cell` writes).

    A text is a reference to the workbook's shared-string table when ``shared`` (text that repeats: a species, Yes,
    a disclosure is then written once in the file, not in every cell), else an inline string (text met once, as a
    tag: the table would only add a lookup)."""
    if v.__class__ is not str:
        v = cell_value(v)
    if v is None or (isinstance(v, str) and not v):
        return f' s="{book.format(style)._get_xf_index()}"/>' if style else ""
    if isinstance(v, str):
        s = safe_text(book.words(v))
        f = book.format(style, quote=needs_quote_prefix(s), wrap=wrap)
        sty = f' s="{f._get_xf_index()}"' if f is not None else ""
        if shared and not (s.startswith("<r>") and s.endswith("</r>")):  # (XlsxWriter copies such a one unescaped)
            return f"{sty}{_SHARED_REF}{book.shared_index(s)}</v></c>"
        space = ' xml:space="preserve"' if s[0].isspace() or s[-1].isspace() else ""
        return f'{sty} t="inlineStr"><is><t{space}>{_xml_escape(s)}</t></is></c>'
    if isinstance(v, (_dt.date, _dt.time)):
        fmt = DATETIME if isinstance(v, _dt.datetime) else DATE if isinstance(v, _dt.date) else _TIME
        v = excel_serial(v)
    f = book.format(style, fmt)
    sty = f' s="{f._get_xf_index()}"' if f is not None else ""
    return f"{sty}><v>{v!r}</v></c>"


class _Cells(list):
    """A column's cell bodies (:func:`_xml_column`), with how many of them refer to the shared-string table when
    that is known without looking at each (``refs``; None: count them)."""

    refs: int | None = None


def _cells(bodies: list[str], refs: int | None) -> _Cells:
    out = _Cells(bodies)
    out.refs = refs
    return out


def _shared_refs(columns: Sequence[list[str]]) -> int | None:
    """The cells of ``columns`` that refer to the shared-string table, None when a column does not know its count."""
    total = 0
    for bodies in columns:
        refs = getattr(bodies, "refs", None)
        if refs is None:
            return None
        total += refs
    return total


def _xml_column(book: Book, s: pd.Series, fmt: str | None, *, wrap: bool = False) -> list[str]:
    """Of each cell of one column, the part of its ``<c>`` element after the ``r`` attribute; "" for no cell.

    Each distinct value is encoded once (a column of species names has a few dozen; numbers repeat too):
    numbers exactly (``repr``; floats told apart by their bits, so -0.0 stays -0.0), other values as
    :func:`_xml_value` writes them. With ``wrap``, a text over 40 characters wraps (as in a :class:`Grid` row).
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
            texts = np.empty(len(values) + 1, dtype=object)
            texts[:-1] = list(map(repr, values.tolist()))
            texts[:-1] = head + texts[:-1] + "</v></c>"
            texts[-1] = ""
            return _cells(texts[np.where(missing, len(texts) - 1, codes)].tolist(), 0)
    if getattr(dtype, "kind", "O") in "iuf":
        arr = s.to_numpy(dtype=float, na_value=np.nan)
        if not np.isinf(arr).any():
            f = book.format(num=fmt)
            head = f' s="{f._get_xf_index()}"><v>' if f is not None else "><v>"
            vals = s.astype(object).where(s.notna(), None).tolist()
            return _cells(["" if v is None else f"{head}{v!r}</v></c>" for v in vals], 0)
    if pd.api.types.infer_dtype(s, skipna=True) in ("string", "boolean", "categorical", "empty"):
        # texts or flags (Yes/No): each distinct one encoded once, in order of appearance; a categorical's codes
        # are its own
        codes, uniques = pd.factorize(s)
        shared = 2 * len(uniques) <= int((codes >= 0).sum())  # text that repeats (not a column of tags)
        distinct = np.asarray(uniques, dtype=object).tolist()
        if all(u.__class__ in (str, bool) for u in distinct):
            encoded = [
                _xml_value(book, u, fmt, None, wrap and u.__class__ is str and len(u) > 40, shared) for u in distinct
            ]
            texts = np.array(encoded + [""], dtype=object)
            refer = np.array([_SHARED_REF in e for e in encoded], dtype=np.int64)
            refs = int(np.bincount(codes[codes >= 0], minlength=len(encoded)) @ refer) if len(encoded) else 0
            return _cells(texts[np.where(codes < 0, len(texts) - 1, codes)].tolist(), refs)
    values = _column_values(s)
    bodies = []
    seen: dict[tuple[type, Any], str] = {}
    for v in values:
        if v is None:
            bodies.append("")
            continue
        t = v.__class__
        w = wrap and t is str and len(v) > 40
        if not (t is str or t is int or t is bool):  # floats: -0.0 == 0.0 but is written apart; lists unhashable
            bodies.append(_xml_value(book, v, fmt, None, w))
            continue
        try:
            body = seen[(t, v)]
        except KeyError:
            body = seen[(t, v)] = _xml_value(book, v, fmt, None, w)
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


#: A row of :class:`Grid` that is a row of one of its tables held as columns (:meth:`Grid.table`).
_IN_BLOCK: list[Any] = []


class _Block:
    """A table of :meth:`Grid.table` among the rows :meth:`Book.grid_rows` writes: its ``frame``'s rows, with
    number formats ``fmts``; text over 40 characters wraps in the 0-based columns ``wrap`` (as in a Grid row)."""

    def __init__(self, frame: pd.DataFrame, fmts: Sequence[str | None], wrap: set[int]) -> None:
        self.frame, self.fmts, self.wrap = frame, list(fmts), wrap

    def __len__(self) -> int:
        return len(self.frame)


class Grid:
    """Rows of a small sheet, collected so that widths are known before writing.

    Each row is a list of (value, format, font) triples (or None).
    """

    def __init__(self) -> None:
        self.rows: list[list[tuple[Any, str | None, str | None]] | None] = []
        #: tables held as columns (:meth:`table`), by the index of their first row in ``rows``
        self.blocks: dict[int, tuple[pd.DataFrame, list[str | None]]] = {}

    @property
    def next_row(self) -> int:
        return len(self.rows) + 1

    def add(self, values: Sequence[Any], fmts: Sequence[str | None] | None = None, font: str | None = None) -> int:
        fmts = list(fmts or [None] * len(values))
        self.rows.append([(v, f, font) for v, f in zip(values, fmts + [None] * (len(values) - len(fmts)))])
        return len(self.rows)

    def table(self, frame: pd.DataFrame, fmts: Sequence[str | None]) -> int:
        """Rows of plain values held as columns (one row per row of ``frame``, font none): written a column at a
        time, as the same cells :meth:`add` of each row would make. Returns the last row."""
        if len(frame):
            self.blocks[len(self.rows)] = (frame, list(fmts))
            self.rows.extend([_IN_BLOCK] * len(frame))
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
        for start, (frame, fmts) in self.blocks.items():  # the rows of a table among the first WIDTH_SAMPLE
            if start < WIDTH_SAMPLE:
                part = frame.iloc[: WIDTH_SAMPLE - start]
                for j, f in enumerate(fmts):
                    n = max((display_len(v, f) for v in distinct_values(part.iloc[:, j])), default=0)
                    w[j] = max(w.get(j, 0), n)
        for row in self.rows[:WIDTH_SAMPLE]:
            if not row:
                continue
            if row and row[0][2] in ("title", "sub") and len(row) == 1:
                continue  # titles overflow into the empty cells to the right
            for j, (v, f, font) in enumerate(row):
                if font == "note" and j == len(row) - 1:
                    continue  # overflows to the right
                n = display_len(v, f)
                if font == "header":
                    n = min(n, 28)  # headers wrap
                w[j] = max(w.get(j, 0), n)
        ncol = max(w) + 1 if w else 1
        return [min(maximum, max(minimum, w.get(j, 0) + 2)) for j in range(ncol)]

    def write(
        self,
        book: Book,
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
        rows: list[Any] = []
        for i, row in enumerate(self.rows):
            if i in self.blocks:
                frame, fmts = self.blocks[i]
                rows.append(_Block(frame, fmts, wrap))
            if row is _IN_BLOCK:
                continue
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


def distinct_values(s: pd.Series) -> list[Any]:
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


def display_len(v: Any, fmt: str | None) -> int:
    v = cell_value(v)
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


def cell_range(first_row: int, last_row: int, ncols: int) -> str:
    return f"A{first_row}:{xl_col_to_name(max(1, ncols) - 1)}{max(first_row, last_row)}"
