"""The printable report: one PDF for the applicant to attach and the Village Engineer to sign.

Built with fpdf2 (pure Python, no office suite) from the assessment's JSON dict only
(:func:`treecalc.report.content.report_data`). Every figure is printed beside its section.

References
----------
fpdf2 documentation, "Tables": https://py-pdf.github.io/fpdf2/Tables.html
"""

from __future__ import annotations

import contextvars
import datetime as _dt
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fpdf import FPDF
from fpdf.fonts import FontFace

from treecalc.files import Replacing
from treecalc.messages import joined, letter, shown, voice
from treecalc.report.carriers import ATTACHMENT_NAME
from treecalc.report.content import (
    BASIS_WORDS,
    cited,
    count_unit,
    counts_trees,
    credits_value,
    fee_source,
    harm_counts,
    in_lieu_note,
    law_parts,
    law_record,
    not_held,
    penalties,
    percent_text,
    plain_answer,
    rejected_rows,
    report_data,
    summed_sections,
    tree_columns,
    trees_concerned,
)
from treecalc.report.field_words import quoting, said

if TYPE_CHECKING:
    from treecalc.assessment import Assessment

#: trees listed one per row at most (the Excel statement lists them all)
MAX_TREE_ROWS = 250
#: rejected rows listed one per row at most (the Excel statement and the app's Survey page list them all)
MAX_REJECTED_ROWS = 60
#: a statement item repeated more often than this (one per tree, e.g. "Not counted") is summed up in one row
MAX_REPEATED_LINES = 12

_ASCII = str.maketrans(
    {
        "—": "-",
        "–": "-",
        "−": "-",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "…": "...",
        "•": "-",
        "≥": ">=",
        "≤": "<=",
        "₂": "2",
        "³": "3",
        "→": "->",
        "≈": "~",
        "\u00a0": " ",
    }
)


#: How the report's reader names the options the law engine's lines name (the app: its controls, not the
#: command line's flags); set by :func:`report_pdf` for the text it draws
_WORDS: contextvars.ContextVar[Callable[[str], str] | None] = contextvars.ContextVar("report_words", default=None)

#: The reports: the applicant's (what the permit costs, signed by the applicant and the Engineer) and the
#: violation report for the Engineer (offences, penalties, the replacement after a violation)
KINDS = ("permit", "violation")


#: The report's typeface: Fira Sans (fontpkg-fira-sans: static regular/bold/italic files, Latin with Polish,
#: Greek, √, ², arrows), and Noto Sans SC (pylopdf-fonts-zh-cn) for what it lacks, Chinese and Japanese names
#: and notes; both embedded (subset), no system font assumed. The core fonts drew Latin-1 only ("??d²").
FONT = "firasans"
_CJK = "notosanssc"


def _fonts(doc: FPDF, text: str) -> None:
    """Embed the report's fonts; the CJK one (8 MB to read) only when ``text`` has a character Fira lacks."""
    import fontpkg_fira_sans  # heavy: fontpkg_fira_sans, loaded only when this runs

    files = fontpkg_fira_sans.ROOT / "files"
    for style, name in (("", "Regular"), ("B", "Bold"), ("I", "Italic"), ("BI", "BoldItalic")):
        doc.add_font(FONT, style, files / f"FiraSans-{name}.ttf")
    have: Mapping[int, Any] = getattr(doc.fonts[FONT], "cmap", {})  # a TTFFont's code points -> glyphs
    if any(ord(ch) not in have for ch in set(text) if ch.isprintable() and not ch.isspace()):
        import pylopdf_fonts_zh_cn  # heavy: pylopdf_fonts_zh_cn, loaded only when this runs

        doc.add_font(_CJK, "", pylopdf_fonts_zh_cn.sans_path())
        doc.set_fallback_fonts([_CJK], exact_match=False)


def _t(x: Any) -> str:
    """Text as the report draws it (Unicode: the embedded fonts have it; dashes and ₂ are written as before)."""
    s = "" if x is None else str(x)
    if "‹" in s:  # a keyword (treecalc.messages): in the words given, else the reader's in force
        words = _WORDS.get()
        s = words(s) if words is not None else shown(s)
    return said(s).translate(_ASCII)  # a field name named in a note: its label


