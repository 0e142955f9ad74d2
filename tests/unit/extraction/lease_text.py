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


# The first lines of a US apartment-lease form as read once its blanks are filled in
# (parsing/blanks.py): each value after the words before its blank, each caption after it.
APARTMENT_FORM = (
    "1. PARTIES. This Lease Contract (sometimes referred to as the\n"
    '"lease") is between you, the resident(s) (list all people signing the\n'
    "Lease Contract): Dana Whitfield\n"
    "and us, the owner: Larkspur Commons Apartments\n"
    "(name of apartment community or title holder). You've agreed to rent\n"
    "Apartment No. 12 , at 480 Meadow Lane\n"
    "(street address)\n"
    "in Fairview (city), Indiana, 46012\n"
    '(zip code) (the "apartment" or the "premises")\n'
    "for use as a private residence only.\n"
    "3. LEASE TERM. The initial term of the Lease Contract begins on\n"
    "the 1st day of July , 2023 , and ends at 11:59 p.m.\n"
    "the 30th day of June 2024 , .\n"
)
