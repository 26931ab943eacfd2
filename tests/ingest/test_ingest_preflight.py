"""The fast pre-flight reading of an xlsx sheet against its declared dimension (issue 12).

A sheet the fast reading vouches for skips the cell-by-cell measure, so the reading must never vouch
for a sheet with a cell outside its declared rectangle: every form of reference it does not read
(no ``r``, ``$``, single quotes, lower case, leading zeros, a namespace prefix) sends the sheet to the
exact reading, which refuses it with the same message as before.
"""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import hostile as hb
from treecalc.ingest import SurveyError, read_survey, sources
from treecalc.ingest.columns import column_letters
from treecalc.ingest.limits import Limits

HEAD = hb._cells(hb.SURVEY)  # rows 1-3, columns A-C: the declared A1:C3 is true for these
LIMITS = Limits(rows=1_000, columns=3)


@pytest.mark.parametrize(
    ("far", "says"),
    [
        (b'<row r="5000"><c r="A5000"><v>1</v></c></row>', "5,000 rows"),
        (b'<row r="4"><c r="A5000"><v>1</v></c></row>', "5,000 rows"),  # the cell, not its row, says where
        (b'<row r="5000"><c><v>1</v></c></row>', "5,000 rows"),  # placed by its order in row 5000
        (b'<row r="5000"/>', "5,000 rows"),  # an empty row far below counts (as it always did)
        (b'<row r="4"><c r="$A$5000"><v>1</v></c></row>', "5,000 rows"),
        (b"<row r='4'><c r='A5000'><v>1</v></c></row>", "5,000 rows"),
        (b'<row r="4"><c r="a5000"><v>1</v></c></row>', "5,000 rows"),
        (b'<row r="4"><c r="A05000"><v>1</v></c></row>', "5,000 rows"),
        (b'<row r="4"><c  r="A5000"><v>1</v></c></row>', "5,000 rows"),
        (b'<row r="4"><c t="n" r="A5000"><v>1</v></c></row>', "5,000 rows"),
        (b'<row r="4"><x:c xmlns:x="urn:x" r="A5000"><x:v>1</x:v></x:c></row>', "5,000 rows"),
        (b'<row r="4"><c r="D4"><v>1</v></c></row>', "4 columns"),
        (b'<row r="4"><c r="AA4"><v>1</v></c></row>', "27 columns"),
        (b'<row r="4"><c r="A4"><v>1</v></c><c><v>2</v></c><c><v>3</v></c><c><v>4</v></c></row>', "4 columns"),
    ],
)
def test_a_cell_outside_the_declared_dimension_is_refused_in_every_form(tmp_path, far, says):
    p = hb.xlsx(tmp_path / "lie.xlsx", HEAD + far, dimension=b"A1:C3")
    with pytest.raises(SurveyError, match="lie.xlsx refused") as e:
        read_survey(p, limits=LIMITS)
    assert says in str(e.value) and "sheet 'Trees' has a cell at" in str(e.value)


def test_a_true_dimension_is_read_fast_and_the_survey_whole(tmp_path):
    p = hb.plain_xlsx(tmp_path / "ok.xlsx")
    zf = zipfile.ZipFile(p)
    assert sources.within_rectangle(zf, "xl/worksheets/sheet1.xml", "ok.xlsx", 2, 2) == (True, False)
    # the declared A1:C2 is one row short: not vouched for, and the exact reading measures row 3
    assert sources.within_rectangle(zf, "xl/worksheets/sheet1.xml", "ok.xlsx", 1, 2)[0] is False
    assert list(read_survey(p, limits=LIMITS).trees["species_code"]) == ["ACRU", "QUAL"]


def test_the_rectangle_tried_is_within_the_limits():
    big = hb.xlsx(io.BytesIO(), HEAD, dimension=b"A1:C3")
    zf = zipfile.ZipFile(big)
    part = "xl/worksheets/sheet1.xml"
    # the declared columns (A-C), and the rows the limits then allow: min(1,048,576, 20,000,000 // 3)
    # = 1,048,576, rounded down to a first digit and nines: 999,999 rows (last row 999,998, 0-based)
    assert sources.vouching_rectangle(zf, part, "g", Limits(), (2, 2)) == (999_998, 2)
    # 30 columns: 20,000,000 // 30 = 666,666 rows, rounded down to 599,999
    assert sources.vouching_rectangle(zf, part, "g", Limits(), (5, 29)) == (599_998, 29)
    # ... unless the sheet declares more rows than that: then all 666,666
    assert sources.vouching_rectangle(zf, part, "g", Limits(), (650_000, 29)) == (666_665, 29)
    # no <dimension>: the columns used in the first chunk (A-C); min(1,000, 20,000,000 // 3) = 1,000
    # rows, rounded down to 999
    assert sources.vouching_rectangle(zf, part, "g", LIMITS, None) == (998, 2)
    # more columns than the limit: nothing worth trying (the exact reading refuses the sheet)
    assert sources.vouching_rectangle(zf, part, "g", Limits(columns=2), None) is None


