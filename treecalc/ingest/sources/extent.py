"""The pre-flight: each sheet's true extent and a workbook's shared strings, measured from its XML before a
native reader allocates them, and refused beyond the limits."""

from __future__ import annotations

import re
import zipfile
from operator import itemgetter

from treecalc.ingest.columns import column_letters
from treecalc.ingest.errors import SurveyError
from treecalc.ingest.limits import Limits, refuse
from treecalc.ingest.sources.zipguard import col_index

# ----------------------------------------------------------------- true extents
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
