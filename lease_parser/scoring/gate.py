"""Routing after normalization: one pure function decides committed or review.

A document is committed unread only when it is complete and nothing in it needs a person:

- it is a lease or sublease (``COMMITTABLE_KINDS``): a blank form, an amendment or a
  termination of another lease, or a document that is not a lease at all
  (extraction/kind.py, routed as ``not_a_lease`` so a reviewer rejects it in one step) goes
  to a person, who is asked what they are committing;
- **it is complete** (``COMPLETENESS``): each of the parties, the premises, the lease
  date, the term (its length, or its start and end dates), the base rent (monthly or
  annual), the deposit and the escalation (how the rent moves, ``none`` included) is read,
  with a probability of being right that clears the gate (``LEASE_CONFIDENCE_GATE``), or
  not read with a probability that the lease does not state it that clears the gate
  (lease_parser.scoring.confidence, "not stated"). The parties are never
  "not stated" in a lease: with either unread it goes to a person;
- every other stated value of a field the model was calibrated on clears the gate;
- no value is in doubt whatever its probability: a rival value the lease also states, a
  relation with another value that fails, wording that leaves it open (extraction/
  evidence.py ``Doubt``), and no field the lease states was left unread.

The review item then lists exactly what needs the person, most serious first, each with
its reason and page (``ProblemKind``): a reviewer checks those and can trust the rest.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from lease_parser.errors import Reason
from lease_parser.model import (
    FIELD_NAMES,
    DocumentKind,
    Field,
    FieldProblem,
    LeaseAbstraction,
    ProblemKind,
    Route,
)

# The kinds of document an abstraction may be committed for without a person: a kind added
# to DocumentKind is held back until it is named here.
COMMITTABLE_KINDS = frozenset({DocumentKind.LEASE, DocumentKind.SUBLEASE})
# What a committed lease must account for: each entry is met when every field of one of
# its alternatives is read, or when each of its fields is unread and very probably not
# stated (the "not stated" model, above the gate).
COMPLETENESS: dict[str, tuple[tuple[str, ...], ...]] = {
    "landlord": (("landlord",),),
    "tenant": (("tenant",),),
    "premises": (("premises_address",),),
    "lease date": (("lease_date",),),
    "term": (("term_months",), ("commencement_date", "expiration_date")),
    "base rent": (("base_rent_monthly",), ("base_rent_annual",)),
    "security deposit": (("security_deposit",),),
    # The rent roll's next months: how the rent moves (a schedule, a rate, none at all).
    "escalation": (("escalation",),),
}
# Fields a committed lease always states: with one unread, a person reads the lease. A
# lease says how its rent moves, if only that it does not ("none"; in the labelled corpus no
# lease or sublease leaves the escalation unstated, a peppercorn ground lease included).
ALWAYS_STATED = frozenset({"landlord", "tenant", "escalation"})
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
    abstraction: LeaseAbstraction,
    gated: Collection[str] = FIELD_NAMES,
    not_stated: Collection[str] = (),
) -> float:
    """The least probable thing a commit would rely on: a stated value being right, or an
    entry of ``COMPLETENESS`` nothing was read for being one the lease does not state."""
    probabilities = [f.confidence for n, f in _stated(abstraction) if n in gated]
    for alternatives in COMPLETENESS.values():
        if not _read(abstraction, alternatives):
            probabilities.append(_not_stated(abstraction, alternatives, not_stated))
    return min(probabilities, default=0.0)


def _read(abstraction: LeaseAbstraction, alternatives: tuple[tuple[str, ...], ...]) -> bool:
    return any(all(abstraction.field(n).value is not None for n in a) for a in alternatives)


def _not_stated(
    abstraction: LeaseAbstraction,
    alternatives: tuple[tuple[str, ...], ...],
    not_stated: Collection[str],
) -> float:
    """The probability that the lease states none of these fields (0 for a party, or a field
    the "not stated" model was not fitted on)."""
    names = {n for a in alternatives for n in a if abstraction.field(n).value is None}
    if not names or names & ALWAYS_STATED or not names <= set(not_stated):
        return 0.0
    return min(abstraction.field(n).confidence for n in names)


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


def unread_problems(
    abstraction: LeaseAbstraction, gate: float, not_stated: Collection[str] = ()
) -> list[FieldProblem]:
    """Each entry of ``COMPLETENESS`` nothing was read for, unless the lease very probably
    does not state it: the person is asked whether it does (on its first field; one already
    flagged "stated but not read" has that problem instead). Only a lease or sublease is
    asked: a form, an amendment or a termination states what it changes, not a lease."""
    out: list[FieldProblem] = []
    if abstraction.kind not in COMMITTABLE_KINDS:
        return out
    for what, alternatives in COMPLETENESS.items():
        if _read(abstraction, alternatives):
            continue
        probability = _not_stated(abstraction, alternatives, not_stated)
        if probability >= gate:
            continue
        name = alternatives[0][0]
        field = abstraction.field(name)
        if field.doubts:
            continue
        if name in ALWAYS_STATED:
            why = f"not read: a lease states its {what}; find it in the lease"
        else:
            why = (
                f"not read: does the lease state the {what}? "
                f"(probability {probability:.2f} that it does not)"
            )
        page = field.provenance.page if field.provenance else None
        out.append(FieldProblem(field=name, problem=why, kind=ProblemKind.NOT_READ, page=page))
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
    elif abstraction.kind not in COMMITTABLE_KINDS:
        why = f"a document of kind {abstraction.kind.value}: not committed without a person"
        out.append(FieldProblem(field="*", problem=why, kind=ProblemKind.DOCUMENT))
    if appended:
        # Amendments are never applied unread (the same rule as an amendment on its own).
        why = f"followed by {appended} amendment(s) in the same file: check what they change"
        out.append(FieldProblem(field="*", problem=why, kind=ProblemKind.DOCUMENT))
    return out


def route_after_normalization(
    abstraction: LeaseAbstraction,
    problems: list[FieldProblem],
    gate: float,
    gated: Collection[str] = FIELD_NAMES,
    appended: int = 0,
    not_stated: Collection[str] = (),
) -> RoutingDecision:
    """Schema problems → review whatever the score; anything in doubt or unaccounted for →
    review; else commit.

    ``gated``: the fields whose probability may hold a document back (those the confidence
    model was calibrated on); ``not_stated``: the fields whose "not stated" probability it
    was calibrated on; ``appended``: amendments filed after it in the same file."""
    confidence = aggregate_confidence(abstraction, gated, not_stated)
    if abstraction.kind is DocumentKind.NOT_A_LEASE:
        # Whatever the values: a reviewer confirms (rejects) or overrides, in one step.
        return RoutingDecision(Route.REVIEW, Reason.NOT_A_LEASE, confidence, [NOT_A_LEASE])
    doubtful = sort_problems(
        doubtful_fields(abstraction, gate, gated) + unread_problems(abstraction, gate, not_stated),
        abstraction,
    )
    if problems:
        invalid = sort_problems(problems, abstraction)
        return RoutingDecision(Route.REVIEW, Reason.SCHEMA_INVALID, confidence, invalid + doubtful)
    doubtful = document_problems(abstraction, appended) + doubtful
    if doubtful:
        return RoutingDecision(Route.REVIEW, Reason.LOW_CONFIDENCE, confidence, doubtful)
    return RoutingDecision(Route.COMMITTED, None, confidence, [])
