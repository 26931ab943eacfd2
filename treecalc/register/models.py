"""The register's tables (SQLAlchemy 2 declarative models).

Two kinds of table:

* ``events``: the append-only record. Every change is one event: who, when, what kind, and the rows it
  wrote, as canonical JSON; each event's ``hash`` is ``sha256(prev_hash + canonical JSON)``, so the chain
  breaks where anything was edited behind the program's back (:mod:`treecalc.register.audit`).
* the state tables (cases, payments, bonds, ...): what the events say, kept as rows so that a case, a
  ledger or a due list is one indexed query. Each row is written only through an event
  (:meth:`treecalc.register.core.Register._write`), and the audit replays the events and compares.

Money is integer cents (``*_cents``), dates are ``Date``, instants ISO-8601 UTC text (the same on SQLite
and PostgreSQL, and as they are in the events).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import BigInteger, Date, ForeignKey, Index, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.exc import DontWrapMixin
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from treecalc.register.db import RegisterError


class Base(DeclarativeBase):
    pass


class Event(Base):
    __tablename__ = "events"
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    at: Mapped[str] = mapped_column(String(40))
    by: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(60))
    case_id: Mapped[int | None] = mapped_column(Integer, index=True)
    body: Mapped[str] = mapped_column(Text)  # canonical JSON of {seq, at, by, kind, case_id, changes}
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64), unique=True)


class ChainHead(Base):
    """One row: the last event's seq and hash. Writers lock it (FOR UPDATE; SQLite: BEGIN IMMEDIATE), so
    events are appended one after another whatever the number of writers."""

    __tablename__ = "chain_head"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    hash: Mapped[str] = mapped_column(String(64))


class Case(Base):
    __tablename__ = "cases"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))  # permit_application | violation | excavation_permit
    title: Mapped[str] = mapped_column(String(500))
    address: Mapped[str | None] = mapped_column(String(500))
    lot: Mapped[str | None] = mapped_column(String(200))
    opened_at: Mapped[str] = mapped_column(String(40))
    opened_by: Mapped[str] = mapped_column(String(200))


class Blob(Base):
    """A file's bytes, content-addressed: its SHA-256 is its key, so the same survey is held once."""

    __tablename__ = "blobs"
    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    size: Mapped[int] = mapped_column(BigInteger)
    content: Mapped[bytes] = mapped_column(LargeBinary)


class SurveyVersion(Base):
    __tablename__ = "survey_versions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    sha256: Mapped[str] = mapped_column(ForeignKey("blobs.sha256"))
    name: Mapped[str] = mapped_column(String(500))
    added_at: Mapped[str] = mapped_column(String(40))


class AssessmentRecord(Base):
    __tablename__ = "assessments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    survey_sha256: Mapped[str | None] = mapped_column(String(64))
    json_text: Mapped[str] = mapped_column(Text)
    fingerprint: Mapped[str] = mapped_column(String(64))  # sha256 of json_text
    law_files: Mapped[str] = mapped_column(Text)  # JSON {file name: sha256} of the law in force
    fund_in_lieu_cents: Mapped[int | None] = mapped_column(BigInteger)
    made_at: Mapped[str] = mapped_column(String(40))


class Decision(Base):
    __tablename__ = "decisions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    outcome: Mapped[str] = mapped_column(String(40))  # approved | approved_with_conditions | denied
    conditions: Mapped[str | None] = mapped_column(Text)
    decided_by: Mapped[str] = mapped_column(String(200))
    decided_on: Mapped[dt.date] = mapped_column(Date)


class PenaltyDecision(Base):
    """The Planning Board's civil penalty on a violation, assessed after the hearing (the section of the law file's
    civil penalty bracket, §208-29B): one row per decision, never changed; the latest by date is the one owed."""

    __tablename__ = "penalty_decisions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    decided_on: Mapped[dt.date] = mapped_column(Date)
    reference: Mapped[str | None] = mapped_column(String(200))  # the Board's resolution or minutes
    section: Mapped[str] = mapped_column(String(40))  # as the law file cites it
    recorded_by: Mapped[str] = mapped_column(String(200))
    recorded_at: Mapped[str] = mapped_column(String(40))


