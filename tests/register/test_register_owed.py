"""A violation case carries what it owes: the assessment's penalties per tree, the Planning Board's civil penalty
(recorded by an engineer), the replacement owed against planted, bonds, holds, and the balance line by line; on
SQLite and on PostgreSQL, through the library and through ``treecalc case decide`` / ``case show``."""

from __future__ import annotations

import json

import pytest

from tests.register.conftest import treecalc

PW = "correct horse battery"


@pytest.fixture
def violation_csv(tmp_path):
    """An owner's clearing of a subdividable lot without a permit (not the bundled sample): three trees taken down,
    one kept."""
    p = tmp_path / "9_Birch_Ln_violation.csv"
    p.write_text(
        "Tag,Species,DBH (in),Action\n201,Red maple,12,removed\n202,Northern red oak,18,removed\n"
        "203,Sugar maple,7,removed\n204,White pine,16,retain\n"
    )
    return p


def _accounts(db_url):
    from treecalc.register import Register

    reg = Register(db_url)
    reg.add_user("ann", "engineer", PW, by="setup")
    reg.add_user("bob", "clerk", PW, by="ann")
    return reg


def _open(db_url, survey, *site):
    args = ["case", "new", "--survey", survey, "--fee-per-tree", "450", "--plantable", "2", "--kind", "violation"]
    for fact in site:
        args += ["--site", fact]
    r = treecalc(*args, "--title", "9 Birch Ln", "--by", "ann", "--json", db=db_url, check=True)
    return json.loads(r.stdout)["id"]


DEFINITE = ("subdividable=true", "has_residence=false", "site_plan_required=true")


