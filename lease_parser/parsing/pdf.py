"""PDF text via pypdfium2 (about 1 ms a page, against ~84 ms for pdfplumber's extract_text).

Per page, from pdfium alone: the text (reordered column by column when the page is set in
newspaper columns, parsing/layout.py; with each value in its blank when a form was filled
in after it was written, parsing/blanks.py), the text-layer quality and the OCR decision
(parsing/quality.py), and the vector/image statistics that say whether the page could hold
a ruled table. Only those pages, and pages naming a rent schedule, pay for table finding
(parsing/tables.py).

pdfium errors are translated here, once, into the error taxonomy: a password-protected
file is ``EncryptedDocument`` (review, ``needs_credential``), anything else pdfium cannot
open or read is ``CorruptDocument``.
"""

from __future__ import annotations

import ctypes
import io
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from PIL import Image

from lease_parser.errors import CorruptDocument, EmptyDocument, EncryptedDocument, TooManyPages
from lease_parser.parsing.base import Document, Page, PageSource, ParseLimits, SourceFormat, Table
from lease_parser.parsing.blanks import filled_blanks
from lease_parser.parsing.layout import Rect, column_regions
from lease_parser.parsing.quality import measure_text, ocr_reason
from lease_parser.parsing.tables import (
    TABLE_KEYWORDS,
    PageGraphics,
    aligned_blocks,
    aligned_tables,
    is_ruled,
    ruled_tables,
    touching_boxes,
)
from lease_parser.parsing.text import normalize_text

# A page with more objects than this is a drawing (a site plan, a survey): statistics
# from the first ones are enough, and the loop stays bounded on a hostile file.
MAX_OBJECTS_MEASURED = 20_000
MAX_FORM_DEPTH = 2  # scanners sometimes wrap the page image in a form XObject
MAX_BOXES = 200  # cell-sized rectangles kept per page for the (quadratic) adjacency count


def _why_unopenable(data: bytes, password: str | None, exc: pdfium.PdfiumError) -> Exception:
    """Name the failure pdfium could not open. Its error code alone is not trusted:
    FPDF_GetLastError is process-global and not reset, so a corrupt file opened after an
    encrypted one reports "password" (seen in tests); an encrypted file has an /Encrypt."""
    if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD and b"/Encrypt" in data:
        what = "the password given is wrong" if password else "it needs a password"
        return EncryptedDocument(f"the PDF is encrypted: {what}")
    # pdfium also refuses a well-formed PDF whose page tree is empty: ask pdfminer.
    try:
        document = PDFDocument(PDFParser(io.BytesIO(data)), password=password or "")
        empty = next(PDFPage.create_pages(document), None) is None
    except Exception:  # pdfminer raises many unrelated types; it is only a second opinion
        empty = False
    if empty:
        return EmptyDocument("the PDF has no pages")
    return CorruptDocument(f"the PDF cannot be opened: {exc}")


@contextmanager
def open_pdf(data: bytes, password: str | None = None) -> Iterator[pdfium.PdfDocument]:
    """Open a PDF, mapping pdfium's failures to the taxonomy; always closes it."""
    try:
        pdf = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError as exc:
        raise _why_unopenable(data, password, exc) from exc
    try:
        yield pdf
    finally:
        pdf.close()


# ------------------------------------------------------------------ graphics


@dataclass
class _Tally:
    image_area: float = 0.0
    paths: int = 0
    horizontal: int = 0
    vertical: int = 0
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    seen: int = 0


def _bounds(obj: ctypes.c_void_p) -> tuple[float, float, float, float]:
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
    return left.value, bottom.value, right.value, top.value


def _tally_path(tally: _Tally, obj: ctypes.c_void_p) -> None:
    left, bottom, right, top = _bounds(obj)
    width, height = right - left, top - bottom
    tally.paths += 1
    if height <= 3 and width >= 15:
        tally.horizontal += 1
    elif width <= 3 and height >= 8:
        tally.vertical += 1
    elif width >= 20 and height >= 8 and len(tally.boxes) < MAX_BOXES:
        tally.boxes.append((left, bottom, right, top))  # a checkbox (~8x8) is too small


