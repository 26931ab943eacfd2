"""``case backup FILE`` / ``case restore FILE``: the whole register in one portable file.

The file is gzip'd JSON lines: a header (format, version, the Alembic revision), then every row of every
recorded table, the events and the chain head, read in one snapshot (PostgreSQL: REPEATABLE READ; SQLite:
one read transaction under WAL), so a backup taken while others write is a state the register was in.
It restores onto SQLite or PostgreSQL alike, into an empty register only, in one transaction, and the
restored register is audited (:func:`treecalc.register.audit.verify`) before the restore is committed.
Sign-in attempts and sessions are not kept (they expire within hours).
"""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import json
from pathlib import Path
from typing import Any

from sqlalchemy import Date, Integer, LargeBinary, delete, func, insert, select, text
from sqlalchemy.exc import StatementError as SQLAlchemyStatementError
from sqlalchemy.orm import Session

from treecalc.files import Replacing
from treecalc.messages import quoted
from treecalc.register import models as m
from treecalc.register.anchor import sign_current
from treecalc.register.audit import verify_session
from treecalc.register.core import Register, RegisterError

FORMAT = "treecalc-register-backup"
VERSION = 1
TABLES = [*m.RECORDED.items(), ("events", (m.Event, "seq")), ("chain_head", (m.ChainHead, "id"))]


def _dump_value(col: Any, v: Any) -> Any:
    if v is None:
        return None
    if isinstance(col.type, LargeBinary):
        return base64.b64encode(bytes(v)).decode("ascii")
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    return v


def _load_value(col: Any, v: Any) -> Any:
    if v is None:
        return None
    if isinstance(col.type, LargeBinary):
        return base64.b64decode(v)
    if isinstance(col.type, Date):
        return dt.date.fromisoformat(v)
    return v


def backup(reg: Register, path: str | Path) -> dict[str, int]:
    """Write the register to ``path`` (atomically: a temporary file renamed); rows written per table."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise RegisterError(f"backup {path}: the folder {folder} does not exist")
    if p.is_dir():
        raise RegisterError(f"backup {path} is a folder")
    counts: dict[str, int] = {}
    engine = reg.engine
    if engine.dialect.name == "postgresql":
        engine = engine.execution_options(isolation_level="REPEATABLE READ")
    with Replacing(p) as tmp:  # a backup stays 0600: it holds the register
        with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as gz:
            with Session(engine.execution_options(reading=True)) as s, s.begin():
                revision = s.execute(text("SELECT version_num FROM alembic_version")).scalar()
                gz.write((json.dumps({"format": FORMAT, "version": VERSION, "alembic": revision}) + "\n").encode())
                for table, (model, key) in TABLES:
                    cols = list(model.__table__.columns)
                    n = 0
                    for obj in s.execute(select(model).order_by(getattr(model, key))).scalars():
                        row = {c.key: _dump_value(c, getattr(obj, c.key)) for c in cols}
                        gz.write((json.dumps({"t": table, "r": row}, ensure_ascii=False) + "\n").encode("utf-8"))
                        n += 1
                    counts[table] = n
    return counts


def restore(reg: Register, path: str | Path) -> dict[str, int]:
    """Load a backup into an empty register; refused (nothing written) when the register holds events, the
    file is not a backup, or the restored register does not pass the audit."""
    p = Path(path)
    if not p.is_file():
        raise RegisterError(f"restore {path}: no such file")
    models = {t: model for t, (model, _) in TABLES}
    counts: dict[str, int] = {}
    try:
        lines = gzip.open(p, "rt", encoding="utf-8")
        header = json.loads(lines.readline() or "{}")
    except (OSError, ValueError, EOFError, RecursionError):
        raise RegisterError(f"restore {path}: not a register backup (not gzip'd JSON lines)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RegisterError(f"restore {path}: not a register backup (no format {FORMAT})")
    if header.get("version") != VERSION:
        raise RegisterError(
            f"restore {path}: backup version {quoted(header.get('version'))}; this treecalc reads {VERSION}"
        )
    with Session(reg.engine) as s:
        with s.begin():
            held = s.scalar(select(func.count()).select_from(m.Event))
            if held:
                raise RegisterError(
                    f"restore: the register already holds {held} events; restore into an empty database "
                    "(set TREECALC_DB to a new file or database)"
                )
            s.execute(delete(m.ChainHead))
            n = 1  # the line read (the header is line 1)
            try:
                for n, line in enumerate(lines, start=2):
                    item = json.loads(line)
                    # each line is {"t": table, "r": {column: value}}: anything else (a list, a number) is no row
                    if not isinstance(item, dict) or not isinstance(item.get("r"), dict):
                        raise RegisterError(
                            f'restore {path}: line {n} is not a row of a backup ({{"t": table, "r": {{...}}}}): '
                            f"{quoted(line.strip())}; nothing was restored"
                        )
                    table = item.get("t")
                    model = models.get(table) if isinstance(table, str) else None
                    if model is None:
                        raise RegisterError(
                            f"restore {path}: line {n}: unknown table {quoted(repr(item.get('t')))}; nothing was restored"
                        )
                    cols = {c.key: c for c in model.__table__.columns}
                    row = {k: _load_value(cols[k], v) for k, v in item["r"].items() if k in cols}
                    s.execute(insert(model).values(**row))
                    counts[item["t"]] = counts.get(item["t"], 0) + 1
            except RegisterError:
                raise
            except (OSError, ValueError, TypeError, EOFError, KeyError, RecursionError, SQLAlchemyStatementError) as e:
                raise RegisterError(
                    f"restore {path}: the file is damaged at line {n} ({quoted(str(e), 200)}); nothing was restored"
                ) from None
            finally:
                lines.close()
            if reg.engine.dialect.name == "postgresql":
                for table, (model, key) in m.RECORDED.items():
                    col = model.__table__.columns[key]
                    if isinstance(col.type, Integer):
                        s.execute(
                            text(
                                f"SELECT setval(pg_get_serial_sequence('{table}', '{key}'), "
                                f"COALESCE((SELECT MAX({key}) FROM {table}), 0) + 1, false)"
                            )
                        )
            s.flush()
            broken = verify_session(s)  # before the commit: a restore that does not audit is not kept
            if broken is not None:
                raise RegisterError(f"restore {path}: the restored register does not pass the audit: {broken}")

    sign_current(reg)  # the restored head, audited, signed for this database
    return counts
