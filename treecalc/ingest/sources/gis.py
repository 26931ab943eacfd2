"""GIS layers read as surveys: GeoPackage, Shapefile (zipped, or the .shp beside its parts), GeoJSON, FlatGeobuf
and KML, through pyogrio (GDAL) and geopandas, in the same bounded child as a workbook.

The layer's attribute table becomes the rows of a sheet (its field names the header), read by the same header,
column and species reading as a spreadsheet. Each feature's point gives its tree's ``latitude`` and
``longitude``, reprojected from the layer's own coordinate system to WGS84 by pyproj (geopandas ``to_crs``); a
layer without one (a Shapefile without its .prj) keeps ``x``/``y``, which the site fact ``crs`` places. A
polygon or a line is not a tree's position: the layer is refused naming the geometry type and the feature.

Bounds, before GDAL parses the features: the file's size (``--max-mb``), a zip's members, expansion and ratio
(:func:`~treecalc.ingest.sources.zipguard.check_zip`, the workbook's zip-bomb checks) and what the parts add up
to once unzipped (``--max-mb`` again), a KML's prolog through defusedxml (no DTD, no entities), and the layer's
declared feature and field counts against the ``rows``, ``columns`` and ``cells`` limits. GDAL refuses a
GeoJSON nested too deep on its own (in milliseconds); the child's memory and time limits stand behind all.
"""

from __future__ import annotations

import io
import os
import re
import warnings
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

from treecalc.ingest.errors import SurveyError
from treecalc.ingest.limits import Limits, refuse
from treecalc.ingest.sources.filetype import SIZE_ADVICE, sniff
from treecalc.ingest.sources.workbook import Source
from treecalc.ingest.sources.zipguard import check_zip

#: what each GIS format is called in a message, by the key :func:`gis_kind` gives
GIS_LOOKS = {
    "gpkg": "a GeoPackage",
    "shp": "a Shapefile",
    "geojson": "a GeoJSON file",
    "fgb": "a FlatGeobuf file",
    "kml": "a KML file",
}
GIS_EXTENSIONS = {".gpkg": "gpkg", ".shp": "shp", ".geojson": "geojson", ".fgb": "fgb", ".kml": "kml"}
#: the parts of a Shapefile read beside its .shp (.dbf and .shx needed; .prj gives the coordinate system)
SHAPEFILE_PARTS = (".shp", ".shx", ".dbf", ".prj", ".cpg")
#: how to get the readers when they are missing
INSTALL_HINT = "pip install 'treecalc[gis]' (geopandas and pyogrio)"
#: fields of a KML placemark's drawing (LIBKML), not of its tree: left out (``id`` is the XML element's)
_KML_DRAWING = ("id", "altitudeMode", "tessellate", "extrude", "visibility", "drawOrder", "icon")
#: fields every KML placemark has (LIBKML): left out when no feature fills them
_KML_FIELDS = ("Name", "description", "timestamp", "begin", "end", "snippet")


#: the kinds :func:`~treecalc.ingest.sources.filetype.sniff` tells that are read here, as the format read
GIS_READ = {"gpkg": "gpkg", "shp": "shp", "zipped_shp": "shp", "geojson": "geojson", "fgb": "fgb", "kml": "kml"}


def gis_kind(data: bytes, ext: str = "") -> str | None:
    """The GIS format read here that the bytes are (a key of :data:`GIS_LOOKS`; a zip holding a .shp is ``"shp"``),
    as the reader's sniffing tells it, or None. ``ext`` is not read: the content decides."""
    return GIS_READ.get(sniff(data))


