"""Where ``benefits-batch`` writes: a local folder or one named by a URL (fsspec), checked before any work (never in,
holding or being the input; no folder of others' files; only the partitions an earlier run's marker names
replaced), and each partition's Parquet file written there a batch of rows at a time."""

from __future__ import annotations

import json
import os
import re
import tempfile
import uuid
from pathlib import Path
from typing import Any


def is_url(source: str | Path) -> bool:
    """An input or output named by a URL that fsspec opens (``s3://``, ``gs://``, ``https://``, ``memory://``), not a
    path."""
    text = str(source)
    return isinstance(source, str) and "://" in text and not text.startswith("file://")


def _write_options(schema: Any) -> dict[str, Any]:
    """How a partition's benefits are written (:func:`write_benefits`)."""
    import pyarrow as pa  # heavy: pyarrow, loaded only when this runs

    keyed = [
        f.name
        for f in schema
        if pa.types.is_dictionary(f.type) or pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
    ]
    floats = {f.name for f in schema if pa.types.is_floating(f.type)}
    stats = [n for n in schema.names if n not in floats or n == "dbh_in"]
    return {"use_dictionary": keyed, "compression": "zstd", "write_statistics": stats}


def write_benefits(table: Any, path: str) -> None:
    """Write one partition's benefits (to a path, or a URL through fsspec): the categorical and text columns
    dictionary-encoded, the numbers plain, zstd-compressed, statistics for the carried and categorical columns only.

    Dictionary-encoding the float columns (Parquet's default for every column) was half the CPU of the write
    (it hashes each of the ~20 float columns of every tree) for files ~25 % smaller; zstd wins most of the size
    back for less. The min/max statistics of 20 float columns cost another fifth of the write and serve no
    filter a reader of benefits runs; the tree ids, codes and zones keep theirs (``benchmarks/batch.py``
    prints the size and the CPU of the write)."""
    with _PartWriter(path) as w:
        w.write(table)


