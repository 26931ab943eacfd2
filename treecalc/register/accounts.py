"""Staff accounts: made, changed, disabled and removed by an engineer (the role matrix's ``accounts`` act,
:mod:`treecalc.register.roles`), each change an event of the record.

The first account of an empty register is made without one (there is no one to make it) and is an engineer's,
so that someone may make the others. A role or password changed, an account disabled or removed ends its
sessions in the same transaction; a disabled account cannot sign in or act, and its history stays. The last
enabled engineer is never disabled, removed or given another role: no one could then make or mend an account.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select, update

from treecalc.register import models as m
from treecalc.register.db import RegisterError, now
from treecalc.register.passwords import check_password, hash_password
from treecalc.register.roles import ROLES, Register


def _name(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > 200:
        raise RegisterError("a user name of 1 to 200 characters")
    return name


def _end_sessions(rec: Any, name: str) -> None:
    # sessions are not part of the record (not chained): ended in the change's own transaction
    rec.session.execute(delete(m.Session).where(m.Session.name == name))


def _keep_an_engineer(rec: Any, user: m.User, what: str) -> None:
    """Refuse ``what`` (disabling, removing, another role) of the last enabled engineer."""
    if user.role != "engineer" or user.disabled_at is not None:
        return
    others = rec.session.scalar(
        select(func.count()).where(m.User.role == "engineer", m.User.disabled_at.is_(None), m.User.name != user.name)
    )
    if not others:
        raise RegisterError(
            f"{user.name!r} is the register's last enabled engineer: {what} would leave no one to make or mend an "
            "account; make another engineer first"
        )


def _forgive_failures(rec: Any, name: str) -> None:
    # a new account or a new password starts with no failed sign-ins against its name: tries under a name not yet
    # an account (or with the old password) would otherwise lock out the account just made, the first engineer's
    # too, with no one able to unlock it. The attempts stay in the table, marked forgiven (ok = 2), not counted.

    rec.session.execute(update(m.SignIn).where(m.SignIn.name == name, m.SignIn.ok == 0).values(ok=2))


def add(reg: Register, name: str, role: str, password: str, *, by: str) -> None:
    """Make the account ``name`` of ``role``, or set an existing one's role and password (its sessions end)."""
    name = _name(name)
    if role not in ROLES:
        raise RegisterError(f"‹role› {role!r}: one of {', '.join(ROLES)}")
    check_password(password)
    hashed = hash_password(password)

    def do(rec: Any) -> m.User:
        if role != "engineer" and rec.session.scalar(select(m.User.name).limit(1)) is None:
            raise RegisterError(
                f"the register has no account yet: its first is an engineer's (‹role› engineer), who then makes "
                f"the others; {name!r} would be a {role}"
            )
        u = rec.session.get(m.User, name)
        if u is None:
            _forgive_failures(rec, name)
            return rec.insert("users", m.User(name=name, role=role, password_hash=hashed, disabled_at=None))
        if role != u.role:
            _keep_an_engineer(rec, u, f"making it a {role}")
        _end_sessions(rec, name)
        _forgive_failures(rec, name)
        return rec.update("users", u, role=role, password_hash=hashed)

    reg._write(by, "account", None, do)


def _existing(rec: Any, name: str) -> m.User:
    u = rec.session.get(m.User, name)
    if u is None:
        raise RegisterError(f"no account {name!r} in the register")
    return u


def disable(reg: Register, name: str, *, by: str) -> None:
    """Disable the account ``name``: it can no longer sign in or act, its sessions end, its history stays."""
    name = _name(name)

    def do(rec: Any) -> m.User:
        u = _existing(rec, name)
        if u.disabled_at is not None:
            raise RegisterError(f"the account {name!r} was already disabled on {u.disabled_at[:10]}")
        _keep_an_engineer(rec, u, "disabling it")
        _end_sessions(rec, name)
        return rec.update("users", u, disabled_at=now())

    reg._write(by, "account disabled", None, do)


def remove(reg: Register, name: str, *, by: str) -> None:
    """Remove the account ``name`` (its sessions end; the events it recorded keep its name)."""
    name = _name(name)

    def do(rec: Any) -> None:
        u = _existing(rec, name)
        _keep_an_engineer(rec, u, "removing it")
        _end_sessions(rec, name)
        rec.delete("users", u)

    reg._write(by, "account removed", None, do)


def listing(reg: Register) -> list[dict[str, Any]]:
    """Every account: name, role, and when it was disabled (None: enabled)."""
    with reg.reading() as s:
        rows = s.execute(select(m.User.name, m.User.role, m.User.disabled_at).order_by(m.User.name)).all()
    return [{"name": r.name, "role": r.role, "disabled_at": r.disabled_at} for r in rows]
