"""Landlord and tenant from the preamble and from labelled summary lines.

Preamble: "... by and between ACME LLC, a Delaware limited liability company ("Landlord"),
and BETA INC. ("Tenant")". We find each quoted role marker and read the name that precedes
it, back to "between"/"and" or the previous marker, cutting the entity description
(", a Delaware corporation"). Summary: "Landlord: ACME LLC". Two cues that agree raise the
confidence; either alone stays below the gate.
"""

from __future__ import annotations

import re

from lease_parser.extraction.base import RawField, field_at
from lease_parser.parsing.base import Document, Page

LANDLORD_ROLES = ("landlord", "lessor", "sublandlord", "sublessor", "overlandlord")
TENANT_ROLES = ("tenant", "lessee", "subtenant", "sublessee")
_ROLE = r"(?:Sub-?landlord|Sub-?lessor|Landlord|Lessor|Sub-?tenant|Sub-?lessee|Tenant|Lessee)"
_MARKER = re.compile(
    rf"""\(\s*(?:hereinafter\s+|herein\s+)?(?:(?:called|referred\s+to\s+as|known\s+as)\s+)?
    (?:the\s+)?(?:"|')(?P<role>{_ROLE})(?:"|')\s*\)""",
    re.IGNORECASE | re.VERBOSE,
)
_LEAD = re.compile(r"(?is).*\b(?:by\s+and\s+)?between\b\s*|^\s*,?\s*and\s+|^[\s,;]+")
_DESCRIPTION = re.compile(
    r"(?i),?\s+(?:a|an)\s+(?:[A-Z][a-z]+\s+)*(?:corporation|company|partnership|limited|"
    r"trust|association|individual|general|public|municipal|body|state|delaware|california|"
    r"texas|new|nevada|washington|florida|[a-z]+\s+(?:corporation|company|partnership)).*$"
)
_LABEL = re.compile(
    rf"(?im)^\s*(?:\d+(?:\.\d+)*\.?\s*)?(?P<role>{_ROLE})(?:'s)?(?:\s+name)?\s*:\s*"
    r"(?P<name>[A-Z0-9][^\n]{2,120})$"
)
_BLANK = re.compile(r"_{3,}|\{[^}]*\}|\[[^\]]*\]")
PREAMBLE_PAGES = 3


def _role_kind(role: str) -> str:
    return "landlord" if role.lower().replace("-", "") in LANDLORD_ROLES else "tenant"


def clean_name(raw: str) -> str | None:
    """Trim description, quotes and punctuation; None for blanks and placeholders."""
    name = " ".join(raw.split())
    name = _DESCRIPTION.sub("", name)
    name = name.strip(" ,;:\"'(")
    name = re.sub(r"(?i)^(?:the\s+)?(?:undersigned\s+)?", "", name).strip()
    if not name or _BLANK.search(name) or len(name) < 2 or len(name) > 120:
        return None
    if not re.search(r"[A-Za-z]{2}", name):
        return None
    return name


def _preamble_names(page: Page) -> list[RawField]:
    found = []
    boundary = 0
    for match in _MARKER.finditer(page.text):
        segment = page.text[boundary : match.start()]
        boundary = match.end()
        lead = _LEAD.match(segment)
        offset = lead.end() if lead else 0
        name = clean_name(segment[offset:])
        if name is None or len(segment) - offset > 400:
            continue
        kind = _role_kind(match.group("role"))
        start = page.text.find(name, boundary - len(segment) - (match.end() - match.start()))
        raw = field_at(kind, name, 0.72, page, match, notes=["preamble"])
        if start >= 0:
            raw.start, raw.end = start, start + len(name)
        found.append(raw)
    return found


def _labelled_names(page: Page) -> list[RawField]:
    found = []
    for match in _LABEL.finditer(page.text):
        name = clean_name(match.group("name"))
        if name is None:
            continue
        kind = _role_kind(match.group("role"))
        found.append(field_at(kind, name, 0.6, page, match, "name", notes=["summary label"]))
    return found


def _same_party(a: str, b: str) -> bool:
    def norm(s: str) -> str:
        return re.sub(r"[^a-z0-9]", "", s.lower())

    return norm(a) == norm(b) or norm(a) in norm(b) or norm(b) in norm(a)


def _best(candidates: list[RawField]) -> RawField | None:
    if not candidates:
        return None
    first = candidates[0]
    agreeing = [
        c for c in candidates[1:] if c.value and first.value and _same_party(c.value, first.value)
    ]
    conflicting = [c for c in candidates[1:] if c not in agreeing]
    if any("summary label" in c.notes for c in agreeing) and "preamble" in first.notes:
        first.confidence = 0.93
        first.notes.append("summary agrees with preamble")
    elif agreeing:
        first.confidence = min(0.85, first.confidence + 0.1)
        first.notes.append(f"{len(agreeing)} further mention(s) agree")
    if conflicting and not agreeing:
        first.confidence = min(first.confidence, 0.5)
        first.notes.append("conflicting names: " + "; ".join(str(c.value) for c in conflicting[:3]))
    return first


def extract_parties(document: Document) -> list[RawField]:
    preamble: list[RawField] = []
    labelled: list[RawField] = []
    for page in document.pages[:PREAMBLE_PAGES]:
        preamble.extend(_preamble_names(page))
        labelled.extend(_labelled_names(page))
    out = []
    for kind in ("landlord", "tenant"):
        ordered = [c for c in preamble if c.name == kind] + [c for c in labelled if c.name == kind]
        best = _best(ordered)
        if best is not None:
            out.append(best)
    return out
