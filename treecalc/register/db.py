"""Which database, its engine, and its schema brought up to date.

``TREECALC_DB`` names the database as a SQLAlchemy URL (``sqlite:///path/register.db``,
``postgresql+psycopg://user@host/db``); without it the register is a SQLite file in the user's data
folder (platformdirs: ``~/.local/share/treecalc/register.db`` on Linux), made on first use. The schema is
Alembic's: the migrations ship in this package (``migrations/``) and are run on every open
(:func:`migrate`; a no-op when the database is at the head).

SQLite: WAL (readers never wait for a writer), a busy timeout, and every write transaction started with
``BEGIN IMMEDIATE`` so that two writers queue instead of failing half-way (see ``_sqlite_pragmas``).
"""

from __future__ import annotations

import datetime as dt
import errno
import os
import shutil
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url

ENV = "TREECALC_DB"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: how long a SQLite writer waits for another's transaction before the write is retried (ms)
BUSY_TIMEOUT_MS = 30_000


class RegisterError(ValueError):
    """Something about the register the user can fix (a bad URL, a case that does not exist): exit 2."""


class RegisterDamaged(RegisterError):
    """The register holds what no event of the program wrote (a row edited or torn behind its back): the
    command stops, naming what is broken, and writes nothing on top of it. Exit 1, as the audit that finds it."""

    exit_code = 1


def default_path() -> Path:
    import platformdirs  # heavy: platformdirs, loaded only when this runs

    return Path(platformdirs.user_data_dir("treecalc", appauthor=False)) / "register.db"


def database_url(url: str | None = None) -> str:
    """The URL given, else ``TREECALC_DB``, else the SQLite file in the user's data folder."""
    # Given but blank (``--db ""``, ``TREECALC_DB="$UNSET"``) is a mistake, never the personal default: a
    # payment meant for the Village's database must not land silently in a file of the user's data folder.
    if url is not None and not url.strip():
        raise RegisterError(
            f"‹db› {url!r}: give a database URL (sqlite:///path/register.db or postgresql+psycopg://...)"
        )
    env = os.environ.get(ENV)
    if url is None and env is not None and not env.strip():
        raise RegisterError(
            f"{ENV} is set but empty: unset it for the register in your data folder, or give a database URL"
        )
    url = url or env or ""
    if not url.strip():
        path = default_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    try:
        u = make_url(url.strip())
    except Exception:
        raise RegisterError(
            f"{ENV}={url!r} is not a database URL: give sqlite:///path/register.db or postgresql+psycopg://user@host/db"
        ) from None
    if u.get_backend_name() not in ("sqlite", "postgresql"):
        raise RegisterError(f"{ENV}={url!r}: the register runs on SQLite or PostgreSQL, not {u.get_backend_name()}")
    if u.get_backend_name() == "postgresql" and u.get_driver_name() not in ("psycopg", "psycopg2"):
        u = u.set(drivername="postgresql+psycopg")  # psycopg 3 is the driver the register depends on
    if u.get_backend_name() == "sqlite":
        if not u.database or u.database == ":memory:":
            raise RegisterError(f"{ENV}={url!r}: a SQLite register is a file: sqlite:///path/register.db")
        folder = Path(u.database).expanduser().resolve().parent
        if not folder.is_dir():
            raise RegisterError(f"{ENV}={url!r}: the folder {folder} does not exist")
    return u.render_as_string(hide_password=False)


#: Space left under which SQLite's "disk I/O error" is read as the disk being full: it cannot write the journal
#: or the shared-memory file a read needs (WAL), and says I/O error rather than "database or disk is full".
FULL_BYTES = 1 << 20


