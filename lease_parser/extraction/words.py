"""How often each word, and each run of two or three words, occurs in a span of a lease.

Several readers ask "does the agreement use these words, and how often?" (an unread field's
vocabulary, a country's signs). A regular expression a question over a long lease's text
costs milliseconds each; one tally of the span's words, computed once per document
(``words_of``), answers them all by lookup. Terms: a word, words joined by "_"
("square_feet"), or a word ending in "*" for every word with that beginning ("commence*").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

from lease_parser.extraction.flat import FlatText

_TOKEN = re.compile(r"[a-z0-9]+|[$£€]")


@dataclass(frozen=True)
class WordTally:
    words: Counter[str]
    runs: Counter[tuple[str, ...]]  # two and three words in a row
    sorted_words: list[str]

    @classmethod
    def of(cls, text: str) -> WordTally:
        tokens = _TOKEN.findall(text.lower())
        runs: Counter[tuple[str, ...]] = Counter(pairwise(tokens))
        runs.update(zip(tokens, tokens[1:], tokens[2:], strict=False))
        words = Counter(tokens)
        return cls(words, runs, sorted(words))

    def count(self, term: str) -> int:
        """How often ``term`` occurs."""
        parts = tuple(term.split("_"))
        if len(parts) > 1:
            return self.runs[parts]
        if not term.endswith("*"):
            return self.words[term]
        stem = term[:-1]
        total = 0
        for word in self.sorted_words[bisect_left(self.sorted_words, stem) :]:
            if not word.startswith(stem):
                break
            total += self.words[word]
        return total

    def has_any(self, terms: tuple[str, ...]) -> bool:
        return any(self.count(term) for term in terms)


def words_of(flat: FlatText, span: tuple[int, int]) -> WordTally:
    """The tally of flat ``[start, end)``, computed once per document and span."""
    return flat.shared(f"words of {span}", lambda: WordTally.of(flat.text[span[0] : span[1]]))
