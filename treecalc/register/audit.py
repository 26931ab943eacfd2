"""``case audit --verify``: is the register what its events say?

1. The chain: each event's ``prev_hash`` is the hash before it and its ``hash`` is
   ``sha256(prev_hash + body)``; its columns (seq, at, by, kind, case) are those of its body; the chain
   head names the last event. An event edited, removed or inserted behind the program's back breaks it.
2. The state: the events' rows replayed (inserts, then updates in order) equal the tables' rows, column
   for column; a digested column (a survey's bytes, an assessment's JSON) hashes to what its event says,
   and a file's bytes to the SHA-256 it is kept under. An amount changed with raw SQL is found here, and
   named by the event that wrote it.
3. A value the database cannot hand back as its column's type (SQLite keeps any value in any column: bytes
   where text was, text that is not UTF-8 as a torn page reads, "not-a-date" in a date) is named by table,
   column and row, and by the event that wrote it (:func:`treecalc.register.damage.find_damage`), not raised as the driver's error.
4. The anchor: the heads signed outside the database (:mod:`treecalc.register.anchor`) name events the register
   still holds, with the same hashes, and no event follows the last of them. An edit that recomputed the
   hashes (an event removed with the head wound back, one rewritten, inserted or appended) is found here.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from treecalc.register import models as m
from treecalc.register.anchor import check
from treecalc.register.core import GENESIS, Register, chain_hash, row_values
from treecalc.register.damage import Broken, find_damage

__all__ = ["Broken", "find_damage", "verify", "verify_session"]


def verify(reg: Register, *, anchors: bool = True) -> Broken | None:
    """The first break found, or None when the register is intact; the signed heads checked too (``anchors``)
    once the chain and the tables agree."""
    with reg.reading() as s:
        broken = verify_session(s)
    if broken is None and anchors:
        broken = check(reg)
    return broken


def verify_session(s: Session) -> Broken | None:
    """:func:`verify` within a transaction (a restore audits what it wrote before committing it)."""
    try:
        return _verify(s)
    except (ValueError, TypeError, DBAPIError):
        broken = find_damage(s)
        if broken is None:  # not a damaged value: the database's own error (unreachable, ...) stands
            raise
        return broken


def _verify(s: Session) -> Broken | None:
    replay: dict[str, dict[Any, dict[str, Any]]] = {t: {} for t in m.RECORDED}
    wrote: dict[tuple[str, Any, str], int] = {}  # (table, key, column) -> seq of the event that last set it
    prev, last_seq = GENESIS, 0
    for ev in s.execute(select(m.Event).order_by(m.Event.seq)).scalars():
        if ev.seq != last_seq + 1:
            return Broken(ev.seq, f"follows event {last_seq}: an event is missing")
        if ev.prev_hash != prev:
            return Broken(ev.seq, "its prev_hash is not the hash of the event before it")
        if chain_hash(prev, ev.body) != ev.hash:
            return Broken(ev.seq, "its content does not match its hash (it was edited)")
        try:
            body = json.loads(ev.body)
        except ValueError:
            return Broken(ev.seq, "its content is not JSON")
        for k in ("seq", "at", "by", "kind", "case_id"):
            if body.get(k) != getattr(ev, k):
                return Broken(ev.seq, f"its column {k} is {getattr(ev, k)!r}, its content says {body.get(k)!r}")
        for ch in body.get("changes") or []:
            table, key = ch["table"], ch["key"]
            if ch["op"] == "insert":
                replay[table][key] = dict(ch["row"])
                cols = ch["row"]
            elif ch["op"] == "delete":  # an account removed
                replay[table].pop(key, None)
                cols = {}
            else:
                replay[table].setdefault(key, {}).update(ch["set"])
                cols = ch["set"]
            for col in cols:
                wrote[(table, key, col)] = ev.seq
        prev, last_seq = ev.hash, ev.seq
    head = s.get(m.ChainHead, 1)
    if head is None or head.seq != last_seq or head.hash != prev:
        return Broken(last_seq or None, "the chain head does not name the last event (events were removed)")
    for table, (model, key_col) in m.RECORDED.items():
        expected = replay[table]
        seen = set()
        for obj in s.execute(select(model)).scalars():
            row = row_values(table, obj)
            key = row[key_col]
            seen.add(key)
            want = expected.get(key)
            if want is None:
                return Broken(None, f"{table} {key} is in the database but no event wrote it")
            for col, value in row.items():
                if want.get(col) != value:
                    seq = wrote.get((table, key, col))
                    return Broken(
                        seq,
                        f"{table} {key}: {col} is {_show(value)} in the database, the event wrote {_show(want.get(col))}",
                    )
            if table == "blobs" and hashlib.sha256(bytes(getattr(obj, "content", b""))).hexdigest() != key:
                return Broken(wrote.get((table, key, "content")), f"blobs {key}: the bytes do not hash to their key")
        for key in expected:
            if key not in seen:
                return Broken(wrote.get((table, key, key_col)), f"{table} {key} was written but is not in the database")
    return None


def _show(v: Any) -> str:
    if isinstance(v, dict) and "sha256" in v:
        return f"content with SHA-256 {v['sha256'][:12]}…"
    return repr(v)
