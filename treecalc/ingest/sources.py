"""Opening a survey file safely and reading its cells.

Workbooks (xlsx, xlsm, xlsb, xls, ods) are read with python-calamine, which
never evaluates formulas and returns the values Excel cached. Before calamine
sees a zip-based workbook, the container is checked without decompressing it
whole: the file size, the number of members, the total uncompressed size and
each member's compression ratio (zip bombs), every XML part's prolog through
defusedxml with DTDs and entities forbidden (billion laughs, external
entities), and each worksheet's declared ``<dimension>``. Bytes that do not
match the extension are refused with what the file looks like.

Text files (csv, tsv, txt) are decoded as UTF-8 (with or without BOM),
UTF-16 (with BOM) or Windows-1252, falling back to Latin-1; the delimiter is
the one of ``,`` ``;`` tab ``|`` that splits the most lines into the same
number of fields.
"""

from __future__ import annotations

import csv
import io
import os
import re
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import defusedxml
import defusedxml.ElementTree as DET

from treecalc.ingest.errors import SurveyError
from treecalc.ingest.limits import DEFAULT as DEFAULT_LIMITS
from treecalc.ingest.limits import Limits, refuse
from treecalc.units import count_lines

if TYPE_CHECKING:  # imported where a workbook is opened: calamine is not loaded for text files
    from python_calamine import CalamineSheet, CalamineWorkbook

#: Refuse a zip container whose members add up to more than this, uncompressed.
MAX_UNCOMPRESSED = 1_000_000_000
#: Refuse a member (over 1 MB uncompressed) compressed more than this ratio.
MAX_RATIO = 200
MAX_MEMBERS = 10_000
#: Refuse a worksheet declaring more rows or columns than these.
MAX_ROWS = 2_000_000
MAX_COLS = 1_000

EXTENSIONS = {
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".xltx": "xlsx",
    ".xltm": "xlsx",
    ".xlsb": "xlsb",
    ".xls": "xls",
    ".ods": "ods",
    ".csv": "text",
    ".tsv": "text",
    ".txt": "text",
    ".tab": "text",
}
LOOKS = {
    "xlsx": "an xlsx workbook",
    "xlsb": "an xlsb (binary) workbook",
    "xls": "an xls (Excel 97-2003) workbook",
    "ods": "an OpenDocument spreadsheet",
    "text": "a text (CSV) file",
    "pdf": "a PDF document",
    "html": "an HTML page",
    "xml": "an XML file (perhaps an Excel 2003 XML spreadsheet)",
    "docx": "a Word document",
    "pptx": "a PowerPoint document",
    "zip": "a zip archive",
    "image": "an image",
    "ole": "an OLE2 compound file (an older Office document)",
    "binary": "binary data",
    "empty": "an empty file",
}


def _describe_ext(ext: str) -> str:
    kind = EXTENSIONS.get(ext, "")
    return {"text": f"a {ext.lstrip('.').upper()} text file"}.get(kind, f"an {ext.lstrip('.')} workbook")


def sniff(data: bytes) -> str:
    """What the bytes look like: a key of :data:`LOOKS`."""
    if not data:
        return "empty"
    head = data[:8]
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                names = set(zf.namelist())
                if "xl/workbook.xml" in names:
                    return "xlsx"
                if "xl/workbook.bin" in names:
                    return "xlsb"
                if "mimetype" in names and b"opendocument.spreadsheet" in zf.read("mimetype")[:200]:
                    return "ods"
                if any(n.startswith("word/") for n in names):
                    return "docx"
                if any(n.startswith("ppt/") for n in names):
                    return "pptx"
        except (zipfile.BadZipFile, OSError, ValueError):
            return "binary"
        return "zip"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "xls"
    if head.startswith(b"%PDF"):
        return "pdf"
    if head.startswith(b"\x89PNG") or head.startswith(b"\xff\xd8\xff") or head[:4] in (b"GIF8", b"II*\x00", b"MM\x00*"):
        return "image"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:4] == b"\x00\x00\xfe\xff":
        return "text"
    probe = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if probe.startswith(b"<"):
        if b"<html" in probe or b"<!doctype html" in probe or b"<table" in probe:
            return "html"
        return "xml"
    if b"\x00" in data[:8192]:
        return "binary"
    return "text"


def read_bytes(path_or_buffer, filename: str | None, max_bytes: int) -> tuple[bytes, str]:
    """The file's bytes and its name, refusing more than ``max_bytes``
    (checked on the file system, or after reading at most max_bytes + 1)."""
    limit_mb = f"{max_bytes / 1e6:g} MB"
    if isinstance(path_or_buffer, (str, os.PathLike)):
        p = Path(path_or_buffer)
        name = filename or p.name
        try:
            size = p.stat().st_size
        except FileNotFoundError:
            raise SurveyError(f"{p}: no such file") from None
        except OSError as e:
            raise SurveyError(f"{p}: cannot open ({e.strerror or e})") from None
        if p.is_dir():
            raise SurveyError(f"{p} is a folder, not a survey file")
        if size > max_bytes:
            raise SurveyError(
                f"{name} is {size / 1e6:.1f} MB, over the {limit_mb} limit; split the survey or raise the limit "
                "with --max-mb N"
            )
        with open(p, "rb") as fh:
            data = fh.read(max_bytes + 1)
    elif isinstance(path_or_buffer, (bytes, bytearray, memoryview)):
        data = bytes(path_or_buffer)
        name = filename or "survey"
    elif hasattr(path_or_buffer, "read"):
        name = filename or Path(str(getattr(path_or_buffer, "name", "") or "survey")).name
        data = path_or_buffer.read(max_bytes + 1)
        if isinstance(data, str):
            data = data.encode("utf-8")
    else:
        raise SurveyError(f"cannot read a survey from {type(path_or_buffer).__name__}; give a path or a file object")
    if len(data) > max_bytes:
        raise SurveyError(f"{name} is over the {limit_mb} limit; split the survey or raise the limit with --max-mb N")
    return data, name


# ----------------------------------------------------------------- zip checks


def _forbidden(e: Exception) -> bool:
    return isinstance(
        e,
        (
            defusedxml.DTDForbidden,
            defusedxml.EntitiesForbidden,
            defusedxml.ExternalReferenceForbidden,
            defusedxml.NotSupportedError,
        ),
    )


