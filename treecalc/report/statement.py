"""The Excel statement of an assessment: one workbook a permit reviewer can check line by line.

``write_statement(assessment, path_or_buffer)`` writes one ``.xlsx`` workbook;
``statement_bytes(assessment)`` returns the same workbook as bytes (the app's
download button). Sheets, in order:

``Summary``
    Every line of ``assessment.lines`` (section, item, value, unit, note),
    the permit triggers found, the warnings, and the value of the trees
    harmed by species with a bar chart of it.
``Trees``
    Every tree with its benefits (units in the headers), value, permit
    triggers, penalty tier and penalty maxima.
``Replacement plan``
    The §208-22 requirement, the cheapest planting plan, the stock offered.
``Fund``
    The Tree Preservation Fund payment in lieu.
``Penalties``
    Civil and criminal maxima, doubling, per-tree penalties (and Wesley Hills).
``Rejected rows``
    The survey rows that could not be used, with the reason and the raw text.
``Method & sources``
    The method dict flattened (value basis, prices, parameters, data sources,
    sections applied, readings of unclear text with their sections), the survey source, the
    options, assumptions and warnings.

Formats: money cells ``$#,##0.00``; units in the column headers (``Stormwater
(gal/yr)``) or in a ``Unit`` column; header rows frozen; auto-filters;
column widths from the content. No cell of the statement holds a formula.

The cells are written by :mod:`treecalc.report.xlsx` (no formula, whatever a text starts with; big tables
streamed); each key's label, unit and number format come from :func:`treecalc.schema.describe`
(:mod:`treecalc.report.cells`). The sheets read the typed findings (:mod:`treecalc.results`) by attribute; those of
the law's findings (Replacement plan, Fund, Penalties) are written by :mod:`treecalc.report.finding_sheets`, and a
figure whose part of the law is not held says so (:mod:`treecalc.report.held`).
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.law.registry import REGISTRY
from treecalc.reference.data import price_units
from treecalc.report import carriers as fpmod
from treecalc.report.cells import (
    TREE_FIRST,
    flatten,
    fmt_for_unit,
    header,
    key_info,
    path_labels,
    unit_text,
)
from treecalc.report.content import plain_answer, summed_sections
from treecalc.report.field_words import quoting
from treecalc.report.finding_sheets import fund_name, fund_sheet, penalties_sheet, replacement_sheet
from treecalc.report.finding_sheets import jurisdiction_name as _jurisdiction
from treecalc.report.finding_sheets import value_basis as _value_basis
from treecalc.report.held import TREE_COLUMNS_OF, parts_not_held, trees_as_held
from treecalc.report.json import dollars_as_shown
from treecalc.report.xlsx import (
    WIDTH_SAMPLE,
    Book,
    Grid,
    as_text,
    cell_range,
    cell_value,
    display_len,
    distinct_values,
    needs_quote_prefix,
    safe_text,
)
from treecalc.results import QuotedLabels
from treecalc.results import records as _records
from treecalc.schema import (
    BENEFIT_COLUMNS,
    INT,
    TREE_PENALTY_COLUMNS,
    TREE_PERMIT_COLUMNS,
    USD,
    USD_RATE,
    humanize,
)

if TYPE_CHECKING:
    from treecalc.assessment import Assessment

__all__ = ["SHEETS", "write_statement", "statement_bytes", "build_workbook", "safe_text", "needs_quote_prefix"]

#: Sheet names, in order.
SHEETS = ("Summary", "Trees", "Replacement plan", "Fund", "Penalties", "Rejected rows", "Method & sources")

#: Headings of the method dict's top-level keys.
_METHOD_SECTIONS = {
    "readings": "Readings",
    "sections_applied": "Sections applied",
    "data_sources": "Data sources",
    "benefit_parameters": "Parameters and prices",
    "value_basis": "Value basis",
    "value_basis_label": "Value basis",
    "law": "Law",
    "law_file": "Law",
    "fee_schedule": "Fee schedule",
}
#: Method keys filed under a sibling's heading: their name is kept as the item.
_METHOD_KEEP_KEY = {"value_basis_label", "law_file"}

# ---------------------------------------------------------------------------
# sheets


def _summary(book: Book, a: Assessment) -> None:
    ws = book.sheet("Summary")
    g = Grid()
    survey = a.survey
    src = (survey.source if survey is not None else None) or {}
    file_name = src.get("file") or src.get("file_name") or src.get("name") or src.get("path") or ""
    sheet = src.get("sheet") or src.get("sheet_name") or ""
    where = f"{os.path.basename(str(file_name))}" + (f" (sheet {sheet})" if sheet else "") if file_name else ""
    rows_read = survey.rows_read if survey is not None else None
    parts = [f"Tree statement — {_jurisdiction(a) or 'jurisdiction not given'}"]
    if where:
        parts.append(where)
    if rows_read is not None:
        parts.append(f"{rows_read} rows read")
    parts.append(f"value basis: {_value_basis(a)}")
    g.title(" — ".join(parts))
    hdr = g.header(["Section", "Item", "Value", "Unit", "Note"])
    for line in _records(a.lines):
        v = cell_value(line.get("value"))
        if isinstance(line.get("value"), (list, tuple, Mapping)):
            v = as_text(line.get("value"))
        unit = str(line.get("unit") or "") or unit_text("", v)
        g.add(
            [line.get("section") or "—", line.get("item") or "", v, unit, line.get("note") or ""],
            [None, None, fmt_for_unit(unit, v)],
        )
    last_line = g.next_row - 1
    total = _out_of_pocket(a)
    if total is not None:  # the applicant's headline under the lines, in the words of the app and the PDF
        g.blank()
        g.add(list(total), [None, None, fmt_for_unit("USD", total[2])])

    permit = a.permit
    triggers = _records(permit.triggers if permit is not None else [])
    g.blank()
    held_not = permit.not_held if permit is not None else None
    if held_not is not None:  # the permit's section is not held: neither its triggers nor "none" can be said
        g.subtitle(f"Permit triggers: {held_not.short}")
    else:
        g.subtitle("Permit triggers that hold" + ("" if triggers else ": none"))
    if triggers:
        g.header(["Section", "Trigger", "Trees (tags)", "", ""])
        for t in triggers:
            g.add([t.get("section") or "", t.get("text") or "", as_text(t.get("tags") or [])])
    exc = permit.exceptions_applied if permit is not None else []
    if exc:
        g.add(["Exceptions applied", as_text(exc)])

    warnings = list(a.warnings or [])
    if warnings:
        g.blank()
        g.subtitle(f"Warnings ({len(warnings)})")
        for w in warnings:
            g.note("Warning", as_text(w))

    # removed value by species (the chart's data)
    table = _removed_by_species(a.trees)
    g.blank()
    basis = _value_basis(a)
    g.subtitle(
        f"Value of the trees removed or harmed, by species ($, value basis {basis})"
        + ("" if len(table) else ": no tree harmed")
    )
    chart_rows = None
    if len(table):
        h = g.header(["Species", "Trees", "Counted for replacement ($)", "Not counted ($)", "Total ($)"])
        for r in table.itertuples(index=False):
            g.add(
                [r.label, int(r.trees), float(r.counted), float(r.not_counted), float(r.total)],
                [None, INT, USD, USD, USD],
            )
        chart_rows = (h, g.next_row - 1)

    widths = g.widths()
    if len(widths) >= 3:
        widths[1] = max(widths[1], 30)
        widths[2] = min(max(widths[2], 14), 40)
    g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=cell_range(hdr, last_line, 5), widths=widths, wrap_cols=(3, 5))

    if chart_rows:
        h, last = chart_rows
        top = min(last, h + 25)  # the 25 largest species
        n = last - h
        book.bar_chart(
            ws,
            title="Value of trees removed, by species" + (f" (largest 25 of {n})" if n > 25 else ""),
            value_axis=f"$ ({basis})",
            categories=f"='Summary'!$A${h + 1}:$A${top}",
            series=[(f"='Summary'!${c}${h}", f"='Summary'!${c}${h + 1}:${c}${top}") for c in "CD"],
            anchor=f"G{hdr}",
            height_cm=max(7.5, 0.6 * (top - h) + 3),
            width_cm=18,
        )


def _out_of_pocket(a: Assessment) -> tuple[str, str, float | str, str, str] | None:
    """The applicant's total (planting cost + payment in lieu) as a Summary row, from the findings as the PDF
    adds it up (:func:`treecalc.report.content.plain_answer`), "not determined" (with why) when a part of it is;
    ``None`` when no replacement is required or the law has no fund."""
    rep, fund = a.replacement, a.fund
    if rep is None or not rep.required or not fund_name(a):
        return None
    d = {
        "jurisdiction": a.jurisdiction,
        "lines": _records(a.lines),
        "replacement": {
            "trees_needed": rep.trees_needed,
            "trees_planted": rep.trees_planted,
            "planting_cost_usd": rep.planting_cost_usd,
            "trees_in_lieu": rep.trees_in_lieu,
        },
        "replacement_required": bool(rep.required),
        "replacement_trees_by_tag": rep.trees_by_tag,
        "fund_in_lieu_usd": fund.fund_in_lieu_usd if fund is not None else None,
        "sections": dict(a.labels.sections),  # as the assessment recorded its law's on its date
    }
    d["notes"] = {"fund": list(fund.notes or []) if fund is not None else []}
    d["warnings"] = list(a.warnings or [])
    p = plain_answer(d)
    s = p["sections"]
    said = "planting cost + payment in lieu; penalties, if any, are not part of it"
    if p["total_usd"] is None:  # a part not determined is never summed as 0: the total is not determined either
        why = p["why_not_determined"].get("fund_in_lieu_usd")
        return (
            summed_sections(s["planting_cost_usd"], s["fund_in_lieu_usd"]),
            "Total out of pocket",
            "not determined",
            "",
            f"{said}; the payment in lieu is not determined: {why}" if why else said,
        )
    return (
        summed_sections(s["planting_cost_usd"], s["fund_in_lieu_usd"]),
        "Total out of pocket",
        float(p["total_usd"]),
        "USD",
        said,
    )


def _removed_by_species(trees: Any) -> pd.DataFrame:
    """Species | trees | counted value | not counted value | total of the harmed trees."""
    cols = ["label", "trees", "counted", "not_counted", "total"]
    if not isinstance(trees, pd.DataFrame) or trees.empty:
        return pd.DataFrame(columns=cols)
    t = trees
    if "harmed" in t:
        sel = t["harmed"].fillna(False).astype(bool)
    elif "action" in t:
        sel = t["action"].astype(str).str.strip().str.lower().str.startswith("remov")
    else:
        sel = pd.Series(True, index=t.index)
    t = t[sel.to_numpy()]
    if t.empty:
        return pd.DataFrame(columns=cols)
    vcol = "value_usd" if "value_usd" in t else ("usd_total_annual" if "usd_total_annual" in t else None)
    value = pd.to_numeric(t[vcol], errors="coerce").fillna(0.0) if vcol else pd.Series(0.0, index=t.index)
    counted = t["counted"].fillna(False).astype(bool) if "counted" in t else pd.Series(True, index=t.index)
    name = (
        t["species"].astype(object).where(t["species"].notna(), "").astype(str).str.strip()
        if "species" in t
        else pd.Series("", index=t.index)
    )
    if "species_code" in t:
        key = t["species_code"].astype(object).where(t["species_code"].notna(), "").astype(str)
    else:
        key = name.str.lower()
    df = pd.DataFrame(
        {
            "key": key.to_numpy(),
            "name": name.to_numpy(),
            "value": value.to_numpy(float),
            "counted": counted.to_numpy(bool),
        }
    )
    df["cv"] = np.where(df["counted"], df["value"], 0.0)
    df["nv"] = np.where(df["counted"], 0.0, df["value"])
    out = []
    for k, grp in df.groupby("key", sort=False):
        names = grp["name"][grp["name"] != ""]
        nm = names.mode().iloc[0] if len(names) else ""
        label = f"{nm} ({k})" if nm and k and nm.lower() != k.lower() else (nm or k or "(unknown)")
        out.append(
            (label, len(grp), round(grp["cv"].sum(), 2), round(grp["nv"].sum(), 2), round(grp["value"].sum(), 2))
        )
    res = pd.DataFrame(out, columns=cols).sort_values(["total", "label"], ascending=[False, True], kind="stable")
    return res.reset_index(drop=True)


_TREE_LAST = (
    "value_row",
    "benefit_land_use",
    *BENEFIT_COLUMNS,
    "value_usd",
    *TREE_PERMIT_COLUMNS,
    *TREE_PENALTY_COLUMNS,
    "warnings",
)


def _table_sheet(
    book: Book,
    title: str,
    heading: str,
    frame: pd.DataFrame,
    first: Sequence[str],
    last: Sequence[str],
    headers: Mapping[str, str] | None = None,
    freeze_col: str = "A",
    empty_note: str = "",
    labels: QuotedLabels | None = None,
) -> None:
    """A sheet holding one table (title row 1, header row 2, frozen, filtered; headed as ``labels`` say)."""
    ws = book.sheet(title)
    frame = frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(_records(frame))
    cols = [c for c in frame.columns if not str(c).startswith("_")]
    order = [c for c in first if c in cols]
    order += [c for c in cols if c not in first and c not in last]
    order += [c for c in last if c in cols]
    headers = dict(headers or {})
    head = [headers.get(c) or header(c, labels=labels) for c in order]
    fmts = [key_info(c)[2] for c in order]
    n = len(frame)
    book.check_size(ws, n + 2, len(order))  # title, header, one row per record

    # widths from the header and a sample of the rows
    sample = frame.head(WIDTH_SAMPLE)
    widths = []
    for c, h, f in zip(order, head, fmts):
        w = min(len(h), 24)
        for v in distinct_values(sample[c]):
            w = max(w, display_len(v, f))
        widths.append(min(60, max(8, w + 2)))
    book.layout(ws, widths, f"{freeze_col}3", cell_range(2, n + 2, len(order)))
    book.cell(ws, 0, 0, heading if n or not empty_note else f"{heading} — {empty_note}", style="title")
    if head:
        book.header_cells(ws, 1, head)
    else:
        book.cell(ws, 1, 0, empty_note or "(no columns)")
    book.table_rows(ws, 2, frame[order], fmts)


def _trees(book: Book, a: Assessment) -> None:
    trees: Any = a.trees
    if not isinstance(trees, pd.DataFrame):
        trees = pd.DataFrame(_records(trees))
    trees = dollars_as_shown(trees)  # each tree's benefit parts the cents that add up to its total (as shown)

    basis = _value_basis(a)
    n = len(trees)
    harmed = int(trees["harmed"].fillna(False).astype(bool).sum()) if "harmed" in trees else None
    # the columns in the words of the law applied; those that mean nothing under it left out
    own = REGISTRY[a.jurisdiction].tree_headings if a.jurisdiction in REGISTRY else {}
    trees = trees.drop(columns=[c for c, h in own.items() if h is None and c in trees])
    trees, said = _tree_parts_not_held(a, trees)
    heading = (
        f"Trees — {n} surveyed"
        + (f", {harmed} removed or harmed" if harmed is not None else "")
        + "; benefits per year (i-Tree Streets), value, "
        + (
            said
            or "permit triggers, "
            + (
                'penalty tier; penalties are maxima ("up to")'
                if "penalty_tier" not in own
                else 'fine; fines are maxima ("not more than")'
            )
        )
    )
    _table_sheet(
        book,
        "Trees",
        heading,
        trees,
        TREE_FIRST,
        _TREE_LAST,
        headers={"value_usd": f"Value ($, {basis})", **{c: h for c, h in own.items() if h is not None}},
        freeze_col="C" if "tag" in trees and "source_row" in trees else "B",
        empty_note="no trees",
        labels=a.labels,
    )


def _tree_parts_not_held(a: Assessment, trees: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The Trees sheet's columns of a part of the law that is not held saying so in every cell
    (:func:`~treecalc.report.held.trees_as_held`), and the heading's words for those parts ("" when all are held)."""
    held = {p: n for p, n in parts_not_held(a).items() if p in TREE_COLUMNS_OF}
    if not held:
        return trees, ""
    said = "; ".join(f"the {part}: {n.short}" for part, n in held.items())
    return trees_as_held(a, trees), ("" if "permit" in held else "permit triggers; ") + said


