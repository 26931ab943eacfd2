"""The CLI acts as a signed-in account: ``--by NAME`` (or ``TREECALC_USER``) with its password
(``TREECALC_PASSWORD``, or asked on a terminal), or a session from ``treecalc user login``; the register refuses
what the account's role may not do, and the CLI says so (exit 2, naming the role)."""

from __future__ import annotations

import json

import pytest

from tests.register.conftest import treecalc
from treecalc.register import Register, auth

PASSWORD = "correct horse battery"


@pytest.fixture
def reg(db_url, monkeypatch):
    for var in ("TREECALC_USER", "TREECALC_PASSWORD", "TREECALC_SESSION"):
        monkeypatch.delenv(var, raising=False)
    r = Register(db_url)
    r.add_user("eng", "engineer", PASSWORD, by="eng")
    r.add_user("clk", "clerk", "a clerk's password", by="eng")
    return r


def _case(reg: Register) -> int:
    return reg.new_case(by="eng", title="22 Birch Ln", kind="violation")


def test_a_clerk_cannot_decide(reg, db_url, monkeypatch):
    cid = _case(reg)
    monkeypatch.setenv("TREECALC_PASSWORD", "a clerk's password")
    r = treecalc("case", "decide", cid, "--outcome", "denied", "--date", "2026-05-01", "--by", "clk", db=db_url)
    assert r.returncode == 2, r.stdout
    assert "needs an account of the engineer role" in r.stderr and "'clk' is an account of the clerk role" in r.stderr
    assert reg.show(cid)["decisions"] == []
    # the engineer may
    monkeypatch.setenv("TREECALC_PASSWORD", PASSWORD)
    r = treecalc("case", "decide", cid, "--outcome", "denied", "--date", "2026-05-01", "--by", "eng", db=db_url)
    assert r.returncode == 0, r.stderr
    assert [d["by"] for d in reg.show(cid)["decisions"]] == ["eng"]


def test_a_clerk_cannot_reset_the_engineers_password(reg, db_url, monkeypatch):
    # as the hostile round did it: the new password piped in, no password of the clerk's
    r = treecalc("user", "add", "eng", "--role", "engineer", "--by", "clk", stdin="x\n", db=db_url, password=None)
    assert r.returncode == 2 and "password" in r.stderr and "clk" in r.stderr
    # with the clerk's own password: the register refuses, naming the role
    monkeypatch.setenv("TREECALC_PASSWORD", "a clerk's password")
    r = treecalc("user", "add", "eng", "--role", "engineer", "--by", "clk", stdin="taken over by a clerk\n", db=db_url)
    assert r.returncode == 2 and "needs an account of the engineer role" in r.stderr
    assert auth.sign_in(reg, "eng", PASSWORD)[1] == "engineer"  # unchanged


def test_nobody_and_a_wrong_password_are_refused(reg, db_url, monkeypatch):
    cid = _case(reg)
    monkeypatch.setenv("TREECALC_PASSWORD", PASSWORD)
    r = treecalc("case", "note", cid, "--text", "hello", "--by", "nobody", db=db_url)
    assert r.returncode == 2 and "The name or the password is wrong" in r.stderr
    monkeypatch.setenv("TREECALC_PASSWORD", "not the password")
    r = treecalc("case", "note", cid, "--text", "hello", "--by", "eng", db=db_url)
    assert r.returncode == 2 and "The name or the password is wrong" in r.stderr
    monkeypatch.delenv("TREECALC_PASSWORD")
    r = treecalc("case", "note", cid, "--text", "hello", "--by", "eng", db=db_url, password=None)  # not a terminal
    assert r.returncode == 2 and "TREECALC_PASSWORD" in r.stderr
    r = treecalc("case", "note", cid, "--text", "hello", db=db_url)  # no account named at all
    assert r.returncode == 2 and "--by" in r.stderr and "TREECALC_USER" in r.stderr
    assert reg.show(cid)["notes"] == []


def test_treecalc_user_names_the_account(reg, db_url, monkeypatch):
    cid = _case(reg)
    monkeypatch.setenv("TREECALC_USER", "clk")
    monkeypatch.setenv("TREECALC_PASSWORD", "a clerk's password")
    r = treecalc("case", "pay", cid, "--amount", "1350", "--date", "2026-03-02", "--json", db=db_url)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["paid_usd"] == "1350.00"
    assert reg.show(cid)["events"][-1]["by"] == "clk"


def test_a_session_from_user_login(reg, db_url, monkeypatch):
    cid = _case(reg)
    r = treecalc("user", "login", "clk", stdin="a clerk's password\n", db=db_url, password=None)
    assert r.returncode == 0, r.stderr
    token = r.stdout.strip().splitlines()[-1].split("=", 1)[1]
    assert auth.session_user(reg, token) == ("clk", "clerk")
    monkeypatch.setenv("TREECALC_SESSION", token)
    r = treecalc("case", "pay", cid, "--amount", "100", "--date", "2026-03-02", db=db_url)
    assert r.returncode == 0, r.stderr
    r = treecalc("case", "hold", "open", cid, "--date", "2026-03-02", db=db_url)
    assert r.returncode == 2 and "engineer role" in r.stderr
    r = treecalc("case", "pay", cid, "--amount", "100", "--date", "2026-03-02", "--by", "eng", db=db_url)
    assert r.returncode == 2 and "'clk'" in r.stderr  # a session acts as its own account only
    # the engineer disables the clerk: the session ends
    from treecalc.register import accounts

    accounts.disable(reg, "clk", by="eng")
    r = treecalc("case", "pay", cid, "--amount", "100", "--date", "2026-03-02", db=db_url)
    assert r.returncode == 2 and "user login" in r.stderr
    assert reg.show(cid)["paid_usd"] == "100.00"
    r = treecalc("user", "logout", db=db_url)
    assert r.returncode == 0


def test_the_first_account_then_every_later_one_by_an_engineer(db_url, monkeypatch):
    for var in ("TREECALC_USER", "TREECALC_PASSWORD", "TREECALC_SESSION"):
        monkeypatch.delenv(var, raising=False)
    r = treecalc("user", "add", "ann", "--role", "engineer", stdin=f"{PASSWORD}\n", db=db_url)
    assert r.returncode == 0, r.stderr
    r = treecalc("user", "add", "bob", "--role", "clerk", stdin=f"{PASSWORD}\n", db=db_url)
    assert r.returncode == 2 and "--by" in r.stderr
    monkeypatch.setenv("TREECALC_PASSWORD", PASSWORD)
    r = treecalc("user", "add", "bob", "--role", "clerk", "--by", "ann", stdin="bob's own password\n", db=db_url)
    assert r.returncode == 0, r.stderr
    reg = Register(db_url)
    assert auth.sign_in(reg, "bob", "bob's own password")[1] == "clerk"
    r = treecalc("user", "disable", "bob", "--by", "ann", db=db_url)
    assert r.returncode == 0, r.stderr
    r = treecalc("user", "list", "--json", db=db_url)
    listed = {a["name"]: a for a in json.loads(r.stdout)}
    assert listed["bob"]["disabled_at"] and listed["ann"]["disabled_at"] is None
    r = treecalc("user", "remove", "bob", "--by", "ann", db=db_url)
    assert r.returncode == 0, r.stderr
    from treecalc.register import accounts

    assert [a["name"] for a in accounts.listing(reg)] == ["ann"]
    r = treecalc("case", "audit", "--verify", db=db_url)
    assert r.returncode == 0, r.stderr
