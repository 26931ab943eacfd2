"""Benefits of a state's inventory on Dask: ``treecalc benefits-batch INPUT --out OUT.parquet``.

The input is Parquet or CSV, one file or a folder of partitions (``*.parquet``, ``*.csv``), with the columns
:func:`treecalc.models.benefits.compute_benefits` reads (``species`` or ``species_code``, ``dbh_in``, optional
``land_use`` and ``zone``) and the trees' coordinates, by which a tree no zone is given for is valued in the
zone it lies in (:func:`place_trees`); any other column (a tree id) is carried through. Each partition (whole row groups
of a Parquet file, or a ``dask.dataframe`` block of CSV) is read on a worker, valued there by
``compute_benefits`` itself and written there as its own Parquet file, so a partition's figures are the
single-process figures cell for cell; the work runs on the :mod:`dask.distributed` scheduler at
``scheduler`` when given, else on a :class:`distributed.LocalCluster` of ``workers`` processes of
``threads`` threads (by default one process of one thread per core).
"""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from treecalc.ingest import zone as climate_zones
from treecalc.ingest.columns import coordinate_columns, coordinate_fields
from treecalc.ingest.sources.geoparquet import arrow_latlon, primary_column, without_bbox
from treecalc.models.benefits import BenefitParams, _zone_column, compute_benefits
from treecalc.reference import data, geo
from treecalc.reference.species import UnknownSpecies
from treecalc.reference.zone_grid import zone_index_at
from treecalc.studies.batch_output import (
    _can_write,
    _join,
    _PartWriter,
    _remove,
    _start_output,
    is_url,
    output_folder,
    write_benefits,
)


@dataclass(frozen=True)
class BatchResult:
    """What a batch run did: trees valued, partitions, seconds, trees per second, and where it ran."""

    trees: int
    partitions: int
    seconds: float
    trees_per_second: float
    scheduler: str
    out: str
    #: Trees valued in each climate zone (most first).
    zones: dict[str, int] = field(default_factory=dict)
    #: Trees by how their zone was found (the output's ``zone_from``: :data:`ZONE_FROM`).
    zone_from: dict[str, int] = field(default_factory=dict)
    #: Trees valued in the Northeast only by default (no zone given, named or found from coordinates).
    defaulted: int = 0
    #: What to tell the user of the zones, in sentences (the defaulted trees and why, among them).
    notes: tuple[str, ...] = ()


def _remote_files(url: str) -> tuple[str, list[str]]:
    """:func:`_files` of a URL, through fsspec (the file system's own package, s3fs or gcsfs, installed)."""
    import fsspec  # heavy: fsspec, loaded only when this runs

    try:
        fs, root = fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as e:  # fsspec names the package a protocol needs
        raise ValueError(f"{url}: cannot be opened ({e})") from None
    if fs.isdir(root):
        for kind, ext in (("parquet", ".parquet"), ("csv", ".csv")):
            found = sorted(fs.glob(f"{root.rstrip('/')}/**/*{ext}"))
            if found:
                return kind, [fs.unstrip_protocol(p) for p in found]
        raise ValueError(f"{url}: no *.parquet or *.csv partitions in the folder")
    if not fs.exists(root):
        raise ValueError(f"{url}: no such file or folder")
    suffix = Path(root.split("?")[0]).suffix.lower()
    kind = "parquet" if suffix in (".parquet", ".pq") else "csv" if suffix == ".csv" else ""
    if not kind:
        raise ValueError(f"{url}: expected a .parquet or .csv file, or a folder of them")
    return kind, [url]


def _parquet_file(file: str) -> Any:
    """A Parquet file (a path, or a URL opened through fsspec) for pyarrow to read its footer and row groups."""
    import pyarrow.parquet as pq  # heavy: pyarrow, loaded only when this runs

    if is_url(file):
        import fsspec  # heavy: fsspec, loaded only when this runs

        return pq.ParquetFile(fsspec.open(file, "rb").open())
    return pq.ParquetFile(file)


def _files(source: str | Path) -> tuple[str, list[str]]:
    """The input's format (parquet or csv) and its files (paths, or URLs for an input named by one)."""
    if is_url(source):
        return _remote_files(str(source))
    path = Path(source)
    if path.is_dir():
        for kind, pattern in (("parquet", "*.parquet"), ("csv", "*.csv")):
            found = sorted(str(p) for p in path.rglob(pattern))
            if found:
                return kind, found
        raise ValueError(f"{path}: no *.parquet or *.csv partitions in the folder")
    if not path.exists():
        raise ValueError(f"{path}: no such file or folder")
    kind = "parquet" if path.suffix.lower() in (".parquet", ".pq") else "csv" if path.suffix.lower() == ".csv" else ""
    if not kind:
        raise ValueError(f"{path}: expected a .parquet or .csv file, or a folder of them")
    return kind, [str(path)]


