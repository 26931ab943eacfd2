"""Regressions for the QA report on survey ingest: each test is one reproduction, with the
expected numbers worked out in a comment."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import zipfile

import pytest
from ingest_builders import write_xlsx
from openpyxl import Workbook

from treecalc.cli import main
from treecalc.ingest import SurveyError, read_survey
from treecalc.ingest.columns import match_header


def _csv(text: str, **kw):
    s = read_survey(text.encode("utf-8"), filename="s.csv", **kw)
    assert s.rows_read == len(s.trees) + len(s.rejected)
    return s


def _xlsx_bytes(rows, extra: dict | None = None) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Trees"
    for r in rows:
        ws.append(list(r))
    for name, srows in (extra or {}).items():
        sh = wb.create_sheet(name)
        for r in srows:
            sh.append(list(r))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _patch_cell(data: bytes, part: str, ref: str, new_cell: str) -> bytes:
    """Replace one cell of a sheet part with hand-written XML (a formula with a cached error)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == part:
                body, n = re.subn(
                    rb'<c r="' + ref.encode() + rb'"[^>]*?(?:/>|>.*?</c>)', new_cell.encode(), body, count=1, flags=re.S
                )
                assert n == 1
            dst.writestr(info, body)
    return out.getvalue()


# 1 ------------------------------------------------------------------ DBH (in) and DBH (cm) are alternatives


def test_inch_and_cm_columns_are_alternatives_not_stems():
    s = _csv("Tag,Species,DBH (in),DBH (cm)\n1,red maple,12,50\n2,red maple,,50\n3,red maple,12,30.6\n")
    # row 2: 12 in is used; 50 cm = 50 / 2.54 = 19.69 in disagrees by 7.7 in (> 0.5 in): a warning.
    #        (Before: sqrt(12² + 50²) = 51.4 in, the cm column read as a second stem in inches.)
    # row 3: the inch cell is blank: 50 / 2.54 = 19.685 in.
    # row 4: 30.6 cm = 12.05 in, within 0.5 in of 12 in: no warning.
    assert list(s.trees["dbh_in"]) == pytest.approx([12.0, 19.685, 12.0], abs=1e-3)
    assert list(s.trees["stems"]) == [1, 1, 1]
    w = list(s.trees["warnings"])
    assert "50 cm = 19.7 in" in w[0] and "disagree" in w[0] and "12.0 in used" in w[0]
    assert w[1] == "" and w[2] == ""
    assert s.summary()["columns"] == {"Tag": "tag", "Species": "species", "DBH (in)": "dbh_in", "DBH (cm)": "dbh_cm"}


def test_inch_column_comes_first_even_when_it_is_second():
    s = _csv("Tag,Species,DBH (cm),DBH (in)\n1,red maple,50,12\n2,red maple,50,\n")
    # the inch column is preferred: 12 in; row 3 falls back on 50 cm = 19.69 in
    assert list(s.trees["dbh_in"]) == pytest.approx([12.0, 50 / 2.54])


# 2 ------------------------------------------------------------------ diameters that are not the DBH


@pytest.mark.parametrize(
    "header", ["Crown Diameter (ft)", "Canopy Diameter", "Drip Line Diameter (ft)", "Root Zone Diameter", "DBH Class"]
)
def test_other_diameters_are_not_dbh(header):
    assert match_header(header)[0] is None
    s = _csv(f"Tag,Species,DBH,{header}\n1,red maple,12,30\n")
    # the DBH column alone: 12 in, one stem; the other diameter is listed as not used
    assert s.trees["dbh_in"].iloc[0] == 12.0 and s.trees["stems"].iloc[0] == 1
    assert header in s.summary()["unmapped_columns"]


def test_stump_diameter_is_not_the_dbh_of_a_standing_tree():
    # a stump diameter column is read (for stumps), but a tree with a DBH keeps its DBH
    assert match_header("Stump Diameter")[0] == "stump_diameter"
    s = _csv("Tag,Species,DBH,Stump Diameter\n1,red maple,12,30\n")
    assert s.trees["dbh_in"].iloc[0] == 12.0 and s.trees["stems"].iloc[0] == 1


