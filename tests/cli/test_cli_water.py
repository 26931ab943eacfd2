"""``treecalc water penalty|meter-test`` and ``water-penalty``, driven through an argparse parser
built here with :func:`treecalc.cli.water.register` (independent of the main CLI)."""

from __future__ import annotations

import argparse
import json

import pytest

from treecalc.cli.water import register


def run(argv, capsys):
    ap = argparse.ArgumentParser(prog="treecalc")
    sub = ap.add_subparsers(dest="command", required=True)
    register(sub)
    args = ap.parse_args(argv)
    rc = args.func(args)
    out, err = capsys.readouterr()
    return rc, out, err


# --------------------------------------------------------------------------- water-penalty
def test_water_penalty_json(capsys):
    rc, out, err = run(
        [
            "water-penalty",
            "--amount",
            "300",
            "--due",
            "2026-01-15",
            "--payment",
            "2026-03-10:100",
            "--as-of",
            "2026-04-10",
            "--json",
        ],
        capsys,
    )
    assert rc == 0 and err == ""
    d = json.loads(out)
    # 15.00 + 3.00 penalties; 100 pays 18.00 of penalties and 82.00 of charge; 1% of 218.00 on 16 Mar
    assert d["charge_outstanding"] == "218.00"
    assert d["penalties_outstanding"] == "2.18"
    assert d["total_due"] == "220.18"
    assert d["relevy_date"] is None and d["relevy_amount"] is None
    assert [e["kind"] for e in d["events"]] == ["penalty", "penalty", "payment", "penalty"]
    assert all(e["section"].startswith("§223-12F") for e in d["events"])


def test_water_penalty_relevy_json(capsys):
    rc, out, _ = run(
        ["water-penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-05-01", "--json"], capsys
    )
    d = json.loads(out)
    assert rc == 0 and d["relevy_date"] == "2026-04-15" and d["relevy_amount"] == "321.00"
    assert d["total_due"] == "0.00"


def test_water_penalty_table(capsys):
    rc, out, _ = run(
        [
            "water-penalty",
            "--amount",
            "300",
            "--due",
            "2026-01-15",
            "--payment",
            "2026-03-10:100",
            "--as-of",
            "2026-04-10",
        ],
        capsys,
    )
    assert rc == 0
    assert "220.18" in out and "§223-12F(2)" in out and "interpretation:" in out
    assert "2026-04-15" in out  # the scheduled relevy


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["--amount", "300", "--due", "2026-01-15", "--payment", "2026-03-10"], "DATE:AMOUNT"),
        (["--amount", "300", "--due", "2026-01-15", "--payment", "2026-03-10:abc"], "must be a number"),
        (["--amount", "-300", "--due", "2026-01-15", "--as-of", "2026-02-01"], "must not be negative"),
        (["--amount", "300", "--due", "2026-02-29"], "--due 2026-02-29 does not exist: February 2026 has 28 days"),
        (["--bill", "300:2026-04-31"], "does not exist: April 2026 has 30 days"),
        (["--amount", "300", "--due", "2026-01-15", "--as-of", "2026-13-01"], "--as-of 2026-13-01 does not exist"),
        (["--amount", "300", "--due", "January"], "YYYY-MM-DD"),
        (["--due", "2026-01-15"], "--amount and --due are required"),
    ],
)
def test_water_penalty_errors(argv, msg, capsys):
    rc, out, err = run(["water-penalty", *argv], capsys)
    assert rc == 2 and out == ""
    assert err.startswith("error: ") and msg in err
    assert "Traceback" not in err


