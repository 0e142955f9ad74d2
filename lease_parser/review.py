"""The human review queue: documents in state ``review``, kept in the canonical store.

The store is the queue's system of record (nothing about it lives in Redis), so it
survives a broker loss. Order: highest ``review_priority`` first, then oldest (the time
the document entered review). A reviewer *claims* an item for ``claim_ttl`` seconds; a
claim that is not decided in time expires and the item is back in the queue.

Two reviewers never hold the same item: a claim is one conditional UPDATE ("set
claimed_by = me where the item is unclaimed or its claim expired"), so of two racing
claims exactly one changes the row. On PostgreSQL the candidate is also picked with
``SELECT … FOR UPDATE SKIP LOCKED`` so racing reviewers pick different rows instead of
retrying; SQLite serialises writers, so the conditional UPDATE alone decides there.

Decisions (approve, correct, reject) are conditional UPDATEs too (``where state =
'review'`` and nobody else holds a live claim), each in one transaction with its audit
event: a document is committed at most once, whoever races. Approve and correct commit
with source ``review`` and the reviewer's name; every value is re-validated by the same
model the pipeline uses (``normalization.typed_value`` and ``consistency_problems``).

A reviewer's rejection moves the document to ``dead`` with reason
``rejected_by_reviewer`` (their stated reason in ``detail``), not to a new state: the
states stay the closed set every consumer knows (status, metrics, exports), ``dead``
already means "will not become an abstraction as it is", and ops can still replay it
by hand (``lease-parser dead requeue HASH``) once a better copy exists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from sqlalchemy import ColumnElement, and_, or_, select, update

from lease_parser.corrections import apply_corrections, commit_problems
from lease_parser.errors import LeaseParserError, Reason
from lease_parser.model import FieldProblem
from lease_parser.store import DocumentRow, DocumentState, EventRow, Store, as_utc, utcnow

# Each lost claim race means another reviewer just got an item; this bounds the retries
# of one call in a stampede (with SKIP LOCKED on PostgreSQL races are rare anyway).
MAX_CLAIM_ATTEMPTS = 20


class ReviewRefused(LeaseParserError):
    """A review action that cannot be done as asked; ``problems`` say which fields and why."""

    def __init__(self, message: str, problems: list[FieldProblem] | None = None, **context: Any):
        super().__init__(message, **context)
        self.problems = problems or []


class ItemNotFound(ReviewRefused):
    """No document with that hash."""


@dataclass(frozen=True)
class ReviewItem:
    """A document as a reviewer sees it: where it is doubtful and why, and who holds it."""

    doc_hash: str
    doc_key: str
    key_version: int
    state: str
    reason: str | None
    detail: str | None
    kind: str | None
    confidence: float | None
    problems: list[dict[str, Any]]
    fields: dict[str, Any]
    priority: int
    since: dt.datetime
    claimed_by: str | None
    claim_expires_at: dt.datetime | None

    @classmethod
    def from_row(cls, row: DocumentRow, now: dt.datetime) -> ReviewItem:
        expires = as_utc(row.claim_expires_at) if row.claim_expires_at else None
        live = expires is not None and expires > now
        return cls(
            doc_hash=row.doc_hash,
            doc_key=row.doc_key,
            key_version=row.key_version,
            state=row.state,
            reason=row.reason,
            detail=row.detail,
            kind=row.kind,
            confidence=row.confidence,
            problems=list(row.problems or []),
            fields=dict(row.fields or {}),
            priority=row.review_priority,
            since=as_utc(row.state_changed_at or row.created_at),
            claimed_by=row.claimed_by if live else None,
            claim_expires_at=expires if live else None,
        )

    @property
    def doubtful(self) -> list[str]:
        """The fields a reviewer must check, most serious first (the gate's order)."""
        return list(dict.fromkeys(str(p["field"]) for p in self.problems))

    def to_json(self) -> dict[str, Any]:
        return {
            "doc_hash": self.doc_hash,
            "doc_key": self.doc_key,
            "key_version": self.key_version,
            "state": self.state,
            "reason": self.reason,
            "detail": self.detail,
            "kind": self.kind,
            "confidence": self.confidence,
            "priority": self.priority,
            "in_review_since": self.since.isoformat(),
            "claimed_by": self.claimed_by,
            "claim_expires_at": self.claim_expires_at.isoformat()
            if self.claim_expires_at
            else None,
            "problems": self.problems,
            "fields": self.fields,
        }


class ReviewQueue:
    """Claim, inspect and decide review items. One per process is enough; it is stateless."""

    def __init__(
        self, store: Store, claim_ttl: int = 1800, clock: Callable[[], dt.datetime] = utcnow
    ) -> None:
        self.store = store
        self.claim_ttl = dt.timedelta(seconds=claim_ttl)
        self.clock = clock

    # -- reading -------------------------------------------------------------------------

    def items(self, limit: int = 100, reason: str | None = None) -> list[ReviewItem]:
        """Items in review in queue order (priority, then oldest), claimed or not."""
        now = self.clock()
        query = select(DocumentRow).where(_IN_REVIEW).order_by(*_QUEUE_ORDER).limit(limit)
        if reason:
            query = query.where(DocumentRow.reason == reason)
        with self.store.session() as s:
            return [ReviewItem.from_row(row, now) for row in s.scalars(query)]

    def item(self, doc_hash: str) -> ReviewItem:
        """Any document by hash, as a review item (it may have left review)."""
        row = self.store.document(doc_hash)
        if row is None:
            raise ItemNotFound(f"no document with hash {doc_hash}", doc_hash=doc_hash)
        return ReviewItem.from_row(row, self.clock())

    # -- claims --------------------------------------------------------------------------

    def claim_next(self, reviewer: str) -> ReviewItem | None:
        """The item this reviewer already holds (renewed), else the next free one; None if
        the queue is empty."""
        held = self._renew_own_claim(reviewer)
        if held is not None:
            return held
        for _attempt in range(MAX_CLAIM_ATTEMPTS):
            now = self.clock()
            with self.store.session() as s:
                candidate = s.scalar(
                    select(DocumentRow.id)
                    .where(_IN_REVIEW, _claimable(now))
                    .order_by(*_QUEUE_ORDER)
                    .limit(1)
                    .with_for_update(skip_locked=True)  # PostgreSQL; SQLite ignores it
                )
                if candidate is None:
                    return None
                won = s.execute(
                    update(DocumentRow)
                    .where(
                        DocumentRow.id == candidate,
                        DocumentRow.state == DocumentState.REVIEW,
                        _claimable(now),
                    )
                    .values(
                        claimed_by=reviewer, claimed_at=now, claim_expires_at=now + self.claim_ttl
                    )
                ).rowcount  # type: ignore[attr-defined]
                if won:
                    row = s.get_one(DocumentRow, candidate)
                    s.add(_claim_event(row.doc_hash, "claimed", reviewer, now))
                    return ReviewItem.from_row(row, now)
        return None

    def _renew_own_claim(self, reviewer: str) -> ReviewItem | None:
        """Conditional like a claim: a claim that expired a moment ago may be someone else's."""
        now = self.clock()
        with self.store.session() as s:
            held = s.scalar(
                select(DocumentRow.id)
                .where(_IN_REVIEW, _held_by(reviewer, now))
                .order_by(*_QUEUE_ORDER)
                .limit(1)
            )
            if held is None:
                return None
            renewed = s.execute(
                update(DocumentRow)
                .where(DocumentRow.id == held, _IN_REVIEW, _held_by(reviewer, now))
                .values(claim_expires_at=now + self.claim_ttl)
            ).rowcount  # type: ignore[attr-defined]
            return ReviewItem.from_row(s.get_one(DocumentRow, held), now) if renewed else None

    def release(self, doc_hash: str, reviewer: str) -> None:
        """Give an item back to the queue undecided."""
        now = self.clock()
        with self.store.session() as s:
            released = s.execute(
                update(DocumentRow)
                .where(
                    DocumentRow.doc_hash == doc_hash,
                    DocumentRow.state == DocumentState.REVIEW,
                    DocumentRow.claimed_by == reviewer,
                )
                .values(claimed_by=None, claimed_at=None, claim_expires_at=None)
            ).rowcount  # type: ignore[attr-defined]
            if released:
                s.add(_claim_event(doc_hash, "released", reviewer, now))
        if not released:
            raise ReviewRefused(f"{reviewer} does not hold {doc_hash[:12]}", doc_hash=doc_hash)

    def prioritize(self, doc_hash: str, priority: int) -> None:
        """Move an item up (higher first) or down the queue."""
        with self.store.session() as s:
            changed = s.execute(
                update(DocumentRow)
                .where(DocumentRow.doc_hash == doc_hash, DocumentRow.state == DocumentState.REVIEW)
                .values(review_priority=priority)
            ).rowcount  # type: ignore[attr-defined]
        if not changed:
            self._refuse(doc_hash, reviewer=None)

    # -- decisions -----------------------------------------------------------------------

    def approve(self, doc_hash: str, reviewer: str) -> DocumentRow:
        """Commit the values as they are, vouched for by ``reviewer``."""
        item = self._decidable(doc_hash, reviewer)
        if not any(f.get("value") is not None for f in item.fields.values()):
            raise ReviewRefused(_no_abstraction(item), doc_hash=doc_hash)
        _refuse_if(self._commit_problems(item, item.fields))
        return self._decide(item, reviewer, _commit_values(item.fields, None), "approved")

    def correct(self, doc_hash: str, reviewer: str, changes: Mapping[str, str]) -> DocumentRow:
        """Commit with the reviewer's values for some fields; every value is re-validated."""
        item = self._decidable(doc_hash, reviewer)
        if item.reason == Reason.NEEDS_CREDENTIAL:
            raise ReviewRefused(_no_abstraction(item), doc_hash=doc_hash)
        if not changes:
            raise ReviewRefused("nothing to correct: give field=value pairs (or approve)")
        fields, record, problems = apply_corrections(item.fields, changes)
        _refuse_if(problems)
        _refuse_if(self._commit_problems(item, fields, frozenset(changes)))
        values = _commit_values(fields, record)
        return self._decide(item, reviewer, values, "corrected", {"corrections": record})

    def reject(self, doc_hash: str, reviewer: str, reason: str) -> DocumentRow:
        """Refuse the document (not a lease, illegible, wrong file): dead, with the reason."""
        why = reason.strip()
        if not why:
            raise ReviewRefused("a rejection needs a reason (--reason)")
        item = self._decidable(doc_hash, reviewer)
        values = {"state": DocumentState.DEAD, "reason": Reason.REJECTED_BY_REVIEWER, "detail": why}
        return self._decide(item, reviewer, values, Reason.REJECTED_BY_REVIEWER, {"reason": why})

    # -- internals -----------------------------------------------------------------------

    @staticmethod
    def _commit_problems(
        item: ReviewItem, fields: Mapping[str, Any], corrected: frozenset[str] = frozenset()
    ) -> list[FieldProblem]:
        stored = [FieldProblem.model_validate(p) for p in item.problems]
        return commit_problems(fields, item.kind, item.reason, stored, corrected)

    def _decidable(self, doc_hash: str, reviewer: str) -> ReviewItem:
        item = self.item(doc_hash)
        if item.state != DocumentState.REVIEW or item.claimed_by not in (None, reviewer):
            self._refuse(doc_hash, reviewer)
        return item

    def _decide(
        self,
        item: ReviewItem,
        reviewer: str,
        values: dict[str, Any],
        event_reason: str,
        event_detail: dict[str, Any] | None = None,
    ) -> DocumentRow:
        """The one conditional UPDATE every decision goes through, with its audit event."""
        now = self.clock()
        with self.store.session() as s:
            changed = s.execute(
                update(DocumentRow)
                .where(
                    DocumentRow.doc_hash == item.doc_hash,
                    DocumentRow.state == DocumentState.REVIEW,
                    # The same stay in review that was validated, not a later re-entry.
                    DocumentRow.state_changed_at == item.since,
                    or_(_claimable(now), DocumentRow.claimed_by == reviewer),
                )
                .values(
                    **values,
                    reviewer=reviewer,
                    reviewed_at=now,
                    state_changed_at=now,
                    updated_at=now,
                    claimed_by=None,
                    claimed_at=None,
                    claim_expires_at=None,
                )
            ).rowcount  # type: ignore[attr-defined]
            if changed:
                s.add(
                    EventRow(
                        doc_hash=item.doc_hash,
                        state=values["state"],
                        reason=event_reason,
                        actor=reviewer,
                        detail=event_detail,
                        at=now,
                    )
                )
        if not changed:
            self._refuse(item.doc_hash, reviewer)
        row = self.store.document(item.doc_hash)
        assert row is not None
        return row

    def _refuse(self, doc_hash: str, reviewer: str | None) -> NoReturn:
        """Say why ``reviewer`` (None: anyone) cannot act on this document now."""
        item = self.item(doc_hash)
        if item.state != DocumentState.REVIEW:
            row = self.store.document(doc_hash)
            by = f" by {row.reviewer}" if row is not None and row.reviewer else ""
            raise ReviewRefused(
                f"{doc_hash[:12]} is not in review: it is {item.state}{by}", doc_hash=doc_hash
            )
        if reviewer is not None and item.claimed_by not in (None, reviewer):
            assert item.claim_expires_at is not None
            raise ReviewRefused(
                f"{doc_hash[:12]} is claimed by {item.claimed_by} until "
                f"{item.claim_expires_at:%Y-%m-%d %H:%M:%S} UTC",
                doc_hash=doc_hash,
            )
        raise ReviewRefused(f"{doc_hash[:12]} changed while you decided; look at it again")


_IN_REVIEW = DocumentRow.state == DocumentState.REVIEW
_QUEUE_ORDER = (
    DocumentRow.review_priority.desc(),
    DocumentRow.state_changed_at,
    DocumentRow.id,
)


def _claim_event(doc_hash: str, what: str, reviewer: str, now: dt.datetime) -> EventRow:
    """Who held an item and when, for the audit trail (a renewal or expiry is not an event:
    the claim's columns say where it stands)."""
    return EventRow(
        doc_hash=doc_hash, state=DocumentState.REVIEW, reason=what, actor=reviewer, at=now
    )


def _claimable(now: dt.datetime) -> ColumnElement[bool]:
    return or_(DocumentRow.claimed_by.is_(None), DocumentRow.claim_expires_at <= now)


def _held_by(reviewer: str, now: dt.datetime) -> ColumnElement[bool]:
    return and_(DocumentRow.claimed_by == reviewer, DocumentRow.claim_expires_at > now)


def _commit_values(fields: dict[str, Any], corrections: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "state": DocumentState.COMMITTED,
        "reason": None,
        "source": "review",
        "fields": fields,
        "corrections": corrections,
    }


def _refuse_if(problems: list[FieldProblem]) -> None:
    if problems:
        raise ReviewRefused(
            "refused: " + "; ".join(f"{p.field}: {p.problem}" for p in problems), problems
        )


def _no_abstraction(item: ReviewItem) -> str:
    if item.reason == Reason.NEEDS_CREDENTIAL:
        return (
            f"{item.doc_hash[:12]} has no abstraction yet: it needs its password "
            f"(lease-parser unlock {item.doc_hash}), or reject it"
        )
    return f"{item.doc_hash[:12]} has no values to approve: correct field=value, or reject it"
