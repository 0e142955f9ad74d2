"""What the measuring tools read back after a run: pending submissions, final entries.

The soak, the benchmark and the recovery script judge the pipeline by the store's own
rows (nothing lost, nothing finished twice, when the last document finished); these are
their queries, so that SQL stays in the store.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select

from lease_parser.store.database import (
    DocumentRow,
    EventRow,
    Store,
    SubmissionRow,
    SubmissionState,
    entered_final_state,
)


def pending_submissions(store: Store, submission_ids: Sequence[str] | None = None) -> int:
    """How many submissions (of these, or of all) are still pending."""
    query = select(func.count()).where(SubmissionRow.state == SubmissionState.PENDING)
    if submission_ids is not None:
        query = query.where(SubmissionRow.id.in_(submission_ids))
    with store.session() as s:
        return int(s.scalar(query) or 0)


def last_finished_at(store: Store) -> dt.datetime | None:
    """When the last document was finished (as stored: SQLite drops the zone)."""
    with store.session() as s:
        return s.scalar(select(func.max(DocumentRow.finished_at)))


def final_entries(store: Store, doc_hash: str) -> int:
    """How many times a document entered a final state (exactly once, if all is well)."""
    with store.session() as s:
        query = (
            select(func.count())
            .select_from(EventRow)
            .where(EventRow.doc_hash == doc_hash, entered_final_state())
        )
        return int(s.scalar(query) or 0)


@dataclass(frozen=True)
class RunRecord:
    """A run's submissions as the store has them."""

    #: Submission id → its state, for those the store recorded.
    submissions: dict[str, str]
    #: (state, reason) of each document those submissions made.
    documents: list[tuple[str, str | None]]
    #: (doc_hash, final state, how many times it was entered) for those documents.
    final_entries: list[tuple[str, str, int]]


def run_record(store: Store, submission_ids: Sequence[str]) -> RunRecord:
    with store.session() as s:
        subs = s.execute(
            select(SubmissionRow.id, SubmissionRow.state).where(
                SubmissionRow.id.in_(submission_ids)
            )
        ).all()
        hashes = select(SubmissionRow.doc_hash).where(SubmissionRow.id.in_(submission_ids))
        docs = s.execute(
            select(DocumentRow.state, DocumentRow.reason).where(DocumentRow.doc_hash.in_(hashes))
        ).all()
        events = s.execute(
            select(EventRow.doc_hash, EventRow.state, func.count())
            .where(EventRow.doc_hash.in_(hashes), entered_final_state())
            .group_by(EventRow.doc_hash, EventRow.state)
        ).all()
    return RunRecord(
        submissions={str(i): str(state) for i, state in subs},
        documents=[(str(state), reason) for state, reason in docs],
        final_entries=[(str(h), str(state), int(n)) for h, state, n in events],
    )
