"""The role matrix is the register's own: each register operation is called as each role (and as a name that is no
account, and as a disabled account), and allowed or refused as :data:`treecalc.register.roles.MATRIX` says, on
SQLite and PostgreSQL. The matrix itself is pinned here as the Village's practice says it (the Engineer decides,
keeps the bonds, holds, links, fee schedule and accounts; a clerk records what reaches the counter; a viewer
reads), and docs/register.md holds the table the library prints."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from tests.register.conftest import treecalc
from treecalc.register import Register, RegisterError, accounts, auth, corrections, decisions, fees, links, roles

PASSWORD = "correct horse battery"
NAMES = {"engineer": "eng", "clerk": "clk", "viewer": "ro"}

#: who may do each act: written out from the Village's practice, not read from the library
EXPECTED = {
    "open": {"engineer", "clerk"},
    "assess": {"engineer", "clerk"},
    "pay": {"engineer", "clerk"},
    "plant": {"engineer", "clerk"},
    "inspect": {"engineer", "clerk"},
    "note": {"engineer", "clerk"},
    "decide": {"engineer"},
    "bond": {"engineer"},
    "hold": {"engineer"},
    "link": {"engineer"},
    "fee_schedule": {"engineer"},
    "accounts": {"engineer"},
    "share": {"engineer", "clerk", "viewer"},
    # the Planning Board's civil penalty (§208-29B) is recorded by the Engineer; a void of an entry made by
    # mistake by whoever records entries at the counter or decides; anyone may try to sign in (the attempt is
    # recorded under the name tried)
    "penalty": {"engineer"},
    "void": {"engineer", "clerk"},
    # a void of a decision, the civil penalty or a bond: only who may record them (a clerk undid the Board's
    # penalty by voiding it, in a hostile round)
    "void_ruling": {"engineer"},
    "sign_in": {"engineer", "clerk", "viewer"},
}


@pytest.fixture
def reg(db_url):
    r = Register(db_url)
    r.add_user("eng", "engineer", PASSWORD, by="eng")  # the first account of an empty register: made without one
    r.add_user("eng2", "engineer", PASSWORD, by="eng")
    r.add_user("clk", "clerk", PASSWORD, by="eng")
    r.add_user("ro", "viewer", PASSWORD, by="eng")
    r.add_user("gone", "clerk", PASSWORD, by="eng")
    accounts.disable(r, "gone", by="eng")
    return r


def _case(reg: Register) -> int:
    return reg.new_case(by="eng", title="22 Birch Ln", kind="violation")


def _violation(reg: Register) -> int:
    """A violation case opened by the engineer with its assessment (``treecalc case new``): an owner's clearing of a
    subdividable lot without a permit, trees 201 (12 in) and 202 (18 in) offences with a civil penalty (§208-29B),
    as tests/register/test_register_owed.py works out."""
    survey = Path(tempfile.mkdtemp()) / "9_Birch_Ln_violation.csv"
    survey.write_text(
        "Tag,Species,DBH (in),Action\n201,Red maple,12,removed\n202,Northern red oak,18,removed\n"
        "203,Sugar maple,7,removed\n204,White pine,16,retain\n"
    )
    site = ("subdividable=true", "has_residence=false", "site_plan_required=true")
    r = treecalc(
        "case", "new", "--survey", survey, "--fee-per-tree", "450", "--plantable", "2", "--kind", "violation",
        *[x for f in site for x in ("--site", f)], "--title", "9 Birch Ln", "--by", "eng", "--json",
        db=reg.url, password=PASSWORD, check=True,
    )  # fmt: skip
    return int(json.loads(r.stdout)["id"])


#: (operation, act, how to do it as ``by``): the prerequisites are made by the engineer first
def _operations() -> list[tuple[str, str, object]]:
    n = iter(range(10_000))

    def bond_closed(how: str):
        def run(reg, by):
            b = reg.post_bond(_case(reg), by="eng", amount="2500", on="2026-05-01")
            reg.close_bond(b, by=by, how=how, on="2026-06-01")

        return run

    def hold_closed(reg, by):
        h = reg.open_hold(_case(reg), by="eng", on="2026-05-01", reason="removed without a permit")
        reg.close_hold(h, by=by, on="2026-06-01")

    def inspect(reg, by):
        p = reg.plant(_case(reg), by="eng", trees=3, accepted_on="2026-04-15")
        reg.inspect(p, by=by, on="2026-05-01", dead=1)

    def replant(reg, by):
        cid = _case(reg)
        p = reg.plant(cid, by="eng", trees=3, accepted_on="2026-04-15")
        reg.inspect(p, by="eng", on="2026-05-01", dead=1)
        reg.plant(cid, by=by, trees=1, accepted_on="2026-05-20", replant_of=p)

    def revoke_case_link(reg, by):
        t = links.make_link(reg, by="eng", kind="case", case_id=_case(reg), days=7)
        links.revoke_link(reg, t, by=by)

    def revoke_view_link(reg, by):
        t = links.make_link(reg, by="eng", kind="view", survey_name="lot 7.csv", days=7)
        links.revoke_link(reg, t, by=by)

    def void_payment(reg, by):
        p = reg.pay(_case(reg), by="eng", amount="1350", on="2026-03-02")
        corrections.void(reg, "payment", p, by=by, reason="the check was returned", on="2026-03-09")

    def void_bond(reg, by):
        b = reg.post_bond(_case(reg), by="eng", amount="1,200.00", on="2026-03-02")
        corrections.void(reg, "bond", b, by=by, reason="posted on the wrong case", on="2026-03-09")

    def sign_in_and_out(reg, by):
        if by not in [a["name"] for a in accounts.listing(reg) if not a["disabled_at"]]:
            # anyone may try (the matrix lets the attempt be recorded); the password check refuses the sign-in
            with pytest.raises(RegisterError, match="name or the password is wrong|was disabled"):
                auth.sign_in(reg, by, PASSWORD)
            return
        token, _ = auth.sign_in(reg, by, PASSWORD)
        auth.sign_out(reg, token)

    def fee(reg, by):
        fees.record(reg, by=by, resolution_date=f"2026-0{1 + next(n) % 9}-1{next(n) % 10}", fee_per_tree_usd="450")

    def account_changed(what):
        def run(reg, by):
            name = f"temp{next(n)}"
            reg.add_user(name, "viewer", PASSWORD, by="eng")
            if what == "role":
                reg.add_user(name, "clerk", PASSWORD, by=by)
            elif what == "disable":
                accounts.disable(reg, name, by=by)
            else:
                accounts.remove(reg, name, by=by)

        return run

    return [
        ("new_case", "open", lambda reg, by: reg.new_case(by=by, title="22 Birch Ln", kind="violation")),
        (
            "reassess",
            "assess",
            lambda reg, by: reg.reassess(
                _case(reg), by=by, survey=("birch.csv", b"Tag,Species\n1,Red maple\n"), assessment={}
            ),
        ),
        ("pay", "pay", lambda reg, by: reg.pay(_case(reg), by=by, amount="1350", on="2026-03-02")),
        ("plant", "plant", lambda reg, by: reg.plant(_case(reg), by=by, trees=3, accepted_on="2026-04-15")),
        ("plant (replant)", "plant", replant),
        ("inspect", "inspect", inspect),
        ("note", "note", lambda reg, by: reg.note(_case(reg), by=by, text="site visit")),
        ("decide", "decide", lambda reg, by: reg.decide(_case(reg), by=by, outcome="denied", on="2026-05-01")),
        (
            "decide_penalty",
            "penalty",
            lambda reg, by: decisions.decide_penalty(reg, _violation(reg), by=by, amount="3000", on="2026-11-20"),
        ),
        ("void payment", "void", void_payment),
        ("void bond", "void_ruling", void_bond),
        ("sign_in and sign_out", "sign_in", sign_in_and_out),
        ("post_bond", "bond", lambda reg, by: reg.post_bond(_case(reg), by=by, amount="2500", on="2026-05-01")),
        ("close_bond released", "bond", bond_closed("released")),
        ("close_bond forfeited", "bond", bond_closed("forfeited")),
        ("open_hold", "hold", lambda reg, by: reg.open_hold(_case(reg), by=by, on="2026-05-01")),
        ("close_hold", "hold", hold_closed),
        ("make_link case", "link", lambda reg, by: links.make_link(reg, by=by, kind="case", case_id=_case(reg))),
        ("revoke_link case", "link", revoke_case_link),
        ("fees.record", "fee_schedule", fee),
        ("add_user", "accounts", lambda reg, by: reg.add_user(f"new{next(n)}", "viewer", PASSWORD, by=by)),
        ("add_user (role change)", "accounts", account_changed("role")),
        ("accounts.disable", "accounts", account_changed("disable")),
        ("accounts.remove", "accounts", account_changed("remove")),
        ("put_blob", "share", lambda reg, by: reg.put_blob(f"Tag\n{next(n)}\n".encode(), by=by)),
        ("make_link view", "share", lambda reg, by: links.make_link(reg, by=by, kind="view", survey_name="lot 7.csv")),
        ("revoke_link view", "share", revoke_view_link),
    ]


def test_the_matrix_is_the_villages():
    assert {act: set(spec.roles) for act, spec in roles.MATRIX.items()} == EXPECTED


def test_every_act_has_an_operation_in_this_test():
    covered = {act for _, act, _ in _operations()}
    assert covered == set(roles.MATRIX)


def test_each_operation_as_each_role(reg):
    from treecalc.register.audit import verify

    seen = []
    for op, act, run in _operations():
        for role, name in NAMES.items():
            if role in EXPECTED[act]:
                run(reg, name)  # allowed: no refusal
                seen.append((op, role, "allowed"))
            else:
                # refused by the register, in a sentence naming the role(s) that may
                want = " or ".join(r for r in roles.ROLES if r in EXPECTED[act])
                with pytest.raises(RegisterError, match=f"needs an account of the {want} role") as e:
                    run(reg, name)
                assert f"{name!r} is an account of the {role} role" in str(e.value)
                seen.append((op, role, "refused"))
        for name, why in (("nobody", "is not an account of this register"), ("gone", "was disabled on")):
            if roles.MATRIX[act].anyone:
                run(reg, name)  # a visitor's share: the links' own rules
            else:
                with pytest.raises(RegisterError, match=why):
                    run(reg, name)
    # 27 operations x 3 roles, each answered (23 before the civil penalty, the two voids and sign-ins joined)
    assert len(seen) == 27 * 3
    assert ("decide", "clerk", "refused") in seen and ("pay", "clerk", "allowed") in seen
    assert ("add_user", "clerk", "refused") in seen and ("pay", "viewer", "refused") in seen
    assert verify(reg) is None  # refusals wrote nothing: the chain and the tables agree


def test_a_refused_act_writes_no_event(reg):
    cid = _case(reg)
    before = len(reg.show(cid)["events"])
    with pytest.raises(RegisterError, match="Recording the decision on a case needs an account of the engineer role"):
        reg.decide(cid, by="clk", outcome="approved", on="2026-05-01")
    after = reg.show(cid)
    assert len(after["events"]) == before and after["decisions"] == []


def test_a_clerk_cannot_reset_an_engineers_password(reg):
    with pytest.raises(RegisterError, match="engineer role"):
        reg.add_user("eng", "engineer", "a clerk's new one", by="clk")
    token, role = auth.sign_in(reg, "eng", PASSWORD)  # the engineer's password is unchanged
    assert role == "engineer" and auth.session_user(reg, token) == ("eng", "engineer")


def test_the_first_account_is_an_engineers_made_without_one(db_url):
    r = Register(db_url)
    with pytest.raises(RegisterError, match="first is an engineer's"):
        r.add_user("ann", "clerk", PASSWORD, by="ann")
    r.add_user("ann", "engineer", PASSWORD, by="ann")
    with pytest.raises(RegisterError, match="'bob' is not an account of this register"):
        r.add_user("bob", "clerk", PASSWORD, by="bob")  # every later account: by an engineer
    r.add_user("bob", "clerk", PASSWORD, by="ann")
    assert [(a["name"], a["role"]) for a in accounts.listing(r)] == [("ann", "engineer"), ("bob", "clerk")]


def test_a_password_or_role_change_ends_the_accounts_sessions(reg):
    t1, _ = auth.sign_in(reg, "clk", PASSWORD)
    reg.add_user("clk", "clerk", "another good password", by="eng")  # password changed
    assert auth.session_user(reg, t1) is None
    t2, _ = auth.sign_in(reg, "clk", "another good password")
    reg.add_user("clk", "viewer", "another good password", by="eng")  # role changed
    assert auth.session_user(reg, t2) is None
    t3, role = auth.sign_in(reg, "clk", "another good password")
    assert role == "viewer" and auth.session_user(reg, t3) == ("clk", "viewer")


def test_a_disabled_account_cannot_sign_in_and_its_sessions_end(reg):
    token, _ = auth.sign_in(reg, "clk", PASSWORD)
    accounts.disable(reg, "clk", by="eng")
    assert auth.session_user(reg, token) is None
    with pytest.raises(RegisterError, match="was disabled on .*cannot sign in"):
        auth.sign_in(reg, "clk", PASSWORD)
    with pytest.raises(RegisterError, match="the account 'clk' was disabled"):
        reg.pay(_case(reg), by="clk", amount="10", on="2026-03-02")
    # a wrong password says only that: whether the account is disabled is not told
    with pytest.raises(RegisterError, match="The name or the password is wrong"):
        auth.sign_in(reg, "gone", "a wrong password")


def test_a_removed_account_is_gone_its_history_stays(reg):
    from treecalc.register.audit import verify

    cid = reg.new_case(by="clk", title="5 Oak Ct", kind="permit")
    token, _ = auth.sign_in(reg, "clk", PASSWORD)
    accounts.remove(reg, "clk", by="eng")
    assert auth.session_user(reg, token) is None
    assert "clk" not in [a["name"] for a in accounts.listing(reg)]
    with pytest.raises(RegisterError, match="'clk' is not an account"):
        reg.note(cid, by="clk", text="after removal")
    assert reg.show(cid)["opened_by"] == "clk"
    assert verify(reg) is None  # the removal is an event the audit replays


def test_the_last_engineer_stays(db_url):
    r = Register(db_url)
    r.add_user("eng", "engineer", PASSWORD, by="eng")
    for do in (
        lambda: accounts.disable(r, "eng", by="eng"),
        lambda: accounts.remove(r, "eng", by="eng"),
        lambda: r.add_user("eng", "clerk", PASSWORD, by="eng"),
    ):
        with pytest.raises(RegisterError, match="last enabled engineer"):
            do()
    assert accounts.listing(r) == [{"name": "eng", "role": "engineer", "disabled_at": None}]


def test_require_answers_before_a_write(reg):
    assert roles.require(reg, " eng ", "decide") == "eng"
    with pytest.raises(RegisterError, match="needs an account of the engineer role: 'clk' is an account of the clerk"):
        roles.require(reg, "clk", "decide")
    assert roles.may("clerk", "pay") and not roles.may("viewer", "pay") and not roles.may(None, "pay")


def test_an_event_kind_no_act_names_is_refused(reg):
    with pytest.raises(RegisterError, match="not an act of the register's role matrix"):
        reg._write("eng", "payment erased", None, lambda rec: None)


def test_docs_hold_the_matrix_the_library_prints():
    """docs/register.md holds the table ``treecalc user roles`` prints (the library's data), verbatim."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "register.md").read_text(encoding="utf-8")
    begin, end = "<!-- roles matrix: treecalc user roles -->\n", "<!-- end of the roles matrix -->"
    assert begin in text and end in text
    assert text.split(begin, 1)[1].split(end, 1)[0] == roles.markdown()
    assert "| recording the decision on a case | yes | — | — |" in roles.markdown()