def test_water_group_penalty_equals_alias_and_closes_the_account(capsys):
    # 123.45 due 15 Jan; 16 Jan 5% = 6.1725 -> 6.17; paying 129.62 on 20 Jan closes it: no $0.00
    # penalties, no relevy, total 0.00, and the alias prints the same JSON.
    argv = [
        "--amount",
        "123.45",
        "--due",
        "2026-01-15",
        "--payment",
        "2026-01-20:129.62",
        "--as-of",
        "2026-06-01",
        "--json",
    ]
    rc, out, _ = run(["water", "penalty", *argv], capsys)
    rc2, out2, _ = run(["water-penalty", *argv], capsys)
    assert rc == rc2 == 0 and out == out2
    d = json.loads(out)
    assert [(e["kind"], e["amount"]) for e in d["events"]] == [("penalty", "6.17"), ("payment", "129.62")]
    assert d["total_due"] == "0.00" and d["relevy_amount"] is None and d["credit"] == "0.00"


def test_water_account_two_bills_and_calendar(capsys, tmp_path):
    # Bills 100.00 due 15 Jan and 200.00 due 15 Feb, 110.00 paid 20 Feb: as test_water's two-bill
    # case, account total 206.00.
    rc, out, _ = run(
        [
            "water",
            "penalty",
            "--bill",
            "100:2026-01-15:A",
            "--bill",
            "200:2026-02-15:B",
            "--payment",
            "2026-02-20:110",
            "--as-of",
            "2026-03-01",
            "--json",
        ],
        capsys,
    )
    d = json.loads(out)
    assert rc == 0 and d["total_due"] == "206.00" and [b["total_due"] for b in d["bills"]] == ["0.00", "206.00"]
    p = tmp_path / "acct.csv"
    p.write_text("kind,date,amount,bill\nbill,2026-01-15,100,A\nbill,2026-02-15,200,B\npayment,2026-02-20,110,\n")
    rc, out, _ = run(["water", "penalty", "--csv", str(p), "--as-of", "2026-03-01"], capsys)
    assert rc == 0 and "account total due          206.00" in out
    # calendar months: 300.00 due 15 Jan as of 10 Mar: 15.00 + 3.00 (1 Feb) + 3.00 (1 Mar) = 21.00
    rc, out, _ = run(
        [
            "water",
            "penalty",
            "--amount",
            "300",
            "--due",
            "2026-01-15",
            "--as-of",
            "2026-03-10",
            "--months",
            "calendar",
            "--json",
        ],
        capsys,
    )
    assert json.loads(out)["penalties_outstanding"] == "21.00"


def test_water_meter_test_cli(capsys):
    # Results +2.1, +1.8, +2.4 -> mean 2.1% (> 1.5: adjusted, fee returned); 12,000 / 1.021 =
    # 11,753.1831... -> 11,753.18; at 0.0123 $/unit: billed 147.60, corrected 144.564 -> 144.56.
    rc, out, _ = run(
        [
            "water",
            "meter-test",
            "--billed",
            "12000",
            "--result",
            "2.1",
            "--result",
            "1.8",
            "--result",
            "2.4",
            "--fee",
            "50",
            "--rate",
            "0.0123",
            "--json",
        ],
        capsys,
    )
    d = json.loads(out)
    assert rc == 0 and d["adjusted"] and d["adjusted_consumption"] == "11753.18"
    assert d["billed_usd"] == "147.60" and d["corrected_usd"] == "144.56" and d["fee_refund"] == "50.00"
    rc, out, _ = run(["water", "meter-test", "--billed", "12000", "--result", "-3"], capsys)
    assert rc == 0 and "11,134.67" not in out and "12,371.13" in out  # 12,000 / 0.97 = 12,371.134...
    rc, _, err = run(["water", "meter-test", "--billed", "100", "--result", "-100"], capsys)
    assert rc == 2 and "greater than -100" in err
    rc, _, err = run(["water"], capsys)
    assert rc == 2 and "penalty or meter-test" in err


