"""The statement's sheets of the law's findings: the Replacement plan, the Fund and the Penalties (each a block of
Item | Value | Unit | Section | Note rows of its typed finding, :mod:`treecalc.results`, then its tables), written for
:mod:`treecalc.report.statement`. A figure whose part of the law is not held says so (:mod:`treecalc.report.held`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from treecalc.law.registry import get
from treecalc.models.projection import PLANTED, REMOVED
from treecalc.report.cells import columns_table, finding_fields, header, key_info, kv_block, kv_header, records_table
from treecalc.report.held import counts_trees, credits_value, replacement_not_held
from treecalc.report.json import plain_columns
from treecalc.report.xlsx import Book, Grid, as_text, cell_range, is_missing, scalar
from treecalc.results import records as _records
from treecalc.schema import NUM, SHARE, USD

if TYPE_CHECKING:
    from treecalc.assessment import Assessment
    from treecalc.results import Fund, Penalties, Replacement

__all__ = ["fund_name", "fund_sheet", "jurisdiction_name", "penalties_sheet", "replacement_sheet", "value_basis"]


def jurisdiction_name(a: Assessment) -> str:
    """The jurisdiction's full name ("Village of Croton-on-Hudson, Chapter 208") or the key as given."""
    key = str(a.jurisdiction or "")
    try:
        return get(key).name
    except Exception:  # an unknown name: show it as given
        return key


def value_basis(a: Assessment) -> str:
    rep = a.replacement
    basis = (
        (rep.value_basis if rep is not None else None)
        or (a.method or {}).get("value_basis")
        or (a.options or {}).get("value_basis")
    )
    if isinstance(basis, Mapping):
        basis = basis.get("name") or basis.get("basis") or as_text(basis)
    return str(basis) if basis else "annual"


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


def replacement_sheet(book: Book, a: Assessment) -> None:
    ws = book.sheet("Replacement plan")
    rep: Replacement | None = a.replacement
    given = finding_fields(rep)
    g = Grid()
    section = (rep.section if rep is not None else "") or ""
    basis = value_basis(a)
    on = "" if rep is not None and rep.inches_by_tag is not None else f" — value basis: {basis}"
    g.title(f"Replacement plan — {jurisdiction_name(a)} — {section or 'no replacement rule'}{on}")
    hdr = kv_header(g, given, "Replacement", "replacement")
    share = rep.native_share if rep is not None else None
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    # a law replacing the DBH removed (caliper inches) takes its percentage of the inches, on no value basis
    inches = rep is not None and rep.inches_by_tag is not None
    kv_block(
        g,
        {
            k: v
            for k, v in given.items()
            if k != "native_share" and not (inches and k in ("value_basis", "value_basis_label", "percent"))
        },
        skip=("plan", "stock", "warnings", "notes", "section", "parts", "excluded", "conditional_22f"),
        order=_FINDING_ORDER,
        default_section=section,
        tables=tables,
        list_rows=("not_held",),
        not_held=replacement_not_held(a),
        skip_empty_text=counts_trees(a) or credits_value(a),
    )
    if inches and rep is not None and rep.percent is not None:
        g.add(["Percentage of DBH removed", rep.percent, "%", section, "of the caliper inches removed"], [None, NUM])
    # the parts of the replacement (the violation percentage on trees harmed in offences, the percentage on
    # removals proposed under a permit), each cited as the assessment recorded its entry
    parts = [
        {k: v for k, v in finding_fields(p).items() if k != "tags"} for p in (rep.parts if rep is not None else [])
    ]
    if parts and rep is not None and credits_value(a):  # one share, of the trees removed under the permit
        tables.insert(0, (f"Replacement parts ({rep.section}: the trees removed under the permit)", parts))
    elif parts and rep is not None:  # the count in the words the finding said it in (digits when it said none)
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

    plan, plan_hdr, last_plan = _plan_block(g, a, section)

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


def fund_name(a: Assessment) -> str:
    """The name of the fund of the law the assessment applied, as its record gives it (:mod:`treecalc.law.registry`);
    "" for a law without one, or a jurisdiction not known."""
    try:
        return get(a.jurisdiction).fund_name
    except ValueError:
        return ""


def fund_sheet(book: Book, a: Assessment) -> None:
    ws = book.sheet("Fund")
    fund: Fund | None = a.fund
    given = finding_fields(fund)
    section = (fund.section if fund is not None else "") or ""
    g = Grid()
    held_not = fund.not_held if fund is not None else None
    name = fund_name(a) or ("Fund " + held_not.short if held_not is not None else "Fund")
    g.title(f"{name} — {jurisdiction_name(a)} — payment in lieu of planting{f' ({section})' if section else ''}")
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
        skip_empty_text=counts_trees(a) or credits_value(a),
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


def penalties_sheet(book: Book, a: Assessment) -> None:
    ws = book.sheet("Penalties")
    pen: Penalties | None = a.penalties
    given = finding_fields(pen, leave=("per_tree", "not_offences"))  # their tables: below, from their columns
    g = Grid()
    sections = (pen.sections if pen is not None else None) or []
    sec_text = as_text(sections) if sections else ""
    held_not = pen.not_held if pen is not None else None
    if held_not is not None:  # no offence is found and no amount given: each figure says so, never 0 or "no"
        g.title(f"Penalties — {jurisdiction_name(a)} — {held_not.short}")
    else:
        g.title(
            f'Penalties — {jurisdiction_name(a)} — maxima ("up to") on definite offences; conditional ones apart'
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


def _plan_block(g: Grid, a: Assessment, section: str) -> tuple[list[dict[str, Any]], int | None, int]:
    """The Replacement plan sheet's planting plan: its heading and its rows (the plan's, or why there is none).
    Returns (the plan's rows, its header row or None, its last row)."""
    rep = a.replacement
    plan = _records(rep.plan if rep is not None else [])
    g.blank()
    if not plan and counts_trees(a):
        # a law counting trees by class prices no stock: no mix is made, and "no trees to plant" would contradict the
        # trees it requires (above)
        g.subtitle(f"Planting plan: none is made under {section or 'this law'}, which counts the trees to replant")
    elif not plan and credits_value(a):
        # the trees planted are credited by their value against the value required: no stock is priced
        g.subtitle(
            f"Planting plan: none is made under {section or 'this law'}, which credits the trees planted against "
            "the value required"
        )
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
    return plan, plan_hdr, last_plan