def disk_error(e: BaseException, url: str) -> str | None:
    """The sentence for a register that could not be read or written because of its disk: the full disk named
    with the register's path (SQLite's "database or disk is full", an OSError ENOSPC, or "disk I/O error" with
    under :data:`FULL_BYTES` free), or the I/O error with the path; None for any other error."""
    orig = getattr(e, "orig", None) or e
    text = str(orig).strip().lower()
    nospace = isinstance(orig, OSError) and orig.errno == errno.ENOSPC
    if not (nospace or "database or disk is full" in text or "disk i/o error" in text):
        return None
    u = make_url(url)
    path = Path(u.database).expanduser() if u.get_backend_name() == "sqlite" and u.database else None
    where = f"the register {path}" if path is not None else "the register's database server"
    free = None
    if path is not None:
        try:
            free = shutil.disk_usage(path.parent).free
        except OSError:
            free = None
    if nospace or "database or disk is full" in text or (free is not None and free < FULL_BYTES):
        left = f" ({free:,} bytes free)" if free is not None else ""
        disk = f"the disk holding {path.parent}" if path is not None else "the database server's disk"
        return f"{disk} is full{left}: {where} could not be read or written; free some space and run it again"
    left = f" ({free:,} bytes free, so not a full disk)" if free is not None else ""
    return f"{where}: disk I/O error{left}: check the disk and the file's permissions"


def refuse_disk_error(e: BaseException, url: str, then: str = "") -> None:
    """Raise :func:`disk_error`'s sentence (and ``then``) when ``e`` is the disk's; return for any other error,
    which the caller raises as it is."""
    said = disk_error(e, url)
    if said is not None:
        raise RegisterError(said + then) from None


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        # the driver's own transaction handling off: SQLAlchemy's "begin" below says BEGIN IMMEDIATE itself
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: a commit survives a killed process
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Any) -> None:
        # IMMEDIATE: the write lock is taken at BEGIN, so a writer waits (busy_timeout) before reading the
        # chain head instead of failing at its first write after another writer committed; a reader
        # (execution option ``reading``) begins a plain snapshot and never waits (WAL)
        conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get("reading") else "BEGIN IMMEDIATE")


def _refuse_emptied(path: Path) -> None:
    """A register file that exists but holds 0 bytes (and no write-ahead log) was cut or wiped: SQLite would
    silently make a new, empty register in its place, and the audit would call it intact. A new register's
    file gets SQLite's header on its first open (WAL mode), so only a file emptied since is refused."""
    wal = path.with_name(path.name + "-wal")
    if path.is_file() and path.stat().st_size == 0 and not (wal.is_file() and wal.stat().st_size > 0):
        raise RegisterError(
            f"the register {path} is an empty file (0 bytes): it was cut or wiped, not a new register; restore it "
            "from a backup (treecalc case restore), or delete the file to start an empty register"
        )


def make_engine(url: str) -> Engine:
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        _refuse_emptied(Path(u.database or "").expanduser())
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
        _sqlite_pragmas(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


def alembic_config(url: str) -> Any:
    from alembic.config import Config  # heavy: alembic, loaded only when this runs

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def now() -> str:
    """This instant as the register writes one: ISO-8601 UTC text, to the microsecond."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


#: the newest migration (``migrations/versions``); tests/register checks it is Alembic's head
HEAD = "0006_links"


def _at_head(engine: Engine) -> bool:
    """The database already at :data:`HEAD` (one query; Alembic, 0.8 s to import, is not needed then)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return False
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD


def _revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def migrate(engine: Engine) -> None:
    """The schema at Alembic's head (``alembic.command.upgrade``), run on the given engine's connection.
    A revision this treecalc does not know is a newer one's: refused with a sentence, never migrated."""
    if _at_head(engine):
        return
    from alembic import command  # heavy: alembic, loaded only when this runs
    from alembic.script import ScriptDirectory  # heavy: alembic, loaded only when this runs
    from alembic.script.revision import RevisionError  # heavy: alembic, loaded only when this runs
    from alembic.util import CommandError  # heavy: alembic, loaded only when this runs

    cfg = alembic_config(engine.url.render_as_string(hide_password=False))
    rev = _revision(engine)
    if rev is not None:
        try:
            known = ScriptDirectory.from_config(cfg).get_revision(rev) is not None
        except (CommandError, RevisionError):  # "Can't locate revision identified by ..."
            known = False
        if not known:
            raise RegisterError(f"this register was written by a newer treecalc (schema {rev}); upgrade treecalc")
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
