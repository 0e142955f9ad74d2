"""A field's edit form → the raw value the review queue validates (the CLI's ``field=value``).

Simple fields are one text input. The rent schedule is edited as rows (start, end,
monthly, annual, per square foot) and the escalation as a kind and a rate: never as raw
JSON. Both become the JSON the queue checks with the pipeline's own model, so a bad row
is refused there, with the reason shown next to the field.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from lease_parser.model import FIELD_NAMES, Money
from lease_parser.scoring.normalization import value_type
from lease_parser.web.item_view import STEP_COLUMNS


def correction_value(name: str, form: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """The raw value for ``name`` ("" means not stated) and what was entered, to show again
    if it is refused."""
    if name == "rent_schedule":
        steps = _steps(form)
        raw_steps = [{c: _cell(s.get(c), c) for c in STEP_COLUMNS} for s in steps]
        return (json.dumps(raw_steps) if raw_steps else ""), {"steps": _entered_steps(form)}
    if name == "escalation":
        kind, rate = form.get("kind", "").strip(), form.get("rate", "").strip()
        entered = {"kind": kind, "rate": rate}
        return (json.dumps({"kind": kind, "rate": rate or None}) if kind else ""), entered
    value = form.get("value", "").strip()
    return plain_value(name, value), {"value": value}


_US_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_AMOUNT = re.compile(r"[$£€¥₹]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")


def plain_value(name: str, text: str) -> str:
    """What a person types, in the form the model reads: a date as 02/28/2026 (month first,
    as the hint says) becomes 2026-02-28; an amount as $24,062.50 becomes 24062.50. Anything
    else is left for the model to judge."""
    kind = value_type(name) if name in FIELD_NAMES else str
    if kind is dt.date and (date := _US_DATE.fullmatch(text)):
        month, day, year = date.groups()
        return f"{year}-{int(month):02}-{int(day):02}"
    if kind in (Money, Decimal) and (amount := _AMOUNT.fullmatch(text)):
        whole, cents = amount.groups()
        return whole.replace(",", "") + (cents or "")
    return text


def in_words(name: str, problem: str) -> str:
    """A refusal of a typed value, as a person reads it: what to type, never the model's
    wording or a field's internal name."""
    if "is not valid" not in problem or name not in FIELD_NAMES:
        return problem
    kind = value_type(name)
    negative = "greater than or equal to 0" in problem or "cannot be negative" in problem
    if kind in (Money, Decimal):
        return (
            "an amount cannot be negative: use a number like 7048.80"
            if negative
            else ("not a number: use a number like 7048.80")
        )
    if kind is int:
        return "use a whole number, like 60" + (" (0 or more)" if negative else "")
    if kind is dt.date:
        return "not a date: use a date like 2026-02-28 or 02/28/2026 (month/day/year)"
    if name == "currency":
        return "use a three-letter currency code, like USD or GBP"
    return problem


def _row_numbers(form: Mapping[str, str]) -> list[int]:
    numbers = {
        int(key.rsplit("-", 1)[1])
        for key in form
        if key.startswith("step-") and key.rsplit("-", 1)[1].isdigit()
    }
    return sorted(numbers)


def _entered_steps(form: Mapping[str, str]) -> list[dict[str, str]]:
    return [
        {c: form.get(f"step-{c}-{n}", "").strip() for c in STEP_COLUMNS} for n in _row_numbers(form)
    ]


def _steps(form: Mapping[str, str]) -> list[dict[str, str]]:
    """Rows with anything in them, in order; blank rows are dropped."""
    return [row for row in _entered_steps(form) if any(row.values())]


def _cell(text: str | None, column: str = "") -> Any:
    """A month number stays a number (``"13"`` → 13); dates and amounts stay strings for
    the model to check (typed as a person writes them: 02/28/2026, 24,062.50); an empty cell
    is null."""
    if not text:
        return None
    if text.isdigit():
        return int(text)
    if (date := _US_DATE.fullmatch(text)) and column in ("start", "end"):
        month, day, year = date.groups()
        return f"{year}-{int(month):02}-{int(day):02}"
    if (amount := _AMOUNT.fullmatch(text)) and column not in ("start", "end"):
        whole, cents = amount.groups()
        return whole.replace(",", "") + (cents or "")
    return text
