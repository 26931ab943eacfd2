"""Stage 4 of the read: diameters — units, alternative columns, stems (√Σd²), stumps.

DBH is in inches unless a user option (``dbh_unit``, a ``dbh_cm`` column map), a unit
column, or the header ("DBH (cm)") says otherwise, in that order; a unit written in a
cell ("30 cm") wins for that cell. Stem columns combine as sqrt(sum of squares)
(:func:`treecalc.ingest.values.combine_stems`). Columns of the same DBH in other units
are alternatives: the first given is used, inches first. A tree whose DBH is blank or 0
while a stump diameter column gives one (the NYC Street Tree Census ``stump_diam``) is
measured at its stump: §208-17 defines DBH "at the highest measurable point of the
remaining stump if less than 4.5 feet".
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

from treecalc.ingest import attributes as A
from treecalc.ingest import columns as C
from treecalc.ingest import values as V
from treecalc.ingest.errors import SurveyError
from treecalc.ingest.rows import Table
from treecalc.ingest.values import as_text, is_blank

MAX_DBH_IN = 250.0
WARN_DBH_IN = 100.0
DBH_REJECTIONS = ("missing DBH", "DBH not a number", "DBH not positive", "DBH above 250 in")
_MISSING = V.Dbh(error="missing DBH", detail="no DBH given")


@dataclass
class Units:
    default: str
    source: str
    column: C.Column | None
    per_row: list[str]
    bad: list[str]  # a rejection text per row whose unit cell is not a unit ("" otherwise)


@dataclass
class DbhRead:
    """Per row: the DBH in inches and stems, or the rejection kind, column and detail."""

    dbh_in: np.ndarray
    stems: np.ndarray
    kind: list[str]
    column: list[str]
    detail: list[str]
    warning: list[str]
    raw: list  # the cells read, as text (None on the fast path: the main cell)
    main_raw: list
    stems_bad: list[str] = field(default_factory=list)
    # per row of two or more stems: the combined DBH at the stems' precision (inches; NaN elsewhere)
    at_precision: np.ndarray = field(default_factory=lambda: np.zeros(0))


_STEM_NUMBER = re.compile(r"\d+(?:[.,]\d+)?|[.,]\d+")


def at_stems_precision(total_in: float, stems_in: list[float], raw_text: str) -> float:
    """√Σd² of the stems at the precision they were measured: rounded (half up) to the most decimals any stem is
    written with, in the unit it is written in. Stems "6, 5.3" (in) combine to 8.0056 in, 8.0 at 0.1 in; "15, 13.5"
    cm to 20.1804 cm, 20.2 cm. NaN where the cells' numbers cannot be matched to the stems one to one, or the stems
    are in different units: the unrounded figure is then the only one."""
    nums = _STEM_NUMBER.findall(raw_text)
    if len(nums) != len(stems_in) or not all(x > 0 for x in stems_in):
        return float("nan")
    values = [float(t.replace(",", ".")) for t in nums]
    if not all(v > 0 for v in values):
        return float("nan")
    per = [x / v for x, v in zip(stems_in, values)]  # inches per unit written, one unit for every stem
    if max(per) - min(per) > 1e-9 * max(per):
        return float("nan")
    places = max(len(t.replace(",", ".").partition(".")[2]) for t in nums)
    step = Decimal(1).scaleb(-places)
    rounded = Decimal(repr(total_in / per[0])).quantize(step, rounding=ROUND_HALF_UP)
    return float(rounded) * per[0]


def units(
    table: Table, mapping: C.Mapping, dbh_unit: str | None, column_map: dict | None, warnings: list[str]
) -> Units:
    """The unit of each row's DBH and where it comes from."""
    dbh_col = mapping.first("dbh")
    stem_cols = sorted(mapping.of("dbh_stem"), key=lambda c: (c.stem_no or 0, c.index))
    unit_col = mapping.first("dbh_unit")
    if dbh_unit:
        default, source = dbh_unit, "given by the user (dbh_unit)"
        if unit_col is not None:
            warnings.append(f"unit column {unit_col.header!r} ignored: dbh_unit={dbh_unit} was given")
            unit_col = None
    elif dbh_col is not None and dbh_col.unit in V.UNIT_TO_IN:
        default, source = dbh_col.unit, f"header {dbh_col.header!r}"
        if column_map and any(C.norm_header(k) == C.norm_header(dbh_col.header) for k in column_map):
            source = f"column map {dbh_col.header!r}"
    elif stem_cols and stem_cols[0].unit in V.UNIT_TO_IN:
        default, source = stem_cols[0].unit, f"header {stem_cols[0].header!r}"
    else:
        default, source = "in", "default (inches)"
    if unit_col is not None:
        source = f"unit column {unit_col.header!r} (blank cells: {source})"
    alt_cols = mapping.of("dbh_alt")
    if alt_cols:
        source += "; " + ", ".join(f"{c.header!r} in {c.unit}" for c in alt_cols) + " when it is blank"
    n = table.n
    per_row, bad = [default] * n, [""] * n
    if unit_col is not None:
        seen: dict = {}
        for k, v in enumerate(table.values(unit_col)):
            if is_blank(v):
                continue
            kk = (type(v).__name__, v) if not isinstance(v, str) else v
            if kk not in seen:
                seen[kk] = V.unit_word(v) if isinstance(v, str) else None
            u = seen[kk]
            if u in V.UNIT_TO_IN:
                per_row[k] = u
            else:
                bad[k] = (
                    f"row {table.source_row[k]}, column {unit_col.header!r}: unknown unit "
                    f"{V.short(as_text(v))[1:-1]!r} (use in, cm, mm, ft or m)"
                )
    return Units(default, source, unit_col, per_row, bad)