@pytest.mark.parametrize("header", ["Diameter", "Diameter (in)", "Trunk Diameter", "Diam."])
def test_trunk_diameters_are_still_dbh(header):
    assert match_header(header)[0] == "dbh"


# 3 ------------------------------------------------------------------ feet and metres


@pytest.mark.parametrize(
    "header, value, unit, inches",
    [
        ("DBH (ft)", "1.5", "ft", 18.0),  # 1.5 ft × 12 = 18 in
        ("Diameter (ft)", "2", "ft", 24.0),  # 2 ft × 12 = 24 in
        ("DBH (m)", "0.5", "m", 0.5 * 39.3701),  # 0.5 m × 39.37 = 19.69 in
    ],
)
def test_feet_and_metres_in_the_header(header, value, unit, inches):
    s = _csv(f"Tag,Species,{header}\n1,red maple,{value}\n")
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(inches, abs=1e-3)
    assert s.source["dbh_unit"] == unit


def test_unit_column_feet_converts_and_an_unknown_unit_rejects():
    s = _csv("Tag,Species,DBH,Unit\n1,red maple,1.5,ft\n2,red maple,0.3,m\n3,red maple,2,furlong\n")
    # 1.5 ft = 18 in; 0.3 m = 11.81 in; 'furlong' is no DBH unit: the row is rejected
    assert list(s.trees["dbh_in"]) == pytest.approx([18.0, 0.3 * 100 / 2.54])
    r = s.rejected.iloc[0]
    assert r["kind"] == "unknown DBH unit" and r["column"] == "Unit"
    assert r["reason"].startswith("row 4, column 'Unit': unknown unit 'furlong'")


# 4 ------------------------------------------------------------------ two DBH headers


def test_two_identical_dbh_headers_are_refused():
    # before: sqrt(12² + 30²) = 32.3 in, silently
    with pytest.raises(
        SurveyError,
        match=r"two columns are both read as DBH: 'DBH' \(column C\) and 'DBH' "
        r"\(column D\); use --map to choose",
    ):
        _csv("Tag,Species,DBH,DBH\n1,red maple,12,30\n")


def test_the_map_resolves_two_dbh_headers():
    s = _csv("Tag,Species,DBH,Diameter\n1,red maple,12,30\n", column_map={"Diameter": "dbh_stem"})
    # mapped as a second stem: sqrt(12² + 30²) = sqrt(1044) = 32.31 in, 2 stems
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(32.3110, abs=1e-4) and s.trees["stems"].iloc[0] == 2


@pytest.mark.parametrize("h2", ["Stem 2", "DBH 2", "Stem DBH", "DBH stem 2"])
def test_stem_like_headers_combine(h2):
    s = _csv(f"Tag,Species,DBH,{h2}\n1,red maple,12,5\n")
    # sqrt(12² + 5²) = sqrt(169) = 13 in, 2 stems
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(13.0) and s.trees["stems"].iloc[0] == 2


# 5 ------------------------------------------------------------------ a huge CSV cell


def test_csv_cell_over_the_csv_field_limit():
    big = "x" * 200_000
    s = _csv(f"Tag,Species,DBH,Notes\n1,red maple,12,{big}\n2,red maple,{big},\n")
    # row 2 is a tree with its long note; row 3's DBH is 200,000 characters: rejected, the reason kept short
    assert len(s.trees) == 1 and len(s.trees["notes"].iloc[0]) == 200_000
    reason = s.rejected["reason"].iloc[0]
    assert s.rejected["kind"].iloc[0] == "DBH not a number" and len(reason) < 200 and "200,000 characters" in reason


# 6 ------------------------------------------------------------------ the Stems column


@pytest.mark.parametrize("value", ["1e308", "inf", "-3", "2.5", "0", "1e6", "many", "51"])
def test_stems_must_be_a_whole_number_from_1_to_50(value):
    s = _csv(f"Tag,Species,DBH,Stems\n1,red maple,12,{value}\n")
    r = s.rejected.iloc[0]
    assert len(s.trees) == 0 and r["kind"] == "stems not valid" and r["column"] == "Stems"
    assert r["reason"] == f"row 2, column 'Stems': {value!r} is not a whole number of stems from 1 to 50"


