"""What a survey file is: its bytes (bounded), what they look like, and what its extension promises."""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from pathlib import Path

from treecalc.ingest.errors import SurveyError

EXTENSIONS = {
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".xltx": "xlsx",
    ".xltm": "xlsx",
    ".xlsb": "xlsb",
    ".xls": "xls",
    ".ods": "ods",
    ".csv": "text",
    ".tsv": "text",
    ".txt": "text",
    ".tab": "text",
}
LOOKS = {
    "xlsx": "an xlsx workbook",
    "xlsb": "an xlsb (binary) workbook",
    "xls": "an xls (Excel 97-2003) workbook",
    "ods": "an OpenDocument spreadsheet",
    "text": "a text (CSV) file",
    "pdf": "a PDF document",
    "html": "an HTML page",
    "xml": "an XML file (perhaps an Excel 2003 XML spreadsheet)",
    "docx": "a Word document",
    "pptx": "a PowerPoint document",
    "zip": "a zip archive",
    "image": "an image",
    "ole": "an OLE2 compound file (an older Office document)",
    "binary": "binary data",
    "empty": "an empty file",
    # what a GIS user brings: said by name, until a GIS reader reads them
    "geojson": "a GeoJSON feature collection",
    "topojson": "a TopoJSON file",
    "esrijson": "an Esri JSON feature set",
    "json": "a JSON document",
    "kml": "a KML (Google Earth) file",
    "kmz": "a KMZ (zipped KML) file",
    "gpx": "a GPX (GPS exchange) file",
    "gml": "a GML (Geography Markup Language) file",
    "shp": "a shapefile (its .shp geometry part)",
    "zipped_shp": "a zipped shapefile",
    "zipped_gdb": "a zipped Esri file geodatabase",
    "gpkg": "a GeoPackage",
    "sqlite": "an SQLite database",
    "fgb": "a FlatGeobuf layer",
    "parquet": "a Parquet file",
}
#: The kinds above that are GIS layers: the refusal says how to export a layer's attributes as a survey.
GIS_KINDS = frozenset(
    {"geojson", "topojson", "esrijson", "kml", "kmz", "gpx", "gml", "shp", "zipped_shp", "zipped_gdb", "gpkg", "fgb"}
)


#: what to do with a file over the size limit (the reader's own limit, as :func:`read_bytes` says it)
SIZE_ADVICE = "split the survey or raise the limit with --max-mb N"


def _describe_ext(ext: str) -> str:
    kind = EXTENSIONS.get(ext, "")
    return {"text": f"a {ext.lstrip('.').upper()} text file"}.get(kind, f"an {ext.lstrip('.')} workbook")


def sniff(data: bytes) -> str:
    """What the bytes look like: a key of :data:`LOOKS`."""
    if not data:
        return "empty"
    head = data[:8]
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                names = set(zf.namelist())
                if "xl/workbook.xml" in names:
                    return "xlsx"
                if "xl/workbook.bin" in names:
                    return "xlsb"
                if "mimetype" in names and b"opendocument.spreadsheet" in zf.read("mimetype")[:200]:
                    return "ods"
                if any(n.startswith("word/") for n in names):
                    return "docx"
                if any(n.startswith("ppt/") for n in names):
                    return "pptx"
                low = [n.lower() for n in names]
                if any(n.endswith(".shp") for n in low):
                    return "zipped_shp"
                if any(".gdb/" in n for n in low):
                    return "zipped_gdb"
                if any(n.endswith(".kml") for n in low):
                    return "kmz"
        except (zipfile.BadZipFile, OSError, ValueError):
            return "binary"
        return "zip"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "xls"
    if head.startswith(b"%PDF"):
        return "pdf"
    if data[:16] == b"SQLite format 3\x00":
        # GeoPackage: the application id 'GPKG' (1.2 on) or 'GP1x' at byte 68 of the header
        return "gpkg" if data[68:72] in (b"GPKG", b"GP10", b"GP11") else "sqlite"
    if data[:3] == b"fgb" and data[4:7] == b"fgb":
        return "fgb"
    if data[:4] == b"\x00\x00\x27\x0a":  # a shapefile's file code, 9994 big-endian
        return "shp"
    if data[:4] == b"PAR1":
        return "parquet"
    if head.startswith(b"\x89PNG") or head.startswith(b"\xff\xd8\xff") or head[:4] in (b"GIF8", b"II*\x00", b"MM\x00*"):
        return "image"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:4] == b"\x00\x00\xfe\xff":
        return "text"
    probe = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    # markup opens with a tag, a declaration or a comment; a CSV title cell such as "<" or "<5 in" does not
    if probe[:1] == b"<" and (probe[1:2].isalpha() or probe[1:2] in (b"?", b"!")):
        if b"<html" in probe or b"<!doctype html" in probe or b"<table" in probe:
            return "html"
        if b"<kml" in probe:
            return "kml"
        if b"<gpx" in probe:
            return "gpx"
        if b"<gml:" in probe or b"opengis.net/gml" in probe or b"<wfs:" in probe:
            return "gml"
        return "xml"
    json_kind = _json_kind(data, probe)
    if json_kind:
        return json_kind
    if b"\x00" in data[:8192]:
        return "binary"
    return "text"


