"""Field values as people read them: numbers and dates typed, structures in words."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import Any

from lease_parser.model import NoticeWindow
from lease_parser.normalization import DATE_FIELDS, DECIMAL_FIELDS, MONEY_FIELDS, NOTICE_FIELDS


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
    if name == "rent_schedule":
        return f"{len(value)} step(s)"
    if name == "escalation" and isinstance(value, dict):
        rate = value.get("rate")
        return f"{value.get('kind')}" + (f" {rate}" if rate else "")
    if isinstance(value, (list, dict)):
        return str(value)
    return value


def shown(name: str, value: Any) -> str:
    """``display_value`` as text ("-" for nothing)."""
    typed = display_value(name, value)
    if typed is None:
        return "-"
    return typed.isoformat() if isinstance(typed, dt.date) else str(typed)
