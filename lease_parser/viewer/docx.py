"""DOCX shown as its text, page by page, with tracked changes marked and citations as ranges
of that text (the pipeline's offsets)."""

from __future__ import annotations

from collections.abc import Iterable

from lease_parser.parsing.base import ParseLimits
from lease_parser.parsing.docx import DEL_CLOSE, DEL_OPEN, INS_CLOSE, INS_OPEN, parse_docx
from lease_parser.parsing.text import align_offsets
from lease_parser.viewer.base import Segment, Span

_MARKS = {INS_OPEN: "ins", DEL_OPEN: "del", INS_CLOSE: None, DEL_CLOSE: None}


class DocxView:
    def __init__(self, data: bytes, limits: ParseLimits | None = None) -> None:
        self.data = data
        self.limits = limits or ParseLimits()

    def page_texts(self) -> list[str]:
        """Each page's text as the pipeline read it (citations are offsets into it)."""
        return [page.text for page in parse_docx(self.data, self.limits).pages]

    def text_pages(self, cuts: Iterable[Span] = ()) -> list[list[Segment]]:
        """Each page as segments; a segment never crosses a cut (a citation's start or end),
        so any cited span is a run of whole segments."""
        read = parse_docx(self.data, self.limits).pages
        marked = parse_docx(self.data, self.limits, marks=True).pages
        if len(marked) != len(read):  # cannot happen by construction; show the plain text
            marked = read
        bounds: dict[int, set[int]] = {}
        for span in cuts:
            bounds.setdefault(span.page, set()).update((span.start, span.end))
        return [
            _segments(plain.text, shown.text, bounds.get(plain.number, set()))
            for plain, shown in zip(read, marked, strict=True)
        ]


def _segments(plain: str, marked: str, cuts: set[int]) -> list[Segment]:
    """Walk the marked text; every kept character carries its offset in ``plain``."""
    kept: list[int] = []  # index in ``marked`` of each accepted character
    change: str | None = None
    for i, char in enumerate(marked):
        if char in _MARKS:
            change = _MARKS[char]
        elif change != "del":
            kept.append(i)
    accepted = "".join(marked[i] for i in kept)
    offset_of = {kept[at]: p for p, at in enumerate(align_offsets(accepted, plain)) if at >= 0}
    segments: list[Segment] = []
    change = None
    for i, char in enumerate(marked):
        if char in _MARKS:
            change = _MARKS[char]
            continue
        at = offset_of.get(i, -1)
        _append(segments, char, at, change, cuts)
    return segments


def _append(
    segments: list[Segment], char: str, at: int, change: str | None, cuts: set[int]
) -> None:
    last = segments[-1] if segments else None
    joins = (
        last is not None
        and last.change == change
        and ((at < 0 and last.end < 0) or (at >= 0 and last.end == at and at not in cuts))
    )
    if joins and last is not None:
        segments[-1] = Segment(last.text + char, last.start, at + 1 if at >= 0 else -1, change)
    else:
        segments.append(Segment(char, at, at + 1 if at >= 0 else -1, change))