class _PartWriter:
    """One output file written a batch of rows at a time (a row group each), to a path or a URL (fsspec)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.writer: Any = None
        self.schema: Any = None
        self.fh: Any = None

    def write(self, table: Any) -> None:
        import pyarrow.parquet as pq  # heavy: pyarrow, loaded only when this runs

        if self.writer is None:
            self.schema = table.schema
            where: Any = self.path
            if is_url(self.path):
                import fsspec  # heavy: fsspec, loaded only when this runs

                self.fh = where = fsspec.open(self.path, "wb").open()
            self.writer = pq.ParquetWriter(where, table.schema, **_write_options(table.schema))
        elif not table.schema.equals(self.schema):  # a column all blank in one batch is read as nulls: cast
            table = table.cast(self.schema)
        self.writer.write_table(table)

    def __enter__(self) -> _PartWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.fh is not None:
            self.fh.close()


#: The file an output folder's run names its partitions in: a rerun deletes only the files it names. It begins
#: with "_", so Parquet readers of the folder (pyarrow, Dask, Spark) skip it.
MARKER = "_treecalc_benefits_batch.json"
_PART = re.compile(r"part\.\d{5}\.parquet")


def output_folder(source: str | Path, files: list[str], out: str | Path) -> list[str]:
    """Check the output folder before anything is read, written or deleted, and return the files an earlier run
    of this tool wrote there (those its :data:`MARKER` names, and nothing else).

    An output that is the input, lies inside it or holds it (a file or folder of it, symlinks resolved) is
    refused: the partitions of the output are deleted on a rerun and written beside the input's. So is a folder
    holding any file this tool did not write: it is not deleted, and a folder of other files is no table. An
    output named by a URL is checked alike on its file system (:func:`_remote_output_folder`)."""
    if is_url(str(out)):
        return _remote_output_folder(source, files, str(out))
    src, dst = Path(source), Path(out)
    where = dst.resolve()
    local = [] if is_url(source) else [(src, src.resolve())] + [(Path(f), Path(f).resolve()) for f in files]
    for given, real in local:  # (a folder here is never inside an input named by a URL)
        if where == real:
            rel = "is"
        elif where.is_relative_to(real):
            rel = "lies inside"
        elif real.is_relative_to(where):
            rel = "holds"
        else:
            continue
        named = f"the input {given}" if given == src else f"the input {src}'s file {given}"
        links = [f"{p} is {r}" for p, r in ((dst, where), (given, real)) if str(r) != str(p.absolute())]
        raise ValueError(
            f"the output folder {dst} {rel} {named}"
            + (f" ({'; '.join(links)})" if links else "")
            + ": the output would be written among the input's files; give an output folder outside the input"
        )
    if not dst.exists():
        return []
    if not dst.is_dir():
        raise ValueError(f"the output {dst} is a file, not a folder: give a new or empty folder")
    marker = dst / MARKER
    text = marker.read_bytes() if marker.is_file() and marker.stat().st_size < 1 << 20 else b""
    ours = _marked(text)
    _only_ours(str(dst), [p.name for p in dst.iterdir()], ours)
    return [str(dst / n) for n in sorted(ours) if (dst / n).is_file() or (dst / n).is_symlink()]


def _marked(text: bytes) -> set[str]:
    """The partitions a :data:`MARKER` file's text names (only a partition's own name: a marker naming another path
    deletes nothing outside the folder)."""
    try:
        listed = json.loads(text.decode("utf-8")).get("files", []) if text else []
    except (ValueError, AttributeError, UnicodeDecodeError):
        listed = []
    return {n for n in listed if isinstance(n, str) and _PART.fullmatch(n)} if isinstance(listed, list) else set()


def _only_ours(dst: str, names: list[str], ours: set[str]) -> None:
    """Refuse an output folder holding a file (of ``names``) neither the marker nor a partition it names."""
    others = sorted(n for n in names if n != MARKER and n not in ours)
    if others:
        shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        raise ValueError(
            f"the output folder {dst} holds files benefits-batch did not write: {shown}; they are not deleted: "
            "give a new or empty folder"
        )


def _out_fs(out: str) -> tuple[Any, str]:
    """The file system of an output named by a URL and the folder's path on it (fsspec; the store's package, s3fs
    or gcsfs, installed)."""
    import fsspec  # heavy: fsspec, loaded only when this runs

    try:
        return fsspec.core.url_to_fs(out)
    except (ImportError, ValueError) as e:  # fsspec names the package a protocol needs
        raise ValueError(f"the output {out}: cannot be opened ({e})") from None


def _remote_output_folder(source: str | Path, files: list[str], out: str) -> list[str]:
    """:func:`output_folder` of an output named by a URL: never the input, inside it nor holding it when both are on
    the same file system (the same protocol: an ``s3://`` output and a local input never meet), a file there
    refused, and only the partitions its :data:`MARKER` names returned (as URLs)."""
    fs, root = _out_fs(out)
    root = root.rstrip("/")
    if is_url(str(source)):
        src_fs, _ = _out_fs(str(source))
        if type(src_fs) is type(fs):
            dst_key = root + "/"
            for given in [str(source), *files]:
                key = fs._strip_protocol(given).rstrip("/") + "/"
                rel = (
                    "is"
                    if key == dst_key
                    else "lies inside"
                    if dst_key.startswith(key)
                    else "holds"
                    if key.startswith(dst_key)
                    else ""
                )
                if rel:
                    named = f"the input {source}" if given == str(source) else f"the input {source}'s file {given}"
                    raise ValueError(
                        f"the output folder {out} {rel} {named}: the output would be written among the input's "
                        "files; give an output folder outside the input"
                    )
    try:
        if fs.isfile(root):
            raise ValueError(f"the output {out} is a file, not a folder: give a new or empty folder")
        if not fs.isdir(root):
            return []
        names = [str(p).rstrip("/").rsplit("/", 1)[-1] for p in fs.ls(root, detail=False)]
        marker = f"{root}/{MARKER}"
        text = fs.cat_file(marker) if MARKER in names and (fs.size(marker) or 0) < 1 << 20 else b""
    except OSError as e:  # a bucket that is not there, no right to list it: said before any work
        raise ValueError(f"the output {out}: cannot be read ({e})") from None
    ours = _marked(text)
    _only_ours(out, names, ours)
    return [_join(out, n) for n in sorted(ours) if n in names]


def _join(out: str, name: str) -> str:
    """The file ``name`` in the output folder ``out`` (a path or a URL)."""
    return f"{out.rstrip('/')}/{name}" if is_url(out) else str(Path(out) / name)


#: Object stores: no folders to make (a key's prefix is its folder), and making one of a bucket that is not there
#: would create the bucket; an output there is written as keys, a missing bucket refused by the first write.
_OBJECT_STORES = {"s3", "s3a", "gs", "gcs", "abfs", "az", "adl"}


def _make_folder(fs: Any, root: str) -> None:
    """Make an output folder on a file system that has folders (never a bucket of an object store)."""
    protocols = {fs.protocol} if isinstance(fs.protocol, str) else set(fs.protocol)
    if not protocols & _OBJECT_STORES:
        fs.makedirs(root, exist_ok=True)


def _remove(path: str) -> None:
    """Delete one output file (a path or a URL) if it is there."""
    if is_url(path):
        fs, p = _out_fs(path)
        if fs.exists(p):
            fs.rm_file(p)
    else:
        Path(path).unlink(missing_ok=True)


def _start_output(out: str, names: list[str]) -> None:
    """Create the output folder and name the run's partitions in its :data:`MARKER` before any is written (a run
    stopped half-way leaves only files the next run knows to be its own). For a URL this is the first write to the
    store: one this process cannot write is refused here, before any work."""
    text = json.dumps({"written_by": "treecalc benefits-batch", "files": names}, indent=1)
    if not is_url(out):
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / MARKER).write_text(text)
        return
    fs, root = _out_fs(out)
    try:
        _make_folder(fs, root.rstrip("/"))
        fs.pipe_file(f"{root.rstrip('/')}/{MARKER}", text.encode())
    except OSError as e:
        raise ValueError(f"the output {out}: cannot be written ({e}); give a folder you can write") from None


def _can_write(folder: str) -> str:
    """On a worker: "" when it can create ``folder`` (a path, or a URL through fsspec) and write a file in it, else
    why not."""
    if is_url(folder):
        try:
            fs, root = _out_fs(folder)
            probe = f"{root.rstrip('/')}/.treecalc-probe-{uuid.uuid4().hex}"
            _make_folder(fs, root.rstrip("/"))
            fs.pipe_file(probe, b"")
            fs.rm_file(probe)
        except (OSError, ValueError) as e:
            return str(e) or type(e).__name__
        return ""
    try:
        os.makedirs(folder, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".treecalc-probe-", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return e.strerror or str(e)
    return ""
