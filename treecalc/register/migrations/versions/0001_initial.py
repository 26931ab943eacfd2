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


def _case_tables() -> None:
    """Assessments, bonds, decisions and holds."""
    op.create_table(
        "assessments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("survey_sha256", sa.String(length=64), nullable=True),
        sa.Column("json_text", sa.Text(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("law_files", sa.Text(), nullable=False),
        sa.Column("fund_in_lieu_cents", sa.BigInteger(), nullable=True),
        sa.Column("made_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("assessments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_assessments_case_id"), ["case_id"], unique=False)

    op.create_table(
        "bonds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("posted_on", sa.Date(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("closed_on", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("bonds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_bonds_case_id"), ["case_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_bonds_status"), ["status"], unique=False)

    op.create_table(
        "decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=40), nullable=False),
        sa.Column("conditions", sa.Text(), nullable=True),
        sa.Column("decided_by", sa.String(length=200), nullable=False),
        sa.Column("decided_on", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_decisions_case_id"), ["case_id"], unique=False)

    op.create_table(
        "holds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("opened_on", sa.Date(), nullable=False),
        sa.Column("closed_on", sa.Date(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("holds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_holds_case_id"), ["case_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_holds_closed_on"), ["closed_on"], unique=False)


def _payment_tables() -> None:
    """Notes, payments, plantings and survey versions."""
    op.create_table(
        "notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("written_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("notes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_notes_case_id"), ["case_id"], unique=False)

    op.create_table(
        "payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("paid_on", sa.Date(), nullable=False),
        sa.Column("reference", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.create_index("ix_payments_case_date", ["case_id", "paid_on"], unique=False)
        batch_op.create_index(batch_op.f("ix_payments_case_id"), ["case_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_payments_paid_on"), ["paid_on"], unique=False)
        batch_op.create_index("ix_payments_ledger", ["paid_on", "case_id", "amount_cents"], unique=False)

    op.create_table(
        "plantings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("trees", sa.Integer(), nullable=False),
        sa.Column("species", sa.String(length=200), nullable=True),
        sa.Column("accepted_on", sa.Date(), nullable=False),
        sa.Column("inspection_due", sa.Date(), nullable=False),
        sa.Column("inspected_on", sa.Date(), nullable=True),
        sa.Column("trees_dead", sa.Integer(), nullable=True),
        sa.Column("replant_of", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("plantings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_plantings_case_id"), ["case_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_plantings_inspection_due"), ["inspection_due"], unique=False)

    op.create_table(
        "survey_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=500), nullable=False),
        sa.Column("added_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["cases.id"],
        ),
        sa.ForeignKeyConstraint(
            ["sha256"],
            ["blobs.sha256"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("survey_versions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_survey_versions_case_id"), ["case_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("survey_versions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_survey_versions_case_id"))

    op.drop_table("survey_versions")
    with op.batch_alter_table("plantings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_plantings_inspection_due"))
        batch_op.drop_index(batch_op.f("ix_plantings_case_id"))

    op.drop_table("plantings")
    with op.batch_alter_table("payments", schema=None) as batch_op:
        batch_op.drop_index("ix_payments_ledger")
        batch_op.drop_index(batch_op.f("ix_payments_paid_on"))
        batch_op.drop_index(batch_op.f("ix_payments_case_id"))
        batch_op.drop_index("ix_payments_case_date")

    op.drop_table("payments")
    with op.batch_alter_table("notes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_notes_case_id"))

    op.drop_table("notes")
    with op.batch_alter_table("holds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_holds_closed_on"))
        batch_op.drop_index(batch_op.f("ix_holds_case_id"))

    op.drop_table("holds")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_decisions_case_id"))

    op.drop_table("decisions")
    with op.batch_alter_table("bonds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_bonds_status"))
        batch_op.drop_index(batch_op.f("ix_bonds_case_id"))

    op.drop_table("bonds")
    with op.batch_alter_table("assessments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_assessments_case_id"))

    op.drop_table("assessments")
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