def test_violation_case_owes_line_by_line(db_url, violation_csv):
    from treecalc.register.audit import verify
    from treecalc.register.decisions import decide_penalty

    reg = _accounts(db_url)
    cid = _open(db_url, violation_csv, *DEFINITE)
    c = reg.show(cid)
    # §208-19A(2): 8 in or more on a subdividable lot without a residence needs a permit: trees 201 (12 in) and
    # 202 (18 in) were offences; 203 (7 in) needed none. §208-29B: 201 > 8 and <= 12 in -> (2) up to $1,500;
    # 202 > 12 in -> (3) up to $3,000; 2 trees, not more than 3: not doubled. Civil up to 1,500 + 3,000 = $4,500.
    # §208-29A: $250 a tree, 2 x 250 = $500.
    pen = c["penalties"]
    assert (pen["civil_max_usd"], pen["civil_conditional_usd"], pen["criminal_max_usd"]) == (
        "4500.00",
        "0.00",
        "500.00",
    )
    trees = [(t["tag"], t["civil_section"], t["civil_max_usd"], t["criminal_max_usd"]) for t in pen["trees"]]
    assert trees == [("201", "§208-29B(2)", "1500.00", "250.00"), ("202", "§208-29B(3)", "3000.00", "250.00")]
    # no decision recorded: the civil penalty is the maximum, said so, and not in the balance
    assert not c["civil_penalty"]["decided"] and c["civil_penalty"]["amount_usd"] is None
    assert "not yet assessed by the Planning Board: up to $4,500.00" in c["civil_penalty"]["words"]
    # §208-22F: 120% of the trees' values. The assessment values 201 at $127.11/yr and 202 at $194.57/yr:
    # 321.68 x 1.2 = 386.016 -> $386.02 (up); one replacement red maple 2 in is $64.68/yr:
    # 386.02 / 64.68 = 5.97 -> 6 trees; 2 plantable, 4 in lieu at $450 = $1,800.00 (§208-24)
    rep = c["replacement_owed"]
    assert rep["parts"][0]["value_usd"] == "321.68" and rep["required_value_usd"] == "386.02"
    assert (rep["sections"], rep["trees_needed"], rep["trees_on_site"], rep["trees_in_lieu"]) == ("§208-22F", 6, 2, 4)
    assert (rep["trees_planted"], rep["trees_still_to_plant"], rep["value_planted_usd"]) == (0, 2, "0.00")
    lines = [(ln["section"], ln["usd"], ln["in_balance"]) for ln in c["balance_lines"]]
    assert lines == [
        ("§208-22F", "1800.00", True),
        ("§208-29B", None, False),
        ("§208-29A", None, False),
        (None, "1800.00", True),
    ]
    assert c["balance_usd"] == "1800.00"

    # only an engineer records the Board's decision; a clerk and an unknown name are refused naming the role
    for who in ("bob", "nobody"):
        with pytest.raises(ValueError, match="engineer role"):
            decide_penalty(reg, cid, by=who, amount="3000", on="2026-11-20")
    # never more than the law allows for the offences found: $4,500.01 > $4,500.00
    with pytest.raises(ValueError, match=r"over the \$4,500.00"):
        decide_penalty(reg, cid, by="ann", amount="4500.01", on="2026-11-20")
    assert reg.show(cid)["penalty_decisions"] == []

    d1 = decide_penalty(reg, cid, by="ann", amount="3,000", on="2026-11-20", reference="PB res. 2026-41")
    reg.pay(cid, by="bob", amount="1000", on="2026-12-01", reference="chk 77")
    c = reg.show(cid)
    # owed: 1,800.00 in lieu + 3,000.00 civil penalty = 4,800.00; paid 1,000.00; balance 3,800.00
    assert (c["owed_usd"], c["paid_usd"], c["balance_usd"]) == ("4800.00", "1000.00", "3800.00")
    assert c["civil_penalty"]["decided"] and c["civil_penalty"]["amount_usd"] == "3000.00"
    assert c["penalty_decisions"][0]["id"] == d1 and c["penalty_decisions"][0]["reference"] == "PB res. 2026-41"
    assert [(ln["section"], ln["usd"], ln["in_balance"]) for ln in c["balance_lines"]] == [
        ("§208-22F", "1800.00", True),
        ("§208-29B", "3000.00", True),
        ("§208-29A", None, False),
        (None, "-1000.00", True),
        (None, "3800.00", True),
    ]
    assert next(r for r in reg.cases() if r["id"] == cid)["balance_usd"] == "3800.00"

    # the Board's later decision (compromised after review) is the one owed: 1,800 + 2,500 - 1,000 = 3,300.00
    decide_penalty(reg, cid, by="ann", amount="2500", on="2026-12-03", reference="PB res. 2026-47")
    # bonds: one forfeited ($2,000.00, a Fund receipt), one held ($500.00): neither pays the balance
    b1 = reg.post_bond(cid, by="ann", amount="2000", on="2026-10-01")
    reg.post_bond(cid, by="ann", amount="500", on="2026-10-02")
    reg.close_bond(b1, by="ann", how="forfeited", on="2026-12-02")
    # two replacement trees planted: none left to plant on site; 2 x 64.68 = 129.36
    reg.plant(cid, by="bob", trees=2, accepted_on="2026-11-30", species="ACRU")
    reg.open_hold(cid, by="ann", on="2026-10-01", reason="violation served")
    reg.note(cid, by="ann", text="hearing held 2026-11-18")
    c = reg.show(cid)
    assert (c["owed_usd"], c["balance_usd"]) == ("4300.00", "3300.00")
    assert len(c["penalty_decisions"]) == 2 and c["civil_penalty"]["amount_usd"] == "2500.00"
    rep = c["replacement_owed"]
    assert (rep["trees_planted"], rep["trees_still_to_plant"], rep["value_planted_usd"]) == (2, 0, "129.36")
    bonds = [ln for ln in c["balance_lines"] if ln["item"].startswith("bond")]
    assert [(b["usd"], b["in_balance"]) for b in bonds] == [("2000.00", False), ("500.00", False)]
    assert "receipt of the Fund" in bonds[0]["item"]
    assert c["holding_certificates"] and c["notes"][0]["text"] == "hearing held 2026-11-18"
    led = reg.fund_ledger("2026-01-01", "2026-12-31")
    assert led["total_usd"] == "3000.00"  # 1,000.00 paid + 2,000.00 forfeited
    assert verify(reg) is None  # every decision is a row its event wrote