def _rejected(book: Book, a: Assessment) -> None:
    survey = a.survey
    rej = survey.rejected if survey is not None else None
    if not isinstance(rej, pd.DataFrame):
        rej = pd.DataFrame(_records(rej)) if rej is not None else pd.DataFrame()
    if rej.empty and not len(rej.columns):
        rej = pd.DataFrame(columns=["source_row", "tag", "species", "dbh", "column", "reason", "suggestions", "raw"])
    n = len(rej)
    _table_sheet(
        book,
        "Rejected rows",
        f"Rejected rows — {n} row{'s' if n != 1 else ''} of the survey could not be used (text exactly as written)",
        rej,
        ("source_row", "tag", "species", "dbh", "column", "reason", "kind", "suggestions", "raw"),
        (),
        empty_note="none",
        labels=a.labels,
    )


def _price_units() -> dict[str, str]:
    """Each i-Tree Streets price's unit as the statement writes it ("$/kWh"), from the prices table itself
    (:func:`treecalc.reference.data.price_units`, "USD/kWh")."""
    return {group: "$/" + unit.removeprefix("USD/") for group, unit in price_units().items()}


def _method(book: Book, a: Assessment) -> None:
    ws = book.sheet("Method & sources")
    g = Grid()
    g.title("Method & sources — value basis, prices, parameters, data sources, sections applied, readings")
    hdr = g.header(["Section", "Item", "Value", "Unit"])
    prices = _price_units()

    def emit(section: str, obj: Any, prefix: Sequence[str] = ()) -> None:
        for path, x in flatten(obj, list(prefix)):
            x = cell_value(x)
            unit, fmt = "", None
            if path:
                _, unit, fmt = key_info(path[-1])
                if len(path) >= 2 and path[-2] == "prices" and path[-1] in prices:
                    unit, fmt = prices[path[-1]], USD_RATE
            if x is None:
                x, unit = "(not given)", ""
            g.add(
                [section, " › ".join(path_labels(path, a.labels)), x, unit_text(unit, x)],
                [None, None, fmt if isinstance(x, (int, float)) else None],
            )

    method = dict(a.method or {})
    if "value_basis" not in method:
        g.add(["Value basis", "", _value_basis(a), "text"])
    items = method.pop("reading_items", None)
    for k, v in method.items():
        if k == "readings" and items:  # each reading under its section (the item), read from reading_items
            for r in items:
                g.add(["Readings", as_text(r.get("section", "")), as_text(r.get("reading", "")), "text"])
            continue
        section = _METHOD_SECTIONS.get(k) or humanize(k)
        # a key filed under a heading other than its own keeps its name as the item
        emit(section, v, [k] if k in _METHOD_KEEP_KEY else [])
    survey = a.survey
    if survey is not None:
        emit("Survey source", survey.source or {})
        if survey.rows_read is not None:
            g.add(["Survey source", "Rows read", cell_value(survey.rows_read), "rows"], [None, None, INT])
    site = a.site or (survey.site if survey is not None else None)
    if site:
        emit("Site", site)
    emit("Jurisdiction", _jurisdiction(a))
    if a.options:
        emit("Options", a.options)
    for x in a.assumptions or []:
        g.add(["Assumptions", "", as_text(x), "text"])
    for x in a.warnings or []:
        g.add(["Warnings", "", as_text(x), "text"])
    last = g.next_row - 1
    widths = g.widths(maximum=100)
    g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=cell_range(hdr, last, 4), widths=widths, wrap_cols=(3,))


