"""voids of a case's entries (the entry kept, the void saying it no longer counts) and the keys of forms
already recorded (a form sent twice records once)

Revision ID: 0004_voids
Revises: 0003_owed
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_voids"
down_revision = "0003_owed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "voids",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("entry", sa.String(length=20), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=True),
        sa.Column("voided_on", sa.Date(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("voided_by", sa.String(length=200), nullable=False),
        sa.Column("voided_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(["case_id"], ["cases.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("entry", "entry_id"),
    )
    op.create_index("ix_voids_case_id", "voids", ["case_id"])
    op.create_index("ix_voids_voided_on", "voids", ["voided_on"])
    op.create_table(
        "form_keys",
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("entry", sa.String(length=20), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("form_keys")
    op.drop_index("ix_voids_voided_on", table_name="voids")
    op.drop_index("ix_voids_case_id", table_name="voids")
    op.drop_table("voids")
