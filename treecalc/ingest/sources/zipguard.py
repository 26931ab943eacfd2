"""The zip container of a workbook checked before any reader opens it: members, sizes and ratios (zip
bombs), every XML part's prolog through defusedxml (DTDs and entities forbidden), the sheet parts, and
each worksheet's declared ``<dimension>`` against the limits."""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import PurePosixPath

from treecalc.ingest import limits as L
from treecalc.ingest.errors import SurveyError
from treecalc.ingest.limits import DEFAULT as DEFAULT_LIMITS
from treecalc.ingest.limits import Limits, refuse


def _forbidden(e: Exception) -> bool:
    import defusedxml  # imported with the first workbook read, not by every command (start-up)

    return isinstance(
        e,
        (
            defusedxml.DTDForbidden,
            defusedxml.EntitiesForbidden,
            defusedxml.ExternalReferenceForbidden,
            defusedxml.NotSupportedError,
        ),
    )


def _iter_xml(zf: zipfile.ZipFile, member: str, name: str, event: str = "start"):
    """Elements of one XML part at their ``event`` ("start", or "end" when their content
    is needed), parsed by defusedxml (no DTD, no entities)."""
    import defusedxml.ElementTree as DET  # imported with the first workbook read, not by every command (start-up)

    try:
        with zf.open(member) as fh:
            for _, el in DET.iterparse(fh, events=(event,), forbid_dtd=True):
                yield el
    except DET.ParseError as e:
        raise SurveyError(f"{name} is damaged: part {member!r} is not well-formed XML ({e})") from None
    except Exception as e:  # noqa: BLE001 - defusedxml's refusals and zip errors
        if _forbidden(e):
            raise SurveyError(
                f"{name} refused: part {member!r} declares a DTD or XML entities "
                f"(a billion-laughs or external-entity attack); spreadsheets never need them"
            ) from None
        if isinstance(e, (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, RuntimeError)):
            raise SurveyError(f"{name} is damaged: cannot read part {member!r} ({e})") from None
        raise


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


_REF = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")


def col_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def parse_ref(ref: str) -> tuple[int, int] | None:
    m = _REF.match(ref.strip().upper())
    if not m:
        return None
    return int(m.group(2)) - 1, col_index(m.group(1))


def check_zip(data: bytes, name: str) -> zipfile.ZipFile:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise SurveyError(f"{name} is damaged: not a readable zip container ({e})") from None
    infos = zf.infolist()
    if len(infos) > L.MAX_MEMBERS:
        raise SurveyError(f"{name} refused: {len(infos)} parts in the workbook (limit {L.MAX_MEMBERS})")
    total = sum(i.file_size for i in infos)
    if total > L.MAX_UNCOMPRESSED:
        raise SurveyError(
            f"{name} refused: it would expand to {total / 1e6:,.0f} MB "
            f"(limit {L.MAX_UNCOMPRESSED / 1e6:,.0f} MB); this looks like a zip bomb"
        )
    for i in infos:
        if i.file_size > 1_000_000 and i.file_size > L.MAX_RATIO * max(i.compress_size, 1):
            raise SurveyError(
                f"{name} refused: part {i.filename!r} expands {i.file_size / max(i.compress_size, 1):,.0f}"
                f" times ({i.compress_size:,} → {i.file_size:,} bytes; limit {L.MAX_RATIO}×); "
                "this looks like a zip bomb"
            )
    for i in infos:
        if i.filename.lower().endswith((".xml", ".rels", ".vml")) and not i.is_dir():
            for _ in _iter_xml(zf, i.filename, name):
                break  # the prolog (where a DTD would be) has been parsed
    return zf


def xlsx_sheet_parts(zf: zipfile.ZipFile, name: str) -> dict[str, str]:
    """Sheet name → part path (``xl/worksheets/sheet1.xml``), from workbook.xml and its rels."""
    rels: dict[str, str] = {}
    try:
        rel_member = "xl/_rels/workbook.xml.rels"
        if rel_member in zf.namelist():
            for el in _iter_xml(zf, rel_member, name, "end"):
                if _local(el.tag) == "Relationship":
                    tgt = el.get("Target", "")
                    path = tgt.lstrip("/") if tgt.startswith("/") else str(PurePosixPath("xl") / tgt)
                    rels[el.get("Id", "")] = os.path.normpath(path).replace(os.sep, "/")
        out: dict[str, str] = {}
        for el in _iter_xml(zf, "xl/workbook.xml", name, "end"):
            if _local(el.tag) == "sheet":
                rid = next((v for k, v in el.attrib.items() if _local(k) == "id"), None)
                if rid in rels:
                    out[el.get("name", "")] = rels[rid]
        return out
    except KeyError:
        return {}


def check_dimensions(
    zf: zipfile.ZipFile, parts: dict[str, str], name: str, lim: Limits = DEFAULT_LIMITS
) -> dict[str, tuple[int, int]]:
    """Refuse a worksheet whose declared ``<dimension>`` is beyond the row or column limit, or
    whose rectangle is beyond the cell limit (a reader allocates what the sheet declares).
    Returns {sheet: (last row, last column)} (0-based) of the sheets that declare one."""
    names = set(zf.namelist())
    declared: dict[str, tuple[int, int]] = {}
    for sheet, part in parts.items():
        if part not in names:
            continue
        for el in _iter_xml(zf, part, name):
            tag = _local(el.tag)
            if tag == "dimension":
                ref = el.get("ref", "")
                last = ref.split(":")[-1]
                rc = parse_ref(last)
                max_rows, max_cols = lim.rows, lim.columns
                if rc and (rc[0] + 1 > max_rows or rc[1] + 1 > max_cols):
                    raise SurveyError(
                        f"{name} refused: sheet {sheet!r} declares {rc[0] + 1:,} rows × {rc[1] + 1:,} columns "
                        f"({ref}); limits are {max_rows:,} rows and {max_cols:,} columns (rows, columns)"
                    )
                if rc and (rc[0] + 1) * (rc[1] + 1) > lim.cells:
                    raise refuse(
                        name,
                        f"sheet {sheet!r} declares {rc[0] + 1:,} rows × {rc[1] + 1:,} columns "
                        f"({ref}) = {(rc[0] + 1) * (rc[1] + 1):,} cells",
                        "cells",
                        lim.cells,
                    )
                if rc:
                    declared[sheet] = rc
                break
            if tag == "sheetData":
                break
    return declared
