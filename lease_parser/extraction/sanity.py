"""Sanity of a candidate value on its own: what a value of its field does not look like.

Each check is a feature (``sanity=…``, 1 when the value fails it), so the learned model
lowers belief in such a value and prefers a rival that passes; none of them rejects a value
by itself, since a check that is usually telling is sometimes wrong ("The Landlord Group
LLC" is a real name with a role word in it).

- a party name holding a role word ("LANDLORD: ACME LLC" read as the tenant), two parties'
  names (two legal-form suffixes, "X and Y, LLC" aside), an address or a "c/o";
- an address without a house number, or cut at an abbreviation ("10 Upton Avenue, Ft"),
  or with no city and state;
- an amount of money or an area that is a round figure typical of a limit or a fee rather
  than a rent is left to the context words (extraction/candidates.py), not judged here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_ROLE_WORD = re.compile(
    r"(?i)\b(?:landlord|tenant|lessor|lessee|sub-?landlord|sub-?tenant|sub-?lessor|"
    r"sub-?lessee|resident|owner/agent|guarantor)s?\b"
)
_LEGAL_FORM = re.compile(
    r"(?i)\b(?:inc|incorporated|llc|l\.\s?l\.\s?c|l\.\s?p|llp|ltd|limited|corp|corporation|plc|"
    r"pty)\b\.?"
)
_STREET_NUMBER = re.compile(r"(?<![\w$.,])\d{1,6}\s+[A-Z][a-z]")
_CARE_OF = re.compile(r"(?i)\bc/o\b|\battn\b|\battention\b")
# A trailing one- or two-letter abbreviation without its full stop: cut mid-name.
_CUT_ABBREVIATION = re.compile(r"(?:^|[\s,])(?:[A-Z][a-z]?|Ft|St|Mt)$")
# A house number: "200 Main", "1210-40th Street", "12A High Street" (not a postcode's digit).
_HOUSE_NUMBER = re.compile(r"(?:^|[\s,])\d{1,6}[A-Za-z]?(?:-\d+\w*)?\s+[A-Za-z0-9]")
_PLACE_PARTS = re.compile(
    r"(?i),\s*[A-Z][\w .'-]+,?\s+(?:[A-Z]{2}\b|[A-Z][a-z]+)|\b\d{5}(?:-\d{4})?\b|"
    r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b"
)


def _party(value: str) -> dict[str, float]:
    return {
        "sanity=role_word": 1.0 if _ROLE_WORD.search(value) else 0.0,
        "sanity=two_parties": 1.0 if len(_LEGAL_FORM.findall(value)) >= 2 else 0.0,
        "sanity=address": 1.0 if _STREET_NUMBER.search(value) or _CARE_OF.search(value) else 0.0,
    }


def _address(value: str) -> dict[str, float]:
    return {
        "sanity=no_number": 0.0 if _HOUSE_NUMBER.search(value) else 1.0,
        "sanity=cut": 1.0 if _CUT_ABBREVIATION.search(value.strip()) else 0.0,
        "sanity=no_place": 0.0 if _PLACE_PARTS.search(value) else 1.0,
    }


_CHECKS: dict[str, Callable[[str], dict[str, float]]] = {
    "landlord": _party,
    "tenant": _party,
    "guarantor": _party,
    "premises_address": _address,
}
SANITY_FEATURES: tuple[str, ...] = (
    "sanity=role_word",
    "sanity=two_parties",
    "sanity=address",
    "sanity=no_number",
    "sanity=cut",
    "sanity=no_place",
)


def sanity_features(name: str, value: str) -> dict[str, float]:
    """The sanity checks of ``name``'s kind that ``value`` fails (1) or passes (0)."""
    check = _CHECKS.get(name)
    return check(value) if check else {}