def _iter_xml(zf: zipfile.ZipFile, member: str, name: str, event: str = "start"):
    """Elements of one XML part at their ``event`` ("start", or "end" when their content
    is needed), parsed by defusedxml (no DTD, no entities)."""
    try:
        with zf.open(member) as fh:
            for _, el in DET.iterparse(fh, events=(event,), forbid_dtd=True):
                yield el
    except DET.ParseError as e:
        raise SurveyError(f"{name} is damaged: part {member!r} is not well-formed XML ({e})") from None
    except Exception as e:  # noqa: BLE001 - defusedxml's refusals and zip errors
        if _forbidden(e):
            raise SurveyError(
                f"{name} refused: part {member!r} declares a DTD or XML entities "
                f"(a billion-laughs or external-entity attack); spreadsheets never need them"
            ) from None
        if isinstance(e, (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, RuntimeError)):
            raise SurveyError(f"{name} is damaged: cannot read part {member!r} ({e})") from None
        raise


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


_REF = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")


def col_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def parse_ref(ref: str) -> tuple[int, int] | None:
    m = _REF.match(ref.strip().upper())
    if not m:
        return None
    return int(m.group(2)) - 1, col_index(m.group(1))


def check_zip(data: bytes, name: str) -> zipfile.ZipFile:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise SurveyError(f"{name} is damaged: not a readable zip container ({e})") from None
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise SurveyError(f"{name} refused: {len(infos)} parts in the workbook (limit {MAX_MEMBERS})")
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED:
        raise SurveyError(
            f"{name} refused: it would expand to {total / 1e6:,.0f} MB "
            f"(limit {MAX_UNCOMPRESSED / 1e6:,.0f} MB); this looks like a zip bomb"
        )
    for i in infos:
        if i.file_size > 1_000_000 and i.file_size > MAX_RATIO * max(i.compress_size, 1):
            raise SurveyError(
                f"{name} refused: part {i.filename!r} expands {i.file_size / max(i.compress_size, 1):,.0f}"
                f" times ({i.compress_size:,} → {i.file_size:,} bytes; limit {MAX_RATIO}×); "
                "this looks like a zip bomb"
            )
    for i in infos:
        if i.filename.lower().endswith((".xml", ".rels", ".vml")) and not i.is_dir():
            for _ in _iter_xml(zf, i.filename, name):
                break  # the prolog (where a DTD would be) has been parsed
    return zf


def xlsx_sheet_parts(zf: zipfile.ZipFile, name: str) -> dict[str, str]:
    """Sheet name → part path (``xl/worksheets/sheet1.xml``), from workbook.xml and its rels."""
    rels: dict[str, str] = {}
    try:
        rel_member = "xl/_rels/workbook.xml.rels"
        if rel_member in zf.namelist():
            for el in _iter_xml(zf, rel_member, name, "end"):
                if _local(el.tag) == "Relationship":
                    tgt = el.get("Target", "")
                    path = tgt.lstrip("/") if tgt.startswith("/") else str(PurePosixPath("xl") / tgt)
                    rels[el.get("Id", "")] = os.path.normpath(path).replace(os.sep, "/")
        out: dict[str, str] = {}
        for el in _iter_xml(zf, "xl/workbook.xml", name, "end"):
            if _local(el.tag) == "sheet":
                rid = next((v for k, v in el.attrib.items() if _local(k) == "id"), None)
                if rid in rels:
                    out[el.get("name", "")] = rels[rid]
        return out
    except KeyError:
        return {}


def check_dimensions(
    zf: zipfile.ZipFile, parts: dict[str, str], name: str, lim: Limits = DEFAULT_LIMITS
) -> dict[str, tuple[int, int]]:
    """Refuse a worksheet whose declared ``<dimension>`` is beyond the row or column limit, or
    whose rectangle is beyond the cell limit (a reader allocates what the sheet declares).
    Returns {sheet: (last row, last column)} (0-based) of the sheets that declare one."""
    names = set(zf.namelist())
    declared: dict[str, tuple[int, int]] = {}
    for sheet, part in parts.items():
        if part not in names:
            continue
        for el in _iter_xml(zf, part, name):
            tag = _local(el.tag)
            if tag == "dimension":
                ref = el.get("ref", "")
                last = ref.split(":")[-1]
                rc = parse_ref(last)
                max_rows, max_cols = min(MAX_ROWS, lim.rows), min(MAX_COLS, lim.columns)
                if rc and (rc[0] + 1 > max_rows or rc[1] + 1 > max_cols):
                    raise SurveyError(
                        f"{name} refused: sheet {sheet!r} declares {rc[0] + 1:,} rows × {rc[1] + 1:,} columns "
                        f"({ref}); limits are {max_rows:,} rows and {max_cols:,} columns (rows, columns)"
                    )
                if rc and (rc[0] + 1) * (rc[1] + 1) > lim.cells:
                    raise refuse(
                        name,
                        f"sheet {sheet!r} declares {rc[0] + 1:,} rows × {rc[1] + 1:,} columns "
                        f"({ref}) = {(rc[0] + 1) * (rc[1] + 1):,} cells",
                        "cells",
                        lim.cells,
                    )
                if rc:
                    declared[sheet] = rc
                break
            if tag == "sheetData":
                break
    return declared


# ----------------------------------------------------------------- pre-flight (true extents)
#
# A native reader allocates the whole used rectangle of a sheet (calamine asks for rows × columns × 32
# bytes: 550 GB for one cell at XFD1048576, and aborts the process when it cannot have it). Before a
# workbook reaches it, each sheet's XML is streamed here, a megabyte at a time, to learn its true
# extent. The XML prologs were parsed by defusedxml with DTDs forbidden (:func:`check_zip`), so no
# entity can be defined and a byte-level reading of the tags is safe; it is also ten times faster
# than building elements, which matters for a sheet of a million trees.

