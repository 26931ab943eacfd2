"""The sample survey and the ``treecalc survey`` command."""

from __future__ import annotations

import json

import pytest

from tests.helpers.ingest import HEADER, ROWS, write_text
from treecalc.cli import main
from treecalc.ingest import read_survey
from treecalc.reference import data


def test_sample_shows_exactly_the_deliberate_errors(capsys):
    assert main(["survey", str(data.SAMPLE_SURVEY), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["rows_read"] == 40 and d["trees"] == 39 and d["rejected"] == 1
    assert d["rejected_reasons"] == {"DBH not a number": 1}
    assert d["rejected_rows"][0]["reason"] == "row 23, column 'D.B.H. (in.)': 'twelve' is not a number"
    assert d["unresolved_species"] == []
    # the Site sheet names Croton-on-Hudson and also gives two facts only Wesley Hills' Chapter 95 reads
    assert d["warnings"] == [
        "fuzzy match: 'Sugar Mapel' → Acer saccharum (ACSA2), 91%: row 30",
        "site facts lot_area_acres (§95-3A(1)(d)), one_family_co_issued (§95-3A(1)(e)) are read by Wesley Hills "
        "Chapter 95, not by Croton-on-Hudson Chapter 208, the law applied: they are not used",
    ]
    assert d["warnings_detail"] == ["row 30 (tag 24): fuzzy match: 'Sugar Mapel' → Acer saccharum (ACSA2), 91%"]
    assert d["multi_stem_trees"] == 1
    assert d["actions"] == {
        "retain": 27,
        "remove": 10,
        "removed": 1,
        "topped": 1,
        "excessively_pruned": 0,
        "damaged": 0,
        "transplant": 0,
    }
    assert d["site"]["jurisdiction"] == "croton_on_hudson" and len(d["site"]) == 10
    assert d["unmapped_columns"] == []


def test_sample_trees():
    s = read_survey(data.SAMPLE_SURVEY)
    t = s.trees.set_index("tag")
    # "14, 10, 6" → sqrt(196 + 100 + 36) = 18.22 in, 3 stems
    assert t.loc["9", "dbh_in"] == pytest.approx(18.2209, abs=1e-4) and t.loc["9", "stems"] == 3
    assert t.loc["4", "species_code"] == "ACRU"  # 'October Glory' is valued as red maple
    assert {"ACPL", "AIAL"} <= set(t.loc[t["action"] == "remove", "species_code"])
    assert bool(t.loc["5", "landmark"]) and bool(t.loc["1", "street_tree"])
    assert s.source["header_row"] == 6


def test_default_file_is_the_sample(capsys):
    assert main(["survey"]) == 0
    out = capsys.readouterr().out
    assert "rows read 40: 39 trees, 1 rejected" in out
    assert "DBH not a number: 1" in out and "Sugar Mapel" in out


def test_cli_options(tmp_path, capsys):
    p = write_text(tmp_path / "s.csv", [["No", "Tree", "Diam. cm"], ["1", "Acer rubrum", "30"]])
    assert (
        main(
            [
                "survey",
                str(p),
                "--map",
                "Tree=species",
                "--map",
                "Diam. cm=dbh_cm",
                "--json",
                "--site",
                "jurisdiction=wesley-hills",
            ]
        )
        == 0
    )
    d = json.loads(capsys.readouterr().out)
    assert d["trees"] == 1 and d["site"] == {"jurisdiction": "wesley_hills"}
    p2 = write_text(tmp_path / "t.csv", [HEADER, *ROWS])
    assert main(["survey", str(p2), "--dbh-unit", "cm", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["dbh_unit"] == "cm"


def test_unresolved_listed_in_text_output(tmp_path, capsys):
    p = write_text(tmp_path / "s.csv", [HEADER, [1, "Quercus rubbra-ish thing", 12, "retain"]])
    assert main(["survey", str(p)]) == 2  # its one row rejected: no tree read, refused after the summary
    out = capsys.readouterr().out
    assert "unresolved species:" in out and "did you mean" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["survey", "/no/such/file.xlsx"], "no such file"),
        (["survey", "--site", "jurisdiction"], "expected NAME=VALUE"),
        (["survey", "--site", "jurisdiction=atlantis"], "not one of"),
        (["survey", "--map", "Nope=dbh"], "not in the header"),
    ],
)
def test_errors_exit_2_without_traceback(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_wrong_format_error(tmp_path, capsys):
    p = tmp_path / "survey.xlsx"
    p.write_bytes(b"%PDF-1.5 not a workbook")
    assert main(["survey", str(p)]) == 2
    assert "looks like a PDF document" in capsys.readouterr().err


def test_sample_generator_is_deterministic(tmp_path):
    import importlib.util
    import zipfile

    spec = importlib.util.spec_from_file_location(
        "make_sample_survey", data.DATA_DIR.parent / "tools" / "make_sample_survey.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = mod.build(tmp_path / "again.xlsx")
    a, b = zipfile.ZipFile(out), zipfile.ZipFile(data.SAMPLE_SURVEY)
    assert a.read("xl/worksheets/sheet1.xml") == b.read("xl/worksheets/sheet1.xml")
    assert a.read("xl/worksheets/sheet2.xml") == b.read("xl/worksheets/sheet2.xml")
