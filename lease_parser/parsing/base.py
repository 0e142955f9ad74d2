"""The parsing contract: bytes in, a ``Document`` out. Pure: no Celery, no Redis.

Every parser returns pages whose ``text`` is already normalised (parsing/text.py); the
character offsets extraction cites are offsets into that normalised page text, so a
reviewer's snippet is ``page.text[start:end]`` exactly. Tables and OCR word confidences
carry offsets into the same ``page.text``.

A parsed (or OCR'd) ``Document`` travels between pipeline stages through object storage,
never through Redis: ``to_json``/``from_json`` give it a stable, compact form.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, Protocol

from lease_parser.errors import CorruptDocument

JSON_VERSION = 1


class SourceFormat(StrEnum):
    PDF = "pdf"
    DOCX = "docx"
    IMAGE = "image"


class PageSource(StrEnum):
    TEXT_LAYER = "text_layer"
    OCR = "ocr"
    DOCX = "docx"


class OcrReason(StrEnum):
    """Why a page must be OCR'd (parsing/quality.py decides)."""

    SCANNED = "scanned"  # mostly image with little or no text layer
    GARBLED_OCR_LAYER = "garbled_ocr_layer"  # an image under a text layer that reads as noise
    OUTLINED_TEXT = "outlined_text"  # no text layer, but vector drawing (text as paths)
    BROKEN_ENCODING = "broken_encoding"  # private-use, replacement or control characters
    GARBLED_WORDS = "garbled_words"  # letters that form no words (a shifted font encoding)


Span = tuple[int, int]


@dataclass
class Table:
    """A table as rows of cell strings (normalised), located in its page's text.

    ``spans[r][c]`` is the ``(start, end)`` of cell ``rows[r][c]`` in ``page.text`` (equal
    up to whitespace: a cell wrapped over two lines in the page reads with one space here),
    or ``None`` when the cell is empty or its text does not occur contiguously in the page
    text. ``start``/``end`` enclose every located cell; both are -1 when none was located.
    """

    rows: list[list[str]]
    start: int = -1
    end: int = -1
    spans: list[list[Span | None]] = field(default_factory=list)


@dataclass
class PageQuality:
    """Measurable statistics of a page; the OCR decision (quality.py) reads only these."""

    chars: int = 0  # non-whitespace characters
    words: int = 0  # alphabetic tokens of two letters or more
    # Share of characters that are not private-use, unassigned, control or U+FFFD.
    printable_ratio: float = 1.0
    # Share of words found in a small English/lease vocabulary (garbled encodings score ~0).
    dictionary_ratio: float = 1.0
    # Share of the page area covered by images (a scan inside a text PDF is ~1.0).
    image_coverage: float = 0.0
    # Vector path objects on the page (text drawn as outlines leaves many, no text layer).
    vector_objects: int = 0
    # Mean Tesseract word confidence (0-100) and the share of words under 60, OCR pages only.
    ocr_confidence: float | None = None
    ocr_low_confidence_ratio: float | None = None


@dataclass
class Page:
    number: int  # 1-based
    text: str
    source: PageSource = PageSource.TEXT_LAYER
    tables: list[Table] = field(default_factory=list)
    quality: PageQuality = field(default_factory=PageQuality)
    # Set together by the parser from quality.ocr_reason(quality): why the page needs OCR.
    needs_ocr: bool = False
    ocr_reason: OcrReason | None = None
    # OCR pages: (start, end, confidence 0-100) of every recognised word in ``text``.
    word_confidences: list[tuple[int, int, int]] = field(default_factory=list)
    # OCR pages: each of those words' box (left, top, right, bottom) in ten-thousandths of
    # the page image as read, i.e. after turning it ``ocr_rotation`` degrees clockwise
    # (OSD). The workspace draws a citation's box from these.
    word_boxes: list[tuple[int, int, int, int]] = field(default_factory=list)
    ocr_rotation: int = 0


