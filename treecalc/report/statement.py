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
(:mod:`treecalc.report.cells`). The sheets read the typed findings (:mod:`treecalc.results`) by attribute.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.models.projection import PLANTED, REMOVED
from treecalc.report.cells import (
    TREE_FIRST,
    columns_table,
    finding_fields,
    flatten,
    fmt_for_unit,
    header,
    key_info,
    kv_block,
    kv_header,
    path_labels,
    records_table,
    unit_text,
)
from treecalc.report.field_words import quoting
from treecalc.report.xlsx import (
    WIDTH_SAMPLE,
    Book,
    Grid,
    as_text,
    cell_range,
    cell_value,
    display_len,
    distinct_values,
    is_missing,
    needs_quote_prefix,
    safe_text,
    scalar,
)
from treecalc.results import QuotedLabels
from treecalc.results import records as _records
from treecalc.schema import (
    BENEFIT_COLUMNS,
    INT,
    NUM,
    SHARE,
    TREE_PENALTY_COLUMNS,
    TREE_PERMIT_COLUMNS,
    USD,
    USD_RATE,
    humanize,
)

if TYPE_CHECKING:
    from treecalc.assessment import Assessment
    from treecalc.results import Fund, Penalties, Replacement

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


def _jurisdiction(a: Assessment) -> str:
    """The jurisdiction's full name ("Village of Croton-on-Hudson, Chapter 208") or the key as given."""
    key = str(a.jurisdiction or "")
    try:
        from treecalc.law.registry import get

        return get(key).name
    except Exception:  # an unknown name: show it as given
        return key


def _value_basis(a: Assessment) -> str:
    rep = a.replacement
    basis = (
        (rep.value_basis if rep is not None else None)
        or (a.method or {}).get("value_basis")
        or (a.options or {}).get("value_basis")
    )
    if isinstance(basis, Mapping):
        basis = basis.get("name") or basis.get("basis") or as_text(basis)
    return str(basis) if basis else "annual"


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


