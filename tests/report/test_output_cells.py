"""Every CSV and xlsx treecalc writes guards its text cells the same way (``treecalc.report.xlsx.csv_cell``):
a text a spreadsheet would run as a formula (= + - @, a tab, CR or LF first, and not a number) is kept text;
a number, a credit of "-228.57" among them, stays a number."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

from treecalc.cli import main
from treecalc.report import xlsx

FORMULAS = ['=HYPERLINK("http://x.example","click")', "+SUM(1+1)", "@cmd", "-1+2", "\n=1+1", "\t=1", "\r=1"]
NUMBERS = ["-228.57", "-571.43", "+5", "-1e3", "-.5", "12000"]


@pytest.mark.parametrize("text", FORMULAS)
def test_a_formula_text_is_kept_text(text):
    assert xlsx.needs_quote_prefix(text)
    assert xlsx.csv_cell(text) == "'" + text


@pytest.mark.parametrize("text", NUMBERS)
def test_a_number_written_as_text_stays_a_number(text):
    assert not xlsx.needs_quote_prefix(text)
    assert xlsx.csv_cell(text) == text


def test_the_meter_test_csv_writes_a_credit_as_a_number():
    # 12,000 units billed at $0.40, the meter over-registering 5 %: 12000 / 1.05 = 11,428.5714 -> 11,428.57 units,
    # change -571.43; the bill 4,800.00 becomes 11,428.57 x 0.40 = 4,571.428 -> 4,571.43, a credit of -228.57.
    # The Water page's download wrote them as '-571.43 and '-228.57 (text a spreadsheet cannot add up)
    from treecalc.app import ui
    from treecalc.rules.croton_on_hudson import ch223_meter as water

    d = water.meter_test("12000", ["5"], "50.00", "0.40").to_dict()
    d["results_pct"] = ", ".join(d["results_pct"])
    frame = pd.DataFrame([d]).drop(columns=["notes"])  # as the Water page builds it
    rows = list(csv.DictReader(io.StringIO(ui.csv_bytes(frame).decode("utf-8-sig"))))
    assert len(rows) == 1
    assert rows[0]["bill_change_usd"] == "-228.57"
    assert rows[0]["consumption_change"] == "-571.43"
    assert rows[0]["corrected_usd"] == "4571.43"


def test_survey_export_keeps_formulas_text(tmp_path, capsys):
    # tags from a field app: three a spreadsheet would run, one a number with a sign
    survey = tmp_path / "tags.csv"
    with survey.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Tag", "Species", "DBH (in)", "Action"])
        # (the reader strips a cell's surrounding blanks: a tag's leading line break is the register's case, below)
        for tag in ('=HYPERLINK("http://x.example","click")', "+SUM(1+1)", "@cmd", "-7"):
            w.writerow([tag, "Red maple", "10", "retain"])
    for fmt in ("benefits", "opentreemap", "itree-eco"):
        out = tmp_path / f"{fmt}.csv"
        assert main(["survey", str(survey), "--export", fmt, "--out", str(out)]) == 0
        rows = list(csv.reader(out.open(newline="", encoding="utf-8")))[1:]
        assert len(rows) == 4, fmt
        cells = {c for r in rows for c in r}
        for tag in ('=HYPERLINK("http://x.example","click")', "+SUM(1+1)", "@cmd"):
            assert "'" + tag in cells and tag not in cells, (fmt, tag)
        assert "-7" in cells, fmt  # a tag that is a number is written as one


def test_register_csv_export_keeps_an_address_starting_with_a_line_break_text(tmp_path, monkeypatch, capsys):
    from treecalc.register import Register

    monkeypatch.setenv("TREECALC_DB", f"sqlite:///{tmp_path / 'reg.db'}")
    # the register's first account, an engineer's: the CLI acts as it, signed in with its password
    Register(f"sqlite:///{tmp_path / 'reg.db'}").add_user("c", "engineer", "correct horse battery", by="c")
    monkeypatch.setenv("TREECALC_PASSWORD", "correct horse battery")
    survey = tmp_path / "s.csv"
    survey.write_text("Tag,Species,DBH (in),Action\n1,Red maple,10,remove\n")
    assert main(["case", "new", "--survey", str(survey), "--address", "\n=1+1", "--by", "c"]) == 0
    out = tmp_path / "cases.csv"
    assert main(["case", "export", "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open(newline="", encoding="utf-8")))
    assert len(rows) == 1
    assert rows[0]["address"] == "'\n=1+1"
