"""The Excel statement (issue 4, "The statement").

Most tests write a statement from a stand-in assessment that has exactly the
attributes of the ``Assessment`` contract, then read the file back with
openpyxl. One integration test runs the real ``treecalc.assessment.assess`` on
``data/examples/sample_survey.xlsx`` when both exist.
"""

from __future__ import annotations

import io
import math
import shutil
import subprocess
import types
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest

from treecalc.assessment import Assessment
from treecalc.report import cells, statement, xlsx
from treecalc.report.json import assessment_json
from treecalc.report.statement import SHEETS, statement_bytes, write_statement
from treecalc.results import Fund, Penalties, Permit, Replacement

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "examples" / "sample_survey.xlsx"

INJECTIONS = ['=HYPERLINK("http://x")', "+1+1", "-2", "@SUM(A1)", "\t=1+1", "\r=1+1", "=1+1", "#N/A"]


def stand_in(**over):
    """An Assessment with typed findings, built by hand (no rules run)."""
    trees = pd.DataFrame(
        {
            "source_row": [2, 3, 4, 5, 6],
            "tag": ['=HYPERLINK("http://x")', "+1+1", "-2", "@SUM(A1)", "T5"],
            "species": ["Red maple", "red maple", "Norway maple", "White oak", "Sugar maple"],
            "species_code": ["ACRU", "ACRU", "ACPL", "QUAL", "ACSA2"],
            "dbh_in": [8.0, 12.0, 10.0, 30.5, 4.0],
            "action": ["remove", "remove", "remove", "remove", "retain"],
            "condition": ["good", "fair", "poor", "good", "good"],
            "land_use": ["single_family"] * 5,
            "notes": ["=cmd|' /C calc'!A0", "", None, "landmark\x07 oak", "ok"],
            "landmark": [False, False, False, True, False],
            "stormwater_gal": [300.5, 600.0, 500.0, 3000.0, 100.0],
            "electricity_kwh": [50.0, 90.0, 70.0, 300.0, 20.0],
            "natural_gas_therms": [5.0, 9.0, 7.0, 30.0, 2.0],
            "air_quality_lb": [0.5, 0.9, 0.7, 3.0, 0.2],
            "co2_sequestered_lb": [40.0, 80.0, 60.0, 300.0, 10.0],
            "co2_avoided_lb": [30.0, 60.0, 50.0, 200.0, 10.0],
            "co2_stored_lb": [500.0, 1500.0, 1000.0, 20000.0, 100.0],
            "leaf_area_increase_m2": [1.0, 2.0, 1.5, 4.0, 0.5],
            "usd_stormwater": [3.0, 6.0, 5.0, 30.0, 1.0],
            "usd_energy": [10.0, 20.0, 15.0, 60.0, 4.0],
            "usd_air_quality": [1.0, 2.0, 1.5, 6.0, 0.5],
            "usd_co2": [0.5, 1.0, 0.8, 3.0, 0.2],
            "usd_property": [40.0, 80.0, 60.0, 150.0, 20.0],
            "usd_total_annual": [54.5, 109.0, 82.3, 249.0, 25.7],
            "value_usd": [54.5, 109.0, 82.3, 249.0, 25.7],
            "harmed": [True, True, True, True, False],
            "counted": [True, True, False, True, False],
            "exclusion": ["", "", "invasive (§208-22E)", "", ""],
            "permit_triggers": [["§208-19A(1)"], ["§208-19A(1)"], ["§208-19A(1)"], ["§208-19A(1)", "§208-19A(6)"], []],
            "permit_needed": [True, True, True, True, False],
            "offence": [True, True, True, True, False],
            "penalty_tier": [1, 2, 2, 5, None],
            "penalty_base_usd": [500.0, 1500.0, 1500.0, 5000.0, None],
            "penalty_max_usd": [1000.0, 3000.0, 3000.0, 10000.0, None],
            "criminal_max_usd": [250.0, 250.0, 250.0, 250.0, None],
            "warnings": [[], ["species read as 'Acer rubrum'"], [], [], []],
        }
    )
    rejected = pd.DataFrame(
        {
            "source_row": [7, 8],
            "tag": ["=1+1", "T8"],
            "species": ["@evil", "Unknownus treeus"],
            "dbh": ["-12", "twelve"],
            "column": ["dbh", "species"],
            "reason": ["DBH must be positive", "unknown species"],
            "suggestions": [[], ["Tilia americana", "Tilia cordata"]],
            "raw": [{"Tag": "=1+1", "DBH": "-12"}, {"Tag": "T8", "Species": "Unknownus treeus"}],
        }
    )
    survey = types.SimpleNamespace(
        rejected=rejected,
        rows_read=7,
        source={"file": "/tmp/survey.xlsx", "sheet": "Trees"},
        site={"prior_removals_12mo": 1, "slope_over_20pct": False},
    )
    lines = [
        {"section": "§208-19A", "item": "Permit required", "value": True, "unit": "yes/no", "note": "4 trees removed"},
        {"section": "§208-22A", "item": "Replacement percentage", "value": 90, "unit": "%", "note": ""},
        {"section": "§208-22B", "item": "Value of trees removed", "value": 412.5, "unit": "USD", "note": "annual"},
        {"section": "§208-22B", "item": "Value required", "value": 371.25, "unit": "USD", "note": ""},
        {"section": "§208-22", "item": "Replacement trees needed", "value": 5, "unit": "trees", "note": ""},
        {"section": "§208-24", "item": "Payment in lieu", "value": 1000.0, "unit": "USD", "note": "placeholder"},
        {"section": "§208-29B", "item": "Civil penalty, maximum", "value": 17000.0, "unit": "USD", "note": "up to"},
        {"section": "§208-29A", "item": "Criminal fine, maximum", "value": 1000.0, "unit": "USD", "note": "up to"},
    ]
    a = Assessment(
        survey=survey,
        jurisdiction="croton_on_hudson",
        options={"value_basis": "annual", "violation": False, "plantable": 3, "site": {"note": "+SUM(1)"}},
        trees=trees,
        permit=Permit(
            trees_needing_permit=4,
            approving_authority="Village Engineer",
            required=True,
            triggers=[
                {
                    "section": "§208-19A(1)",
                    "text": "more than three trees in 12 months",
                    "tags": ['=HYPERLINK("http://x")', "+1+1", "-2", "@SUM(A1)"],
                },
                {"section": "§208-19A(6)", "text": "landmark tree", "tags": ["@SUM(A1)"]},
            ],
            exceptions_applied=[],
        ),
        replacement=Replacement(
            required=True,
            percent=90,
            section="§208-22A",
            value_basis="annual",
            value_basis_label="total annual benefits",
            removed_value_usd=412.5,
            required_value_usd=371.25,
            stock=[
                {
                    "species_code": "ACSA2",
                    "scientific_name": "Acer saccharum",
                    "dbh_in": 1.5,
                    "unit_cost_usd": 350.0,
                    "native": True,
                },
                {
                    "species_code": "QURU",
                    "scientific_name": "Quercus rubra",
                    "dbh_in": 2.0,
                    "unit_cost_usd": 400.0,
                    "native": True,
                },
            ],
            plan=[
                {
                    "species_code": "ACSA2",
                    "scientific_name": "Acer saccharum",
                    "dbh_in": 1.5,
                    "unit_cost_usd": 350.0,
                    "value_per_tree_usd": 80.0,
                    "count": 2,
                    "native": True,
                },
                {
                    "species_code": "QURU",
                    "scientific_name": "Quercus rubra",
                    "dbh_in": 2.0,
                    "unit_cost_usd": 400.0,
                    "value_per_tree_usd": 95.0,
                    "count": 1,
                    "native": True,
                },
            ],
            trees_needed=5,
            trees_planted=3,
            trees_in_lieu=2,
            planted_value_usd=255.0,
            unmet_value_usd=116.25,
            planting_cost_usd=1100.0,
            native_share=1.0,
            warnings=[],
            notes=["Invasive removals are not counted (§208-22E)."],
        ),
        fund=Fund(
            basis="per_tree",
            fee_per_tree_usd=500.0,
            multiplier=None,
            placeholder=True,
            trees_in_lieu=2,
            unmet_value_usd=116.25,
            fund_in_lieu_usd=1000.0,
            section="§208-24C",
            notes=["Fee set by Board resolution.", "Forfeited bonds are also deposited in the Fund (§208-23C)."],
        ),
        penalties=Penalties(
            civil_penalty_max_usd=17000,
            doubled=True,
            doubling_reasons=["more than three regulated trees harmed without a permit"],
            continuing_days=0,
            criminal_fine_max_usd=1000,
            fine_max_usd=None,
            fine_conditional_usd=None,
            offences=1,
            offences_definite=1,
            offences_conditional=0,
            per_tree=[{"tag": "-2", "dbh_in": 10.0, "tier": 2, "base_usd": 1500.0, "max_usd": 3000.0}],
            notes=["Amounts are maxima."],
            sections=["§208-29A", "§208-29B"],
        ),
        lines=lines,
        assumptions=["Conifer replacements valued at 1.5 in DBH."],
        warnings=["Norway maple is invasive: not counted.", "=WARN()"],
        method={
            "value_basis": {"name": "annual", "description": "total annual benefits (NTBC)"},
            "prices": {"electricity_usd_per_kwh": 0.2, "hydro_interception_usd_per_gal": 0.0045},
            "parameters": {"home_price_usd": 500000.0, "large_tree_leaf_area_m2": 583.8},
            "data_sources": ["i-Tree Streets Northeast resource tables", "Croton-on-Hudson Chapter 208"],
            "sections_applied": ["§208-19A", "§208-22A", "§208-24C", "§208-29B"],
            "readings": [
                {"source_row": 3, "column": "species", "raw": "red mapel", "read_as": "Acer rubrum", "score": 91.0}
            ],
        },
    )
    for k, v in over.items():
        setattr(a, k, v)
    return a


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    path = tmp_path_factory.mktemp("st") / "statement.xlsx"
    assert write_statement(stand_in(), path) is None
    return openpyxl.load_workbook(path)


