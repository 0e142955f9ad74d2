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

Only the reviewer who holds a live claim decides. A decision is made field by field
first: *confirm* (the pipeline's value is right), *correct* (validated by the same model
the pipeline uses: ``normalization.typed_value`` and ``consistency_problems``) or *not
stated*; each is kept with its reviewer and time (``review_decisions``) and renews the
claim. *Approve* then commits the document once, and only when every doubtful field (the
item's problems) has been confirmed or corrected: nobody commits a flagged value unread.
Each committed value keeps its source (pipeline, confirmed, corrected). Approve and reject
are conditional UPDATEs (``where state = 'review'`` and the reviewer's claim is live), each
in one transaction with its audit event: a document is committed at most once, whoever
races.

A reviewer's rejection moves the document to ``dead`` with reason
``rejected_by_reviewer`` (their stated reason in ``detail``), not to a new state: the
states stay the closed set every consumer knows (status, metrics, exports), ``dead``
already means "will not become an abstraction as it is", and ops can still replay it
by hand (``lease-parser dead requeue HASH``) once a better copy exists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from sqlalchemy import ColumnElement, and_, delete, func, or_, select, update
from sqlalchemy.orm import Session

from lease_parser.corrections import commit_problems
from lease_parser.decisions import (
    DecisionKind,
    FieldDecision,
    confirmation,
    corrections_record,
    corrections_to_decisions,
    draft_fields,
    field_sources,
)
from lease_parser.errors import ItemNotFound, NotClaimed, Reason, ReviewRefused
from lease_parser.model import FIELD_NAMES, FieldProblem
from lease_parser.store.database import (
    DocumentRow,
    DocumentState,
    EventRow,
    ReviewDecisionRow,
    Store,
    as_utc,
    decision_rows,
    utcnow,
)

# Each lost claim race means another reviewer just got an item; this bounds the retries
# of one call in a stampede (with SKIP LOCKED on PostgreSQL races are rare anyway).
MAX_CLAIM_ATTEMPTS = 20
# The stated reason when a reviewer confirms the pipeline's "not a lease" flag.
NOT_A_LEASE_REJECTION = "not a lease"
# What a reviewer may state a document is when approving it: a document that is not a
# lease is rejected, never committed as one.
COMMITTABLE_AS = ("lease", "sublease", "amendment", "form")


@dataclass(frozen=True)
class ReviewItem:
    """A document as a reviewer sees it: where it is doubtful and why, who holds it, and
    what has been decided field by field in this stay in review."""

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
    # A claim that ran out without a decision or a release: the item is back in the queue.
    lapsed_claim_by: str | None = None
    lapsed_claim_at: dt.datetime | None = None
    decisions: dict[str, FieldDecision] = field(default_factory=dict)
    pages: int | None = None
    field_sources: dict[str, str] | None = None

    @classmethod
    def from_row(
        cls, row: DocumentRow, now: dt.datetime, decisions: Iterable[FieldDecision] = ()
    ) -> ReviewItem:
        expires = as_utc(row.claim_expires_at) if row.claim_expires_at else None
        live = expires is not None and expires > now
        lapsed = row.claimed_by is not None and not live
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
            lapsed_claim_by=row.claimed_by if lapsed else None,
            lapsed_claim_at=expires if lapsed else None,
            decisions={d.field: d for d in decisions},
            pages=row.pages,
            field_sources=row.field_sources,
        )

    @property
    def doubtful(self) -> list[str]:
        """Fields a reviewer must check, most serious first (the gate's order). A problem
        may also concern the whole document: its field is then not a field name."""
        named = dict.fromkeys(str(p["field"]) for p in self.problems)
        return [name for name in named if name in FIELD_NAMES]

    @property
    def document_doubts(self) -> list[str]:
        """Why the gate sent the document as a whole to a person (a blank form, an
        amendment, too few core fields, not a lease): approving it needs a statement of
        what it is."""
        doubts = [str(p["problem"]) for p in self.problems if p.get("field") not in FIELD_NAMES]
        if self.reason == Reason.NOT_A_LEASE and not doubts:
            doubts.append("does not read as a lease")
        return doubts

    @property
    def unchecked(self) -> list[str]:
        """Doubtful fields with no decision yet: approve waits for these."""
        return [name for name in self.doubtful if name not in self.decisions]

    def draft(self) -> dict[str, dict[str, Any]]:
        """The values approve would commit now."""
        return draft_fields(self.fields, self.decisions.values())

    def held_by(self, reviewer: str) -> bool:
        return self.claimed_by == reviewer

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
            "claim_expires_at": _iso(self.claim_expires_at),
            "lapsed_claim_by": self.lapsed_claim_by,
            "problems": self.problems,
            "unchecked": self.unchecked,
            "decisions": {name: d.to_json() for name, d in self.decisions.items()},
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

    def items(
        self, limit: int = 100, reason: str | None = None, offset: int = 0
    ) -> list[ReviewItem]:
        """Items in review in queue order (priority, then oldest), claimed or not; a page
        of ``limit`` from ``offset``."""
        now = self.clock()
        query = (
            select(DocumentRow)
            .where(_IN_REVIEW)
            .order_by(*_QUEUE_ORDER)
            .offset(offset)
            .limit(limit)
        )
        if reason:
            query = query.where(DocumentRow.reason == reason)
        with self.store.session() as s:
            return [self._item(s, row, now) for row in s.scalars(query)]

    def count(self) -> int:
        """How many items are in review."""
        with self.store.session() as s:
            return int(
                s.scalar(select(func.count()).select_from(DocumentRow).where(_IN_REVIEW)) or 0
            )

    def item(self, doc_hash: str) -> ReviewItem:
        """Any document by hash, as a review item (it may have left review)."""
        with self.store.session() as s:
            row = s.scalar(select(DocumentRow).where(DocumentRow.doc_hash == doc_hash))
            if row is None:
                raise ItemNotFound(f"no document with hash {doc_hash}", doc_hash=doc_hash)
            return self._item(s, row, self.clock())

    @staticmethod
    def _item(s: Session, row: DocumentRow, now: dt.datetime) -> ReviewItem:
        decisions: list[FieldDecision] = []
        if row.state == DocumentState.REVIEW:
            since = row.state_changed_at or row.created_at
            decisions = [
                _decision(d)
                for d in s.scalars(
                    select(ReviewDecisionRow)
                    .where(
                        ReviewDecisionRow.doc_hash == row.doc_hash,
                        ReviewDecisionRow.review_since == since,
                    )
                    .order_by(ReviewDecisionRow.id)
                )
            ]
        return ReviewItem.from_row(row, now, decisions)

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
                if self._take(s, DocumentRow.id == candidate, reviewer, now):
                    row = s.get_one(DocumentRow, candidate)
                    s.add(_claim_event(row.doc_hash, "claimed", reviewer, now))
                    return self._item(s, row, now)
        return None

    def claim(self, doc_hash: str, reviewer: str) -> ReviewItem:
        """Claim this item (or renew your claim on it); refused while another holds it."""
        now = self.clock()
        with self.store.session() as s:
            held = s.scalar(
                select(DocumentRow.id).where(
                    DocumentRow.doc_hash == doc_hash, _IN_REVIEW, _held_by(reviewer, now)
                )
            )
            won = self._take(s, DocumentRow.doc_hash == doc_hash, reviewer, now)
            if won and held is None:
                s.add(_claim_event(doc_hash, "claimed", reviewer, now))
        if not won:
            self._refuse(doc_hash, reviewer)
        return self.item(doc_hash)

    def _take(
        self, s: Session, which: ColumnElement[bool], reviewer: str, now: dt.datetime
    ) -> bool:
        """One conditional UPDATE: free (or already ours) → ours until now + ttl."""
        return bool(
            s.execute(
                update(DocumentRow)
                .where(which, _IN_REVIEW, or_(_claimable(now), _held_by(reviewer, now)))
                .values(claimed_by=reviewer, claimed_at=now, claim_expires_at=now + self.claim_ttl)
            ).rowcount  # type: ignore[attr-defined]
        )

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
            return self._item(s, s.get_one(DocumentRow, held), now) if renewed else None

    def release(self, doc_hash: str, reviewer: str) -> None:
        """Give an item back to the queue undecided (its field decisions are kept)."""
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
            raise NotClaimed(f"{reviewer} does not hold {doc_hash[:12]}", doc_hash=doc_hash)

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

    # -- field decisions -----------------------------------------------------------------

    def confirm(
        self,
        doc_hash: str,
        reviewer: str,
        names: Sequence[str],
        shown: Mapping[str, Any] | None = None,
    ) -> ReviewItem:
        """The values of these fields, as they stand, are right (an empty one: not
        stated). A value a reviewer corrected stays corrected. With ``shown`` (the values
        a page displayed), a value that changed since is refused, not confirmed unseen."""
        item = self._abstracted(self._decidable(doc_hash, reviewer))
        unknown = [n for n in names if n not in FIELD_NAMES]
        if not names or unknown:
            raise ReviewRefused(_name_fields(unknown), [_unknown(n) for n in unknown])
        draft = item.draft()
        _refuse_if(_changed_since_shown(draft, shown or {}, names))
        decided = {name: confirmation(item.fields, draft, name) for name in names}
        return self._record(item, reviewer, decided)

    def correct(self, doc_hash: str, reviewer: str, changes: Mapping[str, str]) -> ReviewItem:
        """Record the reviewer's values for some fields (``""``: not stated). Each value is
        checked like the pipeline's; one bad value refuses them all and decides nothing."""
        item = self._abstracted(self._decidable(doc_hash, reviewer))
        if not changes:
            raise ReviewRefused("nothing to correct: give field=value pairs (or confirm)")
        decided, problems = corrections_to_decisions(item.fields, item.draft(), changes, item.kind)
        _refuse_if(problems)
        return self._record(item, reviewer, decided)

    def _record(
        self, item: ReviewItem, reviewer: str, decided: Mapping[str, tuple[DecisionKind, Any]]
    ) -> ReviewItem:
        """Store decisions (the latest per field wins) and renew the claim, in one
        transaction that holds only while the reviewer's claim is live."""
        now = self.clock()
        with self.store.session() as s:
            renewed = s.execute(
                update(DocumentRow)
                .where(
                    DocumentRow.doc_hash == item.doc_hash,
                    _IN_REVIEW,
                    DocumentRow.state_changed_at == item.since,
                    _held_by(reviewer, now),
                )
                .values(claim_expires_at=now + self.claim_ttl)
            ).rowcount  # type: ignore[attr-defined]
            if renewed:
                s.execute(
                    delete(ReviewDecisionRow).where(
                        ReviewDecisionRow.doc_hash == item.doc_hash,
                        ReviewDecisionRow.review_since == item.since,
                        ReviewDecisionRow.field.in_(list(decided)),
                    )
                )
                s.add_all(decision_rows(item.doc_hash, item.since, decided, reviewer, now))
        if not renewed:
            self._refuse(item.doc_hash, reviewer)
        return self.item(item.doc_hash)

    # -- decisions on the document -------------------------------------------------------

    def approve(self, doc_hash: str, reviewer: str, committed_as: str | None = None) -> DocumentRow:
        """Commit the draft (the pipeline's values with the reviewer's decisions), once
        every doubtful field has been confirmed or corrected.

        A document the gate sent to a person for what it *is* (a blank form, an amendment,
        too few core fields, not a lease) is committed only with ``committed_as``, the
        reviewer's statement of what it is (a ``COMMITTABLE_AS`` kind): it becomes the
        document's kind and is kept in the commit's audit event."""
        item = self._abstracted(self._decidable(doc_hash, reviewer))
        if not any(f.get("value") is not None for f in item.draft().values()):
            raise ReviewRefused(_no_abstraction(item), doc_hash=doc_hash)
        _refuse_if(_unchecked_problems(item), _unchecked_message(item))
        kind = _statement(item, committed_as)
        decisions = list(item.decisions.values())
        draft = item.draft()
        _refuse_if(self._commit_problems(item, draft, frozenset(item.decisions), kind))
        record = corrections_record(item.fields, decisions)
        values = {
            **_commit_values(draft, record or None),
            "field_sources": field_sources(item.fields, decisions),
            "kind": kind or item.kind,
        }
        detail: dict[str, Any] = {"corrections": record} if record else {}
        if kind is not None:
            detail |= {"committed_as": kind, "sent_for": item.document_doubts}
        return self._decide(item, reviewer, values, "approved", detail or None)

    def reject(self, doc_hash: str, reviewer: str, reason: str = "") -> DocumentRow:
        """Refuse the document (not a lease, illegible, wrong file): dead, with the reason.

        An item the pipeline flagged ``not_a_lease`` needs no stated reason: confirming
        the flag is the one step.
        """
        item = self._decidable(doc_hash, reviewer)
        why = reason.strip() or (NOT_A_LEASE_REJECTION if item.reason == Reason.NOT_A_LEASE else "")
        if not why:
            raise ReviewRefused("a rejection needs a reason (--reason)")
        values = {"state": DocumentState.DEAD, "reason": Reason.REJECTED_BY_REVIEWER, "detail": why}
        return self._decide(item, reviewer, values, Reason.REJECTED_BY_REVIEWER, {"reason": why})

    # -- internals -----------------------------------------------------------------------

    @staticmethod
    def _commit_problems(
        item: ReviewItem, fields: Mapping[str, Any], decided: frozenset[str], kind: str | None
    ) -> list[FieldProblem]:
        stored = [FieldProblem.model_validate(p) for p in item.problems]
        return commit_problems(fields, kind or item.kind, item.reason, stored, decided)

    def _decidable(self, doc_hash: str, reviewer: str) -> ReviewItem:
        item = self.item(doc_hash)
        if item.state != DocumentState.REVIEW or not item.held_by(reviewer):
            self._refuse(doc_hash, reviewer)
        return item

    @staticmethod
    def _abstracted(item: ReviewItem) -> ReviewItem:
        if item.reason == Reason.NEEDS_CREDENTIAL:
            raise ReviewRefused(_no_abstraction(item), doc_hash=item.doc_hash)
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
                    _held_by(reviewer, now),
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
        short = doc_hash[:12]
        if item.state != DocumentState.REVIEW:
            row = self.store.document(doc_hash)
            by = f" by {row.reviewer}" if row is not None and row.reviewer else ""
            raise ReviewRefused(
                f"{short} is not in review: it is {item.state}{by}", doc_hash=doc_hash
            )
        if reviewer is not None and item.claimed_by not in (None, reviewer):
            assert item.claim_expires_at is not None
            raise NotClaimed(
                f"{short} is claimed by {item.claimed_by} until "
                f"{item.claim_expires_at:%Y-%m-%d %H:%M:%S} UTC",
                doc_hash=doc_hash,
            )
        if reviewer is not None and item.claimed_by is None:
            if item.lapsed_claim_by == reviewer and item.lapsed_claim_at is not None:
                raise NotClaimed(
                    f"your claim on {short} expired at {item.lapsed_claim_at:%H:%M:%S} UTC and "
                    "the item went back to the queue: claim it again to decide it",
                    doc_hash=doc_hash,
                )
            raise NotClaimed(
                f"{reviewer} does not hold a claim on {short}: claim it first", doc_hash=doc_hash
            )
        raise ReviewRefused(f"{short} changed while you decided; look at it again")


_IN_REVIEW = DocumentRow.state == DocumentState.REVIEW
_QUEUE_ORDER = (
    DocumentRow.review_priority.desc(),
    DocumentRow.state_changed_at,
    DocumentRow.id,
)


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _decision(row: ReviewDecisionRow) -> FieldDecision:
    return FieldDecision(
        field=row.field,
        kind=DecisionKind(row.decision),
        value=row.value,
        reviewer=row.reviewer,
        decided_at=as_utc(row.decided_at),
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


def _statement(item: ReviewItem, committed_as: str | None) -> str | None:
    """The kind the reviewer states, refused when it is needed and missing or unknown."""
    kinds = ", ".join(COMMITTABLE_AS)
    if committed_as is None:
        if item.document_doubts:
            raise ReviewRefused(
                f"{item.doc_hash[:12]} was sent to a person for what it is "
                f"({'; '.join(item.document_doubts)}): say what you are committing it as "
                f"({kinds}), or reject it",
                [FieldProblem(field="*", problem="say what you are committing it as")],
                doc_hash=item.doc_hash,
            )
        return None
    if committed_as not in COMMITTABLE_AS:
        raise ReviewRefused(
            f"{committed_as!r} is not something to commit: say {kinds}; a document that is "
            "not a lease is rejected",
            [FieldProblem(field="*", problem=f"commit it as one of {kinds}")],
            doc_hash=item.doc_hash,
        )
    return committed_as


def _changed_since_shown(
    draft: Mapping[str, Any], shown: Mapping[str, Any], names: Sequence[str]
) -> list[FieldProblem]:
    return [
        FieldProblem(
            field=name,
            problem="the value changed since the page was shown (another decision was "
            "saved): look at it again before confirming",
        )
        for name in names
        if name in shown and shown[name] != draft[name]["value"]
    ]


def _unknown(name: str) -> FieldProblem:
    return FieldProblem(field=name, problem=f"unknown field; fields are: {', '.join(FIELD_NAMES)}")


def _name_fields(unknown: list[str]) -> str:
    if unknown:
        return "refused: unknown field(s) " + ", ".join(unknown)
    return "name the fields to confirm"


def _unchecked_problems(item: ReviewItem) -> list[FieldProblem]:
    why = {str(p["field"]): str(p["problem"]) for p in item.problems}
    return [
        FieldProblem(field=name, problem=f"not checked yet ({why[name]})")
        for name in item.unchecked
    ]


def _unchecked_message(item: ReviewItem) -> str:
    return (
        f"refused: doubtful fields not checked: {', '.join(item.unchecked)}. Confirm each "
        "(its value is right), correct it, or mark it not stated; then approve"
    )


def _refuse_if(problems: list[FieldProblem], message: str | None = None) -> None:
    if problems:
        raise ReviewRefused(
            message or "refused: " + "; ".join(f"{p.field}: {p.problem}" for p in problems),
            problems,
        )


def _no_abstraction(item: ReviewItem) -> str:
    if item.reason == Reason.NEEDS_CREDENTIAL:
        return (
            f"{item.doc_hash[:12]} has no abstraction yet: it needs its password "
            f"(lease-parser unlock {item.doc_hash}), or reject it"
        )
    return f"{item.doc_hash[:12]} has no values to approve: correct field=value, or reject it"
