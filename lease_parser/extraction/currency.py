"""The currency of the lease's money: ISO 4217, USD unless the lease says otherwise.

Leases rarely name their currency; a "$" is a US, Australian, Canadian or New Zealand
dollar depending on where the lease is. So the currency comes from, in order: codes or
names written with the money ("A$", "AUD", "Australian dollars", "lawful money of the
United States"), then where the lease is — its jurisdiction's tax (GST, HST, VAT), company
forms (Pty Ltd, ACN) and addresses (a state and a four-digit postcode) — and only then
the default, USD.
"""

from __future__ import annotations

import re

from lease_parser.extraction.anchored import Anchored
from lease_parser.extraction.cues import Cue
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.money import money_in
from lease_parser.extraction.words import words_of

# Every currency name below holds one of these words; the names are searched only near them.
_CURRENCY_WORD = re.compile(r"(?i)\b(?:dollar|money|currency|sterling|euro|shekel)")


def _currency_name(pattern: str) -> Anchored:
    return Anchored(re.compile(pattern, re.IGNORECASE), _CURRENCY_WORD, before=60, after=60)


_NAMED = (
    (
        "USD",
        _currency_name(
            r"\b(?:lawful\s+money\s+of\s+the\s+united\s+states|united\s+states\s+(?:dollars|"
            r"currency)|u\.\s?s\.\s+dollars|us\s+dollars)\b"
        ),
    ),
    ("AUD", _currency_name(r"\baustralian\s+dollars\b")),
    ("CAD", _currency_name(r"\bcanadian\s+dollars\b|\blawful\s+money\s+of\s+canada\b")),
    ("NZD", _currency_name(r"\bnew\s+zealand\s+dollars\b")),
    ("GBP", _currency_name(r"\bpounds?\s+sterling\b")),
    ("EUR", _currency_name(r"\beuros?\b")),
    ("ILS", _currency_name(r"\bnew\s+israeli\s+shekels?\b|\bshekels?\b")),
)
# Names in any case; abbreviations only in capitals ("on 2004" is not Ontario).
_AU_STATE = (
    r"(?:(?i:victoria|new\s+south\s+wales|queensland|western\s+australia|south\s+australia|"
    r"tasmania|australian\s+capital\s+territory|northern\s+territory)|VIC|NSW|QLD|WA|SA|TAS|ACT|NT)"
)
_CA_PROVINCE = (
    r"(?:(?i:ontario|quebec|british\s+columbia|alberta|manitoba|saskatchewan|nova\s+scotia|"
    r"new\s+brunswick)|ON|QC|BC|AB|MB|SK|NS|NB)"
)
# Each pattern is one independent kind of sign that the lease is in that country.
_PLACE = {
    "AUD": (
        r"(?i:\bgoods\s+and\s+services\s+tax\b)|\bGST\b",
        r"(?i:\bpty\.?\s+(?:ltd|limited)\b)|\b(?:ACN|ABN)\s*:?\s*\d{2,3}\s?\d{3}\s?\d{3}",
        rf"\b{_AU_STATE},?\s+\d{{4}}(?!\d)",
        r"(?i:\baustralia\b)",
    ),
    "CAD": (
        r"(?i:\bgoods\s+and\s+services\s+tax\b|\bharmonized\s+sales\s+tax\b)|\b(?:GST|HST)\b",
        rf"\b{_CA_PROVINCE},?\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b",
        r"(?i:\bcanada\b)",
    ),
    "GBP": (
        r"(?i:\bvalue\s+added\s+tax\b)|\bVAT\b",
        r"\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b",
        r"(?i:\bengland\s+and\s+wales\b|\bunited\s+kingdom\b)",
    ),
}
_US_PLACE = re.compile(
    r"\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|\b(?:Delaware|California|Texas|New\s+York)\b"
)

EXPLICIT_WEIGHT = 0.75
PLACE_WEIGHT = 0.35
DEFAULT_WEIGHT = 0.6
US_PLACE_WEIGHT = 0.3
# Signs of another country needed before "$" stops meaning US dollars.
MIN_PLACE_SIGNS = 2


def _explicit(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    lo, hi = span
    cues = [
        Cue(m.currency, m.start, m.end, "currency written with the money", EXPLICIT_WEIGHT)
        for m in money_in(flat, lo, hi)
        if m.currency
    ]
    for code, pattern in _NAMED:
        for match in pattern.finditer(flat.text, lo, hi):
            cues.append(Cue(code, match.start(), match.end(), "currency named", EXPLICIT_WEIGHT))
    return cues


# Terms one of a country's signs must contain (extraction/words.py): a sign is searched
# only in a lease that holds one (each sign pattern costs milliseconds over a long lease).
_NEEDLES: dict[str, tuple[tuple[str, ...] | None, ...]] = {
    "AUD": (
        ("goods_and_services", "gst"),
        ("pty", "acn", "abn"),
        (
            "victoria",
            "new_south_wales",
            "queensland",
            "australia",
            "tasmania",
            "territory",
            "vic",
            "nsw",
            "qld",
            "wa",
            "sa",
            "tas",
            "act",
            "nt",
        ),
        ("australia",),
    ),
    "CAD": (
        ("goods_and_services", "harmonized_sales", "gst", "hst"),
        (
            "ontario",
            "quebec",
            "british_columbia",
            "alberta",
            "manitoba",
            "saskatchewan",
            "nova_scotia",
            "new_brunswick",
            "on",
            "qc",
            "bc",
            "ab",
            "mb",
            "sk",
            "ns",
            "nb",
        ),
        ("canada",),
    ),
    "GBP": (
        ("value_added", "vat"),
        None,  # a postcode: no word to look for
        ("england_and_wales", "united_kingdom"),
    ),
}


def _place(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    lo, hi = span
    text = flat.text[lo:hi]
    words = words_of(flat, span)
    cues = []
    for code, patterns in _PLACE.items():
        signs = [
            m
            for p, needles in zip(patterns, _NEEDLES[code], strict=True)
            if needles is None or words.has_any(needles)
            if (m := re.search(p, text))
        ]
        if len(signs) >= MIN_PLACE_SIGNS:
            for index, sign in enumerate(signs):
                source = f"lease located in a {code} country ({index + 1})"
                cues.append(Cue(code, sign.start() + lo, sign.end() + lo, source, PLACE_WEIGHT))
    return cues


def currency_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for the lease's currency; a "$" with nothing else means USD (docs/fields.md)."""
    cues = _explicit(flat, span) or _place(flat, span)
    if cues:
        return cues
    lo, hi = span
    dollar = flat.text.find("$", lo, hi)
    if dollar < 0:
        return []
    cues = [Cue("USD", dollar, dollar + 1, "default for $ amounts", DEFAULT_WEIGHT)]
    us = _US_PLACE.search(flat.text, lo, hi)
    if us:
        cues.append(Cue("USD", us.start(), us.end(), "US address or state law", US_PLACE_WEIGHT))
    return cues
