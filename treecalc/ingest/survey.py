"""Read a tree survey spreadsheet into accepted trees and rejected rows.

Every data row below the header is either a tree or a rejected row with a
reason naming its row and column (``rows_read == len(trees) + len(rejected)``
is checked on every read). Blank rows are skipped and counted in a warning.

Conventions (documented choices):

* **Flags** (street tree, wetland, ...). A present column reads Y/N, Yes/No,
  X/blank, TRUE/FALSE, 1/0, ✓: a blank cell is False (the X/blank
  convention). A column that is absent is False for every tree and the flag
  is listed in ``site_assumptions`` as not surveyed. Text that is not a
  boolean keeps the row with a warning and the conservative value: True for
  flags that raise an obligation, False for the three that exempt
  (``hazardous``, ``dead_or_diseased``, ``good_forestry``).
* **Action**. Blank is ``retain`` (said once in ``warnings``); text not
  recognised is taken as ``remove`` (the reading that keeps every obligation)
  with a warning on the row.
* **Condition / land use** not recognised: ``''`` with a warning on the row.
* **DBH** is in inches unless a user option (``dbh_unit``, a ``dbh_cm`` /
  ``dbh_mm`` column map), a unit column, or the header ("DBH (cm)") says
  otherwise, in that order; a unit written in a cell ("30 cm") wins for that
  cell; units are in, cm, mm, ft and m, and a unit column naming anything else
  rejects its row. Several stems combine as sqrt(sum of squares)
  (:func:`treecalc.ingest.values.combine_stems`), but only stems said to be
  stems: a stem header ("Stem 2", "DBH 2", "Stem DBH") or columns under one
  merged DBH header. Columns of the same DBH in other units ("DBH (in)",
  "DBH (cm)") are alternatives: the first given is used, inches first, with a
  warning when both are given and differ by more than 0.5 in. Two columns both
  read as DBH in the same unit are refused (SurveyError). A Stems column must
  hold a whole number from 1 to 50.
* **Unreadable cells**. An Excel error (#DIV/0!, #N/A, also cached from a
  formula) or a formula without a cached value in a column that is read
  rejects its row, naming the cell; a CSV quote that never closes rejects the
  row where it opened (the lines after it are still read).
* **Tags**. A blank tag becomes ``row-N`` with a warning; a tag already used
  on an earlier row rejects the later row (tags compare case-insensitively).
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc.ingest import columns as C
from treecalc.ingest.columns import column_letters
from treecalc.ingest import site as S
from treecalc.ingest import values as V
from treecalc.ingest.errors import IngestInvariantError, SurveyError
from treecalc.ingest.limits import Limits
from treecalc.ingest.sources import Source, open_source
from treecalc.species import resolve_many

REJECTION_KINDS = (
    "totals row", "broken CSV quote", "formula without cached value", "Excel error", "duplicate tag",
    "missing species", "unknown DBH unit", "missing DBH", "DBH not a number", "DBH not positive",
    "DBH above 250 in", "stems not valid", "unresolved species",
)
MAX_DBH_IN = 250.0
WARN_DBH_IN = 100.0
HEADER_SCAN_ROWS = 30

TREE_COLUMNS = (
    "source_row", "tag", "species", "species_code", "species_method", "species_score", "dbh_in", "stems",
    "action", "condition", "land_use", "notes", *C.FLAG_FIELDS, "distance_to_residence_ft", "warnings",
)
REJECTED_COLUMNS = ("source_row", "tag", "species", "dbh", "column", "reason", "kind", "suggestions", "raw")

_TOTALS = re.compile(r"^\s*(grand\s+|sub[\s-]?)?(totals?|sum|subtotal|count|average|avg|mean)\b", re.I)
_TREE_SHEET = re.compile(r"tree|survey|inventory|data|species", re.I)
_SITE_SHEET = {"site", "site info", "site facts", "site data", "site information", "property", "lot"}


@dataclass
class Survey:
    """A survey read: accepted ``trees``, ``rejected`` rows, ``site`` facts."""

    trees: pd.DataFrame
    rejected: pd.DataFrame
    site: dict
    site_assumptions: list[str]
    warnings: list[str]
    rows_read: int
    source: dict
    #: Conservative values assumed for the site facts not given (None: no value can be assumed).
    site_assumed: dict = field(default_factory=dict)
    #: Assumptions about the survey's own content (flag columns absent, no distance column); also
    #: listed in ``site_assumptions``. The law engine states its own site-fact assumptions but
    #: carries these.
    data_assumptions: list[str] = field(default_factory=list)

    def check(self) -> None:
        if self.rows_read != len(self.trees) + len(self.rejected):
            raise IngestInvariantError(
                f"internal error: {self.rows_read} rows read but {len(self.trees)} trees + "
                f"{len(self.rejected)} rejected")

    def summary(self, max_items: int = 500) -> dict[str, Any]:
        """Counts, rejection reasons, unresolved names and warnings (``treecalc survey --json``)."""
        rej = self.rejected
        reasons = Counter(rej["kind"]) if len(rej) else Counter()
        unresolved = rej[rej["kind"] == "unresolved species"] if len(rej) else rej
        # one pass: the first row's suggestions for each name (a scan per name was quadratic)
        first: dict[str, str] = {}
        for n, sg in zip(unresolved["species"], unresolved["suggestions"]) if len(unresolved) else ():
            first.setdefault(n, sg)
        names = list(first)
        sugg = {n: [s for s in str(first[n]).split("; ") if s] for n in names}
        row_warnings = []
        if len(self.trees):
            w = self.trees.loc[self.trees["warnings"] != "", ["source_row", "tag", "warnings"]]
            row_warnings = [f"row {r} (tag {t}): {m}" for r, t, m in w.itertuples(index=False)]
        all_warnings = list(self.warnings) + row_warnings
        rejected_rows = [
            {"source_row": int(r.source_row), "tag": r.tag, "species": r.species, "dbh": r.dbh, "column": r.column,
             "kind": r.kind, "reason": r.reason, "suggestions": r.suggestions}
            for r in rej.head(max_items).itertuples(index=False)
        ]
        t = self.trees
        return {
            "file": self.source.get("file"),
            "format": self.source.get("format"),
            "sheet": self.source.get("sheet"),
            "header_row": self.source.get("header_row"),
            "rows_read": int(self.rows_read),
            "trees": int(len(t)),
            "rejected": int(len(rej)),
            "rejected_reasons": {k: int(reasons[k]) for k in REJECTION_KINDS if reasons.get(k)},
            "rejected_rows": rejected_rows,
            "unresolved_species": names,
            "unresolved_suggestions": sugg,
            "warnings": all_warnings[:max_items] + (
                [f"... and {len(all_warnings) - max_items} more"] if len(all_warnings) > max_items else []),
            "actions": {a: int((t["action"] == a).sum()) for a in V.ACTIONS} if len(t) else {},
            "multi_stem_trees": int((t["stems"] > 1).sum()) if len(t) else 0,
            "dbh_unit": self.source.get("dbh_unit"),
            "dbh_unit_source": self.source.get("dbh_unit_source"),
            "columns": self.source.get("column_map"),
            "unmapped_columns": self.source.get("unmapped"),
            "site": self.site,
            "site_assumptions": list(self.site_assumptions),
        }


# ------------------------------------------------------------------ helpers

def _blank(v: object) -> bool:
    if v is None:
        return True
    if isinstance(v, str):
        return not v.strip()
    if isinstance(v, float):
        return v != v
    return False


def as_text(v: object) -> str:
    """A cell as the text a user would read: 17.0 → '17', dates as ISO dates."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        if v != v:
            return ""
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    if isinstance(v, _dt.datetime):
        return v.isoformat(sep=" ") if (v.hour, v.minute, v.second) != (0, 0, 0) else v.date().isoformat()
    if isinstance(v, (_dt.date, _dt.time, _dt.timedelta)):
        return str(v)
    return str(v).strip()


