"""Documents in a real store, made through the pipeline's own API (register, then finish).

Fields are built with the real model and rendered by ``abstraction_fields_json``, so they
are exactly what a worker stores.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from lease_parser.errors import Reason
from lease_parser.model import (
    FIELD_NAMES,
    Field,
    FieldProblem,
    LeaseAbstraction,
    ProblemKind,
    Provenance,
    abstraction_fields_json,
)
from lease_parser.scoring.normalization import typed_value
from lease_parser.store import DocumentRow, DocumentState, Outcome, ReviewQueue, Store

VALID_VALUES: dict[str, Any] = {
    "landlord": "Harbor Point Owner LLC",
    "tenant": "Bluefin Analytics, Inc.",
    "premises_address": "1200 Harbor Point Blvd, Suite 400, Baltimore, MD 21230",
    "rentable_sqft": "11550",
    "lease_date": "2024-03-15",
    "commencement_date": "2024-05-01",
    "expiration_date": "2029-07-31",
    "term_months": "63",
    "base_rent_monthly": "24062.50",
    "base_rent_annual": "288750.00",
    "rent_schedule": [
        {"start": 1, "end": 12, "monthly": "24062.50", "annual": "288750.00"},
        {"start": "2025-05-01", "end": "2026-04-30", "monthly": "24784.38", "annual": None},
    ],
    "escalation": {"kind": "fixed_percent", "rate": "3"},
    "security_deposit": "48125.00",
    "currency": "USD",
}

_counter = itertools.count(1)


def fields_json(values: dict[str, Any] | None = None, confidence: float = 0.6) -> dict[str, Any]:
    """The ``fields`` JSON of an abstraction holding ``values`` (canonical strings)."""
    values = VALID_VALUES if values is None else values
    typed: dict[str, Field[Any]] = {
        name: Field(
            value=typed_value(name, raw),
            confidence=confidence,
            provenance=Provenance(page=1, start=0, end=10, text=f"... {name} ..."),
        )
        for name, raw in values.items()
        if name in FIELD_NAMES
    }
    return abstraction_fields_json(LeaseAbstraction(**typed))


def add_document(
    store: Store,
    state: DocumentState = DocumentState.REVIEW,
    reason: Reason | None = Reason.LOW_CONFIDENCE,
    fields: dict[str, Any] | None = None,
    problems: list[FieldProblem] | None = None,
    key: str | None = None,
    confidence: float = 0.6,
    kind: str = "lease",
    amendments: list[dict[str, Any]] | None = None,
) -> str:
    """Register and finish one document; returns its (unique, made-up) content hash."""
    n = next(_counter)
    doc_hash = hashlib.sha256(f"document {n} {id(store)}".encode()).hexdigest()
    submission = f"sub-{doc_hash[:16]}"
    store.register_submission(submission, key or f"incoming/lease-{n}.pdf", doc_hash)
    if fields is None and reason != Reason.NEEDS_CREDENTIAL:
        fields = fields_json(confidence=confidence)
    if problems is None and state == DocumentState.REVIEW and reason == Reason.LOW_CONFIDENCE:
        problems = [
            FieldProblem(
                field="base_rent_monthly",
                problem="confidence 0.60: one cue",
                kind=ProblemKind.LOW_PROBABILITY,
            )
        ]
    won = store.finish(
        doc_hash,
        submission,
        Outcome(
            state=state,
            reason=reason,
            kind=kind,
            confidence=confidence,
            fields=fields,
            problems=[p.model_dump() for p in problems or []],
            pages=3,
            amendments=amendments,
        ),
    )
    assert won
    return doc_hash


def review_and_approve(
    queue: ReviewQueue, doc_hash: str, reviewer: str, changes: dict[str, str] | None = None
) -> DocumentRow:
    """A reviewer's whole decision: claim, correct ``changes``, confirm every doubtful field
    left unchecked, approve (the shortest path the rule allows)."""
    queue.claim(doc_hash, reviewer)
    if changes:
        queue.correct(doc_hash, reviewer, changes)
    item = queue.item(doc_hash)
    if item.unchecked:
        queue.confirm(doc_hash, reviewer, item.unchecked)
    return queue.approve(doc_hash, reviewer)


def claim_and_reject(queue: ReviewQueue, doc_hash: str, reviewer: str, why: str) -> DocumentRow:
    queue.claim(doc_hash, reviewer)
    return queue.reject(doc_hash, reviewer, why)
