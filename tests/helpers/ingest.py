"""Helpers that write small survey files for the ingest tests."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

from openpyxl import Workbook

HEADER = ["Tag", "Species", "DBH", "Action"]
ROWS = [
    [1, "Acer rubrum", 12, "retain"],
    [2, "Quercus alba", 20.5, "remove"],
    [3, "Sugar maple", 8, "retain"],
]


def write_xlsx(path: Path, rows, sheet: str = "Trees", extra: dict | None = None, merges=()) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = sheet
    for r in rows:
        ws.append(list(r))
    for m in merges:
        ws.merge_cells(m)
    for name, srows in (extra or {}).items():
        s = wb.create_sheet(name)
        for r in srows:
            s.append(list(r))
    wb.save(path)
    return path


def write_text(path: Path, rows, delimiter: str = ",", encoding: str = "utf-8") -> Path:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\r\n")
    for r in rows:
        w.writerow(["" if v is None else v for v in r])
    path.write_bytes(buf.getvalue().encode(encoding))
    return path


def read_csv_text(text: str, **kw):
    """read_survey on CSV text; every row read comes out as a tree or a rejected row."""
    from treecalc.ingest import read_survey

    s = read_survey(text.encode("utf-8"), filename="s.csv", **kw)
    assert s.rows_read == len(s.trees) + len(s.rejected)
    return s


def xlsx_bytes(rows, extra: dict | None = None) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Trees"
    for r in rows:
        ws.append(list(r))
    for name, srows in (extra or {}).items():
        sh = wb.create_sheet(name)
        for r in srows:
            sh.append(list(r))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def patch_cell(data: bytes, part: str, ref: str, new_cell: str) -> bytes:
    """Replace one cell of a sheet part with hand-written XML (a formula with a cached error)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == part:
                body, n = re.subn(
                    rb'<c r="' + ref.encode() + rb'"[^>]*?(?:/>|>.*?</c>)', new_cell.encode(), body, count=1, flags=re.S
                )
                assert n == 1
            dst.writestr(info, body)
    return out.getvalue()