def header_row(ws, row=2):
    return [c.value for c in ws[row] if c.value is not None]


def find_row(ws, col, value):
    for row in ws.iter_rows():
        if len(row) >= col and row[col - 1].value == value:
            return row
    raise AssertionError(f"{value!r} not found in column {col} of {ws.title}")


def test_sheet_names(book):
    assert book.sheetnames == list(SHEETS)
    assert SHEETS == ("Summary", "Trees", "Replacement plan", "Fund", "Penalties", "Rejected rows", "Method & sources")


def test_summary_lines_equal_the_assessment_and_name_section_and_unit(book):
    ws = book["Summary"]
    assert header_row(ws) == ["Section", "Item", "Value", "Unit", "Note"]
    a = stand_in()
    # under the lines and a blank row, the applicant's headline in the app's and the PDF's words: planting
    # $1,100.00 (3 trees planted) + $1,000.00 paid in lieu (2 x $500) = $2,100.00
    below = 3 + len(a.lines) + 1
    head = [ws.cell(below, j).value for j in range(1, 5)]
    assert head[1:] == ["Total out of pocket", pytest.approx(2100.0), "USD"]
    assert ws.cell(below, 3).number_format == "$#,##0.00"
    for i, line in enumerate(a.lines, start=3):
        sec, item, value, unit, note = (ws.cell(i, j).value for j in range(1, 6))
        assert sec == line["section"] and sec
        assert item == line["item"]
        assert unit == line["unit"] and unit
        want = line["value"]
        if isinstance(want, bool):
            assert value == ("Yes" if want else "No")
        else:
            assert value == pytest.approx(want)
        if line["unit"] == "USD":
            assert ws.cell(i, 3).number_format == "$#,##0.00"
    assert "Croton-on-Hudson, Chapter 208" in ws["A1"].value and "survey.xlsx (sheet Trees)" in ws["A1"].value
    assert "value basis: annual" in ws["A1"].value


def test_summary_line_without_unit_gets_one(tmp_path):
    a = stand_in(
        lines=[
            {"section": "§208-19A", "item": "Permit required", "value": False},
            {"section": "§208-22", "item": "Trees", "value": 3, "unit": None},
        ]
    )
    ws = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))["Summary"]
    assert [ws.cell(3, j).value for j in range(1, 5)] == ["§208-19A", "Permit required", "No", "yes/no"]
    assert ws.cell(4, 4).value == "number"


def test_freeze_panes_and_filters(book):
    assert book["Summary"].freeze_panes == "A3"
    assert book["Summary"].auto_filter.ref == "A2:E10"  # header + 8 lines
    assert book["Trees"].freeze_panes == "C3"
    ncols = book["Trees"].max_column
    assert book["Trees"].auto_filter.ref == f"A2:{openpyxl.utils.get_column_letter(ncols)}7"  # 5 trees
    assert book["Rejected rows"].freeze_panes == "A3"
    assert book["Rejected rows"].auto_filter.ref == "A2:H4"
    for name in ("Replacement plan", "Fund", "Penalties", "Method & sources"):
        assert book[name].freeze_panes == "A3", name
        assert book[name].auto_filter.ref, name


def test_trees_headers_units_and_formats(book):
    ws = book["Trees"]
    head = header_row(ws)
    for h in (
        "Source row",
        "Tag",
        "Species (as surveyed)",
        "DBH (in)",
        "Notes",
        "Landmark",
        "Stormwater (gal/yr)",
        "Electricity (kWh/yr)",
        "Natural gas (therms/yr)",
        "CO₂ stored (lb)",
        "Total annual benefits ($/yr)",
        "Value ($, annual)",
        "Permit triggers (sections)",
        "Civil penalty tier",
        "Civil penalty maximum ($)",
        "Criminal fine maximum ($)",
    ):
        assert h in head, h
    # a sensible order: identity, then flags, then benefits, value, law
    assert (
        head.index("Tag")
        < head.index("Landmark")
        < head.index("Stormwater (gal/yr)")
        < head.index("Value ($, annual)")
        < head.index("Civil penalty maximum ($)")
    )
    col = {h: i + 1 for i, h in enumerate(head)}
    r = find_row(ws, col["Source row"], 5)  # the white oak
    assert r[col["Value ($, annual)"] - 1].value == pytest.approx(249.0)
    assert r[col["Value ($, annual)"] - 1].number_format == "$#,##0.00"
    assert r[col["Civil penalty maximum ($)"] - 1].value == pytest.approx(10000.0)
    assert r[col["Civil penalty maximum ($)"] - 1].number_format == "$#,##0.00"
    assert r[col["Permit triggers (sections)"] - 1].value == "§208-19A(1); §208-19A(6)"
    assert r[col["Harmed (removed or damaged)"] - 1].value == "Yes"
    assert r[col["Notes"] - 1].value == "landmark\ufffd oak"  # BEL cannot be stored in XML
    assert r[col["DBH (in)"] - 1].number_format == "#,##0.0"
    # the retained tree: no tier, no penalty (empty cells, not zeros)
    r = find_row(ws, col["Source row"], 6)
    assert r[col["Civil penalty maximum ($)"] - 1].value is None
    # widths were set
    assert ws.column_dimensions["B"].width >= 8


