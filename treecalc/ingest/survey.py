"""Read a tree survey spreadsheet into accepted trees and rejected rows.

Every data row below the header is either a tree or a rejected row with a
reason naming its row and column (``rows_read == len(trees) + len(rejected)``
is checked on every read). Blank rows are skipped and counted in a warning.

:func:`read_survey` assembles the stages, one module each:

1. :mod:`~treecalc.ingest.sources` — open the file, sniff what it is, pre-flight checks;
2. :mod:`~treecalc.ingest.header` — pick the sheet, find the header row, map the columns;
3. :mod:`~treecalc.ingest.rows` — blank, totals and data rows;
4. :mod:`~treecalc.ingest.dbh` — units, alternative columns, stems, stumps;
5. :mod:`~treecalc.ingest.attributes` — action, condition, land use, flags, distance, coordinates;
6. :mod:`~treecalc.ingest.species` — split name columns, species map, resolution;
7. here — rejections in a fixed order, then the trees, rejected and site tables.

Conventions (documented choices) are in each stage's docstring. In short:
flags absent from the survey are False and listed in ``site_assumptions``;
a blank action is ``retain``; an action word treecalc does not know rejects
the row (it never becomes a removal); an unreadable cell (Excel error, formula
without cached value, CSV quote never closed) rejects its row; a blank tag
becomes ``row-N``; a tag already used rejects the later row.
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc.ingest import attributes as A
from treecalc.ingest import columns as C
from treecalc.ingest import dbh as D
from treecalc.ingest import site as S
from treecalc.ingest import species as SP
from treecalc.ingest import values as V
from treecalc.ingest.columns import column_letters
from treecalc.ingest.errors import IngestInvariantError, SurveyError
from treecalc.ingest.header import HEADER_SCAN_ROWS, SITE_SHEETS, find_header
from treecalc.ingest.limits import Limits, run_isolated
from treecalc.ingest.rows import TOTALS_TEXT, Table, data_rows, totals_reason, totals_rows
from treecalc.ingest.sources import open_source
from treecalc.ingest.unsurveyed import NOT_SURVEYED, column_readers, not_surveyed_text, without_other_laws_columns
from treecalc.ingest.values import as_text, is_blank
from treecalc.reference.data import DEFAULT_ZONE, zone_code
from treecalc.reference.geo import xy_reading
from treecalc.reference.species import zones_listing
from treecalc.schema import (
    ACTIONS,
    TREE_COLUMNS,  # the trees frame contract
)

REJECTION_KINDS = (
    "totals row",
    "broken CSV quote",
    "formula without cached value",
    "Excel error",
    "duplicate tag",
    "missing species",
    "unknown DBH unit",
    "missing DBH",
    "DBH not a number",
    "DBH not positive",
    "DBH above 250 in",
    "stems not valid",
    "action not recognised",
    "unresolved species",
)
MAX_DBH_IN = D.MAX_DBH_IN
WARN_DBH_IN = D.WARN_DBH_IN
__all__ = [
    "read_survey",
    "Survey",
    "REJECTION_KINDS",
    "TREE_COLUMNS",
    "REJECTED_COLUMNS",
    "HEADER_SCAN_ROWS",
    "group_warnings",
    "as_text",
]

REJECTED_COLUMNS = ("source_row", "tag", "species", "dbh", "column", "reason", "kind", "suggestions", "raw")
_ROW_REF = re.compile(r"\brow[- ](\d+)\b")


def group_warnings(per_row: list[tuple[int, str]], first: int = 5) -> list[str]:
    """One line per distinct warning with its count and first rows:
    ``"fuzzy match: 'Red Mapel' → Acer rubrum (ACRU), 90%: 214 rows (4, 9, 17, 20, 31, …)"``.
    ``per_row`` is (spreadsheet row, one warning); a row number inside a text ("tagged row-12") is
    read as the same issue for every row."""
    groups: dict[str, list[int]] = defaultdict(list)
    for row, text in per_row:
        if text:
            groups[_ROW_REF.sub(lambda m: m.group(0)[:4] + "N", text)].append(int(row))
    out = []
    for text, rows in groups.items():
        shown = ", ".join(str(r) for r in rows[:first]) + (", …" if len(rows) > first else "")
        out.append(f"{text}: row {shown}" if len(rows) == 1 else f"{text}: {len(rows):,} rows ({shown})")
    return out


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
    #: Each accepted tree's warnings one by one, (spreadsheet row, warning), for grouping; when empty
    #: (a Survey built elsewhere) each tree's joined ``warnings`` text is one issue.
    warning_items: list[tuple[int, str]] = field(default_factory=list, repr=False)

    def check(self) -> None:
        if self.rows_read != len(self.trees) + len(self.rejected):
            raise IngestInvariantError(
                f"internal error: {self.rows_read} rows read but {len(self.trees)} trees + "
                f"{len(self.rejected)} rejected"
            )

    def assumptions_under(self, key: str) -> list[str]:
        """The assumptions as the law ``key`` (a jurisdiction's key) would make them: the site facts it reads, in its
        words, the jurisdiction left out said as the default applied, and the flags not surveyed as it reads them."""
        site = {**self.site, "jurisdiction": self.site.get("jurisdiction") or key}
        facts = S.assumptions(site)[0]
        if not self.site.get("jurisdiction"):
            facts.insert(0, S.jurisdiction_not_given())
        flags = list(self.source.get("flags_not_surveyed") or [])
        rest = without_other_laws_columns([a for a in self.data_assumptions if not a.startswith(NOT_SURVEYED)], key)
        return facts + not_surveyed_text(flags, key) + rest

    def row_warnings(self) -> list[str]:
        """Every tree's warnings, one line per tree: ``"row 4 (tag 12): ..."`` (the detail view)."""
        if not len(self.trees):
            return []
        w = self.trees.loc[self.trees["warnings"] != "", ["source_row", "tag", "warnings"]]
        return [f"row {r} (tag {t}): {m}" for r, t, m in w.itertuples(index=False)]

    def grouped_warnings(self) -> list[str]:
        """The survey's warnings, then the trees' warnings one line per distinct issue with its count
        and first rows (:func:`group_warnings`); :meth:`row_warnings` keeps the full list."""
        items = self.warning_items
        if not items and len(self.trees):
            w = self.trees.loc[self.trees["warnings"] != "", ["source_row", "warnings"]]
            items = list(w.itertuples(index=False, name=None))
        return list(self.warnings) + group_warnings(items)

    def summary(self, max_items: int = 500) -> dict[str, Any]:
        """Counts, rejection reasons, unresolved names and warnings (``treecalc survey --json``).

        ``warnings`` is grouped (one line per distinct issue); ``warnings_detail`` lists every row's."""
        rej = self.rejected
        reasons = Counter(rej["kind"]) if len(rej) else Counter()
        unresolved = rej[rej["kind"] == "unresolved species"] if len(rej) else rej
        # one pass: the first row's suggestions for each name (a scan per name was quadratic)
        first: dict[str, str] = {}
        for n, sg in zip(unresolved["species"], unresolved["suggestions"]) if len(unresolved) else ():
            first.setdefault(n, sg)
        names = list(first)
        sugg = {n: [s for s in str(first[n]).split("; ") if s] for n in names}
        detail = list(self.warnings) + self.row_warnings()
        rejected_rows = [
            {
                "source_row": int(r.source_row),
                "tag": r.tag,
                "species": r.species,
                "dbh": r.dbh,
                "column": r.column,
                "kind": r.kind,
                "reason": r.reason,
                "suggestions": r.suggestions,
            }
            for r in rej.head(max_items).itertuples(index=False)
        ]
        t = self.trees

        def cut(lines: list[str]) -> list[str]:
            return lines[:max_items] + ([f"... and {len(lines) - max_items} more"] if len(lines) > max_items else [])

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
            "warnings": cut(self.grouped_warnings()),
            "warnings_detail": cut(detail),
            "actions": _action_counts(t),
            # "Pruned 30%": read as retained until the law's excessive-pruning share reads the share (assess)
            "pruned_by_share": int(t["pruned_percent"].notna().sum()) if "pruned_percent" in t else 0,
            "multi_stem_trees": int((t["stems"] > 1).sum()) if len(t) else 0,
            "dbh_unit": self.source.get("dbh_unit"),
            "dbh_unit_source": self.source.get("dbh_unit_source"),
            "columns": self.source.get("column_map"),
            "unmapped_columns": self.source.get("unmapped"),
            "site": self.site,
            "site_assumptions": list(self.site_assumptions),
        }


