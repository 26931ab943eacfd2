"""the register: cases, events, payments, bonds, plantings, holds, notes, users, links

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    _record_tables()
    _case_tables()
    _payment_tables()
    # the chain starts from 64 zeros: the first event's prev_hash
    op.bulk_insert(
        sa.table("chain_head", sa.column("id", sa.Integer), sa.column("seq", sa.Integer), sa.column("hash", sa.String)),
        [{"id": 1, "seq": 0, "hash": "0" * 64}],
    )


def _record_tables() -> None:
    """Files, cases, the event chain, links, accounts and sign-ins."""
    op.create_table(
        "blobs",
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("sha256"),
    )
    op.create_table(
        "cases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column("address", sa.String(length=500), nullable=True),
        sa.Column("lot", sa.String(length=200), nullable=True),
        sa.Column("opened_at", sa.String(length=40), nullable=False),
        sa.Column("opened_by", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "chain_head",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "events",
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.Column("by", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("seq"),
        sa.UniqueConstraint("hash"),
    )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_events_case_id"), ["case_id"], unique=False)

    op.create_table(
        "links",
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=True),
        sa.Column("survey_sha256", sa.String(length=64), nullable=True),
        sa.Column("survey_name", sa.String(length=500), nullable=True),
        sa.Column("params", sa.Text(), nullable=True),
        sa.Column("allow_download", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.Column("expires_at", sa.String(length=40), nullable=False),
        sa.Column("revoked_at", sa.String(length=40), nullable=True),
        sa.PrimaryKeyConstraint("token_sha256"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("expires_at", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("token_sha256"),
    )
    op.create_table(
        "sign_ins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.Column("ok", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("sign_ins", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sign_ins_name"), ["name"], unique=False)

    op.create_table(
        "users",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("password_hash", sa.String(length=300), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def _case_records(
    name: str, *columns: sa.Column, indexed: tuple[str, ...] = (), references: tuple[tuple[str, str], ...] = ()
) -> None:
    """A table of one case's records: ``id``, ``case_id`` (a case's, indexed), ``columns``, a foreign key for each
    ``(column, "table.column")`` of ``references``, and an index on each of ``indexed``. The DDL is the one
    Alembic generated for these tables, statement for statement (``alembic upgrade head --sql``)."""
    op.create_table(
        name,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        *columns,
        sa.ForeignKeyConstraint(["case_id"], ["cases.id"]),
        *(sa.ForeignKeyConstraint([column], [target]) for column, target in references),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table(name, schema=None) as batch_op:
        for column in ("case_id", *indexed):
            batch_op.create_index(batch_op.f(f"ix_{name}_{column}"), [column], unique=False)


def _drop_case_records(name: str, *indexed: str) -> None:
    """The table :func:`_case_records` made, its indexes first."""
    with op.batch_alter_table(name, schema=None) as batch_op:
        for column in reversed(("case_id", *indexed)):
            batch_op.drop_index(batch_op.f(f"ix_{name}_{column}"))

    op.drop_table(name)


def _case_tables() -> None:
    """Assessments, bonds, decisions and holds."""
    _case_records(
        "assessments",
        sa.Column("survey_sha256", sa.String(length=64), nullable=True),
        sa.Column("json_text", sa.Text(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("law_files", sa.Text(), nullable=False),
        sa.Column("fund_in_lieu_cents", sa.BigInteger(), nullable=True),
        sa.Column("made_at", sa.String(length=40), nullable=False),
    )
    _case_records(
        "bonds",
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("posted_on", sa.Date(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("closed_on", sa.Date(), nullable=True),
        indexed=("status",),
    )
    _case_records(
        "decisions",
        sa.Column("outcome", sa.String(length=40), nullable=False),
        sa.Column("conditions", sa.Text(), nullable=True),
        sa.Column("decided_by", sa.String(length=200), nullable=False),
        sa.Column("decided_on", sa.Date(), nullable=False),
    )
    _case_records(
        "holds",
        sa.Column("opened_on", sa.Date(), nullable=False),
        sa.Column("closed_on", sa.Date(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        indexed=("closed_on",),
    )


def _payment_tables() -> None:
    """Notes, payments, plantings and survey versions."""
    _case_records(
        "notes",
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("written_at", sa.String(length=40), nullable=False),
    )
    _case_records(
        "payments",
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("paid_on", sa.Date(), nullable=False),
        sa.Column("reference", sa.String(length=200), nullable=True),
        indexed=("paid_on",),
    )
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.create_index("ix_payments_case_date", ["case_id", "paid_on"], unique=False)
        batch_op.create_index("ix_payments_ledger", ["paid_on", "case_id", "amount_cents"], unique=False)

    _case_records(
        "plantings",
        sa.Column("trees", sa.Integer(), nullable=False),
        sa.Column("species", sa.String(length=200), nullable=True),
        sa.Column("accepted_on", sa.Date(), nullable=False),
        sa.Column("inspection_due", sa.Date(), nullable=False),
        sa.Column("inspected_on", sa.Date(), nullable=True),
        sa.Column("trees_dead", sa.Integer(), nullable=True),
        sa.Column("replant_of", sa.Integer(), nullable=True),
        indexed=("inspection_due",),
    )
    _case_records(
        "survey_versions",
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=500), nullable=False),
        sa.Column("added_at", sa.String(length=40), nullable=False),
        references=(("sha256", "blobs.sha256"),),
    )


def downgrade() -> None:
    _drop_case_records("survey_versions")
    _drop_case_records("plantings", "inspection_due")
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.drop_index("ix_payments_ledger")
        batch_op.drop_index("ix_payments_case_date")
    _drop_case_records("payments", "paid_on")
    _drop_case_records("notes")
    _drop_case_records("holds", "closed_on")
    _drop_case_records("decisions")
    _drop_case_records("bonds", "status")
    _drop_case_records("assessments")
    op.drop_table("users")
    with op.batch_alter_table("sign_ins", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sign_ins_name"))

    op.drop_table("sign_ins")
    op.drop_table("sessions")
    op.drop_table("links")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_events_case_id"))

    op.drop_table("events")
    op.drop_table("chain_head")
    op.drop_table("cases")
    op.drop_table("blobs")
