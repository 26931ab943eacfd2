"""links that stay links: who made each one and what it was made from; anonymous shares, shared surveys' bytes and
how often a link was opened, kept outside the audited record

Revision ID: 0006_links
Revises: 0005_roles
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_links"
down_revision = "0005_roles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("links") as b:
        b.add_column(sa.Column("made_by", sa.String(length=200), nullable=True))
        b.add_column(sa.Column("parent_sha256", sa.String(length=64), nullable=True))
        b.create_index("ix_links_made_by", ["made_by"])
        b.create_index("ix_links_parent_sha256", ["parent_sha256"])
    op.create_table(
        "anon_links",
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("browser", sa.String(length=64), nullable=False),
        sa.Column("survey_sha256", sa.String(length=64), nullable=True),
        sa.Column("survey_name", sa.String(length=500), nullable=True),
        sa.Column("params", sa.Text(), nullable=True),
        sa.Column("allow_download", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.Column("expires_at", sa.String(length=40), nullable=False),
        sa.Column("revoked_at", sa.String(length=40), nullable=True),
        sa.PrimaryKeyConstraint("token_sha256"),
    )
    op.create_index("ix_anon_links_browser", "anon_links", ["browser"])
    op.create_table(
        "shared_files",
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("sha256"),
    )
    op.create_table(
        "link_opens",
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("opened", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.String(length=40), nullable=True),
        sa.PrimaryKeyConstraint("token_sha256"),
    )


def downgrade() -> None:
    op.drop_table("link_opens")
    op.drop_table("shared_files")
    op.drop_index("ix_anon_links_browser", table_name="anon_links")
    op.drop_table("anon_links")
    with op.batch_alter_table("links") as b:
        b.drop_index("ix_links_parent_sha256")
        b.drop_index("ix_links_made_by")
        b.drop_column("parent_sha256")
        b.drop_column("made_by")
