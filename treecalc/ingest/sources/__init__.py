"""Opening a survey file safely and reading its cells.

Workbooks (xlsx, xlsm, xlsb, xls, ods) are read with python-calamine, which
never evaluates formulas and returns the values Excel cached. Before calamine
sees a zip-based workbook, the container is checked without decompressing it
whole: the file size, the number of members, the total uncompressed size and
each member's compression ratio (zip bombs), every XML part's prolog through
defusedxml with DTDs and entities forbidden (billion laughs, external
entities), and each worksheet's declared ``<dimension>``. Bytes that do not
match the extension are refused with what the file looks like.

Text files (csv, tsv, txt) are decoded as UTF-8 (with or without BOM),
UTF-16 (with BOM) or Windows-1252, falling back to Latin-1; the delimiter is
the one of ``,`` ``;`` tab ``|`` that splits the most lines into the same
number of fields.

The package holds one module per concern, each re-exported here so that callers import from
``treecalc.ingest.sources``: :mod:`.filetype` (the bytes, sniffing), :mod:`.zipguard` (the zip
container, XML prologs, declared dimensions), :mod:`.extent` (the pre-flight: true extents and shared
strings), :mod:`.cells` (formula and error cells), :mod:`.workbook` (:class:`Source`, calamine) and
:mod:`.text` (decoding, delimiter, CSV rows). The bounds live in :mod:`treecalc.ingest.limits`.
"""

from __future__ import annotations

import os
from pathlib import Path

from treecalc.ingest.errors import SurveyError
from treecalc.ingest.limits import DEFAULT as DEFAULT_LIMITS
from treecalc.ingest.limits import MAX_MEMBERS, MAX_RATIO, MAX_UNCOMPRESSED, Limits
from treecalc.ingest.sources.cells import formula_cells_without_value, special_cells
from treecalc.ingest.sources.extent import (
    ods_extent,
    preflight,
    shared_strings_extent,
    vouching_rectangle,
    within_rectangle,
    xlsx_extent,
)
from treecalc.ingest.sources.filetype import (
    EXTENSIONS,
    GIS_KINDS,
    LOOKS,
    _describe_ext,
    _encrypted,
    read_bytes,
    sniff,
)
from treecalc.ingest.sources.gis import (
    GIS_EXTENSIONS,
    GIS_LOOKS,
    GIS_READ,
    gis_kind,
    list_layers,
    open_gis,
    shapefile_parts,
)
from treecalc.ingest.sources.text import (
    MAX_BROKEN_QUOTES,
    _open_text,
    decode_text,
    mixed_lines,
    read_csv_rows,
    sniff_delimiter,
)
from treecalc.ingest.sources.workbook import Source, open_workbook
from treecalc.ingest.sources.zipguard import (
    check_dimensions,
    check_zip,
    col_index,
    parse_ref,
    xlsx_sheet_parts,
)

__all__ = [
    "EXTENSIONS",
    "GIS_EXTENSIONS",
    "GIS_LOOKS",
    "LOOKS",
    "MAX_BROKEN_QUOTES",
    "MAX_MEMBERS",
    "MAX_RATIO",
    "MAX_UNCOMPRESSED",
    "Source",
    "check_dimensions",
    "check_zip",
    "col_index",
    "decode_text",
    "formula_cells_without_value",
    "gis_kind",
    "list_layers",
    "mixed_lines",
    "ods_extent",
    "open_source",
    "parse_ref",
    "preflight",
    "read_bytes",
    "read_csv_rows",
    "shared_strings_extent",
    "sniff",
    "sniff_delimiter",
    "special_cells",
    "vouching_rectangle",
    "within_rectangle",
    "xlsx_extent",
    "xlsx_sheet_parts",
]


