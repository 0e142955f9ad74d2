"""One flat string for the whole document, with a map back to page offsets.

Lease sentences run across line breaks, blank lines and page breaks, and typeset text puts
stray spaces before commas ("BIRCH STREET , LLC"). Extractors read a flattened copy in
which every whitespace run is one space, a space before ``,;:)`` is dropped, and bare
page-number lines at the top or bottom of a page are skipped; every flat character
remembers its page and offset, so a match is cited in the page's own text.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass

from lease_parser.extraction.base import RawField, snippet
from lease_parser.parsing.base import Document, Page

# "12", "- 3 -", "Page 1 of 7", "PAGE 4 OF 135", "iii": page furniture, not text.
_PAGE_NUMBER_LINE = re.compile(
    r"(?i)^\s*(?:-\s*)?(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s+of\s+\d{1,4})?(?:\s*-)?\s*$"
)
_TOKEN = re.compile(r"\S+")
_NO_SPACE_BEFORE = frozenset(",;:)")
_CACHE_SIZE = 4


@dataclass(frozen=True)
class FlatText:
    """``text`` plus, per character, the 1-based page number and offset in that page."""

    text: str
    page_of: array[int]
    offset_of: array[int]
    pages: tuple[Page, ...]
    line_starts: frozenset[int] = frozenset()  # flat offsets that began a line on the page

    def starts_line(self, index: int) -> bool:
        return index in self.line_starts

    def locate(self, start: int, end: int) -> tuple[Page, int, int]:
        """The page and page-text span of flat ``[start, end)``, clipped to the first page."""
        start = min(max(start, 0), len(self.text) - 1)
        end = min(max(end, start + 1), len(self.text))
        page_number = self.page_of[start]
        last = end - 1
        while last > start and self.page_of[last] != page_number:
            last -= 1
        page = self.pages[page_number - 1]
        return page, self.offset_of[start], self.offset_of[last] + 1

    def field(
        self,
        name: str,
        value: str | None,
        confidence: float,
        start: int,
        end: int,
        notes: list[str] | None = None,
    ) -> RawField:
        """A ``RawField`` citing flat ``[start, end)`` in its page."""
        page, page_start, page_end = self.locate(start, end)
        return RawField(
            name=name,
            value=value,
            confidence=round(max(0.0, min(1.0, confidence)), 3),
            page=page.number,
            start=page_start,
            end=page_end,
            snippet=snippet(page, page_start, page_end),
            notes=list(notes or []),
        )

    def page_at(self, index: int) -> Page:
        return self.pages[self.page_of[min(max(index, 0), len(self.text) - 1)] - 1]


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
        if lines and _PAGE_NUMBER_LINE.match(lines[end][1]):
            lines.pop(end)
    return lines


def flatten(document: Document) -> FlatText:
    """Build the flat text of ``document`` (see the module docstring)."""
    chars: list[str] = []
    page_of = array("i")
    offset_of = array("i")
    line_starts: set[int] = set()
    for page in document.pages:
        for line_offset, line in _content_lines(page):
            first = True
            for token in _TOKEN.finditer(line):
                word = token.group(0)
                if chars and chars[-1] != " " and word[0] not in _NO_SPACE_BEFORE:
                    chars.append(" ")
                    page_of.append(page.number)
                    offset_of.append(line_offset + max(token.start() - 1, 0))
                if first:
                    line_starts.add(len(chars))
                    first = False
                chars.extend(word)
                page_of.extend([page.number] * len(word))
                offset_of.extend(range(line_offset + token.start(), line_offset + token.end()))
    if not chars:
        chars, page_of, offset_of = [" "], array("i", [1]), array("i", [0])
    return FlatText(
        "".join(chars), page_of, offset_of, tuple(document.pages), frozenset(line_starts)
    )


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