def read_cells(vals: list, units_: list[str], decimal_comma: bool, cache: dict[tuple[str, str], V.Dbh]) -> list[V.Dbh]:
    """Each DBH cell read in its row's unit (a cell is read once per distinct value and unit)."""
    by = _distinct_readings(vals, units_, decimal_comma, cache)
    return A.spread(by[1], by[0]).tolist() if by is not None else _read_cells(vals, units_, decimal_comma, cache)


def _distinct_readings(
    vals: list, units_: list[str], decimal_comma: bool, cache: dict
) -> tuple[np.ndarray, list[V.Dbh]] | None:
    """(the position of each cell's reading, the readings of the distinct cells) when every row has
    the same unit (no unit column), else None."""
    if not units_ or units_.count(units_[0]) != len(units_):
        return None
    codes, uniq = A.distinct(vals)
    return codes, _read_cells(uniq, units_[: len(uniq)], decimal_comma, cache)


def _read_cells(vals: list, units_: list[str], decimal_comma: bool, cache: dict[tuple[str, str], V.Dbh]) -> list[V.Dbh]:
    out = []
    to_in = V.UNIT_TO_IN
    for v, u in zip(vals, units_):
        t = type(v)
        if t is float or t is int:  # most cells: a plain number, read once per distinct value and unit
            d = cache.get((v, u))
            if d is None:
                d = cache[(v, u)] = _MISSING if v != v else V.Dbh((float(v) * to_in[u],))
            out.append(d)
        elif v is None or (isinstance(v, str) and not v.strip()):
            out.append(_MISSING)
        elif isinstance(v, bool):
            out.append(V.Dbh(error="DBH not a number", detail=f"{as_text(v)} is a true/false value, not a number"))
        elif isinstance(v, (int, float)):
            out.append(_MISSING if isinstance(v, float) and v != v else V.Dbh((float(v) * V.UNIT_TO_IN[u],)))
        elif isinstance(v, str):
            d = cache.get((v, u))
            if d is None:
                d = cache[(v, u)] = V.parse_dbh_text(v, u, decimal_comma)
            out.append(d)
        else:
            out.append(_not_a_number(v))
    return out


def _not_a_number(v: object) -> V.Dbh:
    if isinstance(v, (_dt.date, _dt.datetime)):
        return V.Dbh(
            error="DBH not a number", detail=f"{as_text(v)} is a date (a spreadsheet may have turned '12/8' into one)"
        )
    if isinstance(v, _dt.time):
        return V.Dbh(error="DBH not a number", detail=f"{as_text(v)} is a time of day, not a number")
    if isinstance(v, _dt.timedelta):
        return V.Dbh(
            error="DBH not a number",
            detail=f"{as_text(v)} is a duration (the cell is formatted as a time), not a number",
        )
    return V.Dbh(error="DBH not a number", detail=f"{V.short(as_text(v))} is not a number")


