"""Who may do what in the register: the role matrix, once, as data, and the one check every write passes.

Every write of the register goes through :meth:`treecalc.register.core.Register._write`, which checks, in the
write's own transaction, that the account named as the actor (``by``) exists, is not disabled and has a role
:data:`MATRIX` allows for the act the event records (its ``kind``, read through :data:`KINDS`). So a page or a
command can only show the refusal: the register makes it. An event kind no act names is refused too, so a new
kind of write cannot go unchecked.

:func:`require` is the same check for a caller that wants the answer before it writes (a form that should not be
drawn, a command that should stop early); :func:`may` answers for a role alone (what a page offers).

``treecalc user roles`` prints the matrix (:func:`markdown`) as the Markdown table docs/register.md holds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from treecalc.law.cites import section
from treecalc.register import models as m
from treecalc.register.db import RegisterError
from treecalc.register.readings import PLANTING_LAW


class Register(Protocol):
    """What the roles and the accounts ask of a register (:class:`treecalc.register.core.Register`), named here so
    that they need not import the register that checks them on every write."""

    def reading(self) -> AbstractContextManager[Session]: ...

    def _write(
        self, by: str, kind: str, case_id: int | None, fn: Callable[[Any], Any], *, act: str | None = None
    ) -> Any: ...


ROLES = ("engineer", "clerk", "viewer")
_STAFF = frozenset({"engineer", "clerk"})
_ENGINEER = frozenset({"engineer"})


@dataclass(frozen=True)
class Act:
    """An act of the register: how it is said, the roles that may do it, the event kinds that record it, and
    whether a visitor without an account may do it too (``anyone``)."""

    words: str
    roles: frozenset[str]
    kinds: tuple[str, ...]
    anyone: bool = False
    #: the entry or provision of the register's law whose section ``{section}`` in ``words`` says (read from the law
    #: when the act is said, never retyped)
    cites: str = ""

    def said(self) -> str:
        """How the act is said, the section it cites as the law in force today holds it."""
        if not self.cites:
            return self.words

        return self.words.format(section=section(PLANTING_LAW, self.cites, dt.date.today()))


#: act -> who may do it. The Village Engineer decides and keeps the Board's fee schedule and the accounts; a
#: clerk records what arrives at the counter (payments, plantings, inspections) and opens cases; a viewer reads.
WARRANTY = "replacement.warranty_years"
MATRIX: dict[str, Act] = {
    "open": Act("opening a case", _STAFF, ("case opened",)),
    "assess": Act("recording a new assessment of a case", _STAFF, ("assessed",)),
    "pay": Act("recording a payment into the Fund", _STAFF, ("payment",)),
    "plant": Act("recording a replacement planting ({section})", _STAFF, ("planting", "replant"), cites=WARRANTY),
    "inspect": Act("recording an inspection ({section})", _STAFF, ("inspection",), cites=WARRANTY),
    "note": Act("adding a note to a case", _STAFF, ("note",)),
    "decide": Act("recording the decision on a case", _ENGINEER, ("decision",)),
    "bond": Act(
        "posting, releasing or forfeiting a bond ({section})",
        _ENGINEER,
        ("bond posted", "bond released", "bond forfeited"),
        cites="sections.bond",
    ),
    "hold": Act(
        "opening or closing a {section} hold",
        _ENGINEER,
        ("hold opened", "hold closed"),
        cites="sections.no_building_permit",
    ),
    "link": Act("making or revoking an applicant's link to a case", _ENGINEER, ("case link made", "case link revoked")),
    "penalty": Act("recording the Planning Board's decision on a civil penalty", _ENGINEER, ("civil penalty decided",)),
    # a void needs the role that may record the entry: a clerk cannot undo what only an engineer decides
    "void": Act(
        "voiding a payment or planting entered by mistake, with a reason",
        _STAFF,
        ("payment voided", "planting voided"),
    ),
    "void_ruling": Act(
        "voiding a decision, civil penalty or bond entered by mistake, with a reason",
        _ENGINEER,
        ("decision voided", "penalty voided", "bond voided"),
    ),
    "fee_schedule": Act(
        "recording the fee schedule ({section})", _ENGINEER, ("fee schedule recorded",), cites="sections.fee_schedule"
    ),
    "accounts": Act(
        "making an account or changing its role or password, disabling or removing one",
        _ENGINEER,
        ("account", "account disabled", "account removed"),
    ),
    # a sign-in tried, made or ended: recorded for anyone who tries (a failed one under the name tried)
    "sign_in": Act("signing in or out", frozenset(ROLES), ("signed in", "sign-in failed", "signed out"), anyone=True),
    # a view of a survey shared by a link (the links' own rules say who may share what)
    "share": Act(
        "sharing a view of a survey by a link",
        frozenset(ROLES),
        ("file kept", "link made", "link revoked"),
        anyone=True,
    ),
}

#: event kind -> the act it records
KINDS: dict[str, str] = {kind: name for name, act in MATRIX.items() for kind in act.kinds}


def may(role: str | None, act: str) -> bool:
    """Whether an account of ``role`` may do ``act`` (a key of :data:`MATRIX`)."""
    return role in MATRIX[act].roles


def _roles_words(roles: frozenset[str]) -> str:
    named = [r for r in ROLES if r in roles]
    return " or ".join(named) + (" role" if len(named) == 1 else " roles")


def check(s: Session, by: str, act: str) -> str:
    """``by`` (stripped) when it names an enabled account whose role may do ``act``, read in the session ``s`` (a
    write's own transaction), else a refusal naming the roles that may. The first account of an empty register
    is made without one (there is no one to make it)."""
    spec = MATRIX.get(act)
    if spec is None:  # a write no act names: refused, never let through unchecked
        raise RegisterError(f"{act!r} is not an act of the register's role matrix: no account may do it")
    name = (by or "").strip()
    if spec.anyone:
        return name
    user = s.get(m.User, name) if name else None
    if user is None and act == "accounts" and s.scalar(select(m.User.name).limit(1)) is None:
        return name
    if user is not None and user.disabled_at is None and user.role in spec.roles:
        return name
    if user is None:
        who = f"{name!r} is not an account of this register" if name else "no account is named (‹by›)"
    elif user.disabled_at is not None:
        who = f"the account {name!r} was disabled on {user.disabled_at[:10]}"
    else:
        who = f"{name!r} is an account of the {user.role} role"
    said = spec.said()
    words = said[0].upper() + said[1:]
    raise RegisterError(f"{words} needs an account of the {_roles_words(spec.roles)}: {who}.")


def require(reg: Register, by: str, act: str) -> str:
    """:func:`check` in a read of the register ``reg`` (a :class:`treecalc.register.Register`): the account's
    name when it may do ``act``, else :class:`RegisterError` naming the role. The write itself checks again."""
    with reg.reading() as s:
        return check(s, by, act)


def act_of(kind: str) -> str:
    """The act an event ``kind`` records (the kind itself when no act names it: :func:`check` refuses it)."""
    return KINDS.get(kind, kind)


def markdown() -> str:
    """The matrix as a Markdown table: one row per act, a column per role."""
    lines = ["| act | " + " | ".join(ROLES) + " |", "| --- |" + " :---: |" * len(ROLES)]
    for act in MATRIX.values():
        cells = ["yes" if r in act.roles else "—" for r in ROLES]
        words = act.said() + (" (also a visitor not signed in)" if act.anyone else "")
        lines.append(f"| {words} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
