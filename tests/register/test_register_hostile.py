"""A clerk's slips and a hostile user's input at the register's command line: each refused with exit 2 and
a message naming the flag or argument, never a traceback, a silent default or a wrong number."""

from __future__ import annotations

import pytest

from tests.register.conftest import PASSWORD, staff
from treecalc.cli import main


@pytest.fixture
def reg(tmp_path, monkeypatch, survey_csv):
    """A register in tmp_path holding one case: the 4-tree survey (3 removals), 2 trees plantable, $100 a tree."""
    monkeypatch.setenv("TREECALC_DB", f"sqlite:///{tmp_path / 'reg.db'}")
    monkeypatch.setenv("TREECALC_PASSWORD", PASSWORD)  # the account "c" acts
    staff(f"sqlite:///{tmp_path / 'reg.db'}", "c")
    assert (
        main(["case", "new", "--survey", str(survey_csv), "--plantable", "2", "--fee-per-tree", "100", "--by", "c"])
        == 0
    )
    return tmp_path


def run(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    try:
        rc = main(list(args))
    except SystemExit as e:  # argparse's refusal
        rc = int(e.code or 0)
    out = capsys.readouterr()
    return rc, out.out + out.err


@pytest.mark.parametrize("verb", [["show"], ["pay", "--amount", "1", "--date", "2026-01-02", "--by", "c"]])
def test_a_case_number_past_the_database_integer_is_refused_naming_it(reg, capsys, verb):
    # 2**63 does not fit the database's integer: it used to escape as an OverflowError traceback (exit 1)
    rc, text = run(capsys, "case", verb[0], str(2**63), *verb[1:])
    assert rc == 2, text
    assert "id" in text and "Traceback" not in text


@pytest.mark.parametrize("verb", ["release", "forfeit"])
def test_a_bond_number_past_the_database_integer_is_refused(reg, capsys, verb):
    rc, text = run(capsys, "case", "bond", verb, "99999999999999999999999", "--date", "2026-01-02", "--by", "c")
    assert rc == 2, text


def test_an_empty_database_url_is_refused_not_read_as_the_personal_default(tmp_path, monkeypatch, capsys):
    # TREECALC_DB="$REGISTER_URL" with the variable unset: the payment must not land silently in another register
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("TREECALC_DB", "")
    rc, text = run(capsys, "case", "list")
    assert rc == 2 and "TREECALC_DB" in text, text
    monkeypatch.setenv("TREECALC_DB", f"sqlite:///{tmp_path / 'r.db'}")
    rc, text = run(capsys, "case", "list", "--db", " ")
    assert rc == 2 and "--db" in text, text


def test_export_to_a_folder_or_an_unwritable_place_names_out(reg, capsys):
    (reg / "d.csv").mkdir()
    rc, text = run(capsys, "case", "export", "--out", str(reg / "d.csv"))
    assert rc == 2 and "--out" in text, text
    assert ".tmp" not in text  # the temporary file is the program's business, not the clerk's


@pytest.mark.parametrize("amount", ["1_000", "1_0", "\u0663", "\uff15"])
def test_an_amount_with_underscores_or_non_ascii_digits_is_refused(reg, capsys, amount):
    # Decimal() reads "1_0" as 10 and the Arabic-Indic digit three as 3: a typed amount is ASCII digits
    rc, text = run(capsys, "case", "pay", "1", "--amount", amount, "--date", "2026-01-02", "--by", "c")
    assert rc == 2 and "--amount" in text, text
    rc, text = run(capsys, "case", "show", "1", "--json")
    assert '"paid_cents": 0' in text


def test_a_payment_dated_after_today_is_refused(reg, capsys):
    # a payment is recorded once received: 2200-12-31 (or 2062 for 2026) is a slip, not a receipt
    rc, text = run(capsys, "case", "pay", "1", "--amount", "5", "--date", "2200-12-31", "--by", "c")
    assert rc == 2 and "--date" in text, text


@pytest.mark.parametrize(
    ("flag", "verb"),
    [
        ("--ref", ["pay", "1", "--amount", "5", "--date", "2026-01-02"]),
        ("--by", ["pay", "1", "--amount", "5", "--date", "2026-01-02"]),
        ("--species", ["plant", "1", "--trees", "2", "--accepted", "2026-01-02"]),
    ],
)
def test_text_longer_than_its_column_is_refused_naming_the_flag(reg, capsys, flag, verb):
    # PostgreSQL refuses a VARCHAR(200) overflow with a bare database error; SQLite stores it: say it, naming the flag
    extra = [] if flag == "--by" else ["--by", "c"]
    rc, text = run(capsys, "case", *verb, flag, "x" * 201, *extra)
    assert rc == 2 and flag in text, text


def test_an_overpayment_says_so(reg, capsys):
    # 3 removals need replacement trees; 2 plantable; the rest at $100 a tree is the fund in lieu
    rc, text = run(capsys, "case", "show", "1", "--json")
    import json

    fund = json.loads(text)["fund_in_lieu_cents"]
    over = fund + 1250  # $12.50 more than assessed
    rc, text = run(
        capsys, "case", "pay", "1", "--amount", f"{over // 100}.{over % 100:02d}", "--date", "2026-01-02", "--by", "c"
    )
    assert rc == 0, text
    assert "overpaid $12.50" in text, text


@pytest.mark.parametrize("where", ["/dev/zero", "folder"])
def test_a_survey_that_is_not_a_file_says_so(reg, capsys, where):
    path = str(reg) if where == "folder" else where
    rc, text = run(capsys, "case", "new", "--survey", path, "--by", "c")
    assert rc == 2 and "--survey" in text and "not a file" in text, text


def test_a_fund_past_the_float_s_cents_is_recorded_exactly(tmp_path):
    # $999,999,999,999,999.99 (a fee of $1 billion less a cent for ~1,000,000 trees in lieu) is 99,999,999,999,999,999
    # cents; as a float of dollars it is 1e15, a cent too many: the register takes the assessment's exact cents

    reg = staff(f"sqlite:///{tmp_path / 'r.db'}", "c")
    assessment = {"fund_in_lieu_usd": 999999999999999.99, "fund_in_lieu_cents": 99_999_999_999_999_999, "options": {}}
    cid = reg.new_case(by="c", title="big", kind="permit", assessment=assessment)
    shown = reg.show(cid)
    assert shown["fund_in_lieu_cents"] == 99_999_999_999_999_999
    assert shown["fund_in_lieu_usd"] == "999999999999999.99"


def test_a_csv_export_does_not_carry_a_formula_from_a_title(reg, capsys, survey_csv):
    # a title (the applicant's file name by default) opening with "=" would run in the clerk's spreadsheet
    rc, text = run(
        capsys, "case", "new", "--survey", str(survey_csv), "--title", '=HYPERLINK("http://x","y")', "--by", "c"
    )
    assert rc == 0, text
    rc, text = run(capsys, "case", "pay", "1", "--amount", "600", "--date", "2026-01-02", "--by", "c")
    out = reg / "cases.csv"
    rc, text = run(capsys, "case", "export", "--out", str(out))
    assert rc == 0, text
    import csv

    rows = list(csv.DictReader(out.open()))
    assert rows[1]["title"] == '\'=HYPERLINK("http://x","y")'
    assert rows[0]["balance_usd"].startswith("-")  # an overpaid balance stays a number


def test_a_replant_of_another_case_s_planting_is_refused_and_nothing_is_written(reg, capsys, survey_csv):
    # a replant replaces a tree of this case's own planting: planting 1 is case 1's, so case 2 cannot replant it,
    # nor can case 1 replant planting 9, which does not exist; neither refusal leaves a planting or an event
    from treecalc.register import Register

    assert main(["case", "new", "--survey", str(survey_csv), "--plantable", "0", "--by", "c"]) == 0
    plant = ["--trees", "1", "--accepted", "2026-01-02", "--by", "c"]
    assert run(capsys, "case", "plant", "1", *plant)[0] == 0
    register = Register(f"sqlite:///{reg / 'reg.db'}")
    before = [register.show(case)["events"] for case in (1, 2)]
    for case, first in ((2, 1), (1, 9)):
        rc, text = run(capsys, "case", "plant", str(case), *plant, "--replant-of", str(first))
        assert rc == 2 and f"--replant-of {first}: no planting {first} on case {case}" in text, text
    assert [p["id"] for p in register.show(1)["plantings"]] == [1] and register.show(2)["plantings"] == []
    assert [register.show(case)["events"] for case in (1, 2)] == before


@pytest.mark.parametrize(
    "line",
    ["[1, 2, 3]", '{"t": "cases", "r": [1, 2]}', '"cases"', '{"t": ["cases"], "r": {}}', "[" * 100_000],
    ids=["list", "row-as-list", "string", "table-as-list", "nested-100000"],
)
def test_a_backup_line_that_is_no_row_is_refused_and_nothing_restored(reg, capsys, tmp_path, monkeypatch, line):
    # a backup of the register, one of its rows replaced by a JSON list: restore died with an AttributeError
    # traceback ('list' object has no attribute 'get')
    import gzip

    good = tmp_path / "backup.jsonl.gz"
    assert run(capsys, "case", "backup", str(good))[0] == 0
    header, first, *rest = gzip.open(good, "rt", encoding="utf-8").read().splitlines()
    bad = tmp_path / "hostile.jsonl.gz"
    with gzip.open(bad, "wt", encoding="utf-8") as f:
        f.write("\n".join([header, first, line, *rest]) + "\n")
    monkeypatch.setenv("TREECALC_DB", f"sqlite:///{tmp_path / 'empty.db'}")
    rc, text = run(capsys, "case", "restore", str(bad))
    assert rc == 2 and "Traceback" not in text, text
    assert f"restore {bad}" in text and "line 3" in text and "nothing was restored" in text, text
    assert len(text) < 500  # the line is quoted within bounds, not 100,000 brackets
    # nothing restored: the empty register is still empty, and the good backup restores into it
    rc, text = run(capsys, "case", "list")
    assert rc == 0 and text.strip().lower() == "no cases", text
    assert run(capsys, "case", "restore", str(good))[0] == 0


def _full_disk(monkeypatch, free: int = 0) -> None:
    """SQLite on a full disk: every read fails with "disk I/O error" (WAL writes its shared-memory file even to
    read), and the register's folder has ``free`` bytes left. Simulated: no tmpfs to fill here."""
    import shutil
    import sqlite3
    from collections import namedtuple

    from sqlalchemy.exc import OperationalError

    from treecalc.register import core

    class FullDisk:
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            raise OperationalError("SELECT", {}, sqlite3.OperationalError("disk I/O error"))

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(core, "Session", FullDisk)
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - free, free))