def _column(rows: list[list], j: int) -> list:
    return [r[j] if j < len(r) else None for r in rows]


def _fill_merges(rows: list[list], merges, limit: int = 2_000_000,
                 filled: dict[tuple[int, int], tuple[int, int]] | None = None) -> None:
    """Copy each merged range's top-left value into its blank cells (each
    filled cell is recorded in ``filled`` with the range's top-left cell)."""
    budget = limit
    for (r0, c0), (r1, c1) in merges:
        if r0 >= len(rows):
            continue
        v = rows[r0][c0] if c0 < len(rows[r0]) else None
        if _blank(v):
            continue
        for r in range(r0, min(r1, len(rows) - 1) + 1):
            row = rows[r]
            for c in range(c0, min(c1, len(row) - 1) + 1):
                if (r, c) != (r0, c0) and _blank(row[c]):
                    row[c] = v
                    if filled is not None and r < HEADER_SCAN_ROWS:
                        filled[(r, c)] = (r0, c0)
                    budget -= 1
                    if budget <= 0:
                        return


def _pick_sheet(src: Source, sheet) -> tuple[str, C.Mapping | None, list[str]]:
    names = src.sheet_names
    if not names:
        raise SurveyError(f"{src.name} has no sheets")
    if sheet is not None:
        if isinstance(sheet, int) and not isinstance(sheet, bool):
            if not 0 <= sheet < len(names):
                raise SurveyError(f"{src.name}: no sheet number {sheet} (sheets: {', '.join(names)})")
            return names[sheet], None, names
        want = str(sheet).strip()
        for n in names:
            if n == want or n.strip().lower() == want.lower():
                return n, None, names
        if want.isdigit() and int(want) < len(names):
            return names[int(want)], None, names
        raise SurveyError(f"{src.name}: no sheet {want!r} (sheets: {', '.join(names)})")
    if len(names) == 1:
        return names[0], None, names
    site_like = [n for n in names if n.strip().lower() in _SITE_SHEET]
    candidates = [n for n in names if n not in site_like]
    ordered = [n for n in candidates if _TREE_SHEET.search(n)] + [n for n in candidates if not _TREE_SHEET.search(n)]
    ordered.sort(key=lambda n: n in src.hidden)  # a sheet the user sees before a hidden one
    return "", None, ordered


def _find_in_sheets(src: Source, sheet, column_map) -> tuple[str, list[list], C.Mapping]:
    chosen, _, ordered = _pick_sheet(src, sheet)
    tried = [chosen] if chosen else ordered
    for name in tried:
        head = src.rows(name, nrows=HEADER_SCAN_ROWS)
        head = [list(r) for r in head]
        filled: dict[tuple[int, int], tuple[int, int]] = {}
        _fill_merges(head, src.merged(name), filled=filled)
        m = C.find_header(head, column_map, HEADER_SCAN_ROWS, merged=filled)
        if m is not None:
            if len(head) >= HEADER_SCAN_ROWS:
                rows = src.rows(name)
                merges = src.merged(name)
                if merges:
                    rows = [list(r) for r in rows]
                    _fill_merges(rows, merges)
            else:
                rows = head
            return name, rows, m
    where = f"sheet {tried[0]!r}" if len(tried) == 1 else f"any sheet ({', '.join(tried)})"
    if column_map:
        seen = {C.norm_header(as_text(v)) for name in tried for r in src.rows(name, nrows=HEADER_SCAN_ROWS) for v in r}
        missing = [k for k in column_map if C.norm_header(k) not in seen]
        if missing:
            raise SurveyError(f"{src.name}: column map: {', '.join(repr(m) for m in missing)} not in the header "
                              f"of {where}")
    raise SurveyError(f"{src.name}: no header row naming both a species and a DBH column in the first "
                      f"{HEADER_SCAN_ROWS} rows of {where}; name the columns with a column map "
                      "(e.g. --map \"Diam. cm=dbh_cm\")")


def _species_priority(col: C.Column) -> int:
    h = C.norm_header(col.header)
    if re.search(r"botanical|scientific|latin|genus|taxon", h):
        return 0
    if re.search(r"common", h) and not re.search(r"botanical|scientific", h):
        return 2
    return 1


def _species_candidates(text: str) -> list[str]:
    """The whole text, then its parts: "Red oak / Quercus rubra", "Red oak (Quercus rubra)"."""
    out = [text]
    m = re.match(r"^(.*?)\s*[\(\[]([^\)\]]+)[\)\]]\s*(.*)$", text)
    if m and not re.search(r"['\"‘’]", m.group(2)):
        inner, outer = m.group(2).strip(), (m.group(1) + " " + m.group(3)).strip()
        out += [inner, outer]
    for sep in ("\n", " / ", "/", " - ", " – ", " — ", ";", ","):
        if sep in text:
            out += [p.strip() for p in text.split(sep) if p.strip()]
            break
    return [o for o in dict.fromkeys(out) if o]


