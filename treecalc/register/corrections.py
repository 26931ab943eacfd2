"""Voiding an entry of a case: :func:`void` (the register's write; what a void is and how the readings count it:
:mod:`treecalc.register.voids`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select

from treecalc.register import models as m
from treecalc.register import roles
from treecalc.register.core import Register, RegisterError, fits, latest_day, now, row_id, to_date
from treecalc.register.voids import VOIDABLE, Entry, live, refuse_voided


def _entry(kind: str) -> tuple[str, Entry]:
    k = (kind or "").strip().lower()
    if k in ("void", "voids", "reversal"):
        raise RegisterError(
            "‹kind› void: a void is not voided; record the entry again (a payment, a planting, ...) instead"
        )
    if k not in VOIDABLE:
        raise RegisterError(f"‹kind› {kind!r}: one of {', '.join(VOIDABLE)}")
    return k, VOIDABLE[k]


def void(reg: Register, kind: str, entry_id: Any, *, by: str, reason: str, on: Any = None) -> int:
    """Void entry ``entry_id`` of ``kind`` (payment, planting, decision, bond) from ``on`` (default today), saying
    why; the void's id. The entry stays in the register and in its event; it no longer counts."""
    k, entry = _entry(kind)
    row_id(entry_id, k)
    text = (reason or "").strip()
    if not text:
        raise RegisterError("‹reason›: a void says why (the check was returned, recorded on the wrong case, ...)")
    fits(text, "‹reason›", 2000)
    day = dt.date.today() if on in (None, "") else to_date(on, "‹date›")
    if day > latest_day():
        raise RegisterError(f"‹date› {day}: a void is recorded once made, not dated after {latest_day()}")
    by = roles.require(reg, by, roles.act_of(f"{k} voided"))

    def do(rec: Any) -> m.Void:
        row = rec.session.get(entry.model, entry_id)
        if row is None:
            raise RegisterError(f"no {k} {entry_id} in the register")
        refuse_voided(rec.session, k, entry_id)
        if day < getattr(row, entry.day):
            raise RegisterError(f"‹date› {day}: {k} {entry_id} is dated {getattr(row, entry.day)}; a void comes after")
        if k == "planting":
            replant = rec.session.scalar(
                select(m.Planting.id).where(m.Planting.replant_of == entry_id, live(m.Planting, "planting"))
            )
            if replant is not None:
                raise RegisterError(f"planting {entry_id} has replant {replant}: void the replant first")
        return rec.insert(
            "voids",
            m.Void(
                entry=k,
                entry_id=entry_id,
                case_id=row.case_id,
                amount_cents=entry.receipt(row),
                voided_on=day,
                reason=text,
                voided_by=by,
                voided_at=now(),
            ),
        )

    with reg.reading() as s:
        found = s.get(entry.model, entry_id)
        case_id = None if found is None else found.case_id
    return int(reg._write(by, f"{k} voided", case_id, do).id)