_SCAN_CHUNK = 1 << 20
# A tag's prefix is anything up to a colon (calamine matches <row> and <c> by their local name, whatever
# the prefix: <\xc3\xa9:c, <1:c); its attribute values may hold a quoted ">" (calamine reads past it).
_X_PFX = rb"(?:[^\s<>/!?=\"':]+:)?"
_X_TAG = re.compile(rb"<" + _X_PFX + rb"(row|c)(?=[\s/>])((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
_X_CELL_REF = re.compile(rb"<" + _X_PFX + rb"c\s[^>]*?\br\s*=\s*[\"']\$?([A-Za-z]{1,3})\$?(\d{1,9})[\"']")
_X_CELL_OPEN = re.compile(rb"<" + _X_PFX + rb"c(?=[\s/>])")
_X_ROW_REF = re.compile(rb"<" + _X_PFX + rb"row\s[^>]*?\br\s*=\s*[\"'](\d{1,9})[\"']")
# Every r attribute, wherever it is: calamine takes a cell's last r (not its first), and an attribute starts
# after a space, a form feed or a closing quote. Its letters and digits are read without a bound (leading
# zeros, a row past 2**32 that calamine wraps): each counts, at its face value, towards the sheet's extent.
_X_ANY_R = re.compile(rb"[\s\"']r\s*=\s*[\"']\$?([A-Za-z]*)\$?(\d*)")
_SI = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?si(?=[\s/>])")
_SI_PREFIXED = re.compile(rb"<[A-Za-z_][\w.-]*:si(?=[\s/>])")
_ODS_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(table-row|table-cell|covered-table-cell|table)(?=[\s/>])([^>]*)>")
_ODS_NAME = re.compile(rb"\bname\s*=\s*\"([^\"]*)\"")
_ODS_ROWS_REP = re.compile(rb"number-rows-repeated\s*=\s*[\"'](\d{1,12})[\"']")
_ODS_COLS_REP = re.compile(rb"number-columns-repeated\s*=\s*[\"'](\d{1,12})[\"']")


def _chunks(zf: zipfile.ZipFile, member: str, name: str):
    """(offset, bytes) of a zip part, cut after a ``>`` so that no tag is split."""
    try:
        fh = zf.open(member)
    except KeyError:
        return
    carry, offset = b"", 0
    try:
        with fh:
            while True:
                chunk = fh.read(_SCAN_CHUNK)
                buf = carry + chunk
                cut = len(buf) if not chunk else buf.rfind(b">") + 1
                if cut <= 0 and len(buf) > _SCAN_CHUNK:
                    cut = len(buf)  # a megabyte of text without a tag: no tag to keep whole
                done, carry = buf[:cut], buf[cut:]
                if done:
                    yield offset, done
                    offset += len(done)
                if not chunk:
                    break
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, RuntimeError) as e:
        raise SurveyError(f"{name} is damaged: cannot read part {member!r} ({e})") from None


def _ref(row0: int, col0: int) -> str:
    from treecalc.ingest.columns import column_letters

    return f"{column_letters(col0)}{row0 + 1}"


def _check_extent(name: str, sheet: str, last_row: int, last_col: int, lim: Limits) -> None:
    rows, cols = last_row + 1, last_col + 1
    where = f"sheet {sheet!r} has a cell at {_ref(last_row, last_col)}" if last_col >= 0 else f"sheet {sheet!r}"
    if rows > lim.rows:
        raise refuse(name, f"{where}: {rows:,} rows", "rows", lim.rows)
    if cols > lim.columns:
        raise refuse(name, f"{where}: {cols:,} columns", "columns", lim.columns)
    if rows * cols > lim.cells:
        raise refuse(
            name,
            f"{where}, so its used area is {rows:,} rows × {cols:,} columns = {rows * cols:,} cells "
            "(a cell far below or right of the table? delete the rows and columns after it)",
            "cells",
            lim.cells,
        )


def _number(digits: bytes) -> int:
    """A row number's digits at face value (leading zeros dropped; beyond 12 digits, 10**12: past any limit)."""
    d = digits.lstrip(b"0")
    return int(d) if len(d) <= 12 else 10**12 if d else 0


def _letters_index(letters: bytes) -> int:
    """A column's letters (either case) as its 0-based index; beyond 6 letters, 10**12: past any limit."""
    return col_index(letters.decode("ascii").upper()) if len(letters) <= 6 else 10**12


def _big(digits: list[bytes]) -> int:
    """The largest of decimal digit strings, without converting each."""
    return int(max(digits, key=lambda d: (len(d.lstrip(b"0")), d.lstrip(b"0")))) if digits else -1


# The fast reading (:func:`within_rectangle`). Instead of being measured cell by cell, a sheet is
# checked against a rectangle that is within the limits (:func:`vouching_rectangle`: as many columns as
# the sheet declares in its ``<dimension>`` or uses in its first megabyte, and as many rows as the limits
# then allow): a regular expression per tag name and chunk looks for any ``<c`` or ``<row`` tag that
# does not start with a plain reference inside the rectangle, and finds none in a well-formed sheet.
# Why that is still safe: a native reader places a cell by its ``r`` reference, or by its order in its
# row when it has none; the fast reading vouches only for a sheet where every ``<c>`` and ``<row>`` tag
# opens with ``r="..."`` in the plain form (``<c r="AB12"``, ``<row r="12"``: 1-3 capital letters, a
# number without leading zeros) inside the rectangle, so its true extent is inside it too, and within
# the limits. A cell placed by its order, a ``$``, another quote, lower-case letters, a leading zero, an
# attribute before ``r``, a namespace prefix (``<x:c``, and any text like one) or any reference outside
# the rectangle is not vouched for, and the sheet is then measured cell by cell as before
# (:func:`xlsx_extent`), which refuses a sheet beyond the limits with the same message as before (a far
# cell at XFD1048576, with or without a lying ``<dimension>``). calamine keeps a cell's *last* ``r`` (its
# attribute reader goes on after the first, past a quoted ``>``): a chunk with any r attribute besides
# the plain first ones (:func:`_more_r`) is not vouched for either, and the exact reading counts every r.

_X_PREFIXED = re.compile(rb":(?:c|row|f)[\s/>]")  # a prefixed <x:c, <x:row or <x:f tag (or text like it)


