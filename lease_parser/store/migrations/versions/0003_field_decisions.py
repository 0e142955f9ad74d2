"""Field-level review decisions and the committed source of each value.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Additive only (a new table, a nullable column), like 0002: no SQLite table rebuild.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "review_decisions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("doc_hash", sa.String(length=64), nullable=False),
        sa.Column("review_since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=False),
        sa.Column("value", sa.JSON(), nullable=True),
        sa.Column("reviewer", sa.String(length=128), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("doc_hash", "review_since", "field", name="uq_review_decisions_field"),
    )
    op.create_index("ix_review_decisions_doc_hash", "review_decisions", ["doc_hash"])
    op.add_column("documents", sa.Column("field_sources", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("documents", "field_sources")
    op.drop_index("ix_review_decisions_doc_hash", table_name="review_decisions")
    op.drop_table("review_decisions")
