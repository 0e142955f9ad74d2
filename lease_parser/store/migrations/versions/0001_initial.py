"""The walking skeleton's schema: documents, submissions, document_events.

Revision ID: 0001
Revises:
Create Date: 2024-06-01

Equal to what ``Base.metadata.create_all`` made before there were migrations, so a store
created then is adopted by stamping it at this revision (``upgrade_to_head`` does that).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _timestamp(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("doc_hash", sa.String(64), nullable=False),
        sa.Column("doc_key", sa.String(1024), nullable=False),
        sa.Column("key_version", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(64), nullable=True),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.Column("kind", sa.String(16), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=True),
        sa.Column("fields", sa.JSON(), nullable=True),
        sa.Column("problems", sa.JSON(), nullable=True),
        sa.Column("pages", sa.Integer(), nullable=True),
        sa.Column("ocr_pages", sa.Integer(), nullable=True),
        sa.Column("source", sa.String(16), nullable=True),
        sa.Column("reviewer", sa.String(128), nullable=True),
        sa.Column("processed_by", sa.String(64), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("review_priority", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.String(128), nullable=True),
        _timestamp("claim_expires_at", nullable=True),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        _timestamp("finished_at", nullable=True),
        sa.UniqueConstraint("doc_key", "key_version", name="uq_documents_key_version"),
    )
    op.create_index("ix_documents_doc_hash", "documents", ["doc_hash"], unique=True)
    op.create_index("ix_documents_doc_key", "documents", ["doc_key"])
    op.create_index("ix_documents_state", "documents", ["state"])
    op.create_table(
        "submissions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("doc_hash", sa.String(64), sa.ForeignKey("documents.doc_hash"), nullable=False),
        sa.Column("doc_key", sa.String(1024), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        _timestamp("created_at"),
        _timestamp("updated_at"),
    )
    op.create_index("ix_submissions_doc_hash", "submissions", ["doc_hash"])
    op.create_table(
        "document_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("doc_hash", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(64), nullable=True),
        sa.Column("submission_id", sa.String(64), nullable=True),
        sa.Column("actor", sa.String(128), nullable=True),
        _timestamp("at"),
    )
    op.create_index("ix_document_events_doc_hash", "document_events", ["doc_hash"])


def downgrade() -> None:
    op.drop_table("document_events")
    op.drop_table("submissions")
    op.drop_table("documents")
