"""What a case owes, line by line: the assessment's penalties and replacement, the Planning Board's civil penalty,
the payments, the bonds and the plantings the register holds.

The register computes no penalty and no replacement: it reads them from the assessment's JSON (its maxima, per tree
with the sections the assessment names) and adds only what people recorded. A penalty the Planning Board has not
assessed is owed by nobody: until a decision is recorded the civil penalty stays the assessment's maximum (and
conditional maximum), said so, and out of the balance. A criminal fine is a court's to impose: never in the balance.
The sections come from the law file (the civil penalty bracket, the criminal fine entry) and from the assessment.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from treecalc.law import entries, entry
from treecalc.money import cents as to_cents
from treecalc.register import models as m
from treecalc.register import voids

#: The law whose Planning Board assesses the civil penalty after a hearing
PENALTY_LAW = "croton_on_hudson"
#: the law file's bracket of civil penalties and the entry of the criminal fine: their sections are cited
CIVIL_BRACKET = "penalty.civil_tiers"
CRIMINAL_ENTRY = "criminal.per_tree_usd"

Usd = Callable[[int | None], str | None]


def civil_section() -> str:
    """The section of the civil penalty (the law file's bracket, as it cites it)."""
    return entries(PENALTY_LAW)[CIVIL_BRACKET].section


def criminal_section() -> str:
    return entry(PENALTY_LAW, CRIMINAL_ENTRY).section


def cents(value: Any) -> int | None:
    """An amount of the assessment's JSON (dollars, a number or exact text) as whole cents; None when not given."""
    if value is None or isinstance(value, bool):
        return None

    return int(to_cents(Decimal(str(value))) * 100)


def in_force(decisions: list[Any]) -> Any | None:  # as decided_cents picks it
    """The decision owed among a case's civil penalty decisions: the latest by its date (then the last recorded)."""
    return max(decisions, key=lambda d: (d.decided_on, d.id)) if decisions else None


def decided_cents(s: Session) -> dict[int, int]:
    """Each case's civil penalty in force (cents), for the list of cases: one query."""
    rows = s.scalars(
        select(m.PenaltyDecision).where(voids.live(m.PenaltyDecision, "penalty")).order_by(m.PenaltyDecision.case_id)
    ).all()
    by_case: dict[int, list[Any]] = {}
    for r in rows:
        by_case.setdefault(r.case_id, []).append(r)
    return {cid: max(ds, key=lambda d: (d.decided_on, d.id)).amount_cents for cid, ds in by_case.items()}


def owed_balance(fund: int | None, penalty: int | None, paid: int) -> int | None:
    """What is still owed: the payment in lieu and the civil penalty assessed, less what was paid; None when neither
    is known (no assessment, no decision): nothing is said owed that was not found."""
    if fund is None and penalty is None:
        return None
    return (fund or 0) + (penalty or 0) - paid


def penalties(j: dict[str, Any] | None, usd: Usd) -> dict[str, Any] | None:
    """The assessment's penalties: civil maximum and conditional maximum, criminal (or a village's fine) maximum,
    and each offence tree with the sections the assessment names."""
    if j is None:
        return None
    trees = [
        {
            "tag": r.get("tag"),
            "species_code": r.get("species_code"),
            "dbh_in": r.get("dbh_in"),
            "action": r.get("action"),
            "status": r.get("status"),
            "offence_sections": r.get("offence_sections"),
            "depends_on": r.get("depends_on") or None,
            "civil_section": r.get("tier"),
            "civil_max_usd": usd(cents(r.get("max_usd"))),
            "criminal_section": r.get("criminal_section"),
            "criminal_max_usd": usd(cents(r.get("criminal_max_usd"))),
            "fine_max_usd": usd(cents(r.get("fine_max_usd"))),  # a village whose chapter sets one fine (Ch. 95)
        }
        for r in j.get("offence_rows") or []
    ]
    return {
        "civil_max_usd": usd(cents(j.get("civil_penalty_max_usd"))),
        "civil_conditional_usd": usd(cents(j.get("civil_penalty_conditional_usd"))),
        "civil_doubled": bool(j.get("civil_penalty_doubled")),
        "criminal_max_usd": usd(cents(j.get("criminal_fine_max_usd"))),
        "criminal_conditional_usd": usd(cents(j.get("criminal_fine_conditional_usd"))),
        "fine_max_usd": usd(cents(j.get("fine_max_usd"))),
        "fine_conditional_usd": usd(cents(j.get("fine_conditional_usd"))),
        "offences_definite": j.get("offences_definite"),
        "offences_conditional": j.get("offences_conditional"),
        "trees": trees,
    }


def civil_ceiling(j: dict[str, Any]) -> tuple[int, int]:
    """The assessment's civil penalty maximum and conditional maximum (cents): what the Board may assess at most."""
    return cents(j.get("civil_penalty_max_usd")) or 0, cents(j.get("civil_penalty_conditional_usd")) or 0


def replacement(j: dict[str, Any] | None, shown: dict[str, Any], usd: Usd) -> dict[str, Any] | None:
    """The replacement the assessment requires (trees and value, with its sections) against the trees the register
    holds planted; the value planted is the trees planted at the assessment's value per replacement tree."""
    if j is None:
        return None
    rep = j.get("replacement") or {}
    parts = [
        {
            "section": p.get("section"),
            "percent": p.get("percent"),
            "trees_harmed": p.get("trees"),
            "value_usd": usd(p.get("value_cents", cents(p.get("value_usd")))),
            "required_value_usd": usd(p.get("required_value_cents", cents(p.get("required_value_usd")))),
        }
        for p in j.get("replacement_parts") or []
    ]
    per_tree = cents(rep.get("value_per_tree_usd"))
    needed, in_lieu = int(rep.get("trees_needed") or 0), int(rep.get("trees_in_lieu") or 0)
    on_site = int(rep.get("trees_planted") or 0)
    planted = int(shown.get("trees_planted") or 0)
    dead = sum(p["trees_dead"] or 0 for p in shown["plantings"] if p["replant_of"] is None)
    replanted = sum(p["trees"] for p in shown["plantings"] if p["replant_of"] is not None)
    conditional = j.get("replacement_conditional")
    return {
        "required": bool(j.get("replacement_required")),
        "sections": ", ".join(dict.fromkeys(p["section"] for p in parts if p["section"])) or None,
        "parts": parts,
        "value_unit": (j.get("options") or {}).get("value_unit"),
        "required_value_usd": usd(j.get("required_value_cents", cents(j.get("required_value_usd")))),
        "value_per_tree_usd": usd(per_tree),
        "trees_needed": needed,
        "trees_on_site": on_site,
        "trees_in_lieu": in_lieu,
        "trees_planted": planted,
        "value_planted_usd": usd(None if per_tree is None else per_tree * planted),
        "trees_still_to_plant": max(0, on_site - planted),
        "trees_dead_not_replanted": max(0, dead - replanted),
        "conditional": conditional.get("text") if isinstance(conditional, dict) else None,
    }


def _decision_row(d: Any, usd: Usd) -> dict[str, Any]:
    return {
        "id": d.id,
        "amount_usd": usd(d.amount_cents),
        "date": d.decided_on.isoformat(),
        "reference": d.reference,
        "section": d.section,
        "recorded_by": d.recorded_by,
        "recorded_at": d.recorded_at,
    }


def civil_penalty(pen: dict[str, Any] | None, decision: Any, usd: Usd) -> dict[str, Any]:
    """The civil penalty owed: the Board's amount when decided, else the assessment's maxima, said not owed."""
    section = civil_section()
    if decision is not None:
        ref = f", {decision.reference}" if decision.reference else ""
        said = f"assessed by the Planning Board after the hearing, on {decision.decided_on.isoformat()}{ref}"
        return {
            "decided": True,
            "amount_usd": usd(decision.amount_cents),
            "section": decision.section,
            "line": said,
            "words": f"{said} ({decision.section}): {_dollars(usd(decision.amount_cents))}",
        }
    top, cond = (pen or {}).get("civil_max_usd"), (pen or {}).get("civil_conditional_usd")
    if not _positive(top) and not _positive(cond):
        return {"decided": False, "amount_usd": None, "section": section, "line": None, "words": "none assessed"}
    if _positive(top):
        said = f"up to {_dollars(top)} (the assessment's maximum)" + (
            f", and up to {_dollars(cond)} more if the conditional offences are established" if _positive(cond) else ""
        )
    else:
        said = f"up to {_dollars(cond)} if the conditional offences are established (none is definite)"
    said = (
        f"not yet assessed by the Planning Board: {said}; nothing is owed until the Board assesses it after a hearing"
    )
    return {"decided": False, "amount_usd": None, "section": section, "line": said, "words": said}


def _positive(v: str | None) -> bool:
    return v is not None and Decimal(v) > 0


def _dollars(v: str | None) -> str:
    if v is None:
        return "—"
    d = Decimal(v)
    return f"{'-' if d < 0 else ''}${abs(d):,.2f}"


def balance_lines(shown: dict[str, Any], j: dict[str, Any] | None, usd: Usd) -> list[dict[str, Any]]:
    """The balance explained: each amount owed, each payment, and what is shown but not in the balance (a penalty
    not yet assessed, a criminal fine, a bond), each with its section; the last line is the balance."""
    lines: list[dict[str, Any]] = []

    def line(item: str, section: str | None, amount: str | None, counted: bool) -> None:
        lines.append({"item": item, "section": section, "usd": amount, "in_balance": counted})

    rep, pen, civil = shown["replacement_owed"], shown["penalties"], shown["civil_penalty"]
    if j is None:
        line("no assessment recorded: nothing is owed in lieu of replacement", None, None, False)
    else:
        schedule = j.get("fund_schedule")
        n = rep["trees_in_lieu"] if rep else 0
        what = f"payment in lieu of {n} replacement tree(s) not planted on site" + (
            f" ({schedule})" if schedule else ""
        )
        line(what, rep["sections"] if rep else None, shown["fund_in_lieu_usd"], shown["fund_in_lieu_usd"] is not None)
    if civil["line"]:
        line(f"civil penalty {civil['line']}", civil["section"], civil["amount_usd"], civil["decided"])
    crim = (pen or {}).get("criminal_max_usd") or (pen or {}).get("fine_max_usd")
    if _positive(crim) and j is not None:
        # the fine's section: the law file's (Croton-on-Hudson's), else as the assessment's offences name it
        trees = (pen or {}).get("trees") or [{}]
        section = criminal_section() if j.get("jurisdiction") == PENALTY_LAW else trees[0].get("criminal_section")
        line(
            f"criminal fine: up to {_dollars(crim)}, for a court to impose: not in the balance",
            section,
            None,
            False,
        )
    for p in shown["payments"]:
        ref = f" ({p['reference']})" if p["reference"] else ""
        v = p.get("voided")
        if v:  # shown, as the record keeps it, but no longer paid: the lines add up to the balance
            line(f"payment {p['id']} on {p['date']}{ref}, voided on {v['date']} ({v['reason']})", None, None, False)
            continue
        line(f"payment {p['id']} on {p['date']}{ref}", None, f"-{p['amount_usd']}", True)
    for b in shown["bonds"]:
        if b.get("voided"):
            v = b["voided"]
            line(f"bond {b['id']} posted {b['posted']}, voided on {v['date']} ({v['reason']})", None, None, False)
        elif b["status"] == "forfeited":
            what = f"bond {b['id']} forfeited on {b['closed']}: a receipt of the Fund, not a payment of this balance"
        else:
            what = f"bond {b['id']} posted {b['posted']}, {b['status']}: a security, not a payment"
        line(what, None, b["amount_usd"], False)
    line(
        "balance" if not (shown["balance_usd"] or "").startswith("-") else "overpaid", None, shown["balance_usd"], True
    )
    return lines


def with_owed(s: Session, shown: dict[str, Any], usd: Usd) -> dict[str, Any]:
    """``shown`` (:meth:`Register.show`'s case) with what it owes: the penalties and replacement of its assessment,
    the Planning Board's civil penalty decisions, the balance with the penalty assessed, and the balance's lines."""
    cid = shown["id"]
    text = s.scalar(
        select(m.AssessmentRecord.json_text)
        .where(m.AssessmentRecord.case_id == cid)
        .order_by(m.AssessmentRecord.id.desc())
        .limit(1)
    )
    j = None if text is None else json.loads(text)
    decisions = list(
        s.scalars(select(m.PenaltyDecision).where(m.PenaltyDecision.case_id == cid).order_by(m.PenaltyDecision.id))
    )
    gone = voids.marks(s, "penalty")  # a decision voided is listed, marked, and no longer owed
    decision = in_force([d for d in decisions if d.id not in gone])
    shown["penalties"] = penalties(j, usd)
    shown["penalty_decisions"] = [{**_decision_row(d, usd), "voided": gone.get(d.id)} for d in decisions]
    shown["civil_penalty"] = civil_penalty(shown["penalties"], decision, usd)
    shown["replacement_owed"] = replacement(j, shown, usd)
    penalty = None if decision is None else decision.amount_cents
    owed = (
        None
        if shown["fund_in_lieu_cents"] is None and penalty is None
        else (shown["fund_in_lieu_cents"] or 0) + (penalty or 0)
    )
    shown["owed_usd"] = usd(owed)
    shown["balance_cents"] = owed_balance(shown["fund_in_lieu_cents"], penalty, shown["paid_cents"])
    shown["balance_usd"] = usd(shown["balance_cents"])
    shown["balance_lines"] = balance_lines(shown, j, usd)
    return shown