def test_formula_injection_cells_are_plain_strings(book):
    seen = 0
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for c in row:
                assert c.data_type != "f", (ws.title, c.coordinate, c.value)
                if isinstance(c.value, str) and c.value in INJECTIONS + ["=cmd|' /C calc'!A0", "=WARN()"]:
                    assert c.data_type == "s", (ws.title, c.coordinate)
                    # a text that is a number ("-2", "-12") is no formula: it needs no guard
                    if c.value[0] in "=+-@\t\r" and c.value not in ("-2", "-12"):
                        assert c.quotePrefix, (ws.title, c.coordinate, c.value)
                    seen += 1
    assert seen >= 10
    # the tags themselves read back exactly, without a visible apostrophe
    ws = book["Trees"]
    tags = [ws.cell(r, 2).value for r in range(3, 8)]
    assert tags == ['=HYPERLINK("http://x")', "+1+1", "-2", "@SUM(A1)", "T5"]
    rej = book["Rejected rows"]
    assert [rej.cell(3, j).value for j in range(1, 5)] == [7, "=1+1", "@evil", "-12"]
    assert rej.cell(3, 8).value == "Tag: =1+1; DBH: -12"


def test_injection_in_the_xml_is_an_inline_string(tmp_path):
    """The file itself holds no <f> element at all: nothing a spreadsheet could run."""
    import zipfile

    data = statement_bytes(stand_in())
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/sheet"):
                xml = z.read(name).decode()
                assert "<f>" not in xml and "<f " not in xml, name
        sheet2 = z.read("xl/worksheets/sheet2.xml").decode()
    assert (
        't="inlineStr"' in sheet2
        and "=HYPERLINK(&quot;http://x&quot;)" in sheet2.replace('"', "&quot;")
        or '=HYPERLINK("http://x")' in sheet2
    )


def test_every_user_string_is_safe_for_any_leading_character():
    wb = openpyxl.load_workbook(
        io.BytesIO(
            statement_bytes(stand_in(trees=pd.DataFrame({"tag": INJECTIONS, "dbh_in": [1.0] * len(INJECTIONS)})))
        )
    )
    ws = wb["Trees"]
    got = [ws.cell(r, 1).value for r in range(3, 3 + len(INJECTIONS))]
    # CR at the start of a cell is normalised to LF by XML parsers; the rest is exact
    assert got[:5] == INJECTIONS[:5] and got[6:] == INJECTIONS[6:]
    for r in range(3, 3 + len(INJECTIONS)):
        c = ws.cell(r, 1)
        assert c.data_type == "s"
        assert c.quotePrefix == (c.value[0] in "=+-@\t\r\n" and c.value != "-2")  # "-2" is a number, no formula


def test_money_formats_on_other_sheets(book):
    ws = book["Replacement plan"]
    assert header_row(ws) == ["Item", "Value", "Unit", "Section", "Note"]
    r = find_row(ws, 1, "Value the replacements must carry")
    assert r[1].value == pytest.approx(371.25) and r[1].number_format == "$#,##0.00" and r[2].value == "$"
    r = find_row(ws, 1, "Native share of replacements")
    assert r[1].value == 1.0 and r[1].number_format == "0.0%"
    r = find_row(ws, 1, "ACSA2")  # the planting plan
    assert r[3].number_format == "$#,##0.00" and r[5].value == 2
    assert r[7].value == pytest.approx(700.0)  # line cost 2 x $350
    ws = book["Fund"]
    r = find_row(ws, 1, "Payment in lieu to the Fund")
    assert r[1].value == pytest.approx(1000.0) and r[1].number_format == "$#,##0.00"
    r = find_row(ws, 1, "Fee per tree not planted")
    assert "PLACEHOLDER" in r[4].value
    assert any("forfeited bonds" in str(c.value).lower() for row in ws.iter_rows() for c in row)
    ws = book["Penalties"]
    r = find_row(ws, 1, "Civil penalty, maximum")
    assert r[1].value == pytest.approx(17000.0) and r[1].number_format == "$#,##0.00"
    assert find_row(ws, 1, "Per-tree amounts multiplied")[1].value == "Yes"
    r = find_row(ws, 1, "-2")  # the per-tree table
    assert r[4].value == pytest.approx(3000.0) and r[4].number_format == "$#,##0.00"
    assert ws.auto_filter.ref == f"A{r[0].row - 1}:E{r[0].row}"
    assert "maxima" in ws["A1"].value


def test_method_sheet_flattens_nested_method(book):
    ws = book["Method & sources"]
    assert header_row(ws) == ["Section", "Item", "Value", "Unit"]
    rows = [[c.value for c in row] for row in ws.iter_rows(min_row=3)]
    r = next(r for r in rows if r[1] == "Electricity")
    assert r[0] == "Prices" and r[2] == pytest.approx(0.2) and r[3] == "$/kwh"
    assert any(r[0] == "Sections applied" and "§208-22A" in str(r[2]) for r in rows)
    assert any(r[0] == "Readings" and r[2] == "red mapel" for r in rows)
    assert any(r[0] == "Assumptions" for r in rows)
    assert any(r[0] == "Survey source" and r[1] == "Rows read" and r[2] == 7 for r in rows)
    assert any(r[0] == "Options" and r[2] == "+SUM(1)" for r in rows)


def test_chart_of_removed_value_by_species(tmp_path):
    path = tmp_path / "s.xlsx"
    write_statement(stand_in(), path)
    wb = openpyxl.load_workbook(path)
    ws = wb["Summary"]
    # openpyxl's reader keeps charts; the drawing is in the package either way
    import zipfile

    with zipfile.ZipFile(path) as z:
        charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
        assert charts
        xml = z.read(charts[0]).decode()
    assert "barChart" in xml and "'Summary'!" in xml
    assert len(ws._charts) == 1
    # the chart's data: harmed trees only, grouped by species code, largest first
    hdr = find_row(ws, 1, "Species")[0].row
    body = [[ws.cell(r, j).value for j in range(1, 6)] for r in range(hdr + 1, hdr + 4)]
    assert body[0][0] == "White oak (QUAL)" and body[0][4] == pytest.approx(249.0)
    assert body[1][0] == "Red maple (ACRU)" and body[1][1] == 2 and body[1][2] == pytest.approx(163.5)
    assert body[2][0] == "Norway maple (ACPL)" and body[2][3] == pytest.approx(82.3)  # invasive: not counted
    assert ws.cell(hdr + 1, 3).number_format == "$#,##0.00"


def test_bytes_buffer_and_path_agree(tmp_path):
    a = stand_in()
    data = statement_bytes(a)
    assert data[:2] == b"PK"
    buf = io.BytesIO()
    assert write_statement(a, buf) is None
    wb1, wb2 = openpyxl.load_workbook(io.BytesIO(data)), openpyxl.load_workbook(io.BytesIO(buf.getvalue()))
    assert wb1.sheetnames == wb2.sheetnames
    assert [c.value for c in wb1["Summary"]["C"]] == [c.value for c in wb2["Summary"]["C"]]
    assert write_statement(a, None)[:2] == b"PK"


