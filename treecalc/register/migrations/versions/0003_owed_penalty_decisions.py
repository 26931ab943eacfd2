"""the Planning Board's civil penalty decisions on violations (§208-29B), one row per decision

Revision ID: 0003_owed
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_owed"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "penalty_decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("decided_on", sa.Date(), nullable=False),
        sa.Column("reference", sa.String(length=200), nullable=True),
        sa.Column("section", sa.String(length=40), nullable=False),
        sa.Column("recorded_by", sa.String(length=200), nullable=False),
        sa.Column("recorded_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(["case_id"], ["cases.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_penalty_decisions_case_id", "penalty_decisions", ["case_id"])


def downgrade() -> None:
    op.drop_index("ix_penalty_decisions_case_id", table_name="penalty_decisions")
    op.drop_table("penalty_decisions")
