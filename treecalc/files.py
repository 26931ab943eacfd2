"""Files written whole or not at all: a temporary file beside the target, renamed over it when complete.

A statement, a register backup or an export interrupted half-way (a full disk, a crash, Ctrl-C) must never
leave a truncated file where a good one was, nor a stray temporary file. :class:`Replacing` makes the
temporary file in the target's own folder (so the rename stays on one file system, where ``os.replace`` is
atomic), gives its path to the writer, and on success renames it over the target; on any error it removes it
and the target is as it was.

Standard library only.

A user's file read within bounds: its type and size checked before it is read, a CSV's lines, columns and
cells counted before it is parsed.

- :func:`read_limited`: the bytes of a regular file of at most :func:`max_input_bytes` (:class:`InputRefused`).
- :func:`parse_csv_table`: a user's CSV as text cells (BOM, ',' ';' or tab), rows longer than the header
  refused naming the row (read it through :func:`treecalc.ingest.isolated.read_csv_table`).
- :func:`count_lines`, :func:`first_line`: lines counted and found without splitting the whole text.
"""

from __future__ import annotations

import csv
import io
import os
import re
import stat
import tempfile
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Any

from treecalc.quantities import in_range

__all__ = ["Replacing"]


class Replacing:
    """``with Replacing(path) as tmp:`` write ``tmp``; when the block ends without error ``tmp`` replaces ``path``.

    The temporary file is made (empty, mode 0600) when the object is: an ``OSError`` then says the folder
    cannot be written, apart from one raised while writing. ``user_mode=True`` gives the finished file the
    user's usual mode (0666 less the umask: 0644 for most) instead of 0600, for a file meant to be shared
    (the statement); a backup keeps 0600.
    """

    def __init__(self, path: str | os.PathLike[str], *, user_mode: bool = False) -> None:
        self.path = Path(path)
        self.user_mode = user_mode
        folder = self.path.parent if str(self.path.parent) else Path(".")
        fd, self.tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
        os.close(fd)

    def __enter__(self) -> str:
        return self.tmp

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if kind is None:
                if self.user_mode:
                    umask = os.umask(0)  # read the umask (setting it is the only way), then put it back
                    os.umask(umask)
                    os.chmod(self.tmp, 0o666 & ~umask)
                os.replace(self.tmp, self.path)
                return
        except BaseException:
            self._discard()
            raise
        self._discard()

    def _discard(self) -> None:
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


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
    """A CSV as a DataFrame of stripped text cells; ``index + 2`` is each row's line in the file
    (:func:`parse_csv_rows`, its rules)."""
    import pandas as pd  # heavy: pandas, loaded only when this runs

    header, rows, lines = parse_csv_rows(path, what, max_bytes, max_rows)
    return pd.DataFrame(rows, columns=header, index=lines, dtype=str)


def parse_csv_rows(
    path: str | PathLike[str], what: str, max_bytes: int | None = None, max_rows: int | None = None
) -> tuple[list[str], list[list[str]], list[int]]:
    """A CSV as its header, its rows of stripped text cells (each as long as the header) and each row's line in
    the file less 2, without pandas (a reader that needs no frame imports none).

    UTF-8 (with or without BOM) or Windows-1252; the separator (',', ';' or tab) is the one the
    header uses most. Blank lines are skipped; a row with more values than the header is refused
    naming the row (an unquoted '1,000.00' or a decimal comma would otherwise shift or drop values);
    a trailing empty value is allowed. The file is read through :func:`read_limited` (type and size) and
    its lines (``\\r``, ``\\n`` or ``\\r\\n``) and header columns are counted before it is parsed. Raises
    ValueError naming ``what`` and the file.
    """
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
    return header, rows, lines
