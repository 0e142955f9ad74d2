"""Parsing: bytes → ``Document``. Pure; the registry below maps a format to its parser."""

from __future__ import annotations

from dataclasses import replace

from lease_parser.errors import DocumentTooLarge
from lease_parser.parsing.base import (
    Document,
    Page,
    PageQuality,
    PageSource,
    ParseLimits,
    SourceFormat,
    Table,
)
from lease_parser.parsing.detect import detect_format
from lease_parser.parsing.docx import parse_docx
from lease_parser.parsing.ocr import OcrOptions, ocr_pdf_pages, parse_image
from lease_parser.parsing.pdf import parse_pdf


def parse_document(
    data: bytes,
    limits: ParseLimits,
    ocr: OcrOptions | None = None,
    password: str | None = None,
) -> Document:
    """Parse by magic bytes. Images are OCR'd here (they have no text layer to read)."""
    if len(data) > limits.max_bytes:
        raise DocumentTooLarge(f"{len(data)} bytes, limit {limits.max_bytes}", size=len(data))
    fmt = detect_format(data)
    if fmt is SourceFormat.PDF:
        return parse_pdf(data, limits, password=password)
    if fmt is SourceFormat.DOCX:
        return parse_docx(data, limits)
    return parse_image(data, limits, ocr or OcrOptions())


def apply_ocr(
    document: Document, data: bytes, options: OcrOptions, password: str | None = None
) -> Document:
    """OCR only the pages whose text layer is unusable; keep every other page as it is."""
    wanted = document.pages_needing_ocr
    if not wanted or document.format is not SourceFormat.PDF:
        return document
    ocr_by_number = {p.number: p for p in ocr_pdf_pages(data, wanted, options, password)}
    pages = [ocr_by_number.get(p.number, p) for p in document.pages]
    return replace(document, pages=pages)


__all__ = [
    "Document",
    "OcrOptions",
    "Page",
    "PageQuality",
    "PageSource",
    "ParseLimits",
    "SourceFormat",
    "Table",
    "apply_ocr",
    "detect_format",
    "parse_document",
]
