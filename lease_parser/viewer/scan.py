"""Scans: image files (PNG, JPEG, TIFF frames) shown as their pages, citations boxed from
the words Tesseract read (``Page.word_boxes``, kept by the OCR stage)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from lease_parser.parsing.base import Page
from lease_parser.parsing.ocr import BOX_SCALE, image_frames
from lease_parser.viewer.base import Highlight, PageSize, Span, line_boxes


class ScanView:
    """An image file; ``ocr_pages`` come from the pipeline's stored OCR'd document."""

    def __init__(
        self, data: bytes, ocr_pages: dict[int, Page] | None = None, max_pixels: int = 50_000_000
    ) -> None:
        self.data = data
        self.ocr_pages = ocr_pages or {}
        self.max_pixels = max_pixels

    def _frames(self) -> list[Image.Image]:
        return list(image_frames(self.data, 10_000, self.max_pixels))

    def pages(self) -> list[PageSize]:
        sizes = []
        for number, frame in enumerate(self._frames(), start=1):
            width, height = frame.size
            page = self.ocr_pages.get(number)
            if page is not None and page.ocr_rotation in (90, 270):
                width, height = height, width
            sizes.append(PageSize(number, float(width), float(height)))
        return sizes

    def render(self, number: int, width: int) -> bytes:
        frame = self._frames()[number - 1]
        page = self.ocr_pages.get(number)
        frame = rotate_upright(frame, page.ocr_rotation if page else 0)
        if frame.width > width:
            frame = frame.resize((width, round(frame.height * width / frame.width)))
        return jpeg(frame)

    def page_texts(self) -> list[str]:
        """Each page's OCR'd text (citations are offsets into it); "" for a page not read."""
        count = len(self._frames())
        return [self.ocr_pages[n].text if n in self.ocr_pages else "" for n in range(1, count + 1)]

    def highlights(self, spans: Sequence[Span]) -> list[Highlight]:
        return [
            word_highlight(self.ocr_pages[s.page], s)
            if s.page in self.ocr_pages
            else Highlight(s.page, ())
            for s in spans
        ]


def rotate_upright(image: Image.Image, rotation: int) -> Image.Image:
    """Turn a page the way OCR turned it before reading (its word boxes are on that image)."""
    return image.rotate(-rotation, expand=True) if rotation else image


def word_highlight(page: Page, span: Span) -> Highlight:
    """The boxes of the OCR'd words that overlap the cited span, one per line."""
    boxes = (
        tuple(v / BOX_SCALE for v in box)
        for (start, end, _conf), box in zip(page.word_confidences, page.word_boxes, strict=False)
        if start < span.end and end > span.start
    )
    return Highlight(span.page, line_boxes(boxes))  # type: ignore[arg-type]


def jpeg(image: Image.Image) -> bytes:
    """Scanned pages: photographic noise, which PNG stores at ~5x the size."""
    buf = io.BytesIO()
    image.convert("L" if image.mode in ("L", "LA", "1") else "RGB").save(
        buf, format="JPEG", quality=82
    )
    return buf.getvalue()
