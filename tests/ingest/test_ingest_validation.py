"""Every rejection reason and every kept-with-warning case, with row and column in the reason."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from openpyxl import Workbook

from tests.helpers.ingest import patch_cell, read_csv_text, write_text, write_xlsx, xlsx_bytes
from treecalc.ingest import REJECTION_KINDS, read_survey

HEADER = ["Tag", "Species", "DBH (in.)", "Condition"]


def _read(tmp_path, rows, name="s.csv"):
    s = read_survey(write_text(tmp_path / name, [HEADER, *rows]))
    assert s.rows_read == len(s.trees) + len(s.rejected)
    return s


@pytest.mark.parametrize(
    "row, kind, column, text",
    [
        (["1", "", "12", ""], "missing species", "Species", "row 2, column 'Species': no species given"),
        (["1", "Acer rubrum", "", ""], "missing DBH", "DBH (in.)", "row 2, column 'DBH (in.)': no DBH given"),
        (["1", "Acer rubrum", "n/a", ""], "missing DBH", "DBH (in.)", "'n/a' gives no DBH"),
        (
            ["1", "Acer rubrum", "twelve", ""],
            "DBH not a number",
            "DBH (in.)",
            "row 2, column 'DBH (in.)': 'twelve' is not a number",
        ),
        (["1", "Acer rubrum", "0", ""], "DBH not positive", "DBH (in.)", "row 2, column 'DBH (in.)'"),
        (["1", "Acer rubrum", "-4", ""], "DBH not positive", "DBH (in.)", "not a positive diameter"),
        (["1", "Acer rubrum", "251", ""], "DBH above 250 in", "DBH (in.)", "above 250 in"),
        (["1", "Xyzzy plumtree", "12", ""], "unresolved species", "Species", "species 'Xyzzy plumtree' not recognised"),
    ],
)
def test_rejection_reasons(tmp_path, row, kind, column, text):
    s = _read(tmp_path, [row])
    assert len(s.trees) == 0 and len(s.rejected) == 1
    r = s.rejected.iloc[0]
    assert r["kind"] == kind and r["column"] == column and text in r["reason"]
    assert r["source_row"] == 2 and r["raw"]["Species"] == row[1] if row[1] else True
    assert s.summary()["rejected_reasons"] == {kind: 1}


def test_unresolved_species_has_three_suggestions(tmp_path):
    s = _read(tmp_path, [["1", "Quercus rubbra-ish thing", "12", ""], ["2", "Quercus rubbra-ish thing", "9", ""]])
    assert list(s.rejected["kind"]) == ["unresolved species"] * 2
    assert len(s.rejected["suggestions"].iloc[0].split("; ")) == 3
    summ = s.summary()
    assert summ["unresolved_species"] == ["Quercus rubbra-ish thing"]
    assert len(summ["unresolved_suggestions"]["Quercus rubbra-ish thing"]) == 3


def test_duplicate_tags_reject_the_later_rows(tmp_path):
    s = _read(
        tmp_path,
        [
            ["5", "Acer rubrum", "12", ""],
            ["6", "Acer rubrum", "12", ""],
            ["5", "Quercus alba", "30", ""],
            ["5 ", "Quercus alba", "31", ""],
        ],
    )
    assert list(s.trees["source_row"]) == [2, 3]
    assert list(s.rejected["kind"]) == ["duplicate tag"] * 2
    assert s.rejected["reason"].iloc[0] == "row 4, column 'Tag': tag '5' already used on row 2"


def test_formula_without_cached_value(tmp_path):
    # openpyxl writes formulas without a cached value, as a file never opened in Excel would be
    rows = [
        HEADER,
        [1, "Acer rubrum", 12, "good"],
        [2, "Acer rubrum", "=B2*2", "good"],
        [3, "Acer rubrum", 9, '="go"&"od"'],
    ]
    s = read_survey(write_xlsx(tmp_path / "s.xlsx", rows))
    assert list(s.rejected["kind"]) == ["formula without cached value"] * 2
    assert "row 3, column 'DBH (in.)': formula =B2*2 has no cached value" in s.rejected["reason"].iloc[0]
    assert s.rejected["column"].iloc[1] == "Condition"
    assert s.rows_read == 3 and len(s.trees) == 1


def test_formula_with_cached_value_is_read(tmp_path):
    # a workbook saved by Excel: <f> with a cached <v>; the value is used, never the formula
    p = write_xlsx(tmp_path / "s.xlsx", [HEADER, [1, "Acer rubrum", 12, "good"]])
    import zipfile

    src = zipfile.ZipFile(p)
    out = tmp_path / "cached.xlsx"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b'<c r="C2" t="n"><v>12</v></c>', b'<c r="C2"><f>6*2</f><v>12</v></c>')
                assert b"<f>6*2</f>" in data
            z.writestr(item, data)
    s = read_survey(out)
    assert len(s.trees) == 1 and s.trees["dbh_in"].iloc[0] == 12


def test_kept_with_warnings(tmp_path):
    s = _read(
        tmp_path,
        [
            ["1", "Acer rubrum", "120", ""],
            ["2", "Acer rubrum", "12", "Dead"],
            ["3", "Red Mapel", "12", ""],
            ["4", "Quercus sp.", "12", ""],
            ["", "Acer rubrum", "8", ""],
        ],
    )
    assert len(s.trees) == 5 and len(s.rejected) == 0
    w = list(s.trees["warnings"])
    assert "above 100 in" in w[0]
    assert w[1] == "dead tree"
    assert "fuzzy match: 'Red Mapel' → Acer rubrum (ACRU), 89%" in w[2]
    assert "genus only" in w[3]
    assert s.trees["tag"].iloc[4] == "row-6" and "no tag" in w[4]
    assert s.trees["species_method"].iloc[2] == "fuzzy" and s.trees["species_score"].iloc[2] == pytest.approx(
        88.9, 0.01
    )


def test_no_tag_column_generates_tags(tmp_path):
    s = read_survey(write_text(tmp_path / "s.csv", [["Species", "DBH"], ["Acer rubrum", "12"], ["Acer rubrum", "9"]]))
    assert list(s.trees["tag"]) == ["row-2", "row-3"]
    assert any("no tag column" in w for w in s.warnings)


def test_blank_rows_are_skipped_and_counted(tmp_path):
    s = _read(
        tmp_path, [["1", "Acer rubrum", "12", ""], ["", "", "", ""], ["  ", "", "", ""], ["2", "Acer rubrum", "12", ""]]
    )
    assert s.rows_read == 2 and list(s.trees["source_row"]) == [2, 5]
    assert "2 blank row(s) inside the table skipped" in s.warnings


def test_all_kinds_at_once_and_invariant(tmp_path):
    header = [*HEADER, "Unit", "Stems", "Action"]
    rows = [
        header,
        [1, "Acer rubrum", 12, "", "", ""],
        [2, None, 12, "", "", ""],
        [3, "Acer rubrum", None, "", "", ""],
        [4, "Acer rubrum", "big", "", "", ""],
        [5, "Acer rubrum", 0, "", "", ""],
        [6, "Acer rubrum", 400, "", "", ""],
        [1, "Acer rubrum", 12, "", "", ""],
        [7, "Zzzz qqqq", 12, "", "", ""],
        [8, "Acer rubrum", "=1/0", "", "", ""],
        [9, "Acer rubrum", "#DIV/0!", "", "", ""],  # openpyxl writes an error cell
        [10, "Acer rubrum", 12, "", "furlong", ""],
        [11, "Acer rubrum", 12, "", "", 2.5],
        ["Total", None, 500, None],
    ]
    rows.insert(12, [12, "Acer rubrum", 12, "", "", "", "maybe"])  # an action word treecalc does not know
    s = read_survey(write_xlsx(tmp_path / "s.xlsx", rows))
    # every kind but the CSV-only one
    assert set(s.rejected["kind"]) == set(REJECTION_KINDS) - {"broken CSV quote"}
    assert s.rows_read == 14 == len(s.trees) + len(s.rejected)
    assert all(f"row {r}" in reason for r, reason in zip(s.rejected["source_row"], s.rejected["reason"]))
    for c in ("source_row", "tag", "species", "dbh", "column", "reason", "suggestions", "raw"):
        assert c in s.rejected.columns


def test_trees_columns_and_dtypes(tmp_path):
    s = _read(tmp_path, [["1", "Acer rubrum", "12", "good"]])
    expected = [
        "source_row",
        "tag",
        "species",
        "species_code",
        "species_method",
        "species_score",
        "dbh_in",
        "stems",
        "action",
        "condition",
        "land_use",
        "notes",
        "street_tree",
        "wetland",
        "slope_over_20pct",
        "excessively_steep_slope",
        "landmark",
        "conservation_area",
        "threatened_endangered",
        "protected_native",
        "regulated_buffer_zone",
        "hazardous",
        "dead_or_diseased",
        "good_forestry",
        "within_20ft_of_lot_line",
        "distance_to_residence_ft",
        "warnings",
    ]
    assert list(s.trees.columns) == expected
    assert str(s.trees["street_tree"].dtype) == "boolean"
    assert s.trees["source_row"].dtype.kind == "i" and s.trees["stems"].dtype.kind == "i"


def test_empty_table(tmp_path):
    s = read_survey(write_text(tmp_path / "s.csv", [HEADER]))
    assert s.rows_read == 0 and len(s.trees) == 0 and len(s.rejected) == 0
    assert s.summary()["trees"] == 0


def test_excel_date_in_dbh(tmp_path):
    import datetime as dt

    wb = Workbook()
    ws = wb.active
    ws.append(HEADER)
    ws.append([1, "Acer rubrum", dt.datetime(2025, 12, 8), ""])
    p = tmp_path / "d.xlsx"
    wb.save(p)
    s = read_survey(p)
    assert s.rejected["kind"].iloc[0] == "DBH not a number" and "is a date" in s.rejected["reason"].iloc[0]


def test_formula_byte_scan_matches_xml_parse(tmp_path):
    import zipfile

    from treecalc.ingest import sources

    rows = [HEADER] + [[i, "Acer rubrum", f"=ROW()*{i}" if i % 3 == 0 else i, "good"] for i in range(1, 40)]
    p = write_xlsx(tmp_path / "f.xlsx", rows)
    zf = zipfile.ZipFile(p)
    fast = sources.formula_cells_without_value(zf, "xl/worksheets/sheet1.xml", "f.xlsx")
    assert (fast, {}) == sources.cells._formula_cells_parsed(zf, "xl/worksheets/sheet1.xml")
    assert len(fast) == 13 and fast[(3, 2)] == "ROW()*3"
    # a prefixed namespace (as the OpenXML SDK writes), a cached value, a shared formula without one
    xml = (
        b'<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>'
        b'<x:row r="1"><x:c r="A1"><x:f>1+1</x:f><x:v>2</x:v></x:c><x:c r="B1" s="1"/>'
        b'<x:c r="C1"><x:f t="shared" si="0"/></x:c><x:c r="D1"><x:f>A1&amp;"x"</x:f><x:v/></x:c></x:row>'
        # an error typed in a cell, and one cached from a formula
        b'<x:row r="2"><x:c r="A2" t="e"><x:v>#N/A</x:v></x:c><x:c r="B2" t="e"><x:f>1/0</x:f>'
        b"<x:v>#DIV/0!</x:v></x:c></x:row>"
        b"</x:sheetData></x:worksheet>"
    )
    q = tmp_path / "g.zip"
    with zipfile.ZipFile(q, "w") as z:
        z.writestr("s.xml", xml)
    zq = zipfile.ZipFile(q)
    fast = sources.special_cells(zq, "s.xml", "g")
    assert fast == ({(0, 2): "(shared formula)", (0, 3): 'A1&"x"'}, {(1, 0): "#N/A", (1, 1): "#DIV/0!"})
    assert fast == sources.cells._formula_cells_parsed(zq, "s.xml")


def test_species_on_two_lines(tmp_path):
    s = _read(tmp_path, [["1", "Red maple\nAcer rubrum", "12", ""]])
    assert s.trees["species_code"].iloc[0] == "ACRU"


def test_invariant_is_checked_in_code(tmp_path):
    from treecalc.ingest.errors import IngestInvariantError

    s = _read(tmp_path, [["1", "Acer rubrum", "12", ""]])
    s.rows_read += 1
    with pytest.raises(IngestInvariantError, match="internal error"):
        s.check()


def test_diameter_symbol_header(tmp_path):
    s = read_survey(write_text(tmp_path / "s.csv", [["Tag", "Species", "Ø (cm)"], ["1", "Acer rubrum", "30"]]))
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(30 / 2.54)


# ======================================================== regressions from the QA report on survey ingest
# (formerly tests/ingest/test_ingest_qa_regressions.py; numbered as in the report)


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
    s = read_survey(xlsx_bytes(rows), filename="s.xlsx")
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
    data = xlsx_bytes(rows)  # openpyxl writes '#DIV/0!' and '#N/A' as error cells
    # row 5: a formula whose cached value is an error
    data = patch_cell(data, "xl/worksheets/sheet1.xml", "C5", '<c r="C5" t="e"><f>1/0</f><v>#DIV/0!</v></c>')
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
    s = read_survey(xlsx_bytes(rows, {"Site": site}), filename="s.xlsx")
    assert s.site == {"jurisdiction": "croton_on_hudson"}  # one key spelling inside (issue 15); input takes either
    assert "Site sheet row 3: lot_area_acres is an Excel error #N/A; treated as not given" in s.warnings
    assert any(
        w.startswith("Site sheet row 4: has_residence is a formula (=B9) without a cached value") for w in s.warnings
    )


def test_formula_row_otherwise_blank_is_counted():
    # a row whose only cell is a formula without a cached value reads as blank: it must still be counted
    data = xlsx_bytes([["Species", "DBH"], [None, "=0"]])
    s = read_survey(data, filename="s.xlsx")
    assert s.rows_read == 1 and s.rejected["kind"].iloc[0] == "formula without cached value"


# 11 ----------------------------------------------------------------- thousands separators


def test_thousands_point_and_decimal_comma():
    s = read_csv_text('Tag,Species,DBH\n1,red maple,"1.000,5"\n')
    # a comma file: '1.000,5' is not stems 1 and 5 but an ambiguous number
    r = s.rejected.iloc[0]
    assert r["kind"] == "DBH not a number" and "mixes a thousands separator and a decimal comma" in r["reason"]
    s = read_csv_text("Tag;Species;DBH\n1;red maple;1.000,5\n2;red maple;12,5\n")
    # a semicolon (decimal-comma) file: 1000.5 in (above 250 in: rejected as such), and 12.5 in
    assert s.rejected["kind"].iloc[0] == "DBH above 250 in" and "1000.5 in" in s.rejected["reason"].iloc[0]
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(12.5)


def test_huge_dbh_message_is_short():
    s = read_survey(xlsx_bytes([["Tag", "Species", "DBH"], [1, "red maple", 1e308]]), filename="s.xlsx")
    reason = s.rejected["reason"].iloc[0]
    assert s.rejected["kind"].iloc[0] == "DBH above 250 in" and "1e+308 in" in reason and len(reason) < 150


def test_numeric_species_has_no_suggestions():
    s = read_csv_text("Tag,Species,DBH\n1,12,12\n")
    r = s.rejected.iloc[0]
    assert r["reason"] == "row 2, column 'Species': species '12' not recognised (a number is not a species name)"
    assert r["suggestions"] == "" and s.summary()["unresolved_suggestions"] == {"12": []}


def test_a_dbh_comma_that_may_be_decimal_or_a_stem_separator_is_said_with_both_readings(tmp_path):
    # before: '7,5' was 7.5 in in a TSV (decimal comma) and 8.6 in (two stems) in a CSV, '14,10' 14.1 in in a
    # semicolon CSV, with no word on the survey. By hand: stems 7 and 5: sqrt(49 + 25) = 8.602 in; stems 14 and 10:
    # sqrt(196 + 100) = 17.205 in; as decimals 7.5 in and 14.10 in
    csv = tmp_path / "comma.csv"
    csv.write_text('Tag,Species,DBH,Action\n1,Red maple,"7,5",Remove\n2,Red maple,12,Remove\n')
    s = read_survey(csv)
    assert s.trees["dbh_in"].round(2).tolist() == [8.6, 12.0]
    said = [w for w in s.warnings if "may be a decimal comma or separate two stems" in w]
    assert (
        said
        and "row 2 '7,5' read as 8.6 in (stems 7 and 5), not 7.5 in (one stem, 7.5 with a decimal comma)" in (said[0])
    ), s.warnings

    tsv = tmp_path / "comma.tsv"
    tsv.write_text("Tag\tSpecies\tDBH\tAction\n1\tRed maple\t7,5\tRemove\n2\tRed maple\t14,10\tRemove\n")
    s = read_survey(tsv)
    assert s.source["decimal_comma"] and s.trees["dbh_in"].round(2).tolist() == [7.5, 14.1]
    said = [w for w in s.warnings if "may be a decimal comma or separate two stems" in w]
    assert said and said[0].startswith("2 DBH cells"), s.warnings
    assert "row 2 '7,5' read as 7.5 in (one stem, 7.5 with a decimal comma), not 8.6 in (stems 7 and 5)" in said[0]
    assert (
        "row 3 '14,10' read as 14.1 in (one stem, 14.10 with a decimal comma), not 17.2 in (stems 14 and 10)"
        in (said[0])
    )

    semi = tmp_path / "semi.csv"
    semi.write_text("Tag;Species;DBH;Action\n1;Red maple;14,10;Remove\n2;Red maple;12;Remove\n")
    s = read_survey(semi)
    assert s.trees["dbh_in"].round(2).tolist() == [14.1, 12.0]
    assert any("row 2 '14,10' read as 14.1 in" in w and "not 17.2 in (stems 14 and 10)" in w for w in s.warnings)
    # a DBH written plainly says nothing
    plain = tmp_path / "plain.csv"
    plain.write_text('Tag,Species,DBH,Action\n1,Red maple,7.5,Remove\n2,Red maple,"14, 10",Remove\n')
    assert not any("decimal comma or separate" in w for w in read_survey(plain).warnings)