@dataclass
class Document:
    format: SourceFormat
    pages: list[Page]
    # DOCX headers/footers are kept apart from the body so they do not pollute clauses.
    headers: list[str] = field(default_factory=list)
    footers: list[str] = field(default_factory=list)
    # What parsing could not do but did not need to fail for (a table finder error).
    warnings: list[str] = field(default_factory=list)

    @property
    def has_text_layer(self) -> bool:
        return any(p.quality.chars > 0 and not p.needs_ocr for p in self.pages)

    @property
    def pages_needing_ocr(self) -> list[int]:
        return [p.number for p in self.pages if p.needs_ocr]

    @property
    def text(self) -> str:
        return "\n\n".join(p.text for p in self.pages)

    def to_json(self) -> str:
        """Stable, compact JSON (sorted keys, no spaces, empty collections omitted)."""
        doc: dict[str, Any] = {"v": JSON_VERSION, "format": self.format.value}
        doc |= _nonempty(headers=self.headers, footers=self.footers, warnings=self.warnings)
        doc["pages"] = [_page_to_dict(p) for p in self.pages]
        return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: str | bytes) -> Document:
        """Inverse of ``to_json``; a damaged or foreign payload is ``CorruptDocument``."""
        try:
            doc = json.loads(data)
            if doc.get("v") != JSON_VERSION:
                raise ValueError(f"unknown version {doc.get('v')!r}")
            return cls(
                format=SourceFormat(doc["format"]),
                pages=[_page_from_dict(p) for p in doc["pages"]],
                headers=list(doc.get("headers", [])),
                footers=list(doc.get("footers", [])),
                warnings=list(doc.get("warnings", [])),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise CorruptDocument(f"stored document JSON is unreadable: {exc}") from exc


def _nonempty(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v}


def _page_to_dict(page: Page) -> dict[str, Any]:
    out: dict[str, Any] = {"n": page.number, "text": page.text, "source": page.source.value}
    out["quality"] = {k: v for k, v in asdict(page.quality).items() if v is not None}
    if page.needs_ocr:
        out["needs_ocr"] = True
    if page.ocr_reason is not None:
        out["ocr_reason"] = page.ocr_reason.value
    if page.tables:
        out["tables"] = [asdict(t) for t in page.tables]
    if page.word_confidences:
        # Flattened triples: a 400-word page costs ~5 KB instead of ~15 KB.
        out["words"] = [v for triple in page.word_confidences for v in triple]
    if page.word_boxes:
        out["boxes"] = [v for box in page.word_boxes for v in box]
    if page.ocr_rotation:
        out["rotation"] = page.ocr_rotation
    return out


def _page_from_dict(d: dict[str, Any]) -> Page:
    flat = [int(v) for v in d.get("words", [])]
    boxes = [int(v) for v in d.get("boxes", [])]
    known = {f.name for f in fields(PageQuality)}
    return Page(
        number=int(d["n"]),
        text=str(d["text"]),
        source=PageSource(d["source"]),
        tables=[_table_from_dict(t) for t in d.get("tables", [])],
        quality=PageQuality(**{k: v for k, v in d["quality"].items() if k in known}),
        needs_ocr=bool(d.get("needs_ocr", False)),
        ocr_reason=OcrReason(d["ocr_reason"]) if d.get("ocr_reason") else None,
        word_confidences=[(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)],
        word_boxes=[
            (boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3]) for i in range(0, len(boxes), 4)
        ],
        ocr_rotation=int(d.get("rotation", 0)),
    )


def _table_from_dict(d: dict[str, Any]) -> Table:
    spans = [[(int(s[0]), int(s[1])) if s else None for s in row] for row in d["spans"]]
    return Table(rows=d["rows"], start=int(d["start"]), end=int(d["end"]), spans=spans)


@dataclass(frozen=True)
class ParseLimits:
    """Resource bounds every parser enforces (from Settings, passed in at the edge)."""

    max_bytes: int = 50 * 1024 * 1024
    max_pages: int = 500
    # DOCX: total declared uncompressed size, one member's size, and its inflation ratio.
    max_unpacked_bytes: int = 200 * 1024 * 1024
    max_member_bytes: int = 20 * 1024 * 1024
    max_compression_ratio: int = 200
    max_image_pixels: int = 50_000_000
    # pdfplumber's table finder costs ~80-300 ms a page: run it on at most this many pages.
    max_table_pages: int = 40


class Parser(Protocol):
    """One implementation per source format (pdf.py, docx.py, image in ocr.py)."""

    def __call__(self, data: bytes, limits: ParseLimits) -> Document: ...