def test_total_owed_stands_beside_total_due_after_the_relevy(capsys):
    # $300.00 due 15 Jan 2026, unpaid: 15.00 (5%) + 3.00 + 3.00 (1%) = 321.00 relevied on 15 Apr. As of 1 Jul the
    # water account's total due is 0.00 and 321.00 is owed on the tax bill: total owed 321.00.
    argv = ["water", "penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-07-01"]
    rc, out, _ = run([*argv, "--json"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["total_due"] == "0.00" and d["total_owed"] == "321.00"
    rc, out, _ = run(argv, capsys)
    assert rc == 0
    due = next(ln for ln in out.splitlines() if ln.strip().startswith("total due"))
    owed = next(ln for ln in out.splitlines() if ln.strip().startswith("total owed"))
    assert "0.00" in due and "321.00" in owed
    # two bills, the second 100.00 due 15 Jun (16 Jun 5% = 5.00): 105.00 due + 321.00 on the tax bill = 426.00
    rc, out, _ = run(
        ["water", "penalty", "--bill", "300:2026-01-15", "--bill", "100:2026-06-15", "--as-of", "2026-07-01"], capsys
    )
    assert rc == 0 and "account total owed         426.00" in out


def test_a_single_bill_before_its_due_date_is_not_yet_late(capsys):
    # $300.00 due 15 Jan, as of 1 Jan: no penalty, 300.00 due; the answer two bills give, not exit 2
    rc, out, err = run(["water-penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-01-01"], capsys)
    assert rc == 0 and err == ""
    assert "not yet late on 2026-01-01" in out and "total due                  300.00" in out


def test_meter_test_help_prints_one_percent_sign(capsys):
    ap = argparse.ArgumentParser(prog="treecalc")
    register(ap.add_subparsers(dest="command"))
    with pytest.raises(SystemExit):
        ap.parse_args(["water", "meter-test", "--help"])
    out = capsys.readouterr().out
    assert "±1.5%" in out and "%%" not in out


def test_the_water_commands_name_the_law_as_the_registry_does(capsys, monkeypatch):
    """The water command named its village literally; the registry's record of the law with the water chapter
    is what it names (a registry whose record calls the chapter otherwise is followed)."""
    import dataclasses

    from treecalc.law import registry as jurisdictions

    jurisdictions.by_key(jurisdictions.DEFAULT)
    key, rec = next((k, r) for k, r in jurisdictions.REGISTRY.items() if "water" in r.chapters)
    renamed = dataclasses.replace(rec, chapters={**rec.chapters, "water": "Village of Testwater Chapter 223"})
    monkeypatch.setitem(jurisdictions.REGISTRY, key, renamed)
    rc, out, err = run(["water-penalty", "--amount", "100", "--due", "2026-01-15", "--as-of", "2026-04-15"], capsys)
    assert rc == 0, err
    assert "(Village of Testwater Chapter 223, §223-12F" in out.splitlines()[0]
    assert "Croton" not in out


def test_water_penalty_event_lines_keep_their_columns(capsys):
    # Due 15 Jan, 300.00 unpaid, as of 16 Feb: 16 Jan +5% of 300.00 = 15.00; 16 Feb +1% of 300.00 = 3.00
    # (the charge, not the penalties). Each event is a line of fixed columns (date 10 wide, bill 20, kind 8,
    # amount/charge/penalties 10, tax bill/credit 9, two spaces between) and its section's line under it.
    rc, out, _ = run(["water-penalty", "--amount", "300", "--due", "2026-01-15", "--as-of", "2026-02-16"], capsys)
    assert rc == 0
    lines = out.splitlines()
    first = lines.index(
        "2026-01-16  bill 1                penalty        15.00      300.00       15.00       0.00       0.00"
    )
    assert lines[first + 1] == "            §223-12F(2): 5% of the unpaid water charge 300.00, not paid by the due date"
    assert lines[first + 2] == (
        "2026-02-16  bill 1                penalty         3.00      300.00       18.00       0.00       0.00"
    )
    assert lines[first + 3].startswith("            §223-12F(2): 1% of the unpaid water charge 300.00 for succeeding")