def test_stems_column_counts_combined_stems():
    s = _csv('Tag,Species,DBH,Stems\n1,red maple,12,3\n2,red maple,12,\n3,red maple,"12, 5",1\n')
    # 3 stems already combined into 12 in; blank: 1 stem; '12, 5' gives 2 stems (13 in) although Stems says 1
    assert list(s.trees["stems"]) == [3, 1, 2]
    assert s.trees["dbh_in"].iloc[2] == pytest.approx(13.0)
    assert "says 1 stem(s) but the DBH gives 2" in s.trees["warnings"].iloc[2]


# 7 ------------------------------------------------------------------ non-numeric cell types in an xlsx DBH


def test_non_numeric_xlsx_dbh_cells_are_rejected_and_json_safe():
    rows = [
        ["Tag", "Species", "DBH"],
        [1, "red maple", dt.timedelta(days=1, hours=2)],
        [2, "red maple", dt.date(2024, 1, 2)],
        [3, "red maple", dt.time(12, 30)],
        [4, "red maple", True],
        [5, "red maple", dt.datetime(2024, 1, 2, 3, 4)],
        [6, "red maple", 12],
    ]
    s = read_survey(_xlsx_bytes(rows), filename="s.xlsx")
    assert len(s.trees) == 1 and s.rows_read == 6
    assert list(s.rejected["kind"]) == ["DBH not a number"] * 5
    reasons = list(s.rejected["reason"])
    assert "is a duration" in reasons[0] and "is a date" in reasons[1] and "time of day" in reasons[2]
    assert "true/false" in reasons[3] and "is a date" in reasons[4]
    json.dumps(s.rejected.to_dict("records"))  # the raw cells too (a timedelta used to break this)
    json.dumps(s.summary())


# 8 ------------------------------------------------------------------ Excel errors


def test_excel_errors_are_named():
    rows = [
        ["Tag", "Species", "DBH"],
        [1, "red maple", "#DIV/0!"],
        [2, "red maple", "#N/A"],
        [3, "red maple", 12],
        [4, "red maple", 14],
    ]
    data = _xlsx_bytes(rows)  # openpyxl writes '#DIV/0!' and '#N/A' as error cells
    # row 5: a formula whose cached value is an error
    data = _patch_cell(data, "xl/worksheets/sheet1.xml", "C5", '<c r="C5" t="e"><f>1/0</f><v>#DIV/0!</v></c>')
    s = read_survey(data, filename="s.xlsx")
    assert list(s.trees["source_row"]) == [4]
    assert list(s.rejected["kind"]) == ["Excel error"] * 3
    assert list(s.rejected["reason"]) == [
        "row 2, column 'DBH': Excel error #DIV/0!",
        "row 3, column 'DBH': Excel error #N/A",
        "row 5, column 'DBH': Excel error #DIV/0!",
    ]


def test_site_sheet_errors_and_uncached_formulas_warn():
    rows = [["Tag", "Species", "DBH"], [1, "red maple", 12]]
    site = [
        ["Field", "Value"],
        ["jurisdiction", "croton-on-hudson"],
        ["lot_area_acres", "#N/A"],
        ["has_residence", "=B9"],
    ]
    s = read_survey(_xlsx_bytes(rows, {"Site": site}), filename="s.xlsx")
    assert s.site == {"jurisdiction": "croton_on_hudson"}
    assert "Site sheet row 3: lot_area_acres is an Excel error #N/A; treated as not given" in s.warnings
    assert any(
        w.startswith("Site sheet row 4: has_residence is a formula (=B9) without a cached value") for w in s.warnings
    )


def test_formula_row_otherwise_blank_is_counted():
    # a row whose only cell is a formula without a cached value reads as blank: it must still be counted
    data = _xlsx_bytes([["Species", "DBH"], [None, "=0"]])
    s = read_survey(data, filename="s.xlsx")
    assert s.rows_read == 1 and s.rejected["kind"].iloc[0] == "formula without cached value"


# 9 ------------------------------------------------------------------ a quote that never closes


