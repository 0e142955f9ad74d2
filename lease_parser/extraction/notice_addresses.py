"""Where each party takes notices: the street address the notices clause gives after the
party ("if to Landlord: Harbor Point LLC, 77 Dock Street, Suite 9, Portland, Maine 04101";
"Tenant's Address for Notices: 5 Hill Road, Boston, Massachusetts 02110").

A party's notice address is the first street address after a mention of the party in a
notices clause (the word "notice" close before it), and before the other party's; it reads
as the lease writes it, from the street to the postcode. Not labelled yet, so it gates
nothing (model.py), and it has no doubts.
"""

from __future__ import annotations

import json
import re

from lease_parser.extraction.addresses import STREET, TAIL, prefix_start
from lease_parser.extraction.base import RawField
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.evidence import without_doubts
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.sections import primary_span
from lease_parser.parsing.base import Document

_LANDLORD = r"(?:sub)?landlord|(?:sub)?lessor|owner"
_TENANT = r"(?:sub)?tenant|(?:sub)?lessee|resident"
# "if to Landlord", "to Tenant at", "Landlord's address for notices", "Notices to Tenant:",
# "Address of Landlord for notices".
_PARTY = re.compile(
    rf"(?i)\b(?:if\s+to|to|address\s+of|copy\s+to)\s+(?:the\s+)?(?:(?P<l1>{_LANDLORD})|(?P<t1>{_TENANT}))\b"
    rf"|\b(?:(?P<l2>{_LANDLORD})|(?P<t2>{_TENANT}))['’]s\s+(?:address|notice)"
)
_NOTICE = re.compile(r"(?i)\bnotices?\b")
NOTICE_BEFORE = 300  # a notices clause names notices this close before the party
ADDRESS_AFTER = 250  # the party's address follows its mention this closely
WEIGHT = 0.5


def _address(flat: FlatText, start: int, stop: int) -> tuple[str, int, int] | None:
    """The first street address in ``flat.text[start:stop]``, from its unit or building
    before the street to the postcode after it."""
    street = STREET.search(flat.text, start, stop)
    if street is None:
        return None
    begin = max(start, prefix_start(flat.text, street.start()))
    tail = TAIL.match(flat.text, street.end())
    end = tail.end() if tail and tail.end() > street.end() else street.end()
    line = " ".join(flat.text[begin:end].split()).strip(" ,;")
    return line, begin, end


def notice_addresses(flat: FlatText, span: tuple[int, int]) -> dict[str, tuple[str, int, int]]:
    """Each party's notice address the clause states: (line, flat start, flat end)."""
    lo, hi = span
    text = flat.text
    mentions = [
        (m, "landlord" if (m.group("l1") or m.group("l2")) else "tenant")
        for m in _PARTY.finditer(text, lo, hi)
        if _NOTICE.search(text, max(lo, m.start() - NOTICE_BEFORE), m.end() + 40)
    ]
    found: dict[str, tuple[str, int, int]] = {}
    for index, (mention, role) in enumerate(mentions):
        if role in found:
            continue
        following = mentions[index + 1][0].start() if index + 1 < len(mentions) else hi
        stop = min(hi, mention.end() + ADDRESS_AFTER, following)
        address = _address(flat, mention.end(), stop)
        if address is not None:
            found[role] = address
    return found


def extract_notice_addresses(document: Document) -> list[RawField]:
    """The parties' notice addresses in the main agreement, cited where each is stated
    (the first as the value's citation, the other as an input: they may be pages apart)."""
    if not document.pages:
        return []
    flat = flat_text(document)
    found = notice_addresses(flat, primary_span(document))
    if not found:
        return []
    value = {role: found[role][0] if role in found else None for role in ("landlord", "tenant")}
    first, *others = sorted(found.values(), key=lambda a: a[1])
    cue = Cue(json.dumps(value), first[1], first[2], "notices clause", WEIGHT)
    raw = without_doubts(resolve("notice_addresses", [cue], flat))
    if raw is None:
        return []
    raw.inputs += [flat.cited(start, end) for _, start, end in others]
    return [raw]