def usd(x: Any) -> str:
    """Dollars to the cent, the sign before the dollar sign (-$950.00, as the app writes it); "not determined"
    for nothing or a number not set (NaN)."""
    if x is None:
        return "not determined"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if v != v:
        return "not determined"
    return ("-" if round(v, 2) < 0 else "") + f"${abs(v):,.2f}"


def _cell(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:,.2f}"
    if isinstance(v, (list, tuple)):
        return "; ".join(map(str, v))
    return str(v)


class _Doc(FPDF):
    title_text = "Tree report"

    def header(self) -> None:
        self.set_font(FONT, "I", 8)
        self.cell(0, 5, _t(self.title_text), align="R")
        self.ln(7)

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(FONT, "I", 8)
        self.cell(0, 5, f"page {self.page_no()} of {{nb}}", align="C")

    def h1(self, text: str) -> None:
        self.set_font(FONT, "B", 16)
        self.multi_cell(0, 8, _t(text), new_x="LMARGIN", new_y="NEXT")
        self.ln(1)

    def h2(self, text: str) -> None:
        if self.get_y() > self.h - 45:
            self.add_page()
        self.ln(3)
        self.set_font(FONT, "B", 12)
        self.multi_cell(0, 7, _t(text), new_x="LMARGIN", new_y="NEXT")
        self.set_font(FONT, "", 9)

    def para(self, text: str, style: str = "", size: float = 9) -> None:
        self.set_font(FONT, style, size)
        self.multi_cell(0, 4.5, _t(text), new_x="LMARGIN", new_y="NEXT", align="L")

    def bullets(self, items: Iterable[Any]) -> None:
        self.set_font(FONT, "", 9)
        for it in items:
            self.multi_cell(0, 4.5, _t(f"- {it}"), new_x="LMARGIN", new_y="NEXT", align="L")

    def grid(
        self, head: Sequence[str], rows: Iterable[Sequence[Any]], widths: Sequence[float] | None = None, size: float = 8
    ) -> None:
        self.set_font(FONT, "", size)
        with self.table(
            col_widths=widths,
            text_align="LEFT",
            line_height=1.25 * size * 0.3528 + 1,
            headings_style=FontFace(emphasis="BOLD", fill_color=(225, 235, 225)),
            padding=0.8,
        ) as tb:
            r = tb.row()
            for h in head:
                r.cell(_t(h))
            for row in rows:
                r = tb.row()
                for v in row:
                    r.cell(_t(_cell(v)))
        self.ln(2)


def _answer(doc: _Doc, d: Mapping[str, Any]) -> None:
    p = plain_answer(d)
    doc.h2("What this permit costs you")
    s = p["sections"]
    fund = law_record(d).fund_name
    permit, into = not_held(d, "permit"), not_held(d, "fund")
    rows = [
        (s["permit_required"], "Permit required", permit["short"] if permit else _cell(p["permit_required"])),
        (s["trees_needed"], "Replacement trees required", _cell(p["trees_needed"])),
        (s["trees_to_plant"], "Replacement trees to plant", _cell(p["trees_to_plant"])),
        (s["planting_cost_usd"], "Cost of planting them (supplied and planted)", usd(p["planting_cost_usd"])),
        (s["trees_in_lieu"], "Trees the site cannot take (paid in lieu)", _cell(p["trees_in_lieu"])),
        (
            s["fund_in_lieu_usd"],
            f"Payment to the {fund}"
            if fund
            else "Payment in lieu" + (f"; the fund it is paid into: {into['short']}" if into else ""),
            usd(p["fund_in_lieu_usd"]),
        ),
    ]
    if credits_value(d):  # the law requires a value, not trees: no count is said, and none paid for in lieu
        rows[1] = (s["trees_needed"], "Replacement trees required", "none counted: the law requires a value")
        del rows[4]
    rows = [r for r in rows if r[0] != "-"]  # a figure the law applied does not have (Wesley Hills: no fund)
    total_sec = (
        summed_sections(*(x for x in (s["planting_cost_usd"], s["fund_in_lieu_usd"]) if x != "-")) or "no charge"
    )
    rows.append((total_sec, "Total out of pocket", usd(p["total_usd"])))
    doc.grid(["Section", "Item", "Amount"], rows, widths=(30, 100, 50), size=9)
    doc.para(
        f"Total out of pocket: {usd(p['total_usd'])} (planting cost + payment in lieu; penalties, if any, "
        "are not part of it: see Penalties).",
        "B",
    )
    why = p["why_not_determined"].get("fund_in_lieu_usd")
    if why and s["fund_in_lieu_usd"] != "-":  # the figure is printed "not determined": say why, in its words
        doc.para(f"The payment in lieu is not determined: {why.rstrip('.')}.", "I")
    for ph in p["placeholders"]:
        doc.para(f"Note: {ph}.", "I")


