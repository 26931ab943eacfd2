"""The register's refusals name the input by its keyword (``‹amount›``), never a flag: the command line says its
flag (``--amount``) and the app the field of its Cases page that gives it ("the Amount (USD)"). Library calls on a
SQLite register (the words do not depend on the database), each path the app and ``treecalc case`` take."""

from __future__ import annotations

import datetime as dt
import re

import pytest

import treecalc.cli  # noqa: F401 (gives the keyword table its parsers)
from tests.register.conftest import staff
from treecalc.app.wording import readable
from treecalc.cli import words as cli_words
from treecalc.register.export import export

FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def _refusal(fn) -> str:
    with pytest.raises(ValueError) as e:  # a RegisterError, or the date reader's ValueError
        fn()
    return str(e.value)


def test_each_refusal_names_its_keyword_and_each_reader_says_it_in_its_words(tmp_path):
    reg = staff(f"sqlite:///{tmp_path / 'register.db'}", "clerk")  # an account of the engineer role
    cid = reg.new_case(by="clerk", title="12 Elm St", kind="permit")
    later = dt.date.today() + dt.timedelta(days=30)
    # (the call the CLI or the app makes, the keyword it names, the flag the CLI says, the app's words)
    cases = [
        (lambda: reg.pay(cid, by="clerk", amount="0", on="2026-01-05"), "amount", "--amount", "the Amount (USD)"),
        (lambda: reg.pay(cid, by="clerk", amount="10", on=later), "date", "--date", "the Date"),
        (lambda: reg.pay(cid, by=" ", amount="10", on="2026-01-05"), "by", "--by", "your sign-in name"),
        (lambda: reg.new_case(by="clerk", title=" ", kind="permit"), "title", "--title", "the Title of the case"),
        (lambda: reg.new_case(by="clerk", title="x", kind="tree"), "kind", "--kind", "the Kind of case"),
        (lambda: reg.decide(cid, by="clerk", outcome="maybe", on="2026-01-05"), "outcome", "--outcome", "the Outcome"),
        (
            lambda: reg.plant(cid, by="clerk", trees=0, accepted_on="2026-01-05"),
            "trees",
            "--trees",
            "the Trees planted",
        ),
        (
            lambda: reg.plant(cid, by="clerk", trees=2, accepted_on="5 Jan"),
            "accepted_on",
            "--accepted",
            "the date of Provisional acceptance",
        ),
        (lambda: reg.due("2026-02-01", "2026-01-01"), "end", "--to", "the last day (“to”)"),
        (lambda: export(reg, tmp_path / "cases.txt"), "out", "--out", "the register's export file"),
    ]
    for call, keyword, flag, control in cases:
        said = _refusal(call)
        assert f"‹{keyword}›" in said and not FLAG.search(said), said
        cli, app = cli_words.render(said), readable(said)
        assert cli.startswith(flag) and "‹" not in cli, cli
        assert app.startswith(control) and not FLAG.search(app) and "‹" not in app, app
    # one worked in full: $0 is no payment
    said = _refusal(lambda: reg.pay(cid, by="clerk", amount="0", on="2026-01-05"))
    assert cli_words.render(said) == "--amount '0': give an amount above zero"
    assert readable(said) == "the Amount (USD) '0': give an amount above zero"
