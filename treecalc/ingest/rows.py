"""Stage 3 of the read: the rows under the header — blank rows, totals rows, data rows.

A :class:`Table` holds the data rows kept (blank rows dropped and counted) with their
1-based spreadsheet row numbers, and reads a mapped column as values or as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from treecalc.ingest.columns import Column, column_letters
from treecalc.ingest.values import as_text, as_texts, is_blank

TOTALS_TEXT = re.compile(r"^\s*(grand\s+|sub[\s-]?)?(totals?|sum|subtotal|count|average|avg|mean)\b", re.I)


@dataclass
class Table:
    """The data rows kept under the header row ``h`` (0-based in the grid)."""

    rows: list[list]
    source_row: np.ndarray  # 1-based spreadsheet row of each kept row
    keep_idx: list[int]  # index of each kept row among the rows under the header
    first_text: list[str]  # the first text cell of each row ("" when it is a number)
    col_label: list[str]  # header text of each column, or "column C"
    h: int
    _cache: dict[int, list] = field(default_factory=dict, repr=False)
    _width: int | None = field(default=None, repr=False)  # the shortest row's length

    @property
    def n(self) -> int:
        return len(self.rows)

    def values(self, c: Column | None) -> list:
        """The cells of a column (None for every row when the column is absent)."""
        if c is None:
            return [None] * self.n
        j = c.index
        got = self._cache.get(j)
        if got is None:
            if self._width is None:
                self._width = min(map(len, self.rows), default=0)
            got = [r[j] for r in self.rows] if j < self._width else [r[j] if j < len(r) else None for r in self.rows]
            self._cache[j] = got
        return got

    def text(self, c: Column | None) -> pd.Series:
        """The cells of a column as text ('' when blank)."""
        if c is None:
            return pd.Series([""] * self.n, dtype=object)
        return pd.Series(as_texts(self.values(c)), dtype=object)

    def positions(self) -> dict[int, int]:
        """Grid row (0-based) → position among the kept rows."""
        return {kk + self.h + 1: i for i, kk in enumerate(self.keep_idx)}


def _first_value(r: list) -> object:
    for c in r:
        if c is None or c == "" or (type(c) is str and not c.strip()) or (type(c) is float and c != c):
            continue
        return c
    return None


def _first_texts(under: list[list], unreadable: set[int]) -> tuple[list[int], list[str], int]:
    """(the rows kept: not blank, or with an unreadable cell; the first text of each, "" when its
    first value is not a text; the number of blank rows). A row whose first cell is a number or a
    text with something in it (most rows) is decided by that cell without a look at the others."""
    firsts = [r[0] if r else None for r in under]
    decided = np.fromiter(
        (type(c) is str and c.strip() != "" or (type(c) is float or type(c) is int) and c == c for c in firsts),
        dtype=bool,
        count=len(firsts),
    )
    texts = np.array([c if type(c) is str else "" for c in firsts] + [""], dtype=object)[:-1]
    keep = decided.copy()
    for k in sorted(set(np.flatnonzero(~decided).tolist()) | {k for k in unreadable if 0 <= k < len(under)}):
        r = under[k]
        if k in unreadable:
            keep[k], texts[k] = True, next((c for c in r if isinstance(c, str) and c.strip()), "")
            continue
        ft = _first_value(r)
        keep[k], texts[k] = ft is not None, ft if isinstance(ft, str) else ""
    keep_idx = np.flatnonzero(keep)
    return keep_idx.tolist(), texts[keep_idx].tolist(), int(len(under) - len(keep_idx))


def _beyond_header(under: list[list], headers: list[str], h: int) -> list[str]:
    """Cells right of the header's last named column are not read: say so, naming the rows."""
    width = max((j + 1 for j, hd in enumerate(headers) if hd), default=0)
    if max(map(len, under), default=0) <= width:
        return []
    beyond = [k + h + 2 for k, r in enumerate(under) if len(r) > width and any(not is_blank(c) for c in r[width:])]
    if not beyond:
        return []
    return [
        f"{len(beyond)} row(s) have cells right of the header (after column "
        f"{column_letters(max(width - 1, 0))}), which has no name there, so they were not read: row(s) "
        + ", ".join(map(str, beyond[:10]))
        + (" ..." if len(beyond) > 10 else "")
    ]


def data_rows(rows: list[list], h: int, unreadable_rows: set[int]) -> tuple[Table, list[str]]:
    """The rows under header row ``h``: blank rows skipped (a warning counts those inside the table),
    rows with an unreadable cell (``unreadable_rows``, grid rows) always kept."""
    warnings: list[str] = []
    if unreadable_rows and max(unreadable_rows) >= len(rows):
        rows = list(rows) + [[] for _ in range(max(unreadable_rows) + 1 - len(rows))]
    under = rows[h + 1 :]
    header_cells = rows[h]
    ncols = max((len(r) for r in rows), default=0)
    headers = [as_text(header_cells[j]) if j < len(header_cells) else "" for j in range(ncols)]
    col_label = [hd or f"column {column_letters(j)}" for j, hd in enumerate(headers)]
    warnings += _beyond_header(under, headers, h)
    unreadable = {r0 - h - 1 for r0 in unreadable_rows}
    keep_idx, first_text, blank_rows = _first_texts(under, unreadable)
    # trailing blank rows (formatting below the table) are not worth a warning
    trailing = 0
    for k in range(len(under) - 1, -1, -1):
        if k in unreadable or any(not is_blank(c) for c in under[k]):
            break
        trailing += 1
    if blank_rows - trailing > 0:
        warnings.append(f"{blank_rows - trailing} blank row(s) inside the table skipped")
    table = Table(
        [under[k] for k in keep_idx], np.array(keep_idx, dtype=np.int64) + h + 2, keep_idx, first_text, col_label, h
    )
    return table, warnings


def totals_rows(table: Table, main_raw: list, has_dbh: bool, species: pd.Series, tags: pd.Series) -> np.ndarray:
    """Totals or summary rows: the first text says so ("Total", "Average"), or a row of numbers only,
    without species or tag, whose DBH equals the sum of the DBHs above it."""
    match = {t: bool(TOTALS_TEXT.match(t)) for t in dict.fromkeys(table.first_text)}
    mask = np.array([match[t] for t in table.first_text], dtype=bool)
    if not table.n or not has_dbh:
        return mask
    num = np.fromiter(  # the numbers of the DBH column (most cells: a float, taken as it is)
        (
            v if type(v) is float else float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else np.nan
            for v in main_raw
        ),
        dtype=float,
        count=len(main_raw),
    )
    cum = np.concatenate([[0.0], np.nancumsum(num)[:-1]])
    eq = np.isfinite(num) & (np.abs(num - cum) <= np.maximum(0.011, 1e-6 * cum)) & (cum > 0)
    if eq.any():  # (a DBH that is the sum of those above it is rare: the texts are compared only then)
        eq &= (species == "").to_numpy() & (tags == "").to_numpy()
    for i in np.flatnonzero(eq):
        eq[i] = all(is_blank(c) or (isinstance(c, (int, float)) and not isinstance(c, bool)) for c in table.rows[i])
    return mask | eq


def totals_reason(table: Table, i: int) -> str:
    return (
        f"row {table.source_row[i]}: a totals or summary row ({as_text(table.first_text[i]) or 'a row of sums'}), "
        "not a tree"
    )