def shapefile_parts(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The .shp at ``path`` and the parts beside it (same name: .shx, .dbf, .prj, .cpg) as one zip in memory, so
    that it is read as a zipped Shapefile; refused without its .dbf or .shx, or when the parts together pass
    ``max_bytes``."""
    p = Path(path)
    beside = {q.suffix.lower(): q for q in p.parent.glob(f"{p.stem}.*") if q.stem == p.stem and q.is_file()}
    missing = [e for e in (".dbf", ".shx") if e not in beside]
    if missing:
        raise SurveyError(
            f"{p.name} is a Shapefile without its {' and '.join(missing)} beside it; a Shapefile is several files "
            f"({p.stem}.shp, .shx, .dbf, .prj): give them together in one folder, or as a .zip holding them"
        )
    parts = [beside[e] for e in SHAPEFILE_PARTS if e in beside]
    total = sum(q.stat().st_size for q in parts)
    if total > max_bytes:
        raise SurveyError(
            f"{p.name}: the Shapefile's parts add up to {total / 1e6:.1f} MB, over the {max_bytes / 1e6:g} MB "
            f"limit; {SIZE_ADVICE}"
        )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for q in parts:
            zf.write(q, q.name)
    return buf.getvalue()


def _check_container(data: bytes, kind: str, name: str, max_bytes: int) -> None:
    """The checks before GDAL opens the bytes: a zip's bombs and expansion, a KML's prolog."""
    if data[:4] == b"PK\x03\x04":
        zf = check_zip(data, name)
        total = sum(i.file_size for i in zf.infolist())
        if total > max_bytes:
            raise SurveyError(
                f"{name} refused: it would expand to {total / 1e6:,.1f} MB, over the {max_bytes / 1e6:g} MB "
                f"limit; {SIZE_ADVICE}"
            )
    elif kind == "kml":
        import defusedxml  # start-up: only when needed, not by every assess (defusedxml)
        import defusedxml.ElementTree as DET  # start-up: only when needed, not by every assess (defusedxml)

        try:
            for _ in DET.iterparse(io.BytesIO(data), events=("start",), forbid_dtd=True):
                break  # the prolog (where a DTD would be) has been parsed
        except DET.ParseError as e:
            raise SurveyError(f"{name} is damaged: not well-formed XML ({e})") from None
        except (defusedxml.DTDForbidden, defusedxml.EntitiesForbidden, defusedxml.ExternalReferenceForbidden):
            raise SurveyError(
                f"{name} refused: it declares a DTD or XML entities (a billion-laughs or external-entity "
                "attack); a KML never needs them"
            ) from None


#: GDAL's name of the in-memory copy it reads (``/vsizip/pyogrio_….zip``, ``/vsimem/pyogrio_…``): the user never
#: saw it, so a message names the user's file instead
_GDAL_COPY = re.compile(r"'?(?:/vsi[a-z]+/)+[^\s';,]*'?|\bpyogrio_[0-9a-f]{8,}\S*")


def _gdal_error(name: str, kind: str, e: Exception) -> SurveyError:
    text = _GDAL_COPY.sub(repr(name), str(e)).strip()
    return SurveyError(f"{name} cannot be read as {GIS_LOOKS[kind]} ({type(e).__name__}: {text[:300]})")


def _shapefile_at_root(data: bytes, name: str, layer: str | None) -> bytes:
    """A zipped Shapefile as GDAL reads it, its parts at the top of the zip: a zip whose .shp sits in a folder
    (Windows' "Send to > Compressed folder" on a folder makes one) is repacked with that .shp's parts at the top.
    A zip of several .shp is read with ``layer`` naming one (by its name, without folder or .shp), else refused
    listing them. A zip with its one .shp at the top is returned as it is."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        members = [i for i in zf.infolist() if not i.is_dir() and not i.filename.startswith("__MACOSX/")]
        shps = [i.filename for i in members if i.filename.lower().endswith(".shp")]
        if len(shps) > 1:
            stems = {PurePosixPath(s).stem: s for s in shps}
            if layer is None or layer not in stems:
                listed = ", ".join(shps)
                if layer is not None:
                    raise SurveyError(f"{name} has no layer {layer!r}; it holds {len(shps)} Shapefiles: {listed}")
                raise SurveyError(
                    f"{name} holds {len(shps)} Shapefiles: {listed}; choose the trees' layer with ‹layer› "
                    "(its name, without folder or .shp)"
                )
            shps = [stems[layer]]
        if len(shps) != 1 or "/" not in shps[0]:
            return data  # none (GDAL says what it is not), or one at the top already
        shp = PurePosixPath(shps[0])
        parts = [
            i
            for i in members
            if PurePosixPath(i.filename).parent == shp.parent and PurePosixPath(i.filename).stem == shp.stem
        ]
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as out:
            for i in parts:  # sizes already checked against the limits by the container checks
                out.writestr(PurePosixPath(i.filename).name, zf.read(i))
        return buf.getvalue()


def _layers(pyogrio: Any, data: bytes, name: str, kind: str) -> list[tuple[str, str]]:
    """(name, geometry type or "no geometry") of each layer of the file, in the file's order. A layer named after
    the file (a GeoJSON without a "name") is named by the file's stem: GDAL would name it after the in-memory copy."""
    try:
        found = [(str(n), str(t) if t else "no geometry") for n, t in pyogrio.list_layers(data)]
    except Exception as e:  # noqa: BLE001 - GDAL's error types
        raise _gdal_error(name, kind, e) from None
    return [(Path(name).stem if n.startswith("pyogrio_") else n, t) for n, t in found]


def list_layers(data: bytes, name: str, max_bytes: int = 50_000_000) -> list[tuple[str, str]]:
    """The layers of a GIS file's bytes (name, geometry type), once the file passed the container checks; [] for a
    file that is not one (a spreadsheet). For a caller that lets the user choose one: run it in the bounded child
    (:func:`treecalc.ingest.isolated.run`)."""
    kind = gis_kind(data, Path(name).suffix.lower())
    if kind is None:
        return []
    pyogrio = _gis_readers(name, kind)
    _check_container(data, kind, name, max_bytes)
    if data[:4] == b"PK\x03\x04" and kind == "shp":
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            shps = [PurePosixPath(n) for n in zf.namelist() if n.lower().endswith(".shp")]
        if len(shps) > 1:  # each Shapefile is a layer, by its name
            return [(s.stem, "Shapefile") for s in shps]
        data = _shapefile_at_root(data, name, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _layers(pyogrio, data, name, kind)


def _gis_readers(name: str, kind: str) -> Any:
    """pyogrio, with geopandas beside it (its read_dataframe returns a GeoDataFrame); without the gis extra, a GIS
    file is refused naming the extra to install."""
    try:
        # optional dependency: absent when its extra is not installed
        import geopandas  # noqa: F401
        import pyogrio  # optional dependency: absent when its extra is not installed
    except ImportError:
        raise SurveyError(
            f"{name} is {GIS_LOOKS[kind]}; reading GIS layers needs the gis extra: {INSTALL_HINT}"
        ) from None
    return pyogrio


def _choose_layer(pyogrio: Any, data: bytes, name: str, kind: str, layer: str | None) -> tuple[int, str]:
    """The layer to read, as its index in the file (a layer's name may be the in-memory copy's) and its name:
    ``layer`` when given (it must be one of the file's), else the only one, or the only one with a geometry; a
    file of several such layers and no ``layer`` is refused listing them."""
    layers = _layers(pyogrio, data, name, kind)
    names = [n for n, _ in layers]
    if not layers:
        raise SurveyError(f"{name} cannot be read as {GIS_LOOKS[kind]}: it holds no layer")
    listed = ", ".join(f"{n!r} ({t})" for n, t in layers)
    if layer is not None:
        if layer not in names:
            raise SurveyError(f"{name} has no layer {layer!r}; its layers: {listed}")
        return names.index(layer), layer
    spatial = [i for i, (_, t) in enumerate(layers) if t != "no geometry"]
    if len(layers) > 1 and len(spatial) != 1:
        raise SurveyError(f"{name} holds {len(layers)} layers: {listed}; choose the trees' layer with ‹layer›")
    # the one layer of points: a table without geometry beside it (a written summary, a lookup) holds no trees
    i = spatial[0] if spatial else 0
    return i, names[i]


def open_gis(data: bytes, name: str, kind: str, lim: Limits, layer: str | None, max_bytes: int) -> Source:
    """The layer of a GIS file as a one-sheet :class:`Source`: the attribute table's fields as the header, then
    ``latitude``/``longitude`` (or ``x``/``y`` without a coordinate system) of each feature's point."""
    pyogrio = _gis_readers(name, kind)
    _check_container(data, kind, name, max_bytes)
    if data[:4] == b"PK\x03\x04" and kind == "shp":
        data = _shapefile_at_root(data, name, layer)
    with warnings.catch_warnings():  # GDAL's notes (a GeoPackage read from memory has no .gpkg extension)
        warnings.simplefilter("ignore", RuntimeWarning)
        index, chosen = _choose_layer(pyogrio, data, name, kind, layer)
        try:
            info = pyogrio.read_info(data, layer=index)
        except Exception as e:  # noqa: BLE001
            raise _gdal_error(name, kind, e) from None
        n, fields = int(info.get("features") or 0), len(info.get("fields", ()))
        shown = f"layer {chosen!r}"
        if n + 1 > lim.rows:
            raise refuse(name, f"{shown} holds {n:,} features", "rows", lim.rows)
        if fields + 2 > lim.columns:
            raise refuse(name, f"{shown} has {fields:,} fields", "columns", lim.columns)
        if (n + 1) * (fields + 2) > lim.cells:
            raise refuse(name, f"{shown} holds {n:,} features × {fields + 2:,} fields", "cells", lim.cells)
        try:
            gdf = pyogrio.read_dataframe(data, layer=index)
        except Exception as e:  # noqa: BLE001
            raise _gdal_error(name, kind, e) from None
    if len(gdf) + 1 > lim.rows:  # a count the driver only estimated
        raise refuse(name, f"{shown} holds {len(gdf):,} features", "rows", lim.rows)
    notes: list[str] = []
    coords, coord_notes = _points(gdf, name, shown)
    notes += coord_notes
    table = gdf.drop(columns=[gdf.geometry.name])
    if kind == "kml":  # the placemark's fields no feature fills say nothing of the trees
        empty = [c for c in _KML_FIELDS if c in table and table[c].isna().all()]
        table = table.drop(columns=[c for c in _KML_DRAWING if c in table] + empty)
    header = [*coords, *map(str, table.columns)]
    columns = [coords[c] for c in coords] + [_cells(table[c]) for c in table.columns]
    rows = [header, *(list(r) for r in zip(*columns))] if columns else [header]
    crs = None
    if gdf.crs is not None:
        auth = gdf.crs.to_authority()
        crs = f"{auth[0]}:{auth[1]}" if auth else gdf.crs.to_wkt()
    return Source(
        name, kind, [chosen], _text_rows=rows, warnings=notes, crs=crs
    )  # format: gpkg, shp, geojson, fgb, kml


def _cells(col: Any) -> list[Any]:
    """A column's values as cells: blank for a missing value, dates and times as Python's, numbers as numbers."""
    import pandas as pd  # heavy: pandas, loaded only when this runs

    out = col.astype(object).where(col.notna(), None).tolist()
    return [v.to_pydatetime() if isinstance(v, pd.Timestamp) else v.item() if hasattr(v, "item") else v for v in out]


def _points(gdf: Any, name: str, shown: str) -> tuple[dict[str, list[Any]], list[str]]:
    """{"latitude": [...], "longitude": [...]} (WGS84 degrees) of the features' points, or {"x", "y"} in the
    layer's units when it has no coordinate system, and the notes to say; a feature that is not a point refuses
    the layer."""
    import numpy as np  # heavy: numpy, loaded only when this runs

    geom = gdf.geometry
    types = geom.geom_type
    missing = geom.isna().to_numpy() | geom.is_empty.to_numpy()
    single = types.eq("MultiPoint").to_numpy() & ~missing
    if single.any():  # a multipoint of one point (Survey123 writes them) is that point
        counts = np.array([len(g.geoms) if s else 1 for g, s in zip(geom, single)])
        single &= counts == 1
    bad = ~missing & ~types.eq("Point").to_numpy() & ~single
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        kinds = sorted(set(types[bad].astype(str)))
        raise SurveyError(
            f"{name}: {shown} holds {', '.join(kinds)} geometry (feature {first + 1}, row {first + 2}, is a "
            f"{types.iloc[first]}; {int(bad.sum()):,} feature(s) are not points); a tree stands at a point: "
            "give a layer of points (in QGIS: Vector > Geometry Tools > Centroids, if the trees were drawn as shapes)"
        )
    pts = geom.copy()
    if single.any():
        pts[single] = [g.geoms[0] for g in geom[single]]
    notes = []  # a feature without geometry: a tree without coordinates, counted where the trees are placed
    if gdf.crs is None:
        notes.append(
            f"{shown} has no coordinate system (a Shapefile without its .prj?): its points are read as x/y; "
            "give the site fact crs (e.g. ‹crs=EPSG:2263›) to place them"
        )
        return {"x": _xy(pts, missing, "x"), "y": _xy(pts, missing, "y")}, notes
    wgs = pts.set_crs(gdf.crs, allow_override=True).to_crs(4326)
    if not gdf.crs.equals(4326):
        notes.append(f"coordinates of {shown} reprojected from {gdf.crs.to_string()} to WGS84 latitude/longitude")
    return {"latitude": _xy(wgs, missing, "y"), "longitude": _xy(wgs, missing, "x")}, notes


def _xy(pts: Any, missing: Any, axis: str) -> list[float | None]:
    import numpy as np  # heavy: numpy, loaded only when this runs

    vals = np.full(len(pts), np.nan)
    ok = ~missing
    if ok.any():
        vals[ok] = getattr(pts[ok], axis).to_numpy(dtype=float)
    return [float(v) if np.isfinite(v) else None for v in vals]