def _given(d: V.Dbh) -> bool:
    return d is not _MISSING and d.error != "missing DBH"


def choose_alternatives(
    table: Table,
    mapping: C.Mapping,
    main: list[V.Dbh],
    main_raw: list,
    row_unit: list[str],
    decimal_comma: bool,
    cache: dict,
) -> tuple[list[str], list[str]]:
    """Fill ``main`` (and ``main_raw``) from the alternative-unit columns where the main DBH is blank;
    returns the header each DBH came from and a warning per row where given columns disagree."""
    n = table.n
    dbh_col = mapping.first("dbh")
    main_hdr = [dbh_col.header if dbh_col is not None else ""] * n
    alt_warn = [""] * n
    alt_cols = mapping.of("dbh_alt")
    if not alt_cols:
        return main_hdr, alt_warn
    alts = [
        (c, raw, read_cells(raw, [c.unit or "in"] * n, decimal_comma, cache))
        for c in alt_cols
        for raw in [table.values(c)]
    ]
    for k in range(n):
        chosen: tuple[str, V.Dbh, object, str | None] | None = (
            (main_hdr[k], main[k], main_raw[k], row_unit[k]) if _given(main[k]) else None
        )
        for c, raw, rd in alts:
            d = rd[k]
            if not _given(d):
                continue
            if chosen is None:
                chosen = (c.header, d, raw[k], c.unit)
                main[k], main_hdr[k], main_raw[k] = d, c.header, raw[k]
            elif not d.error and not chosen[1].error and d.stems_in and chosen[1].stems_in:
                a, b = chosen[1].dbh_in, d.dbh_in
                if abs(a - b) > 0.5:
                    alt_warn[k] = (
                        f"column {chosen[0]!r} gives {V.short(as_text(chosen[2]))[1:-1]} "
                        f"{chosen[3]} and column {c.header!r} gives {V.short(as_text(raw[k]))[1:-1]} "
                        f"{c.unit} = {V.fmt_in(b)} in; they disagree, {V.fmt_in(a)} in used"
                    )
                    break
    return main_hdr, alt_warn


def _combine_row(k: int, parts: list[tuple[str, V.Dbh]], raw_text: str, stem_hdr: str, out: DbhRead) -> None:
    """One row with stems or a reading worth checking: the combined DBH, or why it is rejected."""
    out.raw[k] = raw_text
    present = [(hd, d) for hd, d in parts if _given(d)]
    if not present:
        hd, d = parts[0] if parts else (stem_hdr, _MISSING)
        out.kind[k], out.column[k], out.detail[k] = "missing DBH", hd, d.detail or "no DBH given"
        return
    bad = next(((hd, d) for hd, d in present if d.error), None)
    if bad:
        out.kind[k], out.column[k], out.detail[k] = bad[1].error, bad[0], bad[1].detail
        return
    stems = [x for _, d in present for x in d.stems_in]
    hd0 = present[0][0]
    total = V.combine_stems(stems)
    if any(x <= 0 for x in stems):
        out.kind[k], out.column[k], out.detail[k] = (
            "DBH not positive",
            hd0,
            f"{V.short(raw_text)} is not a positive diameter",
        )
    elif len(stems) > V.MAX_STEMS:
        out.kind[k], out.column[k], out.detail[k] = (
            "DBH not a number",
            hd0,
            f"{V.short(raw_text)} lists {len(stems)} stems, more than {V.MAX_STEMS}",
        )
    elif not total <= MAX_DBH_IN:
        out.kind[k], out.column[k], out.detail[k] = (
            "DBH above 250 in",
            hd0,
            f"{V.short(raw_text)} is {V.fmt_in(total)} in, above {MAX_DBH_IN:g} in (a typo or the wrong unit?)",
        )
    else:
        out.dbh_in[k], out.stems[k] = total, len(stems)
        if len(stems) > 1:  # the law's bounds compare it at the stems' precision (docs/readings.md)
            out.at_precision[k] = at_stems_precision(total, stems, raw_text)
        w = [d.warning for _, d in present if d.warning]
        if total > WARN_DBH_IN:
            w.append(f"DBH {total:.1f} in is above {WARN_DBH_IN:g} in: check it")
        out.warning[k] = "; ".join(w)


