"""Money in figures and words: "Fifteen Thousand and 00/100 Dollars ($15,000.00)".

When words and figures agree the amount is far more certain than either alone; when they
disagree we keep the figures (docs/fields.md) and the caller lowers the confidence. Each
mention also records what unit follows it ("per month", "per annum", "per rentable square
foot"), because "$22.75 per RSF per annum" is a rate, not a rent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from lease_parser.extraction.anchored import Anchored
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.numbers import NUMBER_WORDS, parse_figure, words_to_amount

# Currency markers written before a figure; the code they imply when explicit.
_SYMBOLS = {
    "us$": "USD",
    "u.s.$": "USD",
    "usd": "USD",
    "a$": "AUD",
    "au$": "AUD",
    "aud": "AUD",
    "c$": "CAD",
    "ca$": "CAD",
    "cad": "CAD",
    "nz$": "NZD",
    "nzd": "NZD",
    "£": "GBP",
    "gbp": "GBP",
    "€": "EUR",
    "eur": "EUR",
    "₪": "ILS",
    "nis": "ILS",
    "ils": "ILS",
    "$": "",
}
_SYMBOL = r"(?P<sym>US\$|U\.S\.\$|AU?\$|CA?\$|NZ\$|\$|£|€|₪|(?:USD|AUD|CAD|NZD|GBP|EUR|NIS|ILS)\b)"
# Cents may be split off by a typesetting space ("$149,210 .08").
_NUMBER = r"(?P<fig>\d{1,3}(?:,\d{3})+(?:\s?\.\d{1,2})?|\d+(?:\s?\.\d{1,2})?)(?![\d,]*\d)(?!\.\d)"
FIGURE = re.compile(rf"{_SYMBOL}\s{{0,2}}{_NUMBER}", re.IGNORECASE)
# Searched only near a currency sign or code, which are quick to find.
_FIGURE_NEAR_SYMBOL = Anchored(
    FIGURE,
    re.compile(r"[$£€₪]|(?i:\b(?:usd|aud|cad|nzd|gbp|eur|nis|ils)\b)"),
    before=10,
    after=40,
)
_CENTS = r"(?:\d{1,2}|no|xx|zero)\s*/\s*100"
_SPELLED = (
    rf"(?P<words>{NUMBER_WORDS}(?:\s+(?:U\.?S\.?\s+)?dollars?)?(?:\s+and\s+{_CENTS})?"
    rf"(?:\s+(?:U\.?S\.?\s+)?dollars?)?(?:\s+and\s+{NUMBER_WORDS}\s+cents?)?)"
)
# Words written just before "($figure)" ...
_WORDS_BEFORE = re.compile(rf"{_SPELLED}\s*\(\s*$", re.IGNORECASE)
# ... or in parentheses just after the figure.
_WORDS_AFTER = re.compile(rf"^\s*\(\s*{_SPELLED}\s*\)", re.IGNORECASE)
_WORDS_WINDOW = 220

_PER_SQFT = re.compile(
    r"(?i)^\s*\)?\s*(?:\*+\s*)?(?:per|/|a|each)\s*(?:(?:rentable|usable|leasable|net|gross)\s+)?"
    r"(?:square\s+f(?:oo|ee)t|sq\.?\s*f(?:oo|ee)?t\.?|s\.?f\.?\b|r\.?s\.?f\.?\b|foot\b)"
    r"|^\s*\)?\s*(?:psf|p\.s\.f\.)"
)
_PER_MONTH = re.compile(
    r"(?i)^\s*\)?\s*(?:\*+\s*)?,?\s*(?:per[\s'’‘`]+(?:calendar\s+)?month|a\s+month|each\s+month|monthly|"
    r"/\s*mo(?:nth)?\b|per\s+mo\b)"
)
_PER_YEAR = re.compile(
    r"(?i)^\s*\)?\s*(?:\*+\s*)?,?\s*(?:per[\s'’‘`]+(?:annum|year|lease\s+year|calendar\s+year)|"
    r"a\s+year|each\s+year|annually|yearly|/\s*y(?:ea)?r\b|p\.?\s*a\.?\b)"
)
_UNIT_WINDOW = 45  # (OCR may put a stray mark between "per" and its unit)


class Per(StrEnum):
    """What a stated amount is measured per, read from the words right after it."""

    MONTH = "month"
    YEAR = "year"
    SQFT = "sqft"  # per square foot per year (the usual way to state a rate)
    SQFT_MONTH = "sqft_month"  # per square foot per month
    NONE = "none"

    @property
    def per_foot(self) -> bool:
        return self in (Per.SQFT, Per.SQFT_MONTH)


@dataclass(frozen=True)
class MoneyMention:
    amount: Decimal
    start: int
    end: int
    words_agree: bool | None  # None when only figures were written
    currency: str = ""  # ISO code when the symbol names one ("A$", "AUD"), else ""
    per: Per = Per.NONE
    figure_start: int = 0  # the figure itself, without the words around it
    figure_end: int = 0


_CLOSE_PAREN = re.compile(r"\s*\)")


def _spelled_near(text: str, start: int, end: int) -> tuple[str | None, int, int]:
    """Words for the figure at [start, end): before "(", or in "( ... )" after it."""
    lead = text[max(0, start - _WORDS_WINDOW) : start]
    paren = lead.rstrip()
    if paren.endswith("("):
        match = _WORDS_BEFORE.search(paren)
        if match:
            close = _CLOSE_PAREN.match(text, end)
            new_end = close.end() if close else end
            return match.group("words"), start - len(lead) + match.start(), new_end
    after = _WORDS_AFTER.match(text[end : end + _WORDS_WINDOW])
    if after:
        return after.group("words"), start, end + after.end()
    return None, start, end


def unit_after(text: str, end: int) -> Per:
    """Per square foot, per month, per year or none, from the words following a figure."""
    tail = text[end : end + _UNIT_WINDOW]
    per_foot = _PER_SQFT.match(tail)
    if per_foot:
        monthly = _PER_MONTH.match(tail[per_foot.end() :])
        return Per.SQFT_MONTH if monthly else Per.SQFT
    per_month = _PER_MONTH.match(tail)
    if per_month:
        # "$1.25 per month per square foot"
        return Per.SQFT_MONTH if _PER_SQFT.match(tail[per_month.end() :]) else Per.MONTH
    per_year = _PER_YEAR.match(tail)
    if per_year:
        # "per annum per rentable square foot" is a rate too.
        return Per.SQFT if _PER_SQFT.match(tail[per_year.end() :]) else Per.YEAR
    return Per.NONE


def find_money(text: str, start: int = 0, end: int | None = None) -> list[MoneyMention]:
    """Every amount written with a currency marker in ``text[start:end]``, with words/figures
    agreement and unit; spans are offsets into ``text``."""
    found = []
    for match in _FIGURE_NEAR_SYMBOL.finditer(text, start, end):
        figure = parse_figure(match.group("fig"))
        if figure is None:
            continue
        words, start, end = _spelled_near(text, match.start(), match.end())
        agree = None
        if words:
            spelled = words_to_amount(words)
            agree = spelled is not None and abs(spelled - figure) < Decimal("0.01")
        found.append(
            MoneyMention(
                amount=figure,
                start=start,
                end=end,
                words_agree=agree,
                currency=_SYMBOLS.get(match.group("sym").lower(), ""),
                per=unit_after(text, end),
                figure_start=match.start(),
                figure_end=match.end(),
            )
        )
    return found


def money_in(flat: FlatText, start: int = 0, end: int | None = None) -> list[MoneyMention]:
    """``find_money`` over the flat text, read once per document: every amount whose
    figure lies wholly in ``[start, end)``."""
    return flat.mentions_in(
        "money", find_money, lambda m: (m.figure_start, m.figure_end), start, end
    )


def format_money(amount: Decimal, symbol: str = "$") -> str:
    """ "$15,000.00": the way leases write figures (used for messages and round-trip tests)."""
    return f"{symbol}{amount:,.2f}"