def test_robust_to_a_sparse_assessment():
    from treecalc.rules.wesley_hills import Chapter95Summary

    """Wesley Hills style: no replacement, no fund, few columns, nothing rejected."""
    a = Assessment(
        survey=types.SimpleNamespace(rejected=pd.DataFrame(), rows_read=1, source={}, site={}),
        jurisdiction="wesley_hills",
        options={},
        trees=pd.DataFrame({"tag": ["1"], "dbh_in": [12.0], "harmed": [True]}),
        permit=Permit(
            required=False, triggers=[], exceptions_applied=[], trees_needing_permit=0, approving_authority=""
        ),
        replacement=None,  # no finding: the sheet says "not applicable"
        fund=None,
        penalties=None,
        summary=Chapter95Summary(
            permit_required=True,
            triggers=[],
            per_tree=[],
            offences=1,
            fine_per_tree_usd=5000,
            fine_max_usd=5000.0,  # type: ignore[arg-type]  (a float, as a sparse caller may give it)
            fine_conditional_usd=0,
            daily_fine_max_usd=2500,
            continuing_days=1,
            other_violation_max_usd=None,
            exceptions_applied=[],
            note="",
            notes=["Wesley Hills has no replacement-value rule."],
        ),
        lines=[],
        assumptions=[],
        warnings=[],
        method={},
    )
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
    assert wb.sheetnames == list(SHEETS)
    ws = wb["Penalties"]
    r = find_row(ws, 1, "Fine, maximum")
    assert r[1].value == 5000.0 and r[1].number_format == "$#,##0.00"
    assert any("no replacement-value rule" in str(c.value) for row in ws.iter_rows() for c in row)
    assert wb["Rejected rows"].max_row == 2


def test_many_trees_all_written(tmp_path):
    # Every one of 5,000 trees gets its row (the statement's speed is benchmarks/end_to_end.py's business).
    n = 5_000
    base = stand_in().trees
    trees = base.iloc[[i % len(base) for i in range(n)]].reset_index(drop=True)
    trees["source_row"] = range(2, n + 2)
    data = statement_bytes(stand_in(trees=trees))
    ws = openpyxl.load_workbook(io.BytesIO(data), read_only=True)["Trees"]
    assert sum(1 for _ in ws.iter_rows(values_only=True)) == n + 2


