"""Length of the initial term: "a term of five (5) years", "sixty-three (63) months"."""

from __future__ import annotations

import re

from lease_parser.extraction.base import RawField, field_at, iter_matches
from lease_parser.extraction.numbers import NUMBER_WORDS, words_to_int
from lease_parser.parsing.base import Document

_DURATION = (
    rf"(?:(?P<words>{NUMBER_WORDS})\s*)?"
    rf"(?:\(\s*(?P<fig>\d{{1,3}})\s*\)\s*|(?P<bare>\d{{1,3}})\s+)?(?P<unit>years?|months?)"
)
_TERM = re.compile(
    rf"(?i)\b(?:initial\s+|primary\s+|original\s+|lease\s+|sublease\s+)?term\b(?:\s+of\s+this\s+(?:sub)?lease)?"
    rf"[^.;]{{0,80}}?\b(?:for|of|be|is)\s+(?:a\s+period\s+of\s+|approximately\s+)?{_DURATION}",
)
_RENEWAL_CONTEXT = re.compile(r"(?i)\b(?:renew|extend|extension|option|additional)\w*")


def _months(match: re.Match[str]) -> tuple[int, bool | None] | None:
    words = match.group("words")
    figure = match.group("fig") or match.group("bare")
    spelled = words_to_int(words) if words else None
    number = int(figure) if figure else spelled
    if number is None or number == 0:
        return None
    agree = None if (spelled is None or figure is None) else spelled == int(figure)
    factor = 12 if match.group("unit").lower().startswith("year") else 1
    return number * factor, agree


def extract_term(document: Document) -> list[RawField]:
    candidates: list[RawField] = []
    for page, match in iter_matches(document, _TERM):
        lead = page.text[max(0, match.start() - 60) : match.start()]
        if _RENEWAL_CONTEXT.search(lead + match.group(0)):
            continue
        parsed = _months(match)
        if parsed is None:
            continue
        months, agree = parsed
        confidence = 0.62 + (0.13 if agree else 0.0) - (0.3 if agree is False else 0.0)
        notes = ["term clause"] + (["words agree with figures"] if agree else [])
        candidates.append(
            field_at("term_months", str(months), confidence, page, match, notes=notes)
        )
    if not candidates:
        return []
    first = candidates[0]
    others = {c.value for c in candidates[1:] if c.value is not None}
    if others == {first.value}:
        first.confidence = min(0.92, first.confidence + 0.1)
        first.notes.append("restated consistently")
    elif others - {first.value}:
        first.confidence = min(first.confidence, 0.55)
        first.notes.append(
            "other term lengths stated: " + ", ".join(sorted(others - {first.value}))
        )
    return [first]
