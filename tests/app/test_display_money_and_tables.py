"""What the pages display: dollar signs, a number not set, fund.csv labels, the in-lieu note,
and the rejected-rows table's Arrow conversion."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest


@pytest.mark.parametrize(
    "x,cents,want",
    [
        (-999_950, False, "-$999,950"),  # was "$-999,950": the sign before the dollar sign, as compact_usd writes it
        (-12.5, True, "-$12.50"),
        (-0.4, False, "$0"),  # rounds to nothing: no "-$0"
        (math.nan, False, "—"),  # was "$nan": a number not set
        (math.nan, True, "—"),
        (math.inf, True, "—"),
        (None, True, "—"),
        (1_234.5, True, "$1,234.50"),
        (1_234.5, False, "$1,234"),  # 1,234.5 -> $1,234 (round half to even)
        (Decimal("2572500.00"), True, "$2,572,500.00"),
    ],
)
def test_usd_sign_and_not_set(x, cents, want):
    from treecalc.app.ui import usd

    assert usd(x, cents=cents) == want


def test_compact_and_num_of_a_number_not_set():
    from treecalc.app.ui import compact_usd, num

    assert compact_usd(math.nan) == "—" and num(math.nan) == "—"  # were "$nan" and "nan"
    assert compact_usd(-0.4) == "$0" and compact_usd(-999_950) == "-$1M"


def test_water_page_shows_cents_in_full_below_a_million_and_compact_above():
    # The water page's own compact_usd/money_metric gave way to the ui ones: what it shows stays the same.
    # A $950,000.00 bill 5 days late carries the 5% penalty (§223-12F): 950,000.00 x 1.05 = 997,500.00, shown
    # in full to the cent ("$997,500.00", 11 characters; the ui default of 10 would show "$998K"); 2,450,000.00
    # x 1.05 = 2,572,500.00 is shown "$2.57M" with "Exactly $2,572,500.00." first in the help text.
    import datetime as dt

    from tests.app.test_companion_pages import _helps, _metrics, _page

    at = _page("treecalc/app/pages/water.py")
    at.number_input(key="w_water_amount").set_value(950_000.0)
    at.date_input(key="w_water_due").set_value(dt.date(2026, 1, 15))
    at.date_input(key="w_water_asof").set_value(dt.date(2026, 1, 20)).run()
    assert _metrics(at)["Total due"] == "$997,500.00"
    at.number_input(key="w_water_amount").set_value(2_450_000.0).run()
    m, h = _metrics(at), _helps(at)
    assert m["Total due"] == "$2.57M" and h["Total due"].startswith("Exactly $2,572,500.00. What the water account")


#: A survey of my own: 2 trees topped without a permit (§208-18D, definite offences: the §208-22F part, so the
#: fund has its "payment in place of the §208-22F replacement"; removed with no parcel facts they would be
#: conditional offences only, replaced by nothing), 1 proposed removal, 1 kept. The same trees, the same values.
SURVEY = b"Tag,Species,DBH (in),Action\n1,Bur oak,20,topped\n2,Red maple,16,topped\n3,Red maple,10,remove\n4,Bur oak,12,retain\n"


@pytest.fixture
def board_fee(tmp_path, monkeypatch):
    """The register's schedule: the Board's resolution 2026-12 of 2026-03-02 set the fee at $450.00 a tree."""
    from treecalc.register import Register, fees

    url = f"sqlite:///{tmp_path / 'register.db'}"
    monkeypatch.setenv("TREECALC_DB", url)
    reg = Register(url)
    reg.add_user("eng", "engineer", "correct horse battery", by="setup")
    fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="450", resolution="2026-12")


def _fund_and_permit_pages():
    from streamlit.testing.v1 import AppTest

    from tests.helpers.headless import ROOT, TIMEOUT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.file_uploader(key="w_upload").set_value(("Elm Ct lot 4.csv", SURVEY, "text/csv")).run()
    at.switch_page("treecalc/app/pages/fund.py").run()
    at.radio(key="w_plantable_kind").set_value("A number of trees").run()
    at.number_input(key="w_plantable").set_value(1).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_fund_csv_labels_are_the_statements_with_per_year_values(board_fee):
    at = _fund_and_permit_pages()
    table = at.dataframe[-1].value  # "All fund figures": the table fund.csv is written from
    items = dict(zip(table["Item"], table["Value"]))
    # columns.csv label + unit ("$" written USD), the unmet value per year on the annual basis (the default)
    assert "Payment in lieu to the Fund (USD)" in items
    assert "Fee per tree not planted (USD)" in items
    assert "Value not met by planting (USD/yr)" in items  # was "Unmet value (USD)"
    assert "Or: payment in place of the §208-22F replacement (USD)" in items  # was "Alternative 22f (USD)"
    assert items["Basis of payment"] == "a fee per tree not planted"  # was "per_tree"
    assert (
        items["Fee schedule from"] == "Board resolution 2026-12 of 2026-03-02 (§208-24C)"
    )  # the words on the page, as the statement and the PDF say it
    assert items["Fee is a placeholder"] == "no"
    # the site takes 1 tree; 6 are paid in lieu at the fee on the page (the Board's $450.00, recorded in
    # the register): 6 x $450.00 = $2,700.00
    assert items["Trees paid for in lieu"] == "6"  # a count the label names: no "(trees)" after it
    assert items["Payment in lieu to the Fund (USD)"] == "$2,700.00"  # written by its schema: separator, cents
    text = "\n".join(map(str, table["Item"]))
    assert "given as a dict" not in " ".join(map(str, table["Value"])) and "Alternative 22f" not in text
    assert "Unmet value" not in text


def test_permit_note_names_the_in_lieu_tree_and_its_value_in_dollars_per_year():
    at = _fund_and_permit_pages()
    at.switch_page("treecalc/app/pages/permit.py").run()
    notes = " ".join(c.value for c in at.caption)
    # the default stock is a 2 in red maple, $64.68/yr on the annual basis (by hand in tests/test_assessment.py;
    # $64.04 at the old $0.0008/gal stormwater); the note said "one ACRU (64.04 on this basis)"
    assert "stands for the value of one Red maple (ACRU), $64.68/yr on this basis" in notes
    assert "(64.04 on this basis)" not in notes


def test_rejected_rows_shown_convert_to_arrow_without_a_fix(tmp_path):
    # An xlsx survey of my own: its cells are numbers (Tag 103 read as 103.0, DBH -4) in some rows and text
    # ("eighteen", "T-8") in others, so the raw rows (dicts) held a number in one row and text in the next under
    # one key: pyarrow refused the "Raw" column and Streamlit logged it and fixed the column on every redraw.
    import warnings

    import openpyxl
    import pyarrow as pa

    from treecalc.app import views
    from treecalc.ingest import read_survey

    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (
        ("Tag", "Species", "DBH (in)", "Action"),
        (101, "Red maple", 22, "Remove"),
        (103, "White pine", "eighteen", "Remove"),
        (105, "Pin oak", -4, "Remove"),
        ("T-8", "Red oak", None, "Remove"),
    ):
        ws.append(list(row))
    path = tmp_path / "Oak Hill survey.xlsx"
    wb.save(path)
    rejected = read_survey(path).rejected
    assert len(rejected) == 3  # 'eighteen' not a number, -4 not positive, no DBH
    with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError)):
        pa.Table.from_pandas(views.labelled(rejected))  # the frame the page showed
    shown = views.rejected_table(rejected)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = pa.Table.from_pandas(shown)
    assert pa.types.is_string(table.schema.field("Raw row (as written)").type) or pa.types.is_large_string(
        table.schema.field("Raw row (as written)").type
    )
    # the raw row as text, a whole number read as 103.0 written 103, the empty DBH cell left out
    assert list(shown["Raw row (as written)"]) == [
        "Tag: 103; Species: White pine; DBH (in): eighteen; Action: Remove",
        "Tag: 105; Species: Pin oak; DBH (in): -4; Action: Remove",
        "Tag: T-8; Species: Red oak; Action: Remove",
    ]


def test_app_imported_as_a_reader_childs_main_draws_nothing():
    # The survey reader runs in a child process (treecalc.ingest.limits: forkserver or spawn), which imports
    # the parent's main script again as "__mp_main__" (multiprocessing.spawn._fixup_main_from_path does
    # runpy.run_path(main_path, run_name="__mp_main__")); under `streamlit run` that is app.py. It ran the
    # whole app outside any session: the server log filled with "missing ScriptRunContext" warnings.
    import subprocess
    import sys

    from tests.helpers.headless import ROOT

    code = (
        "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__mp_main__'); "
        "print('streamlit' in sys.modules, 'treecalc.app.state' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "app.py")], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]  # nothing of the app was imported or drawn
    assert "ScriptRunContext" not in done.stderr and "streamlit run" not in done.stderr


@pytest.mark.parametrize(
    "code,name",
    [
        ("BDL OTHER", "Other broadleaf deciduous tree (large)"),  # i-Tree's generic rows: a code with a space
        ("GIBI(F)", None),  # a code with parentheses (the catalogue's ginkgo, female)
    ],
)
def test_in_lieu_note_of_a_stock_whose_code_has_a_space_or_parentheses_is_in_dollars(tmp_path, code, name):
    # The permit page's stock picker offers every catalogue species, "BDL OTHER" and "GIBI(F)" among them; the
    # note read "one BDL OTHER (77.12 on this basis)": a bare number, without "$" or "/yr". The law engine now
    # writes the tree's name and its value in dollars itself (the page shows its note as it is).
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey
    from treecalc.reference.data import reader_names

    p = tmp_path / "s.csv"
    # topped without a permit (§208-18D): definite offences, replaced (removed with no parcel facts: conditional)
    p.write_text("Tag,Species,DBH (in),Action\n1,Red maple,16,topped\n2,Bur oak,22,topped\n")
    a = assess(read_survey(p), replacement_species=code)
    notes = [n for n in a.replacement.notes if "on this basis" in n]
    value = a.replacement.stock[0]["value_per_tree_usd"]
    want = f"{name or reader_names()[code]} ({code}), ${value:,.2f}/yr on this basis"  # annual: per year
    assert len(notes) == 1 and f"one {want}" in notes[0], notes


def test_a_count_the_label_names_is_not_repeated_as_its_unit():
    from treecalc.app import views

    # columns.csv: trees_planted "Trees planted" in trees, continuing_days "Days of continuing violation" in
    # days: read "Trees planted (trees)" and "Days of continuing violation (days)"; a measurement keeps its unit
    assert views.label("trees_planted") == "Trees planted"
    assert views.label("continuing_days") == "Days of continuing violation"
    assert views.label("fund_in_lieu_usd") == "Payment in lieu to the Fund (USD)"
    assert views.label("trees_in_lieu") == "Trees paid for in lieu"  # "in" here is a word, not inches


def test_every_survey_field_of_the_column_map_reads_as_words():
    # the Survey page's "Read as" list shows every field of treecalc.ingest.FIELDS by views.label: the DBH
    # fields read "Dbh cm", "Dbh mm", "Dbh stem" (the words of the name); DBH is an abbreviation, and a unit
    # is written as one: "DBH (cm)"
    from treecalc.app import views
    from treecalc.ingest import FIELDS

    labels = {f: views.label(f) for f in FIELDS}
    assert labels["dbh_cm"] == "DBH (cm)" and labels["dbh_mm"] == "DBH (mm)" and labels["dbh_m"] == "DBH (m)"
    assert not [f for f, t in labels.items() if t.startswith("Dbh")]
    assert len(set(labels.values())) == len(labels)  # one label, one field: the list never offers two alike
