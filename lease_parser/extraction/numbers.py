"""Numbers in words and figures: "sixty-three (63)", "Fifteen Thousand and 00/100 Dollars"."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "a": 1,
    "an": 1,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}

NUMBER_WORD = r"(?:" + "|".join(sorted(set(_UNITS) | set(_SCALES), key=len, reverse=True)) + r")"
# A run of number words: "one hundred twenty-five thousand and forty"
NUMBER_WORDS = rf"{NUMBER_WORD}(?:(?:[\s-]+|\s+and\s+){NUMBER_WORD})*"
_FRACTION = re.compile(r"(\d{1,2})\s*/\s*100")


def words_to_int(text: str) -> int | None:
    """ "sixty-three" → 63, "one hundred twenty" → 120; None if it is not a number in words."""
    tokens = [t for t in re.split(r"[\s-]+", text.lower().strip()) if t and t != "and"]
    if not tokens:
        return None
    total = current = 0
    seen = False
    for token in tokens:
        if token in _UNITS:
            if token in ("a", "an") and seen:
                return None
            current += _UNITS[token]
            seen = True
        elif token == "hundred":
            current = max(current, 1) * 100
            seen = True
        elif token in _SCALES:
            total += max(current, 1) * _SCALES[token]
            current = 0
            seen = True
        else:
            return None
    return total + current if seen else None


def words_to_amount(text: str) -> Decimal | None:
    """ "Fifteen Thousand and 00/100" → 15000.00; "Five Hundred Ninety-Five and 50/100" → 595.50."""
    cents = Decimal(0)
    match = _FRACTION.search(text)
    if match:
        cents = Decimal(match.group(1)) / 100
        text = text[: match.start()]
    text = re.sub(r"(?i)\b(dollars?|and\s*$|no\s+cents)\b", " ", text).strip()
    text = re.sub(r"(?i)\s+and\s*$", "", text)
    whole = words_to_int(text)
    if whole is None:
        return None
    return Decimal(whole) + cents


def parse_figure(text: str) -> Decimal | None:
    """ "15,000.00" → Decimal("15000.00"); rejects malformed groupings."""
    cleaned = text.replace(",", "").replace(" ", "")
    if not re.fullmatch(r"\d+(?:\.\d+)?", cleaned):
        return None
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        return None