# ---------------------------------------------------------------------------
# API


def build_workbook(assessment: Assessment, target: Any, *, stream_rows: bool = True) -> None:
    """Write the statement of ``assessment`` to ``target`` (a path or a seekable binary buffer).

    ``stream_rows=False`` writes the big tables one XlsxWriter call per cell
    instead of streaming whole rows (slower; the tests compare the two).
    """

    book = Book(target, stream_rows=stream_rows, in_words=True)  # read by a person: fields by their labels
    # the headers that quote a law's number ("Slope over 20%") say the law of the assessment's date: its labels,
    # and a field named in a note is said by them too
    with quoting(quoted_labels(assessment)):
        _summary(book, assessment)
        _trees(book, assessment)
        replacement_sheet(book, assessment)
        fund_sheet(book, assessment)
        penalties_sheet(book, assessment)
        _rejected(book, assessment)
        _method(book, assessment)
        _fingerprint(book, assessment)
        book.close(f"Tree statement — {_jurisdiction(assessment)}")


def quoted_labels(a: Assessment) -> dict[str, str]:
    """The labels of an assessment that quote a number of its law, columns' and site facts' (its ``labels``)."""
    labels = getattr(a, "labels", None)
    return {**(labels.columns if labels else {}), **(labels.site if labels else {})}