class _Rejections:
    """The first reason each row is rejected for: kind, column and text per row."""

    def __init__(self, n: int) -> None:
        self.kind = np.array([""] * n, dtype=object)
        self.column = np.array([""] * n, dtype=object)
        self.reason = np.array([""] * n, dtype=object)

    @property
    def ok(self) -> np.ndarray:
        return self.kind == ""

    def add(self, mask, kind: str, cols, texts) -> None:
        """Reject the rows of ``mask`` not rejected yet; ``texts`` is a text per row, one text, or a
        function of the row position (called for the rejected rows only)."""
        m = np.asarray(mask, dtype=bool) & (self.kind == "")
        if not m.any():
            return
        self.kind[m] = kind
        self.column[m] = np.asarray(cols, dtype=object)[m] if not isinstance(cols, str) else cols
        if callable(texts):
            self.reason[m] = np.array([texts(i) for i in np.flatnonzero(m)] + [None], dtype=object)[:-1]
        else:
            self.reason[m] = np.asarray(texts, dtype=object)[m] if not isinstance(texts, str) else texts

    def cells(self, table: Table, mapped: dict[int, str], cells: dict, kind: str, says: Callable[[Any], str]) -> None:
        """The first cell per row of ``cells`` ((grid row, column) → what) in a column that is read."""
        pos = table.positions()
        n = table.n
        hit = np.zeros(n, dtype=bool)
        col = np.array([""] * n, dtype=object)
        txt = np.array([""] * n, dtype=object)
        for (r0, c0), what in sorted(cells.items()):
            i = pos.get(r0)
            if i is None or c0 not in mapped or hit[i]:
                continue
            hit[i] = True
            col[i] = mapped[c0]
            txt[i] = f"row {table.source_row[i]}, column {mapped[c0]!r}: {says(what)}"
        self.add(hit, kind, col, txt)


