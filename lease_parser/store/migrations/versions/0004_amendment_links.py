"""Amendments: the amendments filed after a lease in its file, and links to their lease.

Revision ID: amendment_links
Revises: 0003
Create Date: 2026-12-01

Additive only (a nullable column, a new table), like 0002 and 0003: no SQLite table
rebuild. The revision id names what it does rather than a number, so it can be re-chained
after another revision without renaming.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "amendment_links"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("documents", sa.Column("amendments", sa.JSON(), nullable=True))
    op.create_table(
        "amendment_links",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("amendment_hash", sa.String(length=64), nullable=False),
        sa.Column("lease_hash", sa.String(length=64), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=True),
        sa.Column("evidence", sa.JSON(), nullable=True),
        sa.Column("actor", sa.String(length=128), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["amendment_hash"], ["documents.doc_hash"]),
        sa.ForeignKeyConstraint(["lease_hash"], ["documents.doc_hash"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_amendment_links_amendment_hash", "amendment_links", ["amendment_hash"], unique=True
    )
    op.create_index("ix_amendment_links_lease_hash", "amendment_links", ["lease_hash"])


def downgrade() -> None:
    op.drop_index("ix_amendment_links_lease_hash", table_name="amendment_links")
    op.drop_index("ix_amendment_links_amendment_hash", table_name="amendment_links")
    op.drop_table("amendment_links")
    op.drop_column("documents", "amendments")