# A scientific name beats a common name when a cell gives both and they differ.
_METHOD_RANK = {"code": 0, "scientific": 0, "cultivar": 0, "common": 1, "alias": 1, "genus": 2, "fuzzy": 3,
                "unresolved": 4}


def _resolve(species: pd.Series) -> pd.DataFrame:
    """Resolution per distinct text (best of the whole text and its parts), indexed by text."""
    distinct = [s for s in pd.unique(species) if s]
    cands = {s: _species_candidates(s) for s in distinct}
    every = list(dict.fromkeys(c for cs in cands.values() for c in cs))
    res = resolve_many(every) if every else pd.DataFrame(columns=["code", "method", "score", "suggestions", "warning"])
    # one conversion: a pandas row lookup per candidate was the slow part
    recs = {k: dict(zip(res.columns, v)) for k, v in zip(res.index, zip(*(res[c].tolist() for c in res.columns)))}
    rows = {}
    for s, cs in cands.items():
        best = None
        for k, c in enumerate(cs):
            r = recs[c]
            key = (_METHOD_RANK.get(r["method"], 4), -float(r["score"]), k)
            if best is None or key < best[0]:
                best = (key, r)
        r = best[1]
        if r["code"] is None or (isinstance(r["code"], float) and math.isnan(r["code"])):
            r = recs[s]  # suggestions for the text as written
        rows[s] = {"code": r["code"] if isinstance(r["code"], str) else None, "method": r["method"],
                   "score": float(r["score"]), "suggestions": list(r["suggestions"]), "warning": r["warning"]}
    return pd.DataFrame.from_dict(rows, orient="index", columns=["code", "method", "score", "suggestions", "warning"])


# ------------------------------------------------------------------ main