def _unreadable(rj: _Rejections, table: Table, src, mapping: C.Mapping, fcells: dict, ecells: dict) -> None:
    """Rows with a CSV quote never closed, a formula without cached value, or an Excel error."""
    n = table.n
    if src.broken_rows:
        pos = table.positions()
        bm = np.zeros(n, dtype=bool)
        bcol = np.array([""] * n, dtype=object)
        btxt = np.array([""] * n, dtype=object)
        for r0, (c0, line) in src.broken_rows.items():
            i = pos.get(r0)
            if i is None:
                continue
            bm[i] = True
            bcol[i] = table.col_label[c0] if c0 < len(table.col_label) else f"column {column_letters(c0)}"
            btxt[i] = (
                f"row {table.source_row[i]}, column {bcol[i]!r}: a quote opened on line {line} is never "
                "closed; the row cannot be read reliably (close the quote or remove it)"
            )
        rj.add(bm, "broken CSV quote", bcol, btxt)
    mapped = {c.index: c.header for c in mapping.columns}
    if fcells:
        rj.cells(
            table,
            mapped,
            fcells,
            "formula without cached value",
            lambda formula: (
                f"formula ={formula} has no cached value (treecalc never evaluates "
                "formulas; open and save the file in Excel, or type the value)"
            ),
        )
    if ecells:  # Excel error values (#DIV/0!, #N/A, ...), typed or cached from a formula
        rj.cells(table, mapped, ecells, "Excel error", lambda err: f"Excel error {err}")


def _duplicate_tags(rj: _Rejections, table: Table, tag_col: C.Column | None, tags: pd.Series) -> None:
    if tag_col is None:
        return
    key = pd.Series([t.casefold() for t in tags.tolist()], dtype=object)  # str.casefold, a third of the time
    cand = rj.ok & (tags != "").to_numpy()
    dup = key.where(cand).duplicated(keep="first").to_numpy() & cand
    if dup.any():
        first_row = pd.Series(table.source_row).where(cand).groupby(key.where(cand)).transform("first")
        texts = [
            f"row {sr}, column {tag_col.header!r}: tag {t!r} already used on row {int(fr)}" if d else ""
            for sr, t, fr, d in zip(table.source_row, tags, first_row.fillna(0), dup)
        ]
        rj.add(dup, "duplicate tag", tag_col.header, texts)


def _dbh_rejections(rj: _Rejections, table: Table, u: D.Units, d: D.DbhRead, mapping: C.Mapping) -> None:
    if u.column is not None:
        rj.add(A._mask(u.bad), "unknown DBH unit", u.column.header, u.bad)
    kinds = np.array(d.kind, dtype=object)
    for kd in D.DBH_REJECTIONS:
        m = kinds == kd
        if m.any():
            rj.add(
                m,
                kd,
                d.column,
                [f"row {sr}, column {c!r}: {x}" for sr, c, x in zip(table.source_row, d.column, d.detail)],
            )
    stems_col = mapping.first("stems")
    if stems_col is not None:
        rj.add(A._mask(d.stems_bad), "stems not valid", stems_col.header, d.stems_bad)


@dataclass
class _Species:
    text: pd.Series
    column: pd.Series
    code: pd.Series
    res: pd.DataFrame
    numeric: np.ndarray
    map_warn: list[str]
    sources: list[tuple[str, pd.Series]]
    distinct: tuple[np.ndarray, list]  # (position of each row's text, the distinct texts)


def _species(table: Table, mapping: C.Mapping, species_map: dict[str, str]) -> _Species:
    sources = SP.name_columns(table, mapping)
    text, column = SP.chosen(sources, table.n)
    text, map_warn = SP.apply_species_map(text, species_map)
    codes, uniq = A.distinct(text.tolist())
    numeric = A.spread([SP.is_number_text(t) for t in uniq], codes, bool)
    none = pd.Series([None] * table.n, dtype=object)
    return _Species(text, column, none, SP._empty(), numeric, map_warn, sources, (codes, uniq))


