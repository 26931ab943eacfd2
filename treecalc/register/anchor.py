"""Signed heads of the audit chain, kept outside the database.

The chain (:mod:`treecalc.register.audit`) finds an edit that leaves a hash wrong; it cannot find one that
recomputes the hashes, which whoever can write the database can do (delete the last payment and its event and
wind the head back; change an amount and its event; insert or append an event). So every write of the register,
once committed, appends a *signed head* to an anchor file outside the database: the register (a digest of its
database URL, without the password), the last event's number and hash, the time, and an HMAC-SHA256 of these
under a key kept apart from the database. The audit checks each signed head against the events: an event
removed, rewritten or inserted at or before a signed head, or an event after the last one, is found.

* The key: the file ``TREECALC_ANCHOR_KEY`` names, else ``anchor.key`` in the user's config folder
  (platformdirs: ``~/.config/treecalc/anchor.key`` on Linux); 32 random bytes (``secrets``) written as 64
  hexadecimal characters with mode 0600 on the first write when it does not exist.
* The anchor files: one per register, ``<register>.jsonl`` in the folder ``TREECALC_ANCHORS`` names, else
  ``anchors`` in the user's state folder (``~/.local/state/treecalc/anchors`` on Linux); one JSON line per write.

What it can and cannot catch is said in docs/register.md.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import secrets
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, event, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from treecalc.register import models as m
from treecalc.register.core import now
from treecalc.register.damage import Broken
from treecalc.register.db import RegisterError

ENV_KEY = "TREECALC_ANCHOR_KEY"
ENV_DIR = "TREECALC_ANCHORS"
_PENDING = "treecalc_signed_head"


class AnchorWarning(UserWarning):
    """A write was committed but its signed head could not be written (the audit will name it unsigned)."""


def key_path() -> Path:
    given = os.environ.get(ENV_KEY, "").strip()
    if given:
        return Path(given).expanduser()
    import platformdirs  # heavy: platformdirs, loaded only when this runs

    return Path(platformdirs.user_config_dir("treecalc", appauthor=False)) / "anchor.key"


def anchor_dir() -> Path:
    given = os.environ.get(ENV_DIR, "").strip()
    if given:
        return Path(given).expanduser()
    import platformdirs  # heavy: platformdirs, loaded only when this runs

    return Path(platformdirs.user_state_dir("treecalc", appauthor=False)) / "anchors"


@functools.lru_cache(maxsize=64)
def register_id(url: str) -> str:
    """The register a database URL names: its SHA-256 (first 24 hex) without the password, a SQLite file by
    its absolute path (the same file reached from two folders is one register)."""
    u = make_url(url).set(password=None)
    if u.get_backend_name() == "sqlite" and u.database:
        u = u.set(database=str(Path(u.database).expanduser().resolve()))
    return hashlib.sha256(u.render_as_string(hide_password=False).encode("utf-8")).hexdigest()[:24]


def anchor_file(url: str) -> Path:
    return anchor_dir() / f"{register_id(url)}.jsonl"


@dataclass(frozen=True)
class SignedHead:
    seq: int
    hash: str
    at: str
    mac: str

    def words(self) -> str:
        return f"event {self.seq}, hash {self.hash[:16]}…, signed {self.at[:19]}Z (HMAC {self.mac[:16]}…)"

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "hash": self.hash, "at": self.at, "hmac": self.mac}


def _read_key(create: bool) -> bytes | None:
    p = key_path()
    try:
        text = p.read_text(encoding="ascii")
    except FileNotFoundError:
        if not create:
            return None
        _make_key(p)
        text = p.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as e:
        raise RegisterError(f"the anchor key {p} cannot be read: {getattr(e, 'strerror', None) or e}") from None
    text = text.strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != 32:
        raise RegisterError(f"the anchor key {p} is not a key (64 hexadecimal characters)")
    return key


def _make_key(p: Path) -> None:
    """A new key at ``p``, readable by its owner only; made whole beside it and linked in, so that two first
    writers at once end with one key (the second finds the first's)."""
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.{secrets.token_hex(6)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, (secrets.token_bytes(32).hex() + "\n").encode("ascii"))
    finally:
        os.close(fd)
    try:
        os.link(tmp, p)
    except FileExistsError:
        pass
    finally:
        tmp.unlink()


def _mac(key: bytes, register: str, seq: int, head_hash: str, at: str) -> str:
    msg = json.dumps([register, seq, head_hash, at], separators=(",", ":")).encode("utf-8")
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def signed_line(key: bytes, register: str, seq: int, head_hash: str, at: str) -> tuple[SignedHead, str]:
    """The signed head of event ``seq`` and its line of the anchor file."""
    head = SignedHead(seq, head_hash, at, _mac(key, register, seq, head_hash, at))
    return head, json.dumps({"register": register, **head.as_dict()}, separators=(",", ":")) + "\n"


def sign(url: str, seq: int, head_hash: str) -> SignedHead:
    """Append the signed head (``seq``, ``head_hash``) of the register at ``url`` to its anchor file (the key
    made first when there is none)."""
    key = _read_key(create=True)
    assert key is not None
    head, line = signed_line(key, register_id(url), seq, head_hash, now())
    path = anchor_file(url)
    # one write of one line in append mode: lines of writers at once do not interleave
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    try:
        fd = os.open(path, flags, 0o600)
    except FileNotFoundError:  # the folder, on the first write (not asked on every write: a payment waits)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)
    return head


def sign_current(reg: Any) -> SignedHead | None:
    """Sign the register's chain head as it is now (after a restore, or once the audit was read); None when
    the register holds no event."""
    with reg.reading() as s:
        head = s.get(m.ChainHead, 1)
        seq, h = (head.seq, head.hash) if head is not None else (0, "")
    return sign(reg.url, seq, h) if seq else None


#: the end of the anchor file read for the latest signed head: the heads of the last 20 or so writes (writers at
#: once append theirs out of order by as many as write at once)
TAIL_BYTES = 1 << 12


def _heads(url: str, key: bytes, tail: bool = False) -> tuple[list[SignedHead], Broken | None]:
    """The signed heads of the register at ``url`` (``tail``: of the file's last :data:`TAIL_BYTES` only), each
    checked against the key; the first line that is not one (edited, forged, another register's) as a break."""
    path, rid = anchor_file(url), register_id(url)
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            start = max(0, size - TAIL_BYTES) if tail else 0
            f.seek(start)
            data = f.read()
        lines = data.decode("utf-8").splitlines()
    except FileNotFoundError:
        return [], None
    except (OSError, UnicodeDecodeError) as e:
        return [], Broken(None, f"the anchor file {path} cannot be read: {getattr(e, 'strerror', None) or e}")
    if start:
        lines = lines[1:]  # the first line read is cut
    out = []
    for n, line in enumerate(lines, start=1):
        try:
            d = json.loads(line)
            head = SignedHead(int(d["seq"]), str(d["hash"]), str(d["at"]), str(d["hmac"]))
            register = d["register"]
        except (ValueError, TypeError, KeyError):
            return [], Broken(None, f"line {n} of the anchor file {path} is not a signed head")
        if register != rid or not hmac.compare_digest(head.mac, _mac(key, rid, head.seq, head.hash, head.at)):
            return [], Broken(
                None, f"line {n} of the anchor file {path} is not signed by the anchor key (forged or edited)"
            )
        out.append(head)
    return out, None


def last_head(url: str) -> SignedHead | None:
    """The latest head signed for the register at ``url`` (its signature checked), None when there is none or
    no key; printed on the register's statements so that a copy kept on paper anchors the chain too."""
    key = _read_key(create=False)
    if key is None:
        return None
    heads, broken = _heads(url, key, tail=True)  # the whole file is the audit's to check
    return None if broken is not None or not heads else max(heads, key=lambda h: h.seq)


def check(reg: Any) -> Broken | None:
    """The first event the signed heads contradict: one removed, rewritten or inserted at or before a signed
    head, or the first written after the last one; None when they agree (or when there is no key and no
    anchor file: a register never anchored, which :func:`state` says)."""
    key = _read_key(create=False)
    path = anchor_file(reg.url)
    if key is None:
        if path.exists():
            return Broken(None, f"the anchor key {key_path()} is missing: the signed heads in {path} cannot be checked")
        return None
    heads, broken = _heads(reg.url, key)
    if broken is not None:
        return broken
    with reg.reading() as s:
        events: dict[int, str] = {seq: h for seq, h in s.execute(select(m.Event.seq, m.Event.hash))}
    last = max(events, default=0)
    if not heads:
        if not last:
            return None
        return Broken(
            None,
            f"no signed head of this register in {path}: its anchor file was deleted, the register was moved "
            "(anchors are kept per database), or it was written only without the anchor key",
        )
    for h in sorted(heads, key=lambda h: h.seq):
        got = events.get(h.seq)
        if got is None:
            return Broken(
                h.seq,
                f"signed on {h.at[:19]}Z, it is not in the register, which ends at event {last}: events were removed",
            )
        if got != h.hash:
            return Broken(
                h.seq,
                f"its hash is not the one signed on {h.at[:19]}Z ({h.hash[:16]}…): it or an event before it was "
                "rewritten, hashes and all",
            )
    top = max(h.seq for h in heads)
    if last > top:
        return Broken(
            top + 1,
            f"written after the last signed head (event {top}): not signed with the anchor key (forged, written "
            "where the key was not, or its head lost in a crash)",
        )
    return None


def state(url: str) -> str:
    """One sentence for the register's output: its latest signed head, or why there is none."""
    try:
        key = _read_key(create=False)
    except RegisterError as e:
        return str(e)
    if key is None:
        return f"not anchored: no anchor key at {key_path()}"
    head = last_head(url)
    return f"signed head: {head.words()}" if head is not None else f"no signed head in {anchor_file(url)}"


# -- every committed write of an event signs its head --------------------------------------------------------


@event.listens_for(Session, "after_flush")
def _seen(session: Session, _ctx: Any) -> None:
    for obj in session.new:
        if isinstance(obj, m.Event):
            seen = session.info.get(_PENDING)
            if seen is None or obj.seq > seen[0]:
                session.info[_PENDING] = (obj.seq, obj.hash)


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    seen = session.info.pop(_PENDING, None)
    if seen is None:
        return
    bind = session.get_bind()
    url = (bind.engine if isinstance(bind, Connection) else bind).url.render_as_string(hide_password=False)
    try:
        sign(url, *seen)
    except (OSError, RegisterError) as e:
        # the write stands (committed): its head unsigned is what the audit will say, not a failed write
        warnings.warn(
            f"event {seen[0]} was recorded, but its signed head could not be written: {e}", AnchorWarning, stacklevel=2
        )


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(_PENDING, None)