def _triggers(doc: _Doc, d: Mapping[str, Any]) -> None:
    permit = law_parts(d).get("permit")
    doc.h2("Permit triggers" + (f" ({permit})" if permit else ""))
    lines = [
        ln
        for ln in d.get("lines") or []
        if "trigger" in str(ln.get("item", "")).lower() or "permit required" in str(ln.get("item", "")).lower()
    ]
    if lines:
        doc.grid(
            ["Section", "Item", "What holds", "Trees (tags)"],
            [(ln.get("section"), ln.get("item"), ln.get("value"), ln.get("note")) for ln in lines],
            widths=(25, 35, 75, 45),
        )
    else:
        doc.para("No permit trigger holds.")
    if d.get("permit_exceptions"):
        doc.para("Exceptions applied: " + ", ".join(map(str, d["permit_exceptions"])))


def _plan(doc: _Doc, d: Mapping[str, Any]) -> None:
    rep = d.get("replacement") or {}
    unit = (d.get("options") or {}).get("value_unit", "USD")
    section = law_parts(d).get("replacement")  # a law with no replacement rule has no plan
    doc.h2("Replacement and the planting plan" + (f" ({section})" if section else ""))
    if section and counts_trees(d):
        _count_by_class(doc, d, section)
        return
    if section and credits_value(d):
        _lines_of(doc, d, section)
        doc.para(
            f"No planting plan is made under {section}: it requires a value, credits the trees planted against it "
            "and prices no stock."
        )
        return
    if not section:
        doc.para(
            "; ".join(
                f"{ln.get('section')}: {ln.get('item')}: {_cell(ln.get('value'))} {ln.get('note') or ''}"
                for ln in d.get("lines") or []
                if str(ln.get("item", "")).startswith("Replacement")
            )
        )
        return
    pct = cited(d, "replacement.percent")
    doc.grid(
        ["Section", "Item", "Value"],
        [
            (pct, "Replacement required", _cell(d.get("replacement_required"))),
            (
                cited(d, "sections.valuation_method"),
                f"Value of the trees removed ({unit})",
                _cell(d.get("removed_value_usd")),
            ),
            (
                joined(pct, cited(d, "replacement.violation_percent")),
                "Replacement percentage",
                percent_text(d.get("replacement_percent"), d.get("replacement_parts")),
            ),
            (pct, f"Value required of the replacements ({unit})", _cell(d.get("required_value_usd"))),
            (
                cited(d, "sections.native_species"),
                "Native share of the replacements",
                "" if rep.get("native_share") is None else f"{float(rep['native_share']):.0%}",
            ),
        ],
        widths=(30, 100, 50),
    )
    parts = d.get("replacement_parts") or []
    if parts:
        doc.para("The required value, part by part:", "B")
        doc.grid(
            ["Section", "Percent", "Trees", f"Value ({unit})", f"Required ({unit})"],
            [
                (p.get("section"), p.get("percent"), p.get("trees"), p.get("value_usd"), p.get("required_value_usd"))
                for p in parts
            ],
        )
    plan = rep.get("plan") or []
    if plan:
        doc.grid(
            [
                "Species",
                "DBH (in)",
                "Trees",
                "Unit cost (USD)",
                f"Value per tree ({unit})",
                f"Value planted ({unit})",
                "Cost (USD)",
            ],
            [
                (
                    f"{p.get('species_code')} {p.get('common_name') or ''}".strip(),
                    p.get("dbh_in"),
                    p.get("count"),
                    p.get("unit_cost_usd"),
                    p.get("value_per_tree_usd"),
                    p.get("planted_value_usd"),
                    p.get("cost_usd"),
                )
                for p in plan
            ],
            widths=(48, 18, 16, 24, 26, 26, 22),
        )
        d_ = letter(cited(d, "sections.in_lieu"))
        doc.para(f"Plan: the cheapest mix of the stock offered that carries the required value ({pct}, {d_}).")
    else:
        doc.para("No planting plan: nothing to replace.")