#: What a rejected row of a species only other zones list says (:func:`treecalc.ingest.zone.read_survey_in_zone`
#: reads the survey again in its zone when a rejection says it).
ZONE_HINT = "give the survey's climate zone"


def _resolve_species(rj: _Rejections, table: Table, sp: _Species, zone: str | tuple[str, ...] | None = None) -> None:
    """Resolve each distinct text of the rows still accepted (in ``zone``, its own species too); reject the
    ones not recognised, saying which zones list a species the Northeast catalogue has no code for."""
    sp.res = SP.resolve(sp.text[rj.ok & ~sp.numeric], zone)
    if len(sp.res):
        sp.code = pd.Series(_lookup(sp, sp.res["code"], None), dtype=object).where(~sp.numeric, None)
    unresolved = rj.ok & sp.code.isna().to_numpy()
    if unresolved.any():
        sugg = {k: "; ".join(v[:3]) for k, v in sp.res["suggestions"].items()} if len(sp.res) else {}
        elsewhere = {}
        for t in pd.unique(sp.text[unresolved & ~sp.numeric]):
            listed = zones_listing(t)
            if listed:
                elsewhere[t] = (
                    f"; the {_zone_words(zone)} species list has no code for it, the lists of "
                    f"{', '.join(listed)} have; {ZONE_HINT} (‹zone›, the site fact climate_zone or tree "
                    "coordinates) to value it there"
                )
        texts = [
            f"row {sr}, column {c!r}: species {V.short(s)} not recognised (a number is not a species name)"
            if num
            else f"row {sr}, column {c!r}: species {V.short(s)} not recognised"
            + (f"; closest: {sugg.get(s, '')}" if sugg.get(s, "") else "")
            + elsewhere.get(s, "")
            for sr, c, s, num in zip(table.source_row, sp.column, sp.text, sp.numeric)
        ]
        rj.add(unresolved, "unresolved species", sp.column.to_numpy(), texts)


def _zone_words(zone: str | tuple[str, ...] | None) -> str:
    """The zone (or zones) a survey is read in, as its rejections name it: "the PiedmtCLT zone's"."""
    if isinstance(zone, tuple) and len(zone) > 1:
        return f"{' and '.join(zone)} zones'"
    one = zone[0] if isinstance(zone, tuple) and zone else zone
    return f"{one or DEFAULT_ZONE} zone's"


def _lookup(sp: _Species, by_text: pd.Series, default: object) -> list:
    """``by_text[t]`` for each row's species text (``default`` when absent), once per distinct text."""
    codes, uniq = sp.distinct
    d = dict(zip(by_text.index, by_text.tolist()))
    return A.spread([d.get(t, default) for t in uniq], codes).tolist()


def _totals(table: Table, d: D.DbhRead, mapping: C.Mapping, sp: _Species, tags: pd.Series) -> np.ndarray:
    """Totals rows (:func:`rows.totals_rows`), but not a tree tagged "Total-1" or the like whose species
    and DBH are given and valid."""
    mask = totals_rows(table, d.main_raw, mapping.first("dbh") is not None, sp.text, tags)
    for i in np.flatnonzero(mask):
        s = sp.text.iat[i]
        if s and not TOTALS_TEXT.match(s) and not SP.is_number_text(s) and d.kind[i] == "":
            mask[i] = False
    return mask


def _check_options(
    dbh_unit: str | None,
    max_bytes: object,
    zone: str | tuple[str, ...] | None,
    species_map: dict[str, str] | None,
) -> tuple[str | None, int, str | tuple[str, ...] | None, dict[str, str]]:
    """The read's options checked (a clear error naming each): the DBH unit, the size bound, the climate zone's
    code and the species map."""
    if dbh_unit is not None:
        dbh_unit = V.unit_word(dbh_unit) or str(dbh_unit)
        if dbh_unit not in V.UNIT_TO_IN:
            raise SurveyError(f"dbh_unit {dbh_unit!r}: use in, cm, mm, ft or m")
    if (
        isinstance(max_bytes, bool)
        or not isinstance(max_bytes, (int, float))
        or not math.isfinite(max_bytes)
        or max_bytes <= 0
    ):
        raise SurveyError(f"max_bytes {max_bytes!r}: give a positive number of bytes")
    try:
        code: str | tuple[str, ...] | None = (
            tuple(zone_code(z) for z in zone) if isinstance(zone, (tuple, list)) else zone_code(zone) if zone else None
        )
    except ValueError as e:
        raise SurveyError(f"zone: {e}") from None
    return dbh_unit, int(max_bytes), code, SP.parse_species_map(species_map)