class Payment(Base):
    __tablename__ = "payments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    paid_on: Mapped[dt.date] = mapped_column(Date, index=True)
    reference: Mapped[str | None] = mapped_column(String(200))


class Bond(Base):
    __tablename__ = "bonds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    posted_on: Mapped[dt.date] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(20), index=True)  # held | released | forfeited
    closed_on: Mapped[dt.date | None] = mapped_column(Date)


class Planting(Base):
    __tablename__ = "plantings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    trees: Mapped[int] = mapped_column(Integer)
    species: Mapped[str | None] = mapped_column(String(200))
    accepted_on: Mapped[dt.date] = mapped_column(Date)  # provisional acceptance
    inspection_due: Mapped[dt.date] = mapped_column(Date, index=True)  # its third anniversary
    inspected_on: Mapped[dt.date | None] = mapped_column(Date)
    trees_dead: Mapped[int | None] = mapped_column(Integer)
    replant_of: Mapped[int | None] = mapped_column(Integer)


class Hold(Base):
    __tablename__ = "holds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    opened_on: Mapped[dt.date] = mapped_column(Date)
    closed_on: Mapped[dt.date | None] = mapped_column(Date, index=True)
    reason: Mapped[str | None] = mapped_column(Text)


class Note(Base):
    __tablename__ = "notes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    text: Mapped[str] = mapped_column(Text)
    written_at: Mapped[str] = mapped_column(String(40))


class User(Base):
    __tablename__ = "users"
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    role: Mapped[str] = mapped_column(String(20))  # engineer | clerk | viewer
    password_hash: Mapped[str] = mapped_column(String(300))
    # when the account was disabled (it cannot sign in or act; its history stays), else None
    disabled_at: Mapped[str | None] = mapped_column(String(40), default=None)


class Link(Base):
    """A link made on purpose: the holder of the token sees one case (``case``) or one view of a survey
    (``view``), read-only, until it expires or is revoked. Only the token's SHA-256 is kept."""

    __tablename__ = "links"
    token_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))  # case | view
    case_id: Mapped[int | None] = mapped_column(Integer)
    survey_sha256: Mapped[str | None] = mapped_column(String(64))
    survey_name: Mapped[str | None] = mapped_column(String(500))
    params: Mapped[str | None] = mapped_column(Text)  # the view's options (JSON)
    allow_download: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[str] = mapped_column(String(40))
    expires_at: Mapped[str] = mapped_column(String(40))
    revoked_at: Mapped[str | None] = mapped_column(String(40))


class FeeScheduleRecord(Base):
    """A fee schedule of payments in lieu the Board set (§208-24C), as the Engineer recorded it: one row per
    resolution, never changed (a later resolution is a new row; the history is the table)."""

    __tablename__ = "fee_schedules"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    basis: Mapped[str] = mapped_column(String(20))  # per_tree | value
    fee_per_tree_cents: Mapped[int | None] = mapped_column(BigInteger)
    multiplier: Mapped[str | None] = mapped_column(String(40))  # exact decimal text
    value_basis: Mapped[str | None] = mapped_column(String(40))
    resolution_date: Mapped[dt.date] = mapped_column(Date, unique=True)
    resolution: Mapped[str | None] = mapped_column(String(200))  # the resolution's reference
    recorded_by: Mapped[str] = mapped_column(String(200))
    recorded_at: Mapped[str] = mapped_column(String(40))


