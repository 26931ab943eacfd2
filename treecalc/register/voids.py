"""Corrections without erasing: an entry of a case voided, and a form recorded once however often it is sent.

A payment, a planting, a decision or a bond recorded by mistake is never deleted or changed: :func:`void`
writes a row of ``voids`` (with its event) naming the entry, the day it stops counting, the reason and who voided
it. The entry's own row and event stay as they were, so the audit chain keeps both, and every reading of the
register shows both: the case lists the entry marked voided and the void beside it; its balance leaves a voided
payment out; the Fund ledger keeps the receipt on the day it was received and books its reversal (a negative
receipt) on the day of the void, so a ledger already printed for a past month stays true.

An engineer or a clerk voids (the roles that record these entries), with a reason. Refused: a void of a void (a
void is not undone: record the entry again), an entry voided already, an entry the register does not hold.

:func:`keep_once` and :func:`first_of`: the key of a form as the app drew it is recorded with the entry its
first submission made; the same key again (a double click, a form sent twice) records nothing and gives back
that first entry.

The kinds of entry that can be voided are :data:`VOIDABLE`; a new table of a case's entries joins it with
:func:`voidable`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from treecalc.register import models as m
from treecalc.register.db import RegisterError


@dataclass(frozen=True)
class Entry:
    """A kind of entry that can be voided: its table, the column of its own date (a void is dated on or after
    it), and the cents it put into the Fund (a void reverses them; None: it was no receipt)."""

    model: Any
    day: str
    receipt: Callable[[Any], int | None]


VOIDABLE: dict[str, Entry] = {}


def voidable(kind: str, model: Any, day: str, receipt: Callable[[Any], int | None] = lambda row: None) -> None:
    """Let entries of ``model`` (a table with ``id`` and ``case_id``) be voided as ``kind``."""
    VOIDABLE[kind] = Entry(model, day, receipt)


voidable("payment", m.Payment, "paid_on", lambda p: int(p.amount_cents))
voidable("planting", m.Planting, "accepted_on")
voidable("decision", m.Decision, "decided_on")
# a bond is a receipt of the Fund only once forfeited (sections.bond_forfeited); a bond held or released put nothing in
voidable("bond", m.Bond, "posted_on", lambda b: int(b.amount_cents) if b.status == "forfeited" else None)
# the Planning Board's civil penalty on a violation: a voided one is no longer owed
voidable("penalty", m.PenaltyDecision, "decided_on")


def refuse_voided(s: Session, kind: str, entry_id: int) -> None:
    """A refusal when ``kind`` ``entry_id`` was voided (nothing more is recorded on a voided entry)."""
    v = s.scalar(select(m.Void).where(m.Void.entry == kind, m.Void.entry_id == entry_id))
    if v is not None:
        raise RegisterError(
            f"{kind} {entry_id} was voided on {v.voided_on} by {v.voided_by} ({v.reason}): a void is not undone; "
            f"record the {kind} again"
        )


def voided_on(s: Session, kind: str) -> dict[int, str]:
    """The entries of ``kind`` voided: id -> the day its void took effect (ISO)."""
    rows = s.execute(select(m.Void.entry_id, m.Void.voided_on).where(m.Void.entry == kind)).all()
    return {int(i): day.isoformat() for i, day in rows}


def marks(s: Session, kind: str) -> dict[int, dict[str, Any]]:
    """The entries of ``kind`` voided: id -> its void as a case shows it (``{void, date, reason}``)."""
    rows = s.scalars(select(m.Void).where(m.Void.entry == kind)).all()
    return {v.entry_id: {"void": v.id, "date": v.voided_on.isoformat(), "reason": v.reason} for v in rows}


def live(model: Any, kind: str) -> Any:
    """The condition that a row of ``model`` (entries of ``kind``) was not voided, for a query's ``where``."""
    return model.id.not_in(select(m.Void.entry_id).where(m.Void.entry == kind))


# -- a form recorded once -----------------------------------------------------------------------------------


class Repeated(Exception):  # noqa: N818 (not an error: the form was recorded before, and here is what it made)
    def __init__(self, entry: str, entry_id: int) -> None:
        super().__init__(entry, entry_id)
        self.entry, self.entry_id = entry, entry_id


def keep_once(rec: Any, key: Any, row: Any) -> Any:
    """``row`` (a new entry of a case) inserted, and the form's ``key`` beside it, in the same write;
    :class:`Repeated` (the write is then rolled back: nothing recorded) when the key was recorded before."""
    table = row.__tablename__
    if key is None:
        return rec.insert(table, row)
    key = str(key).strip()
    if not 1 <= len(key) <= 100:
        raise RegisterError("a form's key is of 1 to 100 characters")
    first = rec.session.get(m.FormKey, key)
    if first is not None and (first.entry, first.case_id) != (table, row.case_id):
        # a key is one form's: the same key for another case or kind of entry is a slip, never that first entry
        raise RegisterError(
            f"this form's key already recorded row {first.entry_id} of {first.entry} on case {first.case_id}: "
            "each form has its own key"
        )
    if first is not None:
        raise Repeated(first.entry, first.entry_id)
    rec.insert(table, row)
    rec.insert("form_keys", m.FormKey(key=key, entry=table, entry_id=row.id, case_id=row.case_id))
    return row