def _read_isolated(
    path_or_buffer,
    *,
    progress,
    limits: Limits | None,
    filename: str | None,
    kw: dict[str, Any],
    meanwhile: Callable[[], None] | None,
) -> Survey:
    """:func:`read_survey` in a child process bounded in memory and time (:func:`limits.run_isolated`)."""
    if hasattr(path_or_buffer, "read"):
        filename = filename or getattr(path_or_buffer, "name", None)
        path_or_buffer = path_or_buffer.read()
    shown = filename or (str(path_or_buffer) if isinstance(path_or_buffer, (str, os.PathLike)) else "survey")
    return run_isolated(
        read_survey,
        (path_or_buffer,),
        {**kw, "filename": filename, "limits": limits},
        name=os.path.basename(shown),
        limits=limits or Limits(),
        progress=progress,
        meanwhile=meanwhile,
    )


def _hidden_sheet(src: Any, sheet_name: str, sheet: str | int | None) -> list[str]:
    """The warning that the tree sheet read is one the workbook hides (none when it is shown)."""
    if sheet_name not in src.hidden:
        return []
    return [
        f"sheet {sheet_name!r} is {src.hidden[sheet_name]} in the workbook (you may not see it in "
        "Excel); it was read as the tree sheet"
        + (" because it was asked for" if sheet is not None else ": no visible sheet has a survey header")
    ]


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
    species_map: dict[str, str] | None = None,
    limits: Limits | None = None,
    isolated: bool = False,
    meanwhile: Callable[[], None] | None = None,
    zone: str | tuple[str, ...] | None = None,
    layer: str | None = None,
) -> Survey:
    """Read a tree survey (xlsx, xlsm, xlsb, xls, ods, csv, tsv, txt; a GIS layer of points, ``layer`` of several).

    ``column_map`` maps header text to a field (``{"Diam. cm": "dbh_cm"}``; fields:
    :data:`treecalc.ingest.columns.FIELDS`); ``dbh_unit`` ('in', 'cm', 'mm', 'ft', 'm') overrides what the file says;
    ``site`` the Site sheet; ``species_map`` corrects species texts in bulk (``{"Oak sp.": "Quercus"}``: every row
    reading "Oak sp.", in any case, reads "Quercus"); ``progress(fraction, message)`` is called as the work advances.
    ``limits`` bound what the file may hold (:class:`treecalc.ingest.limits.Limits`; refused beyond); ``isolated``
    reads it in a child process bounded in memory and time (as the command line and the app do: a file that crashes a
    native reader cannot take them down); ``meanwhile()``, with ``isolated`` only, runs here while the child reads
    (the command line loads the assessment's tables). ``zone`` (an i-Tree climate zone) reads a species only that
    zone's list has a code for (crape myrtle in PiedmtCLT); elsewhere such a row is rejected saying where it is listed.
    A tuple of zones (the trees', most first) reads a name in the first that lists it. :class:`SurveyError`: refused.
    """
    if meanwhile is not None and not isolated:
        raise TypeError("read_survey: meanwhile is run while an isolated read works; give isolated=True")
    if isolated:  # the whole read in a bounded child process (treecalc.ingest.limits)
        return _read_isolated(
            path_or_buffer,
            progress=progress,
            limits=limits,
            filename=filename,
            meanwhile=meanwhile,
            kw={
                "sheet": sheet,
                "column_map": column_map,
                "dbh_unit": dbh_unit,
                "site": site,
                "max_bytes": max_bytes,
                "species_map": species_map,
                "zone": zone,
                "layer": layer,
            },
        )

    def tell(f: float, msg: str) -> None:
        if progress is not None:
            progress(f, msg)

    dbh_unit, max_bytes, zone, fixes = _check_options(dbh_unit, max_bytes, zone, species_map)
    tell(0.0, "opening the file")
    src = open_source(path_or_buffer, filename=filename, max_bytes=max_bytes, limits=limits, layer=layer)
    tell(0.1, "finding the header row")
    sheet_name, rows, mapping = find_header(src, sheet, column_map)
    tell(0.35, "reading the cells")
    warnings: list[str] = list(src.warnings) + list(mapping.warnings) + _hidden_sheet(src, sheet_name, sheet)
    h = mapping.header_row
    # a formula without a cached value or an Excel error reads as a blank cell: such a row is not blank
    mapped_idx = {c.index for c in mapping.columns}
    fcells, ecells = src.formula_cells(sheet_name), src.error_cells(sheet_name)
    unreadable = {r0 for (r0, c0) in (*fcells, *ecells) if c0 in mapped_idx and r0 > h}
    table, row_warnings = data_rows(rows, h, unreadable)
    warnings += row_warnings
    n = table.n

    sp = _species(table, mapping, fixes)
    tag_col = mapping.first("tag")
    tags = table.text(tag_col)
    if tag_col is None:
        warnings.append("no tag column: trees are tagged row-N by their row in the file")
    tell(0.45, "reading diameters")
    u = D.units(table, mapping, dbh_unit, column_map, warnings)
    d = D.read_dbh(table, mapping, u, bool(src.decimal_comma))
    warnings += [w for w in (D.comma_readings(table, u, d, bool(src.decimal_comma)),) if w]
    acts = A.read_actions(table, mapping, warnings)

    # --- rejection, in order: totals, unreadable cells, duplicate tag, species/DBH/action checks, species
    tell(0.6, "checking rows")
    rj = _Rejections(n)
    rj.add(
        _totals(table, d, mapping, sp, tags),
        "totals row",
        table.col_label[0] if table.col_label else "",
        lambda i: totals_reason(table, i),
    )
    _unreadable(rj, table, src, mapping, fcells, ecells)
    _duplicate_tags(rj, table, tag_col, tags)
    sp_label = sp.sources[0][0] if sp.sources else "species"
    rj.add(
        (sp.text == "").to_numpy(),
        "missing species",
        sp_label,
        lambda i: f"row {table.source_row[i]}, column {sp_label!r}: no species given",
    )
    _dbh_rejections(rj, table, u, d, mapping)
    if acts.unknown.any() and acts.column is not None:  # a row's action is unknown only where there is a column
        rj.add(acts.unknown, "action not recognised", acts.column.header, acts.reasons)
    tell(0.7, "resolving species")
    _resolve_species(rj, table, sp, zone)

    tell(0.8, "building the table")
    warnings += [w for w in (A.blank_action_warning(acts, rj.ok), A.must_remove_warning(acts, rj.ok)) if w]
    trees, not_surveyed, items = _trees(
        table, mapping, rj, sp, tags, tag_col, d, acts, bool(src.decimal_comma), warnings
    )
    rejected = _rejected(table, rj, sp, tags, d)
    survey = _assemble(src, sheet_name, mapping, table, trees, rejected, site, warnings, not_surveyed, u)
    survey.warning_items = items
    survey.check()
    tell(1.0, f"{len(trees)} trees, {len(rejected)} rejected")
    return survey