def read_dbh(table: Table, mapping: C.Mapping, u: Units, decimal_comma: bool) -> DbhRead:
    """Every row's DBH in inches and number of stems, or the reason it cannot be read."""
    n = table.n
    cache: dict[tuple[str, str], V.Dbh] = {}
    dbh_col = mapping.first("dbh")
    stem_cols = sorted(mapping.of("dbh_stem"), key=lambda c: (c.stem_no or 0, c.index))
    main_raw = table.values(dbh_col)
    by = _distinct_readings(main_raw, u.per_row, decimal_comma, cache)
    main = A.spread(by[1], by[0]).tolist() if by is not None else _read_cells(main_raw, u.per_row, decimal_comma, cache)
    if mapping.of("dbh_alt") or mapping.first("stump_diameter") is not None:
        main_raw = list(main_raw)  # filled from other columns below: not the table's cached cells
        by = None  # nor are the readings those of its distinct cells
    main_hdr, alt_warn = choose_alternatives(table, mapping, main, main_raw, u.per_row, decimal_comma, cache)
    _stump_diameters(table, mapping, main, main_raw, main_hdr, alt_warn, decimal_comma, cache)
    stems_read = [(c, read_cells(table.values(c), u.per_row, decimal_comma, cache)) for c in stem_cols]
    stem_raws = [table.values(c) for c in stem_cols]
    stem_one = any(c.stem_no == 1 for c in stem_cols)
    has_main = dbh_col is not None or bool(mapping.of("dbh_alt"))
    out = DbhRead(
        np.full(n, np.nan),
        np.zeros(n, dtype=np.int64),
        [""] * n,
        [""] * n,
        [""] * n,
        list(alt_warn),
        [""] * n,
        main_raw,
        at_precision=np.full(n, np.nan),
    )
    stem_hdr = stem_cols[0].header if stem_cols else "DBH"
    plain = np.zeros(n, dtype=bool)
    if not stems_read:  # one plain diameter (most rows): set for every row at once
        plain, diameter = _plain_diameters(main, by)
        out.dbh_in[plain], out.stems[plain] = diameter[plain], 1
        raw = np.array(out.raw + [None], dtype=object)[:-1]
        raw[plain] = None
        out.raw = raw.tolist()
    for k in np.flatnonzero(~plain).tolist():
        d = main[k]
        stems_given = [(c.header, s[k]) for c, s in stems_read if s[k] is not _MISSING]
        parts = [(main_hdr[k], d)] if has_main and not (stem_one and stems_given) else []
        parts += stems_given
        bits = ([as_text(main_raw[k])] if has_main else []) + [as_text(r[k]) for r in stem_raws if not is_blank(r[k])]
        warn_before = out.warning[k]
        _combine_row(k, parts, ", ".join(b for b in bits if b), stem_hdr, out)
        out.warning[k] = "; ".join(w for w in (warn_before, out.warning[k]) if w)
    out.stems_bad = _stems_column(table, mapping, out, decimal_comma)
    return out


def _plain_diameters(main: list[V.Dbh], by: tuple[np.ndarray, list[V.Dbh]] | None) -> tuple[np.ndarray, np.ndarray]:
    """(the rows whose DBH is one plain diameter: no error, no warning, one stem above 0 and at most
    WARN_DBH_IN; that diameter), looked at once per distinct reading: ``by`` (each row's position
    among the readings, the readings), or the distinct reading objects of ``main``."""
    if by is None:
        codes, ids = A.distinct(list(map(id, main)))
        first = np.empty(len(ids), dtype=np.intp)
        first[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)  # each reading's first row
        by = codes, [main[k] for k in first.tolist()]
    codes, readings = by
    one = [
        (not d.error and not d.warning and len(d.stems_in) == 1 and 0 < d.stems_in[0] <= WARN_DBH_IN, d)
        for d in readings
    ]
    plain = A.spread([o for o, _ in one], codes, bool)
    diameter = A.spread([d.stems_in[0] if o else np.nan for o, d in one], codes, float)
    return plain, diameter