@pytest.mark.parametrize("verb", [["list"], ["show", "1"], ["due", "--from", "2026-01-01", "--to", "2026-12-31"]])
def test_a_read_on_a_full_disk_names_the_full_disk_and_the_register(reg, capsys, monkeypatch, verb):
    # read-only commands said "the register's database: disk I/O error", naming neither the disk nor the file
    db = reg / "reg.db"
    before = db.read_bytes()
    _full_disk(monkeypatch)
    rc, text = run(capsys, "case", *verb)
    assert rc == 2 and "Traceback" not in text, text
    assert f"the disk holding {reg} is full (0 bytes free)" in text and f"the register {db}" in text, text
    assert "disk I/O error" not in text
    assert db.read_bytes() == before  # nothing changed


def test_an_io_error_on_a_disk_with_room_is_not_called_full(reg, capsys, monkeypatch):
    _full_disk(monkeypatch, free=5 * 2**30)
    rc, text = run(capsys, "case", "list")
    assert rc == 2 and f"the register {reg / 'reg.db'}: disk I/O error" in text and "is full" not in text, text


def test_no_space_left_while_a_command_writes_names_the_full_disk(reg, capsys, monkeypatch):
    import errno

    from treecalc.register.core import Register

    out = reg / "cases.csv"

    def no_space(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(out))

    monkeypatch.setattr(Register, "cases", no_space)
    rc, text = run(capsys, "case", "list")
    assert rc == 2 and f"the disk is full: {out} could not be written" in text and "Errno" not in text, text


