"""One flat string for the whole document, with a map back to page offsets.

Lease sentences run across line breaks, blank lines and page breaks, and typeset text puts
stray spaces before commas ("ELM ROW , LLC"). Extractors read a flattened copy in
which every whitespace run is one space, a space before ``,;:)`` is dropped, and bare
page-number lines at the top or bottom of a page are skipped; any flat offset maps back
to its page and offset, so a match is cited in the page's own text.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, TypeVar, cast

from lease_parser.extraction.base import Cited, RawField, snippet
from lease_parser.parsing.base import Document, Page

# "12", "- 3 -", "Page 1 of 7", "PAGE 4 OF 135", "iii": page furniture, not text.
_PAGE_NUMBER_LINE = re.compile(
    r"(?i)^\s*(?:-\s*)?(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s+of\s+\d{1,4})?(?:\s*-)?\s*$"
)
_TOKEN = re.compile(r"\S+")
_NO_SPACE_BEFORE = frozenset(",;:)")
_NO_OFFSET = 1 << 62  # sorts after every (flat start, page offset, length) at one start
_SPACE_BEFORE_PUNCTUATION = re.compile(r" (?=[,;:)])")
_CACHE_SIZE = 4
T = TypeVar("T")


@dataclass(frozen=True)
class FlatLine:
    """One page line's share of the flat text: from ``lead`` (its joining space, if any)."""

    lead: int
    page: int
    offset: int  # where the line starts in its page's text
    text: str


