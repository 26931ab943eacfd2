"""Money typed at a flag or written in a fee schedule is read one way: a decimal comma, an underscore, a digit
of another script or a fraction of a cent is refused naming where it came from, never read as another number."""

from __future__ import annotations

import json

import pytest

from treecalc.cli import main

SURVEY = "Tag,Species,DBH (in),Action\n1,Red maple,14,remove\n2,Northern red oak,20,remove\n3,White pine,16,remove\n"


def run(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    try:
        rc = main(list(args))
    except SystemExit as e:
        rc = int(e.code or 0)
    out = capsys.readouterr()
    return rc, out.out + out.err


@pytest.fixture
def survey(tmp_path):
    p = tmp_path / "lot7.csv"
    p.write_text(SURVEY)
    return p


@pytest.mark.parametrize(
    ("fee", "words"),
    [
        ("1,25", "comma"),  # was read as $125 a tree: 100 times the fee meant
        ("12.345", "fraction of a cent"),  # was charged, rounded, as 12.345 a tree
        ("1_000", "digits 0-9"),  # float() reads it as 1000
        ("\u0663", "digits 0-9"),  # the Arabic-Indic digit three, read as 3
    ],
)
def test_fee_per_tree_typed_wrong_is_refused_naming_the_flag(capsys, survey, fee, words):
    rc, text = run(capsys, "assess", str(survey), "--plantable", "0", "--fee-per-tree", fee, "--json")
    assert rc == 2, text
    assert "--fee-per-tree" in text and words in text, text


def test_fee_per_tree_with_thousands_and_a_dollar_sign_is_exact(capsys, survey):
    # '$1,450.50' a tree: with no tree plantable every required tree is paid in lieu, n x 1450.50 to the cent
    rc, text = run(capsys, "assess", str(survey), "--plantable", "0", "--fee-per-tree", "$1,450.50", "--json")
    assert rc == 0, text
    d = json.loads(text)
    n = d["replacement"]["trees_in_lieu"]
    assert n > 0
    assert d["fund_in_lieu_cents"] == n * 145050


def test_a_fee_schedule_with_a_decimal_comma_is_refused(capsys, survey, tmp_path):
    fee = tmp_path / "fees.toml"
    fee.write_text('basis = "per_tree"\nfee_per_tree_usd = "1,25"\nmultiplier = "1.0"\nvalue_basis = "appraised"\n')
    rc, text = run(capsys, "assess", str(survey), "--plantable", "0", "--fee-schedule", str(fee), "--json")
    assert rc == 2, text
    assert "fee_per_tree_usd" in text and "comma" in text, text


def test_one_tree_is_said_in_the_singular():
    from treecalc.cli.assess import _fmt

    # before: "1 trees"
    assert (_fmt(1, "trees"), _fmt(2, "trees"), _fmt(0, "trees")) == ("1 tree", "2 trees", "0 trees")


def test_tree_lines_print_dbh_at_the_precision_given():
    # 12.99 in is in Milltown's 6-12.99 class; "13.0 in" would print it across the bound into 13-22.99
    import pandas as pd

    from treecalc.cli.assess import tree_lines

    trees = pd.DataFrame(
        {
            "tag": ["A", "B", "C"],
            "species_code": ["ACRU"] * 3,
            "dbh_in": [12.99, 12.0, 12.995],
            "action": ["remove"] * 3,
        }
    )
    out = "\n".join(tree_lines(trees))
    assert " 12.99 in" in out and "  12.0 in" in out and "12.995 in" in out and "13.0 in" not in out, out
