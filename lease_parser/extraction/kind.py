"""What kind of document this is: lease, sublease, amendment, or a blank form."""

from __future__ import annotations

import re

from lease_parser.model import DocumentKind
from lease_parser.parsing.base import Document

_TITLE_WINDOW = 600
_AMENDMENT = re.compile(
    r"(?i)\b(?:(?:first|second|third|fourth|fifth|\d+(?:st|nd|rd|th))\s+)?"
    r"(?:amendment|modification|extension\s+agreement|renewal\s+agreement)\s+(?:no\.\s*\d+\s+)?to\b"
)
_SUBLEASE = re.compile(r"(?i)\b(?:sub-?lease|sub-?lessor|sub-?landlord)\b")
_BLANKS = re.compile(r"_{4,}|\{[^}]{3,}\}")


def classify_document(document: Document) -> DocumentKind:
    """Decide from the title area of the first page and the share of blanks to fill."""
    head = document.pages[0].text[:_TITLE_WINDOW] if document.pages else ""
    if _AMENDMENT.search(head):
        return DocumentKind.AMENDMENT
    if _SUBLEASE.search(head):
        return DocumentKind.SUBLEASE
    first_pages = " ".join(p.text for p in document.pages[:3])
    if len(_BLANKS.findall(first_pages)) >= 15:
        return DocumentKind.FORM
    return DocumentKind.LEASE