def _at_most(bound: str, alphabet: str) -> str:
    """A regular expression matching the column letters (``alphabet`` A-Z) or row numbers (``alphabet``
    0-9, no leading zero) at most ``bound``: as long, and smaller at the first character that differs
    or equal; or shorter. Where the rest of the bound is all top characters (599, AZ), any rest is at
    most it: one alternative ends the list."""
    cls, top = f"[{alphabet[0]}-{alphabet[-1]}]", alphabet[-1]
    lo = alphabet[1] if alphabet[0] == "0" else alphabet[0]  # a number has no leading zero
    alts = []
    for i, ch in enumerate(bound):
        start, rest = (lo if i == 0 else alphabet[0]), len(bound) - i - 1
        tail = f"{cls}{{{rest}}}" if rest else ""
        if set(bound[i + 1 :]) <= {top}:  # up to the bound's character, then anything
            alts.append(f"{bound[:i]}[{start}-{ch}]{tail}")
            break
        if ch != start:  # smaller here, then anything
            alts.append(f"{bound[:i]}[{start}-{alphabet[alphabet.index(ch) - 1]}]{tail}")
    if len(bound) > 1:  # shorter (last: in a sheet near its bound, most references are as long)
        alts.append(f"[{lo}-{top}]" + (f"{cls}{{0,{len(bound) - 2}}}" if len(bound) > 2 else ""))
    return "|".join(alts)


