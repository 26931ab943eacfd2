"""Hostile survey files, written by code (nothing binary is committed): far cells, lying
dimensions, shared-string bombs, ODS repeat bombs, password-protected and hidden sheets."""

from __future__ import annotations

import zipfile
from pathlib import Path

CT = (
    b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
    b'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships'
    b'+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
    b'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    b'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
    b'officedocument.spreadsheetml.worksheet+xml"/>%s</Types>'
)
SST_CT = (
    b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    b'spreadsheetml.sharedStrings+xml"/>'
)
RELS = (
    b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
    b'2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    b'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
WB_RELS = (
    b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
    b'2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    b'relationships/worksheet" Target="worksheets/sheet1.xml"/>%s</Relationships>'
)
SST_REL = (
    b'<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    b'sharedStrings" Target="sharedStrings.xml"/>'
)
WB = (
    b'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/'
    b'main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
    b'<sheet name="Trees" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
MAIN_NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'

SURVEY = [["Tag", "Species", "DBH"], ["1", "Acer rubrum", 12], ["2", "Quercus alba", 20]]


def _cells(rows: list[list], start: int = 1) -> bytes:
    out = []
    for i, row in enumerate(rows, start=start):
        cells = []
        for j, v in enumerate(row):
            ref = f"{chr(65 + j)}{i}".encode()
            if isinstance(v, str):
                cells.append(b'<c r="%s" t="inlineStr"><is><t>%s</t></is></c>' % (ref, v.encode()))
            else:
                cells.append(b'<c r="%s"><v>%s</v></c>' % (ref, str(v).encode()))
        out.append(b'<row r="%d">%s</row>' % (i, b"".join(cells)))
    return b"".join(out)


def xlsx(
    path: Path, sheet_data: bytes, dimension: bytes | None = None, shared: bytes | None = None, level: int = 9
) -> Path:
    """A minimal xlsx: one sheet "Trees" with ``sheet_data`` (the XML inside <sheetData>)."""
    dim = b'<dimension ref="%s"/>' % dimension if dimension is not None else b""
    sheet = b'<?xml version="1.0" encoding="UTF-8"?><worksheet %s>%s<sheetData>%s</sheetData></worksheet>' % (
        MAIN_NS,
        dim,
        sheet_data,
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as z:
        z.writestr("[Content_Types].xml", CT % (SST_CT if shared is not None else b""))
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WB)
        z.writestr("xl/_rels/workbook.xml.rels", WB_RELS % (SST_REL if shared is not None else b""))
        z.writestr("xl/worksheets/sheet1.xml", sheet)
        if shared is not None:
            z.writestr("xl/sharedStrings.xml", shared)
    return path


def far_cell_xlsx(path: Path, ref: str = "XFD1048576", dimension: bytes | None = None) -> Path:
    """A small survey and one cell far away (``ref``), with no ``<dimension>`` (or a lying one)."""
    far = b'<row r="%s"><c r="%s"><v>1</v></c></row>' % (
        ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ").encode(),
        ref.encode(),
    )
    return xlsx(path, _cells(SURVEY) + far, dimension=dimension)


def plain_xlsx(path: Path, rows: list[list] | None = None) -> Path:
    return xlsx(path, _cells(rows or SURVEY), dimension=b"A1:C3")


def shared_strings_bomb(path: Path, n: int) -> Path:
    """``n`` distinct short strings (a counter: compresses about 15 times, under any zip-bomb ratio)."""
    body = b"".join(b"<si><t>%x</t></si>" % i for i in range(n))
    sst = b'<?xml version="1.0" encoding="UTF-8"?><sst %s count="%d" uniqueCount="%d">%s</sst>' % (MAIN_NS, n, n, body)
    return xlsx(path, _cells(SURVEY), dimension=b"A1:C3", shared=sst, level=1)


ODS_CONTENT = (
    b'<?xml version="1.0" encoding="UTF-8"?><office:document-content '
    b'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    b'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    b'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
    b'<office:body><office:spreadsheet><table:table table:name="Trees">%s</table:table>'
    b"</office:spreadsheet></office:body></office:document-content>"
)


def _ods_row(values: list, rows_repeated: int = 1, cols_repeated: int = 1) -> bytes:
    rr = b' table:number-rows-repeated="%d"' % rows_repeated if rows_repeated > 1 else b""
    cr = b' table:number-columns-repeated="%d"' % cols_repeated if cols_repeated > 1 else b""
    cells = b""
    for v in values:
        if isinstance(v, str):
            cells += b'<table:table-cell%s office:value-type="string"><text:p>%s</text:p></table:table-cell>' % (
                cr,
                v.encode(),
            )
        else:
            cells += (
                b'<table:table-cell%s office:value-type="float" office:value="%s"><text:p>%s</text:p>'
                b"</table:table-cell>" % (cr, str(v).encode(), str(v).encode())
            )
    return b"<table:table-row%s>%s</table:table-row>" % (rr, cells)


def ods(path: Path, rows_xml: bytes) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), b"application/vnd.oasis.opendocument.spreadsheet")
        z.writestr(
            "META-INF/manifest.xml",
            b'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
            b'opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type'
            b'="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path='
            b'"content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
        )
        z.writestr("content.xml", ODS_CONTENT % rows_xml)
    return path


def ods_repeat_bomb(path: Path, rows: int = 1_000_000, cols: int = 1_000) -> Path:
    """The survey, then one row of a value repeated ``cols`` times, itself repeated ``rows`` times."""
    body = b"".join(_ods_row(r) for r in SURVEY) + _ods_row([7], rows_repeated=rows, cols_repeated=cols)
    return ods(path, body)


def plain_ods(path: Path) -> Path:
    """The survey, then the empty repeated rows and columns LibreOffice writes below every sheet."""
    tail = (
        b'<table:table-row table:number-rows-repeated="1048573"><table:table-cell '
        b'table:number-columns-repeated="1024"/></table:table-row>'
    )
    return ods(path, b"".join(_ods_row(r) for r in SURVEY) + tail)


def encrypted_xlsx(path: Path) -> Path:
    """What Excel writes for a password-protected xlsx: an OLE2 compound file holding the streams
    EncryptionInfo and EncryptedPackage (names in UTF-16LE in its directory). The directory is laid out
    as the format has it; the encrypted content is random bytes."""
    import os

    sector = 512
    header = bytearray(sector)
    header[:8] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    header[0x18:0x1A] = (0x3E).to_bytes(2, "little")
    header[0x1A:0x1C] = (3).to_bytes(2, "little")
    header[0x1C:0x1E] = b"\xfe\xff"
    header[0x1E:0x20] = (9).to_bytes(2, "little")
    header[0x20:0x22] = (6).to_bytes(2, "little")

    def entry(name: str) -> bytes:
        e = bytearray(128)
        raw = name.encode("utf-16-le") + b"\x00\x00"
        e[: len(raw)] = raw
        e[64:66] = len(raw).to_bytes(2, "little")
        e[66] = 2
        return bytes(e)

    directory = entry("Root Entry") + entry("EncryptionInfo") + entry("EncryptedPackage") + bytes(128)
    path.write_bytes(bytes(header) + directory + os.urandom(2048))
    return path
