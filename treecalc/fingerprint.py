"""A statement anyone can verify: the fingerprint an assessment carries, and its check.

The fingerprint says what an assessment was derived from, so that anyone holding the survey can derive it
again and see whether the statement follows from it:

- ``survey``: the survey file's name, size and SHA-256 (of its bytes, as given);
- ``data_files``: the SHA-256 of each file of the data folder treecalc read (``law/*.toml``,
  ``species/*.csv``; the folder ``TREECALC_DATA`` names, else treecalc's own), by its path in the folder;
- ``fee_schedule_file``: the SHA-256 of a fee schedule given outside the data folder (``--fee-schedule``);
- ``treecalc_version`` and ``options``: the keyword arguments the survey was read and assessed with;
- ``result_sha256``: the SHA-256 of the assessment's JSON text (``treecalc assess --json``) without its
  fingerprint.

:func:`attach` computes it for an assessment; :func:`read_fingerprint` reads it back from a statement (the JSON,
the Excel statement's "Fingerprint" sheet or the file attached to the PDF); :func:`verify` derives the assessment
again with the recorded options and names every difference. A fingerprint is not a signature: it shows that a
statement follows from its inputs, not who made it.

References
----------
.. [1] FIPS 180-4, Secure Hash Standard (SHA-256); Python ``hashlib``.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import hashlib
import importlib
import json
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from treecalc.report.carriers import ATTACHMENT_NAME, JSON_ITEM, SHEET_NAME

__all__ = [
    "ATTACHMENT_NAME",
    "SHEET_NAME",
    "JSON_ITEM",
    "StatementError",
    "Verdict",
    "attach",
    "make_fingerprint",
    "result_sha256",
    "read_fingerprint",
    "assess_file",
    "verify",
    "json_default",
]

#: The options of the survey's reading (:func:`treecalc.ingest.read_survey`), recorded under ``options["read"]``:
#: they change what is assessed.
READ_OPTIONS = ("sheet", "column_map", "dbh_unit", "site", "species_map", "layer")
_CHUNK = 1 << 20


class StatementError(ValueError):
    """A statement or a survey that cannot be checked: missing, unreadable, or without a fingerprint."""


def json_default(o: Any) -> Any:
    """Exact amounts (Decimal) as their text, dates in ISO form, numpy scalars as Python's: the JSON of ``--json``."""
    from treecalc.results import plain

    if isinstance(o, decimal.Decimal):
        return str(o)
    if isinstance(o, (_dt.date, _dt.datetime)):
        return o.isoformat()
    value = plain(o)
    if value is o:
        raise TypeError(f"not JSON serialisable: {type(o).__name__}")
    return value


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _survey_entry(survey: bytes | str | Path, name: str | None) -> dict[str, Any]:
    if isinstance(survey, bytes):
        return {"file": name or "survey", "bytes": len(survey), "sha256": hashlib.sha256(survey).hexdigest()}
    p = Path(survey)
    return {"file": name or p.name, "bytes": p.stat().st_size, "sha256": _sha256_file(p)}


def _data_files() -> dict[str, str]:
    """SHA-256 of every file of the data folder read so far, but the sample survey (the survey is its own entry)."""
    from treecalc.units.datafolder import data_files_read

    return {rel: _sha256_file(p) for rel, p in data_files_read().items() if not rel.startswith("examples/")}


