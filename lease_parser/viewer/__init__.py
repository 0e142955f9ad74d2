"""Documents as the reviewers' workspace shows them; see base.py. Pure: no web framework.

``open_view`` picks the view from the document's magic bytes (never its name), like the
parser does.
"""

from __future__ import annotations

from lease_parser.parsing.base import Document, ParseLimits, SourceFormat
from lease_parser.parsing.detect import detect_format
from lease_parser.viewer.base import (
    Box,
    Highlight,
    ImageView,
    PageSize,
    Segment,
    Span,
    TextView,
    line_boxes,
)
from lease_parser.viewer.docx import DocxView
from lease_parser.viewer.pdf import PDFIUM_LOCK, PdfView
from lease_parser.viewer.scan import ScanView


def open_view(
    data: bytes,
    ocr_document: Document | None = None,
    limits: ParseLimits | None = None,
    password: str | None = None,
) -> ImageView | TextView:
    """The view of ``data``; ``ocr_document`` is the pipeline's stored OCR'd document, if
    it OCR'd any page (its word boxes place citations on scanned pages)."""
    limits = limits or ParseLimits()
    ocr_pages = {p.number: p for p in ocr_document.pages} if ocr_document else {}
    kind = detect_format(data)
    if kind is SourceFormat.DOCX:
        return DocxView(data, limits)
    if kind is SourceFormat.IMAGE:
        return ScanView(data, ocr_pages, limits.max_image_pixels)
    return PdfView(data, ocr_pages, password, limits.max_image_pixels)


__all__ = [
    "PDFIUM_LOCK",
    "Box",
    "DocxView",
    "Highlight",
    "ImageView",
    "PageSize",
    "PdfView",
    "ScanView",
    "Segment",
    "Span",
    "TextView",
    "line_boxes",
    "open_view",
]