def read_input(path: str | Path, blocksize: str = "64MB") -> Any:
    """The input as a ``dask.dataframe`` (one partition per Parquet file or row group, CSV in blocks)."""
    import dask.dataframe as dd  # heavy: dask, loaded only when this runs

    kind, files = _files(path)
    if kind == "parquet":
        return dd.read_parquet(files)

    def header(f: str) -> list[str]:
        try:
            return [str(c) for c in pd.read_csv(f, nrows=0).columns]
        except pd.errors.EmptyDataError:
            raise ValueError(f"{f}: an empty file, no header row") from None

    first = header(files[0])
    for f in files[1:]:  # dask reads every block with the first file's columns: a file of others is refused here
        cols = header(f)
        if cols != first:
            raise ValueError(f"{f}: columns {cols} differ from {files[0]}'s {first}; give every partition the same")
    return dd.read_csv(
        files,
        blocksize=blocksize,
        dtype={"species": "object", "species_code": "object"},
        include_path_column=PATH_COLUMN,  # a bad row's error names its file (dropped before valuing)
    )


#: The column :func:`read_input` gives each CSV row, its file: never valued nor written.
PATH_COLUMN = "__treecalc_source_file__"


def _without_path(part: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The partition without :data:`PATH_COLUMN`, and the file(s) its rows came from (for an error)."""
    if PATH_COLUMN not in part:
        return part, ""
    files = ", ".join(sorted({str(f) for f in part[PATH_COLUMN].astype(str).unique()}))
    return part.drop(columns=[PATH_COLUMN]), files


def _arrow_table(frame: pd.DataFrame, carried: Any = None) -> Any:
    """A partition's benefits as an Arrow table, each categorical column (the disclosure sentences, the codes)
    as a dictionary column of int32 codes and text: written as it is held, never expanded into a text per tree
    (turning half a million disclosure cells into text and hashing them again cost more than the valuation),
    and of one type in every partition whatever its categories. ``carried``: an Arrow table of the input's other
    columns (a tree id), put in front as they were read, with no round trip through pandas."""
    cols: list[Any] = [] if carried is None else list(carried.columns)
    names: list[str] = [] if carried is None else list(carried.column_names)
    for c in frame.columns:
        s = frame[c]
        if isinstance(s.dtype, pd.CategoricalDtype):
            codes = s.cat.codes.to_numpy().astype("int32")
            cats = s.cat.categories
            if isinstance(cats.dtype, pd.StringDtype):  # Arrow-backed text already: no Python str per category
                values = pa.array(cats.array, from_pandas=True).cast(pa.large_string())
            else:
                values = pa.array([str(v) for v in cats], pa.large_string())
            cols.append(pa.DictionaryArray.from_arrays(pa.array(codes, mask=codes < 0), values))
        else:
            cols.append(pa.array(s.to_numpy() if s.dtype.kind in "biuf" else s, from_pandas=True))
        names.append(str(c))
    return pa.Table.from_arrays(cols, names=names)


#: How a tree's zone was found (the output's ``zone_from``), in the order they are tried: the input's ``zone``
#: column, the zone given (``--zone``) for the trees the column leaves blank, the tree's coordinates, else the
#: Northeast by default, with why.
ZONE_FROM = (
    "zone column",
    "zone given",
    "coordinates",
    f"coordinates, within {climate_zones.NEAR_KM:g} km of another zone",
    "default: no coordinates",
    "default: coordinates blank",
    "default: in no zone",
    "default: coordinates not a number",
)


#: How to keep one of two coordinate pairs, or settle swapped x/y, in a batch (its input's headers are read
#: as they are: there is no column map).
_KEEP_ONE = "(drop or rename one pair's columns)"


def _settle_swap(x: str, y: str) -> str:
    return f"rename {x!r} to latitude and {y!r} to longitude, or give ‹crs› EPSG:… if they are projected"


def _lonlat(part: pd.DataFrame, fields: dict[str, str], crs: str | None) -> tuple[pd.DataFrame, np.ndarray, bool]:
    """The trees' longitude/latitude as ``assess`` reads them (:func:`treecalc.reference.geo.tree_lonlat`, after
    :func:`treecalc.reference.geo.xy_reading`'s questions), whether a coordinate cell is given but no number (``41.21N``),
    and whether the trees were placed by x/y read as WGS84 degrees."""
    frame = pd.DataFrame({f: part[c].to_numpy() for f, c in fields.items()}, index=part.index)
    site = {"crs": crs} if crs else {}
    try:
        geo.xy_reading(frame, site, fields, check_swap=False, keep_one=_KEEP_ONE)
        ll = geo.tree_lonlat(frame, site)
    except ValueError as e:  # the survey's words for a crs are a Site fact; a batch takes its own option
        raise ValueError(
            str(e)
            .replace("site fact crs, the coordinate system they are in", "coordinate system (‹crs›) for them")
            .replace("‹crs=EPSG:…›", "‹crs› EPSG:…")
            .replace("site fact crs", "‹crs›")
        ) from None
    assert ll is not None  # the frame has a pair of coordinates
    read = frame[["latitude", "longitude"] if "latitude" in frame else ["x", "y"]]
    if all(read[c].dtype.kind in "fiu" for c in read):  # numbers already (Parquet, GeoParquet): blank is NaN
        not_number = np.zeros(len(read), dtype=bool)  # (turning a million floats into text to ask cost seconds)
    else:
        blank = read.apply(lambda c: c.astype("string").str.strip().fillna("").eq("")).to_numpy()
        numbers = read.apply(lambda c: pd.to_numeric(c, errors="coerce")).notna().to_numpy()
        not_number = (~blank & ~numbers).any(axis=1)
    degrees = "latitude" not in frame and not crs
    return ll, not_number, degrees


def place_trees(
    part: pd.DataFrame, params: BenefitParams, coords: dict[str, str] | None, crs: str | None = None
) -> pd.DataFrame:
    """The partition with each tree's zone code in ``zone`` (categorical) and how it was found in ``zone_from``
    (:data:`ZONE_FROM`): the ``zone`` column where it names one; else ``params.zone`` (``--zone``); else the zone
    its coordinates lie in (``coords``: :func:`coordinate_fields`; x/y in ``crs``, or without one WGS84 degrees
    as ``assess`` reads them), found by :func:`treecalc.ingest.zone.zones_at` as ``assess`` and ``benefits
    --lat/--lon`` find it; else the Northeast, by default. x/y read as degrees that place no tree in any zone
    but would the other way round are refused as swapped (:func:`treecalc.reference.geo.swapped_at`)."""
    codes = list(data.zones().index)
    at = {c: i for i, c in enumerate(codes)}
    how_of = {w: np.int8(i) for i, w in enumerate(ZONE_FROM)}
    zone = np.full(len(part), -1, dtype=np.intp)
    how = np.full(len(part), -1, dtype=np.int8)
    if "zone" in part:
        text = part["zone"].astype("string").str.strip()
        named = (text.notna() & (text != "")).to_numpy(bool, na_value=False)
        if named.any():  # an unknown zone is an error naming the column and its row
            zone[named] = _zone_column(part["zone"][named], data.DEFAULT_ZONE)
            how[named] = how_of["zone column"]
    if params.zone is not None:
        zone[zone < 0] = at[data.zone_code(params.zone)]
        how[how < 0] = how_of["zone given"]
    rest = np.flatnonzero(zone < 0)
    if len(rest):
        if not coords:
            how[rest] = how_of["default: no coordinates"]
        else:
            ll, not_number, degrees = _lonlat(part.iloc[rest], coords, crs)
            ok = ll["latitude_deg"].notna().to_numpy() & ll["longitude_deg"].notna().to_numpy()
            how[rest[~ok]] = how_of["default: coordinates blank"]
            how[rest[~ok & not_number]] = how_of["default: coordinates not a number"]
            # the grid of cells decides most trees with no polygon test (:mod:`treecalc.reference.zone_grid`): the
            # same answers as zones_at's, a few microseconds a tree instead of tens
            found, near = zone_index_at(ll["latitude_deg"].to_numpy()[ok], ll["longitude_deg"].to_numpy()[ok])
            if degrees and len(found) and (found < 0).all():
                lon, lat = ll["longitude_deg"].to_numpy(), ll["latitude_deg"].to_numpy()
                swap = geo.swapped_at(lon, lat)
                if swap is not None:
                    k, z = swap
                    raise ValueError(
                        geo.swapped_message(
                            f"row {part.index[rest[k]]}",
                            lon[k],
                            lat[k],
                            z,
                            coords["x"],
                            coords["y"],
                            _settle_swap(coords["x"], coords["y"]),
                        )
                    )
            placed = rest[ok]
            ours = np.array([at[c] for c in geo._regions()[0]] + [-1], dtype=np.intp)  # -1 (in none) last
            zone[placed] = ours[found]
            # a tree near another zone's boundary is valued in its own, and said so (the boundaries generalise
            # climate; they are no line on the ground)
            how[placed] = np.where(
                found < 0,
                how_of["default: in no zone"],
                np.where(near, how_of[ZONE_FROM[3]], how_of["coordinates"]),
            )
    zone[zone < 0] = at[data.DEFAULT_ZONE]
    return part.assign(
        zone=pd.Categorical.from_codes(zone, categories=codes),
        zone_from=pd.Categorical.from_codes(how, categories=list(ZONE_FROM)),
    )


def _placed_benefits(part: pd.DataFrame, params: BenefitParams, crs: str | None = None) -> pd.DataFrame:
    """:func:`compute_benefits` of the partition, each tree in the zone :func:`place_trees` finds for it (x/y in
    ``crs``), with ``zone_from`` after the figures."""
    placed = place_trees(part, params, coordinate_fields(part.columns), crs)
    try:
        out = compute_benefits(placed.drop(columns=["zone_from"]), params)
    except UnknownSpecies as e:  # the name alone does not say where among a million rows it is: its first row does
        if "species" not in part:
            raise
        at = np.flatnonzero(part["species"].to_numpy(dtype=object) == e.name)
        if not len(at):
            raise
        raise ValueError(f"row {part.index[at[0]]}, column 'species': {e}") from None
    out["zone_from"] = placed["zone_from"]
    return out


def value_partition(part: pd.DataFrame, params: BenefitParams, crs: str | None = None) -> pd.DataFrame:
    """One partition's benefits, its other columns carried in front, each tree valued in its own zone
    (:func:`place_trees`; x/y in ``crs``), which ``zone`` and ``zone_from`` say."""
    out = _placed_benefits(part, params, crs)
    keep = part[[c for c in part.columns if c not in out.columns]]
    return pd.concat([keep, out], axis=1)


def _counts(valued: pd.DataFrame) -> dict[str, dict[str, int]]:
    """A partition's trees by zone and by how it was found: all that travels back from its task."""
    return {
        "zones": {str(k): int(v) for k, v in valued["zone"].value_counts().items() if v},
        "from": {str(k): int(v) for k, v in valued["zone_from"].value_counts().items() if v},
    }


#: The most rows one Parquet task reads at once (whole row groups; a file of more rows is split at its row
#: groups): one task's memory is bounded by this whatever the file's size.
ROWS_PER_TASK = 2_000_000


def _write_partition(
    part: pd.DataFrame, params: BenefitParams, path: str, k: int = 0, files: str = "", crs: str | None = None
) -> dict[str, Any]:
    """Value one CSV partition and write it to ``path`` on the worker that read it; only its row count travels.

    A tree it cannot value is an error naming the partition and its file (a row number alone, counted within
    the partition, does not say where in a folder of files it is)."""
    part, read_from = _without_path(part)
    try:
        valued = value_partition(part, params, crs)
    except ValueError as e:
        raise ValueError(f"{read_from or files or 'input'} (partition {k}, rows counted from 0): {e}") from None
    write_benefits(_arrow_table(valued), path)
    return {"trees": len(part), **_counts(valued)}


@dataclass(frozen=True)
class Piece:
    """Whole row groups of one Parquet file, read and valued by one task: the file, its row groups, and the
    file's row number of the first row (so an error names the row as the file counts it)."""

    file: str
    row_groups: tuple[int, ...]
    first_row: int
    rows: int
    #: the file's GeoParquet ``geo`` metadata (JSON text), or "" for plain Parquet
    geo: str = ""


#: The input's columns the valuation reads (the coordinates besides, :func:`coordinate_columns`).
READ_COLUMNS = ("species", "species_code", "dbh_in", "land_use", "zone", "condition")


def _one_value_per_tree(file: str, schema: Any) -> None:
    """Refuse a column the valuation reads that holds a list (or a struct, a map) per tree, naming it and its
    type: no one figure can be read from it. Other such columns are carried through as they are."""
    read = set(READ_COLUMNS) | set(coordinate_fields(schema.names).values())
    for f in schema:
        if f.name in read and pa.types.is_nested(f.type):
            what = "a list" if "list" in str(f.type) else "several values"
            raise ValueError(
                f"{file}: column {f.name!r} holds {what} per tree ({f.type}), not one value: give one value per row"
            )


def parquet_pieces(files: list[str], rows_per_task: int = ROWS_PER_TASK) -> list[Piece]:
    """The tasks of a Parquet input: each file's row groups, grouped in order up to ``rows_per_task`` rows (a
    file of fewer rows is one task). Only the footers are read. Every file must have the first's columns,
    named and typed alike (the output of each is written as its own file, and a folder of files of different
    columns is no table)."""

    pieces: list[Piece] = []
    first: Any = None
    for f in files:
        try:
            meta = _parquet_file(f)
        except Exception as e:  # noqa: BLE001 - Arrow says what is wrong with the file; the error names it
            raise ValueError(f"{f}: not a readable Parquet file ({e})") from None
        geo = ((meta.schema_arrow.metadata or {}).get(b"geo") or b"").decode("utf-8", "replace")
        schema = meta.schema_arrow.remove_metadata()
        if first is None:
            first = (f, schema)
            _one_value_per_tree(f, schema)
        elif not schema.equals(first[1]):
            raise ValueError(
                f"{f}: columns {[f'{x.name} ({x.type})' for x in schema]} differ from {first[0]}'s "
                f"{[f'{x.name} ({x.type})' for x in first[1]]}; give every partition the same"
            )
        groups: list[int] = []
        start = rows = 0
        for g in range(meta.metadata.num_row_groups):
            n = meta.metadata.row_group(g).num_rows
            if groups and rows + n > rows_per_task:
                pieces.append(Piece(f, tuple(groups), start, rows, geo))
                groups, start, rows = [], start + rows, 0
            groups.append(g)
            rows += n
        if rows:
            pieces.append(Piece(f, tuple(groups), start, rows, geo))
    return pieces


def _frame_of(table: Any, piece: Piece, first_row: int) -> pd.DataFrame:
    """Rows of a piece as ``compute_benefits`` reads them (pandas; text as Arrow-backed ``str``), indexed by the
    file's row numbers from ``first_row``; a GeoParquet piece's points as latitude/longitude, its geometry column
    left in Arrow (carried from there into the output, never made a Python object per tree)."""
    if piece.geo and coordinate_columns(table.column_names) is None:  # GeoParquet: each tree placed by its point
        lat, lon = arrow_latlon(table, piece.geo, piece.file, first_row)
        frame = table.drop_columns([primary_column(piece.geo, piece.file)]).to_pandas()
        frame = frame.assign(latitude=lat, longitude=lon)  # read to place the trees, never written
    else:
        frame = table.to_pandas()
    frame.index = pd.RangeIndex(first_row, first_row + len(frame))
    return frame


def _read_piece(piece: Piece, rows: int | None = None) -> tuple[Any, pd.DataFrame]:
    """A piece as read (Arrow) and as ``compute_benefits`` reads it (:func:`_frame_of`); ``rows``: only the first
    rows."""
    pf = _parquet_file(piece.file)
    if rows is None:
        table = pf.read_row_groups(list(piece.row_groups))
    else:
        batch = next(pf.iter_batches(batch_size=rows, row_groups=list(piece.row_groups)))
        table = pa.Table.from_batches([batch])
    return table, _frame_of(table, piece, piece.first_row)


#: The most rows of a piece read, valued and written at once (a row group of the output each): what bounds a
#: task's memory whatever its input's row groups (a piece of one 10-million-row group is streamed in batches).
STREAM_ROWS = 262_144


def _value_piece(
    piece: Piece, params: BenefitParams, path: str, k: int, crs: str | None = None, batch_rows: int = STREAM_ROWS
) -> dict[str, Any]:
    """Read one piece on the worker (or here), value it and write it to ``path`` there, ``batch_rows`` rows at a
    time; only its counts travel.

    The input's other columns (a tree id) are carried from the Arrow table as read; the benefits are
    :func:`compute_benefits` of the piece, the figures of the single-process call cell for cell."""
    pf = _parquet_file(piece.file)
    geo = {b"geo": without_bbox(piece.geo).encode()} if piece.geo else None
    counts: Counter[str] = Counter()
    zones: Counter[str] = Counter()
    first = piece.first_row
    with _PartWriter(path) as w:
        for batch in pf.iter_batches(batch_size=batch_rows, row_groups=list(piece.row_groups)):
            table = pa.Table.from_batches([batch])
            frame = _frame_of(table, piece, first)
            first += len(frame)
            try:
                out = _placed_benefits(frame, params, crs)
            except ValueError as e:
                raise ValueError(f"{piece.file} (partition {k}, rows counted from 0 in the file): {e}") from None
            carried = table.select([c for c in table.column_names if c not in out.columns])
            written = _arrow_table(out, carried)
            if geo:  # the geometry column is carried as read: its GeoParquet metadata with it (a reader maps it)
                written = written.replace_schema_metadata(geo)
            w.write(written)
            c = _counts(out)
            zones.update(c["zones"])
            counts.update(c["from"])
    return {"trees": first - piece.first_row, "zones": dict(zones), "from": dict(counts)}


def zone_notes(
    zones: Any, how: Any, coords: tuple[str, ...] | None, crs: str | None = None, xy: bool = False
) -> tuple[str, ...]:
    """What to say of the zones the trees were valued in: the zones with their counts, where the coordinates
    were read from (``coords``: the two columns, or a GeoParquet's geometry column alone; ``xy``: the columns are x/y, in ``crs`` or else read as WGS84 degrees), and how many trees
    were valued in the Northeast only by default, and why."""
    names = data.zones()["name"]
    out = []
    if zones:
        counted = climate_zones.by_count(pd.Series(zones, dtype=int))
        out.append(
            "the trees were valued in their zones: "
            + ", ".join(f"{n} in the {names[z]} zone ({z})" for z, n in counted.items())
        )
    n = how.get("coordinates", 0) + how.get(ZONE_FROM[3], 0)
    if coords is not None and n:
        out.append(
            ("1 tree's zone found from its" if n == 1 else f"{n} trees' zones found from their")
            + (  # one column: a GeoParquet's geometry, each tree's point
                f" points in the column {coords[0]!r} ("
                if len(coords) == 1
                else f" coordinates read from the columns {coords[0]!r} and {coords[1]!r} ("
            )
            + (
                f"x/y in {crs}"
                if xy and crs
                else geo.XY_AS_WGS84.replace("‹crs=EPSG:…›", "‹crs› EPSG:…")
                if xy
                else "WGS84 degrees"
            )
            + ")"
        )
    near = how.get(ZONE_FROM[3], 0)
    if near:
        out.append(
            f"{near} {'tree lies' if near == 1 else 'trees lie'} within {climate_zones.NEAR_KM:g} km of another "
            f"zone's boundary, each valued in the zone it lies in (zone_from: {ZONE_FROM[3]!r})"
        )
    why = {
        "default: no coordinates": "with no zone named and no coordinate columns (latitude/longitude or x/y) in "
        "the input",
        "default: coordinates blank": "with coordinates blank or out of range",
        "default: coordinates not a number": "with a coordinate that is not a number (such as 41.21N: give "
        "signed decimal degrees)",
        "default: in no zone": "with coordinates in no i-Tree Streets climate zone",
    }
    parts = [f"{how[k]} {w}" for k, w in why.items() if how.get(k, 0)]
    total = sum(how.get(k, 0) for k in why)
    if total:
        out.append(
            f"{total} {'tree was' if total == 1 else 'trees were'} valued in the Northeast zone "
            f"({data.DEFAULT_ZONE}) by default: {', '.join(parts)} (the output's zone_from column says which); "
            "give their zone in a zone column or with ‹zone›"
        )
    return tuple(out)


def pq_columns(file: str) -> list[str]:
    """A Parquet file's column names (its footer only)."""

    return list(_parquet_file(file).schema_arrow.names)


#: What each worker process of a local cluster runs with: one thread in every library that keeps a pool
#: (Arrow sizes its pool from OMP_NUM_THREADS), so two workers use two cores and never contend for them.
ONE_THREAD = {v: "1" for v in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMEXPR_NUM_THREADS")}


def default_workers() -> int:
    """The local cluster's worker processes by default: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def local_cluster(workers: int, threads: int = 1) -> Any:
    """A :class:`distributed.LocalCluster` of ``workers`` processes of ``threads`` threads, each library's pool at
    one thread (:data:`ONE_THREAD`) and Dask's statistical profiler off (its thread takes the GIL from the
    task 100 times a second to sample its stack; nobody reads the profile of a batch run)."""
    import dask  # heavy: dask, loaded only when this runs
    from distributed import LocalCluster  # heavy: distributed, loaded only when this runs

    # worker processes (the GIL is not shared), no dashboard; a task's error is raised by the client, named: not
    # logged again with its traceback
    fixed = {"processes": True, "dashboard_address": None, "silence_logs": logging.CRITICAL, "env": ONE_THREAD}
    with dask.config.set({"distributed.worker.profile.enabled": False}):  # the nanny hands its config on
        return LocalCluster(n_workers=workers, threads_per_worker=threads, **fixed)


def workers_can_write(client: Any, folder: str | Path, out: str | Path) -> None:
    """Refuse an output folder a worker cannot write (a scheduler's workers on other machines see their own file
    systems), naming the workers and why, before any work starts."""
    said = client.run(_can_write, str(folder))
    bad = {w: why for w, why in said.items() if why}
    if bad:
        shown = "; ".join(f"{w}: {why}" for w, why in sorted(bad.items())[:3])
        more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        raise ValueError(
            f"the output folder {out}: {len(bad)} of the {len(said)} workers cannot write there ({shown}{more}); "
            "give a folder "
            "every worker can write (a file system they share)"
        )


def _grid_if_it_pays(total: int | None, text_file: str) -> bool:
    """Build the grid of zones (a quarter of a minute, then cached) here, once, not by every worker at once, and say
    so, where it pays: only where a partition can have enough trees to be placed through it
    (:data:`~treecalc.reference.zone_grid.GRID_FROM`); fewer are placed by the polygons. ``total``: the trees, when
    known (Parquet); else a local text file's size bounds them (a line holds a tree in 8 bytes or more)."""
    from treecalc.reference.zone_grid import GRID_FROM, zone_grid  # late-bound: zone_grid looked up when called

    if total is None and text_file and not is_url(text_file):
        total = Path(text_file).stat().st_size // 8
    if total is not None and total < GRID_FROM:
        return False
    zone_grid()
    return True


def _warm(params: BenefitParams, placing: bool = False) -> bool:
    """Load the tables (and the derived tables of ``params``) in a worker once, before its partitions; with
    ``placing``, the zones' boundaries too (the trees are placed by their coordinates)."""
    if placing:
        from treecalc.reference.zone_grid import zone_grid  # late-bound: zone_grid looked up when called

        climate_zones.zones_at([40.0], [-75.0])
        zone_grid()  # built by the client before the workers start (:func:`benefits_batch`): read from the cache
    compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [12.0], "zone": ["NoEastXXX"]}), params)
    compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [12.0]}), params)
    return True


