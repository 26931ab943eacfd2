"""Tables built from the data folder, kept between runs in the user's cache folder.

Building every climate zone's benefit tables from their CSV files is most of a command's start-up (about a
second, where importing pandas is 0.8 s): each start parsed ~300,000 rows for the one tree it values. The
built arrays are saved once in the cache folder and read back in milliseconds by every later run.

A cached table is used only when it was built from the same bytes: its name carries the SHA-256 of every
data file it was built from and of the module that builds it, so an edited data folder (``TREECALC_DATA``), an
amended table or a new treecalc builds afresh and never reads a stale copy. The files are still located
through :func:`treecalc.reference.datafolder.data_file`, so a statement's fingerprint lists them as read.

The cache folder is ``TREECALC_CACHE`` when set (``off`` turns the cache off), else the platform's user cache
folder (platformdirs). A cache that cannot be written or read is only slower: the tables are built as before.
Arrays are stored with NumPy's ``.npz`` (no pickle is ever loaded) and the names beside them as JSON.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["CACHE_ENV", "cache_dir", "cached_arrays", "file_sha256"]

#: The environment variable naming the cache folder (``off``: no cache)
CACHE_ENV = "TREECALC_CACHE"

#: Raised with the layout of the stored files: a change makes every cached table build afresh.
_FORMAT = b"treecalc table cache 1\0"


def cache_dir() -> Path | None:
    """The folder cached tables live in, or None when the cache is off."""
    where = os.environ.get(CACHE_ENV)
    if where is not None:
        return None if where.strip().lower() in ("", "off", "0", "no") else Path(where).expanduser()
    import platformdirs  # start-up: only when needed, not by every assess (platformdirs)

    return Path(platformdirs.user_cache_dir("treecalc", appauthor=False)) / "tables"


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes (hex), computed once per process for a file unchanged since (its size and
    modification time): the tables' cache and a statement's fingerprint hash the same data files."""
    st = os.stat(path)
    return _file_sha256(str(Path(path).resolve()), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=1024)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _digest(name: str, files: Iterable[Path]) -> str:
    h = hashlib.sha256(_FORMAT + name.encode() + b"\0")
    for path in files:
        h.update(f"{Path(path).name}\0{file_sha256(path)}\0".encode())
    return h.hexdigest()[:32]


def _load(path: Path) -> tuple[dict[str, np.ndarray], Any] | None:
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files if k != "__meta__"}
            meta = json.loads(str(z["__meta__"][()]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError):
        return None  # a damaged or half-written copy: built afresh (and rewritten)
    return arrays, meta


def _save(path: Path, arrays: dict[str, np.ndarray], meta: Any) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, **{"__meta__": np.array(json.dumps(meta)), **arrays})  # type: ignore[arg-type]
            os.replace(tmp, path)  # whole or not at all: a reader never sees a half-written file
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        return  # a read-only or full cache folder: the next run builds again


def cached_arrays(
    name: str,
    files: Iterable[Path],
    build: Callable[[], tuple[dict[str, np.ndarray], Any]],
) -> tuple[dict[str, np.ndarray], Any]:
    """``build()``'s arrays and JSON metadata, from the cache when a copy built from the same ``files`` (and
    the same builder: include its module's file) is there, else built and saved."""
    folder = cache_dir()
    if folder is None:
        return build()
    path = folder / f"{name}-{_digest(name, files)}.npz"
    if path.is_file() and (hit := _load(path)) is not None:
        return hit
    arrays, meta = build()
    _save(path, arrays, meta)
    return arrays, meta
