"""A reviewer's values, checked by the same model as the pipeline's. Pure: no store, no queue.

``validate_correction`` is the one check of a typed value (the CLI and the web workspace
both use it): it returns the value's JSON form or raises ``InvalidCorrection`` naming the
field, what is wrong and the form expected. Structured values (``rent_schedule``,
``escalation``) are validated by the model, whose unknown keys are refused.

Stored ``fields`` (the ``abstract --json`` form) are typed back into a ``LeaseAbstraction``
with ``normalization.typed_value`` and checked with ``normalization.consistency_problems``,
so a value a reviewer types is accepted exactly when the pipeline would have accepted it.
Problems are returned, not raised: the review queue decides what a refusal looks like.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import ValidationError

from lease_parser.errors import InvalidCorrection, Reason
from lease_parser.model import (
    FIELD_NAMES,
    Allowance,
    AllowanceBasis,
    DocumentKind,
    Escalation,
    EscalationKind,
    Field,
    FieldProblem,
    LeaseAbstraction,
    Money,
    NoticeAddresses,
    NoticeWindow,
    Provenance,
    RentStep,
    Transfers,
    json_value,
)
from lease_parser.schedule_checks import schedule_cell_problems, schedule_problems
from lease_parser.scoring.normalization import consistency_problems, typed_value, value_type

# A reviewer-entered value is what the system of record says: certain by definition.
REVIEWED_CONFIDENCE = 1.0


def why_invalid(raw: Any, exc: ValueError) -> str:
    """One line a reviewer can act on, from whatever the model raised."""
    cause = exc.__cause__ if isinstance(exc.__cause__, Exception) else exc
    if isinstance(cause, ValidationError):
        detail = "; ".join(
            (".".join(map(str, e["loc"])) + ": " if e["loc"] else "")
            + e["msg"].removeprefix("Value error, ")
            for e in cause.errors()
        )
    elif isinstance(cause, InvalidOperation):
        detail = "not a number"
    elif isinstance(cause, json.JSONDecodeError):
        detail = f"not JSON ({cause.msg} at character {cause.pos})"
    else:
        detail = str(cause)
    return f"{raw!r} is not valid: {detail}"


def abstraction_from_fields(
    fields: Mapping[str, Any], kind: str | None = None
) -> tuple[LeaseAbstraction, list[FieldProblem]]:
    """Stored ``fields`` JSON → the typed model, with a problem for each value that fails."""
    currency = str((fields.get("currency") or {}).get("value") or "USD")
    values: dict[str, Field[Any]] = {}
    problems: list[FieldProblem] = []
    for name in FIELD_NAMES:
        stored = fields.get(name) or {}
        provenance = stored.get("provenance")
        try:
            value = typed_value(name, stored.get("value"), currency)
        except ValueError as exc:
            problems.append(FieldProblem(field=name, problem=why_invalid(stored.get("value"), exc)))
            continue
        values[name] = Field(
            value=value,
            confidence=float(stored.get("confidence") or 0.0),
            provenance=Provenance.model_validate(provenance) if provenance else None,
        )
    abstraction = LeaseAbstraction(kind=DocumentKind(kind or DocumentKind.LEASE), **values)
    return abstraction, problems


_KINDS = " | ".join(f'"{k.value}"' for k in EscalationKind)
_STEP_KEYS = ", ".join(f'"{k}": …' for k in RentStep.model_fields)
# What a reviewer types for each type of value; a new field's type needs a line here
# (a unit test walks the model and fails otherwise).
EXPECTED_FORMS: dict[Any, str] = {
    Money: "an amount as a plain number, e.g. 24062.50",
    Decimal: "a number, e.g. 11550 or 4.25",
    int: "a whole number, e.g. 60",
    dt.date: "a date as YYYY-MM-DD",
    str: "text",
    Escalation: f'JSON {{"kind": {_KINDS}, "rate": "3.00"}} (rate: the percent or amount '
    "per step; needed by fixed_percent and fixed_amount)",
    list[RentStep]: f"a JSON list of steps [{{{_STEP_KEYS}}}] (start/end: YYYY-MM-DD or "
    "a month number; amounts as strings)",
    NoticeWindow: 'JSON {"least": {"count": 9, "unit": "months"}, "most": {"count": 12, '
    '"unit": "months"} or null} (unit: days or months; notice at least "least" and at most '
    '"most" before the date)',
    Allowance: 'JSON {"amount": "25.00", "per": '
    + " | ".join(f'"{b.value}"' for b in AllowanceBasis)
    + "} (the total, or the amount per square foot)",
    Transfers: "one of " + ", ".join(t.value for t in Transfers),
    list[dt.date]: 'a JSON list of dates, e.g. ["2027-06-30", "2030-06-30"]',
    NoticeAddresses: 'JSON {"landlord": "1 Harbor Way, Portland, Maine 04101", "tenant": '
    '"5 Hill Road, Boston, Massachusetts 02110"} (either may be null)',
}
CURRENCY_FORM = "an ISO 4217 code of three capital letters, e.g. USD"


def expected_form(name: str) -> str:
    """What a correction of ``name`` must look like (``field=`` clears it)."""
    if name == "currency":
        return CURRENCY_FORM
    return EXPECTED_FORMS.get(value_type(name), "a value of the field's type")


def validate_correction(name: str, raw: str, currency: str = "USD") -> Any:
    """The JSON form of a reviewer's ``raw`` value for field ``name`` (None for ``""``, "not
    stated"); raises ``InvalidCorrection`` for an unknown field or a value the model refuses."""
    if name not in FIELD_NAMES:
        raise InvalidCorrection(
            name, raw, "unknown field", f"one of the fields: {', '.join(FIELD_NAMES)}"
        )
    if name == "rent_schedule" and raw:
        cells = schedule_cell_problems(raw)
        if cells:
            raise InvalidCorrection(
                name, raw, "; ".join(c.problem for c in cells), expected_form(name), cells
            )
    try:
        return _typed_json(name, raw, currency)
    except ValueError as exc:
        raise InvalidCorrection(name, raw, why_invalid(raw, exc), expected_form(name)) from exc