def libreoffice_pdf(xlsx: Path, tmp_path: Path) -> Path:
    """Render ``xlsx`` to PDF with LibreOffice (headless, a private profile); skip when it is not installed."""
    import os

    exe = (
        shutil.which("libreoffice")
        or shutil.which("soffice")
        or next(
            (
                str(p)
                for p in (
                    Path("/usr/lib/libreoffice/program/soffice"),
                    Path("/opt/libreoffice/program/soffice"),
                    *sorted(Path("/opt").glob("libreoffice*/program/soffice")),
                )
                if p.exists()
            ),
            None,
        )
    )
    if not exe:
        if os.environ.get("CI") or os.environ.get("TREECALC_REQUIRE_LIBREOFFICE"):  # .ci/run installs it: a failure
            pytest.fail("libreoffice not found (PATH, /usr/lib/libreoffice, /opt) although CI installs it")
        pytest.skip("libreoffice is not installed (not on PATH); cannot check that it renders the statement")
    out = tmp_path / "pdf"
    subprocess.run(
        [
            exe,
            "--headless",
            f"-env:UserInstallation=file://{tmp_path}/lo-profile",
            "--convert-to",
            "pdf",
            "--outdir",
            str(out),
            str(xlsx),
        ],
        check=True,
        timeout=55,
        capture_output=True,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    pdf = out / (xlsx.stem + ".pdf")
    assert pdf.exists() and pdf.stat().st_size > 1000
    assert pdf.read_bytes()[:5] == b"%PDF-"
    return pdf


@pytest.mark.slow  # LibreOffice starts in 2-10 s; the timeout keeps it under 60 s
def test_libreoffice_renders_it(tmp_path):
    path = tmp_path / "statement.xlsx"
    write_statement(stand_in(), path)
    libreoffice_pdf(path, tmp_path)


def test_integration_with_assess_on_the_sample(tmp_path):
    from treecalc.assessment import assess

    assert SAMPLE.exists(), f"{SAMPLE} is the bundled sample"
    a = assess(SAMPLE)
    path = tmp_path / "statement.xlsx"
    write_statement(a, path)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == list(SHEETS)
    assert wb["Trees"].max_row == len(a.trees) + 2
    ws = wb["Summary"]
    assert a.lines, "the sample's assessment has summary lines to compare"
    for i, line in enumerate(a.lines, start=3):
        assert ws.cell(i, 1).value and ws.cell(i, 4).value  # section and unit
        v = line["value"]
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            assert ws.cell(i, 3).value == pytest.approx(v)


@pytest.mark.slow
def test_libreoffice_renders_the_sample_statement(tmp_path):
    """Acceptance of issue 4: the statement of the sample survey opens in LibreOffice."""
    from treecalc.assessment import assess

    assert SAMPLE.exists(), f"{SAMPLE} is the bundled sample"
    path = tmp_path / "sample_statement.xlsx"
    write_statement(assess(SAMPLE), path)
    libreoffice_pdf(path, tmp_path)


def test_an_empty_assessment_still_makes_every_sheet():
    a = Assessment(
        survey=None,
        jurisdiction="",
        options={},
        trees=pd.DataFrame(),
        permit=None,  # no findings at all: every sheet is still made
        replacement=None,
        fund=None,
        penalties=None,
        lines=[],
        assumptions=[],
        warnings=[],
        method={},
    )
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
    assert wb.sheetnames == list(SHEETS)
    assert wb["Summary"].freeze_panes == "A3"
    assert "no trees" in wb["Trees"]["A1"].value
    assert not wb["Summary"]._charts  # nothing harmed, no chart


# ---------------------------------------------------------------------------
# issue 12: the XlsxWriter statement writes the same cells, whichever path wrote them

SURVEY_SPECIES = [
    "Acer rubrum",
    "Red maple",
    "Sugar Mapel",
    "Quercus alba",
    "White oak",
    "Norway maple",
    "Ailanthus altissima",
    "Liriodendron tulipifera",
    "Pinus strobus",
    "Black cherry",
    "Acer rubrum 'October Glory'",
    "Cornus florida",
]


def write_generated_survey(path: Path, n: int = 2000) -> None:
    """A realistic survey of ``n`` trees: title row, header with units, misspellings, multi-stem DBH,
    flags, every action spelling the surveys use, and tags/notes a spreadsheet would take for formulas."""
    import random

    import xlsxwriter

    rnd = random.Random(12)
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Trees")
    ws.write_string(0, 0, "Generated survey")
    for j, h in enumerate(["Tag #", "Species", "DBH (in)", "Condition", "Action", "Street Tree", "Landmark", "Notes"]):
        ws.write_string(1, j, h)
    actions = ["Retain", "Remove", "Removed", "Topped", "retain", ""]
    for i in range(n):
        r = i + 2
        ws.write_string(r, 0, ["=1+1", "-7", "@x"][i % 3] if i % 97 == 0 else f"T{i + 1}")
        ws.write_string(r, 1, SURVEY_SPECIES[rnd.randrange(len(SURVEY_SPECIES))])
        if i % 41 == 0:
            ws.write_string(r, 2, f"{rnd.randint(4, 20)}, {rnd.randint(3, 12)}")
        else:
            ws.write_number(r, 2, round(rnd.uniform(2, 48), 1))
        ws.write_string(r, 3, rnd.choice(["Good", "Fair", "Poor"]))
        ws.write_string(r, 4, rnd.choice(actions))
        if i % 13 == 0:
            ws.write_string(r, 5, "X")
        if i % 211 == 0:
            ws.write_string(r, 6, "Y")
        if i % 29 == 0:
            ws.write_string(r, 7, "+call arborist" if i % 58 == 0 else "near drive")
    wb.close()


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """(path, assessment) of a generated 2,000-tree survey."""
    from treecalc.assessment import assess

    path = tmp_path_factory.mktemp("gen") / "survey_2000.xlsx"
    write_generated_survey(path)
    return path, assess(path)


def _cells(data: bytes) -> dict[str, Any]:
    """Everything a reader sees in a statement: per sheet the cells (value, number format, quote prefix,
    bold, fill), freeze panes, filter, column widths and chart count."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    out = {}
    for ws in wb.worksheets:
        cells = {}
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                if isinstance(v, str):
                    v = v.replace("_x000D_", "\r")  # XlsxWriter's escape of CR; Excel reads it as CR
                if v is None and not c.has_style:
                    continue
                cells[c.coordinate] = (
                    v,
                    c.number_format if v is not None else None,
                    bool(c.quotePrefix),
                    bool(c.font.b),
                    c.fill.fgColor.rgb if c.fill.fill_type else None,
                )
        out[ws.title] = {
            "cells": cells,
            "freeze": ws.freeze_panes,
            "filter": ws.auto_filter.ref,
            "widths": {k: d.width for k, d in ws.column_dimensions.items() if d.width},
            "charts": len(ws._charts),
        }
    return out


def _assert_same(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert list(got) == list(want) == list(SHEETS)
    for name in SHEETS:
        g, w = got[name], want[name]
        assert {k: g[k] for k in ("freeze", "filter", "widths", "charts")} == {
            k: w[k] for k in ("freeze", "filter", "widths", "charts")
        }, name
        assert g["cells"].keys() == w["cells"].keys(), name
        for coord, (gv, *gstyle) in g["cells"].items():
            wv, *wstyle = w["cells"][coord]
            assert gstyle == wstyle, (name, coord, gv)
            if isinstance(wv, (int, float)) and isinstance(gv, (int, float)):
                # the per-cell path writes 16 significant digits (XlsxWriter's "%.16G"), the streamed one repr
                assert gv == pytest.approx(wv, rel=1e-15, abs=0), (name, coord)
            else:
                assert gv == wv, (name, coord)


def _both(a: Any) -> tuple[bytes, bytes]:
    streamed, per_cell = io.BytesIO(), io.BytesIO()
    statement.build_workbook(a, streamed, stream_rows=True)
    statement.build_workbook(a, per_cell, stream_rows=False)
    return streamed.getvalue(), per_cell.getvalue()


def test_streamed_rows_equal_the_per_cell_writer_on_the_stand_in(monkeypatch):
    """The rows encoded a column at a time are the cells XlsxWriter's own write_* calls make: same values,
    number formats, quote prefixes, bold, fills, panes, filters, widths and chart. Chunks of 2 rows make
    every chunk boundary show."""
    monkeypatch.setattr(xlsx, "_CHUNK_ROWS", 2)
    a = stand_in(
        trees=stand_in().trees.assign(
            when=pd.to_datetime(["2024-05-01", None, "2024-05-03 10:30", "2024-05-04", "2024-05-05"], format="ISO8601"),
            stems=pd.array([1, None, 2, 1, 3], dtype="Int64"),
            ratio=[0.5, float("inf"), None, 1e-9, 12345678.123456789],
        )
    )
    streamed, per_cell = _both(a)
    _assert_same(_cells(streamed), _cells(per_cell))


def test_streamed_rows_equal_the_per_cell_writer_on_real_assessments(generated):
    from treecalc.assessment import assess

    for a in (generated[1], assess(SAMPLE)):
        streamed, per_cell = _both(a)
        _assert_same(_cells(streamed), _cells(per_cell))


def _trees_sheet(data: bytes) -> tuple[list[str], list[tuple]]:
    ws = openpyxl.load_workbook(io.BytesIO(data), read_only=True)["Trees"]
    rows = list(ws.iter_rows(values_only=True))
    return list(rows[1]), rows[2:]


def test_trees_sheet_holds_the_assessment_numbers_exactly(generated):
    """Every number of the assessment's trees frame is in the Trees sheet unchanged (floats written with
    repr: exact to the last bit; the benefit dollars as every output shows them), every flag as Yes/No, every
    missing value as an empty cell."""
    from treecalc.assessment import assess
    from treecalc.models.benefits import shown_dollars

    for a in (generated[1], assess(SAMPLE)):
        head, rows = _trees_sheet(statement_bytes(a))
        assert len(rows) == len(a.trees)
        col = {h: j for j, h in enumerate(head)}
        by_row = {r[col["Source row"]]: r for r in rows}
        checked = 0
        shown = shown_dollars(
            a.trees
        )  # benefit dollars as every output shows them (tests/models/test_benefit_cents.py)
        for key in a.trees.columns:
            label = cells.header(key) if key != "value_usd" else f"Value ($, {statement._value_basis(a)})"
            s = shown[key]
            if label not in col:
                continue
            for src, v in zip(a.trees["source_row"], s.tolist()):
                got = by_row[src][col[label]]
                if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
                    assert got is None, (key, src)
                elif isinstance(v, bool):
                    assert got == ("Yes" if v else "No"), (key, src)
                elif isinstance(v, (int, float)):
                    assert got == v and float(got).hex() == float(v).hex(), (key, src, got, v)
                    checked += 1
                elif isinstance(v, str):
                    assert got == (v or None), (key, src)
        assert checked >= 20 * len(a.trees)  # benefits, dollars, DBH, penalties: all compared


def test_summary_lines_equal_the_assessment_on_a_generated_survey(generated):
    _, a = generated
    ws = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))["Summary"]
    assert len(a.lines) > 5
    for i, line in enumerate(a.lines, start=3):
        v = line["value"]
        if isinstance(v, bool):
            assert ws.cell(i, 3).value == ("Yes" if v else "No")
        elif isinstance(v, (int, float)):
            assert ws.cell(i, 3).value == pytest.approx(v, rel=1e-15), line["item"]
        assert ws.cell(i, 2).value == line["item"]


def test_cli_json_is_the_library_json(generated, capsys):
    """``treecalc assess --json`` prints exactly ``Assessment.to_json()`` (the CLI's lazy imports change
    nothing): on the generated 2,000-tree survey and the sample."""
    import json

    from treecalc.assessment import assess
    from treecalc.cli import main
    from treecalc.cli.common import _json_default
    from treecalc.report.fingerprint import result_sha256

    for path, a in ((generated[0], generated[1]), (SAMPLE, assess(SAMPLE))):
        capsys.readouterr()
        assert main(["assess", str(path), "--json"]) == 0
        got = json.loads(capsys.readouterr().out)
        want = json.loads(json.dumps(assessment_json(a), default=_json_default))
        # the CLI adds what it derived the assessment from (the library was not given it): the rest is the same
        assert got.pop("fingerprint")["result_sha256"] == result_sha256(a)
        assert got == want


def test_empty_text_stays_empty_and_gets_no_apostrophe():
    """An empty string is no formula: its cell is empty, with no quote prefix and no visible apostrophe."""
    trees = pd.DataFrame({"tag": ["", "T2", "=1"], "notes": ["", None, " "], "dbh_in": [4.0, 5.0, 6.0]})
    ws = openpyxl.load_workbook(io.BytesIO(statement_bytes(stand_in(trees=trees))))["Trees"]
    assert [ws.cell(r, 1).value for r in (3, 4, 5)] == [None, "T2", "=1"]
    assert not ws.cell(3, 1).quotePrefix and ws.cell(5, 1).quotePrefix
    assert ws.cell(3, 3).value is None and ws.cell(5, 3).value == " "
    assert not statement.needs_quote_prefix("")
    for row in ws.iter_rows():
        assert all(c.value != "'" for c in row)


def test_the_statement_is_streamed_in_constant_memory(generated):
    """XlsxWriter's constant_memory mode: rows reach the file in order, and the shared-string table holds only
    text that repeats (species, Yes/No, disclosures), not every tree's tag; its count is of the cells that refer
    to it."""
    import re
    import zipfile

    with zipfile.ZipFile(io.BytesIO(statement_bytes(generated[1]))) as z:
        sst = z.read("xl/sharedStrings.xml").decode()
        sheets = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/sheet")]
        xml = z.read("xl/worksheets/sheet2.xml").decode()
    refs = sum(x.count(' t="s"><v>') for x in sheets)
    assert int(re.search(r' count="(\d+)"', sst)[1]) == refs > len(generated[1].trees)
    shared = set(re.findall(r"<t(?: [^>]*)?>([^<]*)</t>", sst))
    assert "Yes" in shared and len(shared) < len(generated[1].trees)
    # the Trees sheet's tags, each met once, stay inline strings: the table would only add a lookup
    assert xml.count(' t="inlineStr"') >= len(generated[1].trees)
    assert 't="inlineStr"' in xml

    rows = [int(r) for r in re.findall(r'<row r="(\d+)"', xml)]
    assert rows == sorted(rows) and len(rows) == len(set(rows)) == len(generated[1].trees) + 2


# ---------------------------------------------------------------------------
# review of issue 12: text XML cannot hold, OOXML escapes, Excel's limits (both writer paths)


def _ooxml_unescape(s: str) -> str:
    """What Excel shows for cell text (ECMA-376 ST_Xstring: ``_xHHHH_`` is the character HHHH)."""
    import re

    return re.sub(r"_x([0-9a-fA-F]{4})_", lambda m: chr(int(m.group(1), 16)), s)


@pytest.mark.parametrize("stream", [True, False])
def test_text_xml_cannot_hold_never_breaks_the_file(stream):
    """U+FFFE / U+FFFF are not XML characters: written as they were, the Trees sheet was not well-formed and
    neither openpyxl nor Excel could open the statement (the CLI still said "statement written"). A lone
    surrogate (from JSON or surrogate-escaped text) raised UnicodeEncodeError. "<r>...</r>" text went through
    XlsxWriter's per-cell path as raw rich-text XML ("<r>&</r>": not well-formed). Each is now replaced by
    U+FFFD (the first three) or written escaped, on both paths; a literal "_x0041_" is escaped as
    "_x005F_x0041_" so Excel shows "_x0041_", not "A"."""
    tags = ["a\ufffeb", "x\uffff", "a\ud800b", "<r>&</r>", "_x0041_", "T6"]
    want = ["a\ufffdb", "x\ufffd", "a\ufffdb", "<r>&</r>", "_x0041_", "T6"]
    trees = pd.DataFrame({"tag": pd.Series(tags, dtype=object), "<r>&</r>": ["v"] * 6, "dbh_in": [4.0] * 6})
    buf = io.BytesIO()
    statement.build_workbook(stand_in(trees=trees), buf, stream_rows=stream)
    ws = openpyxl.load_workbook(io.BytesIO(buf.getvalue()))["Trees"]  # raised "not well-formed" before
    assert [_ooxml_unescape(ws.cell(r, 1).value) for r in range(3, 9)] == want
    assert ws.cell(2, 3).value == "<r>&</r>"  # a header written by XlsxWriter's own call, not raw XML


@pytest.mark.parametrize("stream", [True, False])
def test_text_over_excels_limit_is_cut_in_utf16_units_and_says_so(stream):
    """Excel's 32,767-character limit counts UTF-16 units: 20,000 emoji are 40,000 units. The streamed path
    cut at 32,767 code points (kept all 40,000 units, over the limit); the per-cell path cut silently.
    Now both keep 32,767 units at most, end with a note that the text was cut, and agree."""
    text = "🌳" * 20000
    trees = pd.DataFrame({"tag": ["T1"], "notes": [text], "dbh_in": [4.0]})
    buf = io.BytesIO()
    statement.build_workbook(stand_in(trees=trees), buf, stream_rows=stream)
    got = openpyxl.load_workbook(io.BytesIO(buf.getvalue()))["Trees"].cell(3, 3).value  # Tag, DBH, Notes
    assert len(got.encode("utf-16-le")) // 2 <= 32767
    assert got.endswith(xlsx.CUT_MARK)
    # (32,767 - len(mark)) units of 2 each: the whole emoji that fit, none split
    room = 32767 - len(xlsx.CUT_MARK)
    assert got == "🌳" * (room // 2) + xlsx.CUT_MARK
    assert statement.safe_text("x" * 32767) == "x" * 32767  # exactly at the limit: unchanged


def test_a_sheet_over_excels_size_is_a_clear_error(monkeypatch, tmp_path):
    """XlsxWriter drops cells past row 1,048,576 / column 16,384 silently (write_* returns -1), and the
    streamed rows were appended past the limit regardless (a file Excel refuses). With the limits lowered
    (60 trees + title + header = 62 rows > 61), writing raises a ValueError naming the sheet, and the CLI
    reports it as an error (exit 2), writing no file."""
    many = stand_in(trees=pd.DataFrame({"tag": [f"T{i}" for i in range(60)], "dbh_in": [4.0] * 60}))
    monkeypatch.setattr(xlsx, "_MAX_ROWS", 61)
    with pytest.raises(ValueError, match="'Trees' sheet would need 62 rows"):  # 60 trees + title + header
        statement_bytes(many)
    monkeypatch.setattr(xlsx, "_MAX_ROWS", 1_048_576)
    monkeypatch.setattr(xlsx, "_MAX_COLS", 3)
    with pytest.raises(ValueError, match="16,384|3 columns"):
        statement_bytes(stand_in())
    monkeypatch.setattr(xlsx, "_MAX_COLS", 16_384)
    statement_bytes(stand_in())  # at Excel's real limits the stand-in fits

    from treecalc.cli import main

    survey = tmp_path / "survey.xlsx"
    write_generated_survey(survey, n=30)
    monkeypatch.setattr(xlsx, "_MAX_ROWS", 20)
    out = tmp_path / "statement.xlsx"
    assert main(["assess", str(survey), "--out", str(out)]) == 2
    assert not out.exists()


def write_adversarial_survey(path: Path) -> list[list[Any]]:
    """A survey whose text a spreadsheet or XML would misread; returns its rows (header first)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Trees"
    rows = [
        ["Tag", "Species", "DBH (in)", "Condition", "Action", "Notes"],
        ['=HYPERLINK("http://x")', "Red mapel", 12, "Good", "Remove", 'note & <b> "q"'],
        ["_x005F_x0041_", "Acer rubrum", 40, "Good", "Remove", "bell_x0007_ and tab\tinside"],
        ["+1+1", "Sugar maple", 8, "Good", "Retain", "<r>&</r>"],
        ["@SUM(A1)", "Norway maple", 20, "Poor", "Remove", "🌳 emoji"],
        ["-5", "Quercus rubra", 110, "Good", "Remove", "x\ufffey"],
        ["T7", "White oak", 50, "Fair", "Removed", "=1+1"],
    ]
    for r in rows:
        ws.append(r)
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, str) and c.value.startswith("="):
                c.data_type = "s"  # the survey holds these as text, as a user's would
    wb.save(path)
    return rows


