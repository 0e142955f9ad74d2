"""Build small documents from synthetic lease text for extractor tests."""

from __future__ import annotations

from lease_parser.parsing.base import Document, Page, PageQuality, PageSource, SourceFormat
from lease_parser.parsing.text import normalize_text


def document(*pages: str, ocr_confidence: float | None = None) -> Document:
    """One page per string; ``ocr_confidence`` makes every page an OCR page."""
    source = PageSource.TEXT_LAYER if ocr_confidence is None else PageSource.OCR
    return Document(
        format=SourceFormat.PDF,
        pages=[
            Page(
                number=i,
                text=normalize_text(text),
                source=source,
                quality=PageQuality(ocr_confidence=ocr_confidence),
            )
            for i, text in enumerate(pages, start=1)
        ],
    )


def by_name(fields: list) -> dict:  # type: ignore[type-arg]
    return {f.name: f for f in fields}
