"""Found by a hostile round with the register's own commands: a clerk undid what only an engineer records by
voiding it, a voided payment stayed in the balance's lines, and failed sign-ins under a name not yet an account
locked out the account then made. On SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from treecalc.register import Register, RegisterError, audit, auth
from treecalc.register.corrections import void

PASSWORD = "correct horse battery"
# the 4-tree survey's assessment as the register keeps it: $2,000.00 in lieu (4 trees x $500.00)
FUND_CENTS = 200_000


@pytest.fixture
def reg(db_url):
    r = Register(db_url)
    r.add_user("eng", "engineer", PASSWORD, by="setup")
    r.add_user("clk", "clerk", PASSWORD, by="eng")
    return r


@pytest.fixture
def case(reg, survey_csv):
    assessment = {"jurisdiction": "croton_on_hudson", "fund_in_lieu_cents": FUND_CENTS, "fund_in_lieu_usd": 2000.0}
    return reg.new_case(
        by="eng",
        title="14 Elm St",
        kind="permit",
        survey=(survey_csv.name, survey_csv.read_bytes()),
        assessment=assessment,
    )


def test_a_clerk_voids_what_a_clerk_records_never_what_only_an_engineer_records(reg, case):
    decision = reg.decide(case, by="eng", outcome="approved", on="2026-11-02")
    bond = reg.post_bond(case, by="eng", amount="1,200.00", on="2026-11-02")
    payment = reg.pay(case, by="clk", amount="100.00", on="2026-11-03", reference="check 7")
    for kind, entry in (("decision", decision), ("bond", bond)):
        with pytest.raises(RegisterError, match="engineer role: 'clk' is an account of the clerk role"):
            void(reg, kind, entry, by="clk", reason="a clerk's try", on="2026-11-04")
    assert all(d["voided"] is None for d in reg.show(case)["decisions"])
    void(reg, "payment", payment, by="clk", reason="entered on the wrong case", on="2026-11-04")  # the clerk's own
    void(reg, "bond", bond, by="eng", reason="posted on the wrong case", on="2026-11-04")  # the engineer's
    assert audit.verify(reg) is None


def test_the_balance_lines_leave_a_voided_payment_out_and_add_up_to_the_balance(reg, case):
    kept = reg.pay(case, by="clk", amount="750.00", on="2026-11-02", reference="check 1041")
    twice = reg.pay(case, by="clk", amount="750.00", on="2026-11-02", reference="check 1041")
    void(reg, "payment", twice, by="clk", reason="the same check entered twice", on="2026-11-03")
    c = reg.show(case)
    lines = c["balance_lines"]
    assert lines, "no balance lines"
    voided = [ln for ln in lines if ln["item"].startswith(f"payment {twice} ")]
    assert len(voided) == 1 and not voided[0]["in_balance"] and voided[0]["usd"] is None
    assert "voided on 2026-11-03 (the same check entered twice)" in voided[0]["item"]
    counted = [ln for ln in lines[:-1] if ln["in_balance"]]
    # 2,000.00 in lieu - 750.00 (payment `kept`) = 1,250.00, the case's balance and the last line
    assert [ln["usd"] for ln in counted] == ["2000.00", "-750.00"] and f"payment {kept} " in counted[1]["item"]
    assert sum(Decimal(ln["usd"]) for ln in counted) == Decimal(c["balance_usd"]) == Decimal("1250.00")


def test_failed_sign_ins_before_an_account_exists_do_not_lock_it_out(reg):
    # three wrong tries under "ann", not yet an account (a typo'd name, or an account about to be made): the
    # throttle's count for the name is full...
    for _ in range(auth.THROTTLE_FAILURES):
        with pytest.raises(RegisterError, match="wrong"):
            auth.sign_in(reg, "ann", "not her password")
    with pytest.raises(auth.Throttled):
        auth.sign_in(reg, "ann", "still not it")
    # ...and the account made under that name afterwards starts with none held against it
    reg.add_user("ann", "clerk", PASSWORD, by="eng")
    token, role = auth.sign_in(reg, "ann", PASSWORD)
    assert role == "clerk" and auth.session_user(reg, token) == ("ann", "clerk")
    # a new password set by an engineer forgives the failures of the old one too
    for _ in range(auth.THROTTLE_FAILURES):
        with pytest.raises(RegisterError, match="wrong"):
            auth.sign_in(reg, "clk", "forgotten")
    reg.add_user("clk", "clerk", "a new passphrase", by="eng")
    assert auth.sign_in(reg, "clk", "a new passphrase")[1] == "clerk"
