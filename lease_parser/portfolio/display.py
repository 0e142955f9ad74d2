"""Field values as people read them: numbers and dates typed, structures in words."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from lease_parser.model import Allowance, NoticeWindow
from lease_parser.scoring.normalization import (
    ALLOWANCE_FIELDS,
    DATE_FIELDS,
    DECIMAL_FIELDS,
    MONEY_FIELDS,
    NOTICE_FIELDS,
)


def as_decimal(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def as_date(value: Any) -> dt.date | None:
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def display_value(name: str, value: Any) -> Any:
    """A field's value as a cell: numbers and dates typed, structures in words."""
    if value is None:
        return None
    if name in MONEY_FIELDS or name in DECIMAL_FIELDS:
        return as_decimal(value)
    if name in DATE_FIELDS:
        return as_date(value) or str(value)
    if name in NOTICE_FIELDS:
        return NoticeWindow.model_validate(value).describe()
    if name in ALLOWANCE_FIELDS and isinstance(value, dict):
        return Allowance.model_validate(value).describe()
    if name == "rent_schedule":
        return f"{len(value)} step(s)"
    if name == "escalation" and isinstance(value, dict):
        rate = value.get("rate")
        return f"{value.get('kind')}" + (f" {rate}" if rate else "")
    if isinstance(value, (list, dict)):
        return str(value)
    return value


# What a notice window is counted back from (docs/fields.md).
NOTICE_BEFORE = {
    "renewal_notice": "before the term ends",
    "termination_notice": "before the break date",
}
ESCALATION_WORDS = {
    "fixed_percent": "up {rate}% at each step",
    "fixed_amount": "up {rate} at each step",
    "cpi": "with the CPI",
    "schedule": "by the rent schedule",
    "none": "no increases",
}


def in_words(name: str, value: Any) -> str:
    """A field's value as a person reads it in a terminal: "9–12 months before the term
    ends", "up 3% at each step", "5 steps, 24062.50 to 27082.56 a month" ("-": none)."""
    if value is None:
        return "-"
    if name in NOTICE_FIELDS and isinstance(value, dict):
        window = NoticeWindow.model_validate(value).describe()
        return f"{window} {NOTICE_BEFORE.get(name, 'before the date')}"
    if name == "escalation" and isinstance(value, dict):
        words = ESCALATION_WORDS.get(str(value.get("kind")), "{kind} {rate}")
        return words.format(kind=value.get("kind"), rate=value.get("rate") or "?")
    if name == "rent_schedule" and isinstance(value, list):
        monthly = [step.get("monthly") for step in value if isinstance(step, dict)]
        monthly = [m for m in monthly if m is not None]
        steps = f"{len(value)} step{'s' if len(value) != 1 else ''}"
        return f"{steps}, {monthly[0]} to {monthly[-1]} a month" if monthly else steps
    return shown(name, value)


def clip(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters; a cut one ends in "…", so a reader never
    takes "Maryland 2123" for the ZIP or "L.P" for the name."""
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def shown(name: str, value: Any) -> str:
    """``display_value`` as text ("-" for nothing)."""
    typed = display_value(name, value)
    if typed is None:
        return "-"
    return typed.isoformat() if isinstance(typed, dt.date) else str(typed)
