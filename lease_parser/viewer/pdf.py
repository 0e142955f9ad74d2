"""PDF pages as images (pypdfium2), citations boxed from the text layer or OCR word boxes.

pdfium is not thread-safe (pypdfium2's documentation): every call into it here holds
``PDFIUM_LOCK``, and the web server runs these functions in its thread pool.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence

import pypdfium2 as pdfium
from PIL import Image

from lease_parser.parsing.base import Page, PageSource
from lease_parser.parsing.layout import column_regions
from lease_parser.parsing.pdf import (
    _render_scale,
    filled_in_order,
    in_order,
    open_pdf,
    read_page_text,
)
from lease_parser.parsing.text import align_offsets, normalize_text
from lease_parser.viewer.base import Box, Highlight, PageSize, Span, line_boxes
from lease_parser.viewer.scan import jpeg, rotate_upright, word_highlight

PDFIUM_LOCK = threading.Lock()


class PdfView:
    """One PDF; ``ocr_pages`` are the pages the pipeline OCR'd (from its stored document),
    whose citations are boxed from their word boxes instead of the text layer."""

    def __init__(
        self,
        data: bytes,
        ocr_pages: dict[int, Page] | None = None,
        password: str | None = None,
        max_pixels: int = 50_000_000,
    ) -> None:
        self.data = data
        self.ocr_pages = ocr_pages or {}
        self.password = password
        self.max_pixels = max_pixels

    def pages(self) -> list[PageSize]:
        with PDFIUM_LOCK, open_pdf(self.data, self.password) as pdf:
            sizes = []
            for index in range(len(pdf)):
                width, height = pdf.get_page_size(index)
                page = self.ocr_pages.get(index + 1)
                if page is not None and page.ocr_rotation in (90, 270):
                    width, height = height, width
                sizes.append(PageSize(index + 1, float(width), float(height)))
            return sizes

    def render(self, number: int, width: int) -> bytes:
        """Page ``number`` (1-based) as a PNG about ``width`` pixels wide."""
        with PDFIUM_LOCK, open_pdf(self.data, self.password) as pdf:
            page = pdf[number - 1]
            try:
                points_w, points_h = float(page.get_width()), float(page.get_height())
                dpi = max(1, round(72 * width / max(points_w, 1.0)))
                scale = _render_scale(points_w, points_h, dpi, self.max_pixels)
                image = page.render(scale=scale).to_pil()
            finally:
                page.close()
        ocr = self.ocr_pages.get(number)
        if ocr is not None and ocr.source is PageSource.OCR:
            return jpeg(rotate_upright(image, ocr.ocr_rotation))
        return png(image)

    def page_texts(self) -> list[str]:
        """Each page's text as the pipeline read it (citations are offsets into it): the
        OCR'd text of a page it OCR'd, else the normalised text layer."""
        texts = []
        with PDFIUM_LOCK, open_pdf(self.data, self.password) as pdf:
            for index in range(len(pdf)):
                ocr = self.ocr_pages.get(index + 1)
                if ocr is not None and ocr.source is PageSource.OCR:
                    texts.append(ocr.text)
                    continue
                page = pdf[index]
                try:
                    textpage = page.get_textpage()
                    try:
                        texts.append(normalize_text(read_page_text(textpage)[0]))
                    finally:
                        textpage.close()
                finally:
                    page.close()
        return texts

    def highlights(self, spans: Sequence[Span]) -> list[Highlight]:
        found: dict[Span, Highlight] = {}
        with PDFIUM_LOCK, open_pdf(self.data, self.password) as pdf:
            for number in sorted({s.page for s in spans}):
                on_page = [s for s in spans if s.page == number]
                ocr = self.ocr_pages.get(number)
                if ocr is not None and ocr.source is PageSource.OCR:
                    found.update((s, word_highlight(ocr, s)) for s in on_page)
                elif 1 <= number <= len(pdf):
                    found.update(_text_layer_highlights(pdf, number, on_page))
        return [found.get(s, Highlight(s.page, ())) for s in spans]


def _text_layer_highlights(
    pdf: pdfium.PdfDocument, number: int, spans: list[Span]
) -> dict[Span, Highlight]:
    """Boxes from pdfium's characters: the page read as parsing read it, the cited offsets
    mapped back through normalisation to character indices."""
    page = pdf[number - 1]
    try:
        textpage = page.get_textpage()
        try:
            text = normalize_text(read_page_text(textpage)[0])  # what the pipeline cites
            chars, order = _chars_in_reading_order(textpage)
            offsets = align_offsets(chars, text)
            out = {}
            for span in spans:
                indices = (offsets[i] for i in range(span.start, min(span.end, len(offsets))))
                boxes = (
                    # Loose boxes: the font's full height, so a comma is as tall as a letter.
                    _to_fractions(page, textpage.get_charbox(order[at], loose=True))
                    for at in indices
                    if at >= 0 and order[at] >= 0 and not chars[at].isspace()
                )
                out[span] = Highlight(number, line_boxes(boxes))
            return out
        finally:
            textpage.close()
    finally:
        page.close()


def _chars_in_reading_order(textpage: pdfium.PdfTextPage) -> tuple[str, list[int]]:
    """The page's characters in the order parsing read them, with each one's pdfium index
    (-1 for the line break put between two columns' regions, or the space before a value
    filled into a blank)."""
    everything = textpage.get_text_range()  # one character per pdfium index
    rects = [textpage.get_rect(i) for i in range(textpage.count_rects())]
    regions = column_regions(rects)
    if regions is None:
        filled = filled_in_order(textpage, rects, everything)
        if filled is None:
            return everything, list(range(len(everything)))
        return in_order(everything, filled), filled
    centres = [_centre(textpage.get_charbox(i)) for i in range(len(everything))]
    chars: list[str] = []
    order: list[int] = []
    for left, bottom, right, top in regions:
        if order:
            chars.append("\n")
            order.append(-1)
        for index, (x, y) in enumerate(centres):
            if left <= x <= right and bottom <= y <= top:
                chars.append(everything[index])
                order.append(index)
    return "".join(chars), order


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    left, bottom, right, top = box
    return (left + right) / 2, (bottom + top) / 2


def _to_fractions(page: pdfium.PdfPage, box: tuple[float, float, float, float]) -> Box:
    """PDF user space (origin bottom-left, the crop box) → fractions of the rendered page
    (origin top-left), turned like the page's /Rotate."""
    x0, y0, x1, y1 = page.get_bbox()
    width, height = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
    left, bottom, right, top = box
    fl, fr = (left - x0) / width, (right - x0) / width
    ft, fb = (y1 - top) / height, (y1 - bottom) / height
    rotation = page.get_rotation() % 360
    if rotation == 90:
        return (1 - fb, fl, 1 - ft, fr)
    if rotation == 180:
        return (1 - fr, 1 - fb, 1 - fl, 1 - ft)
    if rotation == 270:
        return (ft, 1 - fr, fb, 1 - fl)
    return (fl, ft, fr, fb)


def png(image: Image.Image) -> bytes:
    """Text pages: sharp edges, few colours (PNG is small and exact)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()
