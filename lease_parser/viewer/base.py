"""What the reviewers' workspace shows of a document, and where a citation is on it. Pure.

A citation (``Provenance``: page, start, end) is an offset range in the *normalised* page
text the pipeline read. To draw it where it is, each view maps it back to the page:

- PDF text pages: pdfium character indices (``align_offsets`` undoes normalisation) and
  their character boxes;
- OCR'd pages (scans, image files): the boxes Tesseract gave each word;
- DOCX: the text itself, split into segments so the cited span can be marked, with the
  tracked changes (insertions, deletions) shown.

Boxes are fractions of the page as rendered (left, top, right, bottom, origin top-left),
so the browser draws them over an image of any size.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

Box = tuple[float, float, float, float]  # left, top, right, bottom; fractions of the page


@dataclass(frozen=True)
class Span:
    """A cited range of one page's normalised text (1-based page)."""

    page: int
    start: int
    end: int


@dataclass(frozen=True)
class Highlight:
    """Where a span is drawn: its page and the boxes around its lines (empty when the
    page has no geometry for it, e.g. a scan OCR'd before word boxes were kept)."""

    page: int
    boxes: tuple[Box, ...]

    def to_json(self) -> dict[str, object]:
        return {"page": self.page, "boxes": [[round(v, 5) for v in box] for box in self.boxes]}


@dataclass(frozen=True)
class PageSize:
    number: int
    width: float
    height: float


@dataclass(frozen=True)
class Segment:
    """A run of a text page: ``start``/``end`` in the page's normalised text (both -1 for
    deleted text, which the pipeline never read), and its tracked change, if any."""

    text: str
    start: int
    end: int
    change: str | None = None  # "ins" | "del"


@runtime_checkable
class ImageView(Protocol):
    """A document shown as page images (PDF, scans)."""

    def pages(self) -> list[PageSize]: ...
    def render(self, number: int, width: int) -> bytes: ...
    def highlights(self, spans: Sequence[Span]) -> list[Highlight]: ...
    def page_texts(self) -> list[str]: ...


@runtime_checkable
class TextView(Protocol):
    """A document shown as its text, page by page (DOCX)."""

    def text_pages(self, cuts: Iterable[Span] = ()) -> list[list[Segment]]: ...
    def page_texts(self) -> list[str]: ...


def line_boxes(boxes: Iterable[Box]) -> tuple[Box, ...]:
    """Character or word boxes (in reading order) merged into one box per line."""
    lines: list[list[float]] = []
    for left, top, right, bottom in boxes:
        if right <= left or bottom <= top:
            continue  # generated characters (line breaks) have no area
        if lines and _same_line(lines[-1], top, bottom, left):
            line = lines[-1]
            line[0], line[1] = min(line[0], left), min(line[1], top)
            line[2], line[3] = max(line[2], right), max(line[3], bottom)
        else:
            lines.append([left, top, right, bottom])
    return tuple((a, b, c, d) for a, b, c, d in lines)


def _same_line(line: list[float], top: float, bottom: float, left: float) -> bool:
    overlap = min(line[3], bottom) - max(line[1], top)
    height = max(min(line[3] - line[1], bottom - top), 1e-9)
    # Vertically overlapping by half a line, and not far to the right of it (a cell of
    # the next column of a table starts a new box).
    return overlap > 0.5 * height and left - line[2] < 4 * height and left >= line[0] - height