def first_of(write: Callable[[], int]) -> int:
    """``write()``'s id, or the id of the entry its form's key recorded first."""
    try:
        return write()
    except Repeated as r:
        return r.entry_id


# -- the readings: a case, the list of cases, the Fund ledger -----------------------------------------------


def _cents(usd: str | None) -> int:
    return 0 if usd is None else int(Decimal(usd) * 100)


def into_case(s: Session, out: dict[str, Any], usd: Callable[[int | None], str | None]) -> dict[str, Any]:
    """A case as :meth:`Register.show` gives it, with its voids: each entry marked ``voided`` (None, or when, by
    whom and why), the voids listed (``voids``), and what a voided entry counted taken out: the paid amount and
    the balance, the trees planted, the decision in force; amounts as ``usd`` writes cents (the register's text)."""
    rows = s.scalars(select(m.Void).where(m.Void.case_id == out["id"]).order_by(m.Void.id)).all()
    marks = {(v.entry, v.entry_id): v for v in rows}
    lists = {"payment": "payments", "planting": "plantings", "decision": "decisions", "bond": "bonds"}
    for kind, name in lists.items():
        for e in out.get(name) or []:
            v = marks.get((kind, e["id"]))
            e["voided"] = None if v is None else {"void": v.id, "date": v.voided_on.isoformat(), "reason": v.reason}
    out["voids"] = [
        {
            "id": v.id,
            "entry": v.entry,
            "entry_id": v.entry_id,
            "date": v.voided_on.isoformat(),
            "reversed_usd": usd(-v.amount_cents) if v.amount_cents is not None else None,
            "reason": v.reason,
            "by": v.voided_by,
            "at": v.voided_at,
        }
        for v in rows
    ]
    if not rows:
        return out
    unpaid = sum(int(v.amount_cents or 0) for v in rows if v.entry == "payment")
    paid = int(out["paid_cents"]) - unpaid
    fund = out["fund_in_lieu_cents"]
    out.update(paid_cents=paid, paid_usd=usd(paid))
    out.update(
        balance_cents=None if fund is None else fund - paid, balance_usd=usd(None if fund is None else fund - paid)
    )
    planted = [p for p in out["plantings"] if p["voided"] is None and not p["replant_of"]]
    out["trees_planted"] = sum(p["trees"] for p in planted)
    decided = [d for d in out["decisions"] if d["voided"] is None]
    out["decision"] = decided[-1]["outcome_words"] if decided else None
    return out


def net_paid(s: Session, paid: Any) -> dict[Any, Any]:
    """Payments summed by case (rows of case, cents: :meth:`Register.cases`) less those voided."""
    voided = s.execute(
        select(m.Void.case_id, func.sum(m.Void.amount_cents)).where(m.Void.entry == "payment").group_by(m.Void.case_id)
    ).all()
    out = {case_id: cents for case_id, cents in paid}
    for case_id, cents in voided:
        out[case_id] = int(out.get(case_id) or 0) - int(cents or 0)
    return out


def reversals(s: Session, a: dt.date, b: dt.date) -> list[dict[str, Any]]:
    """The receipts reversed from ``a`` to ``b``: voids of payments and of forfeited bonds, on the void's day."""
    rows = s.execute(
        select(m.Void, m.Case.title)
        .join(m.Case, m.Case.id == m.Void.case_id)
        .where(m.Void.amount_cents.is_not(None), m.Void.voided_on >= a, m.Void.voided_on <= b)
        .order_by(m.Void.voided_on, m.Void.id)
    ).all()
    return [
        {
            "void": v.id,
            "entry": v.entry,
            "entry_id": v.entry_id,
            "case": v.case_id,
            "title": title,
            "date": v.voided_on.isoformat(),
            "cents": -int(v.amount_cents or 0),
            "reason": v.reason,
        }
        for v, title in rows
    ]


def with_reversals(
    led: dict[str, Any], rev: list[dict[str, Any]], usd: Callable[[int | None], str | None]
) -> dict[str, Any]:
    """The Fund ledger (:func:`treecalc.register.readings.ledger`) with the receipts reversed in its period: each
    listed (``reversals``), and taken from its month, its case and the total."""
    months = {r["month"]: r for r in led["by_month"]}
    cases = {r["case"]: r for r in led["by_case"]}
    for r in rev:
        month = months.setdefault(
            r["date"][:7],
            {"month": r["date"][:7], "usd": "0.00", "payments_usd": "0.00", "forfeited_bonds_usd": "0.00"},
        )
        month["reversals_usd"] = usd(_cents(month.get("reversals_usd")) + r["cents"])
        month["usd"] = usd(_cents(month["usd"]) + r["cents"])
        case = cases.setdefault(r["case"], {"case": r["case"], "usd": "0.00"})
        case["usd"] = usd(_cents(case["usd"]) + r["cents"])
        led["total_usd"] = usd(_cents(led["total_usd"]) + r["cents"])
    for month in months.values():
        month.setdefault("reversals_usd", "0.00")
    led["by_month"] = [months[k] for k in sorted(months)]
    led["by_case"] = [cases[k] for k in sorted(cases)]
    led["reversals"] = [{**{k: v for k, v in r.items() if k != "cents"}, "usd": usd(r["cents"])} for r in rev]
    return led
