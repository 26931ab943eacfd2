"""Corrections without erasing: a payment, planting, decision or bond voided with a reason stays in the record
(the case and the Fund ledger show it and its void; the audit chain verifies), and a form sent twice records
once. On SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import json
import threading

import pytest

from tests.register.conftest import staff, treecalc
from treecalc.register import Register, RegisterError, audit
from treecalc.register.corrections import void

PASSWORD = "correct horse battery"
# what the assessment of the 4-tree survey said (the register records it, never recomputes it): 7 replacements
# needed, 3 plantable, so 4 in lieu x $500.00 = $2,000.00
FUND_CENTS = 200_000


@pytest.fixture
def reg(db_url):
    r = Register(db_url)
    r.add_user("eng", "engineer", PASSWORD, by="setup")
    r.add_user("clk", "clerk", PASSWORD, by="eng")
    r.add_user("ro", "viewer", PASSWORD, by="eng")
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


def test_a_voided_payment_stays_listed_with_its_void_and_the_balance_leaves_it_out(reg, case):
    first = reg.pay(case, by="clk", amount="750.00", on="2026-11-02", reference="check 1041")
    twice = reg.pay(case, by="clk", amount="750.00", on="2026-11-02", reference="check 1041")
    before = reg.show(case)
    assert before["paid_usd"] == "1500.00" and before["balance_usd"] == "500.00"  # 2000.00 - 2 x 750.00

    vid = void(reg, "payment", twice, by="clk", reason="the same check entered twice", on="2026-12-01")

    c = reg.show(case)
    # 2000.00 - 750.00 (the one payment that stands) = 1250.00
    assert c["paid_usd"] == "750.00" and c["balance_usd"] == "1250.00" and c["balance_cents"] == 125_000
    assert [p["id"] for p in c["payments"]] == [first, twice]  # the original is still listed...
    assert c["payments"][0]["voided"] is None
    assert c["payments"][1]["voided"] == {"void": vid, "date": "2026-12-01", "reason": "the same check entered twice"}
    assert c["voids"] == [  # ...and its void beside it
        {
            "id": vid,
            "entry": "payment",
            "entry_id": twice,
            "date": "2026-12-01",
            "reversed_usd": "-750.00",
            "reason": "the same check entered twice",
            "by": "clk",
            "at": c["voids"][0]["at"],
        }
    ]
    assert [e["kind"] for e in c["events"]][-3:] == ["payment", "payment", "payment voided"]
    assert [r["balance_usd"] for r in reg.cases()] == ["1250.00"]
    assert [p["voided"] for p in reg.payments("2026-01-01", "2026-12-31")] == [None, "2026-12-01"]
    assert audit.verify(reg) is None  # the void is an event of the chain; the payment's row and event unchanged


def test_a_backup_keeps_the_voids_and_the_keys_and_restores_audited(reg, case, tmp_path):
    from treecalc.register.backup import backup, restore

    pid = reg.pay(case, by="clk", amount="750.00", on="2026-11-02", key="form-1")
    void(reg, "payment", pid, by="clk", reason="bounced", on="2026-11-20")
    backup(reg, tmp_path / "register.backup")
    copy = Register(f"sqlite:///{tmp_path / 'restored.db'}")
    restore(copy, tmp_path / "register.backup")
    c = copy.show(case)
    assert c["paid_usd"] == "0.00" and c["balance_usd"] == "2000.00"  # 2000.00 - (750.00 voided)
    assert [v["reason"] for v in c["voids"]] == ["bounced"]
    assert copy.pay(case, by="clk", amount="750.00", on="2026-11-02", key="form-1") == pid  # the key came along
    assert audit.verify(copy) is None


def test_the_fund_ledger_keeps_the_receipt_and_books_its_reversal_on_the_day_of_the_void(reg, case):
    reg.pay(case, by="clk", amount="750.00", on="2026-11-02")
    twice = reg.pay(case, by="clk", amount="750.00", on="2026-11-03")
    void(reg, "payment", twice, by="eng", reason="entered twice", on="2026-12-01")

    november = reg.fund_ledger("2026-11-01", "2026-11-30")  # a month already closed stays as it was printed
    assert november["total_usd"] == "1500.00" and november["reversals"] == []

    year = reg.fund_ledger("2026-01-01", "2026-12-31")
    # November: 750.00 + 750.00 = 1500.00 received; December: the second reversed, -750.00; the year: 750.00
    assert year["total_usd"] == "750.00"
    assert [(r["month"], r["usd"], r["reversals_usd"]) for r in year["by_month"]] == [
        ("2026-11", "1500.00", "0.00"),
        ("2026-12", "-750.00", "-750.00"),
    ]
    assert year["by_case"] == [{"case": case, "usd": "750.00"}]
    (rev,) = year["reversals"]
    assert (rev["entry"], rev["entry_id"], rev["usd"], rev["date"]) == ("payment", twice, "-750.00", "2026-12-01")


def test_a_planting_a_decision_and_a_bond_are_voided_and_no_longer_count(reg, case):
    p = reg.plant(case, by="clk", trees=3, accepted_on="2026-10-01")
    keep = reg.plant(case, by="clk", trees=2, accepted_on="2026-10-02")
    d1 = reg.decide(case, by="eng", outcome="approved", on="2026-09-01")
    d2 = reg.decide(case, by="eng", outcome="denied", on="2026-09-02")
    held = reg.post_bond(case, by="eng", amount="5000", on="2026-09-03")
    lost = reg.post_bond(case, by="eng", amount="1200", on="2026-09-03")
    reg.close_bond(lost, by="eng", how="forfeited", on="2026-10-15")

    void(reg, "planting", p, by="clk", reason="recorded on the wrong case", on="2026-10-05")
    void(reg, "decision", d2, by="eng", reason="the denial was of another case", on="2026-09-05")
    void(reg, "bond", held, by="eng", reason="posted twice", on="2026-09-04")
    void(reg, "bond", lost, by="eng", reason="forfeiture entered in error", on="2026-11-20")

    c = reg.show(case)
    assert c["trees_planted"] == 2  # 3 + 2 planted, the 3 voided
    assert c["decision"] == "approved"  # the denial voided: the approval of d1 stands
    assert [d["voided"] is None for d in c["decisions"]] == [True, False] and c["decisions"][0]["id"] == d1
    assert [v["entry"] for v in c["voids"]] == ["planting", "decision", "bond", "bond"]
    assert c["voids"][2]["reversed_usd"] is None  # a bond held put nothing in the Fund
    assert reg.bonds_held()["bonds"] == []  # the bond held voided
    assert [r["planting"] for r in reg.due("2026-01-01", "2040-12-31")] == [keep]
    led = reg.fund_ledger("2026-01-01", "2026-12-31")
    # the forfeiture, $1,200.00 received on 2026-10-15, reversed on 2026-11-20: the year nets 0.00
    assert led["total_usd"] == "0.00" and [r["usd"] for r in led["reversals"]] == ["-1200.00"]
    with pytest.raises(RegisterError, match="planting .* was voided"):
        reg.inspect(p, by="clk", on="2029-10-02", dead=0)
    assert audit.verify(reg) is None


def test_refused_a_void_of_a_void_unknown_no_reason_and_a_role_not_allowed(reg, case):
    pid = reg.pay(case, by="clk", amount="100", on="2026-11-02")
    vid = void(reg, "payment", pid, by="eng", reason="bounced", on="2026-11-10")
    with pytest.raises(RegisterError, match="a void is not undone"):
        void(reg, "payment", pid, by="eng", reason="again")
    with pytest.raises(RegisterError, match="a void is not voided"):
        void(reg, "void", vid, by="eng", reason="undo")
    with pytest.raises(RegisterError, match="no payment 99 in the register"):
        void(reg, "payment", 99, by="eng", reason="x")
    with pytest.raises(RegisterError, match="‹reason›"):
        void(reg, "payment", pid, by="eng", reason="   ")
    with pytest.raises(RegisterError, match="one of payment, planting, decision, bond"):
        void(reg, "note", 1, by="eng", reason="x")
    for who, said in (("ro", "an account of the viewer role"), ("nobody", "not an account")):
        # the refusal is the role matrix's (roles.require): "... needs an account of the engineer or clerk roles: ..."
        with pytest.raises(RegisterError, match=f"engineer or clerk roles: '{who}' is {said}"):
            void(reg, "payment", pid, by=who, reason="x")
    other = reg.pay(case, by="clk", amount="100", on="2026-11-02")
    with pytest.raises(RegisterError, match="a void comes after"):
        void(reg, "payment", other, by="eng", reason="x", on="2026-11-01")
    assert len(reg.show(case)["voids"]) == 1
    assert audit.verify(reg) is None


def test_a_form_sent_twice_records_one_payment_and_gives_back_the_first(reg, case):
    first = reg.pay(case, by="clk", amount="250.50", on="2026-11-02", key="form-7f3a")
    again = reg.pay(case, by="clk", amount="250.50", on="2026-11-02", key="form-7f3a")
    assert again == first
    c = reg.show(case)
    assert [p["id"] for p in c["payments"]] == [first] and c["paid_usd"] == "250.50"
    assert [e["kind"] for e in c["events"]].count("payment") == 1  # nothing recorded the second time
    other = reg.pay(case, by="clk", amount="250.50", on="2026-11-02", key="form-8b21")  # a new form: a new payment
    assert other != first and reg.show(case)["paid_usd"] == "501.00"  # 250.50 x 2
    second = reg.new_case(by="eng", title="9 Other Rd", kind="violation")
    with pytest.raises(RegisterError, match="already recorded row 1 of payments on case 1"):
        reg.pay(second, by="clk", amount="250.50", on="2026-11-02", key="form-7f3a")  # a key is one form's
    assert audit.verify(reg) is None


def test_a_double_click_sent_at_once_from_two_threads_lands_once(reg, case):
    got: list[int] = []
    start = threading.Barrier(4)

    def click() -> None:
        start.wait()
        got.append(reg.pay(case, by="clk", amount="99.99", on="2026-11-02", key="form-double"))

    threads = [threading.Thread(target=click) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4 and len(set(got)) == 1
    assert reg.show(case)["paid_usd"] == "99.99"


def test_the_cli_voids_shows_both_and_the_audit_verifies(db_url, survey_csv):
    # the register's first account is an engineer's, who makes the clerk's (no event number is asserted below)
    staff(staff(db_url, "eng"), "clk", role="clerk")
    staff(db_url, "ro", role="viewer")
    treecalc("case", "new", "--survey", survey_csv, "--title", "14 Elm St", "--by", "clk", db=db_url, check=True)
    treecalc("case", "pay", "1", "--amount", "100.25", "--date", "2026-11-02", "--by", "clk", db=db_url, check=True)
    treecalc("case", "pay", "1", "--amount", "100.25", "--date", "2026-11-02", "--by", "clk", db=db_url, check=True)
    r = treecalc(
        "case", "void", "payment", "2", "--reason", "entered twice", "--date", "2026-12-01", "--by", "clk", db=db_url
    )
    assert r.returncode == 0 and "payment 2 voided (void 1)" in r.stdout
    show = treecalc("case", "show", "1", db=db_url, check=True).stdout
    assert "payment 1: $100.25 on 2026-11-02\n" in show
    assert "payment 2: $100.25 on 2026-11-02 — VOIDED on 2026-12-01 (void 1: entered twice)" in show
    assert "void 1: payment 2 voided from 2026-12-01 by clk: entered twice (reversed -$100.25)" in show
    assert "paid $100.25" in show  # 2 x 100.25 received, one voided
    fund = treecalc("case", "fund", "--from", "2026-01-01", "--to", "2026-12-31", db=db_url, check=True).stdout
    # 200.50 received in November, 100.25 reversed in December: 100.25
    assert "Fund receipts 2026-01-01 to 2026-12-31: $100.25" in fund
    assert "reversed: void 1 of payment 2 of case 1 (14 Elm St): -$100.25 on 2026-12-01 (entered twice)" in fund
    assert treecalc("case", "audit", "--verify", db=db_url).returncode == 0
    for args, said in (
        (("payment", "2", "--reason", "again"), "a void is not undone"),
        (("void", "1", "--reason", "undo"), "a void is not voided"),
        (("payment", "9", "--reason", "x"), "no payment 9"),
        (("payment", "1", "--reason", ""), "a void says why"),
        # the CLI acts as a signed-in account: a name without one is refused at sign-in, not told it has none
        (("payment", "1", "--reason", "x", "--by", "nobody"), "The name or the password is wrong"),
        (("payment", "1", "--reason", "x", "--by", "ro"), "engineer or clerk roles: 'ro' is an account of the viewer"),
    ):
        by = () if "--by" in args else ("--by", "clk")
        r = treecalc("case", "void", *args, *by, db=db_url)
        assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def test_a_civil_penalty_decision_voided_is_listed_and_no_longer_owed(reg, tmp_path):
    from treecalc.register.decisions import decide_penalty

    survey = tmp_path / "9_Birch_Ln_violation.csv"  # three trees removed without a permit, one retained
    survey.write_text(
        "Tag,Species,DBH (in),Action\n201,Red maple,12,removed\n202,Northern red oak,18,removed\n"
        "203,Sugar maple,7,removed\n204,White pine,16,retain\n"
    )
    args = ["case", "new", "--survey", survey, "--fee-per-tree", "450", "--plantable", "2", "--kind", "violation"]
    site = ("subdividable=true", "has_residence=false", "site_plan_required=true")
    r = treecalc(*args, *[x for f in site for x in ("--site", f)], "--by", "eng", "--json", db=reg.url, check=True)
    cid = json.loads(r.stdout)["id"]
    first = decide_penalty(reg, cid, by="eng", amount="3,000", on="2026-11-20", reference="PB res. 2026-41")
    later = decide_penalty(reg, cid, by="eng", amount="2500", on="2026-12-03", reference="PB res. 2026-47")
    # 4 replacement trees in lieu (as tests/register/test_register_owed.py works out) x $450.00 = $1,800.00;
    # the later decision is the one owed: 1,800.00 + 2,500.00 = 4,300.00
    assert reg.show(cid)["balance_usd"] == "4300.00"
    vid = void(reg, "penalty", later, by="eng", reason="minutes of another case", on="2026-12-04")
    c = reg.show(cid)
    # the later one voided: the first is owed again, 1,800.00 + 3,000.00 = 4,800.00
    assert c["balance_usd"] == "4800.00" and c["civil_penalty"]["amount_usd"] == "3000.00"
    assert [(d["id"], d["voided"]) for d in c["penalty_decisions"]] == [
        (first, None),
        (later, {"void": vid, "date": "2026-12-04", "reason": "minutes of another case"}),
    ]
    assert next(x for x in reg.cases() if x["id"] == cid)["balance_usd"] == c["balance_usd"]
    assert audit.verify(reg) is None
