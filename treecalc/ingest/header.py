"""Stage 2 of the read: pick the sheet, find the header row and map its columns.

The header is the row, in the first :data:`HEADER_SCAN_ROWS`, naming the most known fields
and both a species (or genus) and a DBH column (:func:`treecalc.ingest.columns.find_header`).
Merged header cells are filled from their top-left cell first, so DBH columns under one
merged "DBH" header are read as stems of one tree.
"""

from __future__ import annotations

import re

from treecalc.ingest import columns as C
from treecalc.ingest.errors import SurveyError
from treecalc.ingest.sources import Source
from treecalc.ingest.sources.gis import GIS_LOOKS
from treecalc.ingest.values import as_text, is_blank

HEADER_SCAN_ROWS = 30

_TREE_SHEET = re.compile(r"tree|survey|inventory|data|species", re.I)
SITE_SHEETS = {"site", "site info", "site facts", "site data", "site information", "property", "lot"}


def fill_merges(
    rows: list[list], merges, limit: int = 2_000_000, filled: dict[tuple[int, int], tuple[int, int]] | None = None
) -> None:
    """Copy each merged range's top-left value into its blank cells (each
    filled cell is recorded in ``filled`` with the range's top-left cell)."""
    budget = limit
    for (r0, c0), (r1, c1) in merges:
        if r0 >= len(rows):
            continue
        v = rows[r0][c0] if c0 < len(rows[r0]) else None
        if is_blank(v):
            continue
        for r in range(r0, min(r1, len(rows) - 1) + 1):
            row = rows[r]
            for c in range(c0, min(c1, len(row) - 1) + 1):
                if (r, c) != (r0, c0) and is_blank(row[c]):
                    row[c] = v
                    if filled is not None and r < HEADER_SCAN_ROWS:
                        filled[(r, c)] = (r0, c0)
                    budget -= 1
                    if budget <= 0:
                        return


def pick_sheet(src: Source, sheet: str | int | None) -> tuple[str, list[str]]:
    """(the sheet asked for or the only one, "" when several are tried; the sheets to try in order)."""
    names = src.sheet_names
    if not names:
        raise SurveyError(f"{src.name} has no sheets")
    if sheet is not None:
        if isinstance(sheet, int) and not isinstance(sheet, bool):
            if not 0 <= sheet < len(names):
                raise SurveyError(f"{src.name}: no sheet number {sheet} (sheets: {', '.join(names)})")
            return names[sheet], names
        want = str(sheet).strip()
        for n in names:
            if n == want or n.strip().lower() == want.lower():
                return n, names
        if want.isdigit() and int(want) < len(names):
            return names[int(want)], names
        raise SurveyError(f"{src.name}: no sheet {want!r} (sheets: {', '.join(names)})")
    if len(names) == 1:
        return names[0], names
    candidates = [n for n in names if n.strip().lower() not in SITE_SHEETS]
    ordered = [n for n in candidates if _TREE_SHEET.search(n)] + [n for n in candidates if not _TREE_SHEET.search(n)]
    ordered.sort(key=lambda n: n in src.hidden)  # a sheet the user sees before a hidden one
    return "", ordered


def find_header(src: Source, sheet: str | int | None, column_map: dict | None) -> tuple[str, list[list], C.Mapping]:
    """(sheet name, every row of it with merged ranges filled, the column mapping); SurveyError when
    no sheet has a header naming a species and a DBH column."""
    chosen, ordered = pick_sheet(src, sheet)
    tried = [chosen] if chosen else ordered
    for name in tried:
        head = [list(r) for r in src.rows(name, nrows=HEADER_SCAN_ROWS)]
        filled: dict[tuple[int, int], tuple[int, int]] = {}
        fill_merges(head, src.merged(name), filled=filled)
        m = C.find_header(head, column_map, HEADER_SCAN_ROWS, merged=filled)
        if m is None:
            continue
        if len(head) < HEADER_SCAN_ROWS:
            return name, head, m
        rows = src.rows(name)
        merges = src.merged(name)
        if merges:
            rows = [list(r) for r in rows]
            fill_merges(rows, merges)
        return name, rows, m
    # a GIS file's one table is the layer the user's GIS names, not a sheet
    unit = "layer" if src.format in GIS_LOOKS else "sheet"
    where = f"{unit} {tried[0]!r}" if len(tried) == 1 else f"any {unit} ({', '.join(tried)})"
    if column_map:
        seen = {C.norm_header(as_text(v)) for name in tried for r in src.rows(name, nrows=HEADER_SCAN_ROWS) for v in r}
        missing = [k for k in column_map if C.norm_header(k) not in seen]
        if missing:
            raise SurveyError(
                f"{src.name}: column map: {', '.join(repr(m) for m in missing)} not in the header of {where}"
            )
    raise SurveyError(
        f"{src.name}: no header row naming both a species and a DBH column in the first "
        f"{HEADER_SCAN_ROWS} rows of {where}; name the columns with a column map "
        '(e.g. ‹column_map="Diam. cm=dbh_cm"›)'
    )