@pytest.mark.slow
def test_adversarial_survey_through_the_cli_renders_literally_in_libreoffice(tmp_path):
    """``treecalc assess FILE --out x.xlsx`` on a survey with formula-like tags, XML specials, a BEL, an
    emoji and U+FFFE: the statement opens in openpyxl and LibreOffice, and LibreOffice's own CSV of the
    Trees sheet shows every tag and note literally (no formula evaluated, "_x0041_" not read as "A")."""
    import csv
    import os

    from treecalc.cli import main

    survey = tmp_path / "adversarial.xlsx"
    write_adversarial_survey(survey)
    out = tmp_path / "st.xlsx"
    assert main(["assess", str(survey), "--out", str(out)]) == 0
    openpyxl.load_workbook(out)  # well-formed (U+FFFE made it unreadable before)
    exe = shutil.which("libreoffice") or shutil.which("soffice")
    if not exe:
        pytest.skip("LibreOffice is not installed")
    filt = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,2"  # sheet 2 = Trees
    subprocess.run(
        [
            exe,
            "--headless",
            f"-env:UserInstallation=file://{tmp_path}/lo-profile",
            "--convert-to",
            filt,
            "--outdir",
            str(tmp_path / "csv"),
            str(out),
        ],
        check=True,
        timeout=55,
        capture_output=True,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    rows = list(csv.reader((tmp_path / "csv" / "st-Trees.csv").open(encoding="utf-8")))
    head = rows[1]
    tag, notes = head.index("Tag"), head.index("Notes")
    got = {r[tag]: r[notes] for r in rows[2:]}
    # calamine reads the survey's "_x005F_x0041_" as the text "_x0041_"; BEL becomes U+FFFD
    assert got == {
        '=HYPERLINK("http://x")': 'note & <b> "q"',
        "_x0041_": "bell\ufffd and tab\tinside",
        "+1+1": "<r>&</r>",
        "@SUM(A1)": "🌳 emoji",
        "-5": "x\ufffdy",
        "T7": "=1+1",
    }


def test_every_column_type_streams_as_the_per_cell_writer_does(monkeypatch):
    """Arrow-backed strings/ints/bools, nullable booleans, categoricals (text and numbers), -0.0, 1e308,
    5e-324, inf, mixed object columns (int, text, float, bool, None, Decimal, date, list), naive and
    tz-aware timestamps, timedeltas and a Python int past 2**64: both writer paths give the same cells.
    Dates before 1900-03-01 were a day late on the streamed path: Excel's 1900 system counts a
    29 February 1900 that never was, so 1900-01-15 is serial 15 (days since 1899-12-31), not 16."""
    import datetime as dt
    import decimal

    import pyarrow as pa

    monkeypatch.setattr(xlsx, "_CHUNK_ROWS", 3)
    n = 8
    trees = pd.DataFrame(
        {
            "tag": pd.Series(["a", None, "c", "=x", " sp ", "d", "e", "f"], dtype="string[pyarrow]"),
            "cat": pd.Categorical(["x", "y", None, "x", "=y", "x", "y", "x"]),
            "catnum": pd.Categorical([1.5, 2.0, None, 1.5, 2.0, 1.5, 1.5, 2.0]),
            "ai": pd.Series([1, None, 3, 4, 5, 6, 7, 2**60], dtype="int64[pyarrow]"),
            "ab": pd.Series([True, None, False, True, True, False, True, False], dtype="bool[pyarrow]"),
            "nb": pd.Series([True, None, False, True, True, False, True, False], dtype="boolean"),
            "fl": [-0.0, 1e308, 5e-324, float("nan"), float("inf"), -1.5, 0.1, 1 / 3],
            "mixed": pd.Series(
                [1, "two", 3.5, True, None, decimal.Decimal("1.10"), dt.date(2024, 1, 2), ["a", "b"]], dtype=object
            ),
            "when": pd.to_datetime(
                [
                    "1900-01-15",
                    "1900-02-28",
                    None,
                    "1900-03-01",
                    "2024-05-05 10:30",
                    "1950-01-01",
                    "2000-02-29",
                    "2024-01-01",
                ],
                format="ISO8601",
            ),
            "tz": pd.to_datetime(["2024-05-01 12:00"] * n).tz_localize("America/New_York"),
            "td": pd.to_timedelta([1, 2, None, 4, 5, 6, 7, 8], unit="h"),
            "pint": pd.Series([10**20, -5, 0, 7, 8, 9, 1, 2], dtype=object),
            # exact cents as an Arrow decimal column: numeric, but its values are Decimal objects (the streamed
            # path wrote <v>Decimal('1000.10')</v>: a sheet no reader could open)
            "penalty_max_usd": pd.array(
                [decimal.Decimal("1000.10"), None] + [decimal.Decimal("0.01")] * 6,
                dtype=pd.ArrowDtype(pa.decimal128(10, 2)),
            ),
            "dbh_in": [4.0] * n,
        }
    )
    streamed, per_cell = _both(stand_in(trees=trees))
    _assert_same(_cells(streamed), _cells(per_cell))
    ws = openpyxl.load_workbook(io.BytesIO(streamed))["Trees"]
    col = [c.value for c in ws[2]].index("When") + 1
    assert [ws.cell(r, col).value for r in (3, 4, 6)] == [
        dt.datetime(1900, 1, 15),
        dt.datetime(1900, 2, 28),
        dt.datetime(1900, 3, 1),
    ]
    assert xlsx.excel_serial(dt.date(1900, 1, 1)) == 1 and xlsx.excel_serial(dt.date(1900, 3, 1)) == 61
    col = [c.value for c in ws[2]].index("Civil penalty maximum ($)") + 1
    assert [ws.cell(r, col).value for r in (3, 4, 5)] == [1000.10, None, 0.01]
    assert ws.cell(3, col).number_format == "$#,##0.00"


@pytest.mark.parametrize(
    "options",
    [
        {
            "value_basis": "cumulative:10",
            "replacement_percent": 150,
            "plantable": 3,
            "land_use": "small_commercial",
            "prices": {"electricity": 0.25},
            "home_price_usd": 700000.0,
            "fee_per_tree_usd": 600,
        },
        {"jurisdiction": "wesley_hills", "value_basis": "appraised", "land_use": "institutional"},
    ],
)
def test_a_generated_survey_with_options_changed_is_written_as_assessed(tmp_path, options):
    """Not the sample and not the defaults: the Trees sheet holds every number, flag and text of the
    assessment's trees (value column on the chosen basis, the disclosures of the chosen land use), and
    both writer paths agree."""
    from treecalc.assessment import assess

    path = tmp_path / "survey.xlsx"
    write_generated_survey(path, n=300)
    a = assess(path, **options)
    streamed, per_cell = _both(a)
    _assert_same(_cells(streamed), _cells(per_cell))
    head, rows = _trees_sheet(streamed)
    col = {h: j for j, h in enumerate(head)}
    basis = statement._value_basis(a)
    assert f"Value ($, {basis})" in col and basis == options["value_basis"]
    by_row = {r[col["Source row"]]: r for r in rows}
    assert len(by_row) == len(a.trees) == len(rows)
    checked = 0
    from treecalc.models.benefits import shown_dollars
    from treecalc.report.field_words import quoting, said
    from treecalc.report.statement import quoted_labels

    def in_words(s: str) -> str:
        with quoting(quoted_labels(a)):
            return said(s)

    shown = shown_dollars(a.trees)  # benefit dollars as every output shows them (tests/models/test_benefit_cents.py)
    for key in a.trees.columns:
        label = cells.header(key) if key != "value_usd" else f"Value ($, {basis})"
        if label not in col:
            continue
        for src, v in zip(a.trees["source_row"], shown[key].tolist()):
            got = by_row[src][col[label]]
            if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
                assert got is None, (key, src)
            elif isinstance(v, bool):
                assert got == ("Yes" if v else "No"), (key, src)
            elif isinstance(v, (int, float)):
                assert got == v, (key, src, got, v)
                checked += 1
            elif isinstance(v, str):  # text said for a person: a field named in it by its label
                assert got == (in_words(v) or None), (key, src)
                checked += key == "disclosures"
    assert checked >= 20 * len(a.trees)
    lu = in_words(f"for {options['land_use']}")  # 'for “multi family”'
    assert all(lu in (r[col["Disclosures"]] or "") for r in rows)  # every tree's C is unverified


def test_findings_rows_follow_the_reckoning_whatever_the_order_of_their_keys():
    # one order serves both sheets (statement._FINDING_ORDER): given findings whose fields are declared
    # backwards, the Replacement plan and Fund sheets still list them requirement first, payment last
    import dataclasses

    def backwards(finding):
        names = [f.name for f in reversed(dataclasses.fields(finding))]
        cls = dataclasses.make_dataclass(f"Backwards{type(finding).__name__}", [(n, Any) for n in names])
        return cls(**{n: getattr(finding, n) for n in names})

    base = stand_in()
    # (no plan: the projection reads the real Replacement; the order of the rows is what is looked at)
    flip = stand_in(replacement=backwards(dataclasses.replace(base.replacement, plan=[])), fund=backwards(base.fund))
    assert [f.name for f in dataclasses.fields(flip.fund)][-1] == "basis"  # the payment's basis declared last
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(flip)))

    def items(name, first, last):
        col = [r[0].value for r in wb[name].iter_rows(min_row=3)]
        return col[col.index(first) : col.index(last) + 1]

    rep = items("Replacement plan", "Required", "Planting cost")
    assert rep[:7] == [
        *("Required", "Percentage of removed value", "Value basis", "Value of trees removed (counted)"),
        *("Value the replacements must carry", "Replacement trees needed", "Trees planted"),
    ]
    assert rep[7:] == ["Trees paid for in lieu", "Value planted", "Value not met by planting", "Planting cost"]
    assert items("Fund", "Basis of payment", "Payment in lieu to the Fund") == [
        *("Basis of payment", "Fee per tree not planted", "Fee is a placeholder", "Trees paid for in lieu"),
        *("Value not met by planting", "Payment in lieu to the Fund"),
    ]  # the multiplier is None here: no row


