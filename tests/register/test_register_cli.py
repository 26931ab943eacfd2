"""The case register through its CLI (``treecalc case ...``), on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import math

import pytest

from tests.register.conftest import staff, treecalc


def _new(survey, db, *extra):
    staff(db, "engineer ann")
    staff(db, "clerk bob", role="clerk")
    r = treecalc(
        "case",
        "new",
        "--survey",
        str(survey),
        "--fee-per-tree",
        "450",
        "--plantable",
        "0",
        "--title",
        "14 Elm St",
        "--address",
        "14 Elm St",
        "--lot",
        "67.12-3-4",
        "--by",
        "engineer ann",
        "--json",
        *extra,
        db=db,
        check=True,
    )
    return json.loads(r.stdout)["id"]


def test_case_new_pay_show_to_the_cent(db_url, survey_csv):
    cid = _new(survey_csv, db_url)
    assert isinstance(cid, int)
    shown = json.loads(treecalc("case", "show", str(cid), "--json", db=db_url, check=True).stdout)
    a = json.loads(
        treecalc("assess", str(survey_csv), "--fee-per-tree", "450", "--plantable", "0", "--json", db=db_url).stdout
    )
    # the register records what the assessment's JSON says. By hand (Northeast tables, stormwater $0.008/gal):
    # hydro_interception ACRU 14 in (35.56 cm) 3.59 + 0.8333 x 3.07 = 6.148 m3, QURU 20 in 7.41 + 0.8333 x 4.03 =
    # 10.768, PIST 16 in 6.32 + 0.1667 x 3.56 = 6.913: 23.830 m3 x 264.172 = 6,295.2 gal; at $0.0008 the removed
    # value was 372.49 / 0.9 = 413.88 USD/yr, at $0.008 it is 413.88 + 6,295.2 x 0.0072 = 459.20, 90% = 413.28.
    # One red maple 2 in is 64.68 USD/yr (tests/test_assessment.py), 413.28 / 64.68 = 6.39 -> 7 trees, none
    # plantable (--plantable 0), 7 x $450.00 = $3,150.00 into the Fund (§208-24)
    assert a["required_value_usd"] == 413.28 and a["replacement"]["value_per_tree_usd"] == 64.68
    assert math.ceil(413.28 / 64.68) * 450 == 3150
    assert shown["fund_in_lieu_usd"] == "3150.00"
    assert shown["paid_usd"] == "0.00" and shown["balance_usd"] == "3150.00"
    assert shown["title"] == "14 Elm St" and shown["lot"] == "67.12-3-4"
    assert shown["kind"] == "permit_application"  # no offence in the assessment
    assert shown["surveys"][0]["name"] == survey_csv.name
    import hashlib

    assert shown["surveys"][0]["sha256"] == hashlib.sha256(survey_csv.read_bytes()).hexdigest()
    assert shown["assessment"]["law_files"]["law/croton_on_hudson/ch208_trees.toml"]

    from treecalc.register import Register

    Register(db_url).pay(cid, by="clerk bob", amount="1,250.50", on="2026-03-02", reference="chk 1001")
    for amount, day, ref in (("0.01", "2026-03-31", None), ("99.49", "2026-04-01", "cash")):
        args = ["case", "pay", str(cid), "--amount", amount, "--date", day, "--by", "clerk bob", "--json"]
        out = json.loads(treecalc(*args, *(["--ref", ref] if ref else []), db=db_url, check=True).stdout)
    # 1,250.50 + 0.01 + 99.49 = 1,350.00 paid; 3,150.00 - 1,350.00 = 1,800.00 still owed
    assert out["paid_usd"] == "1350.00" and out["balance_usd"] == "1800.00"
    shown = json.loads(treecalc("case", "show", str(cid), "--json", db=db_url, check=True).stdout)
    assert (shown["fund_in_lieu_usd"], shown["paid_usd"], shown["balance_usd"]) == ("3150.00", "1350.00", "1800.00")
    assert [e["kind"] for e in shown["events"]] == ["case opened", "payment", "payment", "payment"]
    assert [e["by"] for e in shown["events"]] == ["engineer ann"] + ["clerk bob"] * 3

    # the Fund ledger by month: March 1,250.50 + 0.01 = 1,250.51; April 99.49
    led = json.loads(treecalc("case", "fund", "--from", "2026-01-01", "--to", "2026-12-31", "--json", db=db_url).stdout)
    assert [(r["month"], r["usd"], r["payments_usd"], r["forfeited_bonds_usd"]) for r in led["by_month"]] == [
        ("2026-03", "1250.51", "1250.51", "0.00"),
        ("2026-04", "99.49", "99.49", "0.00"),
    ]
    assert led["total_usd"] == "1350.00" and led["by_case"] == [{"case": cid, "usd": "1350.00"}]
    listed = json.loads(treecalc("case", "list", "--json", db=db_url, check=True).stdout)
    assert [(c["id"], c["balance_usd"]) for c in listed] == [(cid, "1800.00")]
    assert treecalc("case", "audit", "--verify", db=db_url).returncode == 0


def test_plantings_inspections_due_holds_bonds_decisions(db_url, survey_csv, monkeypatch):
    import datetime as dt

    from treecalc.register import core

    # the plantings below are recorded as on the last day of 2031 (a planting is dated no later than tomorrow)
    monkeypatch.setattr(core, "latest_day", lambda: dt.date(2031, 12, 31))
    cid = _new(survey_csv, db_url)
    run = lambda *a: json.loads(treecalc(*a, "--by", "engineer ann", "--json", db=db_url, check=True).stdout)  # noqa: E731
    from treecalc.register import Register

    reg = Register(db_url)
    # §208-22G: the inspection falls on the third anniversary of provisional acceptance
    p1 = run("case", "plant", str(cid), "--trees", "3", "--accepted", "2025-10-15", "--species", "ACRU")["id"]
    p2 = reg.plant(cid, by="engineer ann", trees=2, accepted_on="2028-02-29")  # 2031 has no 29 February
    due = json.loads(treecalc("case", "due", "--from", "2028-10-01", "--to", "2028-10-31", "--json", db=db_url).stdout)
    assert [(d["planting"], d["inspection_due"]) for d in due] == [(p1, "2028-10-15")]
    due = json.loads(treecalc("case", "due", "--from", "2031-02-01", "--to", "2031-03-31", "--json", db=db_url).stdout)
    assert [(d["planting"], d["inspection_due"]) for d in due] == [(p2, "2031-02-28")]
    run("case", "inspect", str(p2), "--date", "2031-03-01", "--dead", "1")
    # a replant "survived in a healthy state for two years from" its provisional acceptance (§208-22G)
    p3 = reg.plant(cid, by="engineer ann", trees=1, accepted_on="2031-10-20", replant_of=p2)
    due = json.loads(treecalc("case", "due", "--from", "2028-01-01", "--to", "2033-12-31", "--json", db=db_url).stdout)
    assert [(d["planting"], d["inspection_due"]) for d in due] == [(p1, "2028-10-15"), (p3, "2033-10-20")]

    h = run("case", "hold", "open", str(cid), "--date", "2026-05-01", "--reason", "trees removed without a permit")[
        "id"
    ]
    holds = json.loads(treecalc("case", "holds", "--json", db=db_url).stdout)
    assert [(x["case"], x["section"]) for x in holds] == [(cid, "§208-29F")]
    reg.close_hold(h, by="engineer ann", on="2026-06-01")
    assert json.loads(treecalc("case", "holds", "--json", db=db_url).stdout) == []

    b1 = run("case", "bond", "post", str(cid), "--amount", "5000", "--date", "2026-05-02")["id"]
    reg.post_bond(cid, by="engineer ann", amount="1234.56", on="2026-05-03")
    run("case", "bond", "forfeit", str(b1), "--date", "2026-09-01")
    bonds = json.loads(treecalc("case", "bonds", "--json", db=db_url).stdout)
    assert bonds["total_usd"] == "1234.56"  # 5,000.00 forfeited, 1,234.56 still held
    run(
        "case",
        "decide",
        str(cid),
        "--outcome",
        "approved-with-conditions",
        "--date",
        "2026-05-10",
        "--conditions",
        "replant 6",
    )
    shown = json.loads(treecalc("case", "show", str(cid), "--json", db=db_url).stdout)
    assert shown["decision"] == "approved with conditions" and shown["decisions"][0]["by"] == "engineer ann"
    assert shown["trees_planted"] == 5  # 3 + 2 planted; the replant replaces a dead tree, not a new one
    assert treecalc("case", "audit", "--verify", db=db_url).returncode == 0


def test_export_csv_and_xlsx(tmp_path, survey_csv):
    db = f"sqlite:///{tmp_path / 'r.db'}"
    cid = _new(survey_csv, db)
    treecalc(
        "case", "pay", str(cid), "--amount", "12.34", "--date", "2026-01-05", "--by", "clerk bob", db=db, check=True
    )
    out = tmp_path / "cases.csv"
    treecalc("case", "export", "--out", str(out), db=db, check=True)
    import csv

    rows = list(csv.DictReader(out.open()))
    assert rows[0]["balance_usd"] == "3137.66"  # 3,150.00 - 12.34
    xl = tmp_path / "register.xlsx"
    treecalc("case", "export", "--out", str(xl), db=db, check=True)
    import openpyxl

    wb = openpyxl.load_workbook(xl)
    assert {"Cases", "Payments", "Fund", "Due", "Holds", "Bonds"} <= set(wb.sheetnames)
    ws = wb["Payments"]
    head = [c.value for c in ws[1]]
    assert ws.cell(2, head.index("amount_usd") + 1).value == 12.34


BAD = [
    (["case", "pay", "1", "--amount", "-5", "--date", "2026-01-01", "--by", "ann"], "above zero"),
    (["case", "pay", "1", "--amount", "abc", "--date", "2026-01-01", "--by", "ann"], "--amount"),
    (["case", "pay", "1", "--amount", "1.005", "--date", "2026-01-01", "--by", "ann"], "fraction of a cent"),
    (["case", "pay", "1", "--amount", "5", "--date", "2026-13-01", "--by", "ann"], "--date"),
    (["case", "pay", "99", "--amount", "5", "--date", "2026-01-01", "--by", "ann"], "no case 99"),
    (["case", "show", "x"], "argument id: 'x' is not a whole number"),
    (["case", "due", "--from", "2026-02-01", "--to", "2026-01-01"], "before --from"),
    (["case", "new", "--survey", "/nonexistent.csv", "--by", "ann"], "no such file"),
    (["case", "bond", "post", "1", "--date", "2026-01-01", "--by", "ann"], "--amount"),
    (["case", "export", "--out", "x.pdf"], ".csv or .xlsx"),
]


def test_bad_input_exits_2_with_a_clear_message(tmp_path, survey_csv):
    from treecalc.register import Register

    db = f"sqlite:///{tmp_path / 'r.db'}"
    staff(db, "ann").new_case(by="ann", title="14 Elm St", kind="permit")
    for args, words in BAD:
        r = treecalc(*args, db=db)
        assert r.returncode == 2, (args, r.stderr)
        assert words in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
    assert Register(db).show(1)["paid_usd"] == "0.00"  # nothing refused was written


def test_a_bad_database_url_exits_2(tmp_path):
    for url, words in (
        ("mysql://x@y/z", "SQLite or PostgreSQL"),
        (f"sqlite:///{tmp_path}/no/such/r.db", "does not exist"),
    ):
        r = treecalc("case", "list", db=url)
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr
    r = treecalc("case", "list", db="postgresql+psycopg://nobody@127.0.0.1:1/none")
    assert r.returncode == 2 and "register" in r.stderr and "Traceback" not in r.stderr


def test_user_add_reads_the_password_from_stdin(db_url):
    r = treecalc("user", "add", "ann", "--role", "engineer", stdin="correct horse battery\n", db=db_url)
    assert r.returncode == 0, r.stderr
    r = treecalc("user", "add", "bob", "--role", "mayor", "--by", "ann", stdin="correct horse battery\n", db=db_url)
    assert r.returncode == 2 and "engineer, clerk, viewer" in r.stderr
    r = treecalc("user", "add", "bob", "--role", "clerk", "--by", "ann", stdin="short\n", db=db_url)
    assert r.returncode == 2 and "at least 10 characters" in r.stderr
    from treecalc.register import Register, auth

    reg = Register(db_url)
    token, role = auth.sign_in(reg, "ann", "correct horse battery")
    assert role == "engineer" and auth.session_user(reg, token) == ("ann", "engineer")


def test_three_failed_sign_ins_throttle_the_fourth_and_sessions_expire(tmp_path):
    import datetime as dt

    from sqlalchemy import update

    from treecalc.register import auth
    from treecalc.register import models as m

    reg = staff(f"sqlite:///{tmp_path / 'r.db'}", "admin")
    reg.add_user("ann", "clerk", "correct horse battery", by="admin")
    for _ in range(3):
        with pytest.raises(ValueError, match="wrong"):
            auth.sign_in(reg, "ann", "wrong password!")
    with pytest.raises(auth.Throttled, match="Too many failed sign-ins for ann"):
        auth.sign_in(reg, "ann", "correct horse battery")
    reg2 = staff(f"sqlite:///{tmp_path / 'r2.db'}", "admin")
    reg2.add_user("bob", "viewer", "correct horse battery", by="admin")
    token, role = auth.sign_in(reg2, "bob", "correct horse battery")
    assert auth.session_user(reg2, token) == ("bob", "viewer")
    past = (dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)).isoformat()
    with reg2.engine.begin() as c:
        c.execute(update(m.Session).values(expires_at=past))
    assert auth.session_user(reg2, token) is None  # expired
    link = auth.make_link(reg2, by="admin", kind="case", case_id=None, days=7)
    assert auth.open_link(reg2, link).link is not None
    auth.revoke_link(reg2, link, by="admin")
    assert "revoked" in auth.open_link(reg2, link).why
    assert "not known" in auth.open_link(reg2, "guess").why
