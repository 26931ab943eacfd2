"""Each file format reads to the same trees."""

from __future__ import annotations

import importlib
import io

import pandas as pd
import pytest

from tests.helpers.ingest import HEADER, ROWS, read_csv_text, write_text, write_xlsx
from treecalc.ingest import read_survey


def _check(s, n=3):
    assert s.rows_read == len(s.trees) + len(s.rejected) == n
    assert list(s.trees["species_code"]) == ["ACRU", "QUAL", "ACSA2"]
    assert list(s.trees["dbh_in"]) == pytest.approx([12, 20.5, 8])
    assert list(s.trees["action"]) == ["retain", "remove", "retain"]
    assert list(s.trees["tag"]) == ["1", "2", "3"]
    assert list(s.trees["source_row"]) == [2, 3, 4]


@pytest.mark.parametrize("ext", ["xlsx", "xlsm"])
def test_xlsx_and_xlsm(tmp_path, ext):
    p = write_xlsx(tmp_path / f"s.{ext}", [HEADER, *ROWS])
    s = read_survey(p)
    _check(s)
    assert s.source["format"] == ext


def test_xls(tmp_path):
    xlwt = importlib.import_module("xlwt")
    wb = xlwt.Workbook()
    ws = wb.add_sheet("Trees")
    for i, r in enumerate([HEADER, *ROWS]):
        for j, v in enumerate(r):
            ws.write(i, j, v)
    p = tmp_path / "s.xls"
    wb.save(str(p))
    s = read_survey(p)
    _check(s)
    assert s.source["format"] == "xls"


def test_ods(tmp_path):
    importlib.import_module("odf")
    p = tmp_path / "s.ods"
    pd.DataFrame(ROWS, columns=HEADER).to_excel(p, engine="odf", index=False, sheet_name="Inventory")
    s = read_survey(p)
    _check(s)
    assert s.source["format"] == "ods"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "utf-16", "utf-32"])
def test_csv_encodings(tmp_path, encoding):
    rows = [HEADER, *ROWS, [4, "Liriodendron tulipifera", 9, "Entfernen — réservé"]]
    p = write_text(tmp_path / "s.csv", rows, encoding=encoding)
    s = read_survey(p)
    # an action word treecalc does not know rejects its row (never a removal)
    assert s.rows_read == 4 and len(s.trees) == 3 and list(s.rejected["kind"]) == ["action not recognised"]
    assert s.source["encoding"] == encoding  # utf-8-sig: the BOM was seen and said
    # the accented text came through intact
    assert "Entfernen — réservé" in s.rejected["reason"].iloc[0]


def test_semicolon_with_decimal_comma(tmp_path):
    rows = [
        HEADER,
        [1, "Acer rubrum", "12,5", "retain"],
        [2, "Quercus alba", "20,25", "remove"],
        [3, "Sugar maple", "8", "retain"],
        [4, "Betula lenta", "14, 10, 6", "retain"],
    ]
    p = write_text(tmp_path / "s.csv", rows, delimiter=";")
    s = read_survey(p)
    assert s.source["delimiter"] == ";" and s.source["decimal_comma"]
    assert list(s.trees["dbh_in"]) == pytest.approx([12.5, 20.25, 8, (14**2 + 10**2 + 6**2) ** 0.5])


@pytest.mark.parametrize("ext", ["tsv", "txt"])
def test_tab_delimited(tmp_path, ext):
    p = write_text(tmp_path / f"s.{ext}", [HEADER, *ROWS], delimiter="\t")
    s = read_survey(p)
    _check(s)
    assert s.source["delimiter"] == "\t"


def test_tab_file_with_decimal_commas(tmp_path):
    rows = [HEADER, [1, "Acer rubrum", "12,5", "retain"], [2, "Quercus alba", "7", "remove"]]
    s = read_survey(write_text(tmp_path / "s.txt", rows, delimiter="\t"))
    assert s.source["decimal_comma"]
    assert list(s.trees["dbh_in"]) == pytest.approx([12.5, 7])


def test_comma_csv_quoted_comma_is_stems_with_warning(tmp_path):
    rows = [HEADER, [1, "Acer rubrum", "12,5", "retain"], [2, "Quercus alba", "7.5", "remove"]]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    assert not s.source["decimal_comma"]
    assert s.trees["dbh_in"].iloc[0] == pytest.approx((144 + 25) ** 0.5)
    assert "read as stems" in s.trees["warnings"].iloc[0]


def test_buffer_with_filename(tmp_path):
    p = write_xlsx(tmp_path / "s.xlsx", [HEADER, *ROWS])
    s = read_survey(io.BytesIO(p.read_bytes()), filename="upload.xlsx")
    _check(s)
    assert s.source["file"] == "upload.xlsx"
    s = read_survey(p.read_bytes())  # bytes, no name: the content decides
    _check(s)


def test_progress_callback(tmp_path):
    p = write_xlsx(tmp_path / "s.xlsx", [HEADER, *ROWS])
    seen = []
    read_survey(p, progress=lambda f, m: seen.append((f, m)))
    fr = [f for f, _ in seen]
    assert fr[0] == 0.0 and fr[-1] == 1.0 and fr == sorted(fr)


def test_sheet_selection(tmp_path):
    p = write_xlsx(
        tmp_path / "s.xlsx",
        [["Cover page"], ["nothing here"]],
        sheet="Cover",
        extra={"Notes": [["a", "b"]], "Tree Inventory": [HEADER, *ROWS]},
    )
    s = read_survey(p)
    assert s.source["sheet"] == "Tree Inventory"
    _check(s)
    s = read_survey(p, sheet="tree inventory")
    assert s.source["sheet"] == "Tree Inventory"
    from treecalc.ingest import SurveyError

    with pytest.raises(SurveyError, match="no sheet 'Nope'"):
        read_survey(p, sheet="Nope")
    with pytest.raises(SurveyError, match="no header row"):
        read_survey(p, sheet="Cover")


