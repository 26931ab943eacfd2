"""``treecalc user add | login | logout | disable | remove | list``, and who acts for every command that records.

A command that records acts as a signed-in account: ``--by NAME`` (or ``TREECALC_USER``) with its password
(``TREECALC_PASSWORD``, or asked for on a terminal), or the session ``treecalc user login NAME`` printed
(``TREECALC_SESSION``). :func:`acting` signs the account in (throttled as the app's sign-in is) and names it to
the register, which checks its role on the act itself (:mod:`treecalc.register.roles`): the refusal is the
register's, said here with exit 2. No domain logic here.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from treecalc.cli.common import dump_json

BY_HELP = (
    "the account that acts (default: TREECALC_USER); its password from TREECALC_PASSWORD or asked for on a "
    "terminal, or a session from 'treecalc user login' (TREECALC_SESSION)"
)


def add_by(p: argparse.ArgumentParser) -> None:
    p.add_argument("--by", metavar="NAME", default=None, help=BY_HELP)


def _password(name: str) -> str:
    given = os.environ.get("TREECALC_PASSWORD")
    if given is not None:
        return given
    if sys.stdin.isatty():
        import getpass  # start-up: with the command that runs, not every command

        return getpass.getpass(f"password of {name}: ")
    raise ValueError(
        f"--by {name}: give the password of {name} in TREECALC_PASSWORD (or run on a terminal to be asked for it), "
        f"or sign in once with 'treecalc user login {name}' and set TREECALC_SESSION"
    )


def acting(a: argparse.Namespace, reg: Any) -> str:
    """The name of the account this command acts as, once signed in (its password checked, or its session live)."""
    from treecalc.register import auth  # start-up: with the command that runs, not every command (sqlalchemy)

    named = (getattr(a, "by", None) or os.environ.get("TREECALC_USER") or "").strip()
    token = os.environ.get("TREECALC_SESSION", "").strip()
    if token:
        who = auth.session_user(reg, token)
        if who is None:
            raise ValueError(
                "TREECALC_SESSION: that session has ended (signed out, expired, or its account was changed or "
                "disabled): sign in again with 'treecalc user login NAME'"
            )
        if named and named != who[0]:
            raise ValueError(f"--by {named}: the session in TREECALC_SESSION is {who[0]!r}'s, and acts as it only")
        return str(who[0])
    if not named:
        raise ValueError(
            "--by NAME (or TREECALC_USER): say which account acts; its password from TREECALC_PASSWORD or asked "
            "for on a terminal, or a session from 'treecalc user login NAME' (TREECALC_SESSION)"
        )
    token, _role = auth.sign_in(reg, named, _password(named))
    auth.sign_out(reg, token)  # the command acts once: no session is left behind
    return named


def register(subparsers: argparse._SubParsersAction) -> None:
    u = subparsers.add_parser("user", help="staff accounts of the register (made and changed by an engineer)")
    usub = u.add_subparsers(dest="user_command", required=True, metavar="VERB")
    q = usub.add_parser(
        "add",
        help="make an account (or set its role and password; its sessions end); its password is read from stdin. "
        "The first account of an empty register is an engineer's, made without --by",
    )
    q.add_argument("name")
    q.add_argument("--role", required=True, help="engineer, clerk or viewer")
    _db(q)
    add_by(q)
    q.set_defaults(func=_add)

    q = usub.add_parser("login", help="sign in and print a session (TREECALC_SESSION=...) for later commands")
    q.add_argument("name")
    _db(q)
    q.set_defaults(func=_login)

    q = usub.add_parser("logout", help="end the session in TREECALC_SESSION")
    _db(q)
    q.set_defaults(func=_logout)

    for verb, why in (
        ("disable", "disable an account: it cannot sign in or act, its sessions end, its history stays"),
        ("remove", "remove an account (its sessions end; the events it recorded keep its name)"),
    ):
        q = usub.add_parser(verb, help=why)
        q.add_argument("name")
        _db(q)
        add_by(q)
        q.set_defaults(func=_change, verb=verb)

    q = usub.add_parser("roles", help="what each role may do (the register's role matrix, as a Markdown table)")
    q.set_defaults(func=_roles)

    q = usub.add_parser("list", help="the accounts: name, role, disabled")
    _db(q)
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(func=_list)

    q = usub.add_parser(
        "setup",
        help="print a one-time token that makes the first account of an empty register in the app (30 minutes)",
    )
    _db(q)
    q.set_defaults(func=_setup)


def _db(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db", metavar="URL", help="the register's database (default: TREECALC_DB, else the user's data folder)"
    )


def _reg(a: argparse.Namespace) -> Any:
    from treecalc.register import Register  # start-up: with the command that runs, not every command (sqlalchemy)

    return Register(a.db)


def _new_password(name: str) -> str:
    import getpass  # start-up: with the command that runs, not every command

    if sys.stdin.isatty():
        pw = getpass.getpass(f"new password for {name}: ")
        if getpass.getpass("again: ") != pw:
            raise ValueError("the two passwords differ")
        return pw
    return sys.stdin.readline().rstrip("\r\n")


def _add(a: argparse.Namespace) -> int:
    from treecalc.register import accounts  # start-up: with the command that runs, not every command (sqlalchemy)

    reg = _reg(a)
    # an empty register's first account is made without one; every later one by an engineer, signed in
    first = not accounts.listing(reg) and a.by is None and not os.environ.get("TREECALC_SESSION")
    by = a.name if first else acting(a, reg)
    reg.add_user(a.name, a.role, _new_password(a.name), by=by)
    print(f"account {a.name} ({a.role}) saved")
    return 0


def _login(a: argparse.Namespace) -> int:
    from treecalc.register import auth  # start-up: with the command that runs, not every command (sqlalchemy)

    reg = _reg(a)
    given = os.environ.get("TREECALC_PASSWORD")
    if given is None and not sys.stdin.isatty():
        given = sys.stdin.readline().rstrip("\r\n")
    token, role = auth.sign_in(reg, a.name, given if given is not None else _password(a.name))
    print(f"signed in as {a.name} ({role}) for {auth.SESSION_HOURS} hours; to act as {a.name}, set in your shell:")
    print(f"TREECALC_SESSION={token}")
    return 0


def _logout(a: argparse.Namespace) -> int:
    from treecalc.register import auth  # start-up: with the command that runs, not every command (sqlalchemy)

    token = os.environ.get("TREECALC_SESSION", "").strip()
    if not token:
        raise ValueError("TREECALC_SESSION: no session to end (it holds what 'treecalc user login' printed)")
    auth.sign_out(_reg(a), token)
    print("signed out: unset TREECALC_SESSION")
    return 0


def _change(a: argparse.Namespace) -> int:
    from treecalc.register import accounts  # start-up: with the command that runs, not every command (sqlalchemy)

    reg = _reg(a)
    by = acting(a, reg)
    (accounts.disable if a.verb == "disable" else accounts.remove)(reg, a.name, by=by)
    print(f"account {a.name} {a.verb}d")
    return 0


def _roles(a: argparse.Namespace) -> int:
    from treecalc.register import roles  # start-up: with the command that runs, not every command (sqlalchemy)

    print(roles.markdown(), end="")
    return 0


def _list(a: argparse.Namespace) -> int:
    from treecalc.register import accounts  # start-up: with the command that runs, not every command (sqlalchemy)

    rows = accounts.listing(_reg(a))
    if a.json:
        dump_json(rows)
        return 0
    for r in rows:
        print(f"{r['name']}  {r['role']}" + (f"  disabled {r['disabled_at'][:10]}" if r["disabled_at"] else ""))
    if not rows:
        print("no accounts: the first is made with 'treecalc user add NAME --role engineer'")
    return 0


def _setup(a: argparse.Namespace) -> int:
    from treecalc.register import auth  # start-up: with the command that runs, not every command (sqlalchemy)

    token = auth.setup_token(_reg(a))
    print(f"setup token: {token}")
    print(
        f"Works once, for {auth.SETUP_MINUTES} minutes: on the app's Cases page, under "
        "'Make the first account', give it with the engineer's name and password."
    )
    return 0