def _count_by_class(doc: _Doc, d: Mapping[str, Any], section: str) -> None:
    """The replacement of a law counting trees by class: its statement lines (the trees removed in each class, the
    trees required, planted and paid for in lieu), not the share of value's percentage and values it has not."""
    _lines_of(doc, d, section)
    doc.para(f"No planting plan is made under {section}: it counts the trees to replant, it prices no stock.")


def _lines_of(doc: _Doc, d: Mapping[str, Any], section: str) -> None:
    """The statement lines of the replacement (``section`` and its subsections), as a table."""
    rows = [
        (
            ln.get("section"),
            ln.get("item"),
            _line_value(ln),
            count_unit(ln.get("value"), ln.get("unit")),
            ln.get("note"),
        )
        for ln in d.get("lines") or []
        if str(ln.get("section") or "").startswith(section) or str(ln.get("item") or "").startswith("Replacement")
    ]
    doc.grid(["Section", "Item", "Value", "Unit", "Note"], rows, widths=(30, 40, 25, 15, 70))


def _line_value(ln: Mapping[str, Any]) -> str:
    """A statement line's value as the report prints it (the fee schedule's basis in words)."""
    v = ln.get("value")
    if str(ln.get("unit") or "").startswith("USD") and isinstance(v, int) and not isinstance(v, bool):
        v = float(v)  # whole dollars to the cent, as every amount of the report: 4,000.00 USD, not 4000 USD
    return _cell(BASIS_WORDS.get(str(v), v) if str(ln.get("item")).startswith("Basis of payment") else v)


def _line_note(ln: Mapping[str, Any]) -> Any:
    """A statement line's note as the report prints it (the fee schedule's source in words)."""
    note = ln.get("note")
    return fee_source(note) if str(ln.get("item")).startswith("Basis of payment") else note


def _fund(doc: _Doc, d: Mapping[str, Any]) -> None:
    law = law_record(d)
    into = not_held(d, "fund")
    if into is not None:  # the payment is the law's, the fund it goes into is not held
        own = law_parts(d).get("fund", "") or into["section"]
        doc.h2(f"Payment in lieu ({own})")
        doc.grid(
            ["Section", "Item", "Value", "Note"],
            [
                (into["section"], "Fund paid into", into["short"], into["what"]),
                (own, "Payment in lieu", usd(d.get("fund_in_lieu_usd")), in_lieu_note(d)),
            ],
            widths=(25, 65, 35, 55),
        )
        return
    if not law.fund_name:
        return  # no fund in this law
    own = law_parts(d).get("fund", "")
    doc.h2(f"{law.fund_name} ({own})")
    # the lines of the Fund's section and of the bond's (forfeited bonds go to the Fund), as the law numbers them;
    # a law other than Chapter 208 heads its fund lines with its own section
    fund, bond = cited(d, "sections.fund"), cited(d, "sections.bond")
    rows = [
        (ln.get("section"), ln.get("item"), _line_value(ln), _line_note(ln))
        for ln in d.get("lines") or []
        if str(ln.get("section", "")).startswith((fund, bond)) or (own and ln.get("section") == own)
    ]
    if not rows:
        rows = [(own or fund, f"Payment in lieu to the {law.fund_name}", usd(d.get("fund_in_lieu_usd")), "")]
    doc.grid(["Section", "Item", "Value", "Note"], rows, widths=(25, 65, 35, 55))
    if d.get("fund_placeholder"):
        doc.para(
            "The fee per tree is a placeholder until the Village Board sets it by resolution "
            f"({cited(d, 'sections.fee_schedule')}).",
            "I",
        )