def read_survey(
    path_or_buffer,
    *,
    sheet: str | int | None = None,
    column_map: dict[str, str] | None = None,
    dbh_unit: str | None = None,
    site: dict | None = None,
    max_bytes: int = 50_000_000,
    progress: Callable[[float, str], None] | None = None,
    filename: str | None = None,
    limits: Limits | None = None,
    isolated: bool = False,
) -> Survey:
    """Read a tree survey (xlsx, xlsm, xlsb, xls, ods, csv, tsv, txt).

    ``column_map`` maps header text to a field (``{"Diam. cm": "dbh_cm"}``;
    fields: :data:`treecalc.ingest.columns.FIELDS`); ``dbh_unit`` ('in', 'cm',
    'mm', 'ft', 'm') overrides what the file says; ``site`` overrides the Site sheet;
    ``progress(fraction, message)`` is called as the work advances.
    ``limits`` bound what the file may hold (:class:`treecalc.ingest.limits.Limits`; refused beyond);
    ``isolated`` reads it in a child process bounded in memory and time (the command line and the app
    do, so that a file that crashes a native reader cannot take them down).
    Raises :class:`SurveyError` for a file it refuses or cannot read.
    """
    if isolated:  # the whole read in a bounded child process (treecalc.ingest.limits)
        from treecalc.ingest.limits import run_isolated

        if hasattr(path_or_buffer, "read"):
            filename = filename or getattr(path_or_buffer, "name", None)
            path_or_buffer = path_or_buffer.read()
        shown = filename or (str(path_or_buffer) if isinstance(path_or_buffer, (str, os.PathLike)) else "survey")
        kw = {"sheet": sheet, "column_map": column_map, "dbh_unit": dbh_unit, "site": site, "max_bytes": max_bytes,
              "filename": filename, "limits": limits}
        return run_isolated(read_survey, (path_or_buffer,), kw, name=os.path.basename(shown),
                            limits=limits or Limits(), progress=progress)

    def tell(f: float, msg: str) -> None:
        if progress is not None:
            progress(f, msg)

    if dbh_unit is not None:
        dbh_unit = V.unit_word(dbh_unit) or str(dbh_unit)
        if dbh_unit not in V.UNIT_TO_IN:
            raise SurveyError(f"dbh_unit {dbh_unit!r}: use in, cm, mm, ft or m")
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, (int, float)) or not math.isfinite(max_bytes) \
            or max_bytes <= 0:
        raise SurveyError(f"max_bytes {max_bytes!r}: give a positive number of bytes")
    max_bytes = int(max_bytes)
    tell(0.0, "opening the file")
    src = open_source(path_or_buffer, filename=filename, max_bytes=max_bytes, limits=limits)
    tell(0.1, "finding the header row")
    sheet_name, rows, mapping = _find_in_sheets(src, sheet, column_map)
    tell(0.35, "reading the cells")
    warnings: list[str] = list(src.warnings) + list(mapping.warnings)
    if sheet_name in src.hidden:
        warnings.append(f"sheet {sheet_name!r} is {src.hidden[sheet_name]} in the workbook (you may not see it in "
                        "Excel); it was read as the tree sheet" + (" because it was asked for" if sheet is not None
                                                                   else ": no visible sheet has a survey header"))
    h = mapping.header_row
    # a formula without a cached value or an Excel error reads as a blank cell: such a row is not blank
    mapped_idx = {c.index for c in mapping.columns}
    fcells, ecells = src.formula_cells(sheet_name), src.error_cells(sheet_name)
    unreadable_rows = {r0 for (r0, c0) in (*fcells, *ecells) if c0 in mapped_idx and r0 > h}
    if unreadable_rows and max(unreadable_rows) >= len(rows):
        rows = list(rows) + [[] for _ in range(max(unreadable_rows) + 1 - len(rows))]
    data_rows = rows[h + 1:]
    header_cells = rows[h]
    ncols = max((len(r) for r in rows), default=0)
    headers = [as_text(header_cells[j]) if j < len(header_cells) else "" for j in range(ncols)]
    col_label = [hd or f"column {column_letters(j)}" for j, hd in enumerate(headers)]
    # cells right of the header's last named column are not read: say so, naming the rows
    width = max((j + 1 for j, hd in enumerate(headers) if hd), default=0)
    beyond = [k + h + 2 for k, r in enumerate(data_rows) if len(r) > width and any(not _blank(c) for c in r[width:])]
    if beyond:
        warnings.append(f"{len(beyond)} row(s) have cells right of the header (after column "
                        f"{column_letters(max(width - 1, 0))}), which has no name there, so they were not read: row(s) "
                        + ", ".join(map(str, beyond[:10])) + (" ..." if len(beyond) > 10 else ""))

    # --- blank rows and totals-by-text (one pass over every cell)
    unreadable = {r0 - h - 1 for r0 in unreadable_rows}
    keep_idx: list[int] = []
    first_text: list[str] = []
    blank_rows = 0
    for k, r in enumerate(data_rows):
        if k in unreadable:
            keep_idx.append(k)
            first_text.append(next((c for c in r if isinstance(c, str) and c.strip()), ""))
            continue
        ft = None
        for c in r:
            if c is None or c == "" or (type(c) is str and not c.strip()) or (type(c) is float and c != c):
                continue
            ft = c
            break
        if ft is None:
            blank_rows += 1
            continue
        keep_idx.append(k)
        first_text.append(ft if isinstance(ft, str) else "")
    # trailing blank rows (formatting below the table) are not worth a warning
    trailing = 0
    for k in range(len(data_rows) - 1, -1, -1):
        if k in unreadable or any(not _blank(c) for c in data_rows[k]):
            break
        trailing += 1
    if blank_rows - trailing > 0:
        warnings.append(f"{blank_rows - trailing} blank row(s) inside the table skipped")
    rows_kept = [data_rows[k] for k in keep_idx]
    n = len(rows_kept)
    source_row = np.array(keep_idx, dtype=np.int64) + h + 2  # 1-based spreadsheet row

    def col_values(c: C.Column | None) -> list:
        return _column(rows_kept, c.index) if c is not None else [None] * n

    def text_series(c: C.Column | None) -> pd.Series:
        vals = col_values(c)
        return pd.Series([v.strip() if type(v) is str else as_text(v) for v in vals], dtype=object)

    # --- species
    sp_cols = sorted(mapping.of("species"), key=_species_priority)
    species = pd.Series([""] * n, dtype=object)
    species_col = pd.Series([sp_cols[0].header if sp_cols else ""] * n, dtype=object)
    for c in reversed(sp_cols):
        t = text_series(c)
        has = t != ""
        species = species.where(~has, t)
        species_col = species_col.where(~has, c.header)

    # --- tag
    tag_col = mapping.first("tag")
    tags = text_series(tag_col)
    if tag_col is None:
        warnings.append("no tag column: trees are tagged row-N by their row in the file")

    # --- DBH (main column, stem columns, alternative-unit columns, units)
    tell(0.45, "reading diameters")
    dbh_col = mapping.first("dbh")
    alt_cols = mapping.of("dbh_alt")
    stem_cols = sorted(mapping.of("dbh_stem"), key=lambda c: (c.stem_no or 0, c.index))
    unit_col = mapping.first("dbh_unit")
    if dbh_unit:
        default_unit, unit_source = dbh_unit, "given by the user (dbh_unit)"
        if unit_col is not None:
            warnings.append(f"unit column {unit_col.header!r} ignored: dbh_unit={dbh_unit} was given")
            unit_col = None
    elif dbh_col is not None and dbh_col.unit in V.UNIT_TO_IN:
        default_unit, unit_source = dbh_col.unit, f"header {dbh_col.header!r}"
        if column_map and any(C.norm_header(k) == C.norm_header(dbh_col.header) for k in column_map):
            unit_source = f"column map {dbh_col.header!r}"
    elif stem_cols and stem_cols[0].unit in V.UNIT_TO_IN:
        default_unit, unit_source = stem_cols[0].unit, f"header {stem_cols[0].header!r}"
    else:
        default_unit, unit_source = "in", "default (inches)"
    if unit_col is not None:
        unit_source = f"unit column {unit_col.header!r} (blank cells: {unit_source})"
    if alt_cols:
        unit_source += "; " + ", ".join(f"{c.header!r} in {c.unit}" for c in alt_cols) + " when it is blank"
    unit_bad = [""] * n
    row_unit = [default_unit] * n
    if unit_col is not None:
        unit_seen: dict = {}
        for k, v in enumerate(col_values(unit_col)):
            if _blank(v):
                continue
            kk = (type(v).__name__, v) if not isinstance(v, str) else v
            if kk not in unit_seen:
                unit_seen[kk] = V.unit_word(v) if isinstance(v, str) else None
            u = unit_seen[kk]
            if u in V.UNIT_TO_IN:
                row_unit[k] = u
            else:
                unit_bad[k] = (f"row {source_row[k]}, column {unit_col.header!r}: unknown unit "
                               f"{V.short(as_text(v))[1:-1]!r} (use in, cm, mm, ft or m)")
    dec = src.decimal_comma
    cache: dict[tuple[str, str], V.Dbh] = {}

    def read_dbh(vals: list, units: list[str] | None = None) -> list[V.Dbh]:
        out = []
        for k, v in enumerate(vals):
            u = row_unit[k] if units is None else units[k]
            if v is None or (isinstance(v, str) and not v.strip()):
                out.append(_MISSING)
            elif isinstance(v, bool):
                out.append(V.Dbh(error="DBH not a number", detail=f"{as_text(v)} is a true/false value, not a number"))
            elif isinstance(v, (int, float)):
                if isinstance(v, float) and v != v:
                    out.append(_MISSING)
                else:
                    out.append(V.Dbh((float(v) * V.UNIT_TO_IN[u],)))
            elif isinstance(v, str):
                key = (v, u)
                d = cache.get(key)
                if d is None:
                    d = cache[key] = V.parse_dbh_text(v, u, dec)
                out.append(d)
            elif isinstance(v, (_dt.date, _dt.datetime)):
                out.append(V.Dbh(error="DBH not a number",
                                 detail=f"{as_text(v)} is a date (a spreadsheet may have turned '12/8' into one)"))
            elif isinstance(v, _dt.time):
                out.append(V.Dbh(error="DBH not a number", detail=f"{as_text(v)} is a time of day, not a number"))
            elif isinstance(v, _dt.timedelta):
                out.append(V.Dbh(error="DBH not a number",
                                 detail=f"{as_text(v)} is a duration (the cell is formatted as a time), not a number"))
            else:
                out.append(V.Dbh(error="DBH not a number", detail=f"{V.short(as_text(v))} is not a number"))
        return out

    main_raw = col_values(dbh_col)
    main = read_dbh(main_raw)
    main_hdr = [dbh_col.header if dbh_col is not None else ""] * n
    alt_warn = [""] * n
    if alt_cols:
        # the same measurement in other units: the first one given is used; disagreement is told
        main_raw = list(main_raw)
        alts = [(c, col_values(c)) for c in alt_cols]
        alts_read = [(c, raw, read_dbh(raw, [c.unit or "in"] * n)) for c, raw in alts]
        for k in range(n):
            chosen = None if main[k] is _MISSING or main[k].error == "missing DBH" else \
                (dbh_col.header, main[k], main_raw[k], row_unit[k])
            for c, raw, rd in alts_read:
                d = rd[k]
                if d is _MISSING or d.error == "missing DBH":
                    continue
                if chosen is None:
                    chosen = (c.header, d, raw[k], c.unit)
                    main[k], main_hdr[k], main_raw[k] = d, c.header, raw[k]
                elif not d.error and not chosen[1].error and d.stems_in and chosen[1].stems_in:
                    a, b = chosen[1].dbh_in, d.dbh_in
                    if abs(a - b) > 0.5:
                        alt_warn[k] = (f"column {chosen[0]!r} gives {V.short(as_text(chosen[2]))[1:-1]} "
                                       f"{chosen[3]} and column {c.header!r} gives {V.short(as_text(raw[k]))[1:-1]} "
                                       f"{c.unit} = {V.fmt_in(b)} in; they disagree, {V.fmt_in(a)} in used")
                        break
    stems_read = [(c, read_dbh(col_values(c))) for c in stem_cols]
    stem_one = any(c.stem_no == 1 for c in stem_cols)
    dbh_in = np.full(n, np.nan)
    n_stems = np.zeros(n, dtype=np.int64)
    dbh_kind = [""] * n
    dbh_reason_col = [""] * n
    dbh_detail = [""] * n
    dbh_warn = [""] * n
    dbh_raw = [""] * n
    stem_raws = [col_values(c) for c, _ in stems_read]
    has_main = dbh_col is not None or bool(alt_cols)
    for k in range(n):
        if not stems_read:  # fast path: one plain diameter
            d = main[k]
            if not d.error and not d.warning and len(d.stems_in) == 1 and 0 < d.stems_in[0] <= WARN_DBH_IN:
                dbh_in[k] = d.stems_in[0]
                n_stems[k] = 1
                dbh_raw[k] = None
                continue
        parts: list[tuple[str, V.Dbh]] = []
        stems_given = [(c.header, d[k]) for c, d in stems_read if d[k] is not _MISSING]
        if has_main and not (stem_one and stems_given):
            parts.append((main_hdr[k], main[k]))
        parts += stems_given
        raw_bits = [as_text(main_raw[k])] if has_main else []
        raw_bits += [as_text(sr[k]) for sr in stem_raws if not _blank(sr[k])]
        dbh_raw[k] = ", ".join(b for b in raw_bits if b)
        present = [(hd, d) for hd, d in parts if d is not _MISSING and d.error != "missing DBH"]
        if not present:
            hd, d = parts[0] if parts else (stem_cols[0].header if stem_cols else "DBH", _MISSING)
            dbh_kind[k], dbh_reason_col[k] = "missing DBH", hd
            dbh_detail[k] = d.detail or "no DBH given"
            continue
        bad = next(((hd, d) for hd, d in present if d.error), None)
        if bad:
            dbh_kind[k], dbh_reason_col[k], dbh_detail[k] = bad[1].error, bad[0], bad[1].detail
            continue
        stems = [x for _, d in present for x in d.stems_in]
        hd0 = present[0][0]
        if any(x <= 0 for x in stems):
            dbh_kind[k], dbh_reason_col[k] = "DBH not positive", hd0
            dbh_detail[k] = f"{V.short(dbh_raw[k])} is not a positive diameter"
            continue
        total = V.combine_stems(stems)
        if len(stems) > V.MAX_STEMS:
            dbh_kind[k], dbh_reason_col[k] = "DBH not a number", hd0
            dbh_detail[k] = f"{V.short(dbh_raw[k])} lists {len(stems)} stems, more than {V.MAX_STEMS}"
            continue
        if not total <= MAX_DBH_IN:
            dbh_kind[k], dbh_reason_col[k] = "DBH above 250 in", hd0
            dbh_detail[k] = (f"{V.short(dbh_raw[k])} is {V.fmt_in(total)} in, above {MAX_DBH_IN:g} in "
                             "(a typo or the wrong unit?)")
            continue
        dbh_in[k] = total
        n_stems[k] = len(stems)
        w = [d.warning for _, d in present if d.warning]
        if total > WARN_DBH_IN:
            w.append(f"DBH {total:.1f} in is above {WARN_DBH_IN:g} in: check it")
        dbh_warn[k] = "; ".join(w)
    # a Stems column: a whole number from 1 to MAX_STEMS, or the row is rejected
    stems_col = mapping.first("stems")
    stems_bad = [""] * n
    if stems_col is not None:
        stem_seen: dict = {}
        for k, v in enumerate(col_values(stems_col)):
            kk = (type(v).__name__, v) if not isinstance(v, str) else v
            if kk not in stem_seen:
                stem_seen[kk] = V.parse_stem_count(v, dec)
            x, why = stem_seen[kk]
            if why:
                stems_bad[k] = f"row {source_row[k]}, column {stems_col.header!r}: {why}"
            elif x is not None and n_stems[k] >= 1:
                if x > n_stems[k]:
                    n_stems[k] = x  # DBH already combined in the file
                elif x < n_stems[k]:
                    dbh_warn[k] = "; ".join(w for w in (
                        dbh_warn[k], f"column {stems_col.header!r} says {x} stem(s) but the DBH gives "
                                     f"{n_stems[k]}; {n_stems[k]} counted") if w)
    # --- rejection, in order: totals, formula, duplicate tag, species/DBH checks, unresolved species
    tell(0.6, "checking rows")
    kind = np.array([""] * n, dtype=object)
    rcol = np.array([""] * n, dtype=object)
    reason = np.array([""] * n, dtype=object)

    def reject(mask, k_: str, cols, texts) -> None:
        m = np.asarray(mask, dtype=bool) & (kind == "")
        kind[m] = k_
        rcol[m] = np.asarray(cols, dtype=object)[m] if not isinstance(cols, str) else cols
        reason[m] = np.asarray(texts, dtype=object)[m] if not isinstance(texts, str) else texts

    # totals by text; not a tree tagged "Total-1" or the like, whose species and DBH are given and valid
    tot_mask = np.array([bool(_TOTALS.match(t)) for t in first_text], dtype=bool)
    if tot_mask.any():
        for i in np.flatnonzero(tot_mask):
            sp_i = species.iat[i]
            if sp_i and not _TOTALS.match(sp_i) and not _is_number_text(sp_i) and dbh_kind[i] == "":
                tot_mask[i] = False
    # totals by value: no species, no tag, only numbers, DBH equal to the sum above
    main_num = np.array([float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else np.nan
                         for v in main_raw], dtype=float) if dbh_col is not None else np.full(n, np.nan)
    if n and dbh_col is not None:
        cum = np.concatenate([[0.0], np.nancumsum(main_num)[:-1]])
        eq = np.isfinite(main_num) & (np.abs(main_num - cum) <= np.maximum(0.011, 1e-6 * cum)) & (cum > 0)
        eq &= (species == "").to_numpy() & (tags == "").to_numpy()
        for i in np.flatnonzero(eq):
            eq[i] = all(_blank(c) or (isinstance(c, (int, float)) and not isinstance(c, bool))
                        for c in rows_kept[i])
        tot_mask |= eq
    tot_labels = [f"row {sr}: a totals or summary row ({as_text(ft) or 'a row of sums'}), not a tree"
                  for sr, ft in zip(source_row, first_text)]
    reject(tot_mask, "totals row", col_label[0] if ncols else "", tot_labels)

    # a CSV row whose quote never closes (the reader read it alone; see sources._open_text)
    if src.broken_rows:
        pos = {kk + h + 1: i for i, kk in enumerate(keep_idx)}
        bm = np.zeros(n, dtype=bool)
        bcol = np.array([""] * n, dtype=object)
        btxt = np.array([""] * n, dtype=object)
        for r0, (c0, line) in src.broken_rows.items():
            i = pos.get(r0)
            if i is None:
                continue
            bm[i] = True
            bcol[i] = col_label[c0] if c0 < len(col_label) else f"column {column_letters(c0)}"
            btxt[i] = (f"row {source_row[i]}, column {bcol[i]!r}: a quote opened on line {line} is never "
                       "closed; the row cannot be read reliably (close the quote or remove it)")
        reject(bm, "broken CSV quote", bcol, btxt)

    # cells that cannot be read as values, in a column that is read: the first per row rejects it
    mapped = {c.index: c.header for c in mapping.columns}
    pos = {kk + h + 1: i for i, kk in enumerate(keep_idx)}

    def reject_cells(cells: dict, kind: str, says: Callable[[Any], str]) -> None:
        hit = np.zeros(n, dtype=bool)
        col = np.array([""] * n, dtype=object)
        txt = np.array([""] * n, dtype=object)
        for (r0, c0), what in sorted(cells.items()):
            i = pos.get(r0)
            if i is None or c0 not in mapped or hit[i]:
                continue
            hit[i] = True
            col[i] = mapped[c0]
            txt[i] = f"row {source_row[i]}, column {mapped[c0]!r}: {says(what)}"
        reject(hit, kind, col, txt)

    if fcells:
        reject_cells(fcells, "formula without cached value",
                     lambda formula: f"formula ={formula} has no cached value (treecalc never evaluates "
                                     "formulas; open and save the file in Excel, or type the value)")
    # Excel error values (#DIV/0!, #N/A, ...), typed or cached from a formula
    if ecells:
        reject_cells(ecells, "Excel error", lambda err: f"Excel error {err}")

    # duplicate tags: the later rows
    if tag_col is not None:
        key = tags.str.casefold()
        candidates = (kind == "") & (tags != "").to_numpy()
        dup = key.where(candidates).duplicated(keep="first").to_numpy() & candidates
        if dup.any():
            first_row = pd.Series(source_row).where(candidates).groupby(key.where(candidates)).transform("first")
            texts = [f"row {sr}, column {tag_col.header!r}: tag {t!r} already used on row {int(fr)}"
                     if d else "" for sr, t, fr, d in zip(source_row, tags, first_row.fillna(0), dup)]
            reject(dup, "duplicate tag", tag_col.header, texts)

    # species present
    sp_missing = (species == "").to_numpy()
    sp_label = sp_cols[0].header if sp_cols else "species"
    reject(sp_missing, "missing species", sp_label,
           [f"row {sr}, column {sp_label!r}: no species given" for sr in source_row])
    # DBH unit column
    if unit_col is not None:
        ub = np.array([bool(u) for u in unit_bad], dtype=bool)
        if ub.any():
            reject(ub, "unknown DBH unit", unit_col.header, unit_bad)
    # DBH
    for kd in ("missing DBH", "DBH not a number", "DBH not positive", "DBH above 250 in"):
        m = np.array([x == kd for x in dbh_kind], dtype=bool)
        if m.any():
            reject(m, kd, dbh_reason_col,
                   [f"row {sr}, column {c!r}: {d}" for sr, c, d in zip(source_row, dbh_reason_col, dbh_detail)])

    # Stems column
    if stems_col is not None:
        sb = np.array([bool(x) for x in stems_bad], dtype=bool)
        if sb.any():
            reject(sb, "stems not valid", stems_col.header, stems_bad)

    # species resolution (once per distinct text); a number is never a species name
    tell(0.7, "resolving species")
    numeric_sp = species.map(_is_number_text).to_numpy(dtype=bool)
    res = _resolve(species[(kind == "") & ~numeric_sp])
    code = species.map(res["code"]) if len(res) else pd.Series([None] * n, dtype=object)
    code = code.where(~numeric_sp, None)
    unresolved = (kind == "") & code.isna().to_numpy()
    if unresolved.any():
        sugg_map = {k: "; ".join(v[:3]) for k, v in res["suggestions"].items()} if len(res) else {}
        texts = [f"row {sr}, column {c!r}: species {V.short(s)} not recognised (a number is not a species name)"
                 if num else
                 f"row {sr}, column {c!r}: species {V.short(s)} not recognised"
                 + (f"; closest: {sugg_map.get(s, '')}" if sugg_map.get(s, "") else "")
                 for sr, c, s, num in zip(source_row, species_col, species, numeric_sp)]
        reject(unresolved, "unresolved species", species_col.to_numpy(), texts)

    ok = kind == ""
    tell(0.8, "building the table")

    # --- other columns (accepted rows only matter, but computed per distinct value)
    row_warn: list[list[str]] = [[] for _ in range(n)]

    def add_warn(mask, texts) -> None:
        for i in np.flatnonzero(np.asarray(mask, dtype=bool) & ok):
            t = texts[i] if not isinstance(texts, str) else texts
            if t:
                row_warn[i].append(t)

    # tags
    gen = (tags == "").to_numpy()
    tags_final = tags.where(~gen, pd.Series([f"row-{sr}" for sr in source_row], dtype=object))
    if tag_col is not None:
        add_warn(gen, [f"no tag in column {tag_col.header!r}; tagged row-{sr}" for sr in source_row])

    # species warnings
    sp_warn = species.map(res["warning"]).fillna("") if len(res) else pd.Series([""] * n)
    add_warn(sp_warn.to_numpy() != "", sp_warn.tolist())
    # two species columns naming different species: the first by priority is used, and the row says so
    if len(sp_cols) > 1:
        sp_texts = [(c, text_series(c)) for c in sp_cols]
        known = set(res.index) if len(res) else set()
        extra = pd.Series([x for _, t in sp_texts for x in pd.unique(t) if x and x not in known
                           and not _is_number_text(x)], dtype=object)
        res_all = pd.concat([res, _resolve(extra)]) if len(extra) else res
        chosen_code = code.to_numpy()
        chosen_col = species_col.to_numpy()
        for c, t in sp_texts:
            other = t.map(res_all["code"]).to_numpy() if len(res_all) else np.array([None] * n, dtype=object)
            differ = np.array([isinstance(o, str) and isinstance(a, str) and o != a and cc != c.header
                               for o, a, cc in zip(other, chosen_code, chosen_col)], dtype=bool)
            if differ.any():
                add_warn(differ, [f"species columns disagree: {cc!r} gives {V.short(sp)} ({a}) but {c.header!r} "
                                  f"gives {V.short(tx)} ({o}); {a} used" if d else ""
                                  for cc, sp, a, tx, o, d in zip(chosen_col, species, chosen_code, t, other, differ)])
    add_warn(np.array([bool(w) for w in alt_warn]), alt_warn)
    add_warn(np.array([bool(w) for w in dbh_warn]), dbh_warn)

    # action
    act_col = mapping.first("action") or mapping.first("remove") or mapping.first("retain")
    act_vals = col_values(act_col)
    act_parsed: dict = {}
    remove_col = act_col is not None and act_col.field == "remove"
    retain_col = act_col is not None and act_col.field == "retain"
    actions = []
    act_warn = []
    for v in act_vals:
        kk = (type(v).__name__, v) if not isinstance(v, str) else v
        if kk not in act_parsed:
            act_parsed[kk] = V.parse_action(v, remove_column=remove_col, retain_column=retain_col)
        a = act_parsed[kk]
        if a is None:
            actions.append("remove")
            act_warn.append(f"action {as_text(v)!r} in column {act_col.header!r} not recognised; "
                            "taken as remove (the reading that keeps every obligation)")
        else:
            actions.append(a or "retain")
            act_warn.append("")
    actions_arr = np.array(actions, dtype=object)
    add_warn(np.array([bool(w) for w in act_warn]), act_warn)
    if act_col is None:
        warnings.append("no action column (Action, Remove?, Status...): every tree taken as retained")
    else:
        blank_act = np.array([_blank(v) for v in act_vals], dtype=bool) & ok
        if blank_act.any():
            warnings.append(f"{int(blank_act.sum())} tree(s) with a blank {act_col.header!r} taken as retain")

    # condition
    cond_col = mapping.first("condition")
    cond_vals = col_values(cond_col)
    cond_map: dict = {}
    conditions, cond_warn = [], []
    for v in cond_vals:
        kk = (type(v).__name__, v) if not isinstance(v, str) else v
        if kk not in cond_map:
            cond_map[kk] = V.parse_condition(v)
        c = cond_map[kk]
        conditions.append(c or "")
        cond_warn.append("" if c is not None else
                         f"condition {as_text(v)!r} not recognised (excellent, good, fair, poor, dead); left blank")
    add_warn(np.array([bool(w) for w in cond_warn]), cond_warn)
    cond_arr = np.array(conditions, dtype=object)
    add_warn(cond_arr == "dead", "dead tree")

    # land use
    lu_col = mapping.first("land_use")
    lu_vals = col_values(lu_col)
    lu_map: dict = {}
    land_uses, lu_warn = [], []
    for v in lu_vals:
        kk = (type(v).__name__, v) if not isinstance(v, str) else v
        if kk not in lu_map:
            lu_map[kk] = V.parse_land_use(v)
        lu = lu_map[kk]
        land_uses.append(lu or "")
        lu_warn.append("" if lu is not None else f"land use {as_text(v)!r} not recognised; left blank")
    add_warn(np.array([bool(w) for w in lu_warn]), lu_warn)

    # notes (several notes columns are joined)
    note_cols = mapping.of("notes")
    notes = pd.Series([""] * n, dtype=object)
    for c in note_cols:
        t = text_series(c)
        notes = np.where(notes == "", t, np.where(t == "", notes, notes + "; " + t))
        notes = pd.Series(notes, dtype=object)

    # flags
    flags: dict[str, pd.Series] = {}
    not_surveyed = []
    for f in C.FLAG_FIELDS:
        fc = mapping.first(f)
        if fc is None:
            flags[f] = pd.Series([False] * n, dtype="boolean")
            not_surveyed.append(f)
            continue
        conservative = f not in C.EXEMPTING_FLAGS
        fmap: dict = {}
        vals, fw = [], []
        for v in col_values(fc):
            kk = (type(v).__name__, v) if not isinstance(v, str) else v
            if kk not in fmap:
                fmap[kk] = V.parse_bool(v, risk_words=(f == "hazardous"))
            b = fmap[kk]
            if b is None:
                vals.append(conservative)
                fw.append(f"{f}: {as_text(v)!r} in column {fc.header!r} is not yes/no; "
                          f"taken as {'yes' if conservative else 'no'} (the reading that keeps every obligation)")
            else:
                vals.append(b)
                fw.append("")
        flags[f] = pd.Series(vals, dtype="boolean")
        add_warn(np.array([bool(w) for w in fw]), fw)

    # distance to residence
    dist_col = mapping.first("distance_to_residence_ft")
    dist = np.full(n, np.nan)
    if dist_col is not None:
        factor = {"m": 3.28084}.get(dist_col.unit or "ft", 1.0)
        dmap: dict = {}
        dw = []
        for k, v in enumerate(col_values(dist_col)):
            kk = (type(v).__name__, v) if not isinstance(v, str) else v
            if kk not in dmap:
                dmap[kk] = V.parse_number(v, dec)
            x = dmap[kk]
            if x is not None and x >= 0:
                dist[k] = x * factor
                dw.append("")
            else:
                dw.append("" if _blank(v) else
                          f"distance {as_text(v)!r} in column {dist_col.header!r} is not a number; left blank")
        add_warn(np.array([bool(w) for w in dw]), dw)

    warn_text = ["; ".join(w) for w in row_warn]

    # --- trees
    sel = np.flatnonzero(ok)
    trees = pd.DataFrame({
        "source_row": source_row[sel].astype("int64"),
        "tag": tags_final.to_numpy()[sel].astype(object),
        "species": species.to_numpy()[sel].astype(object),
        "species_code": code.to_numpy()[sel].astype(object),
        "species_method": species.map(res["method"]).to_numpy()[sel].astype(object) if len(res) else [],
        "species_score": species.map(res["score"]).to_numpy(dtype=float)[sel] if len(res) else [],
        "dbh_in": dbh_in[sel],
        "stems": n_stems[sel].astype("int64"),
        "action": actions_arr[sel],
        "condition": cond_arr[sel],
        "land_use": np.array(land_uses, dtype=object)[sel],
        "notes": notes.to_numpy()[sel].astype(object),
    })
    for f in C.FLAG_FIELDS:
        trees[f] = flags[f].iloc[sel].reset_index(drop=True).astype("boolean")
    trees["distance_to_residence_ft"] = dist[sel]
    trees["warnings"] = np.array(warn_text, dtype=object)[sel]
    trees = trees[list(TREE_COLUMNS)].reset_index(drop=True)
    for c in ("tag", "species", "species_code", "species_method", "action", "condition", "land_use", "notes",
              "warnings"):
        trees[c] = trees[c].astype(object)

    # --- rejected
    rsel = np.flatnonzero(~ok)
    sugg_text = species.map(res["suggestions"].map(lambda s: "; ".join(s[:3]))).fillna("") if len(res) \
        else pd.Series([""] * n)
    sugg_text = sugg_text.where(~numeric_sp, "")
    rejected = pd.DataFrame({
        "source_row": source_row[rsel].astype("int64"),
        "tag": tags.to_numpy()[rsel].astype(object),
        "species": species.to_numpy()[rsel].astype(object),
        "dbh": [as_text(main_raw[i]) if dbh_raw[i] is None else dbh_raw[i] for i in rsel],
        "column": rcol[rsel],
        "reason": reason[rsel],
        "kind": kind[rsel],
        "suggestions": np.where(kind[rsel] == "unresolved species", sugg_text.to_numpy()[rsel], ""),
        "raw": [_raw_dict(rows_kept[i], col_label) for i in rsel],
    }, columns=list(REJECTED_COLUMNS))
    for c in ("tag", "species", "dbh", "column", "reason", "kind", "suggestions", "raw"):
        rejected[c] = rejected[c].astype(object)

    # --- site
    site_given, site_warn = {}, []
    site_sheet = next((s for s in src.sheet_names if s.strip().lower() in _SITE_SHEET and s != sheet_name), None)
    if site_sheet is not None:
        special = {rc: f"an Excel error {e}" for rc, e in src.error_cells(site_sheet).items()}
        special.update({rc: f"a formula (={f}) without a cached value"
                        for rc, f in src.formula_cells(site_sheet).items()})
        site_given, site_warn = S.read_site_rows([list(r) for r in src.rows(site_sheet)], special)
        warnings.extend(site_warn)
    site_final = S.apply_overrides(site_given, site)
    assumptions, assumed = S.assumptions(site_final)
    data_assumptions: list[str] = []
    if not_surveyed:
        data_assumptions.append(
            "not surveyed (no column): " + ", ".join(not_surveyed)
            + " — taken as no for every tree; confirm them on site, since street, wetland, slope, landmark, "
              "easement, DEC, buffer and lot-line trees carry more obligations")
    if dist_col is None and site_final.get("jurisdiction") != "croton-on-hudson":
        data_assumptions.append("distance_to_residence_ft not surveyed: unknown for every tree (rules that depend "
                           "on it, Wesley Hills §95-3A(1)(d), take their stricter branch)")

    survey = Survey(
        trees=trees, rejected=rejected, site=site_final, site_assumptions=assumptions + data_assumptions,
        warnings=warnings, data_assumptions=data_assumptions,
        rows_read=n,
        source={
            "file": src.name, "format": src.format, "sheet": sheet_name, "sheets": list(src.sheet_names),
            "header_row": h + 1,
            "column_map": {c.header: _field_label(c) for c in mapping.columns},
            "unmapped": list(mapping.unmapped),
            "dbh_unit": default_unit, "dbh_unit_source": unit_source,
            "encoding": src.encoding, "delimiter": src.delimiter, "decimal_comma": bool(src.decimal_comma),
            "site_sheet": site_sheet,
            "flags_not_surveyed": list(not_surveyed),
            "distance_surveyed": dist_col is not None,
        },
        site_assumed=assumed,
    )
    survey.check()
    tell(1.0, f"{len(trees)} trees, {len(rejected)} rejected")
    return survey


_MISSING = V.Dbh(error="missing DBH", detail="no DBH given")


def _field_label(c: C.Column) -> str:
    if c.field in ("dbh", "dbh_alt") and c.unit in V.UNIT_TO_IN:
        return f"dbh_{c.unit}"
    return c.field


_NUMBER_TEXT = re.compile(r"^[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:e[-+]?\d+)?$", re.I)


def _is_number_text(t: str) -> bool:
    return bool(t) and bool(_NUMBER_TEXT.match(t.strip()))


def _raw_dict(row: list, labels: list[str]) -> dict:
    out = {}
    for j, v in enumerate(row):
        if _blank(v) or j >= len(labels):
            continue
        lab = labels[j]
        # JSON-safe: numbers, text and true/false as they are; dates, times, durations as text
        out[lab if lab not in out else f"{lab} ({column_letters(j)})"] = v if isinstance(v, (str, int, float)) \
            else as_text(v)
    return out