class Void(Base):
    """An entry of a case (a payment, a planting, a decision, a bond) voided: the entry's row stays as it was
    written, and this row says it no longer counts, from when, why and by whom. An entry is voided once
    (the unique pair); a void is never voided (record the entry again instead)."""

    __tablename__ = "voids"
    __table_args__ = (UniqueConstraint("entry", "entry_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[str] = mapped_column(String(20))  # payment | planting | decision | bond
    entry_id: Mapped[int] = mapped_column(Integer)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    # a payment's or a forfeited bond's amount reversed (a receipt out of the Fund on voided_on), else None
    amount_cents: Mapped[int | None] = mapped_column(BigInteger)
    voided_on: Mapped[dt.date] = mapped_column(Date, index=True)
    reason: Mapped[str] = mapped_column(Text)
    voided_by: Mapped[str] = mapped_column(String(200))
    voided_at: Mapped[str] = mapped_column(String(40))


class FormKey(Base):
    """The key of one form as the app drew it, and the entry its first submission recorded: the same form sent
    again (a double click, a reload that resubmits) finds its key here and records nothing more."""

    __tablename__ = "form_keys"
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    entry: Mapped[str] = mapped_column(String(20))
    entry_id: Mapped[int] = mapped_column(Integer)
    case_id: Mapped[int | None] = mapped_column(Integer)


# sign-in state is not part of the record (not chained): throttling and sessions change on every request
class SignIn(Base):
    __tablename__ = "sign_ins"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    at: Mapped[str] = mapped_column(String(40))
    ok: Mapped[int] = mapped_column(Integer)


class Session(Base):
    __tablename__ = "sessions"
    token_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    expires_at: Mapped[str] = mapped_column(String(40))


class NulInText(RegisterError, DontWrapMixin):
    """A NUL character given for a text column (not wrapped by SQLAlchemy: the caller sees this refusal)."""


class NulFree(TypeDecorator[str]):
    """A text column that refuses a NUL character, naming the column. SQLite stores one and PostgreSQL refuses
    it, so a register holding one could not be restored onto PostgreSQL: refused on both, for every value bound
    to the column (an insert, an update, a restore, a look-up by name)."""

    impl = String
    cache_ok = True

    def __init__(self, inner: String, where: str) -> None:
        super().__init__()
        # the column's own String(n) or Text: the same DDL and comparison (SQLAlchemy types impl as a class here)
        self.impl = inner  # type: ignore[assignment]
        self.where = where

    def process_bind_param(self, value: Any, dialect: Any) -> Any:
        if isinstance(value, str) and "\x00" in value:
            at = value.index("\x00") + 1
            raise NulInText(
                f"{self.where}: a NUL character (\\x00, character {at}) is not kept: PostgreSQL refuses one in text"
            )
        return value


def _refuse_nul(metadata: Any) -> None:
    for table in metadata.tables.values():
        for col in table.columns:
            if isinstance(col.type, String):
                col.type = NulFree(col.type, f"{table.name}.{col.name}")


Index("ix_payments_case_date", Payment.case_id, Payment.paid_on)
# the Fund ledger of a period sums from this index alone (covering: no lookup of each payment's row)
Index("ix_payments_ledger", Payment.paid_on, Payment.case_id, Payment.amount_cents)

_refuse_nul(Base.metadata)

#: the state tables written through events, with their key column (the audit replays them)
RECORDED = {
    "cases": (Case, "id"),
    "blobs": (Blob, "sha256"),
    "survey_versions": (SurveyVersion, "id"),
    "assessments": (AssessmentRecord, "id"),
    "decisions": (Decision, "id"),
    "penalty_decisions": (PenaltyDecision, "id"),
    "payments": (Payment, "id"),
    "bonds": (Bond, "id"),
    "plantings": (Planting, "id"),
    "holds": (Hold, "id"),
    "notes": (Note, "id"),
    "users": (User, "name"),
    "links": (Link, "token_sha256"),
    "fee_schedules": (FeeScheduleRecord, "id"),
    "voids": (Void, "id"),
    "form_keys": (FormKey, "key"),
}
