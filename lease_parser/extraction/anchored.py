"""Costly patterns scanned only near a cheap word every match of them must contain.

A clause pattern ("two (2) options to extend ... for five (5) years each") is a long
case-insensitive alternation that Python's ``re`` tries at every position of a 100 KB
lease; run over the whole text, a dozen of them cost more than parsing the PDF. Every
match of such a pattern contains a word that is cheap to find ("option", "renew",
"term"), so we find those words first and run the pattern only in windows around them.

``reach`` bounds how far a match may extend before and after its anchor word: the
pattern's longest match. A window is ``[anchor.start - before, anchor.end + after]``,
clipped to the span searched, and overlapping windows are merged, so a match that the
whole-text scan finds lies wholly in one window and is found there too (the unit tests
check this equivalence on real lease text).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache


def searched_near(
    anchor: re.Pattern[str], before: int, after: int
) -> Callable[[re.Pattern[str]], Anchored]:
    """A wrapper that anchors patterns to ``anchor`` with the given reach."""
    return lambda pattern: Anchored(pattern, anchor, before, after)


@lru_cache(maxsize=16)
def anchor_hits(anchor: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """Every match of ``anchor`` in ``text``: several patterns share one anchor, and the
    extractors search one document's text many times."""
    return [hit.span() for hit in anchor.finditer(text)]


@dataclass(frozen=True)
class Anchored:
    """``pattern``, searched only within reach of a match of ``anchor``."""

    pattern: re.Pattern[str]
    anchor: re.Pattern[str]
    before: int
    after: int

    def windows(self, text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
        stop = len(text) if end is None else min(end, len(text))
        hits = anchor_hits(self.anchor, text)
        merged: list[tuple[int, int]] = []
        for hit_start, hit_end in hits[bisect_left(hits, (start, start)) :]:
            if hit_end > stop:
                break
            lo, hi = max(start, hit_start - self.before), min(stop, hit_end + self.after)
            if merged and lo <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
            else:
                merged.append((lo, hi))
        return merged

    def finditer(
        self, text: str, start: int = 0, end: int | None = None
    ) -> Iterator[re.Match[str]]:
        """Like ``pattern.finditer(text, start, end)``."""
        for lo, hi in self.windows(text, start, end):
            yield from self.pattern.finditer(text, lo, hi)

    def search(self, text: str, start: int = 0, end: int | None = None) -> re.Match[str] | None:
        """Like ``pattern.search(text, start, end)``."""
        return next(self.finditer(text, start, end), None)
