"""Refusals: zip bombs, XML entity attacks, mislabelled files, oversize files."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from ingest_builders import HEADER, ROWS, write_text, write_xlsx

from treecalc.ingest import SurveyError, read_survey
from treecalc.ingest import sources

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>"""


def _rewrite(src_path, out_path, replace: dict[str, bytes], compresslevel=None):
    src = zipfile.ZipFile(src_path)
    with zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED, compresslevel=compresslevel) as z:
        for item in src.infolist():
            data = replace.get(item.filename, src.read(item.filename))
            z.writestr(item.filename, data)
    return out_path


def _timed_refusal(path, match, **kw):
    t = time.perf_counter()
    with pytest.raises(SurveyError, match=match) as e:
        read_survey(path, **kw)
    dt = time.perf_counter() - t
    assert dt < 1.0, f"took {dt:.2f} s"
    return str(e.value)


@pytest.fixture
def good_xlsx(tmp_path):
    return write_xlsx(tmp_path / "good.xlsx", [HEADER, *ROWS])


def test_zip_bomb_ratio_refused_fast(tmp_path, good_xlsx):
    sheet = zipfile.ZipFile(good_xlsx).read("xl/worksheets/sheet1.xml")
    head, tail = sheet.split(b"<sheetData>")
    bomb = head + b"<sheetData>" + b" " * 60_000_000 + tail  # 60 MB of blanks, compresses ~1000:1
    p = _rewrite(good_xlsx, tmp_path / "bomb.xlsx", {"xl/worksheets/sheet1.xml": bomb}, compresslevel=9)
    assert p.stat().st_size < 1_000_000
    msg = _timed_refusal(p, "zip bomb")
    assert "bomb.xlsx refused" in msg and "xl/worksheets/sheet1.xml" in msg


def test_zip_total_uncompressed_refused(tmp_path, good_xlsx, monkeypatch):
    monkeypatch.setattr(sources, "MAX_UNCOMPRESSED", 2_000)
    _timed_refusal(good_xlsx, "would expand to")


def test_declared_dimension_refused_fast(tmp_path, good_xlsx):
    sheet = zipfile.ZipFile(good_xlsx).read("xl/worksheets/sheet1.xml")
    import re

    huge = re.sub(rb'<dimension ref="[^"]+"\s*/>', b'<dimension ref="A1:XFD1048576"/>', sheet)
    assert huge != sheet
    p = _rewrite(good_xlsx, tmp_path / "dim.xlsx", {"xl/worksheets/sheet1.xml": huge})
    msg = _timed_refusal(p, "declares 1,048,576 rows × 16,384 columns")
    assert "A1:XFD1048576" in msg


@pytest.mark.parametrize("part", ["xl/worksheets/sheet1.xml", "xl/workbook.xml", "[Content_Types].xml"])
def test_billion_laughs_refused_fast(tmp_path, good_xlsx, part):
    p = _rewrite(good_xlsx, tmp_path / "lol.xlsx", {part: BILLION_LAUGHS})
    msg = _timed_refusal(p, "billion-laughs")
    assert repr(part) in msg


def test_billion_laughs_in_ods_refused(tmp_path):
    pytest.importorskip("odf")
    import pandas as pd

    p = tmp_path / "s.ods"
    pd.DataFrame(ROWS, columns=HEADER).to_excel(p, engine="odf", index=False)
    bad = _rewrite(p, tmp_path / "lol.ods", {"content.xml": BILLION_LAUGHS})
    _timed_refusal(bad, "billion-laughs")


def test_external_entity_refused(tmp_path, good_xlsx):
    xxe = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
           b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
           b'<row r="1"><c r="A1" t="inlineStr"><is><t>&e;</t></is></c></row></sheetData></worksheet>')
    p = _rewrite(good_xlsx, tmp_path / "xxe.xlsx", {"xl/worksheets/sheet1.xml": xxe})
    _timed_refusal(p, "DTD or XML entities")


def test_pdf_renamed_xlsx(tmp_path):
    p = tmp_path / "survey.xlsx"
    p.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\n" + b"0" * 1000)
    msg = _timed_refusal(p, "survey.xlsx is not an xlsx workbook")
    assert "looks like a PDF document" in msg


def test_csv_renamed_xlsx(tmp_path):
    p = write_text(tmp_path / "survey.xlsx", [HEADER, *ROWS])
    msg = _timed_refusal(p, "is not an xlsx workbook")
    assert "looks like a text (CSV) file" in msg and "survey.csv" in msg


def test_xlsx_renamed_csv_and_xls(tmp_path, good_xlsx):
    p = tmp_path / "survey.csv"
    p.write_bytes(good_xlsx.read_bytes())
    assert "looks like an xlsx workbook" in _timed_refusal(p, "is not a CSV text file")
    q = tmp_path / "survey.xls"
    q.write_bytes(good_xlsx.read_bytes())
    assert "rename it to survey.xlsx" in _timed_refusal(q, "is not an xls workbook")


def test_html_saved_as_xls(tmp_path):
    p = tmp_path / "export.xls"
    p.write_text("<html><body><table><tr><td>Tag</td></tr></table></body></html>")
    assert "HTML page" in _timed_refusal(p, "is not an xls workbook")


def test_binary_junk_csv(tmp_path):
    p = tmp_path / "s.csv"
    p.write_bytes(bytes(range(256)) * 10)
    _timed_refusal(p, "is not a CSV")


def test_damaged_and_empty(tmp_path, good_xlsx):
    p = tmp_path / "cut.xlsx"
    p.write_bytes(good_xlsx.read_bytes()[:400])
    with pytest.raises(SurveyError):
        read_survey(p)
    e = tmp_path / "empty.csv"
    e.write_bytes(b"")
    with pytest.raises(SurveyError, match="empty"):
        read_survey(e)


def test_too_big_refused_before_reading(tmp_path, good_xlsx):
    size = good_xlsx.stat().st_size
    msg = _timed_refusal(good_xlsx, "over the 0.001 MB limit", max_bytes=1000)
    assert f"{size / 1e6:.1f} MB" in msg
    with pytest.raises(SurveyError, match="over the"):
        read_survey(io.BytesIO(good_xlsx.read_bytes()), filename="x.xlsx", max_bytes=1000)
    read_survey(good_xlsx, max_bytes=size)  # exactly at the limit is fine


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(SurveyError, match="no such file"):
        read_survey(tmp_path / "nope.xlsx")
    with pytest.raises(SurveyError, match="folder"):
        read_survey(tmp_path)


def test_unsupported_extension_by_content(tmp_path, good_xlsx):
    p = tmp_path / "survey.dat"
    p.write_bytes(good_xlsx.read_bytes())
    assert len(read_survey(p).trees) == 3  # an unknown extension: the content decides
    q = tmp_path / "doc.bin"
    q.write_bytes(b"%PDF-1.4 junk")
    with pytest.raises(SurveyError, match="unsupported file"):
        read_survey(q)
