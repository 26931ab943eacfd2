"""Review 2: references the pre-flight misread but calamine places far away (issue 12's pre-flight).

calamine (python-calamine 0.9) takes a cell's *last* ``r`` attribute (its attribute reader keeps going
after the first), reads a quoted ``>`` as part of an attribute value, takes any number of leading zeros
and letters, wraps a row number past 2**32, and matches a tag by its local name whatever its prefix.
Each sheet below has a cell that calamine puts in row 5,000 (or column 18,279), and each was let through
by the pre-flight, old and new, to the reader (which, at XFD1048576, asks for 550 GB and aborts).
"""

from __future__ import annotations

import hostile_builders as hb
import pytest

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