def test_no_decision_on_conditional_offences_says_so_and_charges_nothing(db_url, violation_csv):
    from treecalc.register.decisions import decide_penalty

    reg = _accounts(db_url)
    cid = _open(db_url, violation_csv)  # the parcel facts not given: 201 and 202 are offences only if established
    c = reg.show(cid)
    # civil: nothing definite; 1,500 + 3,000 = 4,500 conditional; no replacement required, nothing in lieu
    assert (c["penalties"]["civil_max_usd"], c["penalties"]["civil_conditional_usd"]) == ("0.00", "4500.00")
    assert "up to $4,500.00 if the conditional offences are established" in c["civil_penalty"]["words"]
    assert c["fund_in_lieu_usd"] == "0.00" and c["balance_usd"] == "0.00"
    assert not c["replacement_owed"]["required"] and "§208-22F: 6 trees" in c["replacement_owed"]["conditional"]
    assert [ln["usd"] for ln in c["balance_lines"] if ln["in_balance"]] == ["0.00", "0.00"]
    # the Board, having established the facts at the hearing, may assess up to the conditional maximum
    decide_penalty(reg, cid, by="ann", amount="4500", on="2026-11-20")
    assert reg.show(cid)["balance_usd"] == "4500.00"


def test_a_case_without_offences_takes_no_civil_penalty(db_url, survey_csv):
    from treecalc.register.decisions import decide_penalty

    reg = _accounts(db_url)
    r = treecalc("case", "new", "--survey", survey_csv, "--fee-per-tree", "450", "--by", "ann", "--json", db=db_url)
    cid = json.loads(r.stdout)["id"]
    with pytest.raises(ValueError, match="found no offence with a civil penalty"):
        decide_penalty(reg, cid, by="ann", amount="100", on="2026-11-20")
    c = reg.show(cid)
    assert c["civil_penalty"]["words"] == "none assessed"
    assert not any(ln["section"] == "§208-29B" for ln in c["balance_lines"])


def test_cli_decide_and_show(db_url, violation_csv):
    _accounts(db_url)
    cid = _open(db_url, violation_csv, *DEFINITE)
    decide = ["case", "decide", cid, "--amount", "3000", "--date", "2026-11-20", "--reference", "PB res. 2026-41"]
    r = treecalc(*decide, "--by", "bob", db=db_url)
    assert r.returncode == 2 and "engineer role" in r.stderr and "'bob' is an account of the clerk role" in r.stderr
    r = treecalc(*decide, "--by", "ann", "--json", db=db_url, check=True)
    out = json.loads(r.stdout)
    # 1,800.00 in lieu + 3,000.00 assessed = 4,800.00 owed, nothing paid
    assert out["balance_usd"] == "4800.00" and out["civil_penalty"]["amount_usd"] == "3000.00"
    r = treecalc("case", "decide", cid, "--date", "2026-11-20", "--by", "ann", db=db_url)
    assert r.returncode == 2 and "--outcome" in r.stderr and "--amount" in r.stderr
    text = treecalc("case", "show", cid, db=db_url, check=True).stdout
    assert "owed $4,800.00 (fund in lieu $1,800.00, civil penalty $3,000.00)" in text
    assert "tree 202 QURU 18.0 in, removed, definite (§208-19A): civil up to $3,000.00 (§208-29B(3))" in text
    assert "civil penalty decision 1: $3,000.00 on 2026-11-20 (PB res. 2026-41) §208-29B, recorded by ann" in text
    assert "replacement owed (§208-22F): 6 trees" in text and "2 still to plant" in text
    assert "criminal fine: up to $500.00, for a court to impose: not in the balance [§208-29A]" in text
    assert "    balance: $4,800.00" in text