def _vouch_patterns(last_row: int, last_col: int) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """The ``<c`` and the ``<row`` tags :func:`within_rectangle` does not vouch for, in the rectangle from
    A1 to (last_row, last_col), 0-based: any whose reference is not a plain one within it. Each pattern
    starts with its tag's name, which the regex engine looks for as a literal, and says what is allowed
    in one look-ahead: a cell costs one match of its reference."""
    from treecalc.ingest.columns import column_letters

    rows = _at_most(str(last_row + 1), "0123456789")
    cols = _at_most(column_letters(last_col), "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    cells = f'<c(?! r="(?:{cols})(?:{rows})")(?=[\\s/>])'
    row_tags = f'<row(?! r="(?:{rows})")(?=[\\s/>])'
    return re.compile(cells.encode("ascii")), re.compile(row_tags.encode("ascii"))


_F_TAG = re.compile(rb"<f[\s/>]")
# an r attribute (after a space, a form feed or a quote: calamine's attribute reader) not the first of <c or
# <row. It starts with the literal r and looks behind, so the regex engine skims to each r (a pattern that
# starts with the separator's class tries every byte: 0.06 s a megabyte against 0.002 s)
_X_R_OTHER = re.compile(rb"r(?<=[\s\"']r)(?<!<c[\s\"']r)(?<!<row[\s\"']r)\s*=")


def _more_r(done: bytes) -> bool:
    """Whether a chunk may hold an r attribute other than the plain first one of its <c and <row tags: a
    second r, which calamine takes (it keeps a cell's last r)."""
    return _X_R_OTHER.search(done) is not None


def within_rectangle(zf: zipfile.ZipFile, part: str, name: str, last_row: int, last_col: int) -> tuple[bool, bool]:
    """(vouched for, special): whether every cell of a worksheet part is within the rectangle from A1 to
    (last_row, last_col), 0-based, read at regular-expression speed, and whether it may hold a formula
    or an Excel error (``<f``, ``"e``, ``'e``: :func:`special_cells` is worth running). See the comment
    above."""
    cells, row_tags = _vouch_patterns(last_row, last_col)
    special = False
    for _, done in _chunks(zf, part, name):
        if _X_PREFIXED.search(done) or cells.search(done) or row_tags.search(done) or _more_r(done):
            return False, True  # a tag not vouched for: the exact reading decides
        # the same gate as special_cells' (a prefixed <x:f has sent the sheet to the exact reading)
        special = special or _F_TAG.search(done) is not None or b'"e' in done or b"'e" in done
    return True, special


_X_PLAIN_COLUMN = re.compile(rb'<c r="([A-Z]{1,3})[1-9]')


def vouching_rectangle(
    zf: zipfile.ZipFile, part: str, name: str, lim: Limits, declared: tuple[int, int] | None
) -> tuple[int, int] | None:
    """The last cell (0-based) of a rectangle within ``lim`` that a sheet's cells are likely to fit:
    the declared last column (or, without a ``<dimension>``, the last column used in the first chunk)
    and as many rows as the limits then allow, rounded down to a first digit and nines (599,999) when
    that still holds the declared ones (a bound the regular expression checks in two alternatives).
    None when no such rectangle is worth trying."""
    if declared is not None:
        last_col = declared[1]
    else:
        first = next(_chunks(zf, part, name), (0, b""))[1]
        letters = set(_X_PLAIN_COLUMN.findall(first))
        last_col = max((col_index(x.decode("ascii")) for x in letters), default=0)
    if last_col + 1 > lim.columns:
        return None
    rows = min(lim.rows, lim.cells // (last_col + 1))
    step = 10 ** (len(str(rows)) - 1)
    nice = (rows + 1) // step * step - 1  # 1,048,576 -> 999,999; 666,666 -> 599,999: a short regex
    if nice >= (declared[0] + 1 if declared is not None else 1):
        rows = nice
    return (rows - 1, last_col) if rows >= 1 else None


def xlsx_extent(zf: zipfile.ZipFile, part: str, sheet: str, name: str, lim: Limits) -> tuple[int, int, int]:
    """(last row, last column, cells) of a worksheet part (0-based), refusing it beyond ``lim``."""
    row, col, last_row, last_col, cells = -1, -1, -1, -1, 0
    for _, done in _chunks(zf, part, name):
        refs = _X_CELL_REF.findall(done)
        row_refs = _X_ROW_REF.findall(done)
        any_r = _X_ANY_R.findall(done)
        n_open = len(_X_CELL_OPEN.findall(done))
        cells += n_open
        if n_open == len(refs) and len(any_r) == len(refs) + len(row_refs):
            # every cell says where it is, once (the usual case): extents by maxima
            if refs:  # the patterns take at most 3 letters and 9 digits: int() and a set are safe and fast (in C)
                letters = max({x.upper() for x in set(map(itemgetter(0), refs))}, key=lambda x: (len(x), x))
                last_col = max(last_col, col_index(letters.decode("ascii")))
                row = max(map(int, map(itemgetter(1), refs))) - 1
            last_row = max(last_row, row, max(map(int, row_refs), default=0) - 1)
        else:  # cells placed by their order, or an odd reference: follow them one by one
            for m in _X_TAG.finditer(done):
                rs = _X_ANY_R.findall(b" " + m.group(2))
                letters = max((x for x, _ in rs), key=lambda x: (len(x), x.upper()), default=b"")
                digits = max((_number(d) for _, d in rs if d), default=None)
                if m.group(1) == b"row":
                    row = digits - 1 if digits is not None else row + 1
                    col = -1
                    continue
                col = _letters_index(letters) if letters else col + 1
                if digits is not None:
                    row = digits - 1
                last_row, last_col = max(last_row, row), max(last_col, col)
        if any_r:  # every r attribute counts (a second r, one after a quoted ">", a long number)
            last_col = max(last_col, max(_letters_index(x) for x, _ in any_r))
            last_row = max(last_row, max(_number(d) for _, d in any_r) - 1)
        _check_extent(name, sheet, last_row, last_col, lim)
    return last_row, last_col, cells


def shared_strings_extent(zf: zipfile.ZipFile, name: str, lim: Limits) -> tuple[int, int]:
    """(strings, bytes) of xl/sharedStrings.xml, refusing too many, too much or one too long."""
    # every shared-strings part (the reader takes the one beside the workbook.xml that _rels/.rels names)
    members = [n for n in zf.namelist() if n.lower().rsplit("/", 1)[-1] == "sharedstrings.xml"]
    out = (0, 0)
    for member in members:
        out = max(out, _shared_strings_part(zf, member, name, lim))
    return out


def _shared_strings_part(zf: zipfile.ZipFile, member: str, name: str, lim: Limits) -> tuple[int, int]:
    """(strings, bytes) of one shared-strings part, refusing too many, too much or one too long."""
    count, size, last, longest = 0, 0, -1, 0
    max_bytes = lim.strings_mb * 1e6
    # one string's XML: its characters (up to 4 bytes each in UTF-8, 5 when escaped) and rich-text runs
    max_one = lim.text * 6 + 4096
    for offset, done in _chunks(zf, member, name):
        size = offset + len(done)
        if max_one < 2 * _SCAN_CHUNK:  # a low text limit: every gap between strings is measured
            for m in _SI.finditer(done):
                pos = offset + m.start()
                if last >= 0:
                    longest = max(longest, pos - last)
                last = pos
                count += 1
        else:  # gaps inside a chunk are shorter than the limit: count at C speed, measure across chunks
            n = done.count(b"<si>") + done.count(b"<si ") + done.count(b"<si/") + len(_SI_PREFIXED.findall(done))
            if n:
                first, final = _SI.search(done), done.rfind(b"<si") if b"<si" in done else -1
                if last >= 0 and first is not None:
                    longest = max(longest, offset + first.start() - last)
                last = offset + max(final, first.start() if first is not None else 0)
                count += n
            elif last >= 0:
                longest = max(longest, size - last)
        if count > lim.strings:
            raise refuse(
                name, f"its shared-strings part holds more than {count:,} distinct strings", "strings", lim.strings
            )
        if size > max_bytes:
            raise refuse(name, f"its shared strings are more than {size / 1e6:,.0f} MB", "strings_mb", lim.strings_mb)
        if longest > max_one:
            raise refuse(name, f"one of its strings is about {longest:,} bytes long", "text", lim.text)
    return count, size


def ods_extent(zf: zipfile.ZipFile, name: str, lim: Limits) -> dict[str, tuple[int, int]]:
    """{sheet: (last row, last column)} of an OpenDocument spreadsheet's content.xml, counting
    ``number-rows-repeated`` and ``number-columns-repeated`` of cells holding something (the empty
    rows and columns repeated below and right of every sheet are not used area), refusing beyond ``lim``."""
    out: dict[str, tuple[int, int]] = {}
    sheet, row, rep_r, col, last_row, last_col = "", -1, 1, 0, -1, -1
    for _, done in _chunks(zf, "content.xml", name):
        for m in _ODS_TAG.finditer(done):
            tag, attrs = m.group(1), m.group(2)
            if tag == b"table":
                nm = _ODS_NAME.search(attrs)
                sheet = nm.group(1).decode("utf-8", "replace") if nm else f"sheet {len(out) + 1}"
                row, rep_r, col, last_row, last_col = -1, 1, 0, -1, -1
                continue
            if tag == b"table-row":
                rr = _ODS_ROWS_REP.search(attrs)
                row += rep_r
                rep_r = int(rr.group(1)) if rr else 1
                col = 0
                continue
            cr = _ODS_COLS_REP.search(attrs)
            rep_c = int(cr.group(1)) if cr else 1
            empty = attrs.rstrip().endswith(b"/") and b"value-type" not in attrs
            if not empty:
                last_row = max(last_row, row + rep_r - 1)
                last_col = max(last_col, col + rep_c - 1)
            col += rep_c
            if not empty:
                _check_extent(name, sheet, last_row, last_col, lim)
        if sheet:
            out[sheet] = (last_row, last_col)
    return out


def preflight(
    zf: zipfile.ZipFile,
    kind: str,
    parts: dict[str, str],
    name: str,
    lim: Limits,
    declared: dict[str, tuple[int, int]] | None = None,
) -> set[str]:
    """Refuse a workbook whose true extent or strings go beyond ``lim`` (xlsx and ods; the binary
    formats xlsb and xls are bounded by the isolated reader, :mod:`treecalc.ingest.limits`).

    An xlsx sheet is first read fast against a rectangle within the limits (:func:`within_rectangle`,
    :func:`vouching_rectangle`; ``declared``: the last cells of the ``<dimension>``s, from
    :func:`check_dimensions`); only a sheet that reading does not vouch for is measured cell by cell
    (:func:`xlsx_extent`). Returns the sheets vouched for that hold neither a formula nor an Excel
    error (:func:`special_cells` need not read them)."""
    plain: set[str] = set()
    if kind == "xlsx":
        names = set(zf.namelist())
        for sheet, part in parts.items():
            if part not in names:
                continue
            rect = vouching_rectangle(zf, part, name, lim, (declared or {}).get(sheet))
            if rect is not None:
                vouched, special = within_rectangle(zf, part, name, *rect)
                if vouched:
                    if not special:
                        plain.add(sheet)
                    continue
            xlsx_extent(zf, part, sheet, name, lim)
        for part in _other_worksheets(zf, name, set(parts.values())):
            xlsx_extent(zf, part, part, name, lim)
        shared_strings_extent(zf, name, lim)
    elif kind == "ods":
        ods_extent(zf, name, lim)
    return plain


_X_ROOT = re.compile(rb"<(?![?!])(?:[^\s<>/!?=\"':]+:)?([^\s<>/!?=\"':]+)")


def _other_worksheets(zf: zipfile.ZipFile, name: str, measured: set[str]) -> list[str]:
    """The XML parts, besides ``measured``, whose root is a worksheet (or not found in their first
    megabyte). The reader may take one of them for a sheet where workbook.xml's relationships lead the
    pre-flight to another: calamine finds a part whatever the case of its name, opens ``xl/./x.xml`` as it
    is named, reads the first of two sheets of one name, and the workbook.xml that ``_rels/.rels`` names."""
    out = []
    for info in zf.infolist():
        part = info.filename
        if part in measured or info.is_dir() or not part.lower().endswith(".xml"):
            continue
        first = next(_chunks(zf, part, name), (0, b""))[1]
        root = _X_ROOT.search(first)
        if root is None or root.group(1) == b"worksheet":
            out.append(part)
    return out


_FORMULA = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]")
_CELL = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)c\b([^>]*?)(?<!/)>(.*?)</\1c>", re.S)
_CELL_END = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?c>")
_R_ATTR = re.compile(rb"\sr=[\"']([A-Za-z]{1,3}\d+)[\"']")
_F_EL = re.compile(rb"<(?:[\w.-]+:)?f\b([^>]*?)(?:/>|>(.*?)</(?:[\w.-]+:)?f>)", re.S)
_V_EL = re.compile(rb"<(?:[\w.-]+:)?v\b[^>]*?(?:/>|>(.*?)</(?:[\w.-]+:)?v>)", re.S)
_T_ERR = re.compile(rb"\st\s*=\s*[\"']e[\"']")
_SPECIAL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]|\st\s*=\s*[\"']e[\"']")


