"""A finished document's page is its decision record: who decided, when, what the pipeline
read and what was decided, field by field, and how it was committed (or rejected).

Nothing of the review is shown as still to do: the problems a field was flagged for are
history ("flagged: …"), not warnings, and a value a reviewer changed shows what was read
beside what was decided. Built from the store's row, its reviewers' decisions and its audit
trail; pure (the rows are passed in).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from lease_parser.decisions import DecisionKind, FieldDecision, FieldSource
from lease_parser.errors import Reason
from lease_parser.model import FIELD_NAMES
from lease_parser.store import (
    DocumentRow,
    DocumentState,
    EventRow,
    ReviewDecisionRow,
    as_utc,
    sources_of,
)
from lease_parser.web.item_view import FieldRow

# How a document was committed, as the events of the audit trail name it.
APPROVED = "approved"
REVISED = "revised"
QA_CHECKED = "qa_checked"


@dataclass(frozen=True)
class Decided:
    """The latest word on one field: who said what, when (a decision of the review, or of a
    later correction of the committed lease)."""

    kind: str  # FieldSource value: pipeline | confirmed | corrected
    reviewer: str | None
    at: dt.datetime | None


@dataclass
class DecisionRecord:
    """What the header of a finished document says."""

    state: str
    how: str  # "approved", "auto", "rejected", "pending", "review"
    by: str | None
    at: dt.datetime | None
    committed_as: str | None = None
    reason: str | None = None  # a rejection's stated reason
    read: dict[str, Any] = field(default_factory=dict)  # each field as the pipeline read it
    fields: dict[str, Decided] = field(default_factory=dict)
    revisions: int = 0  # corrections of the committed lease, after it was committed

    @property
    def decided(self) -> dict[str, int]:
        """How many fields a person confirmed and corrected."""
        kinds = [d.kind for d in self.fields.values() if d.reviewer]
        return {
            k.value: kinds.count(k.value) for k in (FieldSource.CONFIRMED, FieldSource.CORRECTED)
        }


def _commit_event(events: list[EventRow]) -> EventRow | None:
    commits = [e for e in events if e.state == DocumentState.COMMITTED and e.reason != QA_CHECKED]
    firsts = [e for e in commits if e.reason != REVISED]
    return firsts[-1] if firsts else None


def _latest(decisions: list[ReviewDecisionRow]) -> dict[str, ReviewDecisionRow]:
    latest: dict[str, ReviewDecisionRow] = {}
    for d in sorted(decisions, key=lambda d: (as_utc(d.decided_at), d.id)):
        latest[d.field] = d
    return latest


def _how(row: DocumentRow, commit: EventRow | None) -> str:
    if row.state == DocumentState.COMMITTED:
        if commit is not None:
            return "auto" if commit.actor == "pipeline" else APPROVED
        return APPROVED if row.source == "review" else "auto"
    if row.state == DocumentState.DEAD:
        return "rejected" if row.reason == Reason.REJECTED_BY_REVIEWER else "dead"
    return str(row.state)


def decision_record(
    row: DocumentRow, decisions: list[ReviewDecisionRow], events: list[EventRow]
) -> DecisionRecord:
    """The record of a document that left review (or never entered it)."""
    commit = _commit_event(events)
    how = _how(row, commit)
    by, at = (commit.actor, as_utc(commit.at)) if commit else (row.reviewer, None)
    if how in ("rejected", "dead"):
        by, at = row.reviewer, _when(row.reviewed_at or row.state_changed_at)
    record = DecisionRecord(
        state=row.state,
        how=how,
        by=by or ("pipeline" if how == "auto" else None),
        at=at or _when(row.reviewed_at or row.finished_at or row.state_changed_at),
        committed_as=((commit.detail or {}) if commit else {}).get("committed_as"),
        reason=row.detail if how == "rejected" else None,
        revisions=sum(1 for e in events if e.reason == REVISED),
    )
    corrections = row.corrections or {}
    fields = row.fields or {}
    sources = sources_of(row)
    latest = _latest(decisions) if row.state == DocumentState.COMMITTED else {}
    for name in FIELD_NAMES:
        value = (fields.get(name) or {}).get("value")
        record.read[name] = corrections[name]["from"] if name in corrections else value
        source = sources.get(name, FieldSource.PIPELINE.value)
        decision = latest.get(name) if source != FieldSource.PIPELINE else None
        record.fields[name] = Decided(
            kind=source,
            reviewer=decision.reviewer
            if decision
            else (row.reviewer if decision is None and source != FieldSource.PIPELINE else None),
            at=as_utc(decision.decided_at) if decision else None,
        )
    return record


def _when(value: dt.datetime | None) -> dt.datetime | None:
    return as_utc(value) if value else None


def apply_record(rows: list[FieldRow], record: DecisionRecord) -> None:
    """Field rows as the record shows them: decided (or as read), what was read, and the
    problems they were flagged for as history, never as something still to check."""
    for row in rows:
        decided = record.fields[row.name]
        row.flagged = [
            f"{p['kind']}: {p['text']}" if p["kind"] else p["text"] for p in row.problems
        ]
        row.problems = []
        row.pipeline_value = record.read.get(row.name)
        row.decision = None
        if decided.reviewer:
            kind = DecisionKind.CONFIRMED
            if decided.kind == FieldSource.CORRECTED:
                kind = DecisionKind.CORRECTED if row.value is not None else DecisionKind.NOT_STATED
            when = decided.at or record.at or dt.datetime.now(dt.UTC)
            row.decision = FieldDecision(row.name, kind, row.value, decided.reviewer, when)
