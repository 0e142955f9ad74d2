"""Real documents that make the pipeline slow or hostile, built on the fly (no fixtures to ship).

- ``multi_page_scan``: the sample scan repeated; every page needs Tesseract (seconds a
  page), so a test can catch the OCR task in the middle.
- ``text_bomb_pdf``: a ~360 KB one-page PDF with 30 000 lines of 2-point type (67 million
  characters). pdfium spends seconds (5-10 s here) inside one C call, ``FPDF_LoadPage``,
  parsing it; Python cannot run the soft-time-limit handler until that call returns, so
  only the hard limit stops it. A real pathological input, not a test hook (and
  ``FPDFText_LoadPage`` on it would take minutes more).
"""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from fpdf import FPDF

from tests.integration.conftest import SAMPLES


def multi_page_scan(pages: int) -> bytes:
    src = pdfium.PdfDocument((SAMPLES / "elm_street_lease.scan.pdf").read_bytes())
    out = pdfium.PdfDocument.new()
    out.import_pages(src, [0] * pages)
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


def text_bomb_pdf(lines: int = 30_000) -> bytes:
    pdf = FPDF(unit="pt", format=(14400, 14400))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=2)
    line = "The Tenant shall pay base rent of $4,200.00 per month. " * 40
    for i in range(lines):
        pdf.text(2, 2 + (i * 2.2) % 14390, line)
    return bytes(pdf.output())