def test_a_planting_s_impossible_dates_and_counts_are_refused_and_nothing_is_written(reg, capsys):
    # planting 1: 3 trees accepted 2025-05-01 (Chapter 208 held from 2025-01-01). Refused, each with a sentence
    # naming the flag, exit 2, no planting and no event added:
    # - a replant accepted 2025-03-01, two months before the planting it replaces was accepted;
    # - a replant of 50 trees for a planting of 3 (it replaces trees of that planting that died: at most 3);
    # - an acceptance 100 years ahead, past tomorrow, as a payment dated ahead is;
    # - an acceptance before the law held (2024-06-01): the sentence says to give a later --accepted date, not
    #   --on, which `case plant` does not have.
    import datetime as dt

    from treecalc.register import Register

    rc, text = run(capsys, "case", "plant", "1", "--trees", "3", "--accepted", "2025-05-01", "--by", "c")
    assert rc == 0, text
    register = Register(f"sqlite:///{reg / 'reg.db'}")
    plantings = register.show(1)["plantings"]
    assert [(p["trees"], p["accepted"]) for p in plantings] == [(3, "2025-05-01")], plantings
    before = register.show(1)["events"]
    far = (dt.date.today() + dt.timedelta(days=100 * 365)).isoformat()
    cases = [
        (["--trees", "1", "--accepted", "2025-03-01", "--replant-of", "1"], ["2025-03-01", "2025-05-01", "planting 1"]),
        (["--trees", "50", "--accepted", "2026-05-01", "--replant-of", "1"], ["--trees 50", "3 trees", "planting 1"]),
        (["--trees", "1", "--accepted", far], [far, "--accepted"]),
        (["--trees", "1", "--accepted", "2024-06-01"], ["2024-06-01", "a later --accepted date"]),
    ]
    for args, said in cases:
        rc, text = run(capsys, "case", "plant", "1", *args, "--by", "c")
        assert rc == 2, (args, text)
        assert all(s in text for s in said), (args, text)
        assert "--on" not in text and "Traceback" not in text, text
    assert register.show(1)["plantings"] == plantings
    assert register.show(1)["events"] == before
    # the same replant within both bounds is recorded: 3 trees, accepted the day of the planting it replaces
    rc, text = run(
        capsys, "case", "plant", "1", "--trees", "3", "--accepted", "2025-05-01", "--replant-of", "1", "--by", "c"
    )
    assert rc == 0, text