def test_utf32_big_endian_is_read_not_misread_as_utf16(tmp_path):
    p = write_text(tmp_path / "s.csv", [HEADER, *ROWS], encoding="utf-32-be")
    p.write_bytes(b"\x00\x00\xfe\xff" + p.read_bytes())  # with its BOM, as editors write it
    s = read_survey(p)
    assert s.source["encoding"] == "utf-32" and list(s.trees["species_code"]) == ["ACRU", "QUAL", "ACSA2"]


def test_mixed_encodings_are_reported_and_each_line_decoded(tmp_path):
    # two exports pasted together: line 2 in UTF-8, line 3 in Windows-1252
    data = ("Tag,Species,DBH,Action\n1,Acer rubrum,12,réservé\n").encode() + "2,Quercus alba,20,élagué\n".encode(
        "cp1252"
    )
    p = tmp_path / "mixed.csv"
    p.write_bytes(data)
    s = read_survey(p)
    assert s.source["encoding"] == "mixed: UTF-8 and Windows-1252 (line(s) 3)"
    assert any("mixes encodings" in w and "line(s) 3" in w for w in s.warnings)
    # neither word is a known action, so both rows are rejected (never a removal); each reason quotes its
    # word decoded in its own encoding
    assert len(s.trees) == 0 and list(s.rejected["kind"]) == ["action not recognised"] * 2
    assert "réservé" in s.rejected["reason"].iloc[0] and "élagué" in s.rejected["reason"].iloc[1]


def test_cells_right_of_the_header_are_reported(tmp_path):
    rows = [HEADER, [1, "Acer rubrum", 12, "retain", None, "stray"], [2, "Quercus alba", 20, "remove"]]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    assert len(s.trees) == 2
    assert any(
        w.startswith("1 row(s) have cells right of the header (after column D)") and w.endswith("row(s) 2")
        for w in s.warnings
    ), s.warnings


@pytest.mark.parametrize(
    "cell,inches", [("3 ft", 36.0), ("0.3 m", 30 / 2.54), ("2'", 24.0), ("1.5 metres", 150 / 2.54)]
)
def test_dbh_with_a_foot_or_metre_unit_in_the_cell(tmp_path, cell, inches):
    # 3 ft = 3 × 12 = 36 in; 0.3 m = 30 cm = 30 / 2.54 = 11.81 in; 1.5 m = 150 / 2.54 = 59.06 in
    s = read_survey(write_text(tmp_path / "s.csv", [HEADER, [1, "Acer rubrum", cell, "retain"]]))
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(inches)


@pytest.mark.parametrize("tag", ["Total-1", "TOTAL 7", "Sum-3"])
def test_a_tree_tagged_like_a_total_is_a_tree(tmp_path, tag):
    rows = [HEADER, [tag, "Acer rubrum", 12, "retain"], ["Total", None, 12, None], ["Total", "Total", 12, None]]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    assert list(s.trees["tag"]) == [tag]
    assert list(s.rejected["kind"]) == ["totals row", "totals row"]  # the real totals rows still are


# ======================================================== regressions from the QA report on survey ingest
# (formerly tests/ingest/test_ingest_qa_regressions.py; numbered as in the report)


# 5 ------------------------------------------------------------------ a huge CSV cell


def test_csv_cell_over_the_csv_field_limit():
    big = "x" * 200_000
    s = read_csv_text(f"Tag,Species,DBH,Notes\n1,red maple,12,{big}\n2,red maple,{big},\n")
    # row 2 is a tree with its long note; row 3's DBH is 200,000 characters: rejected, the reason kept short
    assert len(s.trees) == 1 and len(s.trees["notes"].iloc[0]) == 200_000
    reason = s.rejected["reason"].iloc[0]
    assert s.rejected["kind"].iloc[0] == "DBH not a number" and len(reason) < 200 and "200,000 characters" in reason


# 9 ------------------------------------------------------------------ a quote that never closes


def test_unclosed_quote_rejects_its_row_and_keeps_the_rest():
    s = read_csv_text('Tag,Species,DBH,Action\n1,"red maple,12,remove\n2,white oak,20,retain\n')
    # before: rows_read 1 (the quote swallowed line 3). Now line 2 is read alone and rejected, line 3 is a tree.
    assert s.rows_read == 2 and list(s.trees["tag"]) == ["2"]
    r = s.rejected.iloc[0]
    assert r["kind"] == "broken CSV quote" and r["column"] == "Species"
    assert r["reason"].startswith("row 2, column 'Species': a quote opened on line 2 is never closed")
    assert any(w.startswith("line 2: a quote opened here is never closed") for w in s.warnings)


def test_stray_quote_closed_later_is_caught_too():
    s = read_csv_text(
        'Tag,Species,DBH\n0,sugar maple,5\n1,"red maple,12\n2,white oak,20\n3,"pin oak,5\n4,white oak,20\n'
    )
    # lines 3 and 5 open quotes; line 5's quote sloppily "closes" line 3's: both rows rejected, 3 trees, 5 rows
    assert s.rows_read == 5 and list(s.trees["tag"]) == ["0", "2", "4"]
    assert list(s.rejected["source_row"]) == [3, 5]


def test_well_quoted_multiline_cell_is_kept():
    s = read_csv_text('Tag,Species,DBH\n1,"Red maple\nAcer rubrum",12\n2,white oak,20\n')
    assert s.rows_read == 2 and len(s.trees) == 2 and not len(s.rejected)
