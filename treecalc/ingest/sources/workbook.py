"""An opened survey file (:class:`Source`), and a workbook opened by python-calamine after the zip checks
and the pre-flight."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from treecalc.ingest.errors import SurveyError
from treecalc.ingest.limits import Limits
from treecalc.ingest.sources.cells import special_cells
from treecalc.ingest.sources.extent import preflight
from treecalc.ingest.sources.filetype import LOOKS
from treecalc.ingest.sources.zipguard import check_dimensions, check_zip, xlsx_sheet_parts

if TYPE_CHECKING:  # imported where a workbook is opened: calamine is not loaded for text files
    from python_calamine import CalamineSheet, CalamineWorkbook


@dataclass
class Source:
    """An opened survey file: sheet names and a way to read each sheet's cells."""

    name: str
    format: str  # xlsx | xlsm | xlsb | xls | ods | csv | tsv | txt
    sheet_names: list[str]
    _book: CalamineWorkbook | None = None
    _zip: zipfile.ZipFile | None = None
    _parts: dict[str, str] = field(default_factory=dict)
    _text_rows: list[list[str]] | None = None
    encoding: str | None = None
    delimiter: str | None = None
    decimal_comma: bool = False
    #: Text files: {row index: (column index, line)} of rows whose quote never closes.
    broken_rows: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: Warnings about the file as a whole (an unclosed quote).
    warnings: list[str] = field(default_factory=list)
    _sheets: dict[str, CalamineSheet] = field(default_factory=dict)
    _special: dict = field(default_factory=dict)
    #: xlsx sheets the pre-flight found without a formula or an Excel error (:func:`preflight`).
    _plain: set[str] = field(default_factory=set)
    #: {sheet: "hidden" | "very hidden"} of the workbook's sheets a user does not see.
    hidden: dict[str, str] = field(default_factory=dict)
    #: A GIS layer's own coordinate system (``EPSG:3424``, or its WKT), its points read from: an output layer is
    #: written in it, over the input where a GIS user drew it. None: a spreadsheet, or a layer without one.
    crs: str | None = None

    def _sheet(self, sheet: str) -> CalamineSheet:
        if sheet not in self._sheets:
            if self._book is None:
                raise SurveyError(f"{self.name}: no workbook to read sheet {sheet!r} from")
            self._sheets[sheet] = self._book.get_sheet_by_name(sheet)
        return self._sheets[sheet]

    def rows(self, sheet: str, nrows: int | None = None) -> list[list]:
        """Cells of a sheet from A1 (row index 0 is spreadsheet row 1)."""
        if self._text_rows is not None:
            return self._text_rows if nrows is None else self._text_rows[:nrows]
        try:
            sh = self._sheet(sheet)
            return sh.to_python(skip_empty_area=False, nrows=nrows)
        except Exception as e:  # noqa: BLE001 - calamine raises its own error types
            raise SurveyError(f"{self.name}: cannot read sheet {sheet!r} ({type(e).__name__}: {e})") from None

    def merged(self, sheet: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        if self._book is None:
            return []
        try:
            return list(self._sheet(sheet).merged_cell_ranges or [])
        except Exception:  # noqa: BLE001 - not supported for every format
            return []

    def _special_cells(self, sheet: str):
        if self._zip is None or sheet not in self._parts or sheet in self._plain:
            return {}, {}
        if sheet not in self._special:
            self._special[sheet] = special_cells(self._zip, self._parts[sheet], self.name)
        return self._special[sheet]

    def formula_cells(self, sheet: str) -> dict[tuple[int, int], str]:
        """{(row0, col0): formula} of the cells with a formula and no cached value (xlsx)."""
        return self._special_cells(sheet)[0]

    def error_cells(self, sheet: str) -> dict[tuple[int, int], str]:
        """{(row0, col0): '#N/A'} of the cells holding an Excel error (xlsx; calamine reads them as blank)."""
        return self._special_cells(sheet)[1]


def open_workbook(data: bytes, name: str, kind: str, fmt: str, lim: Limits) -> Source:
    """A workbook (``kind`` from :func:`~treecalc.ingest.sources.filetype.sniff`: xlsx, xlsb, xls or ods) opened
    by calamine, once its zip container passed :func:`check_zip` and its sheets the pre-flight."""
    zf = None
    parts: dict[str, str] = {}
    plain: set[str] = set()
    if kind in ("xlsx", "xlsb", "ods"):
        zf = check_zip(data, name)
        declared = {}
        if kind == "xlsx":
            parts = xlsx_sheet_parts(zf, name)
            declared = check_dimensions(zf, parts, name, lim)
        plain = preflight(zf, kind, parts, name, lim, declared)
    # start-up: only when needed, not by every assess (python_calamine)
    from python_calamine import CalamineWorkbook, SheetVisibleEnum

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(book.sheet_names)
        hidden = {
            m.name: ("very hidden" if m.visible == SheetVisibleEnum.VeryHidden else "hidden")
            for m in book.sheets_metadata
            if m.visible != SheetVisibleEnum.Visible
        }
    except Exception as e:  # noqa: BLE001
        what = type(e).__name__
        if "Password" in what or "password" in str(e).lower() or "encrypt" in str(e).lower():
            raise SurveyError(f"{name} is password-protected; open it and save a copy without the password") from None
        raise SurveyError(f"{name} cannot be read as {LOOKS[kind]} ({what}: {e})") from None
    return Source(name, fmt, names, _book=book, _zip=zf, _parts=parts, _plain=plain, hidden=hidden)
