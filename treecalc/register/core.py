"""The register: cases and what happens to them after the assessment, on SQLite or PostgreSQL.

Every write is one transaction (:meth:`Register._write`) that locks the chain head, writes its rows,
records what it wrote as one event chained to the last (``sha256(prev_hash + canonical JSON)``) and
commits: all of it or none of it. A writer that finds the database locked waits (SQLite: busy timeout,
PostgreSQL: the row lock) and is retried, so concurrent writers all land.

The register records what an assessment's JSON says (``fund_in_lieu_usd``, the jurisdiction, the options)
and what people did (payments, decisions, bonds, plantings, holds, notes); it computes only sums, dates
and balances over those records.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session

from treecalc.law.cites import section
from treecalc.money import cents as to_cents
from treecalc.money import parse_money_cents
from treecalc.quantities import to_date as _to_date
from treecalc.register import accounts, roles, voids
from treecalc.register import models as m
from treecalc.register.damage import lock_head, naming_damage
from treecalc.register.db import RegisterError, database_url, disk_error, make_engine, migrate, now, refuse_disk_error
from treecalc.register.lawfiles import law_files
from treecalc.register.owed import decided_cents, owed_balance, with_owed
from treecalc.register.plantings import check_accepted, check_replant
from treecalc.register.readings import (
    PLANTING_LAW,
    case_readings,
    ledger,
    warranty_section,
    warranty_words,
    warranty_years,
)

CASE_KINDS = {
    "permit_application": "permit application",
    "violation": "violation",
    "excavation_permit": "excavation permit",
}
_KIND_WORDS = {"permit": "permit_application", "application": "permit_application", "excavation": "excavation_permit"}
OUTCOMES = {
    "approved": "approved",
    "approved_with_conditions": "approved with conditions",
    "denied": "denied",
}
BOND_CLOSINGS = {"released", "forfeited"}
#: columns held in the event by their SHA-256 only (a survey's bytes, an assessment's JSON, a password hash)
DIGESTED = {("blobs", "content"), ("assessments", "json_text"), ("users", "password_hash")}
#: largest single amount the register takes (a payment, a bond), USD
MAX_AMOUNT_USD = Decimal("1000000000")
GENESIS = "0" * 64


def latest_day() -> dt.date:
    """The last day a record of something done may bear: tomorrow (a day's grace for time zones)."""
    return dt.date.today() + dt.timedelta(days=1)


def canonical(obj: Any) -> str:
    """The one JSON text of ``obj`` that its hash is taken over: sorted keys, no spaces, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain_hash(prev_hash: str, body: str) -> str:
    return sha256_text(prev_hash + body)


def _plain(v: Any) -> Any:
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    if isinstance(v, bytes | memoryview):
        return hashlib.sha256(bytes(v)).hexdigest()
    return v


def row_values(table: str, obj: Any) -> dict[str, Any]:
    """The row as the events hold it: dates as ISO text, digested columns as ``{"sha256": ...}``."""
    out: dict[str, Any] = {}
    for col in obj.__table__.columns:
        v = getattr(obj, col.key)
        if (table, col.key) in DIGESTED:
            raw = v if isinstance(v, bytes | memoryview) else str(v).encode("utf-8")
            out[col.key] = {"sha256": hashlib.sha256(bytes(raw)).hexdigest()}
        else:
            out[col.key] = _plain(v)
    return out


def usd_to_cents(value: Any, what: str = "‹amount›", *, positive: bool = True) -> int:
    """An amount in dollars (``"1,250.50"``, ``1250.5``) as whole cents; a fraction of a cent, a negative or
    zero amount (``positive``) or one over $1 billion is refused naming ``what``."""
    d = parse_money_cents(value, what)
    if positive and d <= 0:
        raise RegisterError(f"{what} {value!r}: give an amount above zero")
    if d < 0:
        raise RegisterError(f"{what} {value!r}: an amount cannot be negative")
    if d > MAX_AMOUNT_USD:
        raise RegisterError(f"{what} {value!r} is over ${MAX_AMOUNT_USD:,}")
    return int(d * 100)


def cents_to_usd(cents: int | None) -> str | None:
    """Cents as exact dollars text (``123456`` -> ``"1234.56"``): a JSON string, never a float."""
    if cents is None:
        return None
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def assessed_cents(value: Any) -> int | None:
    """An amount of the assessment's JSON (a float of dollars, or exact text) as cents, half up."""
    if value is None or isinstance(value, bool):
        return None

    return int(to_cents(Decimal(str(value))) * 100)


#: The largest row number a database integer holds (SQLite INTEGER, PostgreSQL BIGINT).
MAX_ROW_ID = 2**63 - 1


def row_id(value: Any, what: str) -> int:
    """A row number given by a caller: a whole number in the database's integer range, else a refusal naming
    ``what`` (a bigger int escapes the driver as an OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROW_ID:
        raise RegisterError(f"{what} {value!r}: a number from 1 to {MAX_ROW_ID:,}")
    return value


def fits(value: str | None, what: str, limit: int) -> str | None:
    """``value`` when it fits its column of ``limit`` characters, else a refusal naming ``what``: PostgreSQL
    refuses a longer VARCHAR with a bare database error and SQLite stores it, so neither may decide."""
    if value is not None and len(value) > limit:
        raise RegisterError(f"{what}: at most {limit:,} characters, got {len(value):,}")
    return value


def fund_cents(assessment: dict[str, Any]) -> int | None:
    """The fund in lieu of an assessment's JSON in cents: its exact ``fund_in_lieu_cents`` where it has them;
    the float ``fund_in_lieu_usd`` loses cents above ~$9x10^13 (999999999999999.99 reads as 1000000000000000.0)."""
    exact = assessment.get("fund_in_lieu_cents")
    if isinstance(exact, int) and not isinstance(exact, bool):
        return exact
    return assessed_cents(assessment.get("fund_in_lieu_usd"))


def to_date(value: Any, what: str) -> dt.date:
    return _to_date(value, what)


def anniversary(d: dt.date, years: int) -> dt.date:
    """The same day ``years`` later; 29 February becomes 28 February in a common year."""
    try:
        return d.replace(year=d.year + years)
    except ValueError:
        return d.replace(year=d.year + years, day=28)


@dataclass
class _Recorder:
    """The rows one write adds or changes, as the event will hold them."""

    session: Session
    changes: list[dict[str, Any]] = field(default_factory=list)

    def insert(self, table: str, obj: Any) -> Any:
        self.session.add(obj)
        self.session.flush()  # the row's id, for the event
        key = m.RECORDED[table][1]
        self.changes.append(
            {"table": table, "op": "insert", "key": _plain(getattr(obj, key)), "row": row_values(table, obj)}
        )
        return obj

    def update(self, table: str, obj: Any, **values: Any) -> Any:
        for k, v in values.items():
            setattr(obj, k, v)
        self.session.flush()
        key = m.RECORDED[table][1]
        row = row_values(table, obj)
        self.changes.append(
            {"table": table, "op": "update", "key": _plain(getattr(obj, key)), "set": {k: row[k] for k in values}}
        )
        return obj

    def delete(self, table: str, obj: Any) -> None:
        self.changes.append({"table": table, "op": "delete", "key": _plain(getattr(obj, m.RECORDED[table][1]))})
        self.session.delete(obj)
        self.session.flush()


_ENGINES: dict[str, Any] = {}


class Register:
    """The register at ``url`` (default: ``TREECALC_DB``, else the SQLite file in the user's data folder),
    its schema migrated on first use."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        engine = _ENGINES.get(self.url)
        if engine is None:
            engine = make_engine(self.url)
            try:
                migrate(engine)
            except OperationalError as e:
                said = disk_error(e, self.url) or f"the register at {_safe(self.url)} could not be opened: {e.orig}"
                raise RegisterError(said) from None
            _ENGINES[self.url] = engine
        self.engine = engine

    # -- transactions ---------------------------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[Session]:
        try:
            with Session(self.engine.execution_options(reading=True)) as s, naming_damage(s, writing=False), s.begin():
                yield s
        except (OperationalError, DBAPIError) as e:
            # a read on a full disk (SQLite's WAL writes its shared memory even to read) says so, not "disk I/O error"
            refuse_disk_error(e, self.url)
            raise

    def _write(
        self, by: str, kind: str, case_id: int | None, fn: Callable[[_Recorder], Any], *, act: str | None = None
    ) -> Any:
        """``fn`` in one transaction with its event, if the account ``by`` may do ``act`` (default: the act the
        event ``kind`` records, :mod:`treecalc.register.roles`); retried when the database was locked."""
        by = (by or "").strip()
        if not by:
            raise RegisterError("‹by›: say who acts (a name)")
        fits(by, "‹by›", 200)
        delay = 0.05
        for attempt in range(40):
            try:
                with Session(self.engine, expire_on_commit=False) as s, naming_damage(s, writing=True), s.begin():
                    head = lock_head(s, chain_hash)
                    # the role read after the head's lock: an account changed by another writer is seen changed
                    roles.check(s, by, act or roles.act_of(kind))
                    rec = _Recorder(s)
                    result = fn(rec)
                    cid = case_id if case_id is not None else getattr(result, "id", None)
                    self._append_event(s, head, by, kind, cid if isinstance(cid, int) else None, rec.changes)
                return result
            except (OperationalError, DBAPIError) as e:
                refuse_disk_error(e, self.url, "; nothing was recorded")  # rolled back: nothing was written
                if not _retryable(e) or attempt == 39:
                    raise
                time.sleep(delay)
                delay = min(delay * 1.5, 1.0)
        raise AssertionError("unreachable")

    def _append_event(
        self, s: Session, head: m.ChainHead, by: str, kind: str, case_id: int | None, changes: list[dict[str, Any]]
    ) -> m.Event:
        seq = head.seq + 1
        at = now()
        body = canonical({"seq": seq, "at": at, "by": by, "kind": kind, "case_id": case_id, "changes": changes})
        h = chain_hash(head.hash, body)
        ev = m.Event(seq=seq, at=at, by=by, kind=kind, case_id=case_id, body=body, prev_hash=head.hash, hash=h)
        s.add(ev)
        head.seq, head.hash = seq, h
        s.flush()
        return ev

    # -- writes ---------------------------------------------------------------------------------------

    def new_case(
        self,
        *,
        by: str,
        title: str,
        kind: str,
        address: str | None = None,
        lot: str | None = None,
        survey: tuple[str, bytes] | None = None,
        assessment: dict[str, Any] | None = None,
    ) -> int:
        """Open a case, with its survey (name, bytes) and the assessment's JSON when given."""
        kind = case_kind(kind)
        title = (title or "").strip()
        if not title:
            raise RegisterError("‹title›: a case needs a title (e.g. the address)")
        fits(title, "‹title›", 500)
        fits(address, "‹address›", 500)
        fits(lot, "‹lot›", 200)

        def do(rec: _Recorder) -> m.Case:
            case = rec.insert(
                "cases",
                m.Case(kind=kind, title=title, address=address, lot=lot, opened_at=now(), opened_by=by),
            )
            self._add_assessment(rec, case.id, survey, assessment)
            return case

        return int(self._write(by, "case opened", None, do).id)

    def _add_assessment(
        self, rec: _Recorder, case_id: int, survey: tuple[str, bytes] | None, assessment: dict[str, Any] | None
    ) -> None:
        sha = None
        if survey is not None:
            name, data = survey
            sha = self._put_blob(rec, data)
            rec.insert("survey_versions", m.SurveyVersion(case_id=case_id, sha256=sha, name=name[:500], added_at=now()))
        if assessment is not None:
            text = canonical(assessment)
            options = assessment.get("options") or {}
            rec.insert(
                "assessments",
                m.AssessmentRecord(
                    case_id=case_id,
                    survey_sha256=sha,
                    json_text=text,
                    fingerprint=sha256_text(text),
                    law_files=canonical(law_files({"jurisdiction": assessment.get("jurisdiction"), **options})),
                    fund_in_lieu_cents=fund_cents(assessment),
                    made_at=now(),
                ),
            )

    def _put_blob(self, rec: _Recorder, data: bytes) -> str:
        sha = hashlib.sha256(data).hexdigest()
        if rec.session.get(m.Blob, sha) is None:
            rec.insert("blobs", m.Blob(sha256=sha, size=len(data), content=data))
        return sha

    def put_blob(self, data: bytes, *, by: str) -> str:
        """Keep a file's bytes (content-addressed); its SHA-256."""
        sha = hashlib.sha256(data).hexdigest()
        with self.reading() as s:
            if s.get(m.Blob, sha) is not None:
                return sha
        return str(self._write(by, "file kept", None, lambda rec: self._put_blob(rec, data)))

    def blob(self, sha256: str) -> bytes | None:
        with self.reading() as s:
            b = s.get(m.Blob, sha256)
            return None if b is None else bytes(b.content)

    def reassess(self, case_id: int, *, by: str, survey: tuple[str, bytes] | None, assessment: dict[str, Any]) -> None:
        self._case(case_id)
        self._write(by, "assessed", case_id, lambda rec: self._add_assessment(rec, case_id, survey, assessment))

    def _add_record(
        self,
        model: Any,
        case_id: int,
        by: str,
        kind: str,
        *,
        check: Callable[[_Recorder], None] | None = None,
        key: str | None = None,
        **values: Any,
    ) -> int:
        """A new row ``model(case_id=case_id, **values)`` of the case ``case_id`` (which must exist), written with its
        event ``kind`` by ``by``; its id. The row is built inside the transaction, afresh if a locked database
        retries it, after ``check`` (which may refuse it by what the register holds) in the same transaction; once
        per form ``key`` (a key recorded before gives back its entry: :func:`voids.keep_once`)."""
        self._case(case_id)

        def do(rec: _Recorder) -> Any:
            if check is not None:
                check(rec)
            return voids.keep_once(rec, key, model(case_id=case_id, **values))

        return voids.first_of(lambda: int(self._write(by, kind, case_id, do).id))

    def pay(self, case_id: int, *, by: str, amount: Any, on: Any, reference: str | None = None, key: Any = None) -> int:
        cents = usd_to_cents(amount, "‹amount›")
        day = to_date(on, "‹date›")
        fits(reference, "‹reference›", 200)
        # A payment is recorded once received: a date past tomorrow (a day's grace for time zones) is a slip
        # (2062 for 2026), and a receipt dated ahead would sit outside every ledger run until then.
        latest = latest_day()
        if day > latest:
            raise RegisterError(f"‹date› {day}: a payment is recorded once received, not dated after {latest}")
        return self._add_record(
            m.Payment, case_id, by, "payment", key=key, amount_cents=cents, paid_on=day, reference=reference
        )

    def decide(self, case_id: int, *, by: str, outcome: str, on: Any, conditions: str | None = None) -> int:
        key = outcome.strip().lower().replace(" ", "_").replace("-", "_")
        if key not in OUTCOMES:
            raise RegisterError(f"‹outcome› {outcome!r}: one of {', '.join(OUTCOMES)}")
        if key == "approved_with_conditions" and not (conditions or "").strip():
            raise RegisterError("‹conditions›: an approval with conditions names them")
        day = to_date(on, "‹date›")
        return self._add_record(
            m.Decision, case_id, by, "decision", outcome=key, conditions=conditions, decided_by=by, decided_on=day
        )

    def post_bond(self, case_id: int, *, by: str, amount: Any, on: Any) -> int:
        cents = usd_to_cents(amount, "‹amount›")
        day = to_date(on, "‹date›")
        return self._add_record(
            m.Bond, case_id, by, "bond posted", amount_cents=cents, posted_on=day, status="held", closed_on=None
        )

    def close_bond(self, bond_id: int, *, by: str, how: str, on: Any) -> None:
        if how not in BOND_CLOSINGS:
            raise RegisterError(f"a bond is released or forfeited, not {how!r}")
        day = to_date(on, "‹date›")
        latest = latest_day()
        if how == "forfeited" and day > latest:  # a receipt of the Fund, as a payment: recorded once it is forfeited
            raise RegisterError(f"‹date› {day}: a bond is recorded forfeited once it is, not dated after {latest}")

        def do(rec: _Recorder) -> m.Bond:
            bond = rec.session.get(m.Bond, bond_id)
            if bond is None:
                raise RegisterError(f"no bond {bond_id} in the register")
            voids.refuse_voided(rec.session, "bond", bond_id)
            if bond.status != "held":
                raise RegisterError(f"bond {bond_id} was already {bond.status} on {bond.closed_on}")
            if day < bond.posted_on:
                raise RegisterError(f"‹date› {day}: bond {bond_id} was posted on {bond.posted_on}")
            return rec.update("bonds", bond, status=how, closed_on=day)

        with self.reading() as s:
            bond = s.get(m.Bond, row_id(bond_id, "bond"))
            case_id = bond.case_id if bond is not None else None
        self._write(by, f"bond {how}", case_id, do)

    def plant(
        self,
        case_id: int,
        *,
        by: str,
        trees: int,
        accepted_on: Any,
        species: str | None = None,
        replant_of: int | None = None,
    ) -> int:
        if isinstance(trees, bool) or not isinstance(trees, int) or not 1 <= trees <= 100_000:
            raise RegisterError(f"‹trees› {trees!r}: a whole number of trees from 1 to 100,000")
        day = to_date(accepted_on, "‹accepted_on›")
        fits(species, "‹species›", 200)
        check_accepted(day, latest_day())
        # the warranty in force on the day of acceptance: the first replacements' anniversary, or a replant's period
        years = warranty_years(day, replant=replant_of is not None)

        def replants_this_case(rec: _Recorder) -> None:
            check_replant(rec.session.get(m.Planting, replant_of), case_id, int(replant_of or 0), day, trees)

        return self._add_record(
            m.Planting,
            case_id,
            by,
            "replant" if replant_of else "planting",
            check=None if replant_of is None else replants_this_case,
            trees=trees,
            species=species,
            accepted_on=day,
            inspection_due=anniversary(day, years),
            replant_of=replant_of,
        )

    def inspect(self, planting_id: int, *, by: str, on: Any, dead: int = 0) -> None:
        day = to_date(on, "‹date›")

        def do(rec: _Recorder) -> m.Planting:
            p = rec.session.get(m.Planting, planting_id)
            if p is None:
                raise RegisterError(f"no planting {planting_id} in the register")
            voids.refuse_voided(rec.session, "planting", planting_id)
            if isinstance(dead, bool) or not isinstance(dead, int) or not 0 <= dead <= p.trees:
                raise RegisterError(f"‹dead› {dead!r}: from 0 to the {p.trees} trees planted")
            return rec.update("plantings", p, inspected_on=day, trees_dead=dead)

        with self.reading() as s:
            p = s.get(m.Planting, row_id(planting_id, "planting"))
            case_id = p.case_id if p is not None else None
        self._write(by, "inspection", case_id, do)

    def open_hold(self, case_id: int, *, by: str, on: Any, reason: str | None = None) -> int:
        day = to_date(on, "‹date›")
        return self._add_record(m.Hold, case_id, by, "hold opened", opened_on=day, closed_on=None, reason=reason)

    def close_hold(self, hold_id: int, *, by: str, on: Any) -> None:
        day = to_date(on, "‹date›")

        def do(rec: _Recorder) -> m.Hold:
            h = rec.session.get(m.Hold, hold_id)
            if h is None:
                raise RegisterError(f"no hold {hold_id} in the register")
            if h.closed_on is not None:
                raise RegisterError(f"hold {hold_id} was closed on {h.closed_on}")
            if day < h.opened_on:
                raise RegisterError(f"‹date› {day}: hold {hold_id} was opened on {h.opened_on}")
            return rec.update("holds", h, closed_on=day)

        with self.reading() as s:
            h = s.get(m.Hold, row_id(hold_id, "hold"))
            case_id = h.case_id if h is not None else None
        self._write(by, "hold closed", case_id, do)

    def note(self, case_id: int, *, by: str, text: str) -> int:
        if not (text or "").strip():
            raise RegisterError("‹text›: a note says something")
        return self._add_record(m.Note, case_id, by, "note", text=text, written_at=now())

    # -- reads ----------------------------------------------------------------------------------------

    def _case(self, case_id: Any) -> m.Case:
        row_id(case_id, "case")
        with self.reading() as s:
            c = s.get(m.Case, case_id)
            if c is None:
                raise RegisterError(f"no case {case_id} in the register")
            s.expunge(c)
            return c

    def show(self, case_id: int, *, events: bool = True) -> dict[str, Any]:
        """One case: what was assessed, paid, planted and decided, the balance, and (``events``) its history."""
        self._case(case_id)
        with self.reading() as s:
            c = s.get(m.Case, case_id)
            assert c is not None
            last = s.execute(
                select(
                    m.AssessmentRecord.id,
                    m.AssessmentRecord.fingerprint,
                    m.AssessmentRecord.fund_in_lieu_cents,
                    m.AssessmentRecord.made_at,
                    m.AssessmentRecord.law_files,
                    m.AssessmentRecord.survey_sha256,
                )
                .where(m.AssessmentRecord.case_id == case_id)
                .order_by(m.AssessmentRecord.id.desc())
                .limit(1)
            ).first()
            paid = s.scalar(
                select(func.coalesce(func.sum(m.Payment.amount_cents), 0)).where(m.Payment.case_id == case_id)
            )
            paid = int(paid or 0)
            payments = s.execute(
                select(m.Payment.id, m.Payment.amount_cents, m.Payment.paid_on, m.Payment.reference)
                .where(m.Payment.case_id == case_id)
                .order_by(m.Payment.paid_on, m.Payment.id)
            ).all()
            surveys = s.execute(
                select(m.SurveyVersion.id, m.SurveyVersion.name, m.SurveyVersion.sha256, m.SurveyVersion.added_at)
                .where(m.SurveyVersion.case_id == case_id)
                .order_by(m.SurveyVersion.id)
            ).all()
            decisions = s.scalars(select(m.Decision).where(m.Decision.case_id == case_id).order_by(m.Decision.id)).all()
            bonds = s.scalars(select(m.Bond).where(m.Bond.case_id == case_id).order_by(m.Bond.id)).all()
            plantings = s.scalars(select(m.Planting).where(m.Planting.case_id == case_id).order_by(m.Planting.id)).all()
            holds = s.scalars(select(m.Hold).where(m.Hold.case_id == case_id).order_by(m.Hold.id)).all()
            notes = s.scalars(select(m.Note).where(m.Note.case_id == case_id).order_by(m.Note.id)).all()
            history = (
                s.execute(
                    select(m.Event.seq, m.Event.at, m.Event.by, m.Event.kind, m.Event.hash)
                    .where(m.Event.case_id == case_id)
                    .order_by(m.Event.seq)
                ).all()
                if events
                else []
            )
            fund = last.fund_in_lieu_cents if last is not None else None
            out: dict[str, Any] = {
                "id": c.id,
                "kind": c.kind,
                "kind_words": CASE_KINDS[c.kind],
                "title": c.title,
                "address": c.address,
                "lot": c.lot,
                "opened_at": c.opened_at,
                "opened_by": c.opened_by,
                # exact dollars as text: a float would lose cents above ~$9e13
                "fund_in_lieu_usd": cents_to_usd(fund),
                "paid_usd": cents_to_usd(int(paid)),
                "fund_in_lieu_cents": fund,
                "paid_cents": int(paid),
                "assessment": None
                if last is None
                else {
                    "id": last.id,
                    "fingerprint": last.fingerprint,
                    "made_at": last.made_at,
                    "survey_sha256": last.survey_sha256,
                    "law_files": json.loads(last.law_files),
                },
                "surveys": [{"id": r.id, "name": r.name, "sha256": r.sha256, "added_at": r.added_at} for r in surveys],
                "payments": [
                    {
                        "id": r.id,
                        "amount_usd": cents_to_usd(r.amount_cents),
                        "date": r.paid_on.isoformat(),
                        "reference": r.reference,
                    }
                    for r in payments
                ],
                **_records(decisions, bonds, plantings, holds, notes),
                "events": [{"seq": e.seq, "at": e.at, "by": e.by, "kind": e.kind, "hash": e.hash} for e in history],
            }
            # what voided entries counted taken out, then what it owes (the penalties, replacement, Board's decision)
            return with_owed(s, voids.into_case(s, out, cents_to_usd), cents_to_usd)

    def assessment_json(self, case_id: int) -> dict[str, Any] | None:
        with self.reading() as s:
            text = s.scalar(
                select(m.AssessmentRecord.json_text)
                .where(m.AssessmentRecord.case_id == case_id)
                .order_by(m.AssessmentRecord.id.desc())
                .limit(1)
            )
            return None if text is None else json.loads(text)

    def cases(self) -> list[dict[str, Any]]:
        """Every case with its fund in lieu, paid and balance (one query each: grouped sums)."""
        with self.reading() as s:
            paid = voids.net_paid(
                s, s.execute(select(m.Payment.case_id, func.sum(m.Payment.amount_cents)).group_by(m.Payment.case_id))
            )
            latest = (
                select(m.AssessmentRecord.case_id, func.max(m.AssessmentRecord.id).label("aid"))
                .group_by(m.AssessmentRecord.case_id)
                .subquery()
            )
            fund: dict[int, int | None] = dict(
                s.execute(
                    select(latest.c.case_id, m.AssessmentRecord.fund_in_lieu_cents).join(
                        m.AssessmentRecord, m.AssessmentRecord.id == latest.c.aid
                    )
                ).all()
            )
            open_holds = set(s.scalars(select(m.Hold.case_id).where(m.Hold.closed_on.is_(None))).all())
            penalty = decided_cents(s)  # the Planning Board's civil penalties in force, by case
            out = []
            for c in s.scalars(select(m.Case).order_by(m.Case.id)).all():
                f, p = fund.get(c.id), int(paid.get(c.id) or 0)
                out.append(
                    {
                        "id": c.id,
                        "kind": c.kind,
                        "title": c.title,
                        "address": c.address,
                        "lot": c.lot,
                        "opened_at": c.opened_at,
                        "fund_in_lieu_usd": cents_to_usd(f),
                        "paid_usd": cents_to_usd(p),
                        "balance_usd": cents_to_usd(owed_balance(f, penalty.get(c.id), p)),
                        "holding_certificates": c.id in open_holds,
                    }
                )
            return out

    def due(self, start: Any, end: Any) -> list[dict[str, Any]]:
        """§208-22G inspections due from ``start`` to ``end`` (both included) not yet made."""
        a, b = to_date(start, "‹start›"), to_date(end, "‹end›")
        if b < a:
            raise RegisterError(f"‹end› {b} is before ‹start› {a}")
        sections = {r: warranty_section(r) for r in (False, True)}
        with self.reading() as s:
            rows = _with_case(
                s,
                m.Planting,
                where=(
                    m.Planting.inspection_due >= a,
                    m.Planting.inspection_due <= b,
                    m.Planting.inspected_on.is_(None),
                    voids.live(m.Planting, "planting"),
                ),
                order_by=(m.Planting.inspection_due, m.Planting.id),
            )
            return [
                {
                    "planting": p.id,
                    "case": p.case_id,
                    "title": title,
                    "trees": p.trees,
                    "species": p.species,
                    "accepted": p.accepted_on.isoformat(),
                    "inspection_due": p.inspection_due.isoformat(),
                    "section": sections[p.replant_of is not None],
                }
                for p, title in rows
            ]

    def fund_ledger(self, start: Any, end: Any) -> dict[str, Any]:
        """Receipts into the Fund from ``start`` to ``end``: payments, and bonds forfeited (§208-23C: deposited in the
        Fund, §208-24B), each forfeiture listed with its case; by month, by case, and the total (cents exact)."""
        a, b = to_date(start, "‹start›"), to_date(end, "‹end›")
        if b < a:
            raise RegisterError(f"‹end› {b} is before ‹start› {a}")
        within = (m.Payment.paid_on >= a, m.Payment.paid_on <= b)
        with self.reading() as s:
            # summed in the database: by day (then months here, the same on SQLite and PostgreSQL) and by case
            days = s.execute(
                select(m.Payment.paid_on, func.sum(m.Payment.amount_cents), func.count())
                .where(*within)
                .group_by(m.Payment.paid_on)
            ).all()
            cases = s.execute(
                select(m.Payment.case_id, func.sum(m.Payment.amount_cents)).where(*within).group_by(m.Payment.case_id)
            ).all()
            forfeited = [
                (bond.id, bond.case_id, bond.amount_cents, bond.closed_on, title)
                for bond, title in _with_case(
                    s,
                    m.Bond,
                    where=(m.Bond.status == "forfeited", m.Bond.closed_on >= a, m.Bond.closed_on <= b),
                    order_by=(m.Bond.closed_on, m.Bond.id),
                )
            ]
            reversed_ = voids.reversals(s, a, b)  # voided receipts, booked out on the day of their void
        return voids.with_reversals(ledger(a, b, days, cases, forfeited, cents_to_usd), reversed_, cents_to_usd)

    def payments(self, start: Any, end: Any) -> list[dict[str, Any]]:
        """Every payment from ``start`` to ``end``, in date order; a payment voided says when (``voided``)."""
        a, b = to_date(start, "‹start›"), to_date(end, "‹end›")
        with self.reading() as s:
            rows = s.execute(
                select(m.Payment.id, m.Payment.case_id, m.Payment.amount_cents, m.Payment.paid_on, m.Payment.reference)
                .where(m.Payment.paid_on >= a, m.Payment.paid_on <= b)
                .order_by(m.Payment.paid_on, m.Payment.id)
            ).all()
            gone = voids.voided_on(s, "payment")
        return [
            {
                "payment": r.id,
                "case": r.case_id,
                "amount_usd": cents_to_usd(r.amount_cents),
                "date": r.paid_on.isoformat(),
                "reference": r.reference,
                "voided": gone.get(r.id),
            }
            for r in rows
        ]

    def holds_open(self) -> list[dict[str, Any]]:
        """Open violations holding building permits and certificates of occupancy (§208-29F)."""
        with self.reading() as s:
            rows = _with_case(
                s, m.Hold, m.Case.kind, where=(m.Hold.closed_on.is_(None),), order_by=(m.Hold.opened_on, m.Hold.id)
            )
            hold = _hold_section()
            return [
                {
                    "hold": h.id,
                    "case": h.case_id,
                    "title": title,
                    "kind": kind,
                    "opened": h.opened_on.isoformat(),
                    "reason": h.reason,
                    "section": hold,
                }
                for h, title, kind in rows
            ]

    def bonds_held(self) -> dict[str, Any]:
        with self.reading() as s:
            held = (m.Bond.status == "held", voids.live(m.Bond, "bond"))
            rows = _with_case(s, m.Bond, where=held, order_by=(m.Bond.posted_on, m.Bond.id))
            total = sum(b.amount_cents for b, _ in rows)
            return {
                "total_usd": cents_to_usd(total),
                "bonds": [
                    {
                        "bond": b.id,
                        "case": b.case_id,
                        "title": t,
                        "amount_usd": cents_to_usd(b.amount_cents),
                        "posted": b.posted_on.isoformat(),
                    }
                    for b, t in rows
                ],
            }

    # -- accounts (the app's sign-in) -----------------------------------------------------------------

    def add_user(self, name: str, role: str, password: str, *, by: str) -> None:
        """Make an account, or set its role and password (:func:`treecalc.register.accounts.add`)."""
        accounts.add(self, name, role, password, by=by)


def _hold_section() -> str:
    """The section of the hold on building permits and certificates, as the register's law in force today cites it."""
    return section(PLANTING_LAW, "sections.no_building_permit", dt.date.today())


def _with_case(s: Session, model: Any, *more: Any, where: tuple[Any, ...], order_by: tuple[Any, ...]) -> list[Any]:
    """The rows of ``model`` (a table of a case's records) that ``where`` holds for, each with its case's title
    and ``more`` of the case's columns, in the order ``order_by``: the listings of the register's reports."""
    return list(
        s.execute(
            select(model, m.Case.title, *more)
            .join(m.Case, m.Case.id == model.case_id)
            .where(*where)
            .order_by(*order_by)
        ).all()
    )


def _records(decisions: Any, bonds: Any, plantings: Any, holds: Any, notes: Any) -> dict[str, Any]:
    """A case's decisions, bonds, plantings, holds and notes as :meth:`Register.show` gives them, with the readings
    of the law they rest on (a replant's warranty, a forfeited bond's receipt)."""
    sections = {r: warranty_section(r) for r in (False, True)} if plantings else {}
    return {
        "readings": case_readings(plantings, bonds),
        "decisions": [
            {
                "id": d.id,
                "outcome": d.outcome,
                "outcome_words": OUTCOMES[d.outcome],
                "conditions": d.conditions,
                "by": d.decided_by,
                "date": d.decided_on.isoformat(),
            }
            for d in decisions
        ],
        "decision": OUTCOMES[decisions[-1].outcome] if decisions else None,
        "bonds": [
            {
                "id": b.id,
                "amount_usd": cents_to_usd(b.amount_cents),
                "posted": b.posted_on.isoformat(),
                "status": b.status,
                "closed": b.closed_on.isoformat() if b.closed_on else None,
            }
            for b in bonds
        ],
        "plantings": [
            {
                "id": p.id,
                "trees": p.trees,
                "species": p.species,
                "accepted": p.accepted_on.isoformat(),
                "inspection_due": p.inspection_due.isoformat(),
                # the warranty the inspection was scheduled on (the law in force on the acceptance)
                "warranty_years": p.inspection_due.year - p.accepted_on.year,
                "warranty": warranty_words(p.inspection_due.year - p.accepted_on.year, p.replant_of is not None),
                "section": sections[p.replant_of is not None],
                "inspected": p.inspected_on.isoformat() if p.inspected_on else None,
                "trees_dead": p.trees_dead,
                "replant_of": p.replant_of,
            }
            for p in plantings
        ],
        "trees_planted": sum(p.trees for p in plantings if p.replant_of is None),
        "holds": [
            {
                "id": h.id,
                "opened": h.opened_on.isoformat(),
                "closed": h.closed_on.isoformat() if h.closed_on else None,
                "reason": h.reason,
            }
            for h in holds
        ],
        "holding_certificates": any(h.closed_on is None for h in holds),
        "notes": [{"id": n.id, "text": n.text, "at": n.written_at} for n in notes],
    }


def case_kind(kind: str) -> str:
    k = (kind or "").strip().lower().replace("-", "_").replace(" ", "_")
    k = _KIND_WORDS.get(k, k)
    if k not in CASE_KINDS:
        raise RegisterError(f"‹kind› {kind!r}: one of permit, violation, excavation")
    return k


def _retryable(e: Exception) -> bool:
    text = str(getattr(e, "orig", e)).lower()
    code = getattr(getattr(e, "orig", None), "sqlstate", None)
    return "locked" in text or "busy" in text or code in ("40001", "40P01")


def _safe(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)
