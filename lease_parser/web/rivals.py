"""Where a rival value is stated, so the item page can box it on its own page. Pure.

The pipeline says a lease also states another value for a field ("also stated as
'250000.00' (rent table)", the ``rival_value`` doubt) and keeps where it read each rival
(the field's ``rivals``). A field stored before rivals were kept has only the doubt: its
rival is found again in the pages' text the pipeline read, written the ways a lease writes
such a value (``250,000.00``, ``$250,000``; a date as ``March 3, 2025`` or ``3/3/2025``),
away from the chosen value's own citation. The boxes then come from the same geometry as
every citation.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from lease_parser.viewer import Span

_QUOTED = re.compile(r"'([^']{1,200})'")
_RIVAL = "also stated as"


@dataclass(frozen=True)
class Rival:
    value: str  # as the pipeline wrote it
    span: Span | None  # where the lease states it, when found


def rival_values(doubt: str) -> list[str]:
    """The values a ``rival_value`` doubt names, in its order."""
    _, found, rest = doubt.partition(_RIVAL)
    return _QUOTED.findall(rest) if found else []


def renderings(value: str) -> list[str]:
    """How a lease may write ``value``: the canonical string first, then its usual forms."""
    forms = [value]
    try:
        amount = Decimal(value)
        if amount.is_finite():
            forms += [f"{amount:,.2f}", f"{amount:,.0f}" if amount == amount.to_integral() else ""]
    except InvalidOperation:
        pass
    try:
        day = dt.date.fromisoformat(value)
        forms += [
            f"{day:%B} {day.day}, {day.year}",
            f"{day.day} {day:%B} {day.year}",
            f"{day.month}/{day.day}/{day.year}",
            f"{day:%m/%d/%Y}",
        ]
    except ValueError:
        pass
    return list(dict.fromkeys(f for f in forms if f))


def _bounded(text: str, start: int, end: int) -> bool:
    """Not a piece of a longer number or word (``24,062.50`` inside ``124,062.50``)."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (
        before.isalnum() or after.isalnum() or (after in ".," and text[end + 1 : end + 2].isdigit())
    )


def find_rival(texts: list[str], value: str, avoid: list[Span]) -> Span | None:
    """The first place the pages state ``value`` that is not one of the ``avoid`` spans."""
    for number, text in enumerate(texts, start=1):
        lowered = text.lower()
        for form in renderings(value):
            for match in re.finditer(re.escape(form.lower()), lowered):
                start, end = match.span()
                inside = any(s.page == number and s.start < end and start < s.end for s in avoid)
                if not inside and _bounded(text, start, end):
                    return Span(number, start, end)
    return None


def rivals_of(stored: dict[str, Any], texts: list[str], cited: list[Span]) -> list[Rival]:
    """The rival values a stored field names, each with where the lease states it."""
    kept = [r for r in stored.get("rivals") or [] if r.get("provenance")]
    if kept:
        return [Rival(r["value"], _span(r["provenance"])) for r in kept]
    doubt = (stored.get("doubts") or {}).get("rival_value") or ""
    return [Rival(value, find_rival(texts, value, cited)) for value in rival_values(doubt)]


def _span(provenance: dict[str, Any]) -> Span:
    return Span(int(provenance["page"]), int(provenance["start"]), int(provenance["end"]))
