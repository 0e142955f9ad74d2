"""Routing after normalization: one pure function decides committed or review.

A document is committed unread only when nothing in it needs a person:

- every stated value's probability of being right (lease_parser.confidence) clears the
  gate, ``LEASE_CONFIDENCE_GATE``;
- no value is in doubt whatever its probability: a rival value the lease also states, a
  relation with another value that fails, wording that leaves it open (extraction/
  evidence.py ``Doubt``), and no field the lease states was left unread;
- it is a lease or sublease stating enough core fields to be one (a blank form, an
  amendment of another lease, or a document with almost nothing read goes to a person);
  a document that is not a lease at all (extraction/kind.py) goes to review as
  ``not_a_lease``, so a reviewer rejects it in one step.

The review item then lists exactly what needs the person, most serious first, each with
its reason and page (``ProblemKind``): a reviewer checks those and can trust the rest.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from lease_parser.errors import Reason
from lease_parser.model import (
    CORE_FIELDS,
    FIELD_NAMES,
    DocumentKind,
    Field,
    FieldProblem,
    LeaseAbstraction,
    ProblemKind,
    Route,
)

# A document must state at least this many core fields to be committed unreviewed.
MIN_CORE_FIELDS_STATED = 3
# The kinds of document an abstraction may be committed for without a person.
COMMITTABLE_KINDS = frozenset({DocumentKind.LEASE, DocumentKind.SUBLEASE})
# The review item's order: what most needs a person first.
PROBLEM_ORDER = tuple(ProblemKind)
_WHAT_DOCUMENTS_ARE = {
    DocumentKind.FORM: "a blank form: its values are examples or blanks",
    DocumentKind.AMENDMENT: "an amendment: it changes the terms of another lease",
}
NOT_A_LEASE = FieldProblem(
    field="*",
    problem="does not read as a lease (no lease language, or an invoice/statement/receipt): "
    "reject it, or approve/correct it if it is one",
    kind=ProblemKind.DOCUMENT,
)


@dataclass(frozen=True)
class RoutingDecision:
    route: Route
    reason: Reason | None
    confidence: float
    doubtful: list[FieldProblem]


def aggregate_confidence(
    abstraction: LeaseAbstraction, gated: Collection[str] = FIELD_NAMES
) -> float:
    """The least probable stated value; scaled down when too few core fields are stated."""
    stated = [f.confidence for n, f in _stated(abstraction) if n in gated]
    core = sum(1 for n in CORE_FIELDS if abstraction.field(n).value is not None)
    weakest = min(stated, default=0.0)
    return weakest if core >= MIN_CORE_FIELDS_STATED else weakest * core / MIN_CORE_FIELDS_STATED


def _stated(abstraction: LeaseAbstraction) -> list[tuple[str, Field[object]]]:
    return [
        (n, abstraction.field(n))
        for n in abstraction.field_names()
        if abstraction.field(n).value is not None
    ]


def field_problems(
    name: str, field: Field[object], gate: float, gated: bool = True
) -> list[FieldProblem]:
    """What a person must check about one field: its doubts, then a low probability (for a
    field whose probabilities the model was calibrated on)."""
    page = field.provenance.page if field.provenance else None
    out = [
        FieldProblem(field=name, problem=why, kind=ProblemKind(code), page=page)
        for code, why in field.doubts.items()
    ]
    if gated and field.value is not None and field.confidence < gate:
        why = f"probability {field.confidence:.2f} that it is right: " + (
            "; ".join(field.notes) or "little evidence"
        )
        out.append(
            FieldProblem(field=name, problem=why, kind=ProblemKind.LOW_PROBABILITY, page=page)
        )
    return out


def doubtful_fields(
    abstraction: LeaseAbstraction, gate: float, gated: Collection[str] = FIELD_NAMES
) -> list[FieldProblem]:
    """Every field that needs a person, most serious first (then least probable first)."""
    problems = [
        p
        for name in abstraction.field_names()
        for p in field_problems(name, abstraction.field(name), gate, name in gated)
    ]
    return sort_problems(problems, abstraction)


def sort_problems(
    problems: list[FieldProblem], abstraction: LeaseAbstraction
) -> list[FieldProblem]:
    def key(p: FieldProblem) -> tuple[int, float]:
        probability = (
            abstraction.field(p.field).confidence if p.field in abstraction.field_names() else 0.0
        )
        return PROBLEM_ORDER.index(p.kind), probability

    return sorted(problems, key=key)


def document_problems(abstraction: LeaseAbstraction, appended: int = 0) -> list[FieldProblem]:
    """Reasons the document as a whole needs a person."""
    out = []
    what = _WHAT_DOCUMENTS_ARE.get(abstraction.kind)
    if what is not None:
        out.append(FieldProblem(field="*", problem=what, kind=ProblemKind.DOCUMENT))
    if appended:
        # Amendments are never applied unread (the same rule as an amendment on its own).
        why = f"followed by {appended} amendment(s) in the same file: check what they change"
        out.append(FieldProblem(field="*", problem=why, kind=ProblemKind.DOCUMENT))
    core = sum(1 for n in CORE_FIELDS if abstraction.field(n).value is not None)
    if core < MIN_CORE_FIELDS_STATED:
        out.append(
            FieldProblem(field="*", problem="too few core fields stated", kind=ProblemKind.DOCUMENT)
        )
    return out


def route_after_normalization(
    abstraction: LeaseAbstraction,
    problems: list[FieldProblem],
    gate: float,
    gated: Collection[str] = FIELD_NAMES,
    appended: int = 0,
) -> RoutingDecision:
    """Schema problems → review whatever the score; anything in doubt → review; else commit.

    ``gated``: the fields whose probability may hold a document back (those the confidence
    model was calibrated on); ``appended``: amendments filed after it in the same file."""
    confidence = aggregate_confidence(abstraction, gated)
    if abstraction.kind is DocumentKind.NOT_A_LEASE:
        # Whatever the values: a reviewer confirms (rejects) or overrides, in one step.
        return RoutingDecision(Route.REVIEW, Reason.NOT_A_LEASE, confidence, [NOT_A_LEASE])
    doubtful = doubtful_fields(abstraction, gate, gated)
    if problems:
        invalid = sort_problems(problems, abstraction)
        return RoutingDecision(Route.REVIEW, Reason.SCHEMA_INVALID, confidence, invalid + doubtful)
    doubtful = document_problems(abstraction, appended) + doubtful
    if doubtful:
        return RoutingDecision(Route.REVIEW, Reason.LOW_CONFIDENCE, confidence, doubtful)
    return RoutingDecision(Route.COMMITTED, None, confidence, [])