def _penalties(doc: _Doc, d: Mapping[str, Any]) -> None:
    held_not = not_held(d, "penalties")
    if held_not is not None:  # no offence is found and no amount given: never "Offences: 0" nor "none"
        doc.h2(f"Penalties ({held_not['section']})")
        doc.para(
            f"Penalties: {held_not['short']}: {held_not['what']}. Whether a removal is an offence, and what it would "
            "cost, is not given.",
            "B",
        )
        return
    pen = penalties(d)
    doc.h2("Penalties")
    doc.para(f"Offences (trees harmed without a required permit): {_cell(d.get('offences'))}.")
    doc.para("Definite (on the facts given):", "B")
    doc.grid(["Section", "Item", "Up to (USD)"], pen["definite"] or [("", "none", "")], widths=(40, 100, 40))
    doc.para("Conditional (only if a fact not given turns out so):", "B")
    if pen["conditional"]:
        doc.grid(["Section", "Item", "Up to (USD)"], pen["conditional"], widths=(40, 100, 40))
    elif "civil_penalty_conditional_usd" in d or "fine_conditional_usd" in d:
        doc.para("None.")
    else:
        doc.para(
            "This version of the assessment does not separate conditional penalties; a fact that was not "
            "given creates no offence and no charge."
        )


def _trees(doc: _Doc, d: Mapping[str, Any]) -> None:
    rows = trees_concerned(d)
    doc.h2(f"Trees concerned ({len(rows)})")
    if not rows:
        doc.para("No tree is removed, harmed or needs a permit.")
        return
    unit = (d.get("options") or {}).get("value_unit", "USD")
    rows = _tree_parts(d, rows)
    cols = [(k, f"{h} ({unit})" if k == "value_usd" else h) for k, h in tree_columns(d) if any(k in r for r in rows)]
    # the columns only a law read in part, or counting trees, has: beside the action
    at = next((i + 1 for i, (k, _) in enumerate(cols) if k == "action"), len(cols))
    parts = law_parts(d)
    if not_held(d, "permit") is not None:
        cols.insert(at, ("permit_needed", f"Permit needed ({parts.get('permit', '')})".replace(" ()", "")))
    if counts_trees(d):
        cols.insert(at, ("replacement_trees", f"Replacement trees ({parts.get('replacement', '')})".replace(" ()", "")))
    doc.grid([h for _, h in cols], [[r.get(k) for k, _ in cols] for r in rows[:MAX_TREE_ROWS]], size=6.5)
    if len(rows) > MAX_TREE_ROWS:
        more = len(rows) - MAX_TREE_ROWS
        doc.para(f"... and {more:,} more tree{'s' if more > 1 else ''}: every tree is in the Excel statement.", "I")


