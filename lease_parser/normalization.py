"""Raw fields → the typed ``LeaseAbstraction``, and the checks that make a value invalid.

A value that cannot be typed (a negative rent, a malformed date) is not guessed at: the
field is left empty and a ``FieldProblem`` says why, which routes the document to review
as ``schema_invalid``. Cross-field checks (expiration before commencement, a term that
contradicts the dates) produce problems the same way.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import ValidationError

from lease_parser.extraction.base import RawField
from lease_parser.model import (
    DocumentKind,
    Escalation,
    Field,
    FieldProblem,
    LeaseAbstraction,
    Money,
    Provenance,
    RentStep,
)

MONEY_FIELDS = frozenset(
    {"base_rent_monthly", "base_rent_annual", "cam_monthly", "security_deposit"}
)
INT_FIELDS = frozenset({"term_months", "renewal_option_count", "renewal_term_months"})
DECIMAL_FIELDS = frozenset({"rentable_sqft", "tenant_share_percent"})
DATE_FIELDS = frozenset({"lease_date", "commencement_date", "expiration_date"})
JSON_FIELDS = frozenset({"rent_schedule", "escalation"})


def typed_value(name: str, raw: Any, currency: str = "USD") -> Any:
    """Convert a canonical string (or JSON value) to the field's type; raises ValueError."""
    if raw is None:
        return None
    try:
        if name in MONEY_FIELDS:
            return Money(amount=Decimal(str(raw)), currency=currency)
        if name in INT_FIELDS:
            value = int(str(raw))
            if value < 0:
                raise ValueError(f"{name} cannot be negative")
            return value
        if name in DECIMAL_FIELDS:
            value_d = Decimal(str(raw))
            if value_d < 0:
                raise ValueError(f"{name} cannot be negative")
            return value_d
        if name in DATE_FIELDS:
            return raw if isinstance(raw, dt.date) else dt.date.fromisoformat(str(raw))
        if name == "rent_schedule":
            steps = json.loads(raw) if isinstance(raw, str) else raw
            return [RentStep.model_validate(s) for s in steps]
        if name == "escalation":
            data = json.loads(raw) if isinstance(raw, str) else raw
            return Escalation.model_validate(data)
        return " ".join(str(raw).split())
    except (InvalidOperation, ValidationError, TypeError) as exc:
        raise ValueError(f"{name}: {raw!r} is not a valid value ({exc})") from exc


def _field(raw: RawField, currency: str) -> Field[Any]:
    provenance = (
        Provenance(page=raw.page, start=raw.start, end=raw.end, text=raw.snippet)
        if raw.page >= 1
        else None
    )
    return Field(
        value=typed_value(raw.name, raw.value, currency),
        confidence=max(0.0, min(1.0, raw.confidence)),
        provenance=provenance,
        inputs=[
            Provenance(page=c.page, start=c.start, end=c.end, text=c.snippet) for c in raw.inputs
        ],
        notes=raw.notes,
        doubts=raw.doubts,
        evidence=raw.evidence,
    )


def consistency_problems(abstraction: LeaseAbstraction) -> list[FieldProblem]:
    """Values that cannot all be true together."""
    problems = []
    start = abstraction.commencement_date.value
    end = abstraction.expiration_date.value
    months = abstraction.term_months.value
    if start and end and end <= start:
        problems.append(
            FieldProblem(
                field="expiration_date",
                problem=f"expiration {end} is not after commencement {start}",
            )
        )
    if start and end and months and end > start:
        span = (
            (end.year - start.year) * 12
            + (end.month - start.month)
            + (1 if end.day >= start.day else 0)
        )
        if abs(span - months) > 1:
            problems.append(
                FieldProblem(
                    field="term_months",
                    problem=f"term of {months} months contradicts dates "
                    f"{start} to {end} (~{span} months)",
                )
            )
    if months is not None and (months == 0 or months > 1200):
        problems.append(FieldProblem(field="term_months", problem=f"implausible term {months}"))
    return problems


def normalize_fields(
    raw_fields: dict[str, RawField], kind: DocumentKind = DocumentKind.LEASE
) -> tuple[LeaseAbstraction, list[FieldProblem]]:
    """Type every raw field; collect the problems that make the abstraction schema-invalid."""
    currency_raw = raw_fields.get("currency")
    currency = (currency_raw.value if currency_raw and currency_raw.value else "USD").upper()
    values: dict[str, Field[Any]] = {}
    problems: list[FieldProblem] = []
    for name, raw in raw_fields.items():
        if name not in LeaseAbstraction.model_fields or name == "kind":
            continue
        try:
            values[name] = _field(raw, currency)
        except ValueError as exc:
            problems.append(FieldProblem(field=name, problem=str(exc)))
    abstraction = LeaseAbstraction(kind=kind, **values)
    return abstraction, problems + consistency_problems(abstraction)
