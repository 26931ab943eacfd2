"""the fee schedules of payments in lieu the Board set (§208-24C), recorded by the Engineer

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fee_schedules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("basis", sa.String(length=20), nullable=False),
        sa.Column("fee_per_tree_cents", sa.BigInteger(), nullable=True),
        sa.Column("multiplier", sa.String(length=40), nullable=True),
        sa.Column("value_basis", sa.String(length=40), nullable=True),
        sa.Column("resolution_date", sa.Date(), nullable=False),
        sa.Column("resolution", sa.String(length=200), nullable=True),
        sa.Column("recorded_by", sa.String(length=200), nullable=False),
        sa.Column("recorded_at", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("resolution_date"),
    )


def downgrade() -> None:
    op.drop_table("fee_schedules")