def result_sha256(assessment: Any) -> str:
    """SHA-256 of the assessment's JSON text (as ``treecalc assess --json`` prints it) without the fingerprint."""
    from treecalc.report.json_text import assessment_json_text

    held = getattr(assessment, "fingerprint", None)
    assessment.fingerprint = None
    try:
        text = assessment_json_text(assessment, default=json_default)
    finally:
        assessment.fingerprint = held
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plain_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as JSON values (a fee schedule's path as text), so that they can be given back to assess()."""
    return json.loads(json.dumps(dict(options), default=lambda o: str(o) if isinstance(o, Path) else json_default(o)))


def make_fingerprint(
    assessment: Any, survey: bytes | str | Path, options: Mapping[str, Any], survey_name: str | None = None
) -> dict[str, Any]:
    """The fingerprint of ``assessment``, derived from ``survey`` (its path or bytes) with ``options`` (the keyword
    arguments of :func:`treecalc.assessment.assess`, and under ``"read"`` those of the reading, :data:`READ_OPTIONS`)."""
    from treecalc import __version__

    opts = _plain_options(options)
    fee = opts.get("fee_schedule")
    fee_file = None
    if isinstance(fee, str) and fee:
        from treecalc.units.datafolder import data_files_read

        read = {p.resolve() for p in data_files_read().values()}
        if Path(fee).resolve() not in read:  # a schedule of the data folder is one of data_files already
            fee_file = {"path": fee, "sha256": _sha256_file(Path(fee))}
    return {
        "algorithm": "sha256",
        "treecalc_version": __version__,
        "survey": _survey_entry(survey, survey_name),
        "data_files": _data_files(),
        "fee_schedule_file": fee_file,
        "options": opts,
        "result_sha256": result_sha256(assessment),
    }


def attach(
    assessment: Any, survey: bytes | str | Path, options: Mapping[str, Any], survey_name: str | None = None
) -> dict[str, Any]:
    """Compute the fingerprint of ``assessment`` and keep it on it: its JSON, statement and PDF then carry it."""
    fp = make_fingerprint(assessment, survey, options, survey_name)
    assessment.fingerprint = fp
    return fp


def assess_file(path: str | Path, options: Mapping[str, Any], *, isolated: bool = False) -> Any:
    """Read the survey at ``path`` and assess it with ``options`` (as a fingerprint records them), fingerprinted."""
    from treecalc.assessment import assess
    from treecalc.climate_zones import read_survey_in_zone  # a zone's own species read in that zone again

    opts = dict(options)
    read_kw = dict(opts.pop("read", None) or {})
    unknown = sorted(set(read_kw) - set(READ_OPTIONS))
    if unknown:
        raise TypeError(f"unknown options of the survey's reading: {', '.join(unknown)}")
    kw: dict[str, Any] = {"isolated": True} if isolated else {}
    zone = opts.get("zone") or (opts.get("site") or {}).get("climate_zone")
    survey = read_survey_in_zone(path, zone, **{k: v for k, v in read_kw.items() if v is not None}, **kw)
    result = assess(survey, **opts)
    attach(result, path, options)
    return result


# ------------------------------------------------------------------------------------------
# reading a statement back
# ------------------------------------------------------------------------------------------
def _checked(fp: Any, where: str) -> dict[str, Any]:
    need = ("treecalc_version", "survey", "data_files", "options", "result_sha256")
    if not isinstance(fp, dict) or any(k not in fp for k in need):
        raise StatementError(f"{where}: the fingerprint is incomplete (it needs {', '.join(need)})")
    tables = ("survey", "data_files", "options")
    if not all(isinstance(fp[k], dict) for k in tables) or not isinstance(fp["result_sha256"], str):
        raise StatementError(f"{where}: the fingerprint is malformed ({', '.join(tables)} must be tables)")
    return fp


def _from_json(path: Path) -> tuple[dict[str, Any], dict[str, Any] | None]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StatementError(f"{path}: not a JSON statement ({e})") from None
    if not isinstance(doc, dict) or not doc.get("fingerprint"):
        raise StatementError(f"{path}: no fingerprint in this JSON (write it with treecalc assess --json)")
    return _checked(doc["fingerprint"], str(path)), doc


def _from_xlsx(path: Path) -> dict[str, Any]:
    import zipfile

    import openpyxl

    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as e:
        raise StatementError(f"{path}: not an Excel statement ({type(e).__name__}: {e})") from None
    try:
        if SHEET_NAME not in wb.sheetnames:
            raise StatementError(f"{path}: no {SHEET_NAME!r} sheet (a statement written before fingerprints?)")
        for row in wb[SHEET_NAME].iter_rows(values_only=True):
            if row and row[0] == JSON_ITEM and len(row) > 1:
                return _checked(_loads(row[1], path), str(path))
    finally:
        wb.close()
    raise StatementError(f"{path}: the {SHEET_NAME!r} sheet has no {JSON_ITEM!r} row")


def _from_pdf(path: Path) -> dict[str, Any]:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        files = PdfReader(path).attachments
        content = files.get(ATTACHMENT_NAME)
    except (PyPdfError, OSError, ValueError, KeyError) as e:
        raise StatementError(f"{path}: not a readable PDF ({type(e).__name__}: {e})") from None
    if not content:
        raise StatementError(f"{path}: no {ATTACHMENT_NAME} attached (a report written before fingerprints?)")
    return _checked(_loads(content[0], path), str(path))


def _loads(text: Any, path: Path) -> Any:
    try:
        return json.loads(text.decode("utf-8") if isinstance(text, bytes) else str(text))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StatementError(f"{path}: the fingerprint is not valid JSON ({e})") from None


def read_fingerprint(statement: str | Path) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The fingerprint a statement carries, and for a JSON statement the whole of it (else None)."""
    p = Path(statement)
    if not p.is_file():
        raise StatementError(f"statement {p}: no such file")
    suffix = p.suffix.lower()
    if suffix == ".json":
        return _from_json(p)
    if suffix == ".xlsx":
        return _from_xlsx(p), None
    if suffix == ".pdf":
        return _from_pdf(p), None
    raise StatementError(f"statement {p}: give the JSON (.json), the Excel statement (.xlsx) or the PDF report (.pdf)")


# ------------------------------------------------------------------------------------------
# the check
# ------------------------------------------------------------------------------------------
@dataclass
class Verdict:
    """What :func:`verify` found: ``differences`` empty when the statement follows from the survey."""

    statement: str
    survey: str
    differences: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return not self.differences


def _kind(rel: str) -> str:
    top = rel.split("/", 1)[0]
    return {"law": "law file", "species": "species file"}.get(top, "data file")


def _file_differences(fp: Mapping[str, Any]) -> list[str]:
    from treecalc.units.datafolder import DATA_DIR

    out = []
    for rel, want in sorted((fp.get("data_files") or {}).items()):
        p = DATA_DIR / rel
        if not p.is_file():
            out.append(f"{_kind(rel)} missing: {rel} is not in the data folder {DATA_DIR}")
        elif _sha256_file(p) != want:
            out.append(f"{_kind(rel)} changed: {rel} (in {DATA_DIR}) is not the one the statement was derived from")
    fee = fp.get("fee_schedule_file")
    if fee:
        p = Path(fee["path"])
        if not p.is_file():
            out.append(f"fee schedule missing: {fee['path']}")
        elif _sha256_file(p) != fee["sha256"]:
            out.append(f"fee schedule changed: {fee['path']}")
    return out


def _json_differences(doc: Mapping[str, Any], derived: Any) -> list[str]:
    """The keys of a JSON statement whose values are not those derived again (the statement was edited)."""
    again = json.loads(json.dumps(derived.to_json(), default=json_default, ensure_ascii=False))
    keys = [k for k in dict.fromkeys([*doc, *again]) if k != "fingerprint" and doc.get(k) != again.get(k)]
    out = []
    if "options" in keys:
        mine, theirs = doc.get("options") or {}, again.get("options") or {}
        named = [k for k in dict.fromkeys([*mine, *theirs]) if mine.get(k) != theirs.get(k)]
        out.append(
            "options: the statement shows "
            + ", ".join(f"{k}={mine.get(k)!r}" for k in named)
            + " where the recorded options give "
            + ", ".join(f"{k}={theirs.get(k)!r}" for k in named)
        )
        keys.remove("options")
    if keys:
        out.append("the statement's figures differ from the assessment derived again: " + ", ".join(keys))
    return out


def _rows(ws: Any) -> list[tuple[Any, ...]]:
    out = []
    for row in ws.iter_rows(values_only=True):
        row = tuple(row)
        while row and row[-1] is None:
            row = row[:-1]
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out


def _xlsx_differences(path: Path, derived: Any) -> list[str]:
    """The cells of an Excel statement that the statement written again from the derived assessment does not hold
    (the first of each sheet that differs); the Fingerprint sheet is checked apart."""
    import io

    import openpyxl
    from openpyxl.utils import get_column_letter

    from treecalc.report.statement import statement_bytes

    mine = openpyxl.load_workbook(path, read_only=True, data_only=True)
    again = openpyxl.load_workbook(io.BytesIO(statement_bytes(derived)), read_only=True, data_only=True)
    found = []
    try:
        for name in dict.fromkeys([*again.sheetnames, *mine.sheetnames]):
            if name == SHEET_NAME:
                continue
            if name not in mine.sheetnames or name not in again.sheetnames:
                found.append(f"sheet {name!r} " + ("missing" if name not in mine.sheetnames else "added"))
                continue
            a, b = _rows(mine[name]), _rows(again[name])
            for i in range(max(len(a), len(b))):
                ra, rb = (a[i] if i < len(a) else ()), (b[i] if i < len(b) else ())
                if ra != rb:
                    j = next((j for j in range(max(len(ra), len(rb))) if ra[j : j + 1] != rb[j : j + 1]), 0)
                    found.append(f"{name}!{get_column_letter(j + 1)}{i + 1}")
                    break
    finally:
        mine.close()
        again.close()
    return ["the statement's cells differ from the statement written again: " + ", ".join(found)] if found else []


def _pdf_text(pdf: Any) -> list[str]:
    import re

    from pypdf import PdfReader

    # the date a report was prepared is the day it was written, not a figure of the assessment
    return [re.sub(r"Prepared \d{4}-\d{2}-\d{2}", "Prepared", p.extract_text() or "") for p in PdfReader(pdf).pages]


def _pdf_differences(path: Path, derived: Any, survey_name: str | None) -> list[str]:
    """The pages of a PDF report whose text the report written again from the derived assessment does not have."""
    import io

    from treecalc.report.content import report_data
    from treecalc.report.pdf import report_pdf

    report = (derived.fingerprint or {}).get("report") or {}
    from treecalc.messages import render

    words: Any = render  # written by the library: its keywords as they are
    if report.get("words") == "app":  # written by the app, whose words name its controls, not the flags
        try:  # (imported by name: the library does not depend on the app, which is not always installed)
            words = importlib.import_module("treecalc.app.views").readable
        except ImportError:
            return ["the report was written by the app with its controls' names; the app is not installed here"]
    elif report.get("words") == "cli":  # written by the command line: its flags
        words = importlib.import_module("treecalc.cli.words").render
    kind = report.get("kind") or "permit"
    again = report_pdf(report_data(derived, survey_name), kind=kind, words=words)
    a, b = _pdf_text(path), _pdf_text(io.BytesIO(again))
    pages = [str(i + 1) for i in range(max(len(a), len(b))) if a[i : i + 1] != b[i : i + 1]]
    return ["the report's text differs from the report written again on page " + ", ".join(pages)] if pages else []


def verify(statement: str | Path, survey: str | Path, *, isolated: bool = False) -> Verdict:
    """Derive the assessment of ``statement`` again from ``survey`` with the options it records and compare.

    Every difference is named: the survey changed, a law, species or data file changed (which one), treecalc's
    version changed, the options; and the result, when the assessment derived again differs from the recorded one.
    Raises :class:`StatementError` (a ValueError) for a statement or survey that cannot be checked."""
    from treecalc import __version__

    fp, doc = read_fingerprint(statement)
    sp = Path(survey)
    if not sp.is_file():
        raise StatementError(f"survey {sp}: no such file")
    v = Verdict(str(statement), str(survey))
    recorded = fp["survey"] or {}
    given = _survey_entry(sp, None)
    if given["sha256"] != recorded.get("sha256"):
        v.differences.append(
            f"survey changed: {sp.name} is not the survey the statement was derived from "
            f"({recorded.get('file')}, {recorded.get('bytes')} bytes, SHA-256 {str(recorded.get('sha256'))[:12]}…; "
            f"given: {given['bytes']} bytes, SHA-256 {given['sha256'][:12]}…)"
        )
    if fp["treecalc_version"] != __version__:
        v.differences.append(
            f"version changed: the statement was derived with treecalc {fp['treecalc_version']}, this is {__version__}"
        )
    options = fp["options"]
    if not isinstance(options, dict):
        raise StatementError(f"{statement}: the fingerprint's options are not a table of keyword arguments")
    name = recorded.get("file")
    try:
        with tempfile.TemporaryDirectory(prefix="treecalc-verify-") as td:
            source = sp
            if isinstance(name, str) and name and Path(name).name == name and name != sp.name:
                # a survey renamed since is derived under its recorded name, which the statement and report show
                source = Path(td) / name
                shutil.copyfile(sp, source)
            derived = assess_file(source, options, isolated=isolated)
    except TypeError as e:  # an option this treecalc does not know (a statement of another version)
        v.differences.append(f"options: this treecalc cannot apply the recorded options ({e})")
        return v
    except ValueError as e:
        if v.differences:  # e.g. a changed survey this treecalc refuses: the change is the finding
            v.differences.append(f"the assessment could not be derived again: {e}")
            return v
        raise StatementError(f"the assessment of {sp} could not be derived again: {e}") from None
    v.differences.extend(_file_differences(fp))
    now = derived.fingerprint or {}
    # the files read are those the process has read so far (a module loaded for another command reads its
    # chapter): one read now and not recorded then is named only where the result differs, as a reason
    new_files = sorted(set(now.get("data_files") or {}) - set(fp.get("data_files") or {}))
    if doc is not None:
        v.differences.extend(_json_differences(doc, derived))
    else:
        # written again with the recorded fingerprint: what is compared is the figures (the fingerprint is apart)
        derived.fingerprint = fp
        if Path(statement).suffix.lower() == ".xlsx":
            v.differences.extend(_xlsx_differences(Path(statement), derived))
        else:
            v.differences.extend(_pdf_differences(Path(statement), derived, name if isinstance(name, str) else None))
    if now.get("result_sha256") != fp["result_sha256"]:
        if new_files:
            v.differences.append("data files read now that the statement does not record: " + ", ".join(new_files))
        v.differences.append(
            "result changed: the assessment derived again is not the one recorded (its SHA-256 differs)"
            + (
                ""
                if v.differences
                else "; every input matches: the fingerprint was edited, or the result does not reproduce"
            )
        )
    v.checked = [
        f"survey {given['file']} SHA-256 {given['sha256']}",
        f"{len(fp.get('data_files') or {})} data files",
        f"treecalc {__version__}",
        f"result SHA-256 {now.get('result_sha256')}",
    ]
    return v
