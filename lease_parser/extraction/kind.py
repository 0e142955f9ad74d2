"""What kind of document this is: lease, sublease, amendment, or a blank form.

Decided on the main agreement (extraction/sections.py), not on whatever is appended to
it: a sublease with its master lease attached is a sublease; a lease followed by its
amendments is a lease; a renewal letter that "amends the Lease" is an amendment.
"""

from __future__ import annotations

import re

from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.sections import Agreement, primary_agreement
from lease_parser.model import DocumentKind
from lease_parser.parsing.base import Document

# Fill-in blanks: "______", "{insert address}", "[Name of Tenant]", "(date)", "$ per month".
PLACEHOLDER = re.compile(
    r"_{3,}|\{[^}]{2,60}\}|\[\s*(?:insert|name|date|address|amount)[^\]]{0,60}\]"
    r"|\(\s*(?:date|name|address|number|street\s+address[^)]*|exact\s+date[^)]*|"
    r"check\s+[a-z]\s+or\s+[a-z])\s*\)|\$\s+(?:per\b|\()",
    re.IGNORECASE,
)
# A role marker with no name in front of it: 'Date: ("Landlord") and ("Tenant") agree'.
_EMPTY_ROLE = re.compile(
    r'(?:^|[:;]|\band|\bbetween)\s*\(\s*(?:the\s+)?"(?:Landlord|Tenant|Lessor|Lessee)"\s*\)'
)
_HEAD_CHARS = 8000
_FORM_BLANKS = 8
_SUBLEASE = re.compile(r"(?i)\bsub-?(?:lease|lessor|lessee|landlord|tenant)\b")
_AMENDS = re.compile(r"(?i)\bamends\b|\bamendment\b|\baddendum\b")
_PREAMBLE_CHARS = 600


def is_blank_form(flat: FlatText, main: Agreement) -> bool:
    """Many unfilled blanks near the start, or parties left unnamed: a form, not a lease."""
    head = flat.text[main.start : main.start + _HEAD_CHARS]
    return len(PLACEHOLDER.findall(head)) >= _FORM_BLANKS or bool(_EMPTY_ROLE.search(head))


def classify_flat(flat: FlatText) -> DocumentKind:
    """The kind of the main agreement in ``flat`` (read once per document)."""
    return flat.shared("kind", lambda: _classify(flat))


def _classify(flat: FlatText) -> DocumentKind:
    main = primary_agreement(flat)
    opener = flat.text[main.opener_start : main.opener_end]
    if main.is_amendment or _AMENDS.search(opener):
        return DocumentKind.AMENDMENT
    if is_blank_form(flat, main):
        return DocumentKind.FORM
    preamble = flat.text[main.opener_start : main.opener_end + _PREAMBLE_CHARS]
    if _SUBLEASE.search(main.title) or _SUBLEASE.search(preamble):
        return DocumentKind.SUBLEASE
    return DocumentKind.LEASE


def classify_document(document: Document) -> DocumentKind:
    """The kind of ``document``'s main agreement."""
    return classify_flat(flat_text(document))
