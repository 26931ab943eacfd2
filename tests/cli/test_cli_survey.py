"""``treecalc survey``: its own flags (the sample survey and the reading are in tests/ingest/)."""

from __future__ import annotations

import pytest

from treecalc.cli import main


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "abc"])
def test_max_mb_must_be_a_positive_number(capsys, value):
    with pytest.raises(SystemExit) as e:
        main(["survey", "--max-mb", value])
    assert e.value.code == 2
    assert "is not a positive number of megabytes" in capsys.readouterr().err


def test_a_tree_pruned_by_a_stated_share_is_said_to_await_the_law(capsys, tmp_path):
    # "Pruned 30%" is read as retained by the reader: whether 30% is excessive pruning is the law's share (Croton
    # §208-17: 25% or greater), read by assess. The summary says so instead of counting it as a plain retain.
    p = tmp_path / "pruned.csv"
    p.write_text("Tag,Species,DBH (in),Action\n1,Red maple,10,Pruned 30%\n2,Red oak,12,removed\n3,Red oak,9,retain\n")
    assert main(["survey", str(p)]) == 0
    out = capsys.readouterr().out
    assert "actions: retain 2, removed 1 (1 of the retained pruned by a stated share" in out
    p.write_text("Tag,Species,DBH (in),Action\n1,Red maple,10,retain\n")
    assert main(["survey", str(p)]) == 0
    assert "stated share" not in capsys.readouterr().out


def _rc(args: list[str]) -> int:
    """The exit code of the command line, whether returned or raised by argparse."""
    try:
        return main(args)
    except SystemExit as e:
        return int(e.code or 0)


def _field_survey(tmp_path):
    p = tmp_path / "field.csv"
    p.write_text(
        "Tree ID,Species,DBH (in),Action\n"
        "T1,Red maple,10,Remove\n"
        "T2,Acer saccharum 'Green Mountain',14,Retain\n"
        "T3,Northern red oak,22.5,Retain\n"
    )
    return p


def test_survey_export_out_xlsx_writes_a_workbook(tmp_path, capsys):
    # `--out trees.xlsx` wrote CSV text under an .xlsx name: Excel refused to open it
    import openpyxl

    src = _field_survey(tmp_path)
    assert main(["survey", str(src), "--export", "benefits", "--out", str(tmp_path / "b.csv")]) == 0
    assert main(["survey", str(src), "--export", "benefits", "--out", str(tmp_path / "b.xlsx")]) == 0
    import csv

    rows = list(csv.DictReader((tmp_path / "b.csv").open(newline="", encoding="utf-8")))
    ws = openpyxl.load_workbook(tmp_path / "b.xlsx", read_only=True).worksheets[0]
    cells = list(ws.iter_rows(values_only=True))
    assert len(rows) == 3 and len(cells) == 4  # a header and the three trees, in both
    head = list(cells[0])
    assert head == list(rows[0].keys())
    for r, x in zip(rows, cells[1:]):
        got = dict(zip(head, x))
        assert got["tag"] == r["tag"]
        assert got["dbh_in"] == float(r["dbh_in"])  # a number in the workbook, not text
        assert got["usd_total_annual"] == float(r["usd_total_annual"])


@pytest.mark.parametrize("name", ["trees.geojson", "trees.json", "trees.txt", "trees"])
def test_survey_export_out_of_another_format_is_refused_naming_the_formats(tmp_path, capsys, name):
    src = _field_survey(tmp_path)
    out = tmp_path / name
    assert _rc(["survey", str(src), "--export", "opentreemap", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--out {out}" in err and ".csv" in err and ".xlsx" in err
    assert not out.exists()


def test_survey_out_without_export_is_refused(tmp_path, capsys):
    # --out was ignored without --export: the summary printed and no file written, exit 0
    src = _field_survey(tmp_path)
    assert _rc(["survey", str(src), "--out", str(tmp_path / "t.csv")]) == 2
    assert "--export" in capsys.readouterr().err
    assert not (tmp_path / "t.csv").exists()


@pytest.mark.parametrize("name", ["inv.csv", "inv.xlsx", "inv.geojson"])
def test_benefits_batch_out_named_as_another_format_is_refused(tmp_path, capsys, name):
    # benefits-batch writes a folder of Parquet files: under "inv.csv" it made a folder a spreadsheet cannot open
    src = tmp_path / "inv_in.csv"
    src.write_text("species,dbh_in\nRed maple,10\nSugar maple,14\n")
    out = tmp_path / name
    assert _rc(["benefits-batch", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--out {out}" in err and "Parquet" in err
    assert not out.exists()


@pytest.mark.parametrize(("flag", "name", "wants"), [("--out", "s.csv", ".xlsx"), ("--pdf", "s.xlsx", ".pdf")])
def test_assess_outputs_named_as_another_format_are_refused(tmp_path, capsys, flag, name, wants):
    src = _field_survey(tmp_path)
    assert _rc(["assess", str(src), flag, str(tmp_path / name)]) == 2
    assert wants in capsys.readouterr().err
    assert not (tmp_path / name).exists()