def parse_corrections(pairs: list[str]) -> dict[str, str]:
    """``["field=value", …]`` → a dict; an empty value means "the document does not state
    it". Raises ValueError for a pair without ``=``."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"{pair!r} is not field=value")
        out[name.strip()] = value.strip()
    return out


def _typed_json(name: str, raw: str, currency: str) -> Any:
    if name == "currency" and raw:
        code = raw.strip().upper()
        try:
            Money(amount=0, currency=code)  # the model's currency rule: ISO 4217 letters
        except ValidationError as exc:
            raise ValueError(str(exc)) from exc
        return code
    return json_value(typed_value(name, raw or None, currency))


def apply_corrections(
    fields: Mapping[str, Any], changes: Mapping[str, str]
) -> tuple[dict[str, Any], dict[str, Any], list[FieldProblem]]:
    """A reviewer's values applied: (new fields JSON, {field: {from, to}}, problems).

    A corrected field gets confidence 1.0 and keeps its provenance (where the reviewer
    looked). Each unknown field or bad value is a problem; nothing is applied then.
    """
    currency = str(
        changes.get("currency") or (fields.get("currency") or {}).get("value") or "USD"
    ).upper()
    new = {
        name: {"value": None, "provenance": None, **(fields.get(name) or {})}
        for name in FIELD_NAMES
    }
    record: dict[str, Any] = {}
    problems = []
    for name, raw in changes.items():
        try:
            value = validate_correction(name, raw, currency)
        except InvalidCorrection as exc:
            problems += _problems_of(exc)
            continue
        record[name] = {"from": new[name]["value"], "to": value}
        new[name].update(value=value, confidence=REVIEWED_CONFIDENCE)
    return new, record, problems


def _problems_of(refused: InvalidCorrection) -> list[FieldProblem]:
    """What the reviewer is shown of a refused value: each bad cell of a schedule, else the
    field with what is wrong and what is expected."""
    if refused.cells:
        return list(refused.cells)
    problem = f"{refused.problem}; expected {refused.expected}"
    return [FieldProblem(field=refused.field, problem=problem)]


def whole_value_problems(abstraction: LeaseAbstraction) -> list[FieldProblem]:
    """Values that cannot all be true together: the pipeline's cross-field checks, and the
    rent schedule checked as a whole (schedule_checks.py)."""
    return [*consistency_problems(abstraction), *schedule_problems(abstraction)]


def commit_problems(
    fields: Mapping[str, Any],
    kind: str | None,
    reason: str | None,
    stored_problems: list[FieldProblem],
    corrected: frozenset[str] = frozenset(),
) -> list[FieldProblem]:
    """Why these values cannot be committed: a value the model refuses, values that cannot
    all be true, and (for a ``schema_invalid`` item) an invalid value the pipeline dropped
    that nobody has restated: approving as is would commit a lease without it."""
    abstraction, problems = abstraction_from_fields(fields, kind)
    problems += whole_value_problems(abstraction)
    if reason == Reason.SCHEMA_INVALID:
        problems += [
            FieldProblem(
                field=p.field, problem=f"{p.problem} (correct it, or clear it with {p.field}=)"
            )
            for p in stored_problems
            if p.field in FIELD_NAMES
            and p.field not in corrected
            and abstraction.field(p.field).value is None
        ]
    return problems
