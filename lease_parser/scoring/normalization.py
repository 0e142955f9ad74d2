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
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError

from lease_parser import model as model_module
from lease_parser.model import (
    MAX_TERM_MONTHS,
    Allowance,
    DocumentKind,
    Field,
    FieldProblem,
    LeaseAbstraction,
    Money,
    NoticeWindow,
    Provenance,
    StatedRival,
)

if TYPE_CHECKING:  # a type only: review screens type values without loading the extractors
    from lease_parser.extraction.base import Cited, RawField


def value_type(name: str, model: type[LeaseAbstraction] | None = None) -> Any:
    """``T`` of the model's ``Field[T]`` for ``name``: the one place a field's type is read."""
    annotation = (model or model_module.LeaseAbstraction).model_fields[name].annotation
    metadata = getattr(annotation, "__pydantic_generic_metadata__", None) or {}
    (argument,) = metadata.get("args") or (Any,)
    return argument


def fields_of_type(wanted: Any, model: type[LeaseAbstraction] | None = None) -> frozenset[str]:
    model = model or model_module.LeaseAbstraction
    return frozenset(n for n in model.field_names() if value_type(n, model) == wanted)


def _is_choice(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, StrEnum)


# Derived from the model, never listed by hand: a field added to model.py is typed by
# the same rules as its peers (a hand-kept list once sent every document dead when it
# lagged behind the model).
MONEY_FIELDS = fields_of_type(Money)
INT_FIELDS = fields_of_type(int)
DECIMAL_FIELDS = fields_of_type(Decimal)
DATE_FIELDS = fields_of_type(dt.date)
TEXT_FIELDS = fields_of_type(str)
NOTICE_FIELDS = fields_of_type(NoticeWindow)
ALLOWANCE_FIELDS = fields_of_type(Allowance)
# One of a few words (``Transfers``): written and typed as the word, never as JSON.
CHOICE_FIELDS = frozenset(n for n in LeaseAbstraction.field_names() if _is_choice(value_type(n)))
JSON_FIELDS = frozenset(LeaseAbstraction.field_names()) - (
    MONEY_FIELDS | INT_FIELDS | DECIMAL_FIELDS | DATE_FIELDS | TEXT_FIELDS | CHOICE_FIELDS
)


@cache
def _adapter(kind: Any) -> TypeAdapter[Any]:
    return TypeAdapter(kind)


def _not_negative(name: str, value: Any) -> Any:
    if value < 0:
        raise ValueError(f"{name} cannot be negative")
    return value


def _typed(name: str, kind: Any, raw: Any, currency: str) -> Any:
    if kind is Money:
        return Money(amount=Decimal(str(raw)), currency=currency)
    if kind is int:
        return _not_negative(name, int(str(raw)))
    if kind is Decimal:
        return _not_negative(name, Decimal(str(raw)))
    if kind is dt.date:
        return raw if isinstance(raw, dt.date) else dt.date.fromisoformat(str(raw))
    if kind is str:
        return " ".join(str(raw).split())
    if _is_choice(kind):
        word = str(raw).strip().lower()
        if word not in {m.value for m in kind}:
            raise TypeError("not a word this field takes")
        return kind(word)
    # Structured values (rent_schedule, escalation, anything added later) arrive as JSON.
    data = json.loads(raw) if isinstance(raw, str) else raw
    return _adapter(kind).validate_python(data)


def typed_value(
    name: str, raw: Any, currency: str = "USD", model: type[LeaseAbstraction] | None = None
) -> Any:
    """Convert a canonical string (or JSON value) to the field's type; raises ValueError."""
    if raw is None:
        return None
    try:
        return _typed(name, value_type(name, model), raw, currency)
    except (InvalidOperation, ValidationError, TypeError) as exc:
        raise ValueError(f"{name}: {raw!r} is not a valid value ({exc})") from exc


def _provenance(cited: Cited) -> Provenance:
    return Provenance(page=cited.page, start=cited.start, end=cited.end, text=cited.snippet)


def _field(raw: RawField, currency: str, model: type[LeaseAbstraction]) -> Field[Any]:
    provenance = (
        Provenance(page=raw.page, start=raw.start, end=raw.end, text=raw.snippet)
        if raw.page >= 1
        else None
    )
    field: Field[Any] = Field(
        value=typed_value(raw.name, raw.value, currency, model),
        confidence=max(0.0, min(1.0, raw.confidence)),
        provenance=provenance,
        inputs=[_provenance(c) for c in raw.inputs],
        rivals=[StatedRival(value=r.value, provenance=_provenance(r.cited)) for r in raw.rivals],
        notes=raw.notes,
        doubts=raw.doubts,
        evidence=raw.evidence,
    )
    # Validated as the model's own Field[T] here, so a value the model would refuse is
    # this field's problem, never a ValidationError that kills the whole document.
    try:
        annotation: Any = model.model_fields[raw.name].annotation
        _adapter(annotation).validate_python(field)
    except ValidationError as exc:
        raise ValueError(f"{raw.name}: {raw.value!r} is not a valid value ({exc})") from exc
    return field


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
    if months is not None and (months == 0 or months > MAX_TERM_MONTHS):
        problems.append(FieldProblem(field="term_months", problem=f"implausible term {months}"))
    return problems


def normalize_fields(
    raw_fields: dict[str, RawField],
    kind: DocumentKind = DocumentKind.LEASE,
    model: type[LeaseAbstraction] | None = None,
) -> tuple[LeaseAbstraction, list[FieldProblem]]:
    """Type every raw field; collect the problems that make the abstraction schema-invalid."""
    model = model or model_module.LeaseAbstraction
    currency_raw = raw_fields.get("currency")
    currency = (currency_raw.value if currency_raw and currency_raw.value else "USD").upper()
    values: dict[str, Field[Any]] = {}
    problems: list[FieldProblem] = []
    names = set(model.field_names())
    for name, raw in raw_fields.items():
        if name not in names:
            continue
        try:
            values[name] = _field(raw, currency, model)
        except ValueError as exc:
            problems.append(FieldProblem(field=name, problem=str(exc)))
    abstraction = model(kind=kind, **values)
    return abstraction, problems + consistency_problems(abstraction)