def _stump_diameters(
    table: Table,
    mapping: C.Mapping,
    main: list[V.Dbh],
    main_raw: list,
    main_hdr: list[str],
    warn: list[str],
    decimal_comma: bool,
    cache: dict,
) -> None:
    """§208-17: a stump's DBH is taken at the highest measurable point of the stump. Where the DBH is
    blank or 0 and a stump diameter column gives a positive one, that diameter is the DBH."""
    col = mapping.first("stump_diameter")
    if col is None:
        return
    unit = col.unit or "in"
    raw = table.values(col)
    stump = read_cells(raw, [unit] * table.n, decimal_comma, cache)
    for k, s in enumerate(stump):
        if s.error or not s.stems_in or not s.dbh_in > 0:
            continue
        d = main[k]
        if _given(d) and not (not d.error and d.stems_in and d.dbh_in == 0):
            continue
        main[k], main_raw[k], main_hdr[k] = s, raw[k], col.header
        from treecalc.law.cites import cite  # the law's modules load when a stump is read (start-up time)

        warn[k] = "; ".join(
            w
            for w in (
                warn[k],
                f"stump: DBH {V.fmt_in(s.dbh_in)} in taken from column "
                f"{col.header!r} ({cite(None, 'sections.definitions')}: DBH at the highest measurable point "
                "of the remaining stump)",
            )
            if w
        )


def _stems_column(table: Table, mapping: C.Mapping, out: DbhRead, decimal_comma: bool) -> list[str]:
    """A Stems column: a whole number from 1 to MAX_STEMS, or the row is rejected (the text per row)."""
    col = mapping.first("stems")
    bad = [""] * table.n
    if col is None:
        return bad
    seen: dict = {}
    for k, v in enumerate(table.values(col)):
        kk = (type(v).__name__, v) if not isinstance(v, str) else v
        if kk not in seen:
            seen[kk] = V.parse_stem_count(v, decimal_comma)
        x, why = seen[kk]
        if why:
            bad[k] = f"row {table.source_row[k]}, column {col.header!r}: {why}"
        elif x is not None and out.stems[k] >= 1:
            if x > out.stems[k]:
                out.stems[k] = x  # DBH already combined in the file
            elif x < out.stems[k]:
                out.warning[k] = "; ".join(
                    w
                    for w in (
                        out.warning[k],
                        f"column {col.header!r} says {x} stem(s) but the DBH gives "
                        f"{out.stems[k]}; {out.stems[k]} counted",
                    )
                    if w
                )
    return bad


__all__ = ["MAX_DBH_IN", "WARN_DBH_IN", "DBH_REJECTIONS", "Units", "DbhRead", "units", "read_dbh", "SurveyError"]


#: A DBH cell whose one comma may be a decimal comma ("7,5" = 7.5) or a stem separator ("7,5" = stems 7 and 5).
_EITHER_COMMA = re.compile(r"\s*\d+,\d+\s*")


def comma_readings(table: Table, u: Units, d: DbhRead, decimal_comma: bool) -> str:
    """A warning naming the rows whose DBH cell reads two ways by its comma ("7,5": 7.5 in as a decimal comma,
    8.6 in as stems 7 and 5), with the reading taken and the other; "" when there is none. Whether a comma is
    decimal is decided for the whole file (its delimiter and its other numbers), so a cell that may be either is
    said, never read one way in silence."""
    if not d.main_raw:
        return ""
    seen: list[str] = []
    for k, v in enumerate(d.main_raw):
        if not isinstance(v, str) or not _EITHER_COMMA.fullmatch(v) or not np.isfinite(d.dbh_in[k]):
            continue
        other = V.parse_dbh_text(v, u.per_row[k], not decimal_comma)
        if other.error or not other.stems_in:
            continue
        alt = V.combine_stems(other.stems_in) if len(other.stems_in) > 1 else other.stems_in[0]
        a, b = v.strip().split(",")
        as_stems, as_decimal = f"stems {a} and {b}", f"one stem, {a}.{b} with a decimal comma"
        took, then = (as_decimal, as_stems) if decimal_comma else (as_stems, as_decimal)
        seen.append(
            f"row {table.source_row[k]} {v.strip()!r} read as {d.dbh_in[k]:.1f} in ({took}), not {alt:.1f} in ({then})"
        )
    if not seen:
        return ""
    shown = "; ".join(seen[:5]) + (f"; and {len(seen) - 5} more" if len(seen) > 5 else "")
    return (
        f"{len(seen)} DBH {'cell has' if len(seen) == 1 else 'cells have'} a comma that may be a decimal comma or "
        f"separate two stems: {shown}; check them, and write a decimal with a point or stems as '7; 5'"
    )
