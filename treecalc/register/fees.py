"""The Village's fee schedule of payments in lieu (§208-24C), kept in the register.

The Board of Trustees sets the fee or basis by resolution; the Engineer records each resolution here (an account
with the ``engineer`` role: checked here, whatever page or command asks). A schedule is never changed: a later
resolution is a new row, and an assessment reads the one in force on its date (:func:`in_force`), in the in-line
form :func:`treecalc.rules.croton_on_hudson.schedule.load_fee_schedule` takes, labelled with its resolution.

:func:`differs` says whether a fee schedule an assessment was given (a file, ``--fee-per-tree``, options from a
link) is not the one in force: such an assessment is a what-if, never the Village's figure.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select

from treecalc.law.cites import section as cited
from treecalc.register import models as m
from treecalc.register import roles
from treecalc.register.core import Register, RegisterError, cents_to_usd, fits, now, to_date, usd_to_cents
from treecalc.register.readings import PLANTING_LAW

#: the role that records a fee schedule (the Village Engineer keeps the Board's schedule: roles.MATRIX)
ROLE = "engineer"
#: the provision of the law under which the Board sets the schedule (its section read from the law, never retyped)
PROVISION = "sections.fee_schedule"


def section(on: dt.date | None = None) -> str:
    """The section under which the Board sets the fee schedule, as the register's law in force on ``on`` (today
    when not given) cites it."""
    return cited(PLANTING_LAW, PROVISION, on or dt.date.today())


def _label(when: dt.date, resolution: str | None) -> str:
    ref = f" {resolution}" if resolution else ""
    return f"Board resolution{ref} of {when.isoformat()} ({section(when)})"


def record(
    reg: Register,
    *,
    by: str,
    resolution_date: Any,
    basis: str = "per_tree",
    fee_per_tree_usd: Any = None,
    multiplier: Any = None,
    value_basis: Any = None,
    resolution: str | None = None,
) -> int:
    """Record a fee schedule the Board set on ``resolution_date`` (the schedules recorded before are kept); its id.

    Refused: an account without the engineer role, a second schedule of one resolution date, a schedule that does
    not read (a fee of $0 on the per-tree basis, a multiplier out of range: the assessment's own checks)."""
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.rules.croton_on_hudson.schedule import load_fee_schedule

    by = roles.require(reg, by, "fee_schedule")  # said before the schedule is read; the write checks again
    when = to_date(resolution_date, "‹resolution_date›")
    resolution = (resolution or "").strip() or None
    fits(resolution, "‹resolution›", 200)
    basis = str(basis or "per_tree").strip().lower()
    if basis == "per_tree" and fee_per_tree_usd in (None, ""):
        raise RegisterError("‹fee_per_tree_usd›: a schedule on the per-tree basis needs the fee per tree")
    raw: dict[str, Any] = {"basis": basis}
    if fee_per_tree_usd not in (None, ""):
        raw["fee_per_tree_usd"] = str(fee_per_tree_usd)
    if multiplier not in (None, ""):
        raw["multiplier"] = str(multiplier)
    if value_basis not in (None, ""):
        raw["value_basis"] = str(value_basis)
    read = load_fee_schedule(raw)  # what is recorded must be a schedule the assessment reads
    fee_cents = usd_to_cents(raw["fee_per_tree_usd"], "‹fee_per_tree_usd›") if "fee_per_tree_usd" in raw else None

    def do(rec: Any) -> m.FeeScheduleRecord:
        if rec.session.scalar(select(m.FeeScheduleRecord.id).where(m.FeeScheduleRecord.resolution_date == when)):
            raise RegisterError(
                f"a fee schedule set by Board resolution of {when.isoformat()} is already recorded: a schedule is "
                "never changed; record the Board's later resolution with its own date"
            )
        return rec.insert(
            "fee_schedules",
            m.FeeScheduleRecord(
                basis=read.basis,
                fee_per_tree_cents=fee_cents,
                multiplier=str(read.multiplier),
                value_basis=read.value_basis,
                resolution_date=when,
                resolution=resolution,
                recorded_by=by,
                recorded_at=now(),
            ),
        )

    return int(reg._write(by, "fee schedule recorded", None, do).id)


def _row(r: m.FeeScheduleRecord) -> dict[str, Any]:
    return {
        "id": r.id,
        "basis": r.basis,
        "fee_per_tree_usd": cents_to_usd(r.fee_per_tree_cents),
        "multiplier": r.multiplier,
        "value_basis": r.value_basis,
        "resolution_date": r.resolution_date.isoformat(),
        "resolution": r.resolution,
        "label": _label(r.resolution_date, r.resolution),
        "recorded_by": r.recorded_by,
        "recorded_at": r.recorded_at,
    }


def history(reg: Register) -> list[dict[str, Any]]:
    """Every schedule recorded, oldest resolution first."""
    with reg.reading() as s:
        rows = s.scalars(select(m.FeeScheduleRecord).order_by(m.FeeScheduleRecord.resolution_date)).all()
        return [_row(r) for r in rows]


def in_force(reg: Register, on: Any = None) -> dict[str, Any] | None:
    """The schedule in force on ``on`` (default today) as the assessment's in-line ``fee_schedule`` option (its
    resolution date and label naming the resolution), or None when the register holds none in force then."""
    day = to_date(on, "‹on›") if on is not None else dt.date.today()
    with reg.reading() as s:
        r = s.scalars(
            select(m.FeeScheduleRecord)
            .where(m.FeeScheduleRecord.resolution_date <= day)
            .order_by(m.FeeScheduleRecord.resolution_date.desc())
            .limit(1)
        ).first()
        return None if r is None else as_option(_row(r))


def as_option(row: dict[str, Any]) -> dict[str, Any]:
    """A recorded schedule (:func:`history`'s row) as the in-line fee schedule an assessment takes."""
    out: dict[str, Any] = {"basis": row["basis"]}
    if row["fee_per_tree_usd"] is not None:
        out["fee_per_tree_usd"] = row["fee_per_tree_usd"]
    if row.get("multiplier") is not None:
        out["multiplier"] = row["multiplier"]
    if row.get("value_basis") is not None:
        out["value_basis"] = row["value_basis"]
    out.update(placeholder=False, label=row["label"], resolution_date=row["resolution_date"])
    return out


def differs(options: dict[str, Any], schedule: dict[str, Any] | None, on: Any = None) -> list[str]:
    """The money options of an assessment (``fee_schedule``, ``fee_per_tree_usd``) that are not the schedule in
    force (``schedule``, :func:`in_force`'s; None: the data folder's), each in a sentence; [] when they are."""
    # heavy: pandas, numpy, pyarrow, ..., loaded only when this runs
    from treecalc.rules.croton_on_hudson.schedule import not_in_force

    day = to_date(on, "‹on›") if on not in (None, "") else None
    return not_in_force(options.get("fee_schedule"), options.get("fee_per_tree_usd"), schedule, day)