def test_a_sheet_without_dimension_is_read_fast(tmp_path):
    # openpyxl's write-only mode writes no <dimension>: the rectangle comes from the first chunk
    p = hb.xlsx(tmp_path / "nodim.xlsx", HEAD)
    zf = zipfile.ZipFile(p)
    rect = sources.vouching_rectangle(zf, "xl/worksheets/sheet1.xml", "nodim.xlsx", Limits(), None)
    assert rect == (999_998, 2)
    assert sources.within_rectangle(zf, "xl/worksheets/sheet1.xml", "nodim.xlsx", *rect) == (True, False)
    assert list(read_survey(p).trees["species_code"]) == ["ACRU", "QUAL"]


@pytest.mark.parametrize(
    ("cell", "kind"),
    [
        (b'<c r="C4"><f>SUM(C2:C3)</f></c>', "formula without cached value"),
        (b'<c r="C4" t="e"><v>#DIV/0!</v></c>', "Excel error"),
    ],
)
def test_formulas_and_errors_are_still_found_on_a_sheet_read_fast(tmp_path, cell, kind):
    row = b'<row r="4"><c r="A4" t="inlineStr"><is><t>3</t></is></c><c r="B4" t="inlineStr"><is><t>Acer rubrum</t>'
    p = hb.xlsx(tmp_path / "f.xlsx", HEAD + row + b"</is></c>" + cell + b"</row>", dimension=b"A1:C4")
    vouched, special = sources.within_rectangle(zipfile.ZipFile(p), "xl/worksheets/sheet1.xml", "f.xlsx", 3, 2)
    assert vouched and special
    s = read_survey(p)
    assert list(s.rejected["kind"]) == [kind] and list(s.rejected["source_row"]) == [4]


@pytest.mark.parametrize("bound", ["1", "9", "10", "11", "99", "100", "50002", "1048576", "100000000", "999999999"])
def test_at_most_numbers(bound):
    pattern = re.compile(sources.extent._at_most(bound, "0123456789"))
    b = int(bound)
    probes = {1, 2, 9, 10, 11, 99, 100, 101, b - 1, b, b + 1, 10 * b, b // 10, 999_999_999} | set(range(b - 30, b + 30))
    for n in sorted(x for x in probes if 1 <= x <= 999_999_999):
        assert bool(pattern.fullmatch(str(n))) == (n <= b), n
    for leading_zero in ("0", "01", "00", f"0{bound}"):
        assert not pattern.fullmatch(leading_zero)


@pytest.mark.parametrize("col", [0, 1, 2, 9, 25, 26, 27, 51, 701, 702, 999, 16_383, 18_277])
def test_at_most_column_letters(col):
    pattern = re.compile(sources.extent._at_most(column_letters(col), "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    for k in range(18_278):  # every column of one to three letters: A .. ZZZ
        assert bool(pattern.fullmatch(column_letters(k))) == (k <= col), column_letters(k)


FORMS = ["plain", "none", "dollar", "quote", "lower", "zero", "prefix", "attr-first"]


def _cell(row: int, col: int, form: str) -> bytes:
    """A cell at (row, col), 0-based, its reference written in ``form``."""
    letters, number = column_letters(col), str(row + 1)
    ref = {"dollar": f"${letters}${number}", "lower": f"{letters.lower()}{number}", "zero": f"{letters}0{number}"}
    r = ref.get(form, letters + number)
    return {
        "none": "<c><v>1</v></c>",
        "quote": f"<c r='{r}'><v>1</v></c>",
        "prefix": f'<x:c xmlns:x="urn:x" r="{r}"><x:v>1</x:v></x:c>',
        "attr-first": f'<c s="1" r="{r}"><v>1</v></c>',
    }.get(form, f'<c r="{r}"><v>1</v></c>').encode()


FORM = st.one_of(st.just("plain"), st.sampled_from(FORMS))  # the plain form half the time: sheets worth vouching for


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 40), st.lists(st.tuples(st.integers(0, 40), FORM), max_size=4)),
        min_size=1,
        max_size=8,
    ),
    st.integers(0, 40),
    st.integers(0, 40),
    st.booleans(),
)
def test_never_vouches_for_a_sheet_beyond_its_dimension(rows, last_row, last_col, row_refs):
    """Whatever the forms of the references, a sheet vouched for has its exact extent (the cell-by-cell
    reading that was the only one before) within the declared last cell."""
    xml = b"".join(
        (b'<row r="%d">' % (r + 1) if row_refs else b"<row>") + b"".join(_cell(r, c, f) for c, f in cells) + b"</row>"
        for r, cells in rows
    )
    sheet = b"<worksheet %s><sheetData>%s</sheetData></worksheet>" % (hb.MAIN_NS, xml)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("s.xml", sheet)
    zf = zipfile.ZipFile(buf)
    vouched, _ = sources.within_rectangle(zf, "s.xml", "g", last_row, last_col)
    if vouched:
        true_row, true_col, _ = sources.xlsx_extent(zf, "s.xml", "Trees", "g", Limits(rows=10**6, columns=10**4))
        assert true_row <= last_row and true_col <= last_col
