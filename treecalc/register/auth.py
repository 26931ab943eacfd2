"""Staff accounts: argon2 password hashes (argon2-cffi), throttled sign-in, expiring sessions, and the
unguessable links (``secrets.token_urlsafe``) an applicant or a colleague is given (those are
:mod:`treecalc.register.links`).

A token is kept only as its SHA-256: whoever reads the database cannot use a link or a session from it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import threading
from typing import Any

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.orm import Session

from treecalc.register import models as m
from treecalc.register.core import Register, RegisterError, fits, now
from treecalc.register.passwords import check_password, hash_password

#: failed sign-ins of one name within THROTTLE_WINDOW before the next attempt is refused
THROTTLE_FAILURES = 3
THROTTLE_WINDOW = dt.timedelta(minutes=15)
SESSION_HOURS = 8


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _utc(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


class Throttled(RegisterError):
    pass


#: passwords checked at once by this process: each argon2 check holds 64 MiB, so a burst of attempts queues
#: here instead of growing the server's memory by 64 MiB an attempt
_CHECKING = threading.BoundedSemaphore(2)


def _attempt(reg: Register, name: str) -> int:
    """Record an attempt of ``name`` as failed (its id), or refuse it as :class:`Throttled`: one name's attempts
    are counted and recorded one at a time (PostgreSQL: a lock on the name; SQLite: ``BEGIN IMMEDIATE``), before
    any password is checked, so attempts released at once cannot all pass the count. A name that does not exist
    goes the same way: the same allowance, the same answers."""
    # no account has a longer name (add_user), and PostgreSQL would refuse to record it with a bare error
    # (named as ‹by›: the account's name, the keyword each reader has words for)
    fits(name, "‹by›", 200)
    since = (dt.datetime.now(dt.UTC) - THROTTLE_WINDOW).isoformat(timespec="microseconds")
    with Session(reg.engine) as s, s.begin():
        if reg.engine.dialect.name == "postgresql":
            # held to the commit; a 64-bit hash of the name, so that two names rarely share a lock
            key = bindparam("name", name, type_=m.SignIn.__table__.c.name.type)
            s.execute(select(func.pg_advisory_xact_lock(func.hashtextextended(key, 0))))
        failures = s.scalar(select(func.count()).where(m.SignIn.name == name, m.SignIn.ok == 0, m.SignIn.at >= since))
        if (failures or 0) >= THROTTLE_FAILURES:
            raise Throttled(
                f"Too many failed sign-ins for {name}: wait {int(THROTTLE_WINDOW.total_seconds() // 60)} minutes."
            )
        row = m.SignIn(name=name, at=now(), ok=0)  # failed until the password is found right
        s.add(row)
        s.flush()
        return int(row.id)


def sign_in(reg: Register, name: str, password: str) -> tuple[str, str]:
    """(session token, role) for a right name and password; :class:`Throttled` after
    :data:`THROTTLE_FAILURES` failures in :data:`THROTTLE_WINDOW`; RegisterError for a wrong one."""
    from argon2 import PasswordHasher  # heavy: argon2, loaded only when this runs
    from argon2.exceptions import InvalidHashError, VerificationError  # heavy: argon2, loaded only when this runs

    attempt = _attempt(reg, name)  # committed: counted against the name whatever happens next
    with reg.reading() as s:
        user = s.get(m.User, name)
        stored, role = (user.password_hash, user.role) if user is not None else (None, "")
        disabled = user.disabled_at if user is not None else None
    ok = False
    with _CHECKING:
        if stored is not None:
            try:
                ok = PasswordHasher().verify(stored, password)
            except (VerificationError, InvalidHashError):
                ok = False
        else:
            hash_password(password)  # the same time spent whether or not the name exists
    if not ok:
        # audited (an event of the chain, no row), as the sign-in and the sign-out are
        reg._write(name.strip() or "(no name)", "sign-in failed", None, lambda rec: None)
        raise RegisterError("The name or the password is wrong.")
    if disabled is not None:  # said only to whoever knows the password
        raise RegisterError(f"The account {name} was disabled on {disabled[:10]}: it cannot sign in.")
    token = secrets.token_urlsafe(32)
    expires = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=SESSION_HOURS)).isoformat(timespec="microseconds")

    def signed_in(rec: Any) -> None:
        s = rec.session
        s.execute(update(m.SignIn).where(m.SignIn.id == attempt).values(ok=1))
        s.execute(delete(m.Session).where(m.Session.expires_at < now()))
        s.add(m.Session(token_sha256=_sha(token), name=name, expires_at=expires))

    reg._write(name, "signed in", None, signed_in)
    return token, role


def session_user(reg: Register, token: str | None) -> tuple[str, str] | None:
    """(name, role) of a live session token, else None (unknown or expired)."""
    if not token:
        return None
    with reg.reading() as s:
        row = s.get(m.Session, _sha(token))
        if row is None or _utc(row.expires_at) <= dt.datetime.now(dt.UTC):
            return None
        user = s.get(m.User, row.name)
        return None if user is None or user.disabled_at is not None else (user.name, user.role)


def sign_out(reg: Register, token: str) -> None:
    with reg.reading() as s:
        name = s.scalar(select(m.Session.name).where(m.Session.token_sha256 == _sha(token)))
    if name is None:
        return  # signed out already (or never in): nothing to record
    reg._write(
        name,
        "signed out",
        None,
        lambda rec: rec.session.execute(delete(m.Session).where(m.Session.token_sha256 == _sha(token))),
    )


#: how long a setup token made for the first account lasts
SETUP_MINUTES = 30
#: the sessions-table name a setup token is kept under: names are stripped (Register.add_user), so no account
#: can ever be called this and :func:`session_user` never takes a setup token for a sign-in
_SETUP = " first account"


def _has_account(s: Session) -> bool:
    return s.scalar(select(func.count()).select_from(m.User)) != 0


def has_account(reg: Register) -> bool:
    """Whether the register has an account (none: its first is made with a setup token)."""
    with reg.reading() as s:
        return _has_account(s)


def setup_token(reg: Register, minutes: float = SETUP_MINUTES) -> str:
    """A one-time token (shown once; only its SHA-256 is kept) that lets whoever holds it make the first
    account of a register that has none, within ``minutes``; an earlier setup token stops working."""
    token = secrets.token_urlsafe(24)
    expires = (dt.datetime.now(dt.UTC) + dt.timedelta(minutes=minutes)).isoformat(timespec="microseconds")
    with Session(reg.engine) as s, s.begin():
        if _has_account(s):
            raise RegisterError("the register has an account already: an engineer makes the next ones")
        s.execute(delete(m.Session).where(m.Session.name == _SETUP))
        s.add(m.Session(token_sha256=_sha(token), name=_SETUP, expires_at=expires))
    return token


def first_account(reg: Register, token: str, name: str, password: str) -> None:
    """The register's first account (an engineer), made with a live setup token, which is spent by it; refused
    with a wrong, spent or expired token and once the register has an account."""
    check_password(password)  # before the token is spent: a short password leaves it to try again
    with Session(reg.engine) as s, s.begin():
        if _has_account(s):
            raise RegisterError("the register has an account already: an engineer makes the next ones")
        spent = s.execute(
            delete(m.Session).where(
                m.Session.token_sha256 == _sha(token or ""), m.Session.name == _SETUP, m.Session.expires_at > now()
            )
        )
    if getattr(spent, "rowcount", 0) != 1:
        raise RegisterError("The setup token is wrong, used or expired: make a new one on the server's machine.")
    reg.add_user(name, "engineer", password, by=(name or "").strip() or "first account")
