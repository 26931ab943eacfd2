"""Text surveys (csv, tsv, txt): decoding, the delimiter, the rows (an unclosed quote read alone), the
decimal comma, and the limits a workbook's sheet has."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from pathlib import Path
from typing import Any

from treecalc.files import count_lines
from treecalc.ingest.columns import names_species_and_dbh
from treecalc.ingest.errors import SurveyError
from treecalc.ingest.limits import DEFAULT as DEFAULT_LIMITS
from treecalc.ingest.limits import Limits, refuse
from treecalc.ingest.sources.filetype import LOOKS
from treecalc.ingest.sources.workbook import Source


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


def sniff_delimiter(text: str, max_columns: int = DEFAULT_LIMITS.columns) -> str:
    """The delimiter of a CSV text: the one under which a line of the first 30 reads as a header naming a species
    and a DBH column, else the one splitting the most lines alike (titles above the header split too). A line of
    more than ``max_columns`` cells is not read as a header (the file is refused for it after): a million-column
    line took 39 s of header matching here before its refusal."""
    lines = [ln for ln in text.splitlines()[:60] if ln.strip()]
    best, best_score = ",", -1.0
    for d in ("\t", ";", ",", "|"):
        # a line split into blank cells (a title of ";" alone) says nothing of the delimiter
        counts = [len(r) for r in csv.reader(lines, delimiter=d) if sum(1 for c in r if c.strip()) > 1]
        multi = [c for c in counts if c > 1]
        if not multi:
            continue
        mode, n = Counter(multi).most_common(1)[0]
        # the lines that split at all count beside the most common width: a title "0,;," splits by ',' as one
        # line of three cells, but by ';' it and the header below it both split (a width each, one line apiece)
        score = n + len(multi) + 0.01 * mode
        # a header the reader recognises settles it: titles "0|0" above "Species,DBH" split by "|" as often
        if any(1 < len(r) <= max_columns and names_species_and_dbh(r) for r in csv.reader(lines[:30], delimiter=d)):
            score += 1000
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


def _decimal_comma(rows: list[list[str]], delim: str) -> bool:
    """Whether the file's numbers use a decimal comma: a semicolon file always (the separator a spreadsheet
    set to a decimal comma writes), a tab or pipe file when its first 2,000 rows hold numbers with a comma
    and none with a point."""
    if delim == ";":
        return True
    if delim not in ("\t", "|"):
        return False
    sample = [c for r in rows[:2000] for c in r]
    commas = sum(1 for c in sample if _DEC_COMMA_CELL.match(c))
    points = sum(1 for c in sample if _DEC_POINT_CELL.match(c))
    return commas > 0 and points == 0


def _open_text(data: bytes, name: str, fmt: str, lim: Limits = DEFAULT_LIMITS) -> Source:
    try:
        text, enc = decode_text(data)
    except SurveyError as e:
        raise SurveyError(f"{name}: {e}") from None
    _allow_fields(len(text))
    try:
        delim = "\t" if fmt == "tsv" else sniff_delimiter(text, lim.columns)
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
    if enc.startswith("mixed"):
        warnings.append(
            f"{name} mixes encodings: {enc[7:]} are not UTF-8 like the rest; each line was decoded in "
            "its own encoding (check the accented names on those lines)"
        )
    return Source(
        name,
        fmt,
        [Path(name).stem or "survey"],
        _text_rows=rows,
        encoding=enc,
        delimiter=delim,
        decimal_comma=_decimal_comma(rows, delim),
        broken_rows=broken,
        warnings=warnings,
    )
