"""Amendments filed after their lease in the same file, each read as a document of its own.

A lease is often published followed by its amendments ("Amendment to Lease", "Amendment to
Lease #2", ...). The lease's own terms are read from the main agreement only
(sections.primary_span); each amendment after it is read again on its own, from a view of
the document holding only that amendment's text (sections.agreement_view: pages and
offsets unchanged, so every value is cited in the real pages). What they change is applied
to the lease in order (lease_parser/portfolio/terms.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lease_parser.extraction.base import RawField
from lease_parser.extraction.flat import flat_text
from lease_parser.extraction.kind import classify_flat
from lease_parser.extraction.sections import agreement_view, agreements, primary_agreement
from lease_parser.model import DocumentKind
from lease_parser.parsing.base import Document

# Each appended amendment adds 3–10 KB to the extraction, which goes to normalization by
# reference once it outgrows a message (pipeline/tasks.py), so every amendment is read; this
# bounds the work a compilation of hundreds can cost (a lease with appended amendments always
# goes to review, which says how many follow).
MAX_APPENDED = 40


@dataclass
class AppendedAmendment:
    """One amendment after the main agreement: its title and what was read from it."""

    title: str
    fields: dict[str, RawField] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "fields": {k: v.to_dict() for k, v in self.fields.items()}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AppendedAmendment:
        fields = {k: RawField.from_dict(v) for k, v in data["fields"].items()}
        return cls(str(data["title"]), fields)


def appended_amendments(
    document: Document, extract: Callable[[Document], dict[str, RawField]]
) -> list[AppendedAmendment]:
    """Each amendment after the main agreement, read by ``extract`` from its own view."""
    if not document.pages:
        return []
    flat = flat_text(document)
    main = primary_agreement(flat)
    out = []
    for agreement in agreements(flat):
        if agreement.start < main.end or agreement.ancillary or not agreement.is_amendment:
            continue
        view = agreement_view(document, agreement)
        if classify_flat(flat_text(view)) is not DocumentKind.AMENDMENT:
            continue
        out.append(AppendedAmendment(agreement.title, extract(view)))
        if len(out) == MAX_APPENDED:
            break
    return out
