"""The cells calamine does not say enough about: a formula without a cached value, and an Excel error
(calamine reads both as a blank), read from an xlsx worksheet part."""

from __future__ import annotations

import re
import zipfile

from treecalc.ingest.sources.zipguard import _local, parse_ref

_FORMULA = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]")
_CELL = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)c\b([^>]*?)(?<!/)>(.*?)</\1c>", re.S)
_CELL_END = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?c>")
_R_ATTR = re.compile(rb"\sr=[\"']([A-Za-z]{1,3}\d+)[\"']")
_F_EL = re.compile(rb"<(?:[\w.-]+:)?f\b([^>]*?)(?:/>|>(.*?)</(?:[\w.-]+:)?f>)", re.S)
_V_EL = re.compile(rb"<(?:[\w.-]+:)?v\b[^>]*?(?:/>|>(.*?)</(?:[\w.-]+:)?v>)", re.S)
_T_ERR = re.compile(rb"\st\s*=\s*[\"']e[\"']")
_SPECIAL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]|\st\s*=\s*[\"']e[\"']")


def formula_cells_without_value(zf: zipfile.ZipFile, part: str, name: str) -> dict[tuple[int, int], str]:
    """{(row0, col0): formula} of cells holding a formula but no cached value."""
    return special_cells(zf, part, name)[0]


def special_cells(
    zf: zipfile.ZipFile, part: str, name: str
) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    """({(row0, col0): formula} of cells holding a formula but no cached value,
    {(row0, col0): "#DIV/0!"} of cells holding an Excel error, typed or cached).

    calamine reads an error cell as a blank; this reading keeps what it was.

    The sheet XML is streamed; only the stretches that contain an ``<f>``
    element are split into cells (a sheet without formulas, the usual case,
    costs one byte search). The XML's prolog has already been parsed by
    defusedxml with DTDs forbidden (:func:`check_zip`), so no entity can be
    defined and a byte-level reading of the cells is safe. Cells without an
    ``r`` reference fall back to a full defusedxml parse.
    """
    try:
        fh = zf.open(part)
    except KeyError:
        return {}, {}
    out: dict[tuple[int, int], str] = {}
    errors: dict[tuple[int, int], str] = {}
    carry = b""
    with fh:
        while True:
            chunk = fh.read(1 << 20)
            buf = carry + chunk
            if not chunk:
                cut = len(buf)
            else:
                # the last cell end in the buffer (looked for in its last 64 KB first)
                last = None
                for last in _CELL_END.finditer(buf, max(0, len(buf) - 65536)):  # noqa: B007 - keeps the last
                    pass
                if last is None:
                    for last in _CELL_END.finditer(buf):  # noqa: B007 - keeps the last
                        pass
                cut = last.end() if last is not None else 0
            done, carry = buf[:cut], buf[cut:]
            # bytes.find first: the regex costs ~20 ms per MB, the plain searches a tenth of that
            if (b"<f" in done or b":f" in done or b'"e' in done or b"'e" in done) and _SPECIAL.search(done):
                for cm in _CELL.finditer(done):
                    body = cm.group(3)
                    attrs = b" " + cm.group(2)
                    if _T_ERR.search(attrs):
                        rm = _R_ATTR.search(attrs)
                        if rm is None:
                            return _formula_cells_parsed(zf, part)
                        vm = _V_EL.search(body)
                        err = (vm.group(1) or b"").decode("utf-8", "replace").strip() if vm is not None else ""
                        rc = parse_ref(rm.group(1).decode("ascii"))
                        if rc is None:
                            return _formula_cells_parsed(zf, part)
                        errors[rc] = err[:20] or "#VALUE?"
                        continue
                    if not _FORMULA.search(body):
                        continue
                    fm = _F_EL.search(body)
                    if fm is None:
                        continue
                    vm = _V_EL.search(body)
                    if vm is not None and (vm.group(1) or b"").strip():
                        continue
                    rm = _R_ATTR.search(attrs)
                    if rm is None:
                        return _formula_cells_parsed(zf, part)
                    rc = parse_ref(rm.group(1).decode("ascii"))
                    if rc is None:
                        return _formula_cells_parsed(zf, part)
                    text = (fm.group(2) or b"").decode("utf-8", "replace")
                    text = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
                    if not text and b't="shared"' in fm.group(1):
                        text = "(shared formula)"
                    out[rc] = text
            if not chunk:
                break
    return out, errors


def _formula_cells_parsed(
    zf: zipfile.ZipFile, part: str
) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    out: dict[tuple[int, int], str] = {}
    errors: dict[tuple[int, int], str] = {}
    row = -1
    col = -1
    cell_ref = (row, col)
    formula = None
    value = None
    is_error = False
    import defusedxml.ElementTree as DET  # only for a sheet with formulas or errors (start-up of every command)

    with zf.open(part) as fh:
        for ev, el in DET.iterparse(fh, events=("start", "end"), forbid_dtd=True):
            tag = _local(el.tag)
            if ev == "start":
                if tag == "row":
                    r = el.get("r")
                    row = int(r) - 1 if r and r.isdigit() else row + 1
                    col = -1
                elif tag == "c":
                    rc = parse_ref(el.get("r", "")) if el.get("r") else None
                    if rc:
                        row, col = rc
                    else:
                        col += 1
                    cell_ref = (row, col)
                    formula, value = None, None
                    is_error = el.get("t") == "e"
                continue
            if tag == "f":
                formula = el.text or ""
                if not formula and el.get("t") == "shared":
                    formula = "(shared formula)"
            elif tag == "v":
                value = el.text
            elif tag == "c":
                if is_error:
                    errors[cell_ref] = (value or "").strip()[:20] or "#VALUE?"
                elif formula is not None and (value is None or value == ""):
                    out[cell_ref] = formula
                el.clear()
            elif tag == "row":
                el.clear()
    return out, errors