def _fingerprint(book: Book, a: Assessment) -> None:
    """The sheet ``treecalc verify`` reads: the fingerprint's figures for a reader, then the whole of it as JSON."""
    fp = a.fingerprint
    if not fp:
        return
    ws = book.sheet(fpmod.SHEET_NAME)
    book.layout(ws, [34, 90], None, None)
    survey = fp.get("survey") or {}
    rows: list[tuple[str, Any]] = [
        ("Fingerprint: check with `treecalc verify STATEMENT SURVEY`", ""),
        ("treecalc version", fp.get("treecalc_version")),
        ("Survey file", survey.get("file")),
        ("Survey SHA-256", survey.get("sha256")),
        *((f"SHA-256 of {rel}", sha) for rel, sha in (fp.get("data_files") or {}).items()),
        ("Result SHA-256", fp.get("result_sha256")),
        (fpmod.JSON_ITEM, json.dumps(fp, ensure_ascii=False, sort_keys=True)),
    ]
    for i, (item, value) in enumerate(rows):
        book.cell(ws, i, 0, item, style="header" if i == 0 else None)
        book.cell(ws, i, 1, value)


def write_statement(assessment: Assessment, path_or_buffer: Any = None) -> bytes | None:
    """Write the Excel statement of ``assessment``.

    ``path_or_buffer`` is a file path (str or PathLike) or a binary file-like
    object; with ``None`` the workbook is returned as bytes instead.
    """
    if isinstance(path_or_buffer, (str, os.PathLike)):
        build_workbook(assessment, os.fspath(path_or_buffer))
        return None
    buf = io.BytesIO()
    build_workbook(assessment, buf)
    if path_or_buffer is None:
        return buf.getvalue()
    path_or_buffer.write(buf.getvalue())
    return None


def statement_bytes(assessment: Assessment) -> bytes:
    """The Excel statement as bytes (for a download button)."""
    out = write_statement(assessment, None)
    assert out is not None
    return out
