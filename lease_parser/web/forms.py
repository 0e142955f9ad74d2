"""A field's edit form → the raw value the review queue validates (the CLI's ``field=value``).

Simple fields are one text input. The rent schedule is edited as rows (start, end,
monthly, annual, per square foot) and the escalation as a kind and a rate: never as raw
JSON. Both become the JSON the queue checks with the pipeline's own model, so a bad row
is refused there, with the reason shown next to the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from lease_parser.web.item_view import STEP_COLUMNS


def correction_value(name: str, form: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """The raw value for ``name`` ("" means not stated) and what was entered, to show again
    if it is refused."""
    if name == "rent_schedule":
        steps = _steps(form)
        raw_steps = [{c: _cell(s.get(c)) for c in STEP_COLUMNS} for s in steps]
        return (json.dumps(raw_steps) if raw_steps else ""), {"steps": _entered_steps(form)}
    if name == "escalation":
        kind, rate = form.get("kind", "").strip(), form.get("rate", "").strip()
        entered = {"kind": kind, "rate": rate}
        return (json.dumps({"kind": kind, "rate": rate or None}) if kind else ""), entered
    value = form.get("value", "").strip()
    return value, {"value": value}


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


def _cell(text: str | None) -> Any:
    """A month number stays a number (``"13"`` → 13); dates and amounts stay strings for
    the model to check; an empty cell is null."""
    if not text:
        return None
    return int(text) if text.isdigit() else text
