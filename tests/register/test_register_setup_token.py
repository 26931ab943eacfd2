"""The first account of an empty register: made only with a one-time setup token, printed on the server's
machine (``treecalc user setup``, or the app's console at start); the token works once and expires."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.register.conftest import treecalc

PASSWORD = "correct horse battery"


def _accounts(reg):
    from sqlalchemy import func, select

    from treecalc.register import models as m

    with reg.reading() as s:
        return s.scalar(select(func.count()).select_from(m.User))


def test_no_token_no_first_account(db_url):
    from treecalc.register import Register, RegisterError, auth

    reg = Register(db_url)
    for guess in ("", "x", None):
        with pytest.raises(RegisterError, match="setup token is wrong, used or expired"):
            auth.first_account(reg, guess, "mallory", PASSWORD)  # type: ignore[arg-type]
    token = auth.setup_token(reg)
    with pytest.raises(RegisterError, match="setup token is wrong"):
        auth.first_account(reg, token[:-1], "mallory", PASSWORD)  # a near guess is no token
    assert _accounts(reg) == 0


def test_the_token_works_once_and_makes_an_engineer(db_url):
    from treecalc.register import Register, RegisterError, auth

    reg = Register(db_url)
    token = auth.setup_token(reg)
    with pytest.raises(RegisterError, match="at least 10 characters"):
        auth.first_account(reg, token, "ann", "short")  # a short password does not spend the token
    auth.first_account(reg, token, "ann", PASSWORD)
    assert auth.session_user(reg, auth.sign_in(reg, "ann", PASSWORD)[0]) == ("ann", "engineer")
    assert auth.session_user(reg, token) is None  # a setup token never signs anyone in
    with pytest.raises(RegisterError, match="has an account already"):
        auth.first_account(reg, token, "bob", PASSWORD)  # spent, and the register has an account
    with pytest.raises(RegisterError, match="has an account already"):
        auth.setup_token(reg)  # no setup once there is an account
    assert _accounts(reg) == 1


def test_a_newer_token_replaces_the_older_and_tokens_expire(db_url, monkeypatch):
    from treecalc.register import Register, RegisterError, auth

    reg = Register(db_url)
    old = auth.setup_token(reg)
    new = auth.setup_token(reg)
    with pytest.raises(RegisterError, match="wrong, used or expired"):
        auth.first_account(reg, old, "ann", PASSWORD)
    expired = auth.setup_token(reg, minutes=-1)  # made already past its expiry
    with pytest.raises(RegisterError, match="wrong, used or expired"):
        auth.first_account(reg, expired, "ann", PASSWORD)
    with pytest.raises(RegisterError, match="wrong, used or expired"):
        auth.first_account(reg, new, "ann", PASSWORD)  # replaced by the expired one
    assert _accounts(reg) == 0
    assert dt.timedelta(minutes=auth.SETUP_MINUTES) == dt.timedelta(minutes=30)


def test_cli_user_setup_prints_a_token_that_makes_the_first_account(tmp_path):
    from treecalc.register import Register, auth

    db = f"sqlite:///{tmp_path / 'register.db'}"
    done = treecalc("user", "setup", db=db)
    assert done.returncode == 0, done.stderr
    token = done.stdout.strip().splitlines()[0].split()[-1]
    assert "30 minutes" in done.stdout and "once" in done.stdout
    reg = Register(db)
    auth.first_account(reg, token, "ann", PASSWORD)
    assert _accounts(reg) == 1
    again = treecalc("user", "setup", db=db)
    assert again.returncode == 2 and "has an account already" in again.stderr
