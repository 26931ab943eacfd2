"""Values the database cannot hand back as their column's type: SQLite keeps any value in any column, so a
row edited or torn behind the program's back can hold bytes where text was, text that is not UTF-8 (what a
torn page reads as) or "not-a-date" in a date. Found by reading raw (``typeof`` and the bytes) and named by
table, column and row, and by the event that wrote it; used by the audit and by every read and write of the
register that meets such a value (:class:`treecalc.register.db.RegisterDamaged`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Date, Integer, LargeBinary, String, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session
from sqlalchemy.types import TypeDecorator

from treecalc.register import models as m
from treecalc.register.db import RegisterDamaged, RegisterError


@dataclass
class Broken:
    seq: int | None
    why: str

    def __str__(self) -> str:
        return (f"event {self.seq}: " if self.seq is not None else "") + self.why


def find_damage(s: Session) -> Broken | None:
    """The first value of the register that is not of its column's type, named with its table, column and row
    (and the event that wrote it); None where none is (always on PostgreSQL, whose columns hold their type).
    Read raw (``typeof``, the bytes), so that what the driver cannot decode is found, not raised."""
    if s.get_bind().dialect.name != "sqlite":
        return None
    tables = [("events", m.Event, "seq"), ("chain_head", m.ChainHead, "id")]
    tables += [(t, model, key) for t, (model, key) in m.RECORDED.items()]
    for table, model, key in tables:
        cols = list(model.__table__.columns)
        what = ", ".join(f'typeof("{c.name}"), CAST("{c.name}" AS BLOB)' for c in cols)
        for row in s.execute(text(f'SELECT CAST("{key}" AS BLOB), {what} FROM "{table}"')):  # noqa: S608 (our names)
            raw_key = bytes(row[0] or b"").decode("utf-8", errors="replace")
            row_key: Any = int(raw_key) if isinstance(model.__table__.columns[key].type, Integer) else raw_key
            for i, col in enumerate(cols):
                why = _not_its_type(col.type, row[1 + 2 * i], row[2 + 2 * i])
                if why is None:
                    continue
                if table == "events":
                    return Broken(row_key, f"events.{col.name} {why}")
                if table == "chain_head":
                    return Broken(None, f"chain_head.{col.name} {why}")
                return Broken(_writer(s, table, row_key, col.name), f"{table} {row_key}: {col.name} {why}")
    return None


def _not_its_type(typ: Any, kind: str, raw: bytes | None) -> str | None:
    """Why a value (SQLite's ``typeof`` and its bytes) is not of the column's type, else None."""
    if kind == "null" or raw is None:
        return None
    if isinstance(typ, TypeDecorator):
        typ = typ.impl_instance
    if isinstance(typ, LargeBinary):
        return None
    if kind == "blob":
        return "is stored as bytes, not " + ("a number" if isinstance(typ, Integer) else "text")
    try:
        value = bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return "is not UTF-8 text"
    if isinstance(typ, Integer) and kind != "integer":
        return f"is {value!r}, not a whole number"
    if isinstance(typ, Date):
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            return f"is {value!r}, not a date"
    elif isinstance(typ, String) and kind != "text":
        return f"is {value!r} ({kind}), not text"
    return None


def _writer(s: Session, table: str, key: Any, col: str) -> int | None:
    """The seq of the last event that wrote ``table`` ``key``'s ``col`` (events that do not read are skipped)."""
    seq = None
    for n, raw in s.execute(text("SELECT seq, CAST(body AS BLOB) FROM events ORDER BY seq")):
        try:
            body = json.loads(bytes(raw).decode("utf-8"))
        except (ValueError, TypeError):
            continue
        for ch in body.get("changes") or []:
            if ch.get("table") == table and ch.get("key") == key and col in (ch.get("row") or ch.get("set") or {}):
                seq = n
    return seq


def damaged(broken: Broken, *, writing: bool) -> RegisterDamaged:
    return RegisterDamaged(
        f"the register is damaged: {broken}"
        + ("; nothing was written" if writing else "")
        + " (treecalc case audit ‹verify› says what else; restore the register from a backup)"
    )


@contextmanager
def naming_damage(session: Session, *, writing: bool) -> Iterator[None]:
    """Around a read or a write of the register (``session``'s transaction): an error that a value not of its column's type caused (a date
    that is not one, text that is not UTF-8) becomes :class:`RegisterDamaged` naming that value, and a page
    SQLite finds malformed says the file is damaged; any other error stands as it is."""
    try:
        yield
    except (ValueError, TypeError, DBAPIError) as e:
        if isinstance(e, RegisterError):
            raise
        if isinstance(e, DBAPIError):
            said = str(e.orig)
            if "malformed" in said:  # SQLite: "database disk image is malformed"
                raise damaged(Broken(None, f"its file is damaged (SQLite: {said})"), writing=writing) from e
            if "decode" not in said:  # a locked database, a full disk, a lost server: not damage
                raise
        try:
            with Session(session.get_bind().execution_options(reading=True)) as s, s.begin():
                broken = find_damage(s)
        except Exception:  # the scan could not read it either: the error met stands
            broken = None
        if broken is None:
            raise
        raise damaged(broken, writing=writing) from e


def lock_head(s: Session, chain_hash: Callable[[str, str], str]) -> m.ChainHead:
    """The chain head, locked (PostgreSQL: FOR UPDATE; SQLite: the writer's BEGIN IMMEDIATE), after checking
    the last event against it: a chain whose last event is not the one the head names, or is not text that
    hashes to it (edited, or torn with the last page), is refused, so a write never lands on top of a damaged
    chain. ``chain_hash`` is the register's."""
    head = s.execute(select(m.ChainHead).where(m.ChainHead.id == 1).with_for_update()).scalar_one()
    if head.seq == 0:
        return head
    last = s.execute(select(m.Event.prev_hash, m.Event.body, m.Event.hash).where(m.Event.seq == head.seq)).first()
    if last is not None and isinstance(last.body, str) and isinstance(last.prev_hash, str):
        if last.hash == head.hash and chain_hash(last.prev_hash, last.body) == head.hash:
            return head
    broken = find_damage(s) or Broken(head.seq, "the last event is not the one the chain head names (edited)")
    raise damaged(broken, writing=True)
