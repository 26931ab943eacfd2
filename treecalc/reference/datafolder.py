"""The one data folder (``TREECALC_DATA`` when set, else the copy that ships with treecalc) and its files,
a missing file or table said clearly, and the record of the files read (for a statement's fingerprint)."""

from __future__ import annotations

import contextlib
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The environment variable naming another ``data`` folder (a village's edited copy).
DATA_ENV = "TREECALC_DATA"


def _bundled_data_dir() -> Path:
    """The data that ships with treecalc: ``treecalc/_data``, a folder in an installed wheel and a symlink to the
    repository's ``data/`` in a checkout or editable install (pyproject.toml), else ``data/`` beside the package
    (a checkout made where git writes symlinks as plain files)."""
    here = Path(__file__).resolve().parent.parent  # treecalc/, this module being treecalc/reference/datafolder.py
    packaged = here / "_data"
    # resolved: in a checkout, messages and the fingerprint name data/law/..., the folder users edit and docs cite
    return packaged.resolve() if packaged.is_dir() else here.parent / "data"


BUNDLED_DATA_DIR = _bundled_data_dir()
#: The one data folder every table and law file is read from (data.py, rules, water, excavation).
DATA_DIR = Path(os.environ.get(DATA_ENV) or BUNDLED_DATA_DIR).expanduser()  # ~: a value no shell expanded
LAW_DIR = DATA_DIR / "law"


class MissingDataFile(FileNotFoundError):
    """A data file or one of its tables is missing from the data folder (an old or incomplete copy)."""


class DamagedDataFile(ValueError):
    """A data file is there but cannot be read as its table (an edit broke it): the data folder's fault, never
    the survey's, so the message names the file and the folder."""


@contextlib.contextmanager
def damaged_if_unreadable(relpath: str, folder: Path | None = None) -> Iterator[None]:
    """Reading and converting ``relpath`` of the data folder: a failure in it (a cell that is no number, a column
    missing, a line the CSV parser refuses) is :class:`DamagedDataFile` naming that file, not an error of the
    survey being assessed when the table is first read."""
    try:
        yield
    except (DamagedDataFile, MissingDataFile):
        raise
    except (ValueError, TypeError, LookupError, tomllib.TOMLDecodeError) as e:
        base = DATA_DIR if folder is None else folder
        raise DamagedDataFile(
            f"{relpath} in {_where(base, 'an edited copy?')} is damaged: it could not be read as its table "
            f"({type(e).__name__}: {e}); "
            + (f"copy it again from {BUNDLED_DATA_DIR / relpath}" if BUNDLED_DATA_DIR != base else "reinstall treecalc")
        ) from None


def _where(folder: Path, why: str = "an old or incomplete copy?") -> str:
    if os.environ.get(DATA_ENV) and folder == DATA_DIR:
        return f"the data folder {folder} ({DATA_ENV} points there; {why})"
    return f"the data folder {folder} (treecalc's own data: the installation is incomplete)"


def data_file(relpath: str, folder: Path | None = None) -> Path:
    """``relpath`` (``"readings/site_facts.toml"``) in the data folder; :class:`MissingDataFile` naming the file,
    the folder and ``TREECALC_DATA`` when it is not there (never a bare "No such file")."""
    base = DATA_DIR if folder is None else folder
    path = base / relpath
    if not path.is_file() and not base.is_dir() and os.environ.get(DATA_ENV) and base == DATA_DIR:
        raise MissingDataFile(
            f"the data folder {base} does not exist ({DATA_ENV} points there): give a copy of "
            f"{BUNDLED_DATA_DIR}, or unset {DATA_ENV}"
        )
    if not path.is_file():
        raise MissingDataFile(
            f"{relpath} is missing from {_where(base)}: copy it from {BUNDLED_DATA_DIR / relpath}"
            + (f" or unset {DATA_ENV}" if os.environ.get(DATA_ENV) else "")
        )
    _READ[relpath] = path
    return path


#: Every file of the data folder this process has opened (relative path -> path), for the fingerprint of a
#: statement (:mod:`treecalc.report.fingerprint`): tables are cached once read, so a file counts from its first read on.
_READ: dict[str, Path] = {}


def in_folder(path: str | Path) -> str:
    """``path`` as an output records it: relative to the data folder (``law/croton_on_hudson/ch208_trees.toml``)
    when it is in it, so that a statement reads the same on another install or data path (``treecalc verify``);
    as given otherwise (a file the user named, a village's own folder)."""
    try:
        return Path(path).resolve().relative_to(DATA_DIR.resolve()).as_posix()
    except ValueError:
        return str(path)


def data_files_read() -> dict[str, Path]:
    """The data files read so far (``"law/croton_on_hudson/ch208_trees.toml"``, ``"species/catalogue.csv"``), sorted."""
    return dict(sorted(_READ.items()))


def read_data_toml(relpath: str, folder: Path | None = None) -> dict[str, Any]:
    """A TOML file of the data folder; :class:`MissingDataFile` when it, or a table the copy that ships with
    treecalc has (``[site_why]``, ``[assumed]``, a number of the law), is missing."""
    base = DATA_DIR if folder is None else folder
    path = data_file(relpath, base)
    with path.open("rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:  # an Engineer's edit of the copy: say which file, not only the line
            raise ValueError(f"{relpath} in {_where(base)} is not valid TOML: {e}") from None
    shipped = BUNDLED_DATA_DIR / relpath
    if path.resolve() != shipped.resolve() and shipped.is_file():
        with shipped.open("rb") as f:
            want = [k for k, v in tomllib.load(f).items() if isinstance(v, dict) and k not in raw]
        if want:
            tables = ", ".join(f"[{k}]" for k in want)
            raise MissingDataFile(
                f"{relpath} in {_where(base)} lacks {tables}: this version of treecalc reads "
                f"{'it' if len(want) == 1 else 'them'}; copy the file from {shipped}"
            )
    return raw
