"""Helpers that write small survey files for the ingest tests."""

from __future__ import annotations

import csv
import io
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