def _out_of_pocket(a: Assessment) -> tuple[str, str, float, str, str] | None:
    """The applicant's total (planting cost + payment in lieu) as a Summary row, from the findings as the PDF
    adds it up (:func:`treecalc.report.content.plain_answer`); ``None`` when no replacement is required or the
    law has no fund."""
    from treecalc.report.content import plain_answer

    rep, fund = a.replacement, a.fund
    if rep is None or not rep.required or not _fund_name(a):
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
        "replacement_trees_by_tag": rep.trees_by_tag,
        "fund_in_lieu_usd": fund.fund_in_lieu_usd if fund is not None else None,
        "sections": dict(a.labels.sections),  # as the assessment recorded its law's on its date
    }
    p = plain_answer(d)
    if p["total_usd"] is None:
        return None
    s = p["sections"]
    return (
        f"{s['planting_cost_usd']} + {s['fund_in_lieu_usd']}",
        "Total out of pocket",
        float(p["total_usd"]),
        "USD",
        "planting cost + payment in lieu; penalties, if any, are not part of it",
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
    from treecalc.law.registry import REGISTRY
    from treecalc.report.json import dollars_as_shown

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
    """The Trees sheet's columns of a part of the law that is not held (whether a tree needs the permit, whether its
    removal is an offence) saying so in every cell, never the empty or "no" the finding's columns hold; and the
    heading's words for those parts ("" when every part is held)."""
    permit, pen = a.permit, a.penalties
    held: list[str] = []
    for column, part, what in (
        ("permit_needed", permit.not_held if permit is not None else None, "the permit"),
        ("offence", pen.not_held if pen is not None else None, "the penalties"),
    ):
        if part is None:
            continue
        held.append(f"{what}: {part.short}")
        if column in trees:
            trees = trees.assign(**{column: pd.Series(part.short, index=trees.index, dtype=object)})
    if not held:
        return trees, ""
    return trees, ("permit triggers; " if permit is not None and permit.not_held is None else "") + "; ".join(held)


#: The entries of the replacement the sheets cite (their sections as the assessment recorded them)
VIOLATION, PERCENT = "replacement.violation_percent", "replacement.percent"


def _cited(a: Assessment, key: str) -> str:
    """The section of ``key`` as the assessment recorded it (the statement reads no law); a law without that entry
    (a village of data alone) is said as "the law", never another village's section."""
    return str(a.labels.sections.get(key, "the law"))


#: The first rows of the Replacement plan and Fund sheets, in the order of the replacement's reckoning: what is
#: required, the trees needed and planted, the fee for trees not planted, the values planted and unmet, the
#: cost, the natives, the payment to the Fund. Each sheet shows the keys its
#: finding has (:class:`treecalc.results.Replacement`, :class:`treecalc.results.Fund`), then the rest in
#: their own order.
_FINDING_ORDER = (
    "required",
    "percent",
    "value_basis",
    "removed_value_usd",
    "required_value_usd",
    "trees_needed",
    "trees_planted",
    "basis",
    "fee_per_tree_usd",
    "multiplier",
    "placeholder",
    "trees_in_lieu",
    "planted_value_usd",
    "unmet_value_usd",
    "planting_cost_usd",
    "native_share",
    "fund_in_lieu_usd",
)


def _replacement(book: Book, a: Assessment) -> None:
    ws = book.sheet("Replacement plan")
    rep: Replacement | None = a.replacement
    given = finding_fields(rep)
    g = Grid()
    section = (rep.section if rep is not None else "") or ""
    basis = _value_basis(a)
    g.title(f"Replacement plan — {_jurisdiction(a)} — {section or 'no replacement rule'} — value basis: {basis}")
    hdr = kv_header(g, given, "Replacement", "replacement")
    share = rep.native_share if rep is not None else None
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    kv_block(
        g,
        {k: v for k, v in given.items() if k != "native_share"},
        skip=("plan", "stock", "warnings", "notes", "section", "parts", "excluded", "conditional_22f"),
        order=_FINDING_ORDER,
        default_section=section,
        tables=tables,
        list_rows=("not_held",),
        not_held=_replacement_not_held(a),
        skip_empty_text=_counts_trees(a),
    )
    # the parts of the replacement (the violation percentage on trees harmed in offences, the percentage on
    # removals proposed under a permit), each cited as the assessment recorded its entry
    parts = [
        {k: v for k, v in finding_fields(p).items() if k != "tags"} for p in (rep.parts if rep is not None else [])
    ]
    if parts and rep is not None:  # the count in the words the finding said it in (digits when it said none)
        tables.insert(
            0,
            (
                f"Replacement parts ({_cited(a, VIOLATION)}: trees harmed in offences; "
                f"{_cited(a, PERCENT)}: proposed removals "
                f"under a permit for {rep.said.get('min_trees', rep.min_trees)} or more trees)",
                parts,
            ),
        )
    excluded = _records(rep.excluded if rep is not None else [])
    if excluded:
        tables.append(("Trees harmed, not counted (with the reason)", excluded))
    cond = rep.conditional_22f if rep is not None else None
    if cond:  # the violation standard on conditional offences: apart, never in the required value above
        row = {k: v for k, v in dict(cond).items() if k not in ("tags", "text")}
        said = f"{_cited(a, VIOLATION)} on conditional offences: would be required if established, not required"
        tables.append((said, [row]))
    if share is not None and not is_missing(scalar(share)):
        # "predominantly be native" as the finding said it (more than half of the trees planted)
        sv, note = float(scalar(share)), rep.said.get("native_share", "") if rep is not None else ""
        if sv <= 1.0:
            g.add([key_info("native_share", a.labels)[0], sv, "share", section, note], [None, SHARE])
        else:
            g.add([key_info("native_share", a.labels)[0], sv, "%", section, note], [None, NUM])
    last_kv = g.next_row - 1

    plan = _records(rep.plan if rep is not None else [])
    g.blank()
    if not plan and rep is not None and rep.trees_by_tag is not None:
        # a law counting trees by class prices no stock: no mix is made, and "no trees to plant" would contradict the
        # trees it requires (above)
        g.subtitle(f"Planting plan: none is made under {section or 'this law'}, which counts the trees to replant")
    else:
        g.subtitle(
            "Planting plan (the cheapest mix that meets the requirement)" + ("" if plan else ": no trees to plant")
        )
    plan_hdr = None
    if plan:
        keys = ["species_code", "scientific_name", "dbh_in", "unit_cost_usd", "value_per_tree_usd", "count", "native"]
        keys += [k for k in plan[0] if k not in keys]
        # the plan's own line totals when it gives them, else count x unit amounts
        own = "cost_usd" in keys or "planted_value_usd" in keys
        plan_hdr = g.header(
            [header(k, labels=a.labels) for k in keys] + ([] if own else ["Line cost ($)", "Line value ($)"])
        )
        for p in plan:
            cnt = scalar(p.get("count"))
            cost = scalar(p.get("unit_cost_usd"))
            val = scalar(p.get("value_per_tree_usd"))
            lc = cnt * cost if isinstance(cnt, (int, float)) and isinstance(cost, (int, float)) else None
            lv = cnt * val if isinstance(cnt, (int, float)) and isinstance(val, (int, float)) else None
            g.add(
                [p.get(k) for k in keys] + ([] if own else [lc, lv]),
                [key_info(k)[2] for k in keys] + ([] if own else [USD, USD]),
            )
    last_plan = g.next_row - 1

    stock = _records(rep.stock if rep is not None else [])
    if stock:
        sizes = _cited(a, "replacement.deciduous_min_dbh_in")
        records_table(g, f"Replacement stock offered ({sizes} minimum sizes)", stock, a.labels)
    for label, records in tables:
        records_table(g, label, records, a.labels)
    for name, items in (
        ("warnings", rep.warnings if rep is not None else []),
        ("notes", rep.notes if rep is not None else []),
    ):
        if items:
            g.blank()
            g.subtitle(name.capitalize())
            for x in items:
                g.note(name[:-1].capitalize(), as_text(x))
    if plan:  # the replacements against the trees removed, with mortality (the assessment's, computed once)
        ps = a.projection_summary
        g.blank()
        g.subtitle(f"{ps['years']}-year projection")
        g.note("Mortality", f"{ps['mortality_rate']:.1%} of the trees die each year ({ps['mortality_source']})")
        g.note("Payback", as_text(ps["payback"]))
        # the chart's figures, year by year (expected annual benefits under that mortality)
        wide = a.projection.pivot(index="year", columns="series", values="value_usd")
        g.header(["Years from now", f"{REMOVED} ($/yr)", f"{PLANTED} ($/yr)"])
        for year, row in wide.iterrows():
            g.add([int(year), float(row.get(REMOVED, 0.0)), float(row.get(PLANTED, 0.0))], [None, USD, USD])
    widths = g.widths()
    widths[0] = max(widths[0], 30)
    if plan_hdr:
        g.write(
            book,
            ws,
            freeze=f"A{hdr + 1}",
            auto_filter=cell_range(plan_hdr, last_plan, len(g.rows[plan_hdr - 1] or ())),
            widths=widths,
            wrap_cols=(2, 5),
        )
    else:
        g.write(
            book, ws, freeze=f"A{hdr + 1}", auto_filter=cell_range(hdr, last_kv, 5), widths=widths, wrap_cols=(2, 5)
        )


def _counts_trees(a: Assessment) -> bool:
    """Whether the law applied counts replacement trees by class (its finding gives each tree's count): the share
    of value's texts (the percentage note, the policy, the fee schedule's label and calculation) are then empty, and
    no rows."""
    return a.replacement is not None and a.replacement.trees_by_tag is not None


def _replacement_not_held(a: Assessment) -> dict[str, Any]:
    """The replacement's figures resting on a part of the law that is not held: whether it is a violation (the
    penalties'), the removals under a permit (the permit's)."""
    out: dict[str, Any] = {}
    if a.penalties is not None and a.penalties.not_held is not None:
        out["violation"] = a.penalties.not_held
    if a.permit is not None and a.permit.not_held is not None:
        out["removals_under_permit"] = a.permit.not_held
    return out


def _fund_name(a: Assessment) -> str:
    """The name of the fund of the law the assessment applied, as its record gives it (:mod:`treecalc.law.registry`);
    "" for a law without one, or a jurisdiction not known."""
    from treecalc.law.registry import get

    try:
        return get(a.jurisdiction).fund_name
    except ValueError:
        return ""


def _fund(book: Book, a: Assessment) -> None:
    ws = book.sheet("Fund")
    fund: Fund | None = a.fund
    given = finding_fields(fund)
    section = (fund.section if fund is not None else "") or ""
    g = Grid()
    held_not = fund.not_held if fund is not None else None
    fund_name = _fund_name(a) or ("Fund " + held_not.short if held_not is not None else "Fund")
    g.title(f"{fund_name} — {_jurisdiction(a)} — payment in lieu of planting{f' ({section})' if section else ''}")
    hdr = kv_header(g, given, "Payment in lieu", "fund")
    if held_not is not None:  # the fund is named not held, first: the amount below is the law's, its fund is not
        g.add(["Fund paid into", held_not.short, "text", held_not.section, held_not.what])
    kv_block(
        g,
        given,
        skip=("notes", "section", "not_held"),
        order=_FINDING_ORDER,
        default_section=section,
        labels=a.labels,
        skip_empty_text=_counts_trees(a),
    )
    if held_not is not None:
        for row in g.rows:
            if row and row[0][0] == key_info("fund_in_lieu_usd", a.labels)[0]:
                row[4] = (f"the fund it is paid into: {held_not.short}", None, None)
    if fund is not None and fund.placeholder:
        # flag the fee row itself
        for row in g.rows:
            if row and row[0][0] == key_info("fee_per_tree_usd", a.labels)[0]:
                label = str(fund.label or "")
                note = (
                    label
                    if "placeholder" in label.lower()
                    else "PLACEHOLDER: the Board sets the fee by resolution in its fee schedule"
                    + (f" ({label})" if label else "")
                )
                row[4] = (note, None, None)
    last = g.next_row - 1
    notes = [as_text(x) for x in ((fund.notes if fund is not None else None) or [])]
    g.notes(notes)
    widths = g.widths()
    widths[0] = max(widths[0], 30)
    g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=cell_range(hdr, last, 5), widths=widths, wrap_cols=(2, 5))