# a JSON text opens with an object or an array of values; a CSV never opens so ("{draft}" is no JSON object)
_JSON_OPEN = re.compile(rb'^(?:\x1e\s*)?(?:\{\s*(?:"|\}|$)|\[\s*(?:[{\["\d\-\]]|true|false|null|$))')
_GEOJSON_TYPES = (b'"featurecollection"', b'"feature"', b'"geometrycollection"')


def _json_kind(data: bytes, probe: bytes) -> str:
    """Which JSON the bytes are ("geojson", "topojson", "esrijson", "json"), or "" when they are no JSON text.
    Decided on the opening bytes and, when the text parses, its top-level keys (the bytes are bounded already)."""
    if not _JSON_OPEN.match(probe):
        return ""
    doc = None
    try:
        doc = json.loads(data.decode("utf-8-sig").lstrip("\x1e"))
    except (ValueError, RecursionError):  # GeoJSON text sequences, one feature a line, or a cut file
        pass
    if isinstance(doc, dict):
        kind = str(doc.get("type", "")).lower()
        if kind in ("featurecollection", "feature", "geometrycollection"):
            return "geojson"
        if kind == "topology":
            return "topojson"
        if "features" in doc and ("geometryType" in doc or "spatialReference" in doc):
            return "esrijson"
        return "json"
    if doc is not None:
        return "json"
    compact = re.sub(rb"\s+", b"", probe)
    if any(b'"type":' + t in compact for t in _GEOJSON_TYPES):
        return "geojson"
    return "json" if probe.lstrip(b"\x1e \t\r\n")[:1] == b"{" else ""  # "[1] Trees": a title cell, no JSON


def read_bytes(path_or_buffer, filename: str | None, max_bytes: int) -> tuple[bytes, str]:
    """The file's bytes and its name, refusing more than ``max_bytes``
    (checked on the file system, or after reading at most max_bytes + 1)."""
    limit_mb = f"{max_bytes / 1e6:g} MB"
    if isinstance(path_or_buffer, (str, os.PathLike)):
        p = Path(path_or_buffer)
        name = filename or p.name
        try:
            size = p.stat().st_size
        except FileNotFoundError:
            raise SurveyError(f"{p}: no such file") from None
        except OSError as e:
            raise SurveyError(f"{p}: cannot open ({e.strerror or e})") from None
        if p.is_dir():
            raise SurveyError(f"{p} is a folder, not a survey file")
        if size > max_bytes:
            raise SurveyError(
                f"{name} is {size / 1e6:.1f} MB, over the {limit_mb} limit; split the survey or raise the limit "
                "with --max-mb N"
            )
        with open(p, "rb") as fh:
            data = fh.read(max_bytes + 1)
    elif isinstance(path_or_buffer, (bytes, bytearray, memoryview)):
        data = bytes(path_or_buffer)
        name = filename or "survey"
    elif hasattr(path_or_buffer, "read"):
        name = filename or Path(str(getattr(path_or_buffer, "name", "") or "survey")).name
        data = path_or_buffer.read(max_bytes + 1)
        if isinstance(data, str):
            data = data.encode("utf-8")
    else:
        raise SurveyError(f"cannot read a survey from {type(path_or_buffer).__name__}; give a path or a file object")
    if len(data) > max_bytes:
        raise SurveyError(f"{name} is over the {limit_mb} limit; split the survey or raise the limit with --max-mb N")
    return data, name


def _encrypted(data: bytes) -> bool:
    """An OLE2 compound file holding an ``EncryptedPackage`` stream: what Excel writes for a
    password-protected xlsx/xlsm/xlsb (ECMA-376 agile or standard encryption)."""
    return data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" and "EncryptedPackage".encode("utf-16-le") in data[: 1 << 20]
