"""Review queue and results: state timestamps, claims, corrections, event detail.

Revision ID: 0002
Revises: 0001
Create Date: 2024-06-08

Only additive steps (new nullable columns, an index, a backfill), so no SQLite table
rebuild: a rebuild of ``documents`` would fail its foreign keys from ``submissions``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for name in ("claimed_at", "reviewed_at", "state_changed_at"):
        op.add_column("documents", sa.Column(name, sa.DateTime(timezone=True), nullable=True))
    op.add_column("documents", sa.Column("corrections", sa.JSON(), nullable=True))
    op.add_column("document_events", sa.Column("detail", sa.JSON(), nullable=True))
    # The time a document entered its current state: when the pipeline finished it, or
    # (still pending) when it was submitted.
    op.execute(
        "UPDATE documents SET state_changed_at = COALESCE(finished_at, created_at) "
        "WHERE state_changed_at IS NULL"
    )
    op.create_index("ix_documents_state_changed", "documents", ["state", "state_changed_at"])


def downgrade() -> None:
    # Plain DROP COLUMN (SQLite ≥ 3.35), not batch mode: see the module docstring.
    op.drop_index("ix_documents_state_changed", table_name="documents")
    op.drop_column("document_events", "detail")
    for name in ("corrections", "state_changed_at", "reviewed_at", "claimed_at"):
        op.drop_column("documents", name)
