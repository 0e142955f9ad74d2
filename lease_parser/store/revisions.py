"""A committed lease corrected afterwards, and the QA sample of auto-committed leases.

A committed lease (auto-committed or approved) stays committed when a person corrects it:
each correction is one conditional UPDATE of the committed row (refused if the row changed
since the reviewer read it), with a ``revised`` audit event (what changed, from → to, who,
why) and the reviewer's field decisions (``review_decisions``, one stay per revision). The
value is checked like a reviewer's in review (corrections.py, decisions.py).

The record calibration reads stays true: ``documents.corrections`` keeps, per field, the
value the *pipeline* read and the one that is right now, and ``source`` becomes ``review``,
so ``calibration.reviewed_examples`` (fed by ``lease-parser calibrate`` with the committed
documents whose source is review) learns from a correction made after the commit exactly as
from one made in review. A value set back to what the pipeline read is a confirmation.

The QA sample is a share (``LEASE_QA_SAMPLE_SHARE``) of the auto-committed leases, chosen by
content hash (SHA-256 is uniform, so the sample is random and stable; no write at commit
time): each waits for a second look until a person marks it checked, after correcting what
was wrong. The checks measure the auto-commit's precision in production (``qa_summary``).
A QA check also confirms every value nobody corrected: the lease is then a reviewed one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, func, select, update

from lease_parser.corrections import REVIEWED_CONFIDENCE
from lease_parser.decisions import DecisionKind, corrections_to_decisions
from lease_parser.errors import ItemNotFound, ReviewRefused
from lease_parser.model import FIELD_NAMES, FieldProblem
from lease_parser.store.database import (
    DocumentRow,
    DocumentState,
    EventRow,
    Store,
    as_utc,
    decision_rows,
    utcnow,
)
from lease_parser.store.export import sources_of

REVISED = "revised"
QA_CHECKED = "qa_checked"
# Sample membership compares the hash's first 8 hex digits with the share of 16**8.
SAMPLE_DIGITS = 8


def sample_threshold(share: float) -> str:
    """The hex string a hash must sort below to be in the sample (``"00000000"``: none)."""
    return f"{min(16**SAMPLE_DIGITS, round(share * 16**SAMPLE_DIGITS)):0{SAMPLE_DIGITS}x}"


def in_sample(doc_hash: str, share: float) -> bool:
    return share >= 1 or doc_hash[:SAMPLE_DIGITS] < sample_threshold(share)


@dataclass(frozen=True)
class QaSummary:
    """What the QA sample has measured: leases checked and right as auto-committed, values
    checked and corrected."""

    share: float
    sampled: int  # auto-committed leases in the sample
    waiting: int  # not checked yet
    checked: int
    right: int  # checked, and nothing corrected since the commit
    values: int  # stated values of the checked leases
    corrected: int  # of those, corrected

    @property
    def lease_precision(self) -> float | None:
        return self.right / self.checked if self.checked else None

    @property
    def value_precision(self) -> float | None:
        return 1 - self.corrected / self.values if self.values else None


class Revisions:
    """Correct committed leases; the QA sample. Stateless; one per process is enough."""

    def __init__(
        self, store: Store, qa_share: float = 0.05, clock: Callable[[], dt.datetime] = utcnow
    ) -> None:
        self.store = store
        self.qa_share = qa_share
        self.clock = clock

    # -- correcting a committed lease ----------------------------------------------------

    def revise(
        self,
        doc_hash: str,
        reviewer: str,
        changes: Mapping[str, str],
        seen: dt.datetime | None = None,
        note: str = "",
    ) -> DocumentRow:
        """Correct fields of a committed lease (``""``: not stated). ``seen``: when the row
        last changed as the reviewer read it; a row changed since is refused, not
        overwritten. One bad value refuses them all."""
        row = self._committed(doc_hash)
        if seen is not None and as_utc(row.state_changed_at) != as_utc(seen):
            raise ReviewRefused(_changed_since(doc_hash), doc_hash=doc_hash)
        if not changes:
            raise ReviewRefused("nothing to correct: give field=value pairs")
        fields = row.fields or {}
        read = _as_read(row)
        decided, problems = corrections_to_decisions(read, fields, changes, row.kind)
        if problems:
            raise ReviewRefused(
                "refused: " + "; ".join(f"{p.field}: {p.problem}" for p in problems), problems
            )
        return self._write(row, reviewer, decided, note.strip())

    def _write(
        self,
        row: DocumentRow,
        reviewer: str,
        decided: Mapping[str, tuple[DecisionKind, Any]],
        note: str,
    ) -> DocumentRow:
        now = self.clock()
        fields = {name: dict(value) for name, value in (row.fields or {}).items()}
        corrections = dict(row.corrections or {})
        sources = sources_of(row) or dict.fromkeys(FIELD_NAMES, "pipeline")
        read = _as_read(row)
        changed: dict[str, dict[str, Any]] = {}
        for name, (kind, value) in decided.items():
            stored = fields.setdefault(name, {"value": None, "provenance": None})
            changed[name] = {"from": stored.get("value"), "to": value}
            stored.update(value=value, confidence=REVIEWED_CONFIDENCE)
            as_read = (read.get(name) or {}).get("value")
            if kind is DecisionKind.CONFIRMED or value == as_read:
                corrections.pop(name, None)  # as the pipeline read it after all
                sources[name] = "confirmed"
            else:
                corrections[name] = {"from": as_read, "to": value}
                sources[name] = "corrected"
        with self.store.session() as s:
            won = s.execute(
                update(DocumentRow)
                .where(_unchanged(row))
                .values(
                    fields=fields,
                    corrections=corrections or None,
                    field_sources=sources,
                    source="review",
                    reviewer=reviewer,
                    reviewed_at=now,
                    updated_at=now,
                    # Its values changed: it appears again in the feed of changes
                    # (GET /v1/documents?since=, export --since).
                    state_changed_at=now,
                )
            ).rowcount  # type: ignore[attr-defined]
            if won:
                detail = {"changes": changed, **({"note": note} if note else {})}
                s.add(_event(row.doc_hash, REVISED, reviewer, now, detail))
                s.add_all(decision_rows(row.doc_hash, now, decided, reviewer, now))
        if not won:
            raise ReviewRefused(_changed_since(row.doc_hash), doc_hash=row.doc_hash)
        return self._committed(row.doc_hash)

    def _committed(self, doc_hash: str) -> DocumentRow:
        row = self.store.document(doc_hash)
        if row is None:
            raise ItemNotFound(f"no document with hash {doc_hash}", doc_hash=doc_hash)
        if row.state != DocumentState.COMMITTED:
            raise ReviewRefused(
                f"{doc_hash[:12]} is {row.state}, not committed: "
                + (
                    "decide it in review"
                    if row.state == DocumentState.REVIEW
                    else "nothing to correct"
                ),
                doc_hash=doc_hash,
            )
        return row

    # -- the QA sample -------------------------------------------------------------------

    def _waiting(self) -> ColumnElement[bool]:
        """Auto-committed, in the sample, not checked yet."""
        return and_(
            DocumentRow.state == DocumentState.COMMITTED,
            DocumentRow.doc_hash < sample_threshold(self.qa_share)
            if self.qa_share < 1
            else DocumentRow.doc_hash.is_not(None),
            _auto_committed(),
            ~exists().where(
                EventRow.doc_hash == DocumentRow.doc_hash, EventRow.reason == QA_CHECKED
            ),
        )

    def qa_items(self, limit: int = 50) -> list[DocumentRow]:
        """The sampled leases waiting for their second look, oldest commit first."""
        query = (
            select(DocumentRow)
            .where(self._waiting())
            .order_by(DocumentRow.finished_at, DocumentRow.id)
            .limit(limit)
        )
        with self.store.session() as s:
            return list(s.scalars(query))

    def qa_waiting(self, doc_hash: str) -> bool:
        with self.store.session() as s:
            return bool(
                s.scalar(
                    select(func.count()).where(self._waiting(), DocumentRow.doc_hash == doc_hash)
                )
            )

    def qa_check(self, doc_hash: str, reviewer: str) -> DocumentRow:
        """The second look is done: every value is right now (what was wrong was corrected
        first). Values nobody corrected become confirmed by this reviewer."""
        row = self._committed(doc_hash)
        if not self.qa_waiting(doc_hash):
            raise ReviewRefused(
                f"{doc_hash[:12]} is not waiting in the QA sample (not auto-committed, not "
                "sampled, or checked already)",
                [FieldProblem(field="*", problem="not in the QA sample")],
                doc_hash=doc_hash,
            )
        now = self.clock()
        corrected = sorted(self._revised_fields(doc_hash))
        stated = [n for n, f in (row.fields or {}).items() if f and f.get("value") is not None]
        sources = sources_of(row)
        sources = {n: ("confirmed" if s == "pipeline" else s) for n, s in sources.items()}
        detail = {"corrected": corrected, "values": len(stated)}
        with self.store.session() as s:
            won = s.execute(
                update(DocumentRow)
                .where(_unchanged(row))
                .values(
                    field_sources=sources,
                    source="review",
                    reviewer=reviewer,
                    reviewed_at=now,
                    updated_at=now,
                )
            ).rowcount  # type: ignore[attr-defined]
            if won:
                s.add(_event(doc_hash, QA_CHECKED, reviewer, now, detail))
        if not won:
            raise ReviewRefused(_changed_since(doc_hash), doc_hash=doc_hash)
        return self._committed(doc_hash)

    def _revised_fields(self, doc_hash: str) -> set[str]:
        return {
            name
            for event in self.store.events(doc_hash)
            if event.reason == REVISED
            for name in (event.detail or {}).get("changes", {})
        }

    def qa_summary(self) -> QaSummary:
        threshold = sample_threshold(self.qa_share)
        sampled = and_(
            DocumentRow.state == DocumentState.COMMITTED,
            DocumentRow.doc_hash < threshold if self.qa_share < 1 else DocumentRow.id.is_not(None),
            _auto_committed(),
        )
        with self.store.session() as s:
            total = s.scalar(select(func.count()).select_from(DocumentRow).where(sampled)) or 0
            waiting = (
                s.scalar(select(func.count()).select_from(DocumentRow).where(self._waiting())) or 0
            )
            checks = [
                e.detail or {}
                for e in s.scalars(select(EventRow).where(EventRow.reason == QA_CHECKED))
            ]
        return QaSummary(
            share=self.qa_share,
            sampled=int(total),
            waiting=int(waiting),
            checked=len(checks),
            right=sum(1 for c in checks if not c.get("corrected")),
            values=sum(int(c.get("values") or 0) for c in checks),
            corrected=sum(len(c.get("corrected") or []) for c in checks),
        )


def _as_read(row: DocumentRow) -> dict[str, Any]:
    """The fields as the pipeline read them (a reviewer's earlier corrections undone)."""
    fields = {name: dict(value) for name, value in (row.fields or {}).items()}
    for name, change in (row.corrections or {}).items():
        fields.setdefault(name, {})["value"] = change.get("from")
    return fields


def _unchanged(row: DocumentRow) -> ColumnElement[bool]:
    return and_(
        DocumentRow.doc_hash == row.doc_hash,
        DocumentRow.state == DocumentState.COMMITTED,
        DocumentRow.updated_at == row.updated_at,
    )


def _auto_committed() -> ColumnElement[bool]:
    return exists().where(
        EventRow.doc_hash == DocumentRow.doc_hash,
        EventRow.state == DocumentState.COMMITTED,
        EventRow.actor == "pipeline",
    )


def _event(
    doc_hash: str, reason: str, actor: str, at: dt.datetime, detail: dict[str, Any]
) -> EventRow:
    return EventRow(
        doc_hash=doc_hash,
        state=DocumentState.COMMITTED,
        reason=reason,
        actor=actor,
        detail=detail,
        at=at,
    )


def _changed_since(doc_hash: str) -> str:
    return f"{doc_hash[:12]} changed since you opened it (another correction was saved): look again"
