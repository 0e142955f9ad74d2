"""Field-level review decisions, and what they make of a document's values. Pure: no store.

A reviewer decides each field of a document in review: *confirmed* (the pipeline's value
is right), *corrected* (another value, checked by the same model as the pipeline's, see
corrections.py) or *not stated* (the lease does not state it: the value is null). The
draft a reviewer approves is the pipeline's fields with those decisions applied; each
committed value then keeps where it came from (``FieldSource``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from lease_parser.corrections import (
    REVIEWED_CONFIDENCE,
    abstraction_from_fields,
    apply_corrections,
    whole_value_problems,
)
from lease_parser.model import FIELD_NAMES, FieldProblem
from lease_parser.schedule_checks import CellProblem


class DecisionKind(StrEnum):
    """What a reviewer said about one field."""

    CONFIRMED = "confirmed"  # the pipeline's value is right
    CORRECTED = "corrected"  # the right value is another one
    NOT_STATED = "not_stated"  # the lease does not state it: the value is null


class FieldSource(StrEnum):
    """Where a committed value came from."""

    PIPELINE = "pipeline"  # as extracted; no reviewer decided this field
    CONFIRMED = "confirmed"  # as extracted, and a reviewer confirmed it
    CORRECTED = "corrected"  # a reviewer's value (null included: "not stated")


@dataclass(frozen=True)
class FieldDecision:
    field: str
    kind: DecisionKind
    value: Any  # the stored JSON form; None for not_stated
    reviewer: str
    decided_at: dt.datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "decision": self.kind.value,
            "value": self.value,
            "reviewer": self.reviewer,
            "decided_at": self.decided_at.isoformat(),
        }


def stored_value(fields: Mapping[str, Any], name: str) -> Any:
    return (fields.get(name) or {}).get("value")


def draft_fields(
    fields: Mapping[str, Any], decisions: Iterable[FieldDecision]
) -> dict[str, dict[str, Any]]:
    """The pipeline's fields with the reviewer's values in place (confidence 1.0 for a
    value a reviewer set; a confirmed value keeps its own confidence and provenance)."""
    draft = {
        name: {"value": None, "confidence": 0.0, "provenance": None, **(fields.get(name) or {})}
        for name in FIELD_NAMES
    }
    for decision in decisions:
        if decision.kind is not DecisionKind.CONFIRMED and decision.field in draft:
            draft[decision.field].update(value=decision.value, confidence=REVIEWED_CONFIDENCE)
    return draft


def confirmation(
    fields: Mapping[str, Any], draft: Mapping[str, Any], name: str
) -> tuple[DecisionKind, Any]:
    """Confirming a field confirms the value shown: the draft's, so a reviewer's correction
    stays a correction (the pipeline's value is not brought back); confirming an empty
    field says the lease does not state it."""
    value = stored_value(draft, name)
    if value is None:
        return DecisionKind.NOT_STATED, None
    if value == stored_value(fields, name):
        return DecisionKind.CONFIRMED, value
    return DecisionKind.CORRECTED, value


def corrections_to_decisions(
    fields: Mapping[str, Any],
    draft: Mapping[str, Any],
    changes: Mapping[str, str],
    kind: str | None,
) -> tuple[dict[str, tuple[DecisionKind, Any]], list[FieldProblem]]:
    """A reviewer's ``{field: raw value}`` checked and turned into decisions.

    Refused (problems returned, nothing decided): an unknown field or a value the model
    refuses (corrections.py), and values that this change makes inconsistent with the
    others (an expiration now before the commencement). An inconsistency that was already
    there does not block correcting another field; approve refuses it until it is fixed.
    A value typed as the pipeline had it is a confirmation; an empty one is "not stated".
    """
    corrected, _record, problems = apply_corrections(draft, changes)
    if problems:
        return {}, problems
    before = {p.field for p in _inconsistencies(draft, kind)}
    problems = [p for p in _inconsistencies(corrected, kind) if _blocks(p, before, changes)]
    if problems:
        return {}, problems
    decided: dict[str, tuple[DecisionKind, Any]] = {}
    for name in changes:
        value = corrected[name]["value"]
        if value is None:
            decided[name] = (DecisionKind.NOT_STATED, None)
        elif value == stored_value(fields, name):
            decided[name] = (DecisionKind.CONFIRMED, value)
        else:
            decided[name] = (DecisionKind.CORRECTED, value)
    return decided, []


def _blocks(problem: FieldProblem, before: set[str], changes: Mapping[str, str]) -> bool:
    """Whether an inconsistency refuses this change. One already there does not block
    correcting another field, but a field being changed must come out consistent (a
    schedule corrected into another impossible one is refused, whatever the pipeline's
    was). The schedule is checked when it is what changes: a schedule and the monthly rent
    it must contain are corrected one after the other, and approve checks both."""
    if isinstance(problem, CellProblem):
        return problem.field in changes
    return problem.field not in before or problem.field in changes


def _inconsistencies(fields: Mapping[str, Any], kind: str | None) -> list[FieldProblem]:
    abstraction, _invalid = abstraction_from_fields(fields, kind)
    return whole_value_problems(abstraction)


def field_sources(fields: Mapping[str, Any], decisions: Iterable[FieldDecision]) -> dict[str, str]:
    """Where each committed value comes from. "Not stated" on a field the pipeline had left
    empty confirms it; on a field with a value it corrects it."""
    sources = dict.fromkeys(FIELD_NAMES, FieldSource.PIPELINE.value)
    for d in decisions:
        changed = d.kind is DecisionKind.CORRECTED or (
            d.kind is DecisionKind.NOT_STATED and stored_value(fields, d.field) is not None
        )
        sources[d.field] = (FieldSource.CORRECTED if changed else FieldSource.CONFIRMED).value
    return sources


def corrections_record(
    fields: Mapping[str, Any], decisions: Iterable[FieldDecision]
) -> dict[str, dict[str, Any]]:
    """``{field: {"from", "to"}}`` for every value a reviewer changed."""
    return {
        d.field: {"from": stored_value(fields, d.field), "to": d.value}
        for d in decisions
        if d.kind is not DecisionKind.CONFIRMED and d.value != stored_value(fields, d.field)
    }
