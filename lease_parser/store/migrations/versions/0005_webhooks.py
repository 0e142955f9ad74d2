"""Webhooks: where to tell a client that its document is final, and how that went.

Revision ID: webhooks
Revises: amendment_links
Create Date: 2026-12-01

Additive only (a new table), like 0002-0004: no SQLite table rebuild.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "webhooks"
down_revision = "amendment_links"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("doc_hash", sa.String(length=64), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("document_url", sa.String(length=2048), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("notified_state_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_status", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["doc_hash"], ["documents.doc_hash"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_webhooks_doc_hash", "webhooks", ["doc_hash"])


def downgrade() -> None:
    op.drop_index("ix_webhooks_doc_hash", table_name="webhooks")
    op.drop_table("webhooks")