def formula_cells_without_value(zf: zipfile.ZipFile, part: str, name: str) -> dict[tuple[int, int], str]:
    """{(row0, col0): formula} of cells holding a formula but no cached value."""
    return special_cells(zf, part, name)[0]


def special_cells(
    zf: zipfile.ZipFile, part: str, name: str
) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    """({(row0, col0): formula} of cells holding a formula but no cached value,
    {(row0, col0): "#DIV/0!"} of cells holding an Excel error, typed or cached).

    calamine reads an error cell as a blank; this reading keeps what it was.

    The sheet XML is streamed; only the stretches that contain an ``<f>``
    element are split into cells (a sheet without formulas, the usual case,
    costs one byte search). The XML's prolog has already been parsed by
    defusedxml with DTDs forbidden (:func:`check_zip`), so no entity can be
    defined and a byte-level reading of the cells is safe. Cells without an
    ``r`` reference fall back to a full defusedxml parse.
    """
    try:
        fh = zf.open(part)
    except KeyError:
        return {}, {}
    out: dict[tuple[int, int], str] = {}
    errors: dict[tuple[int, int], str] = {}
    carry = b""
    with fh:
        while True:
            chunk = fh.read(1 << 20)
            buf = carry + chunk
            if not chunk:
                cut = len(buf)
            else:
                # the last cell end in the buffer (looked for in its last 64 KB first)
                last = None
                for last in _CELL_END.finditer(buf, max(0, len(buf) - 65536)):  # noqa: B007 - keeps the last
                    pass
                if last is None:
                    for last in _CELL_END.finditer(buf):  # noqa: B007 - keeps the last
                        pass
                cut = last.end() if last is not None else 0
            done, carry = buf[:cut], buf[cut:]
            # bytes.find first: the regex costs ~20 ms per MB, the plain searches a tenth of that
            if (b"<f" in done or b":f" in done or b'"e' in done or b"'e" in done) and _SPECIAL.search(done):
                for cm in _CELL.finditer(done):
                    body = cm.group(3)
                    attrs = b" " + cm.group(2)
                    if _T_ERR.search(attrs):
                        rm = _R_ATTR.search(attrs)
                        if rm is None:
                            return _formula_cells_parsed(zf, part)
                        vm = _V_EL.search(body)
                        err = (vm.group(1) or b"").decode("utf-8", "replace").strip() if vm is not None else ""
                        rc = parse_ref(rm.group(1).decode("ascii"))
                        if rc is None:
                            return _formula_cells_parsed(zf, part)
                        errors[rc] = err[:20] or "#VALUE?"
                        continue
                    if not _FORMULA.search(body):
                        continue
                    fm = _F_EL.search(body)
                    if fm is None:
                        continue
                    vm = _V_EL.search(body)
                    if vm is not None and (vm.group(1) or b"").strip():
                        continue
                    rm = _R_ATTR.search(attrs)
                    if rm is None:
                        return _formula_cells_parsed(zf, part)
                    rc = parse_ref(rm.group(1).decode("ascii"))
                    if rc is None:
                        return _formula_cells_parsed(zf, part)
                    text = (fm.group(2) or b"").decode("utf-8", "replace")
                    text = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
                    if not text and b't="shared"' in fm.group(1):
                        text = "(shared formula)"
                    out[rc] = text
            if not chunk:
                break
    return out, errors


def _formula_cells_parsed(
    zf: zipfile.ZipFile, part: str
) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    out: dict[tuple[int, int], str] = {}
    errors: dict[tuple[int, int], str] = {}
    row = -1
    col = -1
    cell_ref = (row, col)
    formula = None
    value = None
    is_error = False
    with zf.open(part) as fh:
        for ev, el in DET.iterparse(fh, events=("start", "end"), forbid_dtd=True):
            tag = _local(el.tag)
            if ev == "start":
                if tag == "row":
                    r = el.get("r")
                    row = int(r) - 1 if r and r.isdigit() else row + 1
                    col = -1
                elif tag == "c":
                    rc = parse_ref(el.get("r", "")) if el.get("r") else None
                    if rc:
                        row, col = rc
                    else:
                        col += 1
                    cell_ref = (row, col)
                    formula, value = None, None
                    is_error = el.get("t") == "e"
                continue
            if tag == "f":
                formula = el.text or ""
                if not formula and el.get("t") == "shared":
                    formula = "(shared formula)"
            elif tag == "v":
                value = el.text
            elif tag == "c":
                if is_error:
                    errors[cell_ref] = (value or "").strip()[:20] or "#VALUE?"
                elif formula is not None and (value is None or value == ""):
                    out[cell_ref] = formula
                el.clear()
            elif tag == "row":
                el.clear()
    return out, errors


