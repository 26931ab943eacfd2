"""``case export``: the register's tables as CSV (one table) or xlsx (every table, one sheet each).

Amounts are exact: CSV carries the dollars text of the cents held (``1250.50``); the workbook writes them as
numbers of dollars formatted ``$#,##0.00`` (cents / 100 is exact to the cent at any amount the register
takes, $1 billion at most).
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

from treecalc.files import Replacing
from treecalc.register.core import Register, RegisterError

TABLES = ("cases", "payments", "fund", "due", "holds", "bonds")


def tables(reg: Register, start: Any = None, end: Any = None) -> dict[str, list[dict[str, Any]]]:
    """Each table as rows: cases (with balances), payments, the Fund ledger by month, inspections due,
    open holds, bonds held. ``start``/``end`` bound the payments, the ledger and the due list (default: all)."""
    a = start or dt.date(1900, 1, 1).isoformat()
    b = end or dt.date(2200, 12, 31).isoformat()
    ledger = reg.fund_ledger(a, b)
    return {
        "cases": reg.cases(),
        "payments": reg.payments(a, b),
        "fund": ledger["by_month"],
        "due": reg.due(a, b),
        "holds": reg.holds_open(),
        "bonds": reg.bonds_held()["bonds"],
    }


def export(reg: Register, path: str | Path, table: str = "cases", start: Any = None, end: Any = None) -> int:
    """Write ``path`` (.csv: ``table`` only; .xlsx: every table); the rows written."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise RegisterError(f"‹out› {path}: give a file name ending in .csv or .xlsx")
    if table not in TABLES:
        raise RegisterError(f"‹table› {table!r}: one of {', '.join(TABLES)}")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise RegisterError(f"‹out› {path}: the folder {folder} does not exist")
    if p.is_dir():
        raise RegisterError(f"‹out› {path} is a folder: give a file name ending in {suffix}")
    data = tables(reg, start, end)
    try:
        out = Replacing(p)
    except OSError as e:  # a read-only or special folder: say it of the output file, not of the temporary one
        raise RegisterError(f"‹out› {path}: the folder {folder} cannot be written ({e.strerror})") from None
    try:
        with out as tmp:
            n = _csv(tmp, data[table]) if suffix == ".csv" else _xlsx(tmp, data)
    except OSError as e:
        raise RegisterError(f"‹out› {path} could not be written: {e.strerror or e}") from None
    return n


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(k for r in rows for k in r))


def _csv(path: str, rows: list[dict[str, Any]]) -> int:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=_columns(rows) or ["(no rows)"])
        w.writeheader()
        for r in rows:
            w.writerow({k: _cell(v) for k, v in r.items()})
    return len(rows)


def _cell(v: Any) -> Any:
    """A CSV cell: text a spreadsheet would run as a formula (a title "=HYPERLINK(...)" from an applicant's
    file name, a note starting with a line break) is written with a leading apostrophe; amounts ("-12.50")
    stay numbers (:func:`treecalc.report.xlsx.csv_cell`, the one guard of every CSV written)."""
    from treecalc.report.xlsx import csv_cell  # heavy: pandas, numpy, xlsxwriter, ..., loaded only when this runs

    return "" if v is None else csv_cell(v)


def _xlsx(path: str, data: dict[str, list[dict[str, Any]]]) -> int:
    import xlsxwriter  # heavy: xlsxwriter, loaded only when this runs

    # heavy: pandas, numpy, xlsxwriter, ..., loaded only when this runs
    from treecalc.report.xlsx import needs_quote_prefix

    n = 0
    wb = xlsxwriter.Workbook(path)
    try:
        money = wb.add_format({"num_format": "$#,##0.00"})
        bold = wb.add_format({"bold": True})
        quoted = wb.add_format({"quote_prefix": True})  # text a spreadsheet would run as a formula stays text
        for name, rows in data.items():
            ws = wb.add_worksheet(name.capitalize())
            cols = _columns(rows)
            for j, c in enumerate(cols):
                ws.write(0, j, c, bold)
            for i, r in enumerate(rows, start=1):
                for j, c in enumerate(cols):
                    v = r.get(c)
                    if v is None:
                        continue
                    if c.endswith("usd") and isinstance(v, str):
                        ws.write_number(i, j, float(v), money)  # exact text of cents -> dollars
                    elif isinstance(v, (bool, int, float)):
                        ws.write(i, j, v)
                    else:
                        ws.write_string(i, j, str(v), quoted if needs_quote_prefix(str(v)) else None)
            n += len(rows)
    finally:
        wb.close()
    return n
