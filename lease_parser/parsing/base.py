"""The parsing contract: bytes in, a ``Document`` out. Pure: no Celery, no Redis.

Every parser returns pages whose ``text`` is already normalised (parsing/text.py); the
character offsets extraction cites are offsets into that normalised page text, so a
reviewer's snippet is ``page.text[start:end]`` exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol


class SourceFormat(StrEnum):
    PDF = "pdf"
    DOCX = "docx"
    IMAGE = "image"


class PageSource(StrEnum):
    TEXT_LAYER = "text_layer"
    OCR = "ocr"
    DOCX = "docx"


@dataclass
class Table:
    """A table as rows of cell strings (normalised), with the span of its text in the page."""

    rows: list[list[str]]
    start: int = 0
    end: int = 0


@dataclass
class PageQuality:
    """Measurable statistics of a page's text layer; the OCR decision reads only these."""

    chars: int = 0
    words: int = 0
    # Share of characters that are letters, digits, whitespace or common punctuation.
    printable_ratio: float = 1.0
    # Share of words found in a small English/lease vocabulary (garbled encodings score ~0).
    dictionary_ratio: float = 1.0
    # Share of the page area covered by images (a scan inside a text PDF is ~1.0).
    image_coverage: float = 0.0
    # Mean Tesseract word confidence (0-100) when the page came from OCR.
    ocr_confidence: float | None = None


@dataclass
class Page:
    number: int  # 1-based
    text: str
    source: PageSource = PageSource.TEXT_LAYER
    tables: list[Table] = field(default_factory=list)
    quality: PageQuality = field(default_factory=PageQuality)
    needs_ocr: bool = False


@dataclass
class Document:
    format: SourceFormat
    pages: list[Page]
    # DOCX headers/footers are kept apart from the body so they do not pollute clauses.
    headers: list[str] = field(default_factory=list)
    footers: list[str] = field(default_factory=list)

    @property
    def has_text_layer(self) -> bool:
        return any(p.quality.chars > 0 and not p.needs_ocr for p in self.pages)

    @property
    def pages_needing_ocr(self) -> list[int]:
        return [p.number for p in self.pages if p.needs_ocr]

    @property
    def text(self) -> str:
        return "\n\n".join(p.text for p in self.pages)


@dataclass(frozen=True)
class ParseLimits:
    """Resource bounds every parser enforces (from Settings, passed in at the edge)."""

    max_bytes: int = 50 * 1024 * 1024
    max_pages: int = 500
    max_unpacked_bytes: int = 200 * 1024 * 1024
    max_image_pixels: int = 100_000_000


class Parser(Protocol):
    """One implementation per source format (pdf.py, docx.py, image in ocr.py)."""

    def __call__(self, data: bytes, limits: ParseLimits) -> Document: ...