def _tally(
    tally: _Tally, count: int, get: Callable[[Any, int], Any], parent: Any, depth: int
) -> None:
    """Walk page (or form XObject) objects with raw pdfium calls: ~0.5 µs an object."""
    for i in range(count):
        if tally.seen >= MAX_OBJECTS_MEASURED:
            return
        tally.seen += 1
        obj = get(parent, i)
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            left, bottom, right, top = _bounds(obj)
            tally.image_area += max(0.0, right - left) * max(0.0, top - bottom)
        elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
            _tally_path(tally, obj)
        elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < MAX_FORM_DEPTH:
            inner = pdfium_c.FPDFFormObj_CountObjects(obj)
            _tally(tally, inner, pdfium_c.FPDFFormObj_GetObject, obj, depth + 1)


def _graphics(page: pdfium.PdfPage) -> PageGraphics:
    width, height = (float(v) for v in page.get_size())
    tally = _Tally()
    count = pdfium_c.FPDFPage_CountObjects(page.raw)
    _tally(tally, count, pdfium_c.FPDFPage_GetObject, page.raw, 0)
    return PageGraphics(
        image_coverage=min(tally.image_area / max(width * height, 1.0), 1.0),
        vector_objects=tally.paths,
        horizontal_rules=tally.horizontal,
        vertical_rules=tally.vertical,
        cell_boxes=touching_boxes(tally.boxes),
    )


# ------------------------------------------------------------------ pages


@dataclass
class _PageRead:
    page: Page
    graphics: PageGraphics
    aligned: list[Table] = field(default_factory=list)


def read_page_text(textpage: pdfium.PdfTextPage) -> tuple[str, bool, list[Rect]]:
    """The text in reading order, whether it was read column by column, and its text runs
    (raw: ``normalize_text`` makes it the page text). The workspace reads it the same way
    to find a citation's characters on the page."""
    rects: list[Rect] = [textpage.get_rect(i) for i in range(textpage.count_rects())]
    regions = column_regions(rects)
    if regions is None:
        everything = textpage.get_text_range()
        order = filled_in_order(textpage, rects, everything)
        return (everything if order is None else in_order(everything, order)), False, rects
    return "\n".join(textpage.get_text_bounded(*r) for r in regions), True, rects


def in_order(text: str, order: list[int]) -> str:
    """``text``'s characters in ``order`` (indices; -1 is a space put in)."""
    return "".join(text[i] if i >= 0 else " " for i in order)


def _inside(x: float, y: float, r: Rect) -> bool:
    return r[0] - 0.5 <= x <= r[2] + 0.5 and r[1] - 0.5 <= y <= r[3] + 0.5


def _chars_of_runs(textpage: pdfium.PdfTextPage, rects: list[Rect], count: int) -> list[list[int]]:
    """Each run's character indices: pdfium cuts runs from the characters in order, so each
    character belongs to the run its box lies in, or (a space or a line break pdfium put
    in, with no box) to the run before it."""
    runs: list[list[int]] = [[] for _ in rects]
    at = 0
    for index in range(count):
        left, bottom, right, top = textpage.get_charbox(index)
        if right > left or top > bottom:
            x, y = (left + right) / 2, (bottom + top) / 2
            ahead = range(at, min(at + 3, len(rects)))
            at = next((k for k in ahead if _inside(x, y, rects[k])), at)
        runs[at].append(index)
    return runs


def filled_in_order(textpage: pdfium.PdfTextPage, rects: list[Rect], text: str) -> list[int] | None:
    """The page's character indices in reading order when its blanks were filled in after
    it was written (parsing/blanks.py), each value put after the words before its blank;
    -1 is a space put between them. ``None``: pdfium's order (``text``) is right."""
    fills = filled_blanks(rects)
    if fills is None or len(text) != textpage.count_chars():
        return None  # (one index per character is what the workspace's boxes rely on)
    chars = _chars_of_runs(textpage, rects, len(text))
    following: dict[int, list[int]] = {}
    for run, anchor in sorted(fills.items(), key=lambda item: rects[item[0]][0]):
        following.setdefault(anchor, []).append(run)
    order: list[int] = []
    # Depth first, without recursion (a hostile page may chain thousands of runs): a run's
    # words up to its line break, then each run filled in after it, then the line break.
    stack: list[tuple[int, bool] | list[int]] = [
        (run, False) for run in reversed(range(len(rects))) if run not in fills
    ]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            order.extend(item)
            continue
        run, filled = item
        indices = chars[run]
        end = len(indices)
        while end and text[indices[end - 1]].isspace():
            end -= 1  # what fills the blank goes before the line break that ends the run
        order.extend(indices[:end])
        if not filled:
            stack.append(indices[end:])
        for fill in reversed(following.get(run, ())):
            stack.append((fill, True))
            stack.append([-1])
    return order


