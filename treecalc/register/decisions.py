"""The Planning Board's decision on a violation's civil penalty, recorded in the register.

Before the civil penalty is assessed the alleged violator is heard by the Planning Board (§208-29B, the section the
law file's civil penalty bracket cites); the Board then assesses an amount up to the maximum the law allows for the
offences, or releases or compromises it. The register records the amount, the date, the Board's reference and who
recorded it, one row per decision (a later decision is a new row; the latest by date is the one owed). Only an
account of the engineer role records one (checked here, whatever page or command asks).
"""

from __future__ import annotations

from typing import Any

from treecalc.register import models as m
from treecalc.register import roles
from treecalc.register.core import Register, RegisterError, cents_to_usd, fits, latest_day, now, to_date, usd_to_cents
from treecalc.register.owed import PENALTY_LAW, civil_ceiling, civil_section


def _usd(cents: int) -> str:
    text = cents_to_usd(cents) or "0.00"
    whole, _, part = text.partition(".")
    return f"${int(whole):,}.{part}"


def decide_penalty(reg: Register, case_id: int, *, by: str, amount: Any, on: Any, reference: str | None = None) -> int:
    """Record the civil penalty the Planning Board assessed on case ``case_id`` after the hearing; its id.

    Refused: an account without the engineer role; a case without an assessment, of another village's law, or whose
    assessment found no offence with a civil penalty; an amount above the assessment's maximum and conditional
    maximum together (the Board may not assess more than the law allows for the offences found); a date to come."""
    section = civil_section()
    by = roles.require(reg, by, "penalty")
    cents = usd_to_cents(amount, "‹amount›", positive=False)  # $0: the Board released the penalty
    day = to_date(on, "‹date›")
    latest = latest_day()
    if day > latest:
        raise RegisterError(f"‹date› {day}: a decision is recorded once made, not dated after {latest}")
    reference = (reference or "").strip() or None
    fits(reference, "‹reference›", 200)
    reg._case(case_id)
    j = reg.assessment_json(case_id)
    if j is None:
        raise RegisterError(
            f"case {case_id} has no assessment: the civil penalty ({section}) is assessed on the offences an "
            "assessment found; record the assessment first"
        )
    if j.get("jurisdiction") != PENALTY_LAW:
        raise RegisterError(
            f"case {case_id} is assessed under {j.get('jurisdiction_name') or j.get('jurisdiction')}: the Planning "
            f"Board's civil penalty ({section}) is the law of another village"
        )
    top, cond = civil_ceiling(j)
    if top + cond == 0:
        raise RegisterError(f"the assessment of case {case_id} found no offence with a civil penalty ({section})")
    if cents > top + cond:
        raise RegisterError(
            f"‹amount› {_usd(cents)} is over the {_usd(top + cond)} the law allows for the offences the assessment of "
            f"case {case_id} found ({section}: up to {_usd(top)}, and {_usd(cond)} for offences conditional on facts "
            "not given); if the hearing established more, record a new assessment with those facts first"
        )
    return reg._add_record(
        m.PenaltyDecision,
        case_id,
        by,
        "civil penalty decided",
        amount_cents=cents,
        decided_on=day,
        reference=reference,
        section=section,
        recorded_by=by,
        recorded_at=now(),
    )