def test_gallons_whole_and_areas_to_the_hundredth_of_a_square_foot():
    """The statement's number formats: a tree's stormwater is read to the gallon (i-Tree Streets gives it as
    m³ x 264.172, so its tenths are no measurement), an area to 0.01 sq ft (a planting space of 15 ft x 15 ft
    is 225.00 sq ft; a measured plot of 1,234.567 sq ft shows 1,234.57)."""
    from treecalc import schema

    whole, cents = "#,##0", "#,##0.00"
    assert cells.key_info("stormwater_gal")[2] == whole  # the Trees sheet's column
    assert cells.key_info("runoff_avoided_gal")[2] == whole  # any other key in gallons
    assert cells.key_info("area_sqft_per_tree")[2] == cents  # the planting plan's §208-6A spacing²
    assert cells.key_info("plantable_area_sqft")[2] == cents  # a given area
    assert cells.fmt_for_unit("sq ft", 1234.567) == cents
    assert cells.fmt_for_unit("ft²", 225) == cents
    assert cells.fmt_for_unit("gal/yr", 1234.5) == whole
    assert schema.COLUMNS["stormwater_gal"].fmt == whole and schema.COLUMNS["area_sqft_per_tree"].fmt == cents


def test_the_sheets_read_the_findings_by_attribute_never_as_mappings(monkeypatch, tmp_path):
    """The findings are plain dataclasses, no Mapping: a read of one as a mapping (``f["key"]``, ``f.get``)
    raises, so a statement written for both laws reads every field by name (typed)."""
    from collections.abc import Mapping

    from treecalc import results
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey

    # two trees removed (12 and 20 in) and one retained: a permit, a replacement with its plan, a fund, penalties
    survey = tmp_path / "lot.csv"
    survey.write_text(
        "Tag,Species,DBH (in),Action\n1,Acer rubrum,12,removed\n2,Quercus rubra,20,remove\n3,Acer rubrum,8,retain\n"
    )
    for law in ("croton_on_hudson", "wesley_hills"):
        a = assess(read_survey(survey), jurisdiction=law)
        assert isinstance(a.replacement, results.Replacement) and isinstance(a.penalties, results.Penalties)
        assert not any(isinstance(f, Mapping) for f in (a.permit, a.replacement, a.fund, a.penalties))
        wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))
        assert wb.sheetnames[: len(SHEETS)] == list(SHEETS)