def test_unclosed_quote_rejects_its_row_and_keeps_the_rest():
    s = _csv('Tag,Species,DBH,Action\n1,"red maple,12,remove\n2,white oak,20,retain\n')
    # before: rows_read 1 (the quote swallowed line 3). Now line 2 is read alone and rejected, line 3 is a tree.
    assert s.rows_read == 2 and list(s.trees["tag"]) == ["2"]
    r = s.rejected.iloc[0]
    assert r["kind"] == "broken CSV quote" and r["column"] == "Species"
    assert r["reason"].startswith("row 2, column 'Species': a quote opened on line 2 is never closed")
    assert any(w.startswith("line 2: a quote opened here is never closed") for w in s.warnings)


def test_stray_quote_closed_later_is_caught_too():
    s = _csv('Tag,Species,DBH\n0,sugar maple,5\n1,"red maple,12\n2,white oak,20\n3,"pin oak,5\n4,white oak,20\n')
    # lines 3 and 5 open quotes; line 5's quote sloppily "closes" line 3's: both rows rejected, 3 trees, 5 rows
    assert s.rows_read == 5 and list(s.trees["tag"]) == ["0", "2", "4"]
    assert list(s.rejected["source_row"]) == [3, 5]


def test_well_quoted_multiline_cell_is_kept():
    s = _csv('Tag,Species,DBH\n1,"Red maple\nAcer rubrum",12\n2,white oak,20\n')
    assert s.rows_read == 2 and len(s.trees) == 2 and not len(s.rejected)


# 10 ----------------------------------------------------------------- two species columns


def test_two_species_columns_that_disagree_warn():
    s = _csv("Tag,Species Code,Species,DBH\n1,QUAL,red maple,12\n2,ACRU,red maple,12\n")
    # row 2: QUAL (white oak) and red maple (ACRU) differ: the first column is kept, with a warning
    assert list(s.trees["species_code"]) == ["QUAL", "ACRU"]
    w = s.trees["warnings"].iloc[0]
    assert "species columns disagree" in w and "'QUAL'" in w and "'red maple' (ACRU)" in w
    assert s.trees["warnings"].iloc[1] == ""


# 11 ----------------------------------------------------------------- thousands separators


def test_thousands_point_and_decimal_comma():
    s = _csv('Tag,Species,DBH\n1,red maple,"1.000,5"\n')
    # a comma file: '1.000,5' is not stems 1 and 5 but an ambiguous number
    r = s.rejected.iloc[0]
    assert r["kind"] == "DBH not a number" and "mixes a thousands separator and a decimal comma" in r["reason"]
    s = _csv("Tag;Species;DBH\n1;red maple;1.000,5\n2;red maple;12,5\n")
    # a semicolon (decimal-comma) file: 1000.5 in (above 250 in: rejected as such), and 12.5 in
    assert s.rejected["kind"].iloc[0] == "DBH above 250 in" and "1000.5 in" in s.rejected["reason"].iloc[0]
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(12.5)


# 12 ----------------------------------------------------------------- small ones


def test_huge_dbh_message_is_short():
    s = read_survey(_xlsx_bytes([["Tag", "Species", "DBH"], [1, "red maple", 1e308]]), filename="s.xlsx")
    reason = s.rejected["reason"].iloc[0]
    assert s.rejected["kind"].iloc[0] == "DBH above 250 in" and "1e+308 in" in reason and len(reason) < 150


def test_numeric_species_has_no_suggestions():
    s = _csv("Tag,Species,DBH\n1,12,12\n")
    r = s.rejected.iloc[0]
    assert r["reason"] == "row 2, column 'Species': species '12' not recognised (a number is not a species name)"
    assert r["suggestions"] == "" and s.summary()["unresolved_suggestions"] == {"12": []}


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "abc"])
def test_max_mb_must_be_a_positive_number(capsys, value):
    with pytest.raises(SystemExit) as e:
        main(["survey", "--max-mb", value])
    assert e.value.code == 2
    assert "is not a positive number of megabytes" in capsys.readouterr().err


def test_xlsx_dimension_merge_header_still_stems(tmp_path):
    # a merged "DBH" header over two columns groups them as stems: sqrt(12² + 8²) = 14.42 in
    rows = [["Tag", "Species", "DBH", None], [1, "red maple", 12, 8]]
    s = read_survey(write_xlsx(tmp_path / "m.xlsx", rows, merges=["C1:D1"]))
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(14.4222, abs=1e-4) and s.trees["stems"].iloc[0] == 2