def _tree_parts(d: Mapping[str, Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trees' rows with what the law's parts not held leave undecided said so (whether a removal needs the
    permit, whether it is an offence: not held, never "no"), and a count-by-class law's replacement trees of each."""
    said: dict[str, Any] = {}
    for key, part in (("permit_needed", "permit"), ("offence", "penalties")):
        held_not = not_held(d, part)
        if held_not is not None:
            said[key] = held_not["short"]
    by_tag = d.get("replacement_trees_by_tag")
    if not said and by_tag is None:
        return rows
    out = []
    for r in rows:
        r = {**r, **{k: v for k, v in said.items() if k in r}}
        if by_tag is not None and str(r.get("tag")) in by_tag:
            n = by_tag[str(r.get("tag"))]
            r["replacement_trees"] = "undecided (see the warnings)" if n is None else n
        out.append(r)
    return out


def _rejected(doc: _Doc, d: Mapping[str, Any]) -> None:
    """The rows of the survey that could not be used (the statement's "Rows rejected" line points here)."""
    rows = rejected_rows(d)
    if not rows:
        return
    doc.h2(f"Rejected rows ({len(rows):,})")
    doc.para("Rows of the survey that could not be used, so are not valued or counted: correct them and assess again.")
    doc.grid(["Sheet row", "Column", "Reason", "Value written"], rows[:MAX_REJECTED_ROWS], widths=(18, 32, 100, 30))
    if len(rows) > MAX_REJECTED_ROWS:
        more = len(rows) - MAX_REJECTED_ROWS
        doc.para(
            f"... and {more:,} more rejected row{'s' if more > 1 else ''}: every one is on the Rejected rows sheet "
            "of the Excel statement (and in the app, Survey page, Rejected rows).",
            "I",
        )


def statement_rows(lines: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """The statement's lines as rows; an item given once per tree more than ``MAX_REPEATED_LINES`` times becomes
    one row per section with the count (every tree is in the Trees concerned table and the Excel statement)."""
    counts = Counter(str(ln.get("item")) for ln in lines)
    rows: list[tuple[Any, ...]] = []
    done: set[tuple[str, str]] = set()
    for ln in lines:
        item, sec = str(ln.get("item")), str(ln.get("section"))
        if counts[item] <= MAX_REPEATED_LINES:
            rows.append((sec, item, _line_value(ln), count_unit(ln.get("value"), ln.get("unit")), _line_note(ln)))
        elif (sec, item) not in done:
            done.add((sec, item))
            n = sum(1 for x in lines if str(x.get("item")) == item and str(x.get("section")) == sec)
            rows.append((sec, item, f"{n:,} trees", "trees", "one line per tree in the Excel statement"))
    return rows


def _statement(doc: _Doc, d: Mapping[str, Any]) -> None:
    doc.h2("The statement, section by section")
    doc.grid(
        ["Section", "Item", "Value", "Unit", "Note"],
        statement_rows(list(d.get("lines") or [])),
        widths=(25, 50, 45, 15, 45),
        size=7,
    )


def _method(doc: _Doc, d: Mapping[str, Any]) -> None:
    m = d.get("method") or {}
    doc.h2("Readings, method and assumptions")
    doc.para(f"Value basis: {d.get('value_basis_label') or d.get('value_basis')}")
    if m.get("law"):
        doc.para(f"Law: {m['law']}")
    if m.get("sections_applied"):
        doc.para("Sections applied: " + ", ".join(map(str, m["sections_applied"])))
    lists = (
        (m, "readings", "Readings of unclear law text:"),
        (m, "data_sources", "Data sources:"),
        (m, "science_notes", "Science notes (prices and what the tables do not say):"),
        (d, "assumptions", "Assumptions (facts not given):"),
        (d, "warnings", "Warnings:"),
    )
    for where, key, title in lists:
        if where.get(key):
            doc.para(title, "B")
            doc.bullets(where[key])


def _signatures(doc: _Doc, kind: str = "permit", permit: Mapping[str, str] | None = None) -> None:
    """The signatures; ``permit``: the permit's part of the law is not held, so who grants it is not known (the
    approving authority is said not held, never another law's Village Engineer)."""
    if doc.get_y() > doc.h - 80:
        doc.add_page()
    doc.h2("Signatures" if kind == "permit" else "Signature")
    authority = "Village Engineer" if permit is None else f"Approving authority: {permit['short']}"
    signers = ("Applicant (or the applicant's arborist)", authority) if kind == "permit" else (authority,)
    for who in signers:
        doc.ln(4)
        doc.para(who, "B")
        doc.ln(8)
        doc.cell(90, 5, "_" * 45)
        doc.cell(10, 5, "")
        doc.cell(60, 5, "_" * 28, new_x="LMARGIN", new_y="NEXT")
        doc.set_font(FONT, "", 8)
        doc.cell(90, 4, "Signature")
        doc.cell(10, 4, "")
        doc.cell(60, 4, "Date", new_x="LMARGIN", new_y="NEXT")
        doc.ln(4)
        doc.cell(90, 5, "_" * 45, new_x="LMARGIN", new_y="NEXT")
        doc.para("Name (print)", size=8)
    doc.ln(3)
    who = "Engineer's" if permit is None else "The authority's"
    if kind == "permit":
        doc.para(f"{who} decision:  [ ] approved   [ ] approved with conditions   [ ] denied", size=9)
    else:
        doc.para(f"{who} finding:  [ ] violation found   [ ] no violation", size=9)


def _fingerprint(doc: _Doc, d: Mapping[str, Any], kind: str = "permit") -> None:
    """The fingerprint's figures in a short closing section, and the whole of it attached as JSON, which
    ``treecalc verify`` reads (:mod:`treecalc.report.fingerprint`), with the report's kind and whether the app's
    words were applied (``report``), so the report can be written again as it was."""

    fp = d.get("fingerprint")
    if not fp:
        return
    survey = fp.get("survey") or {}
    doc.ln(3)
    doc.para(
        f"Fingerprint (check with: treecalc verify REPORT.pdf SURVEY): treecalc {fp.get('treecalc_version')}; "
        f"survey {survey.get('file')} SHA-256 {survey.get('sha256')}; {len(fp.get('data_files') or {})} law and "
        f"species files (SHA-256 in the attached {ATTACHMENT_NAME}); result SHA-256 {fp.get('result_sha256')}.",
        "I",
        7,
    )
    # whose words the keywords are in: the app's (given), the command line's (in force), or the library's (None)
    report = {"kind": kind, "words": "app" if _WORDS.get() is not None else voice()}
    text = json.dumps({**fp, "report": report}, ensure_ascii=False, sort_keys=True).encode("utf-8")
    doc.embed_file(bytes=text, basename=ATTACHMENT_NAME, mime_type="application/json")


def report_pdf(
    d: Mapping[str, Any],
    *,
    survey_name: str | None = None,
    generated: _dt.date | None = None,
    kind: str = "permit",
    words: Callable[[str], str] | None = None,
) -> bytes:
    """The report of an assessment's JSON dict (:func:`treecalc.report.json.assessment_json` or :func:`report_data`), as PDF bytes.

    ``kind`` "permit": the applicant's report (what the permit costs, the applicant's and the Engineer's
    signatures); "violation": the violation report for the Engineer (offences and penalties first, no
    permit cost, the Engineer's signature only). ``words`` renders a line that names a keyword
    (:mod:`treecalc.messages`) as its reader sets it (the app: the control on its page); without it, the words of the
    reader in force (:func:`treecalc.messages.speaking`: the command line's flags), else the keyword itself."""
    if kind not in KINDS:
        raise ValueError(f"report kind {kind!r}: one of {', '.join(KINDS)}")

    token = _WORDS.set(words)
    try:
        with quoting(d.get("quoted_labels") or {}):  # a field named in a note: by the assessment's labels
            return _report(d, survey_name, generated, kind)
    finally:
        _WORDS.reset(token)


def _report(d: Mapping[str, Any], survey_name: str | None, generated: _dt.date | None, kind: str) -> bytes:
    name = survey_name or d.get("survey_name") or "survey"
    doc = _Doc(format="letter")
    _fonts(doc, f"{name} {json.dumps(d, ensure_ascii=False, default=str)}")
    violation = kind == "violation"
    doc.title_text = f"treecalc - {name}" + (" - violation report" if violation else "")
    doc.set_title(_t(f"Tree {'violation ' if violation else ''}report: {name}"))
    doc.set_creator("treecalc")
    doc.set_auto_page_break(True, margin=15)
    doc.alias_nb_pages()
    doc.add_page()
    doc.h1(
        "Tree violation: offences, penalties and replacement, for the Village Engineer"
        if violation
        else "Tree removal: permit, replacement, fund and penalties"
    )
    doc.para(f"Survey: {name}", "B", 11)
    doc.para(f"Law: {d.get('jurisdiction_name') or d.get('jurisdiction')}")
    h = harm_counts(d)
    doc.para(
        f"Trees: {_cell(d.get('trees'))} assessed of {_cell(d.get('rows_read'))} rows read "
        f"({_cell(d.get('rejected'))} rejected); removed or damaged: {h['done']:,}; "
        f"proposed for removal: {h['proposed']:,}."
    )
    doc.para(
        f"Prepared {(generated or _dt.date.today()).isoformat()} with treecalc. Every figure is given with the "
        "section of the law it rests on.",
        "I",
        8,
    )
    parts = (
        (_penalties, _trees, _plan, _fund, _triggers, _rejected, _statement, _method)
        if violation
        else (_answer, _triggers, _plan, _fund, _penalties, _trees, _rejected, _statement, _method)
    )
    for part in parts:
        part(doc, d)
    _signatures(doc, kind, not_held(d, "permit"))
    _fingerprint(doc, d, kind)
    return bytes(doc.output())


def write_pdf(assessment: Assessment, path: str | os.PathLike[str], survey_name: str | None = None) -> None:
    """Write the report of ``assessment`` to ``path`` (via a temporary file renamed in place)."""
    data = report_pdf(report_data(assessment, survey_name))
    # the user's usual mode (0644 for most), as the statement has: a report is a file meant to be shared
    with Replacing(path, user_mode=True) as tmp:
        Path(tmp).write_bytes(data)
