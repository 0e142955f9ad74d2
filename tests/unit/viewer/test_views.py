"""The workspace's views of real documents: every citation the pipeline makes is boxed on the
very characters it was read from (PDF text layers, OCR'd scans, a sideways scan, newspaper
columns), and a DOCX shows its tracked changes with citations as ranges of its text."""

from __future__ import annotations

import io
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytesseract
import pytest
from PIL import Image

from lease_parser.abstract import extract_stage, normalize_stage, ocr_stage, parse_stage
from lease_parser.model import result_json
from lease_parser.parsing import Document
from lease_parser.settings import Settings
from lease_parser.viewer import DocxView, ImageView, PdfView, ScanView, Span, open_view

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "samples"
FIXTURES = ROOT / "tests" / "fixtures" / "parsing"


@cache
def pipeline_read(path: Path) -> tuple[Document, dict[str, Span]]:
    """The document as the pipeline read it (OCR included) and each field's citation."""
    data = path.read_bytes()
    settings = Settings()
    document = parse_stage(data, settings)
    if document.pages_needing_ocr:
        document = ocr_stage(document, data, settings)
    fields = result_json(normalize_stage(extract_stage(document), 0.8))["fields"]
    spans = {
        name: Span(f["provenance"]["page"], f["provenance"]["start"], f["provenance"]["end"])
        for name, f in fields.items()
        if f["provenance"]
    }
    assert spans, f"{path.name}: no citations to check"
    return document, spans


def _squash(text: str) -> str:
    return "".join(text.split()).replace("-", "")


@pytest.mark.parametrize(
    "path",
    [
        SAMPLES / "harbor_point_office_lease.pdf",
        FIXTURES / "two_columns.pdf",
        FIXTURES / "tables.pdf",
    ],
    ids=["summary and clauses", "newspaper columns", "ruled tables"],
)
def test_pdf_citations_are_boxed_on_the_characters_they_cite(path: Path) -> None:
    document, spans = pipeline_read(path)
    data = path.read_bytes()
    view = PdfView(data)
    pdf = pdfium.PdfDocument(data)
    for (name, span), highlight in zip(
        spans.items(), view.highlights(list(spans.values())), strict=True
    ):
        cited = document.pages[span.page - 1].text[span.start : span.end]
        assert highlight.page == span.page
        assert highlight.boxes, name
        under = "".join(_text_under(pdf[span.page - 1], box) for box in highlight.boxes)
        assert _squash(under) == _squash(cited), name


def test_values_filled_into_a_form_are_boxed_where_they_were_typed() -> None:
    """The page read with each value in its blank (parsing/layout.py) still maps each
    character back to pdfium's, so a value cited there is boxed on the page."""
    path = FIXTURES / "filled_form.pdf"
    data = path.read_bytes()
    text = parse_stage(data, Settings()).pages[0].text
    spans = [
        Span(1, at, at + len(value))
        for value in ("Kimberly Barnes", "755 Dublin Drive", "Date of Lease Contract: April")
        for at in [text.index(value)]
    ]
    page = pdfium.PdfDocument(data)[0]
    for span, highlight in zip(spans, PdfView(data).highlights(spans), strict=True):
        under = "".join(_text_under(page, box) for box in highlight.boxes)
        assert _squash(under) == _squash(text[span.start : span.end])


def _text_under(page: pdfium.PdfPage, box: tuple[float, float, float, float]) -> str:
    """pdfium's own text inside a box (fractions of the page, origin top-left)."""
    x0, y0, x1, y1 = page.get_bbox()
    left, top, right, bottom = box
    width, height = x1 - x0, y1 - y0
    inset = 0.3  # points: a loose box touches its neighbours' edges
    return str(
        page.get_textpage().get_text_bounded(
            x0 + left * width + inset,
            y1 - bottom * height + inset,
            x0 + right * width - inset,
            y1 - top * height - inset,
        )
    )


@pytest.mark.parametrize(
    "path",
    [
        SAMPLES / "elm_street_lease.scan.pdf",
        FIXTURES / "rotated_scan.pdf",
        FIXTURES / "lease_page.png",
    ],
    ids=["scanned PDF", "sideways scan (OSD)", "PNG"],
)
def test_scan_citations_are_boxed_where_tesseract_reads_them(path: Path) -> None:
    """Crop the rendered page at each box and OCR the crop: it reads the cited words."""
    document, spans = pipeline_read(path)
    view = open_view(path.read_bytes(), document)
    assert isinstance(view, PdfView | ScanView)
    picked = dict(list(spans.items())[:3])
    page_image = Image.open(io.BytesIO(view.render(1, 1600)))
    for (name, span), highlight in zip(
        picked.items(), view.highlights(list(picked.values())), strict=True
    ):
        cited = document.pages[span.page - 1].text[span.start : span.end]
        assert highlight.boxes, name
        read = " ".join(_ocr_crop(page_image, box) for box in highlight.boxes)
        # The crop is read alone (a letter or two may differ from the whole page's read).
        similarity = SequenceMatcher(None, _squash(cited).lower(), _squash(read).lower()).ratio()
        assert similarity > 0.85, (name, cited, read)


def _ocr_crop(image: Image.Image, box: tuple[float, float, float, float]) -> str:
    left, top, right, bottom = box
    pad = 6
    crop = image.crop(
        (
            max(0, int(left * image.width) - pad),
            max(0, int(top * image.height) - pad),
            min(image.width, int(right * image.width) + pad),
            min(image.height, int(bottom * image.height) + pad),
        )
    )
    return str(pytesseract.image_to_string(crop, config="--psm 7"))


def test_pages_render_as_images_of_their_shape() -> None:
    view = open_view((SAMPLES / "harbor_point_office_lease.pdf").read_bytes())
    assert isinstance(view, PdfView)
    sizes = view.pages()
    assert [p.number for p in sizes] == [1, 2]
    image = Image.open(io.BytesIO(view.render(2, 900)))
    assert image.format == "PNG"
    assert image.width == pytest.approx(900, abs=2)
    assert image.height / image.width == pytest.approx(sizes[1].height / sizes[1].width, rel=0.01)


def test_a_docx_shows_its_tracked_changes_and_citations_as_text() -> None:
    path = SAMPLES / "riverside_sublease_tracked_changes.docx"
    document, spans = pipeline_read(path)
    view = open_view(path.read_bytes())
    assert isinstance(view, DocxView)
    pages = view.text_pages(spans.values())
    assert len(pages) == len(document.pages)
    segments = [s for page in pages for s in page]
    deleted = "".join(s.text for s in segments if s.change == "del")
    inserted = "".join(s.text for s in segments if s.change == "ins")
    assert deleted == "$9,750.00"  # the rent before the tracked change
    assert inserted == "$10,400.00"
    for number, page in enumerate(pages, start=1):
        # Without the deleted text, the page is exactly what the pipeline read.
        accepted = "".join(s.text for s in page if s.change != "del")
        assert accepted == document.pages[number - 1].text
    rent = spans["base_rent_monthly"]
    cited = [s for s in pages[rent.page - 1] if rent.start <= s.start and s.end <= rent.end]
    assert (
        "".join(s.text for s in cited) == document.pages[rent.page - 1].text[rent.start : rent.end]
    )
    assert any(s.change == "ins" for s in cited)  # the cited rent is the inserted one


def test_views_are_chosen_by_content_not_name() -> None:
    assert isinstance(open_view((FIXTURES / "lease_page.png").read_bytes()), ScanView)
    assert isinstance(open_view((FIXTURES / "tracked_changes.docx").read_bytes()), DocxView)
    view: ImageView = PdfView(b"")
    assert view is not None