#: What the reader takes, as a refusal says it.
READS = (
    "treecalc reads spreadsheets (xlsx, xlsm, xlsb, xls, ods, csv, tsv, txt) with a header row and a row per tree, "
    "and GIS layers of points (GeoPackage, Shapefile, GeoJSON, FlatGeobuf, KML)"
)


def _export_hint(kind: str) -> str:
    """How to make a survey of what the file holds."""
    if kind in GIS_KINDS:
        return (
            ", not this kind of GIS file: save the layer as a GeoPackage, or export its attribute table as CSV or "
            "xlsx with each tree's coordinates "
            "(in QGIS: Export > Save Features As, format CSV, GEOMETRY=AS_XY or AS_WKT; in ArcGIS: Table To Excel "
            "after Add XY Coordinates) and give that"
        )
    if kind == "json":
        return ": save the records as CSV or xlsx, one row per tree"
    return ""


def open_source(
    path_or_buffer,
    *,
    filename: str | None = None,
    max_bytes: int = 50_000_000,
    limits: Limits | None = None,
    layer: str | None = None,
) -> Source:
    """The survey file opened: a workbook, a text file, or a GIS layer (``layer`` chooses it: :mod:`.gis`)."""
    lim = limits or DEFAULT_LIMITS
    data, name = read_bytes(path_or_buffer, filename, max_bytes)
    ext = Path(name).suffix.lower()
    kind = sniff(data)
    expected = EXTENSIONS.get(ext)
    if kind == "empty":
        raise SurveyError(f"{name} is empty")
    # GIS layers (GeoPackage, Shapefile, GeoJSON, FlatGeobuf, KML): read before the refusal of other GIS files
    gis = GIS_READ.get(kind)
    if gis is not None:
        if gis == "shp" and ext == ".shp":
            if not isinstance(path_or_buffer, (str, os.PathLike)):
                raise SurveyError(
                    f"{name} is a Shapefile's .shp alone; give a .zip holding its .shp, .shx, .dbf and .prj"
                )
            data = shapefile_parts(path_or_buffer, max_bytes)
        return open_gis(data, name, gis, lim, layer, max_bytes)
    if layer is not None:
        raise SurveyError(
            f"{name} is not a GIS file (looks like {LOOKS.get(kind, kind)}): ‹layer› {layer!r} chooses a GIS "
            "file's layer, not a workbook's sheet"
        )
    if _encrypted(data):
        raise SurveyError(
            f"{name} is password-protected (encrypted); open it in Excel and save a copy without "
            "the password (File > Info > Protect Workbook > Encrypt with Password, clear it)"
        )
    if kind in GIS_KINDS or kind == "json":  # whatever the name says: a GIS layer or records, no spreadsheet
        raise SurveyError(f"{name}: unsupported file: this looks like {LOOKS[kind]}; {READS}{_export_hint(kind)}")
    if expected is not None and kind != expected:
        hint = ""
        if kind in ("xlsx", "xls", "ods", "xlsb", "text"):
            good = {"xlsx": ".xlsx", "xls": ".xls", "ods": ".ods", "xlsb": ".xlsb", "text": ".csv"}[kind]
            hint = f"; rename it to {Path(name).stem}{good} if that is what it is"
        elif kind == "html":
            hint = "; open it in a spreadsheet program and save it as .xlsx"
        raise SurveyError(f"{name} is not {_describe_ext(ext)} (looks like {LOOKS.get(kind, kind)}){hint}")
    if expected is None and kind not in ("xlsx", "xlsb", "xls", "ods", "text"):
        raise SurveyError(f"{name}: unsupported file: this looks like {LOOKS.get(kind, kind)}; {READS}")
    if kind == "text":
        fmt = ext.lstrip(".") if expected == "text" else "csv"
        return _open_text(data, name, fmt, lim)
    fmt = ext.lstrip(".") if expected else kind
    fmt = {"xltx": "xlsx", "xltm": "xlsm"}.get(fmt, fmt)
    return open_workbook(data, name, kind, fmt, lim)
