"""Money in figures and words: "Fifteen Thousand and 00/100 Dollars ($15,000.00)".

When words and figures agree the amount is far more certain than either alone; when they
disagree we keep the figures (FIELDS.md) and lower the confidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from lease_parser.extraction.numbers import NUMBER_WORDS, parse_figure, words_to_amount


def _figure(n: int) -> str:
    return rf"\$\s?(?P<fig{n}>\d{{1,3}}(?:,\d{{3}})+(?:\.\d{{2}})?|\d+(?:\.\d{{2}})?)"


def _words(n: int) -> str:
    return (
        rf"(?P<words{n}>{NUMBER_WORDS}(?:\s+dollars?)?"
        rf"(?:\s+and\s+\d{{1,2}}\s*/\s*100)?(?:\s+dollars?)?)"
    )


# Either "words ($figure)" or "$figure (words)" or a bare "$figure".
MONEY = re.compile(
    rf"(?:{_words(1)}\s*\(\s*{_figure(1)}\s*\))|(?:{_figure(2)}(?:\s*\(\s*{_words(2)}\s*\))?)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class MoneyMention:
    amount: Decimal
    start: int
    end: int
    words_agree: bool | None  # None when only figures were written


def find_money(text: str) -> list[MoneyMention]:
    """Every dollar amount in ``text`` with whether words and figures agree."""
    found = []
    for match in MONEY.finditer(text):
        figure = parse_figure(match.group("fig1") or match.group("fig2") or "")
        if figure is None:
            continue
        words = match.group("words1") or match.group("words2")
        agree = None
        if words:
            spelled = words_to_amount(words)
            agree = spelled is not None and abs(spelled - figure) < Decimal("0.01")
        found.append(MoneyMention(figure, match.start(), match.end(), agree))
    return found
