"""What a candidate value looks like, as features a learned ranker weighs.

An extractor proposes every value of a field's shape in the places leases state it; each
distinct value is a *candidate*. Besides how often and how independently it is stated
(extraction/evidence.py), a candidate is described by

- the **kinds of place** that state it (``place=…``): a preamble, a summary / particulars
  table, a cover page, a definition, a clause, a rent table, a signature block, a notice
  address, a restatement, or a default the lease's jurisdiction implies. The extractors name
  each statement's ``source`` in words ("clean preamble", "deposit summary line", "rent
  schedule"); ``place_of`` reads the place from those words, so a new extractor's cues are
  placed without a table to keep;
- **where in the document** it first appears (``position``: 0 at the start, 1 at the end;
  ``early``: on the first two pages), since leases state their terms up front;
- **the words around it** (``context=…``): a fee, a total, a later period, the building, a
  notice address, a signature line in the words just before the value;
- **sanity** checks of the value itself (extraction/sanity.py).

Nothing here says which value is right: ``lease_parser.scoring.confidence`` learns what each feature
is worth from labelled leases (``lease-parser calibrate``).
"""

from __future__ import annotations

import re

# In the order they are tried: the first whose words the source contains is the place.
_PLACE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("restated", re.compile(r"restated")),
    ("signature", re.compile(r"signature")),
    ("preamble", re.compile(r"preamble")),
    ("cover", re.compile(r"\bcover\b")),
    ("table", re.compile(r"schedule|table|column|steps")),
    ("summary", re.compile(r"summary|\blabel\b|\bline\b|particulars|form field|heading")),
    ("definition", re.compile(r"defin")),
    ("default", re.compile(r"default|state law|located in")),
    ("notice", re.compile(r"^notice")),
    ("clause", re.compile(r".")),
)
PLACES: tuple[str, ...] = tuple(place for place, _ in _PLACE_WORDS)


def place_of(source: str) -> str:
    """The kind of place a statement's ``source`` names ("deposit summary line" → summary)."""
    words = source.lower()
    return next(place for place, pattern in _PLACE_WORDS if pattern.search(words))


# Words shortly before a value that say what kind of amount, date or name it is.
_CONTEXT_WORDS: dict[str, re.Pattern[str]] = {
    "fee": re.compile(
        r"\b(?:fees?|charges?|pet|late|utilit\w+|parking|application|admin\w*|cleaning|"
        r"insurance|key|storage|trash)\b"
    ),
    "total": re.compile(
        r"\b(?:total|aggregate|sum|maximum|minimum|up\s+to|not\s+to\s+exceed|limit|cap)\b"
    ),
    "later": re.compile(
        r"\b(?:thereafter|increase[sd]?|adjust\w*|renewal|extension|option\s+term|holdover|"
        r"second|third|subsequent)\b"
    ),
    "building": re.compile(r"\b(?:building|project|complex|center|centre|park|land|site)\b"),
    "notice": re.compile(r"\b(?:notices?|c/o|attention|attn|copy\s+to|address\s+for)\b"),
    "signature": re.compile(r"\b(?:by|name|title|its|witness|signed|signature|print)\s*:"),
    "role": re.compile(r"\b(?:landlord|tenant|lessor|lessee|owner|resident|agent)\b"),
}
CONTEXTS: tuple[str, ...] = tuple(_CONTEXT_WORDS)
# How far before a value its context words are looked for.
CONTEXT_CHARS = 80


def context_features(text: str, start: int) -> dict[str, float]:
    """``context=…`` for each kind of words found just before flat ``start``."""
    before = text[max(0, start - CONTEXT_CHARS) : start].lower()
    return {
        f"context={name}": 1.0 if pattern.search(before) else 0.0
        for name, pattern in _CONTEXT_WORDS.items()
    }


def place_features(sources: set[str]) -> dict[str, float]:
    """``place=…``: 1 for each kind of place among the statements' sources."""
    places = {place_of(s) for s in sources}
    return {f"place={p}": 1.0 if p in places else 0.0 for p in PLACES}


# A statement on the first pages (a cover, the preamble, a summary) is where leases put terms.
EARLY_PAGES = 2


def position_features(first: int, length: int, page: int) -> dict[str, float]:
    return {
        "position": round(first / length, 4) if length else 0.0,
        "early": 1.0 if page <= EARLY_PAGES else 0.0,
    }


CANDIDATE_FEATURES: tuple[str, ...] = (
    *(f"place={p}" for p in PLACES),
    *(f"context={c}" for c in CONTEXTS),
    "position",
    "early",
)
