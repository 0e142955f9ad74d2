"""Spell numbers the way leases do, to generate test sentences ("Twenty-Three Thousand ...")."""

from __future__ import annotations

from decimal import Decimal

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((1_000_000_000, "billion"), (1_000_000, "million"), (1000, "thousand"))


def _below_thousand(n: int) -> list[str]:
    words: list[str] = []
    if n >= 100:
        words += [_ONES[n // 100], "hundred"]
        n %= 100
    if n >= 20:
        words.append(_TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else ""))
    elif n or not words:
        words.append(_ONES[n])
    return words


def spell(n: int) -> str:
    """1234567 → "one million two hundred thirty-four thousand five hundred sixty-seven"."""
    if n == 0:
        return "zero"
    words: list[str] = []
    for scale, name in _SCALES:
        if n >= scale:
            words += [*_below_thousand(n // scale), name]
            n %= scale
    if n:
        words += _below_thousand(n)
    return " ".join(words)


def spell_dollars(amount: Decimal) -> str:
    """Decimal("15000.50") → "Fifteen Thousand and 50/100 Dollars"."""
    whole = int(amount)
    cents = int((amount - whole) * 100)
    return f"{spell(whole).title()} and {cents:02d}/100 Dollars"