def _trees(
    table: Table,
    mapping: C.Mapping,
    rj: _Rejections,
    sp: _Species,
    tags: pd.Series,
    tag_col: C.Column | None,
    d: D.DbhRead,
    acts: A.Actions,
    dec: bool,
    survey_notes: list[str],
) -> tuple[pd.DataFrame, list[str], list[tuple[int, str]]]:
    """The accepted rows as the trees frame (:data:`TREE_COLUMNS`, then coordinates when given), the
    flags not surveyed, and each tree's warnings one by one."""
    n = table.n
    ok = rj.ok
    sel = np.flatnonzero(ok)
    row_warn: dict[int, list[str]] = {}

    def add_warn(texts: list[str] | None) -> None:
        if texts is None or not any(texts):
            return
        for i in [i for i, t in enumerate(texts) if t]:
            if ok[i]:
                row_warn.setdefault(i, []).append(texts[i])

    gen = (tags == "").to_numpy()
    tags_final = tags.to_numpy(dtype=object).copy()
    tags_final[gen] = [f"row-{sr}" for sr in table.source_row[gen]]
    if tag_col is not None and gen.any():
        add_warn(
            [
                f"no tag in column {tag_col.header!r}; tagged row-{sr}" if g else ""
                for sr, g in zip(table.source_row, gen)
            ]
        )
    add_warn(sp.map_warn)
    if len(sp.res):
        add_warn(_lookup(sp, sp.res["warning"], ""))
    add_warn(SP.disagreements(sp.sources, sp.text, sp.column, sp.code, sp.res))
    add_warn(d.warning)
    cond, cond_warn = A.read_condition(table, mapping, acts)
    add_warn(cond_warn)
    add_warn(A.dead_status_condition(cond, acts.facts.get(V.DEAD_STATUS)))
    land_use, lu_warn = A.read_land_use(table, mapping)
    add_warn(lu_warn)
    stated, condition_warn = A.stated_facts(table, mapping, acts)  # "Remove – dead", a condition "Dying"
    unclear: dict[str, list[str]] = {}
    flags, not_surveyed, flag_warns = A.read_flags(table, mapping, stated, unclear)
    facts, fact_warns = A.read_tree_facts(table, mapping, unclear)
    unclear_cells = A.unclear_cells(unclear, n)
    for fw in [condition_warn, *flag_warns, *fact_warns]:  # the condition's fact, the flags', then the facts'
        add_warn(fw)
    dist, dist_warn = A.read_distance(table, mapping, dec)
    add_warn(dist_warn)
    coords, coord_warn, coord_notes = A.read_coordinates(table, mapping, dec)
    add_warn(coord_warn)
    survey_notes.extend(coord_notes)
    must, must_warn = A.read_must_remove(table, mapping, acts)
    add_warn(must_warn)
    tree_zone, zone_warn = A.read_climate_zone(table, mapping)
    add_warn(zone_warn)
    limits = {
        f: A.read_percent(table, mapping, f, dec) for f in ("functional_limitation_pct", "external_limitation_pct")
    }
    for _, w in limits.values():
        add_warn(w)
    has_res = len(sp.res) > 0
    joined = np.array([""] * n, dtype=object)
    for i, w in row_warn.items():
        joined[i] = "; ".join(w)

    def text(a: Any) -> pd.Series:  # object columns built as such (pandas 3 would infer, then convert, str)
        return pd.Series(np.asarray(a, dtype=object)[sel] if len(a) else [], dtype=object)

    cols: dict[str, Any] = {
        "source_row": table.source_row[sel].astype("int64"),
        "tag": text(tags_final),
        "species": text(sp.text.to_numpy()),
        "species_code": text(sp.code.to_numpy()),
        "species_method": text(_lookup(sp, sp.res["method"], None) if has_res else []),
        "species_score": np.array(_lookup(sp, sp.res["score"], np.nan), dtype=float)[sel] if has_res else [],
        "dbh_in": d.dbh_in[sel],
        "stems": d.stems[sel].astype("int64"),
        "action": text(acts.action),
        "condition": text(cond),
        "land_use": text(land_use),
        "notes": text(A.read_notes(table, mapping)),
        **{f: pd.array(flags[f][sel], dtype="boolean") for f in C.FLAG_FIELDS},
        "distance_to_residence_ft": dist[sel],
        "warnings": text(joined),
    }
    cols.update({f: arr[sel] for f, arr in facts.items()})
    cols.update({f: arr[sel] for f, arr in coords.items()})
    extra = [*coords]
    if unclear_cells is not None:  # only when a flag cell is neither yes nor no: the rules read it
        cols["flags_unclear"] = unclear_cells[sel]
        extra.append("flags_unclear")
    if acts.pruned is not None:  # "Pruned 25%": the share, for the law's excessive-pruning share to read
        cols["pruned_percent"], cols["pruned_over"] = acts.pruned[0][sel], acts.pruned[1][sel]
        cols["pruned_share_unknown"] = acts.pruned[2][sel]  # "Prune": pruned, the share not given
        extra += ["pruned_percent", "pruned_over", "pruned_share_unknown"]
    at_precision = d.at_precision[sel] if len(d.at_precision) == len(d.dbh_in) else np.zeros(0)
    if len(at_precision) and not np.isnan(at_precision).all():  # a multi-stem tree: its DBH at the stems' precision
        cols["dbh_at_precision_in"] = at_precision
        extra.append("dbh_at_precision_in")
    if must is not None:  # only when surveyed: the column is the plan's, not the law's
        cols["must_remove"] = must[sel]
        extra.append("must_remove")
    if tree_zone is not None:  # only when surveyed: each tree is valued in its zone (climate_zones.survey_zone)
        cols["climate_zone"] = text(tree_zone)
        extra.append("climate_zone")
    for f, (arr, _) in limits.items():  # only when surveyed: read by the 10th-edition appraisal
        if arr is not None:
            cols[f] = arr[sel]
            extra.append(f)
    trees = pd.DataFrame(cols, columns=[*TREE_COLUMNS, *facts, *extra])
    rows = table.source_row.tolist()
    items = [(rows[i], w) for i in sorted(row_warn) for w in row_warn[i]]
    return trees, not_surveyed, items


