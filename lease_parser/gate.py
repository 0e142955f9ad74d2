"""Routing after normalization: one pure function decides committed or review.

Aggregate confidence is the weakest stated core field, and a document missing most core
fields cannot be confident about the abstraction as a whole. A single weak cue (capped at
0.78, extraction/cues.py) therefore never lets a document through the 0.80 gate; only
agreeing independent cues, or a strong self-verifying statement (a clean preamble, a clean
premises statement) on a text page, can.
"""

from __future__ import annotations

from dataclasses import dataclass

from lease_parser.errors import Reason
from lease_parser.model import CORE_FIELDS, DocumentKind, FieldProblem, LeaseAbstraction, Route

# A document must state at least this many core fields to be committed unreviewed.
MIN_CORE_FIELDS_STATED = 3
NOT_A_LEASE = FieldProblem(
    field="*",
    problem="does not read as a lease (no lease language, or an invoice/statement/receipt): "
    "reject it, or approve/correct it if it is one",
)


@dataclass(frozen=True)
class RoutingDecision:
    route: Route
    reason: Reason | None
    confidence: float
    doubtful: list[FieldProblem]


def aggregate_confidence(abstraction: LeaseAbstraction) -> float:
    """The weakest confidence among stated core fields; 0 when too few are stated."""
    stated = [abstraction.field(n) for n in CORE_FIELDS if abstraction.field(n).value is not None]
    if len(stated) < MIN_CORE_FIELDS_STATED:
        return (
            min([f.confidence for f in stated], default=0.0) * len(stated) / MIN_CORE_FIELDS_STATED
        )
    return min(f.confidence for f in stated)


def doubtful_fields(abstraction: LeaseAbstraction, gate: float) -> list[FieldProblem]:
    """Stated fields under the gate, with the evidence notes that explain why."""
    out = []
    for name in abstraction.field_names():
        f = abstraction.field(name)
        if f.value is not None and f.confidence < gate:
            why = "; ".join(f.notes) or "single weak cue"
            out.append(FieldProblem(field=name, problem=f"confidence {f.confidence:.2f}: {why}"))
    return out


def route_after_normalization(
    abstraction: LeaseAbstraction, problems: list[FieldProblem], gate: float
) -> RoutingDecision:
    """Schema problems → review whatever the score; below the gate → review; else commit."""
    confidence = aggregate_confidence(abstraction)
    if abstraction.kind is DocumentKind.NOT_A_LEASE:
        # Whatever the values: a reviewer confirms (rejects) or overrides, in one step.
        return RoutingDecision(Route.REVIEW, Reason.NOT_A_LEASE, confidence, [NOT_A_LEASE])
    if problems:
        return RoutingDecision(Route.REVIEW, Reason.SCHEMA_INVALID, confidence, problems)
    if confidence < gate:
        doubtful = doubtful_fields(abstraction, gate)
        if not doubtful:
            doubtful = [FieldProblem(field="*", problem="too few core fields stated")]
        return RoutingDecision(Route.REVIEW, Reason.LOW_CONFIDENCE, confidence, doubtful)
    return RoutingDecision(Route.COMMITTED, None, confidence, [])