def _client(client: Any, scheduler: str | None, workers: int | None, threads: int) -> tuple[Any, list[Any]]:
    """The client to run on (``client``; else one of the scheduler at ``scheduler``, else of a local cluster) and
    what this run started, to close after it (the client first)."""
    from distributed import Client  # heavy: distributed, loaded only when this runs

    owned: list[Any] = []
    if client is None:
        if scheduler:
            client = Client(scheduler)
        else:
            cluster = local_cluster(workers or default_workers(), threads)
            client = Client(cluster)
            owned.append(cluster)
        owned.insert(0, client)
    return client, owned


def benefits_batch(
    source: str | Path,
    out: str | Path,
    scheduler: str | None = None,
    workers: int | None = None,
    params: BenefitParams | None = None,
    client: Any = None,
    threads: int = 1,
    rows_per_task: int = ROWS_PER_TASK,
    crs: str | None = None,
    progress: Any = None,
) -> BatchResult:
    """Value every tree of ``source`` on Dask and write the benefits per tree to ``out`` (a Parquet folder).

    Each task reads its partition from the input files on its worker, values it, and writes its own Parquet
    file there (``part.<k>.parquet``); nothing but its counts of trees (by zone, and by how the zone was found)
    comes back, so neither the client nor the scheduler holds a tree. ``out`` is checked before anything is
    written (:func:`output_folder`): never in the input, and only the files an earlier run named are deleted. A Parquet input is read by its own tasks, whole row groups of one file of at most
    ``rows_per_task`` rows each (the client reads only the footers); a CSV input in ``dask.dataframe`` blocks.
    The tables are loaded once per worker process before the partitions (``_warm``). A local cluster runs
    ``workers`` processes (default one per core) of ``threads`` threads (default 1) with every library's
    pool at one thread (:data:`ONE_THREAD`): a process per core, each with its own GIL, so two workers use
    two cores (``benchmarks/batch.py``; docs/performance.md "Beyond one machine"). ``crs``: the coordinate reference system of
    the input's x/y columns (without it x/y are read as ``assess`` reads them: WGS84 degrees when they read as
    such, else refused asking for it).

    Given no scheduler, client nor workers, the run is in this process, piece by piece, each piece streamed
    :data:`STREAM_ROWS` rows at a time (memory bounded whatever the input's size), with no cluster: on one
    machine a cluster's worker processes gain only where cores are idle, and pay their start, the tables loaded in
    each and the scheduler's traffic (README "Batch": the measured figures). ``progress(fraction, message)`` is
    told the trees done and the rate as each piece finishes (the fraction 0 while the total is unknown: a CSV's).

    ``out`` may be a URL (``s3://``, ``gs://``, ``memory://``: fsspec, the store's package installed): checked
    alike, its marker written first (so a store this process cannot write is refused before any work), and on a
    cluster each worker's write there probed before any tree is valued."""
    import dask  # heavy: dask, loaded only when this runs

    # a file:// URL is the local path it names (Path() of it would be a relative folder named "file:")
    source, out = (p[len("file://") :] if isinstance(p, str) and p.startswith("file://") else p for p in (source, out))
    params = params or BenefitParams()
    params.resolved()  # a bad price or zone is an error before any worker starts
    kind, files = _files(source)
    earlier = output_folder(source, files, out)  # refused before anything is read, written or deleted
    tasks: list[tuple[Any, ...]]
    geometry: str | None = None
    one_file = ""  # a CSV read whole from one file (its size bounds its trees)
    if kind == "parquet":
        pieces = parquet_pieces(files, rows_per_task)
        if not pieces:
            raise ValueError(f"{source}: no rows")
        try:  # a bad column or species in the first rows is an error here, not on a worker
            _placed_benefits(_read_piece(pieces[0], 5)[1], params, crs)
        except ValueError as e:
            raise ValueError(f"{pieces[0].file} (partition 0, rows counted from 0 in the file): {e}") from None
        tasks = [(_value_piece, piece) for piece in pieces]
        fields = coordinate_fields(pq_columns(pieces[0].file))
        if not fields and pieces[0].geo:  # GeoParquet: the trees are placed by their points
            fields = {"latitude": "latitude", "longitude": "longitude"}
            geometry = primary_column(pieces[0].geo, pieces[0].file)
    else:
        ddf = read_input(source)
        sample, read_from = _without_path(ddf.head(5, npartitions=-1))
        if not len(sample):
            raise ValueError(f"{source}: no rows")
        try:
            value_partition(sample, params, crs)
        except ValueError as e:
            raise ValueError(f"{read_from or source} (partition 0, rows counted from 0): {e}") from None
        one_file = str(source) if is_url(source) or Path(source).is_file() else ""
        fields = coordinate_fields([c for c in ddf.columns if c != PATH_COLUMN])
        tasks = [(_write_partition, p, one_file, crs) for p in ddf.to_delayed()]
    coords: tuple[str, ...] | None = (geometry,) if geometry else coordinate_columns(list(fields.values()))
    xy = coords is not None and "latitude" not in fields
    total = sum(p.rows for _, p in tasks) if kind == "parquet" else None
    target = str(out)
    names = [f"part.{k:05d}.parquet" for k in range(len(tasks))]
    for old in earlier:  # a rerun into the same folder leaves no partition of its last run
        _remove(old)
    _start_output(target, names)
    tell = _Progress(progress, total)
    if client is None and scheduler is None and workers is None:
        return _in_process(tasks, params, target, names, tell, coords, str(out), total, crs, xy)
    gridded = coords is not None and params.zone is None and _grid_if_it_pays(total, one_file)
    client, owned = _client(client, scheduler, workers, threads)
    info: dict[str, Any] = getattr(client, "scheduler_info", dict)()
    where = str(scheduler or info.get("address", "local"))
    try:
        workers_can_write(client, target, out)  # before any tree is valued: not after the computation
        t0 = time.perf_counter()
        client.run(_warm, params, gridded)
        futures = [
            client.submit(_value_piece, part, params, _join(target, names[k]), k, crs, pure=False)
            if fn is _value_piece  # the piece's read is in its task: no tree passes through the scheduler
            else client.compute(  # a dask.dataframe block: its read is a task the scheduler runs where it is valued
                dask.delayed(_write_partition)(part, params, _join(target, names[k]), k, *rest)
            )
            for k, (fn, part, *rest) in enumerate(tasks)
        ]
        # the dashboard's address only when the scheduler serves one (the local cluster's is off)
        served = "dashboard" in (info.get("services") or {})
        tell.start(f"on {where}" + (f" (Dask dashboard {client.dashboard_link})" if served else ""))
        try:
            from distributed import as_completed  # heavy: distributed, loaded only when this runs

            counted = []
            for done in as_completed(futures):
                counted.append(done.result())
                tell(counted[-1]["trees"])
        except Exception:
            client.cancel(futures)  # the partitions not started are not valued for nothing
            for name in names:  # the partitions written before the error are no answer
                _remove(_join(target, name))
            raise
        seconds = time.perf_counter() - t0
    finally:
        for o in owned:
            o.close()
    return _result(counted, len(tasks), seconds, where, str(out), coords, crs, xy)