def _penalties(book: Book, a: Assessment) -> None:
    ws = book.sheet("Penalties")
    pen: Penalties | None = a.penalties
    given = finding_fields(pen, leave=("per_tree", "not_offences"))  # their tables: below, from their columns
    g = Grid()
    sections = (pen.sections if pen is not None else None) or []
    sec_text = as_text(sections) if sections else ""
    held_not = pen.not_held if pen is not None else None
    if held_not is not None:  # no offence is found and no amount given: each figure says so, never 0 or "no"
        g.title(f"Penalties — {_jurisdiction(a)} — {held_not.short}")
    else:
        g.title(
            f'Penalties — {_jurisdiction(a)} — maxima ("up to") on definite offences; conditional ones apart'
            + (f" ({sec_text})" if sec_text else "")
        )
    hdr = kv_header(g, given, "Penalties", "penalty")
    if held_not is not None:
        g.add(["Penalties", held_not.short, "text", held_not.section, held_not.what])
    order = (
        "civil_penalty_max_usd",
        "civil_penalty_conditional_usd",
        "criminal_fine_max_usd",
        "criminal_fine_conditional_usd",
        "fine_max_usd",
        "fine_conditional_usd",
        "offences_definite",
        "offences_conditional",
        "doubled",
        "doubling_reasons",
        "continuing_days",
        "criminal_sections",
        "criminal_alternative_usd",
    )
    kv_block(
        g,
        given,
        skip=("per_tree", "not_offences", "notes", "not_held"),
        order=order,
        default_section=sec_text if len(sec_text) < 40 else "",
        labels=a.labels,
        # the counts, the doubling, the clear cutting, the days: figures of penalties that are not held
        not_held={k: held_not for k, v in given.items() if isinstance(v, (bool, int, float))}
        if held_not is not None
        else None,
    )
    last_kv = g.next_row - 1

    # definite offences (facts given) and conditional ones (an assumed fact) apart, each tree with
    # its own sections; then the trees harmed that are no offence, with the reason
    per_tree = pen.per_tree if pen is not None else []
    pt_hdr = None
    last_pt = g.next_row - 1
    for title, rows in [] if held_not is not None else _offence_groups(book, pen):
        if len(rows):
            h, last = (
                columns_table(g, title, rows[0], rows[1], a.labels)
                if isinstance(rows, tuple)
                else records_table(g, title, rows, a.labels)
            )
            if pt_hdr is None:
                pt_hdr, last_pt = h, last
        elif len(per_tree) or title.startswith("Definite"):
            g.blank()
            g.subtitle(f"{title}: none")
    if held_not is not None:  # not "none": whether a tree's removal is an offence is what is not held
        g.blank()
        g.subtitle(f"Offences, tree by tree: {held_not.short}")

    notes = [as_text(n) for n in ((pen.notes if pen is not None else None) or [])]
    summary = a.summary
    if summary is not None:  # the law's own figures (treecalc.results.ChapterSummary), under its own title
        figures = summary.figures()
        g.blank()
        g.subtitle(summary.title)
        g.header(["Item", "Value", "Unit", "Section", "Note"])
        tables: list[tuple[str, list[dict[str, Any]]]] = []
        kv_block(
            g,
            figures,
            skip=("notes", "warnings"),
            default_section=summary.default_section,
            tables=tables,
            labels=a.labels,
        )
        for label, records in tables:
            records_table(g, f"{summary.short} — {label.lower()}", records, a.labels)
        for name in ("notes", "warnings"):
            items = figures.get(name, []) or []
            notes += [as_text(x) for x in ([items] if isinstance(items, str) else items)]
    g.notes(list(dict.fromkeys(notes)))
    widths = g.widths()
    widths[0] = max(widths[0], 30)
    if pt_hdr:
        ref = cell_range(pt_hdr, last_pt, len(g.rows[pt_hdr - 1] or ()))
    else:
        ref = cell_range(hdr, last_kv, 5)
    g.write(book, ws, freeze=f"A{hdr + 1}", auto_filter=ref, widths=widths, wrap_cols=(2, 5))


