"""What a planting must be before the register records it: accepted by now, and a replant accepted after the
planting it replaces, of no more trees than that planting had (§208-22G: a replant replaces trees that died)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from treecalc.register.db import RegisterError


def check_accepted(day: dt.date, latest: dt.date) -> None:
    """A planting is recorded once accepted, as a payment once received: a date past ``latest`` is a slip, and its
    inspection would be scheduled on a warranty not yet begun."""
    if day > latest:
        raise RegisterError(
            f"‹accepted_on› {day}: a planting is recorded once provisionally accepted, not dated after {latest}"
        )


def check_replant(first: Any, case_id: int, replant_of: int, day: dt.date, trees: int) -> None:
    """``first``: the planting ``replant_of`` names (None when the register has none)."""
    if first is None or first.case_id != case_id:
        raise RegisterError(f"‹replant_of› {replant_of}: no planting {replant_of} on case {case_id}")
    if day < first.accepted_on:
        raise RegisterError(
            f"‹accepted_on› {day}: a replant is accepted after the planting it replaces; planting "
            f"{replant_of} was accepted on {first.accepted_on}"
        )
    if trees > first.trees:
        raise RegisterError(
            f"‹trees› {trees}: a replant replaces trees of planting {replant_of}, which had "
            f"{first.trees} trees: give at most {first.trees}"
        )