# ----------------------------------------------------------------- workbook


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


def _encrypted(data: bytes) -> bool:
    """An OLE2 compound file holding an ``EncryptedPackage`` stream: what Excel writes for a
    password-protected xlsx/xlsm/xlsb (ECMA-376 agile or standard encryption)."""
    return data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" and "EncryptedPackage".encode("utf-16-le") in data[: 1 << 20]


def open_source(
    path_or_buffer, *, filename: str | None = None, max_bytes: int = 50_000_000, limits: Limits | None = None
) -> Source:
    lim = limits or DEFAULT_LIMITS
    data, name = read_bytes(path_or_buffer, filename, max_bytes)
    ext = Path(name).suffix.lower()
    kind = sniff(data)
    expected = EXTENSIONS.get(ext)
    if kind == "empty":
        raise SurveyError(f"{name} is empty")
    if _encrypted(data):
        raise SurveyError(
            f"{name} is password-protected (encrypted); open it in Excel and save a copy without "
            "the password (File > Info > Protect Workbook > Encrypt with Password, clear it)"
        )
    if expected is not None and kind != expected:
        hint = ""
        if kind in ("xlsx", "xls", "ods", "xlsb", "text"):
            good = {"xlsx": ".xlsx", "xls": ".xls", "ods": ".ods", "xlsb": ".xlsb", "text": ".csv"}[kind]
            hint = f"; rename it to {Path(name).stem}{good} if that is what it is"
        elif kind == "html":
            hint = "; open it in a spreadsheet program and save it as .xlsx"
        raise SurveyError(f"{name} is not {_describe_ext(ext)} (looks like {LOOKS.get(kind, kind)}){hint}")
    if expected is None and kind not in ("xlsx", "xlsb", "xls", "ods", "text"):
        raise SurveyError(
            f"{name}: unsupported file (looks like {LOOKS.get(kind, kind)}); "
            "give an xlsx, xlsm, xls, ods, csv, tsv or txt survey"
        )
    if kind == "text":
        fmt = ext.lstrip(".") if expected == "text" else "csv"
        return _open_text(data, name, fmt, lim)
    fmt = ext.lstrip(".") if expected else kind
    fmt = {"xltx": "xlsx", "xltm": "xlsm"}.get(fmt, fmt)
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


# ----------------------------------------------------------------- text


def decode_text(data: bytes) -> tuple[str, str]:
    """The text and its encoding: UTF-32 or UTF-16 by their BOM, UTF-8, else Windows-1252 / Latin-1.

    A file whose lines are partly UTF-8 and partly Windows-1252 (two exports pasted together) is
    decoded line by line, each in its own encoding; the encoding is then ``"mixed: ..."`` (see
    :func:`mixed_lines`)."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):  # before UTF-16: its BOM starts the same
        try:
            return data.decode("utf-32"), "utf-32"
        except UnicodeDecodeError as e:
            raise SurveyError(f"the file starts as UTF-32 but byte {e.start} is not UTF-32; save it as UTF-8") from None
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig"), ("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8")
    except UnicodeDecodeError:
        pass
    mixed = mixed_lines(data)
    if mixed is not None:
        return mixed
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def mixed_lines(data: bytes) -> tuple[str, str] | None:
    """Text of a file whose lines are some UTF-8 (with non-ASCII characters) and some not, each line
    decoded in its own encoding (UTF-8, else Windows-1252, else Latin-1), and ``"mixed: UTF-8 and
    Windows-1252 (lines 3, 7)"``; None when the file is not mixed (one encoding for every line)."""
    lines = data.splitlines(keepends=True)
    utf8, other, out = 0, [], []
    for no, ln in enumerate(lines, start=1):
        try:
            out.append(ln.decode("utf-8"))
            utf8 += not ln.isascii()
        except UnicodeDecodeError:
            try:
                out.append(ln.decode("cp1252"))
            except UnicodeDecodeError:
                out.append(ln.decode("latin-1"))
            other.append(no)
    if not utf8 or not other:
        return None
    shown = ", ".join(map(str, other[:10])) + (" ..." if len(other) > 10 else "")
    return "".join(out).lstrip("\ufeff"), f"mixed: UTF-8 and Windows-1252 (line(s) {shown})"


def _allow_fields(size: int) -> None:
    """Let the csv module read a cell as long as the file (its default limit is 131,072 characters).

    The limit is process-wide; it is only ever raised, and never past the file's own size, which
    ``max_bytes`` already bounds."""
    if csv.field_size_limit() < size + 1:
        csv.field_size_limit(size + 1)


def sniff_delimiter(text: str) -> str:
    lines = [ln for ln in text.splitlines()[:60] if ln.strip()]
    best, best_score = ",", -1.0
    for d in ("\t", ";", ",", "|"):
        counts = [len(r) for r in csv.reader(lines, delimiter=d)]
        multi = [c for c in counts if c > 1]
        if not multi:
            continue
        mode, n = Counter(multi).most_common(1)[0]
        score = n + 0.01 * mode
        if score > best_score:
            best, best_score = d, score
    return best


_DEC_COMMA_CELL = re.compile(r"^\s*-?\d+,\d+\s*$")
_DEC_POINT_CELL = re.compile(r"^\s*-?\d+\.\d+\s*$")


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
MAX_BROKEN_QUOTES = 100


def _strict_ok(text: str, delim: str) -> bool:
    """True if the text parses with every quote closed before a delimiter or a line end."""
    try:
        for _ in csv.reader(io.StringIO(text, newline=""), delimiter=delim, strict=True):
            pass
    except csv.Error:
        return False
    return True


class _RecordTooLong(Exception):
    """A record ran over more lines than a cell may hold characters: its quote is taken as never closed."""