@dataclass(frozen=True)
class FlatText:
    """``text`` plus the lines it was built from, to map a flat offset back to its page.

    The map is kept per line and resolved to characters only when asked (a handful of
    times per document, for the fields cited): flattening a 60-page lease stays cheap.
    """

    text: str
    lines: tuple[FlatLine, ...]
    pages: tuple[Page, ...]
    line_starts: frozenset[int] = frozenset()  # flat offsets that began a line on the page
    # Answers several extractors share (the agreements, every date and amount), computed
    # once per document: the same regular expression over 100 KB is not run ten times.
    memo: dict[str, Any] = dataclass_field(default_factory=dict, compare=False, repr=False)

    def starts_line(self, index: int) -> bool:
        return index in self.line_starts

    def _clip(self, index: int) -> int:
        return min(max(index, 0), len(self.text) - 1)

    def _line_number(self, index: int) -> int:
        leads = self.shared("line leads", lambda: [line.lead for line in self.lines])
        return max(bisect_right(leads, self._clip(index)) - 1, 0)

    def page_start(self, index: int) -> int:
        """The flat offset where the page holding flat ``index`` begins."""
        page = self.page_number(index)
        number = self._line_number(index)
        while number > 0 and self.lines[number - 1].page == page:
            number -= 1
        return self.lines[number].lead

    def page_number(self, index: int) -> int:
        """The 1-based page flat ``index`` comes from."""
        return self.lines[self._line_number(index)].page

    def page_offset(self, index: int) -> int:
        """Where flat ``index`` sits in its page's text."""
        index = self._clip(index)
        number = self._line_number(index)
        # A DOCX paragraph is one line of thousands of words: map it once, then bisect.
        runs = self.shared(f"runs of line {number}", lambda: _runs(self.lines[number], self.text))
        run = bisect_right(runs, (index, _NO_OFFSET)) - 1
        if run < 0:
            return self.lines[number].offset
        flat_start, page_start, length = runs[run]
        return page_start + min(index - flat_start, length - 1)

    def locate(self, start: int, end: int) -> tuple[Page, int, int]:
        """The page and page-text span of flat ``[start, end)``, clipped to the first page."""
        start = self._clip(start)
        end = min(max(end, start + 1), len(self.text))
        page_number = self.page_number(start)
        last = end - 1
        if self.page_number(last) != page_number:
            # The span crosses a page break: end it just before the first line of the next.
            leads = [line.lead for line in self.lines if line.page != page_number]
            last = next(lead for lead in leads if lead > start) - 1
        page = self.pages[page_number - 1]
        return page, self.page_offset(start), self.page_offset(last) + 1

    def shared(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()``, once per document and ``key``."""
        if key not in self.memo:
            self.memo[key] = compute()
        return cast(T, self.memo[key])

    def lowered(self) -> str:
        """``text`` in lower case, offset for offset (a character whose lower case is longer,
        like "İ", is kept): patterns without IGNORECASE scan it several times faster."""
        return self.shared("lowered", lambda: _lower_keeping_offsets(self.text))

    def places(self, words: tuple[str, ...], start: int, end: int) -> list[int]:
        """Where each of ``words`` (lower case) begins a word in flat ``[start, end)``, in
        order: a literal search, far faster than a pattern that starts with alternatives."""
        lowered = self.lowered()
        found = []
        for word in words:
            at = lowered.find(word, start, end)
            while at >= 0:
                if at == 0 or not lowered[at - 1].isalnum():
                    found.append(at)
                at = lowered.find(word, at + 1, end)
        return sorted(found)

    def mentions_in(
        self,
        key: str,
        find: Callable[[str], list[T]],
        span: Callable[[T], tuple[int, int]],
        start: int = 0,
        end: int | None = None,
    ) -> list[T]:
        """``find(text)``, run once per document, narrowed to the mentions whose ``span``
        lies wholly in flat ``[start, end)`` (they are in order of their start)."""
        found = self.shared(key, lambda: find(self.text))
        starts = self.shared(f"{key} starts", lambda: [span(m)[0] for m in found])
        stop = len(self.text) if end is None else end
        candidates = found[bisect_left(starts, start) : bisect_left(starts, stop)]
        return [m for m in candidates if span(m)[1] <= stop]

    def field(
        self,
        name: str,
        value: str | None,
        confidence: float,
        start: int,
        end: int,
        notes: list[str] | None = None,
    ) -> RawField:
        """A ``RawField`` citing flat ``[start, end)``: in its first page, and in each later
        page it runs on to (a rent schedule across a page break) as further inputs."""
        first, *rest = self.cited_pages(start, end)
        return RawField(
            name=name,
            value=value,
            confidence=round(max(0.0, min(1.0, confidence)), 3),
            page=first.page,
            start=first.start,
            end=first.end,
            snippet=first.snippet,
            notes=list(notes or []),
            inputs=rest,
        )

    def cited_pages(self, start: int, end: int) -> list[Cited]:
        """Flat ``[start, end)`` cut at page breaks, one citation per page."""
        out = []
        while True:
            cited = self.cited(start, end)
            out.append(cited)
            following = [
                line.lead for line in self.lines if line.page > cited.page and line.lead < end
            ]
            if not following:
                return out
            start = following[0]

    def cited(self, start: int, end: int) -> Cited:
        """Flat ``[start, end)`` as a citation in its page."""
        page, page_start, page_end = self.locate(start, end)
        return Cited(page.number, page_start, page_end, snippet(page, page_start, page_end))

    def page_at(self, index: int) -> Page:
        return self.pages[self.page_number(index) - 1]


def _lower_keeping_offsets(text: str) -> str:
    lower = text.lower()
    if len(lower) == len(text):
        return lower
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _runs(line: FlatLine, flat: str) -> list[tuple[int, int, int]]:
    """(flat start, page offset, length) of each contiguous run of ``line``'s flat text:
    a word, and the space joining it to the word before, which maps to the character
    before the word (or to the word itself at the start of a line)."""
    runs = []
    at = line.lead
    for token in _TOKEN.finditer(line.text):
        page_start = line.offset + token.start()
        if at < len(flat) and flat[at] == " ":
            runs.append((at, max(page_start - 1, line.offset), 1))
            at += 1
        runs.append((at, page_start, token.end() - token.start()))
        at += token.end() - token.start()
    return runs


def _content_lines(page: Page) -> list[tuple[int, str]]:
    """(offset, line) pairs of a page, without page-number lines at its top and bottom."""
    lines: list[tuple[int, str]] = []
    offset = 0
    for line in page.text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    # At most one number line at each end: a date's day may sit alone on the next line.
    for end in (0, -1):
        while lines and not lines[end][1].strip():
            lines.pop(end)
    ends = [line.strip() for _, line in (lines[0], lines[-1])] if lines else []
    numbered = [_PAGE_NUMBER_LINE.match(text) is not None for text in ends]
    # A bare number at each end, one of them the page's own: the other is text (the year of
    # a rent table's row, cut from its cells by the page break), not a second page number.
    if len(lines) > 1 and all(t.isdigit() for t in ends) and str(page.number) in ends:
        numbered = [text == str(page.number) for text in ends]
    if len(lines) > 1 and numbered[1]:
        lines.pop()
    if lines and numbered[0]:
        lines.pop(0)
    return lines


def flatten(document: Document) -> FlatText:
    """Build the flat text of ``document`` (see the module docstring)."""
    parts: list[str] = []
    length = 0
    lines: list[FlatLine] = []
    line_starts: set[int] = set()
    for page in document.pages:
        for offset, line in _content_lines(page):
            words = line.split()
            if not words:
                continue
            piece = _SPACE_BEFORE_PUNCTUATION.sub("", " ".join(words))
            lines.append(FlatLine(length, page.number, offset, line))
            if parts and piece[0] not in _NO_SPACE_BEFORE:
                parts.append(" ")
                length += 1
            line_starts.add(length)
            parts.append(piece)
            length += len(piece)
    if not parts:
        return FlatText(" ", (FlatLine(0, 1, 0, ""),), tuple(document.pages))
    return FlatText("".join(parts), tuple(lines), tuple(document.pages), frozenset(line_starts))


_recent: list[tuple[Document, FlatText]] = []


def flat_text(document: Document) -> FlatText:
    """``flatten`` with a tiny identity cache: every extractor reads the same flat text."""
    for doc, flat in _recent:
        if doc is document:
            return flat
    flat = flatten(document)
    _recent.insert(0, (document, flat))
    del _recent[_CACHE_SIZE:]
    return flat