class _Progress:
    """The trees done and the rate, told to ``progress(fraction, message)`` as each piece finishes."""

    def __init__(self, progress: Any, total: int | None) -> None:
        self.progress, self.total, self.done, self.t0 = progress, total, 0, time.perf_counter()

    def start(self, where: str) -> None:
        self.t0 = time.perf_counter()
        if self.progress is not None:
            self.progress(0.0, f"valuing {self.total:,} trees {where}" if self.total else f"valuing {where}")

    def __call__(self, trees: int) -> None:
        self.done += trees
        if self.progress is None:
            return
        rate = self.done / max(time.perf_counter() - self.t0, 1e-9)
        of = f" of {self.total:,}" if self.total else ""
        fraction = min(self.done / self.total, 1.0) if self.total else 0.0
        self.progress(fraction, f"{self.done:,}{of} trees valued, {rate:,.0f} trees/s")


def _in_process(
    tasks: list[tuple[Any, ...]],
    params: BenefitParams,
    target: str,
    names: list[str],
    tell: _Progress,
    coords: tuple[str, ...] | None,
    out: str,
    total: int | None,
    crs: str | None = None,
    xy: bool = False,
) -> BatchResult:
    """The tasks run here one after the other (no cluster); a task's error deletes the partitions written."""
    tell.start("in this process")
    t0 = time.perf_counter()
    counted = []
    try:
        for k, (fn, part, *rest) in enumerate(tasks):
            if fn is _value_piece:
                counted.append(_value_piece(part, params, _join(target, names[k]), k, crs))
            else:
                counted.append(_write_partition(part.compute(), params, _join(target, names[k]), k, *rest))
            tell(counted[-1]["trees"])
    except Exception:
        for name in names:  # the partitions written before the error are no answer
            _remove(_join(target, name))
        raise
    seconds = time.perf_counter() - t0
    shown = f"{total:,} trees" if total is not None else "a CSV input"
    where = f"this process ({shown}; no cluster asked for)"
    return _result(counted, len(tasks), seconds, where, out, coords, crs, xy)


def _result(
    counted: list[dict[str, Any]],
    partitions: int,
    seconds: float,
    where: str,
    out: str,
    coords: tuple[str, ...] | None,
    crs: str | None = None,
    xy: bool = False,
) -> BatchResult:
    """The run's :class:`BatchResult` from its tasks' counts (``crs``, ``xy``: how the coordinates were read,
    :func:`zone_notes`)."""
    n = sum(c["trees"] for c in counted)
    zones: Counter[str] = Counter()
    how: Counter[str] = Counter()
    for c in counted:
        zones.update(c["zones"])
        how.update(c["from"])
    return BatchResult(
        n,
        partitions,
        seconds,
        n / seconds if seconds else float("inf"),
        where,
        out,
        zones=dict(climate_zones.by_count(pd.Series(zones, dtype=int)).items()) if zones else {},
        zone_from={k: how[k] for k in ZONE_FROM if how[k]},
        defaulted=sum(v for k, v in how.items() if k.startswith("default")),
        notes=zone_notes(zones, how, coords, crs, xy),
    )
