"""Whether a predicted value equals its label, by the comparison rules of docs/fields.md."""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from difflib import SequenceMatcher
from typing import Any

from lease_parser.model import Money
from lease_parser.scoring.normalization import DATE_FIELDS, DECIMAL_FIELDS, INT_FIELDS, MONEY_FIELDS

DOCUMENT_SUFFIXES = frozenset({".pdf", ".docx", ".png", ".jpg", ".jpeg", ".tif", ".tiff"})
TOKEN_SET_THRESHOLD = 0.90
MONEY_TOLERANCE = Decimal("0.01")


# Legal-form suffixes whose presence or absence does not change who a party is.
_SUFFIXES = (
    "incorporated|inc|llc|l l c|lp|l p|llp|l l p|ltd|limited|corporation|corp|company|co|"
    "plc|pty ltd|pty|pllc|pc|na|n a"
)
_TRAILING_SUFFIX = re.compile(rf"(?:\s+(?:{_SUFFIXES}))+$")
# A leading article is as incidental as a suffix: "The Irvine Company" is "Irvine Company".
_LEADING_ARTICLE = re.compile(r"^the\s+")


# ---------------------------------------------------------------- comparison rules


def canonical_text(value: str) -> str:
    """Case-folded, punctuation dropped (joiners become spaces), whitespace collapsed."""
    text = unicodedata.normalize("NFKC", value).casefold()
    text = re.sub(r"[-/–—&]", " ", text)
    text = re.sub(r"[^\w\s]", "", text)
    return " ".join(text.split())


def _without_suffix(text: str) -> str:
    """Without a leading "the" and a trailing legal-form suffix (on canonical text)."""
    return _TRAILING_SUFFIX.sub("", _LEADING_ARTICLE.sub("", text)).strip()


def token_set_similarity(a: str, b: str) -> float:
    """Similarity (0-1) of the sorted, de-duplicated token sets: order-insensitive, and
    tolerant of a character or two of OCR noise, but not of a dropped word in a short name."""
    left = " ".join(sorted(set(a.split())))
    right = " ".join(sorted(set(b.split())))
    if not left or not right:
        return 1.0 if left == right else 0.0
    return SequenceMatcher(None, left, right).ratio()


def strings_match(predicted: str, expected: str) -> bool:
    a, b = canonical_text(predicted), canonical_text(expected)
    if a == b or _without_suffix(a) == _without_suffix(b):
        return True
    return token_set_similarity(a, b) >= TOKEN_SET_THRESHOLD


def _as_decimal(value: Any) -> Decimal | None:
    if isinstance(value, Money):
        return value.amount
    try:
        return Decimal(str(value).replace(",", "").replace("$", "").strip())
    except InvalidOperation:
        return None


def _as_iso_date(value: Any) -> str:
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value).strip()


def values_match(name: str, predicted: Any, expected: Any) -> bool:
    """Equality for one field (docs/fields.md); both sides non-null."""
    if name in MONEY_FIELDS or name in DECIMAL_FIELDS:
        a, b = _as_decimal(predicted), _as_decimal(expected)
        return a is not None and b is not None and abs(a - b) <= MONEY_TOLERANCE
    if name in DATE_FIELDS:
        return _as_iso_date(predicted) == _as_iso_date(expected)
    if name in INT_FIELDS:
        try:
            return int(str(predicted)) == int(str(expected))
        except ValueError:
            return False
    if isinstance(predicted, str) and isinstance(expected, str):
        return strings_match(predicted, expected)
    return bool(plain_value(predicted) == plain_value(expected))


def plain_value(value: Any) -> Any:
    """A JSON-comparable form of structured values (rent schedule, escalation)."""
    if hasattr(value, "model_dump"):
        return json.loads(json.dumps(value.model_dump(), default=str))
    if isinstance(value, list):
        return [plain_value(v) for v in value]
    return value