def _rejected(table: Table, rj: _Rejections, sp: _Species, tags: pd.Series, d: D.DbhRead) -> pd.DataFrame:
    rsel = np.flatnonzero(~rj.ok)
    by_text = dict(zip(sp.res.index, sp.res["suggestions"].tolist())) if len(sp.res) else {}
    sugg = [
        "; ".join((by_text.get(sp.text[i]) or [])[:3])
        if rj.kind[i] == "unresolved species" and not sp.numeric[i]
        else ""
        for i in rsel
    ]
    rejected = pd.DataFrame(
        {
            "source_row": table.source_row[rsel].astype("int64"),
            "tag": tags.to_numpy()[rsel].astype(object),
            "species": sp.text.to_numpy()[rsel].astype(object),
            "dbh": [as_text(d.main_raw[i]) if d.raw[i] is None else d.raw[i] for i in rsel],
            "column": rj.column[rsel],
            "reason": rj.reason[rsel],
            "kind": rj.kind[rsel],
            "suggestions": np.array(sugg + [None], dtype=object)[:-1],
            "raw": [_raw_dict(table.rows[i], table.col_label) for i in rsel],
        },
        columns=list(REJECTED_COLUMNS),
    )
    for c in ("tag", "species", "dbh", "column", "reason", "kind", "suggestions", "raw"):
        rejected[c] = rejected[c].astype(object)
    return rejected


