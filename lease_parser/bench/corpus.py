"""A deterministic benchmark corpus: text PDFs (10–60 pages), DOCX files and scanned pages.

Every document is written in lease language from one seeded ``random.Random``: parties,
premises, amounts, dates and the page count vary, so every document has its own content
hash (the pipeline would skip a repeat as a duplicate and flatter itself). The same seed
gives byte-identical files: the PDF, DOCX and scan writers' timestamps are pinned.
The words come from lease_text.py; this module lays them out as files.
"""

from __future__ import annotations

import datetime as dt
import io
import random
import textwrap
import zipfile
from dataclasses import dataclass
from enum import StrEnum

from lease_parser.bench.lease_text import (
    LeaseFacts,
    basic_information,
    boilerplate,
    opening_paragraphs,
    pick_facts,
)
from lease_parser.errors import ConfigurationError

PINNED_TIME = dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
SCAN_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
# Text-PDF page layout (letter, millimetres): Helvetica 10 pt, about 95 characters a line.
TOP, BOTTOM, LINE_MM, LINE_CHARS = 25.0, 255.0, 5.0, 95


class DocKind(StrEnum):
    TEXT_PDF = "text_pdf"
    DOCX = "docx"
    SCAN = "scan"


@dataclass(frozen=True)
class CorpusDoc:
    name: str
    kind: DocKind
    data: bytes
    pages: int
    facts: LeaseFacts


def text_pdf(rng: random.Random, f: LeaseFacts, pages: int) -> tuple[bytes, int]:
    """A born-digital lease of ``pages`` pages; returns the bytes and the page count.

    Lines are wrapped here and placed with ``FPDF.text``: fpdf2's own flowing ``write``
    costs ~80 ms a page, which would make corpus generation dominate the benchmark.
    """
    from fpdf import FPDF

    pdf = FPDF(format="letter")
    pdf.set_creation_date(PINNED_TIME)
    pdf.set_auto_page_break(False)
    blocks = [("B", "OFFICE LEASE")]
    blocks += [("", f"{label} {value}") for label, value in basic_information(f)]
    for i, (title, body) in enumerate(opening_paragraphs(f), 1):
        blocks += [("B", f"{i}. {title}."), ("", body)]
    number = len(blocks)
    y = TOP
    pdf.add_page()
    while True:
        for style, text in blocks:
            pdf.set_font("Helvetica", style, 10)
            for line in textwrap.wrap(text, LINE_CHARS):
                if y > BOTTOM:
                    if pdf.page_no() == pages:
                        return bytes(pdf.output()), pages
                    pdf.add_page()
                    y = TOP
                pdf.text(22, y, line)
                y += LINE_MM
            y += LINE_MM / 2
        number += 1
        title, body = boilerplate(rng, f, number)
        blocks = [("B", title), ("", body)]


def docx_lease(rng: random.Random, f: LeaseFacts, pages: int) -> tuple[bytes, int]:
    """A Word lease with an explicit page break every few articles."""
    from docx import Document as DocxDocument

    doc = DocxDocument()
    doc.add_heading("LEASE AGREEMENT", level=1)
    for label, value in basic_information(f):
        doc.add_paragraph(f"{label} {value}")
    paragraphs = [f"{i}. {t}. {body}" for i, (t, body) in enumerate(opening_paragraphs(f), 1)]
    number = len(paragraphs)
    for page in range(pages):
        if page:
            doc.add_page_break()
        for text in paragraphs:
            doc.add_paragraph(text)
        paragraphs = []
        for _ in range(6):
            number += 1
            title, body = boilerplate(rng, f, number)
            paragraphs.append(f"{title} {body}")
    buf = io.BytesIO()
    doc.save(buf)
    return _pin_zip_times(buf.getvalue()), pages


def _pin_zip_times(data: bytes) -> bytes:
    """Rewrite a zip with fixed member timestamps (zipfile stamps the current time)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=(2024, 1, 2, 3, 4, 4))
            info.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(info, src.read(item.filename))
    return out.getvalue()


def scanned_pdf(rng: random.Random, f: LeaseFacts, pages: int) -> tuple[bytes, int]:
    """Photocopied pages at 300 DPI (slightly rotated, speckled, blurred): no text layer."""
    from PIL import Image, ImageDraw, ImageFilter, ImageFont

    font = ImageFont.truetype(SCAN_FONT, 44)
    texts = [[t for _, t in opening_paragraphs(f)]]
    texts += [[boilerplate(rng, f, 6 + i)[1] for i in range(4)] for _ in range(pages - 1)]
    images = []
    for paragraphs in texts:
        page = Image.new("L", (2550, 3300), 255)
        draw = ImageDraw.Draw(page)
        y = 260
        for paragraph in paragraphs:
            for line in textwrap.wrap(paragraph, 80):
                draw.text((220, y), line, fill=0, font=font)
                y += 66
            y += 40
        page = page.rotate(rng.uniform(-1.0, 1.0), fillcolor=255)
        pixels = page.load()
        assert pixels is not None
        for _ in range(20000):
            pixels[rng.randrange(2550), rng.randrange(3300)] = rng.choice((0, 90, 180))
        images.append(page.filter(ImageFilter.GaussianBlur(0.6)))
    buf = io.BytesIO()
    images[0].save(
        buf,
        format="PDF",
        resolution=300,
        save_all=True,
        append_images=images[1:],
        creationDate=PINNED_TIME.timetuple(),
        modDate=PINNED_TIME.timetuple(),
    )
    return buf.getvalue(), pages


def plan_kinds(docs: int, scans: int, docx_share: float = 0.2) -> list[DocKind]:
    """Submission order: scans first (so a small run does not end on one long OCR job
    while the other core idles), then text PDFs with DOCX files evenly among them."""
    scans = min(scans, docs)
    rest = docs - scans
    n_docx = round(rest * docx_share)
    at = {round(i * rest / n_docx) for i in range(n_docx)} if n_docx else set()
    return [DocKind.SCAN] * scans + [
        DocKind.DOCX if j in at else DocKind.TEXT_PDF for j in range(rest)
    ]


_WRITERS = {DocKind.TEXT_PDF: text_pdf, DocKind.DOCX: docx_lease, DocKind.SCAN: scanned_pdf}
_PAGES = {DocKind.TEXT_PDF: (10, 60), DocKind.DOCX: (3, 12), DocKind.SCAN: (1, 2)}
_EXT = {DocKind.TEXT_PDF: "pdf", DocKind.DOCX: "docx", DocKind.SCAN: "scan.pdf"}


PageRanges = dict[DocKind, tuple[int, int]]


def generate_corpus(
    docs: int, scans: int, seed: int = 0, prefix: str = "bench", pages: PageRanges | None = None
) -> list[CorpusDoc]:
    """``docs`` documents (``scans`` of them scanned), the same bytes for the same seed.

    ``pages`` overrides the page-count range of a kind (the soak wants small documents).
    """
    try:
        import fpdf  # noqa: F401
    except ImportError as exc:
        raise ConfigurationError(
            "the benchmark corpus needs fpdf2: pip install 'lease-parser[bench]'"
        ) from exc
    ranges = {**_PAGES, **(pages or {})}
    out = []
    for i, kind in enumerate(plan_kinds(docs, scans)):
        rng = random.Random(f"{seed}:{i}")
        facts = pick_facts(rng)
        low, high = ranges[kind]
        data, count = _WRITERS[kind](rng, facts, rng.randint(low, high))
        out.append(CorpusDoc(f"{prefix}-{i:04d}.{_EXT[kind]}", kind, data, count, facts))
    return out
