"""Every field of the abstraction, described once: the registry the other tables derive from.

A field is declared in ``model.LeaseAbstraction`` with ``described(...)`` — its type, and
what else a part of the system needs to know of it. This module reads those declarations
into ``FieldSpec``s; the confidence model's field groups, the core fields, the reviewers'
labels and hints, the fields an amendment may change, the Excel
abstract's columns and docs/fields.md's table are derived from them, never listed by hand
(a hand-kept list fails silently when it lags: a field missing from a group table got an
all-zero group, one missing from the labels showed its raw name); the money, date and
other typed sets come from the types themselves (lease_parser.scoring.normalization). ``tests/unit/
test_fields.py`` checks the registry is complete and docs/fields.md's table is current.

Adding a field: declare it in model.py with ``described``, read it in an extraction module
(its cues), and test it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, get_args, get_origin

from lease_parser.model import FIELD_NAMES, LeaseAbstraction, Money, field_description

DATE_HINT = "a date: 2026-02-28 or 02/28/2026"
NOTICE_HINT = 'JSON, e.g. {"least": {"count": 9, "unit": "months"}, "most": null}'
MONEY_HINT = "an amount, like 7048.80 or 7,048.80"
# How a reviewer types a value of each type, where its declaration gives no hint.
_TYPE_HINTS = {"date": DATE_HINT, "NoticeWindow": NOTICE_HINT, "Money": MONEY_HINT}


@dataclass(frozen=True)
class FieldSpec:
    name: str
    type: str  # as docs/fields.md writes it: str, Decimal, date, int, Money, list[RentStep] …
    group: str  # how it is read: fields of a group share what the confidence model learns
    label: str  # what a reviewer reads
    hint: str  # how a reviewer types a value ("" for a structured value edited as a form)
    meaning: str
    example: str  # its JSON form, in docs/fields.md's words
    core: bool
    amendable: bool  # an amendment's value replaces the lease's (portfolio/terms.py)
    column: str | None  # heading in the Excel abstract's Portfolio sheet (None: not there)


def _type_name(annotation: Any) -> str:
    """``Field[T]``'s T as docs/fields.md names it."""
    (argument,) = get_args(annotation) or annotation.__pydantic_generic_metadata__["args"]
    if get_origin(argument) is list:
        (item,) = get_args(argument)
        return f"list[{item.__name__}]"
    names = {dt.date: "date", Decimal: "Decimal", Money: "Money"}
    return names.get(argument, getattr(argument, "__name__", str(argument)))


def _spec(name: str) -> FieldSpec:
    described = field_description(name)
    kind = _type_name(LeaseAbstraction.model_fields[name].annotation)
    hint = described.pop("hint") or _TYPE_HINTS.get(kind, "")
    return FieldSpec(name=name, type=kind, hint=hint, **described)


FIELD_SPECS: tuple[FieldSpec, ...] = tuple(_spec(name) for name in FIELD_NAMES)
SPECS: dict[str, FieldSpec] = {spec.name: spec for spec in FIELD_SPECS}
FIELD_GROUPS: dict[str, str] = {s.name: s.group for s in FIELD_SPECS}
LABELS: dict[str, str] = {s.name: s.label for s in FIELD_SPECS}
HINTS: dict[str, str] = {s.name: s.hint for s in FIELD_SPECS if s.hint}
AMENDABLE: tuple[str, ...] = tuple(s.name for s in FIELD_SPECS if s.amendable)


def markdown_table() -> str:
    """docs/fields.md's table of the fields, from the registry."""
    rows = ["| field | type | JSON form of `value` | meaning |", "|---|---|---|---|"]
    rows += [f"| `{s.name}` | {s.type} | {s.example} | {s.meaning} |" for s in FIELD_SPECS]
    return "\n".join(rows)


if __name__ == "__main__":  # python -m lease_parser.fields: the table docs/fields.md holds
    print(markdown_table())
