"""Numbers in words and figures: "sixty-three (63)", "Fifteen Thousand and 00/100 Dollars".

Leases write important numbers twice, in words and then in figures. Reading both lets a
caller tell whether they agree, which is the cheapest strong evidence a value has.
"""

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
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
}
# Days of a month in words: "the twenty-first day of March".
DAY_ORDINALS = {
    **ORDINALS,
    **{f"twenty-{word}": 20 + n for word, n in ORDINALS.items() if n < 10},
    "thirtieth": 30,
    "thirty-first": 31,
}

# "twentyfour": a hyphen the text lost (a soft hyphen is dropped when text is normalised).
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_ONES = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_COMPOUNDS = {tens + one: _UNITS[tens] + _UNITS[one] for tens in _TENS for one in _ONES}
# Tens first, each optionally joined to its unit ("twentyfour"), so the alternation stays as
# short as the word list: every clause pattern in the extractors embeds it.
_TENS_WORD = "(?:" + "|".join((*_TENS, "fourty")) + ")(?:" + "|".join(_ONES) + ")?"
_WORD = "|".join(
    [_TENS_WORD, *sorted((set(_UNITS) - {*_TENS, "fourty"}) | set(_SCALES), key=len, reverse=True)]
)
# "a"/"an" count as one only before a scale word ("a hundred"); alone they are articles.
NUMBER_WORD = rf"(?:(?:an?\s+(?=hundred|thousand|million))?\b(?:{_WORD})\b)"
# A run of number words: "one hundred twenty-five thousand and forty", joined by spaces or
# a hyphen, ASCII or Unicode (U+2010, U+2011).
_JOIN = r"[\s\-\u2010\u2011]+"
NUMBER_WORDS = rf"{NUMBER_WORD}(?:(?:{_JOIN}|\s+and\s+){NUMBER_WORD})*"
ORDINAL_WORD = r"\b(?:" + "|".join(sorted(ORDINALS, key=len, reverse=True)) + r")\b"
_FRACTION = re.compile(r"(?i)(\d{1,2}|no|xx|zero)\s*/\s*100")
_CENTS_WORDS = re.compile(rf"(?i)\band\s+(?P<cents>{NUMBER_WORDS})\s+cents?\b")
_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
# "two (2)", "(2)", "2", "two"
COUNT = (
    rf"(?:(?P<cwords>{NUMBER_WORDS})\s*(?:\(\s*(?P<cfig>\d{{1,3}})\s*\))?|(?P<cbare>\d{{1,3}})\b)"
)


def words_to_int(text: str) -> int | None:
    """ "sixty-three" → 63, "one hundred twenty" → 120; None if it is not a number in words."""
    tokens = [t for t in re.split(_JOIN, text.lower().strip()) if t and t != "and"]
    if not tokens:
        return None
    total = current = 0
    seen = False
    for i, token in enumerate(tokens):
        if token in ("a", "an"):
            if seen or i + 1 >= len(tokens) or tokens[i + 1] not in _SCALES:
                return None
            current += 1
        elif token in _UNITS or token in _COMPOUNDS:
            current += _UNITS[token] if token in _UNITS else _COMPOUNDS[token]
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
    """ "Fifteen Thousand and 00/100" → 15000.00; "Five Hundred Ninety-Five and 50/100" → 595.50.

    Accepts "No/100" and the template placeholder "XX/100" as no cents, and "and fifty
    cents"; "dollars" may appear before or after the cents.
    """
    cents = Decimal(0)
    fraction = _FRACTION.search(text)
    if fraction:
        digits = fraction.group(1)
        cents = Decimal(digits) / 100 if digits.isdigit() else Decimal(0)
        text = text[: fraction.start()]
    else:
        spelled_cents = _CENTS_WORDS.search(text)
        if spelled_cents:
            value = words_to_int(spelled_cents.group("cents"))
            if value is None or value >= 100:
                return None
            cents = Decimal(value) / 100
            text = text[: spelled_cents.start()]
    text = re.sub(r"(?i)\b(?:u\.?s\.?|dollars?|no\s+cents)\b", " ", text)
    text = re.sub(r"(?i)(?:\s+and)+\s*$", "", text.strip())
    whole = words_to_int(text)
    if whole is None:
        return None
    return Decimal(whole) + cents


def parse_figure(text: str) -> Decimal | None:
    """ "15,000.00" → Decimal("15000.00"); rejects malformed groupings like "1,50"."""
    cleaned = re.sub(r"\s+", "", text)
    if not _FIGURE.fullmatch(cleaned):
        return None
    try:
        return Decimal(cleaned.replace(",", ""))
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid decimals
        return None


def parse_count(match: re.Match[str]) -> tuple[int, bool | None] | None:
    """The number a ``COUNT`` match states, and whether its words and figure agree."""
    words, figure = match.group("cwords"), match.group("cfig") or match.group("cbare")
    spelled = words_to_int(words) if words else None
    if figure is None:
        return None if spelled is None else (spelled, None)
    number = int(figure)
    if spelled is None:
        return number, None
    return number, spelled == number


def ordinal_value(word: str) -> int | None:
    """ "third" → 3, "3rd" → 3."""
    lowered = word.lower().strip()
    if lowered in ORDINALS:
        return ORDINALS[lowered]
    match = re.fullmatch(r"(\d{1,3})(?:st|nd|rd|th)", lowered)
    return int(match.group(1)) if match else None
