"""The sentence around a figure, and what it is labelled as.

A figure in a lease is what the nearest label before it in the same sentence says it is:
in "Base Rent of $5,000 per month plus additional rent of $400" the second figure is
additional rent. A short heading right before the sentence ("(a) Deposit. Tenant has paid
the sum of $595.00") counts as part of it.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A sentence ends at ". " before a capital (not after "No." or "Inc.") or at "; ".
SENTENCE_END = re.compile(
    r"(?<!\bNo)(?<!\bInc)(?<!\bCo)(?<!\bSt)(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bSec)(?<!\bU\.S)"
    r"\.\s+(?=[A-Z(\"\d])|;\s"
)
LOOKBACK = 240
TAIL = 110
# A "sentence" this short is a heading ("4.1 Security Deposit.") that labels the next one.
HEADING_CHARS = 45


def sentence_start(text: str, position: int, lo: int = 0, heading: bool = True) -> int:
    """Where the sentence holding ``position`` starts; with ``heading``, a short heading
    before it is included (it labels the sentence, but may list other topics too)."""
    start = max(lo, position - LOOKBACK)
    ends = [m.end() for m in SENTENCE_END.finditer(text, start, position)]
    if not ends:
        return start
    if heading and len(ends) >= 2 and ends[-1] - ends[-2] <= HEADING_CHARS:
        return ends[-2]
    return ends[-1]


def sentence_tail(text: str, position: int, hi: int) -> str:
    """The rest of the sentence after ``position``, at most ``TAIL`` characters."""
    window = text[position : min(hi, position + TAIL)]
    end = SENTENCE_END.search(window)
    return window[: end.start()] if end else window


def nearest_label(lead: str, labels: re.Pattern[str]) -> re.Match[str] | None:
    """The last label in ``lead`` (the text of the sentence before a figure)."""
    found = None
    for match in labels.finditer(lead):
        found = match
    return found


# "$9,850.00 per month inclusive of the charges for real estate taxes": what comes after
# these words is another charge the figure covers or leaves out, not what the figure is.
_OTHER_CHARGES = (
    r"\b(?:inclusive|including|includes|exclusive|excluding|excludes|plus|net\s+of|"
    r"in\s+addition)\b"
)


@lru_cache(maxsize=16)
def _named_after(what: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?i)^(?:(?!{_OTHER_CHARGES})[^.;]){{0,40}}?\b(?:which\s+(?:represents|is)|representing|"
        r"as|for|toward|towards|"
        rf"being)\s+(?:[\w'’-]+\s+){{0,10}}?(?P<what>{what})"
    )


def named_after(tail: str, what: str) -> re.Match[str] | None:
    """The label a figure is given right after it: "$1,322.71, which represents ... CAM"."""
    return _named_after(what).match(tail)
