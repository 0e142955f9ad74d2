"""What an amendment says about the lease it amends, beyond the terms it sets.

- ``amended_lease_date``: the date of the lease it amends ("that certain Office Lease dated
  December 28, 2005", "RE: Lease Dated: October 2, 2003", "pursuant to that Lease dated
  April 5, 2004"). With the parties and the premises it links the amendment to its lease
  (lease_parser/portfolio/links.py). An earlier amendment's date ("Amendment to Lease
  dated November 10, 2004") is not it.
- ``premises_added_sqft``: area the amendment adds to the premises ("Tenant agrees to lease
  the remaining 32,635 square feet", "approximately 4,000 rentable square feet (the
  "Expansion Space")"). A new total ("shall be deemed to contain 5,862 rentable square
  feet") is ``rentable_sqft``, read by the area extractor.

Read only in an amendment: in a lease these phrases recite other agreements.
"""

from __future__ import annotations

import re

from lease_parser.extraction.area import area_mentions
from lease_parser.extraction.base import RawField
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.dates import dates_in
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.kind import classify_flat
from lease_parser.extraction.sections import primary_agreement
from lease_parser.model import DocumentKind
from lease_parser.parsing.base import Document

FIRST_REFERENCE = 0.6
RESTATED_REFERENCE = 0.45
ADDED_AREA = 0.55

_LEASE_NOUN = (
    r"(?:(?:office|industrial|retail|commercial|ground|warehouse|standard|original|"
    r"existing|building)\s+)?(?:sub)?lease(?:\s+agreement)?|agreement\s+of\s+(?:sub)?lease"
)
# "Lease dated", "Lease (the "Original Lease"), dated as of the", "Lease Agreement between
# them dated", "Lease by and between A, a ... company, and B, dated", "Lease Agreement made
# and entered into as of".
_DATED = re.compile(
    rf"(?i)\b(?:{_LEASE_NOUN})\s*(?:\([^)]{{0,80}}\)\s*)?,?\s*"
    r"(?:(?:by\s+and\s+)?between\s+(?:them|[^;]{1,160}?)\s*,?\s*)?"
    r"(?:dated|date[d]?\s*:|made\s+(?:and\s+entered\s+into\s+)?|entered\s+into\s+)\s*:?\s*"
    r"(?:(?:as\s+)?of\s+|on\s+)?(?:the\s+)?$"
)
_REFERENCE_CHARS = 240
# "Amendment to Lease dated ...": an earlier amendment, not the lease.
_AMENDMENT_BEFORE = re.compile(
    r"(?i)\b(?:amendment|addendum|modification|extension|renewal)\s*(?:no\.?\s*\d+\s*|#\s*\d+\s*)?"
    r"(?:to\s+(?:the\s+|that\s+|said\s+)?)?$"
)
_ADDED_BEFORE = re.compile(
    r"(?i)\b(?:lease|leases|add|adds|added|adding|include|includes|including|expand\w*|"
    r"increas\w*)\b[^.;]{0,60}?\b(?:the\s+)?(?:remaining|additional|an\s+additional|expansion)"
    r"\s+(?:approximately\s+)?$"
)
_ADDED_AFTER = re.compile(
    r'(?i)^[^.;]{0,80}?\(\s*(?:the\s+|each\s+)?"\s*(?:expansion|additional|must[\s-]take)\s+'
    r'(?:space|premises)\s*"'
)


def amended_lease_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for the date of the lease an amendment amends."""
    cues: list[Cue] = []
    for mention in dates_in(flat, *span):
        before = flat.text[max(span[0], mention.start - _REFERENCE_CHARS) : mention.start]
        reference = _DATED.search(before)
        if reference is None or _AMENDMENT_BEFORE.search(before[: reference.start()]):
            continue
        weight = RESTATED_REFERENCE if cues else FIRST_REFERENCE
        source = "restated reference" if cues else "reference to the lease"
        cues.append(Cue(mention.value.isoformat(), mention.start, mention.end, source, weight))
    return cues


def added_area_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for area an amendment adds to the premises."""
    cues = []
    for match in area_mentions(flat, span):
        before = flat.text[max(span[0], match.start() - 90) : match.start()]
        after = flat.text[match.end() : match.end() + 120]
        if _ADDED_BEFORE.search(before) or _ADDED_AFTER.match(after):
            value = match.group("num").replace(",", "")
            start, end = match.span("num")
            cues.append(Cue(value, start, end, "added premises", ADDED_AREA))
    return cues


def extract_amendment_references(document: Document) -> list[RawField]:
    """An amendment's reference to its lease and the area it adds (nothing for a lease)."""
    if not document.pages:
        return []
    flat = flat_text(document)
    if classify_flat(flat) is not DocumentKind.AMENDMENT:
        return []
    main = primary_agreement(flat)
    span = (main.start, main.end)
    found = [
        resolve("amended_lease_date", amended_lease_cues(flat, span), flat),
        resolve("premises_added_sqft", added_area_cues(flat, span), flat),
    ]
    return [raw for raw in found if raw is not None]