def _read_page(pdf: pdfium.PdfDocument, index: int) -> _PageRead:
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            raw, columnar, rects = read_page_text(textpage)
            text = normalize_text(raw)
            aligned: list[Table] = []
            blocks = [] if columnar else aligned_blocks(rects)
            if blocks and TABLE_KEYWORDS.search(text):
                aligned = aligned_tables(blocks, lambda r: textpage.get_text_bounded(*r), text)
        finally:
            textpage.close()
        graphics = _graphics(page)
    finally:
        page.close()
    quality = measure_text(text)
    quality.image_coverage = graphics.image_coverage
    quality.vector_objects = graphics.vector_objects
    reason = ocr_reason(quality)
    read = Page(
        number=index + 1,
        text=text,
        source=PageSource.TEXT_LAYER,
        quality=quality,
        needs_ocr=reason is not None,
        ocr_reason=reason,
    )
    return _PageRead(read, graphics, aligned)


def _add_tables(
    reads: list[_PageRead], data: bytes, limits: ParseLimits, password: str | None
) -> list[str]:
    """Ruled tables where lines could form one; aligned tables where a schedule is named."""
    ruled = [r.page for r in reads if is_ruled(r.graphics) and not r.page.needs_ocr]
    warnings = []
    if len(ruled) > limits.max_table_pages:
        skipped = [p.number for p in ruled[limits.max_table_pages :]]
        warnings.append(f"table finder skipped pages {skipped} (limit {limits.max_table_pages})")
        ruled = ruled[: limits.max_table_pages]
    if ruled:
        found, failed = ruled_tables(data, {p.number: p.text for p in ruled}, password)
        warnings += failed
        for page in ruled:
            page.tables.extend(found.get(page.number, []))
    for read in reads:
        known = list(read.page.tables)
        read.page.tables.extend(t for t in read.aligned if not any(_overlap(t, k) for k in known))
    return warnings


def _overlap(a: Table, b: Table) -> bool:
    return a.start < b.end and b.start < a.end


def parse_pdf(data: bytes, limits: ParseLimits, password: str | None = None) -> Document:
    """Text of every page in reading order, its tables, quality and OCR decision."""
    with open_pdf(data, password) as pdf:
        count = len(pdf)
        if count == 0:
            raise EmptyDocument("the PDF has no pages")
        if count > limits.max_pages:
            raise TooManyPages(f"{count} pages, limit {limits.max_pages}", pages=count)
        try:
            reads = [_read_page(pdf, i) for i in range(count)]
        except pdfium.PdfiumError as exc:
            raise CorruptDocument(f"a page of the PDF cannot be read: {exc}") from exc
    warnings = _add_tables(reads, data, limits, password)
    return Document(format=SourceFormat.PDF, pages=[r.page for r in reads], warnings=warnings)


def _render_scale(width: float, height: float, dpi: int, max_pixels: int) -> float:
    """``dpi`` as a pdfium scale, lowered until the bitmap (rounded up) fits ``max_pixels``."""
    scale = dpi / 72
    while scale > 0.01 and math.ceil(width * scale) * math.ceil(height * scale) > max_pixels:
        scale = min(scale * 0.99, (max_pixels / max(width * height, 1.0)) ** 0.5)
    return scale


def render_pages(
    data: bytes,
    numbers: list[int],
    dpi: int,
    max_pixels: int,
    notes: list[str],
    password: str | None = None,
) -> Iterator[tuple[int, Image.Image]]:
    """Render the given 1-based pages in grayscale, one at a time (memory stays one page).

    A page so large that ``dpi`` would exceed ``max_pixels`` (a 200-inch page is legal PDF)
    is rendered at the highest resolution that fits, and ``notes`` says so.
    """
    with open_pdf(data, password) as pdf:
        for number in numbers:
            try:
                page = pdf[number - 1]
                try:
                    width, height = (float(v) for v in page.get_size())
                    scale = _render_scale(width, height, dpi, max_pixels)
                    if scale < dpi / 72:
                        notes.append(
                            f"page {number}: rendered at {scale * 72:.0f} DPI, not {dpi}: "
                            f"{width:.0f}x{height:.0f} pt would exceed {max_pixels} pixels"
                        )
                    image = page.render(scale=scale, grayscale=True).to_pil()
                finally:
                    page.close()
            except pdfium.PdfiumError as exc:
                raise CorruptDocument(f"page {number} cannot be rendered: {exc}") from exc
            yield number, image
