"""A statement anyone can verify: the fingerprint an assessment carries, and its check.

The fingerprint says what an assessment was derived from, so that anyone holding the survey can derive it
again and see whether the statement follows from it:

- ``survey``: the survey file's name, size and SHA-256 (of its bytes, as given);
- ``data_files``: the SHA-256 of each file of the data folder the assessment may read (the species tables, the
  shared readings, its jurisdiction's law and readings; the folder ``TREECALC_DATA`` names, else treecalc's own),
  by its path in the folder;
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
import datetime as dt
import decimal
import hashlib
import io
import json
import math
import re
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from treecalc.assessment import assess
from treecalc.files import read_limited
from treecalc.ingest.errors import SurveyError
from treecalc.ingest.limits import Limits
from treecalc.ingest.sources.extent import preflight
from treecalc.ingest.sources.zipguard import check_dimensions, check_zip, xlsx_sheet_parts
from treecalc.ingest.zone import read_survey_in_zone
from treecalc.law import registry
from treecalc.messages import quoted, render, words_of
from treecalc.reference.table_cache import file_sha256  # once per file and process: the tables' cache hashed them
from treecalc.report.carriers import ATTACHMENT_NAME, JSON_ITEM, SHEET_NAME
from treecalc.report.json import assessment_json
from treecalc.report.json_text import assessment_json_chunks, text_pieces
from treecalc.results import plain
from treecalc.rules.croton_on_hudson.schedule import not_in_force
from treecalc.schema import __version__

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


#: The kinds of file an assessment reads from the data folder (a copy may hold notes and backups beside them).
_DATA_SUFFIXES = (".toml", ".csv")


def _data_paths(jurisdiction: str) -> dict[str, Path]:
    """Each file of the data folder an assessment under ``jurisdiction`` may read, by its path there:
    the species tables (every zone's: a name is looked up across the zones), the readings shared by every law
    (``readings/site_facts.toml``), and the jurisdiction's own law folder and readings. Listed from the folder,
    not from what this process happened to read before, so that a statement's files are the same in a fresh
    process and in a server that has assessed other towns, and another town's amended law never stops a
    statement from verifying."""
    from treecalc.reference.datafolder import DATA_DIR  # late-bound: DATA_DIR looked up when called

    towns = {r.key for r in registry.records()}
    record = registry.by_key(jurisdiction) if jurisdiction in towns else None
    own = record.data_dir if record is not None and record.data_dir is not None else DATA_DIR
    files: dict[str, Path] = {}
    for base, top in ((DATA_DIR, "species"), (DATA_DIR, "readings"), (own, "readings"), (own, f"law/{jurisdiction}")):
        for p in sorted((base / top).rglob("*")) if (base / top).is_dir() else ():
            rel = p.relative_to(base).as_posix()
            if not p.is_file() or p.suffix not in _DATA_SUFFIXES:
                continue
            if top == "readings" and p.stem in towns and p.stem != jurisdiction:
                continue  # another town's readings
            files[rel] = p
    return dict(sorted(files.items()))


def result_sha256(assessment: Any) -> str:
    """SHA-256 of the assessment's JSON text (as ``treecalc assess --json`` prints it) without the fingerprint."""
    held = getattr(assessment, "fingerprint", None)
    assessment.fingerprint = None
    try:
        return text_sha256(assessment_json_chunks(assessment, default=json_default))
    finally:
        assessment.fingerprint = held


def text_sha256(chunks: Iterable[str], sink: BinaryIO | None = None) -> str:
    """SHA-256 of the UTF-8 of the text ``"".join(chunks)``, encoded a piece at a time (the text of a big
    survey is never joined nor encoded whole); the UTF-8 is also written to ``sink`` when given."""
    h = hashlib.sha256()
    for piece in text_pieces(chunks):
        data = piece.encode("utf-8")
        h.update(data)
        if sink is not None:
            sink.write(data)
    return h.hexdigest()


def _plain_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as JSON values (a fee schedule's path as text), so that they can be given back to assess()."""
    return json.loads(json.dumps(dict(options), default=lambda o: str(o) if isinstance(o, Path) else json_default(o)))


def make_fingerprint(
    assessment: Any,
    survey: bytes | str | Path,
    options: Mapping[str, Any],
    survey_name: str | None = None,
    *,
    result_sha: str | None = None,
) -> dict[str, Any]:
    """The fingerprint of ``assessment``, derived from ``survey`` (its path or bytes) with ``options`` (the keyword
    arguments of :func:`treecalc.assessment.assess`, and under ``"read"`` those of the reading, :data:`READ_OPTIONS`).
    ``result_sha`` is :func:`result_sha256` of it when the caller has it already (it wrote the JSON text)."""
    opts = _plain_options(options)
    paths = _data_paths(assessment.jurisdiction)
    fee = opts.get("fee_schedule")
    fee_file = None
    # a schedule among the files listed is hashed with them; any other (given apart, or another town's) on its own
    if isinstance(fee, str) and fee and Path(fee).resolve() not in {p.resolve() for p in paths.values()}:
        fee_file = {"path": fee, "sha256": _sha256_file(Path(fee))}
    sha = result_sha or result_sha256(assessment)
    files = {rel: file_sha256(p) for rel, p in paths.items()}
    return {
        "algorithm": "sha256",
        "treecalc_version": __version__,
        "survey": _survey_entry(survey, survey_name),
        "data_files": files,
        # the data folder by what it holds, not where it is: its files' paths in it and their SHA-256s, hashed
        "data_folder_sha256": hashlib.sha256(json.dumps(files, sort_keys=True).encode("utf-8")).hexdigest(),
        "fee_schedule_file": fee_file,
        "options": opts,
        "result_sha256": sha,
    }


def attach(
    assessment: Any,
    survey: bytes | str | Path,
    options: Mapping[str, Any],
    survey_name: str | None = None,
    *,
    result_sha: str | None = None,
) -> dict[str, Any]:
    """Compute the fingerprint of ``assessment`` and keep it on it: its JSON, statement and PDF then carry it
    (``result_sha``: as :func:`make_fingerprint`)."""
    fp = make_fingerprint(assessment, survey, options, survey_name, result_sha=result_sha)
    assessment.fingerprint = fp
    return fp


def assess_file(path: str | Path, options: Mapping[str, Any], *, isolated: bool = False) -> Any:
    """Read the survey at ``path`` and assess it with ``options`` (as a fingerprint records them), fingerprinted."""
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
    for rel, sha in fp["data_files"].items():
        # a path within the data folder, as make_fingerprint writes it: never one leading out of it
        parts = str(rel).split("/")
        if not isinstance(sha, str) or str(rel).startswith("/") or "\\" in str(rel) or ".." in parts or "" in parts:
            raise StatementError(
                f"{where}: the fingerprint names a data file {_shown(rel)} outside the data folder: not a "
                "statement treecalc wrote (verify reads only the data folder's own files)"
            )
    read = fp["options"].get("read") or {}
    column_map = read.get("column_map") if isinstance(read, dict) else None
    if column_map is not None:
        # a map names the survey's columns, so it has no more entries than a survey may have columns
        most = Limits.from_env().columns
        n = len(column_map) if isinstance(column_map, (dict, list, str)) else 0
        if n > most:
            raise StatementError(
                f"{where}: the fingerprint's column map has {n:,} entries, more than the {most:,} columns a survey "
                "may have (limit columns): not a map treecalc recorded, and verify does not apply it"
            )
    return fp


#: The deepest a statement's JSON nests (a statement is 5 levels deep, its fingerprint 4): deeper is no statement
#: treecalc wrote, and Python's parser and comparisons take a call per level (100,000 levels overflow its stack).
MAX_DEPTH = 32


def _too_deep(doc: Any) -> bool:
    """Whether ``doc`` nests deeper than :data:`MAX_DEPTH` (walked with a stack: no recursion to overflow)."""
    stack = [(doc, 1)]
    while stack:
        x, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(x, dict):
            stack.extend((v, depth + 1) for v in x.values())
        elif isinstance(x, list):
            stack.extend((v, depth + 1) for v in x)
    return False


def _loads(text: Any, where: str, what: str) -> Any:
    """JSON text parsed, refused as ``what`` when it is not JSON or nests deeper than a statement can."""
    deep = StatementError(f"{where}: {what} nests deeper than {MAX_DEPTH} levels: not a statement treecalc wrote")
    try:
        doc = json.loads(text.decode("utf-8") if isinstance(text, bytes) else str(text))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StatementError(f"{where}: {what} is not valid JSON ({e})") from None
    except RecursionError:
        raise deep from None
    if _too_deep(doc):
        raise deep
    return doc


def _from_json(raw: bytes, where: str) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        doc = _loads(raw, where, "the JSON")
    except StatementError as e:
        raise StatementError(str(e).replace("the JSON is not valid JSON", "not a JSON statement")) from None
    if not isinstance(doc, dict) or not doc.get("fingerprint"):
        raise StatementError(f"{where}: no fingerprint in this JSON (write it with treecalc assess --json)")
    if "per_tree" not in doc and "rows_left_out" in doc:  # a layer's summary: not the statement it resembles
        raise StatementError(f"{where}: {_LAYER}")
    return _checked(doc["fingerprint"], where), doc


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


def _from_xlsx(raw: bytes, where: str) -> tuple[dict[str, Any], dict[str, list[tuple[Any, ...]]]]:
    """The fingerprint of an Excel statement and the rows of its other sheets, once the workbook passed the checks
    a survey workbook passes (its zip container, the sheets' extent and strings: :mod:`treecalc.ingest.limits`)."""
    import openpyxl  # start-up: only when needed, not by every assess (openpyxl)

    try:
        zf = check_zip(raw, where)
        parts = xlsx_sheet_parts(zf, where)
        lim = Limits.from_env()
        preflight(zf, "xlsx", parts, where, lim, check_dimensions(zf, parts, where, lim))
        wb = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (SurveyError, zipfile.BadZipFile, KeyError, OSError, ValueError) as e:
        raise StatementError(f"{where}: not an Excel statement ({type(e).__name__}: {e})") from None
    try:
        if SHEET_NAME not in wb.sheetnames:
            raise StatementError(f"{where}: no {SHEET_NAME!r} sheet (a statement written before fingerprints?)")
        fp = None
        for row in wb[SHEET_NAME].iter_rows(values_only=True):
            if row and row[0] == JSON_ITEM and len(row) > 1:
                fp = _checked(_loads(row[1], where, "the fingerprint"), where)
                break
        if fp is None:
            raise StatementError(f"{where}: the {SHEET_NAME!r} sheet has no {JSON_ITEM!r} row")
        return fp, {name: _rows(wb[name]) for name in wb.sheetnames if name != SHEET_NAME}
    finally:
        wb.close()


def _pdf_text(pdf: Any) -> list[str]:
    from pypdf import PdfReader  # start-up: only when needed, not by every assess (pypdf)

    # the date a report was prepared is the day it was written, not a figure of the assessment
    return [re.sub(r"Prepared \d{4}-\d{2}-\d{2}", "Prepared", p.extract_text() or "") for p in PdfReader(pdf).pages]


def _from_pdf(raw: bytes, where: str) -> tuple[dict[str, Any], list[str]]:
    """The fingerprint attached to a PDF report and the text of its pages."""
    from pypdf import PdfReader  # start-up: only when needed, not by every assess (pypdf)
    from pypdf.errors import PyPdfError  # start-up: only when needed, not by every assess (pypdf)

    try:
        files = PdfReader(io.BytesIO(raw)).attachments
        content = files.get(ATTACHMENT_NAME)
    except (PyPdfError, OSError, ValueError, KeyError, RecursionError) as e:
        raise StatementError(f"{where}: not a readable PDF ({type(e).__name__}: {e})") from None
    if not content:
        raise StatementError(f"{where}: no {ATTACHMENT_NAME} attached (a report written before fingerprints?)")
    fp = _checked(_loads(content[0], where, "the fingerprint"), where)
    try:
        return fp, _pdf_text(io.BytesIO(raw))
    except (PyPdfError, OSError, ValueError, KeyError, RecursionError) as e:
        raise StatementError(f"{where}: not a readable PDF ({type(e).__name__}: {e})") from None


#: Why a GIS output is refused: its summary holds the fingerprint, but only the figures of the assessment's JSON
#: (none of its per-tree rows), so comparing it with the JSON derived again would call an untouched file tampered.
_LAYER = (
    "a GIS layer or its summary (treecalc assess --out .gpkg/.geojson/.fgb) is not a statement verify can check: "
    "give the JSON (treecalc assess --json), the Excel statement (--out .xlsx) or the PDF report (--pdf) of the survey"
)


def read_statement(statement: str | Path) -> tuple[dict[str, Any], dict[str, Any] | None, Any]:
    """The fingerprint a statement carries, the whole of a JSON statement (else None), and what the statement shows
    to be compared: the rows of an Excel statement's sheets (by sheet), the text of a PDF's pages, None for JSON.

    The file is read within bounds, as a survey is: its size (:func:`treecalc.files.read_limited`), an Excel
    statement's zip container and sheets (:func:`treecalc.ingest.sources.extent.preflight`), the nesting of its
    JSON (:data:`MAX_DEPTH`). :func:`verify` runs it in the bounded child (:mod:`treecalc.ingest.isolated`)."""
    p = Path(statement)
    if not p.is_file():
        raise _not_a_file("statement", p)
    suffix = p.suffix.lower()
    if suffix in (".gpkg", ".geojson", ".fgb"):
        raise StatementError(f"statement {p}: {_LAYER}")
    if suffix not in (".json", ".xlsx", ".pdf"):
        raise StatementError(
            f"statement {p}: give the JSON (.json), the Excel statement (.xlsx) or the PDF report (.pdf)"
        )
    raw = read_limited(p, "statement")
    where = str(p)
    if suffix == ".json":
        fp, doc = _from_json(raw, where)
        return fp, doc, None
    if suffix == ".xlsx":
        fp, sheets = _from_xlsx(raw, where)
        return fp, None, sheets
    fp, pages = _from_pdf(raw, where)
    return fp, None, pages


def read_fingerprint(statement: str | Path) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The fingerprint a statement carries, and for a JSON statement the whole of it (else None)."""
    fp, doc, _ = read_statement(statement)
    return fp, doc


def _read_isolated(statement: str | Path) -> tuple[dict[str, Any], dict[str, Any] | None, Any]:
    """:func:`read_statement` in the bounded child: a statement made to exhaust memory or time costs a refusal
    naming it, never the verifier."""
    from treecalc.ingest import isolated  # start-up: only when needed, not by every assess

    try:
        return isolated.run(read_statement, str(statement), what=f"statement {Path(statement).name}")
    except StatementError:
        raise
    except ValueError as e:  # the child's limits (memory, time) or a bound of the file's reading
        raise StatementError(str(e)) from None


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
    #: the money options recorded that are not the Village's fee schedule in force (a what-if, not what is owed)
    money: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return not self.differences


def _kind(rel: str) -> str:
    top = rel.split("/", 1)[0]
    return {"law": "law file", "species": "species file"}.get(top, "data file")


def _data_folder() -> dict[str, Path]:
    """The files of this verifier's data folder by their path in it: a statement's ``data_files`` are looked up
    here, never opened by the names it gives (a forged one named ``../../../etc/passwd`` or an 8 GB file)."""
    from treecalc.reference.datafolder import DATA_DIR  # late-bound: DATA_DIR looked up when called

    files = {p.relative_to(DATA_DIR).as_posix(): p for p in sorted(DATA_DIR.rglob("*")) if p.is_file()}
    # a town held in a folder of its own (``TREECALC_TOWNS``): its law and readings, where its assessment read them
    for r in registry.records():
        if r.data_dir is None:
            continue
        for top in (r.data_dir / "law" / r.key, r.data_dir / "readings"):
            for p in sorted(top.rglob("*")) if top.is_dir() else ():
                rel = p.relative_to(r.data_dir).as_posix()
                if p.is_file() and (top.name != "readings" or p.stem == r.key):
                    files.setdefault(rel, p)
    return files


def _shown(text: Any, most: int = 80) -> str:
    """A name a statement gives, within bounds in a message (:func:`treecalc.messages.quoted`, without its quotes
    when whole: a file name reads as itself)."""
    s = str(text)
    return s if len(s) <= most else quoted(s, most)


def _digest(value: Any) -> str:
    """A SHA-256 a statement records, as a message shows it: its first 12 hex digits, plainly, as the given file's
    is shown beside it (a hash is no one's words to quote); a value that is no SHA-256 (a forged statement) is said
    to be none, quoted within bounds."""
    if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value):
        return f"{value[:12]}…"
    return f"(not a SHA-256: {quoted(value, 20)})"


def _not_a_file(what: str, p: Path) -> StatementError:
    """The error for a statement or survey given that is no file: a folder is said to be one."""
    if p.is_dir():
        return StatementError(f"{what} {p}: a folder, not a file; give the {what} file itself")
    return StatementError(f"{what} {p}: no such file")


def _file_differences(fp: Mapping[str, Any], fee_schedule: Path | None) -> list[str]:
    from treecalc.reference.datafolder import DATA_DIR  # late-bound: DATA_DIR looked up when called

    out = []
    folder = _data_folder()
    missing = []
    for rel, want in sorted((fp.get("data_files") or {}).items()):
        p = folder.get(rel)
        if p is None:
            missing.append(rel)
        elif _sha256_file(p) != want:
            out.append(f"{_kind(rel)} changed: {rel} (in {DATA_DIR}) is not the one the statement was derived from")
    for rel in missing[:5]:
        out.append(f"{_kind(rel)} missing: {_shown(rel)} is not in the data folder {DATA_DIR}")
    if len(missing) > 5:
        out.append(f"and {len(missing) - 5:,} more data files the statement records are not in the data folder")
    fee = fp.get("fee_schedule_file")
    if fee and fee_schedule is not None and hashlib.sha256(_fee_bytes(fee_schedule)).hexdigest() != fee.get("sha256"):
        out.append(f"fee schedule changed: {fee_schedule}")
    return out


def _fee_bytes(path: Path) -> bytes:
    """A fee schedule's bytes, read within the bound its reading has (a schedule is a few lines of TOML)."""
    return read_limited(path, "fee schedule", 1_000_000)


def _fee_schedule(fp: Mapping[str, Any], statement: str | Path, given: str | Path | None) -> Path | None:
    """The fee schedule the assessment is derived again with: the file given to the verifier when the statement
    records one given apart (``fee_schedule_file``), never a path the statement names (a forged one would make
    the verifier read any file); a schedule of the data folder only from this verifier's data folder."""
    from treecalc.reference.datafolder import DATA_DIR  # late-bound: DATA_DIR looked up when called

    recorded = fp.get("fee_schedule_file")
    named = fp["options"].get("fee_schedule")
    if recorded:
        if not isinstance(recorded, dict) or not isinstance(recorded.get("sha256"), str):
            raise StatementError(f"{statement}: the fingerprint is malformed (fee_schedule_file must be a table)")
        if given is None:
            raise StatementError(
                f"{statement}: the statement was derived with a fee schedule given apart "
                f"({_shown(Path(str(recorded.get('path'))).name)}); give that file: --fee-schedule FILE "
                "(verify reads only the files it is given)"
            )
        p = Path(given)
        try:
            _fee_bytes(p)  # its type and size before the assessment reads it
        except ValueError as e:
            raise StatementError(str(e)) from None
        return p
    if given is not None:
        raise StatementError(
            f"{statement}: the statement records no fee schedule given apart; verify it without --fee-schedule"
        )
    if isinstance(named, str) and named:
        root = DATA_DIR.resolve()
        if not Path(named).resolve().is_relative_to(root):
            raise StatementError(
                f"{statement}: the fingerprint names a fee schedule {_shown(named)} outside the data folder "
                f"{DATA_DIR} without recording it: verify reads only the files it is given"
            )
    elif named is not None and not isinstance(named, dict):
        raise StatementError(f"{statement}: the fingerprint is malformed (its fee_schedule is neither file nor table)")
    return None


def _json_differences(doc: Mapping[str, Any], derived: Any) -> list[str]:
    """The keys of a JSON statement whose values are not those derived again (the statement was edited)."""
    again = json.loads(json.dumps(assessment_json(derived), default=json_default, ensure_ascii=False))
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


# A spreadsheet keeps a number to 15 significant digits: a statement opened and saved again (Excel, LibreOffice,
# openpyxl) may write 202.11666666666667 as 202.116666666667. Numbers are compared at that precision, text exactly.
_SHEET_REL_TOL = 1e-14


def _same_cell(x: Any, y: Any) -> bool:
    numbers = (int, float)
    if isinstance(x, numbers) and isinstance(y, numbers) and not isinstance(x, bool) and not isinstance(y, bool):
        return math.isclose(x, y, rel_tol=_SHEET_REL_TOL, abs_tol=1e-12)
    return bool(x == y)


def _same_row(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(_same_cell(x, y) for x, y in zip(a, b))


def _xlsx_differences(mine: Mapping[str, list[tuple[Any, ...]]], derived: Any) -> list[str]:
    """The cells of an Excel statement (``mine``: its sheets' rows, read by :func:`read_statement`) that the
    statement written again from the derived assessment does not hold (the first of each sheet that differs); the
    Fingerprint sheet is checked apart."""
    import openpyxl  # start-up: only when needed, not by every assess (openpyxl)
    from openpyxl.utils import get_column_letter  # start-up: only when needed, not by every assess (openpyxl)

    # start-up: only when needed, not by every assess (xlsxwriter)
    from treecalc.report.statement import statement_bytes

    again = openpyxl.load_workbook(io.BytesIO(statement_bytes(derived)), read_only=True, data_only=True)
    found = []
    try:
        for name in dict.fromkeys([*again.sheetnames, *mine]):
            if name == SHEET_NAME:
                continue
            if name not in mine or name not in again.sheetnames:
                found.append(f"sheet {name!r} " + ("missing" if name not in mine else "added"))
                continue
            a, b = mine[name], _rows(again[name])
            for i in range(max(len(a), len(b))):
                ra, rb = (a[i] if i < len(a) else ()), (b[i] if i < len(b) else ())
                if not _same_row(ra, rb):
                    j = next(
                        (j for j in range(max(len(ra), len(rb))) if not _same_row(ra[j : j + 1], rb[j : j + 1])), 0
                    )
                    found.append(f"{name}!{get_column_letter(j + 1)}{i + 1}")
                    break
    finally:
        again.close()
    return ["the statement's cells differ from the statement written again: " + ", ".join(found)] if found else []


def _pdf_differences(a: list[str], derived: Any, survey_name: str | None) -> list[str]:
    """The pages of a PDF report (``a``: their text, read by :func:`read_statement`) whose text the report written
    again from the derived assessment does not have."""
    from treecalc.report.content import report_data  # start-up: only when needed, not by every assess
    from treecalc.report.pdf import report_pdf  # start-up: only when needed, not by every assess (fpdf, defusedxml)

    report = (derived.fingerprint or {}).get("report") or {}

    words: Any = render  # written by the library: its keywords as they are
    if report.get("words") in ("app", "cli"):  # written by a presenter: in its words (the app's controls, the flags)
        words = words_of(report["words"])
        if words is None:
            return [f"the report was written by the {report['words']} with its own words; it is not installed here"]
    kind = report.get("kind") or "permit"
    again = report_pdf(report_data(derived, survey_name), kind=kind, words=words)
    b = _pdf_text(io.BytesIO(again))
    pages = [str(i + 1) for i in range(max(len(a), len(b))) if a[i : i + 1] != b[i : i + 1]]
    return ["the report's text differs from the report written again on page " + ", ".join(pages)] if pages else []


def money_options(
    options: Mapping[str, Any], in_force: Callable[[Any], Mapping[str, Any] | None] | None = None
) -> list[str]:
    """The money options of a statement (a fee schedule, a fee per tree) that charge otherwise than the Village's
    schedule in force: the one it records (``fee_schedule_in_force``), else ``in_force`` of its date (the
    register's), else the data folder's on its date. A fee schedule file is the one given to the verifier (the
    options as :func:`verify` derives with them), never a path the statement names."""
    on = options.get("on")
    try:
        day = dt.date.fromisoformat(str(on)) if on else None
    except ValueError:
        day = None
    recorded = options.get("fee_schedule_in_force")
    village = recorded if isinstance(recorded, Mapping) else (in_force(day) if in_force and day else None)
    try:
        return not_in_force(options.get("fee_schedule"), options.get("fee_per_tree_usd"), village, day)
    except (TypeError, ValueError) as e:  # a forged schedule: said, not a traceback
        return [f"the money options recorded cannot be compared with the Village's fee schedule in force ({e})"]


def verify(
    statement: str | Path,
    survey: str | Path,
    *,
    isolated: bool = False,
    fee_schedule: str | Path | None = None,
    in_force: Callable[[Any], Mapping[str, Any] | None] | None = None,
) -> Verdict:
    """Derive the assessment of ``statement`` again from ``survey`` with the options it records and compare.

    Every difference is named: the survey changed, a law, species or data file changed (which one), treecalc's
    version changed, the options; and the result, when the assessment derived again differs from the recorded one.
    The files hashed and read are the survey, ``fee_schedule`` (a schedule given apart, which the statement records
    by its hash) and the data folder's own files: never a path the statement names. ``isolated``: the statement
    and the survey are read in the bounded child (:mod:`treecalc.ingest.isolated`), as the command line does.
    Raises :class:`StatementError` (a ValueError) for a statement or survey that cannot be checked."""
    fp, doc, content = _read_isolated(statement) if isolated else read_statement(statement)
    sp = Path(survey)
    if not sp.is_file():
        raise _not_a_file("survey", sp)
    v = Verdict(str(statement), str(survey))
    recorded = fp["survey"] or {}
    given = _survey_entry(sp, None)
    if given["sha256"] != recorded.get("sha256"):
        v.differences.append(
            f"survey changed: {sp.name} is not the survey the statement was derived from "
            f"({_shown(recorded.get('file'))}, {_shown(recorded.get('bytes'))} bytes, SHA-256 {_digest(recorded.get('sha256'))}; "
            f"given: {given['bytes']} bytes, SHA-256 {_digest(given['sha256'])})"
        )
    if fp["treecalc_version"] != __version__:
        v.differences.append(
            f"version changed: the statement was derived with treecalc {_shown(fp['treecalc_version'])}, this is "
            f"{__version__}"
        )
    options = fp["options"]
    if not isinstance(options, dict):
        raise StatementError(f"{statement}: the fingerprint's options are not a table of keyword arguments")
    fee = _fee_schedule(fp, statement, fee_schedule)
    if fee is not None:
        options = {**options, "fee_schedule": str(fee)}
    v.money = money_options(options, in_force)
    name = recorded.get("file")
    if not (isinstance(name, str) and 0 < len(name) <= 255 and name not in (".", "..") and "\0" not in name):
        name = None  # no file name (a forged one): derived under the survey's own
    source = sp
    try:
        with tempfile.TemporaryDirectory(prefix="treecalc-verify-") as td:
            if isinstance(name, str) and name and Path(name).name == name and name != sp.name:
                # a survey renamed since is derived under its recorded name, which the statement and report show
                source = Path(td) / name
                shutil.copyfile(sp, source)
            derived = assess_file(source, options, isolated=isolated)
    except TypeError as e:  # an option this treecalc does not know (a statement of another version)
        v.differences.append(f"options: this treecalc cannot apply the recorded options ({e})")
        return v
    except ValueError as e:
        why = str(e)
        if source != sp:  # read under the recorded name: the refusal names the file the user gave
            why = why.replace(str(source), str(sp)).replace(source.name, sp.name)
        if v.differences:  # e.g. a changed survey this treecalc refuses: the change is the finding
            v.differences.append(f"the assessment could not be derived again: {why}")
            return v
        raise StatementError(f"the assessment of {sp} could not be derived again: {why}") from None
    v.differences.extend(_file_differences(fp, fee))
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
            v.differences.extend(_xlsx_differences(content, derived))
        else:
            v.differences.extend(_pdf_differences(content, derived, name))
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
