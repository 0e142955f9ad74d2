"""The extraction contract: ``Document`` → raw fields with confidence and provenance.

A ``RawField`` carries its value as a canonical string ("15000.00", "2024-01-31", "60",
"Acme LLC") so it is small and JSON-safe on its way to normalization, which types and
validates it. Each field-family module exposes functions ``(Document) -> list[RawField]``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from lease_parser.parsing.base import Document, Page

SNIPPET_CONTEXT = 60


@dataclass
class RawField:
    name: str
    value: str | None
    confidence: float
    page: int = 0
    start: int = 0
    end: int = 0
    snippet: str = ""
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RawField:
        return cls(**data)


Extractor = Callable[[Document], list[RawField]]


def snippet(page: Page, start: int, end: int) -> str:
    """The cited text with a little context, on one line, for reviewers."""
    lo = max(0, start - SNIPPET_CONTEXT)
    hi = min(len(page.text), end + SNIPPET_CONTEXT)
    return " ".join(page.text[lo:hi].split())


def iter_matches(
    document: Document, pattern: re.Pattern[str]
) -> Iterator[tuple[Page, re.Match[str]]]:
    """Every match of ``pattern`` in every page, in document order."""
    for page in document.pages:
        for match in pattern.finditer(page.text):
            yield page, match


def field_at(
    name: str,
    value: str | None,
    confidence: float,
    page: Page,
    match: re.Match[str],
    group: int | str = 0,
    notes: list[str] | None = None,
) -> RawField:
    start, end = match.span(group)
    return RawField(
        name=name,
        value=value,
        confidence=confidence,
        page=page.number,
        start=start,
        end=end,
        snippet=snippet(page, start, end),
        notes=list(notes or []),
    )