def _assemble(
    src,
    sheet_name: str,
    mapping: C.Mapping,
    table: Table,
    trees: pd.DataFrame,
    rejected: pd.DataFrame,
    site: dict | None,
    warnings: list[str],
    not_surveyed: list[str],
    u: D.Units,
) -> Survey:
    """The Survey: trees and rejected rows with the site facts (Site sheet, then ``site``) and the
    assumptions about what the survey does not say."""
    site_given: dict = {}
    site_sheet = next((s for s in src.sheet_names if s.strip().lower() in SITE_SHEETS and s != sheet_name), None)
    if site_sheet is not None:
        special = {rc: f"an Excel error {e}" for rc, e in src.error_cells(site_sheet).items()}
        special.update(
            {rc: f"a formula (={f}) without a cached value" for rc, f in src.formula_cells(site_sheet).items()}
        )
        site_given, site_warn = S.read_site_rows([list(r) for r in src.rows(site_sheet)], special)
        warnings.extend(site_warn)
    site_final = S.apply_overrides(site_given, site)
    headers = {f: c.header for f in C.COORDINATE_FIELDS if (c := mapping.first(f)) is not None}
    try:  # Survey123's POINT_X/POINT_Y in degrees, no crs: said; swapped or disagreeing coordinates: asked
        warnings.extend(xy_reading(trees, site_final, headers))
    except ValueError as e:
        raise SurveyError(str(e)) from None
    assumptions, assumed = S.assumptions(site_final)
    if not {"x", "y"} & set(headers):  # the crs says what x/y are in: a survey without them (a layer's points are
        # reprojected by their own CRS, latitude/longitude are degrees) assumes nothing of it
        assumptions = [a for a in assumptions if not a.startswith("crs not given")]
        assumed.pop("crs", None)
    dist_col = mapping.first("distance_to_residence_ft")
    data_assumptions: list[str] = []
    data_assumptions.extend(not_surveyed_text(list(not_surveyed), site_final.get("jurisdiction")))
    readers = column_readers("distance_to_residence_ft", site_final.get("jurisdiction"))
    if dist_col is None and readers:
        data_assumptions.append(
            "distance_to_residence_ft not surveyed: unknown for every tree (rules that depend "
            f"on it, {'; '.join(readers)}, take their stricter branch)"
        )
    return Survey(
        trees=trees,
        rejected=rejected,
        site=site_final,
        site_assumptions=assumptions + data_assumptions,
        warnings=warnings,
        data_assumptions=data_assumptions,
        rows_read=table.n,
        source={
            "file": src.name,
            "format": src.format,
            "sheet": sheet_name,
            "sheets": list(src.sheet_names),
            "header_row": mapping.header_row + 1,
            "column_map": {c.header: _field_label(c) for c in mapping.columns},
            "unmapped": list(mapping.unmapped),
            "dbh_unit": u.default,
            "dbh_unit_source": u.source,
            "encoding": src.encoding,
            "delimiter": src.delimiter,
            "decimal_comma": bool(src.decimal_comma),
            "site_sheet": site_sheet,
            "flags_not_surveyed": list(not_surveyed),
            "distance_surveyed": dist_col is not None,
            "coordinates": [f for f in C.COORDINATE_FIELDS if f in trees.columns],
            **({"crs": src.crs} if src.crs else {}),  # a GIS layer's own (a spreadsheet's source is unchanged)
        },
        site_assumed=assumed,
    )


def _action_counts(t: pd.DataFrame) -> dict[str, int]:
    """Trees per canonical action (:data:`treecalc.schema.ACTIONS`), zeros included."""
    if not len(t):
        return {}
    counts = t["action"].value_counts()
    return {a: int(counts.get(a, 0)) for a in ACTIONS}


def _field_label(c: C.Column) -> str:
    if c.field in ("dbh", "dbh_alt") and c.unit in V.UNIT_TO_IN:
        return f"dbh_{c.unit}"
    return c.field


def _raw_dict(row: list, labels: list[str]) -> dict:
    out = {}
    for j, v in enumerate(row):
        if is_blank(v) or j >= len(labels):
            continue
        lab = labels[j]
        # JSON-safe: numbers, text and true/false as they are; dates, times, durations as text
        out[lab if lab not in out else f"{lab} ({column_letters(j)})"] = (
            v if isinstance(v, (str, int, float)) else as_text(v)
        )
    return out