def _offence_groups(book: Book, pen: Penalties | None) -> list[tuple[str, Any]]:
    """The Penalties sheet's tables of trees: definite offences, conditional ones, trees harmed that are no offence;
    each as (names, columns) when the finding holds its rows as columns (:class:`treecalc.results.Records`) and the
    rows are streamed, else as records (one dict a row: the per-cell writer, which the tests compare it with)."""
    from treecalc.report.json import plain_columns

    titles = (
        "Definite offences (facts given): each tree with the sections it broke",
        "Conditional offences (rest on a fact that was assumed; not in the maxima)",
        "Harmed, not an offence (listed for the Engineer, no amount)",
    )
    per_tree = pen.per_tree if pen is not None else []
    not_offences = pen.not_offences if pen is not None else []
    held = plain_columns(per_tree) if book.stream_rows else None
    if held is not None:
        names, values = held
        status = np.array(values[names.index("status")], dtype=object) if "status" in names else None
        definite = np.ones(len(per_tree), bool) if status is None else status == "definite"
        conditional = np.zeros(len(per_tree), bool) if status is None else status == "conditional"
        cols = [np.array(v, dtype=object) for v in values]
        rest = plain_columns(not_offences)
        return [
            (titles[0], (names, [c[definite] for c in cols]) if definite.any() else []),
            (titles[1], (names, [c[conditional] for c in cols]) if conditional.any() else []),
            (titles[2], rest if rest is not None and len(not_offences) else _records(not_offences)),
        ]
    rows = _records(per_tree)
    return [
        (titles[0], [r for r in rows if r.get("status", "definite") == "definite"]),
        (titles[1], [r for r in rows if r.get("status") == "conditional"]),
        (titles[2], _records(not_offences)),
    ]


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
    from treecalc.reference.data import price_units

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
        _replacement(book, assessment)
        _fund(book, assessment)
        _penalties(book, assessment)
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
    import json

    from treecalc.report import carriers as fpmod

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
