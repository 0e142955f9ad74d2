"""Parsing: bytes → ``Document``. Pure; the registry below maps a format to its parser.

Two steps, so the pipeline can run them on different queues:

* ``parse_document`` reads every text layer (PDF, DOCX) and validates images; it marks the
  pages whose text layer is unusable (``Document.pages_needing_ocr``). Fast: no OCR.
* ``apply_ocr`` OCRs exactly those pages (scanned PDF pages, image frames) and returns the
  document with them replaced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from PIL import Image

from lease_parser.errors import DocumentTooLarge, EncryptedDocument, UnsupportedFormat
from lease_parser.parsing.base import (
    Document,
    OcrReason,
    Page,
    PageQuality,
    PageSource,
    ParseLimits,
    SourceFormat,
    Table,
)
from lease_parser.parsing.detect import detect_format
from lease_parser.parsing.docx import parse_docx
from lease_parser.parsing.ocr import OcrOptions, image_frames, ocr_page, parse_image
from lease_parser.parsing.pdf import open_pdf, parse_pdf, render_pages
from lease_parser.parsing.quality import needs_ocr, ocr_reason

_PARSERS: dict[SourceFormat, Callable[[bytes, ParseLimits, str | None], Document]] = {
    SourceFormat.PDF: lambda data, limits, password: parse_pdf(data, limits, password),
    SourceFormat.DOCX: lambda data, limits, _: parse_docx(data, limits),
    SourceFormat.IMAGE: lambda data, limits, _: parse_image(data, limits),
}


def parse_document(
    data: bytes,
    limits: ParseLimits,
    ocr: OcrOptions | None = None,
    password: str | None = None,
) -> Document:
    """Parse by magic bytes, never by file name. No OCR here: see ``apply_ocr``.

    ``ocr`` is accepted for the pipeline's stable call signature; OCR options take effect
    in ``apply_ocr``. Every failure is a ``LeaseParserError`` naming its reason.
    """
    del ocr
    if len(data) > limits.max_bytes:
        raise DocumentTooLarge(f"{len(data)} bytes, limit {limits.max_bytes}", size=len(data))
    return _PARSERS[detect_format(data)](data, limits, password)


def password_opens(data: bytes, password: str) -> bool:
    """Whether ``password`` opens this document: checked before a password is stored.

    A document that needs no password opens with any. Raises ``UnsupportedFormat`` for a
    password-protected DOCX, which this parser cannot decrypt at all.
    """
    try:
        source_format = detect_format(data)
    except EncryptedDocument as exc:
        raise UnsupportedFormat(
            "password-protected DOCX files cannot be decrypted here: save the lease without "
            "its password (or print it to PDF) and submit that copy"
        ) from exc
    if source_format is not SourceFormat.PDF:
        return True
    try:
        with open_pdf(data, password):
            return True
    except EncryptedDocument:
        return False


def _ocr_pages(
    document: Document, data: bytes, options: OcrOptions, password: str | None
) -> tuple[list[Page], list[str]]:
    wanted = {p.number: p for p in document.pages if p.needs_ocr}
    images: Iterator[tuple[int, Image.Image]]
    notes: list[str] = []
    if document.format is SourceFormat.PDF:
        images = render_pages(
            data, sorted(wanted), options.dpi, options.max_pixels, notes, password
        )
    elif document.format is SourceFormat.IMAGE:
        frames = image_frames(data, len(document.pages), options.max_pixels, notes)
        images = ((n, image) for n, image in enumerate(frames, start=1) if n in wanted)
    else:
        return [], [f"{document.format} pages cannot be OCR'd; pages {sorted(wanted)} kept"]
    pages = []
    for number, image in images:
        original = wanted[number]
        page = ocr_page(number, image, options, original.ocr_reason or OcrReason.SCANNED)
        # What the page is made of (a scan) still holds; the text statistics are new.
        page.quality.image_coverage = original.quality.image_coverage
        page.quality.vector_objects = original.quality.vector_objects
        pages.append(page)
    return pages, notes


def apply_ocr(
    document: Document, data: bytes, options: OcrOptions, password: str | None = None
) -> Document:
    """OCR only the pages whose text layer is unusable; keep every other page as it is."""
    if not document.pages_needing_ocr:
        return document
    read, notes = _ocr_pages(document, data, options, password)
    by_number = {p.number: p for p in read}
    pages = [by_number.get(p.number, p) for p in document.pages]
    return replace(document, pages=pages, warnings=document.warnings + notes)


__all__ = [
    "Document",
    "OcrOptions",
    "OcrReason",
    "Page",
    "PageQuality",
    "PageSource",
    "ParseLimits",
    "SourceFormat",
    "Table",
    "apply_ocr",
    "detect_format",
    "needs_ocr",
    "ocr_reason",
    "parse_document",
    "password_opens",
]