def read_csv_rows(
    text: str, delim: str, max_record: int = DEFAULT_LIMITS.text
) -> tuple[list[list[str]], dict[int, tuple[int, int]], list[str]]:
    """The rows of a CSV text, the rows whose quote never closes, and warnings.

    A quote opened and never closed makes a CSV reader take the following
    lines into one cell, up to the end of the file or to the next stray
    quote, and those rows would vanish. A record whose cell runs over several
    lines is checked: if its quotes do not close properly (a strict reading
    fails), or it runs over more than ``max_record`` characters (a cell may hold
    no more: the ``text`` limit), the record is read again alone, up to the end
    of the line where the quote opened, and reported ({row index: (column index,
    line)}); the lines after it are read as usual, so every row is still counted.
    A well-quoted cell on several lines ("Red maple\nAcer rubrum") is kept.

    The lines are read once: a broken quote costs at most ``max_record`` characters
    read again, never the rest of the file (100 such quotes in 200,000 rows took
    ~50 s when each re-read what followed it).
    """
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    rows = list(reader)
    broken: dict[int, tuple[int, int]] = {}
    warnings: list[str] = []
    if reader.line_num == len(rows):  # one line per record: no cell runs over a line break
        return rows, broken, warnings
    lines = io.StringIO(text, newline="").readlines()  # each with its own end: \r\n, \r or \n
    rows = []
    at = [0, 0, 0]  # next line to read, first line of the record being read, its characters so far

    def feed() -> Any:
        while at[0] < len(lines):
            ln = lines[at[0]]
            if at[0] > at[1] and at[2] + len(ln) > max_record:
                raise _RecordTooLong
            at[0] += 1
            at[2] += len(ln)
            yield ln

    while at[0] < len(lines):
        at[1], at[2] = at[0], 0
        rec: list[str] | None = None
        try:
            for rec in csv.reader(feed(), delimiter=delim):
                first, after = at[1], at[0]
                if any(_LINE_BREAK.search(f) for f in rec) and not _strict_ok("".join(lines[first:after]), delim):
                    break
                rows.append(rec)
                at[1], at[2] = at[0], 0
                rec = None
            else:
                break  # every line read
        except _RecordTooLong:
            first = at[1]
            rec = next(csv.reader(io.StringIO("".join(lines[first : at[0]]), newline=""), delimiter=delim), [])
        assert rec is not None
        if len(broken) >= MAX_BROKEN_QUOTES:
            raise SurveyError(
                f"more than {MAX_BROKEN_QUOTES} quotes are opened and never closed (the last on line "
                f"{first + 1}); fix the quoting, or save the file again from a spreadsheet"
            )
        j = next((k for k, f in enumerate(rec) if _LINE_BREAK.search(f)), max(len(rec) - 1, 0))
        opened = first + 1 + sum(len(_LINE_BREAK.findall(f)) for f in rec[:j])  # its line, from 1
        alone = list(csv.reader(io.StringIO("".join(lines[first:opened]), newline=""), delimiter=delim))
        row = alone[0] if alone else []
        if row:
            row[-1] = row[-1].rstrip("\r\n")
        broken[len(rows)] = (max(len(row) - 1, 0), opened)
        rows.append(row)
        warnings.append(
            f"line {opened}: a quote opened here is never closed (the lines after it would "
            "have been read as one cell); the line was read alone and its row rejected"
        )
        at[0] = opened
    return rows, broken, warnings


def _text_extent(text: str, delim: str, name: str, lim: Limits) -> None:
    """Refuse a text file beyond the row or cell limit before it is split into cells (a 5-million-line
    CSV took 8 GB as lists of cells): lines and delimiters are counted, an upper bound of rows and cells."""
    lines = count_lines(text)  # \r alone ends a line too (a CR-only file skipped this check)
    if lines > lim.rows:
        raise refuse(name, f"it has {lines:,} lines", "rows", lim.rows)
    cells = text.count(delim) + lines
    if cells > lim.cells:
        raise refuse(name, f"it has about {cells:,} cells ({lines:,} lines)", "cells", lim.cells)


def _open_text(data: bytes, name: str, fmt: str, lim: Limits = DEFAULT_LIMITS) -> Source:
    try:
        text, enc = decode_text(data)
    except SurveyError as e:
        raise SurveyError(f"{name}: {e}") from None
    _allow_fields(len(text))
    try:
        delim = "\t" if fmt == "tsv" else sniff_delimiter(text)
        _text_extent(text, delim, name, lim)
        rows, broken, warnings = read_csv_rows(text, delim, lim.text)
        widest = max(map(len, rows), default=0)
        if widest > lim.columns:  # the limit a workbook's sheet has, for text too (1,000,000 took 12-39 s)
            row = next(i for i, r in enumerate(rows) if len(r) == widest)
            raise refuse(name, f"row {row + 1} has {widest:,} columns", "columns", lim.columns)
    except SurveyError as e:
        raise SurveyError(str(e) if str(e).startswith(name) else f"{name}: {e}") from None
    except csv.Error as e:
        raise SurveyError(f"{name} cannot be read as {LOOKS['text']} ({e})") from None
    longest = max((len(c) for r in rows for c in r), default=0)
    if longest > lim.text:
        where = next((i, j) for i, r in enumerate(rows) for j, c in enumerate(r) if len(c) == longest)
        raise refuse(
            name,
            f"the cell in row {where[0] + 1}, column {where[1] + 1} holds {longest:,} characters",
            "text",
            lim.text,
        )
    # decimal comma: a semicolon or tab file whose numbers use commas and never points
    dec = False
    if delim == ";":
        dec = True
    elif delim in ("\t", "|"):
        sample = [c for r in rows[:2000] for c in r]
        commas = sum(1 for c in sample if _DEC_COMMA_CELL.match(c))
        points = sum(1 for c in sample if _DEC_POINT_CELL.match(c))
        dec = commas > 0 and points == 0
    if enc.startswith("mixed"):
        warnings.append(
            f"{name} mixes encodings: {enc[7:]} are not UTF-8 like the rest; each line was decoded in "
            "its own encoding (check the accented names on those lines)"
        )
    src = Source(
        name,
        fmt,
        [Path(name).stem or "survey"],
        _text_rows=rows,
        encoding=enc,
        delimiter=delim,
        decimal_comma=dec,
        broken_rows=broken,
        warnings=warnings,
    )
    return src
