"""What kind of document this is: lease, sublease, amendment, a blank form — or not a lease.

Decided on the main agreement (extraction/sections.py), not on whatever is appended to
it: a sublease with its master lease attached is a sublease; a lease followed by its
amendments is a lease; a renewal letter that "amends the Lease" is an amendment.

*Not a lease* is decided first, from language and structure (never a file name): a
document that speaks no lease language (no lease title, no demise, no landlord and tenant
under covenants) or that opens as another kind of document (an invoice, a statement of
account, a receipt, a purchase order) and binds nobody to anything ("shall"). A rent
invoice names the tenant, the premises and the rent, and still is not a lease: such a
document goes to review as ``not_a_lease`` (scoring/gate.py), where a reviewer rejects it in one
step, instead of waiting as a doubtful lease.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


_SUB = r"(?:sub-?)?"
# Statements only a lease (or its amendment) makes: its title, the demise, its term.
LEASE_PHRASES = re.compile(
    rf"""(?ix)
    \bthis\s+{_SUB}lease\b | \b{_SUB}lease\s+agreement\b | \bagreement\s+of\s+{_SUB}lease\b
    | \bunder-?lease\b | \bdeed\s+of\s+lease\b
    | \bhereby\s+{_SUB}(?:leases?|lets?|demises?)\b | \b(?:demise[sd]?|lets?)\s+(?:un)?to\b
    | \bamends?\s+the\s+{_SUB}lease\b | \bamendment\s+to\s+{_SUB}lease\b
    | \bterm\s+of\s+(?:this|the)\s+{_SUB}lease\b"""
)
ROLES = re.compile(r"(?i)\b(?:sub-?)?(?:landlord|tenant|lessor|lessee)s?\b")
COVENANTS = re.compile(r"(?i)\b(?:shall|must)\b")  # "must": English and Australian leases
# Other kinds of document, by what their first lines say. One marker alone proves
# nothing ("Landlord shall invoice Tenant"); two of the same kind in the head do.
OTHER_KINDS: dict[str, re.Pattern[str]] = {
    "invoice": re.compile(
        r"(?i)\b(?:invoice(?:\s+(?:no|number|date|#))?|bill(?:ed)?\s+to|(?:amount|balance|total)"
        r"\s+due|due\s+date|remit(?:tance)?(?:\s+to)?|sub-?total|payment\s+terms)\b"
    ),
    "statement of account": re.compile(
        r"(?i)\b(?:statement\s+of\s+account|account\s+statement|statement\s+date|opening"
        r"\s+balance|closing\s+balance|previous\s+balance)\b"
    ),
    "receipt": re.compile(
        r"(?i)\b(?:receipt(?:\s+(?:no|number|#))?|amount\s+(?:paid|received)|payment"
        r"\s+received|paid\s+in\s+full)\b"
    ),
    "purchase order": re.compile(
        r"(?i)\b(?:purchase\s+order|p\.?o\.?\s+(?:no|number|#)|ship\s+to|vendor)\b"
    ),
}
HEAD_CHARS = 1500  # where another document's header sits
MIN_MARKERS = 2  # distinct markers of one other kind in the head
MIN_COVENANTS = 5  # a lease binds its parties; an invoice binds nobody
MIN_ROLES = 2  # landlord/tenant mentions that are enough without a lease phrase


@dataclass(frozen=True)
class LeaseLanguage:
    """What in a text speaks for a lease, and what says it is another kind of document."""

    lease_phrases: int
    roles: int
    covenants: int
    other_kind: str | None

    @property
    def reads_as_lease(self) -> bool:
        if self.other_kind is not None and self.covenants < MIN_COVENANTS:
            return False
        return self.lease_phrases > 0 or self.roles >= MIN_ROLES


def _other_kind(head: str) -> str | None:
    for kind, markers in OTHER_KINDS.items():
        if len({m.group(0).lower() for m in markers.finditer(head)}) >= MIN_MARKERS:
            return kind
    return None


def lease_language(text: str) -> LeaseLanguage:
    """Count the language of leasing in ``text`` and look for another kind's header."""
    return LeaseLanguage(
        lease_phrases=len(LEASE_PHRASES.findall(text)),
        roles=len(ROLES.findall(text)),
        covenants=len(COVENANTS.findall(text)),
        other_kind=_other_kind(text[:HEAD_CHARS]),
    )


def is_blank_form(flat: FlatText, main: Agreement) -> bool:
    """Many unfilled blanks near the start, or parties left unnamed: a form, not a lease."""
    head = flat.text[main.start : main.start + _HEAD_CHARS]
    return len(PLACEHOLDER.findall(head)) >= _FORM_BLANKS or bool(_EMPTY_ROLE.search(head))


def classify_flat(flat: FlatText) -> DocumentKind:
    """The kind of the main agreement in ``flat`` (read once per document)."""
    return flat.shared("kind", lambda: _classify(flat))


def _classify(flat: FlatText) -> DocumentKind:
    if not lease_language(flat.text).reads_as_lease:
        return DocumentKind.NOT_A_LEASE
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