def test_a_wesley_hills_statement_heads_its_fine_columns_in_chapter_95s_words(tmp_path):
    """Chapter 95 fines a tree removed without a clearing permit under one paragraph, "a fine of not more than
    $5,000" set by a court (penalties A): the Trees sheet calls it a fine and leaves out Chapter 208's criminal-fine
    and replacement columns (their 0 and "no" meant nothing there); a Croton statement keeps its own."""
    import openpyxl

    from treecalc import assess
    from treecalc.ingest import read_survey
    from treecalc.report.statement import write_statement

    # tree 1: 12 in, within 20 ft of a lot line, removed, no one-family certificate of occupancy: up to $5,000
    text = "Tag,Species,DBH (in),Action,Within 20 ft of lot line\n1,Acer rubrum,12,Removed,yes\n"
    sv = read_survey(text.encode("utf-8"), filename="lot.csv")
    site = {"has_residence": True, "lot_area_acres": 0.5, "one_family_co_issued": False}
    heads = {}
    for law, kw in (("wesley_hills", {"site": site}), ("croton_on_hudson", {})):
        out = tmp_path / f"{law}.xlsx"
        write_statement(assess(sv, jurisdiction=law, **kw), out)
        rows = list(openpyxl.load_workbook(out, read_only=True)["Trees"].iter_rows(values_only=True))
        heads[law] = (rows[0][0], dict(zip(rows[1], rows[2], strict=False)))
    title, wh = heads["wesley_hills"]
    assert wh["Fine under (section)"] == "Ch. 95 penalties A" and wh["Fine maximum ($)"] == 5000
    assert not [h for h in wh if h and ("Civil penalty" in h or "Criminal" in h or "ounted" in h)]
    assert 'fines are maxima ("not more than")' in title
    _, croton = heads["croton_on_hudson"]
    assert {"Civil penalty tier", "Criminal fine maximum ($)", "Counted for replacement"} <= set(croton)
