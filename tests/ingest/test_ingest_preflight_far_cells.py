"""References the pre-flight could misread but calamine places far away: each is measured where calamine puts it.

calamine (python-calamine 0.9) takes a cell's *last* ``r`` attribute (its attribute reader keeps going
after the first), reads a quoted ``>`` as part of an attribute value, takes any number of leading zeros
and letters, wraps a row number past 2**32, and matches a tag by its local name whatever its prefix.
Each sheet below has a cell that calamine puts in row 5,000 (or column 18,279), and each was let through
by the pre-flight, old and new, to the reader (which, at XFD1048576, asks for 550 GB and aborts).
"""

from __future__ import annotations

import pytest

from tests.helpers import hostile as hb
from treecalc.ingest import SurveyError, read_survey
from treecalc.ingest.limits import Limits

HEAD = hb._cells(hb.SURVEY)
LIMITS = Limits(rows=1_000, columns=3)


@pytest.mark.parametrize(
    "far",
    [
        b'<row r="4"><c r="A4" r="A5000"><v>1</v></c></row>',  # a second r: calamine keeps the last
        b'<row r="4"><c r="A4"r="A5000"><v>1</v></c></row>',  # ... even with no space before it
        b'<row r="4"><c r="A4"\x0cr="A5000"><v>1</v></c></row>',  # ... or a form feed
        b'<row r="4"><c foo=">" r="A5000"><v>1</v></c></row>',  # a quoted > before r
        b'<row r="4"><c r="A4" foo=">" r="A5000"><v>1</v></c></row>',
        b'<row r="4"><c r="A0000005000"><v>1</v></c></row>',  # ten digits with leading zeros
        b'<row r="4"><c r="A4294972296"><v>1</v></c></row>',  # 2**32 + 5000: calamine wraps to 5000
        b'<row r="4"><\xc3\xa9:c r="A5000"><v>1</v></\xc3\xa9:c></row>',  # a non-ASCII prefix
        b'<row r="4"><1:c r="A5000"><v>1</v></1:c></row>',  # a prefix starting with a digit
        b'<row a=">" r="5000"><c><v>1</v></c></row>',  # a quoted > before a row's r
        b'<row r="0000005000"><c><v>1</v></c></row>',  # a row of ten digits with leading zeros
    ],
)
def test_a_far_cell_calamine_reads_is_refused_by_the_preflight(tmp_path, far):
    p = hb.xlsx(tmp_path / "odd.xlsx", HEAD + far, dimension=b"A1:C3")
    with pytest.raises(SurveyError, match="odd.xlsx refused") as e:
        read_survey(p, limits=LIMITS)
    assert "rows" in str(e.value)


def test_four_column_letters_are_refused(tmp_path):
    p = hb.xlsx(tmp_path / "odd.xlsx", HEAD + b'<row r="4"><c r="AAAA4"><v>1</v></c></row>', dimension=b"A1:C3")
    with pytest.raises(SurveyError, match="odd.xlsx refused.*columns"):
        read_survey(p, limits=LIMITS)


def test_a_plain_sheet_with_odd_but_harmless_attributes_is_read(tmp_path):
    # a quoted > in another attribute, and an attribute named like r, do not move the cell
    cells = HEAD + b'<row r="4"><c r="A4" foo=">" xr="Z9"><v>4</v></c></row>'
    p = hb.xlsx(tmp_path / "ok.xlsx", cells, dimension=b"A1:C4")
    assert len(read_survey(p, limits=LIMITS).trees) == 2


def _sheet(data: bytes) -> bytes:
    return b'<?xml version="1.0" encoding="UTF-8"?><worksheet %s><sheetData>%s</sheetData></worksheet>' % (
        hb.MAIN_NS,
        data,
    )


FAR = HEAD + b'<row r="4"><c r="A5000"><v>1</v></c></row>'
SHEET2_REL = (
    b'<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
    b'Target="worksheets/sheet2.xml"/>'
)


def _other_case(z):  # the relationship names SHEET1.xml; calamine finds sheet1.xml whatever its case
    z.writestr("xl/workbook.xml", hb.WB)
    z.writestr("xl/_rels/workbook.xml.rels", (hb.WB_RELS % b"").replace(b"sheet1.xml", b"SHEET1.xml"))
    z.writestr("xl/worksheets/sheet1.xml", _sheet(FAR))


def _root_elsewhere(z):  # _rels/.rels names another workbook.xml, which calamine reads (and xl/ is a decoy)
    z.writestr("xl/workbook.xml", hb.WB)
    z.writestr("xl/_rels/workbook.xml.rels", hb.WB_RELS % b"")
    z.writestr("xl/worksheets/sheet1.xml", _sheet(HEAD))
    z.writestr("ev/workbook.xml", hb.WB)
    z.writestr("ev/_rels/workbook.xml.rels", hb.WB_RELS % b"")
    z.writestr("ev/worksheets/sheet1.xml", _sheet(FAR))


def _same_name_twice(z):  # two sheets named Trees: calamine reads the first, the pre-flight kept the last
    z.writestr(
        "xl/workbook.xml", hb.WB.replace(b"</sheets>", b'<sheet name="Trees" sheetId="2" r:id="rId2"/></sheets>')
    )
    z.writestr("xl/_rels/workbook.xml.rels", hb.WB_RELS % SHEET2_REL)
    z.writestr("xl/worksheets/sheet1.xml", _sheet(FAR))
    z.writestr("xl/worksheets/sheet2.xml", _sheet(HEAD))


def _dot_path(z):  # ./worksheets/sheet1.xml: calamine opens the member named xl/./worksheets/sheet1.xml
    z.writestr("xl/workbook.xml", hb.WB)
    z.writestr("xl/_rels/workbook.xml.rels", (hb.WB_RELS % b"").replace(b'"worksheets/', b'"./worksheets/'))
    z.writestr("xl/./worksheets/sheet1.xml", _sheet(FAR))
    z.writestr("xl/worksheets/sheet1.xml", _sheet(HEAD))


@pytest.mark.parametrize("build", [_other_case, _root_elsewhere, _same_name_twice, _dot_path])
def test_a_worksheet_part_the_relationships_do_not_lead_to_is_measured_too(tmp_path, build):
    import zipfile

    p = tmp_path / "parts.xlsx"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", hb.CT % b"")
        rels = hb.RELS.replace(b"xl/workbook.xml", b"ev/workbook.xml") if build is _root_elsewhere else hb.RELS
        z.writestr("_rels/.rels", rels)
        build(z)
    with pytest.raises(SurveyError, match="parts.xlsx refused.*5,000 rows"):
        read_survey(p, limits=LIMITS)
