"""What the printable report says, taken from the assessment's JSON (:func:`treecalc.report.json.assessment_json`).

Pure functions of that dict: no law is applied here, figures are only picked, labelled with
their section and, for the applicant's plain answer, added up (planting cost + payment in lieu).
Keys an assessment may leave out (``civil_penalty_conditional_usd``, ``fine_conditional_usd``,
``replacement_parts``: Wesley Hills has no conditional civil penalty, a survey without offences no parts)
are read with ``.get``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from treecalc.law.registry import DEFAULT, get
from treecalc.report.held import parts_not_held
from treecalc.report.json import assessment_json
from treecalc.schema import HARMED

if TYPE_CHECKING:
    from treecalc.assessment import Assessment


def report_data(assessment: Assessment, survey_name: str | None = None) -> dict[str, Any]:
    """``assessment_json(assessment)`` plus what the report prints that the JSON does not carry (yet).

    Adds ``survey_name`` (the file's name) and ``method`` (readings, sections applied, data
    sources, the science notes with the stormwater price in force, the law) when the JSON has no such key;
    everything stays JSON-serialisable.
    """
    d = dict(assessment_json(assessment))
    if survey_name is None:
        src = getattr(getattr(assessment, "survey", None), "source", None) or {}
        survey_name = src.get("file") if isinstance(src, Mapping) else None
    d.setdefault("survey_name", survey_name)
    labels = getattr(assessment, "labels", None)  # the labels quoting its law's numbers, of the assessment's date
    d.setdefault("quoted_labels", {**(labels.columns if labels else {}), **(labels.site if labels else {})})
    # the sections its law cites, as recorded on the assessment's date: the report cites these, never retyped
    d.setdefault("sections", dict(labels.sections) if labels else {})
    # the parts of its law that are not held (the permit, the fund, the penalties), as its findings name them: the
    # report says so where their figures would stand
    d.setdefault(
        "parts_not_held",
        {
            part: {"short": n.short, "section": n.section, "what": n.what, "said": str(n)}
            for part, n in parts_not_held(assessment).items()
        },
    )
    m = getattr(assessment, "method", None) or {}
    d.setdefault(
        "method",
        {
            k: m.get(k)
            for k in ("law", "value_basis_label", "sections_applied", "readings", "data_sources", "science_notes")
            if m.get(k) is not None
        },
    )
    return d


def not_held(d: Mapping[str, Any], part: str) -> dict[str, str] | None:
    """The words of ``part`` ("permit", "fund", "penalties") of the law a report's dict names when it is not held
    (:func:`report_data`'s ``parts_not_held``), else None."""
    return (d.get("parts_not_held") or {}).get(part)


def counts_trees(d: Mapping[str, Any]) -> bool:
    """Whether the law of a report's dict counts replacement trees by class (it gives each tree's count): it prices
    no stock, so the planting is not costed and no plan is made."""
    return d.get("replacement_trees_by_tag") is not None


def credits_value(d: Mapping[str, Any]) -> bool:
    """Whether the law of a report's dict requires a value of the replacements and credits the trees planted against
    it without pricing a stock (:func:`treecalc.report.held.credits_value`): no plan, no planting cost, no count."""
    rep = d.get("replacement") or {}
    return not counts_trees(d) and bool(d.get("replacement_required")) and rep.get("planting_cost_usd") is None


#: the fee schedule's basis (its TOML key's values) in words
BASIS_WORDS = {
    "per_tree": "a fee per tree not planted",
    "value": "the unmet value times a multiplier",
    "count_by_class": "the table's fee for each replacement tree not planted",
    "caliper_inches": "the fee per caliper inch (or per tree) not planted",
}


#: where a fee schedule came from, in words: treecalc.rules.croton_on_hudson.schedule names one given as a dict (as the app gives the one
#: set on its Fund page) "given as a dict", and the statement's "Basis of payment in lieu" line carries it
FEE_SOURCE_WORDS = {"given as a dict": "given by the user (in the app: set on the Fund page)"}


def count_unit(value: Any, unit: Any) -> str:
    """A statement line's unit as said after its value: one "tree", not "1 trees"."""
    unit = "" if unit is None else str(unit)
    one = not isinstance(value, bool) and isinstance(value, (int, float)) and value == 1
    return unit[:-1] if one and unit.endswith("trees") else unit


def fee_source(text: Any, words: Mapping[str, str] = FEE_SOURCE_WORDS) -> str:
    """A fee schedule's source in ``words`` ("given as a dict; fee per tree overridden" keeps its tail)."""
    s = "" if text is None else str(text)
    head = s.split(";")[0]
    return words.get(head, head) + s[len(head) :]


def _num(x: Any) -> float | None:  # any JSON value: a number, text, or something that is neither
    try:
        return None if x is None or isinstance(x, bool) else float(x)
    except (TypeError, ValueError):
        return None


def law_record(d: Mapping[str, Any]) -> Any:
    """The registry's record of the law a report's JSON names (:mod:`treecalc.law.registry`; none named: the
    default law's)."""
    return get(d.get("jurisdiction") or DEFAULT)


def law_parts(d: Mapping[str, Any]) -> dict[str, str]:
    """The section heading each part of the law a report's JSON names (:meth:`~treecalc.law.registry.Jurisdiction.
    parts`), said as the assessment recorded its law's sections (:func:`report_data`'s ``sections``): the report
    reads no law, and a renumbered section heads its part as the law in force on the date numbers it."""
    held = d.get("sections") or {}
    # an assessment recording no sections at all (one built by hand, not by assess()) heads its parts with none
    return dict(law_record(d).parts(held)) if held else {}


def cited(d: Mapping[str, Any], key: str, default: str = "the law") -> str:
    """The section ``key`` cites (an entry's or a provision's key), as the assessment of ``d`` recorded it
    (:func:`report_data`'s ``sections``): the report reads no law. ``default`` for a key the assessment's law does
    not hold (a village of data alone): never another village's section."""
    return str((d.get("sections") or {}).get(key, default))


def summed_sections(*sections: str) -> str:
    """The sections of the parts of a sum, as its cell cites them: "§208-22D + §208-24"; a section cited by two
    parts once (La Grange Park's planting and payment are both § 95.23(I))."""
    return " + ".join(dict.fromkeys(sections))


def plain_answer(d: Mapping[str, Any]) -> dict[str, Any]:
    """What the permit costs the applicant: trees to plant and their cost, the fund payment, the total.

    ``total_usd`` = planting cost (§208-22D) + payment in lieu to the Tree Preservation Fund (§208-24);
    ``None`` when either is not determined. Penalties are not part of it (they are not a permit cost).
    ``placeholders`` says which figure rests on a placeholder rather than a given price.
    """
    rep = d.get("replacement") or {}
    planted = rep.get("trees_planted")
    cost = _num(rep.get("planting_cost_usd"))
    fund = _num(d.get("fund_in_lieu_usd"))
    if counts_trees(d):
        # a count of trees: nothing is 0 but what the count makes so (no tree required, none planted, none in lieu);
        # the planting space not given leaves both the planting and the payment not determined, not $0.00
        none_needed = rep.get("trees_needed") == 0
        if cost is None and (planted == 0 or none_needed):
            cost = 0.0
        if fund is None and (rep.get("trees_in_lieu") == 0 or none_needed):
            fund = 0.0
    else:
        # only what the findings make 0 is 0: nothing required, no tree planted, none in lieu, no fund in the law.
        # A law crediting the value planted counts no tree in lieu: the trees planted not given (or the value
        # required undecided) leave its planting and its payment not determined, never $0.00
        nothing = d.get("replacement_required") is False
        value = credits_value(d)
        if cost is None and (nothing or planted == 0 or (planted is None and not value)):
            cost = 0.0  # nothing to plant costs nothing
        no_fund = not law_record(d).fund_name and not_held(d, "fund") is None
        if fund is None and (nothing or no_fund or (not value and not rep.get("trees_in_lieu"))):
            fund = 0.0
    total = None if cost is None or fund is None else round(cost + fund, 2)
    placeholders = []
    if planted and any("PLACEHOLDER" in str(s) and "cost" in str(s) for s in d.get("assumptions") or []):
        placeholders.append("the unit cost of a replacement tree is a placeholder: give your nursery's price")
    if d.get("fund_placeholder") and rep.get("trees_in_lieu"):
        placeholders.append(
            "the fee per tree paid in lieu is a placeholder until the Board sets it "
            f"({cited(d, 'sections.fee_schedule')})"
        )
    lines = d.get("lines") or []
    law, parts = law_record(d), law_parts(d)
    # each answer's section as its statement line gives it, else the part of the law it is (none: "-")
    sec = {
        k: section_of(lines, item, parts.get(part, "-"))
        for k, item, part in (
            ("permit_required", law.permit_item, "permit"),
            ("trees_needed", "Replacement trees needed", "trees_needed"),
            ("trees_to_plant", "Trees planted", "planting"),
            ("planting_cost_usd", "Planting cost", "planting"),
            ("trees_in_lieu", "Trees not planted", "planting"),
            ("fund_in_lieu_usd", "Payment in lieu", "fund"),
        )
    }
    why = {}  # why a figure is not determined, in the finding's own words (its notes, else the warnings of it)
    if fund is None:
        why["fund_in_lieu_usd"] = in_lieu_note(d) or "; ".join(
            str(w) for w in d.get("warnings") or [] if "not given" in str(w) or "not known" in str(w)
        )
    return {
        "sections": sec,
        "why_not_determined": why,
        "permit_required": d.get("permit_required"),
        "trees_needed": rep.get("trees_needed"),
        "trees_to_plant": planted,
        "trees_in_lieu": rep.get("trees_in_lieu"),
        "planting_cost_usd": cost,
        "fund_in_lieu_usd": fund,
        "total_usd": total,
        "placeholders": placeholders,
    }


def in_lieu_note(d: Mapping[str, Any]) -> str:
    """Why a payment in lieu is what it is, or why it is not determined (the statement line's note, else the fund
    finding's notes)."""
    for ln in d.get("lines") or []:
        if str(ln.get("item") or "").startswith("Paid in lieu") and ln.get("note"):
            return str(ln.get("note"))
    return "; ".join(map(str, (d.get("notes") or {}).get("fund") or []))


def section_of(lines: Iterable[Mapping[str, Any]] | None, item_start: str, default: str) -> str:
    """The section of the first statement line whose item starts with ``item_start`` (else ``default``)."""
    for ln in lines or []:
        if str(ln.get("item", "")).startswith(item_start):
            return str(ln.get("section") or default)
    return default


def penalties(d: Mapping[str, Any]) -> dict[str, list[tuple[str, str, float | None]]]:
    """The penalties as (section, item, USD) rows: ``definite`` and ``conditional`` kept apart.

    Definite: the maxima for offences the facts given establish. Conditional: the maxima that
    hold only if a fact not given turns out so (the ``*_conditional_usd`` keys; when absent, the
    list is empty).
    """
    lines = list(d.get("lines") or [])
    # the maximum's own line: the tiers ("Civil penalty tier", one paragraph each) come first in the statement
    # (a law without civil penalties or criminal fines has no section of them: its rows are not printed)
    civil = section_of(lines, "Civil penalty, maximum", cited(d, "penalty.civil_tiers", ""))
    criminal = section_of(lines, "Criminal fine, maximum", cited(d, "criminal.per_tree_usd", ""))
    # the fine's section is its entry's, as the assessment recorded it: never another law's when it has no line
    fine = section_of(lines, "Fine, maximum", cited(d, "penalty.fine_per_tree_usd", ""))
    definite: list[tuple[str, str, float | None]] = []
    conditional: list[tuple[str, str, float | None]] = []
    for key, sec, item, out in (
        ("civil_penalty_max_usd", civil, "Civil penalty, maximum", definite),
        ("criminal_fine_max_usd", criminal, "Criminal fine, maximum", definite),
        ("fine_max_usd", fine, "Fine, maximum", definite),
        ("civil_penalty_conditional_usd", civil, "Civil penalty, maximum, if the conditions hold", conditional),
        ("fine_conditional_usd", fine, "Fine, maximum, if the conditions hold", conditional),
    ):
        if d.get(key) is not None:
            out.append((sec, item, _num(d.get(key))))
    return {"definite": definite, "conditional": conditional}


#: per-tree columns the report prints, in order, when present (the offence status only where an offence is read):
#: key -> heading; a heading with ``{section}`` cites the section of the part of the law it is of (:data:`PART_OF`)
TREE_COLUMNS = {
    "tag": "Tag",
    "species_label": "Species",
    "dbh_in": "DBH (in)",
    "action": "Action",
    "value_usd": "Value",
    "permit_triggers": "Permit triggers ({section})",
    "counted": "Counted ({section})",
    "exclusion": "Not counted because",
    "offence": "Offence ({section})",
    "offence_status": "Definite / conditional",
    "depends_on": "Depends on",
    "penalty_tier": "Penalty tier",
    "penalty_max_usd": "Penalty max (USD)",
}
#: the part of the law (:attr:`treecalc.law.registry.Jurisdiction.sections`) a column is of
PART_OF = {
    "permit_triggers": "permit_trigger",
    "counted": "replacement",
    "exclusion": "replacement",
    "offence": "offence",
}

#: a column headed otherwise under a law without the part it is of (key -> (part, heading)): under a law without
#: penalty tiers (Chapter 95) the column holds the section of the fine, not a tier
_HEAD_WITHOUT = {"penalty_tier": ("civil_penalty", "Fine under")}

#: the parts whose columns mean nothing under a law without them (counted for a replacement the law does not
#: require): left out; a column of another part the law's record names no section for is headed without one
_ONLY_UNDER_THE_PART = frozenset({"replacement"})


def tree_columns(d: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The per-tree columns (key, heading) of :data:`TREE_COLUMNS` for the law a report's JSON names, each heading
    citing that law's own section (:func:`law_record`): the permit triggers its ``permit_trigger`` (else its
    permit's section), the offence its ``offence``; the columns of a part it does not have are left out."""
    sections = law_parts(d)
    out = []
    for key, head in TREE_COLUMNS.items():
        part = PART_OF.get(key, "")
        sec = (sections.get(part) or (sections["permit"] if part == "permit_trigger" else "")) if part else ""
        if part in _ONLY_UNDER_THE_PART and not sec:
            continue
        if key in _HEAD_WITHOUT and _HEAD_WITHOUT[key][0] not in sections:
            head = _HEAD_WITHOUT[key][1]
        out.append((key, head.format(section=sec) if sec else head.replace(" ({section})", "")))
    return out


def trees_concerned(d: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The per-tree rows the permit is about: harmed or removed, needing a permit, or an offence."""
    # the offences as the penalties' finding gives them, tree by tree (definite or conditional, with the maximum):
    # a conditional offence is never printed as "no"
    offences = {str(o.get("tag")): o for o in d.get("offence_rows") or [] if o.get("tag") is not None}
    out = []
    for r in d.get("per_tree") or []:
        o = offences.get(str(r.get("tag")))
        if o is not None:
            r = {**r, "offence_status": r.get("offence_status") or o.get("status")}
            if r.get("penalty_max_usd") is None:
                r["penalty_max_usd"] = next(
                    (
                        o[k]
                        for k in ("penalty_max_usd", "fine_max_usd", "civil_penalty_max_usd")
                        if o.get(k) is not None
                    ),
                    None,
                )
            if o.get("status") == "conditional" and not r.get("offence"):
                r["offence"] = "if established"
        if (
            r.get("harmed")
            or r.get("permit_needed")
            or r.get("offence")
            or str(r.get("permit_triggers") or "")
            or r.get("action") in ("remove", "removed")
        ):
            out.append({**r, "species_label": species_label(r)})
    return out


def harm_counts(d: Mapping[str, Any]) -> dict[str, int]:
    """Trees removed or damaged (``done``: the harm has happened) and trees only proposed for removal
    (``proposed``), from the per-tree rows' actions: a tree proposed for removal is not yet harmed."""
    acts = [str(r.get("action") or "") for r in d.get("per_tree") or []]
    return {  # topped and excessively pruned trees are harmed as much as damaged ones (offences of their own)
        "done": sum(a in HARMED and a != "remove" for a in acts),
        "proposed": sum(a == "remove" for a in acts),
    }


def species_label(r: Mapping[str, Any]) -> str:
    """The species as surveyed with the i-Tree code it was read as: 'Red maple (ACRU)'."""
    text, code = str(r.get("species") or "").strip(), str(r.get("species_code") or "").strip()
    if not text or text.upper() == code.upper():
        return code
    return f"{text} ({code})" if code else text


def percent_text(percent: Any, parts: Iterable[Mapping[str, Any]] | None = None) -> str:
    """The replacement percentage as read: '120%', or, when the parts differ (120% on the trees harmed in
    offences, §208-22F, and 90% on the proposed removals, §208-22A), each part's: '120% and 90% by part'."""
    if percent is not None:
        return f"{float(percent):g}%"
    pcts = list(dict.fromkeys(f"{float(p['percent']):g}%" for p in parts or [] if p.get("percent") is not None))
    return f"{' and '.join(pcts)} by part" if pcts else "—"


def rejected_rows(d: Mapping[str, Any]) -> list[tuple[Any, str, str, str]]:
    """The survey's rejected rows as (sheet row, column, reason, the value written there) in sheet order.

    The reason drops its own "row N, column 'X': " head (the row and the column have columns of their
    own); the value is the cell of that column as written, "" when the row has no such cell.
    """
    out = []
    for r in d.get("rejected_rows") or []:
        row, col = r.get("source_row"), str(r.get("column") or "")
        reason = str(r.get("reason") or r.get("kind") or "")
        head = f"row {row}, column {col!r}: "
        if reason.startswith(head):
            reason = reason[len(head) :]
        raw = r.get("raw")
        value = raw.get(col) if isinstance(raw, Mapping) else None
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # a spreadsheet's -4 is read as -4.0: printed as written
        out.append((row, _cut(col), reason, "" if value is None else _cut(str(value))))
    return out


def _cut(text: str, limit: int = 60) -> str:
    """A cell as written, on a few lines: line breaks as spaces, cut to ``limit`` characters with its length
    (as the reason cuts it). One row of a PDF table must fit a page: a 10,000-character cell made none."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else f"{flat[:limit]}... ({len(text):,} characters)"
