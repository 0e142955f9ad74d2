"""OCR with the real Tesseract: PNG, JPEG, multi-frame TIFF, scanned and sideways PDF pages."""

from __future__ import annotations

import os

import pytesseract
import pytest

from lease_parser.errors import ConfigurationError, OperationTimeout
from lease_parser.parsing import (
    Document,
    OcrOptions,
    OcrReason,
    PageSource,
    ParseLimits,
    apply_ocr,
    parse_document,
)
from lease_parser.parsing.ocr import BOX_SCALE, words_to_text
from tests.unit.parsing.conftest import fixture_bytes

FIRST = "This Lease is made between Harbor Point Holdings LLC as Landlord"
SECOND = "Tenant shall carry commercial general liability insurance"


def _ocr(name: str, options: OcrOptions | None = None) -> Document:
    data = fixture_bytes(name)
    return apply_ocr(parse_document(data, ParseLimits()), data, options or OcrOptions())


def _flat(text: str) -> str:
    return " ".join(text.split())


def _assert_words_located(document: Document) -> None:
    for page in document.pages:
        if page.source is not PageSource.OCR:
            continue
        assert len(page.word_confidences) >= 0.95 * len(page.text.split()) > 0
        for start, end, confidence in page.word_confidences:
            assert 0 <= start < end <= len(page.text)
            assert 0 <= confidence <= 100
            assert page.text[start:end].strip() == page.text[start:end]
        # Every located word has its box on the page (the workspace draws citations so).
        assert len(page.word_boxes) == len(page.word_confidences)
        for left, top, right, bottom in page.word_boxes:
            assert 0 <= left < right <= BOX_SCALE
            assert 0 <= top < bottom <= BOX_SCALE
        # Words of one line read left to right at one height.
        first_line = page.text.split("\n", 1)[0]
        on_line = [
            box
            for (start, _e, _c), box in zip(page.word_confidences, page.word_boxes, strict=True)
            if start < len(first_line)
        ]
        assert [b[0] for b in on_line] == sorted(b[0] for b in on_line)
        assert max(b[1] for b in on_line) - min(b[1] for b in on_line) < 200


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("lease_page.png", [FIRST]),
        ("lease_page.jpg", [FIRST]),
        ("lease_pages.tiff", [FIRST, SECOND]),
        ("rotated_page.png", [FIRST]),
    ],
    ids=["png", "jpeg", "tiff (2 frames)", "png turned 90 degrees (OSD)"],
)
def test_image_files_are_ocrd_page_per_frame(name: str, expected: list[str]) -> None:
    document = _ocr(name)
    assert [_flat(p.text)[: len(e)] for p, e in zip(document.pages, expected, strict=True)] == (
        expected
    )
    for page in document.pages:
        assert page.source is PageSource.OCR
        assert not page.needs_ocr
        assert page.ocr_reason is OcrReason.SCANNED
        assert page.quality.ocr_confidence is not None
        assert page.quality.ocr_confidence > 85
        assert page.quality.ocr_low_confidence_ratio is not None
        assert page.quality.ocr_low_confidence_ratio < 0.1
        # The turn that made the page readable is kept: its word boxes are on that image.
        assert (page.ocr_rotation != 0) == ("rotated" in name)
    _assert_words_located(document)
    assert Document.from_json(document.to_json()) == document  # boxes survive storage


def test_only_the_pages_needing_ocr_are_replaced() -> None:
    before = parse_document(fixture_bytes("mixed_scan.pdf"), ParseLimits())
    after = apply_ocr(before, fixture_bytes("mixed_scan.pdf"), OcrOptions())
    assert [p.source for p in after.pages] == [
        PageSource.TEXT_LAYER,
        PageSource.OCR,
        PageSource.TEXT_LAYER,
        PageSource.OCR,
    ]
    assert after.pages[0] == before.pages[0]
    assert after.pages[2] == before.pages[2]
    assert _flat(after.pages[1].text).startswith(FIRST)
    assert _flat(after.pages[3].text).startswith(SECOND)  # not the garbage layer
    assert after.pages[3].ocr_reason is OcrReason.GARBLED_OCR_LAYER
    assert after.pages_needing_ocr == []
    assert os.environ["OMP_THREAD_LIMIT"] == "1"
    _assert_words_located(after)


@pytest.mark.parametrize("name", ["broken_encoding.pdf", "shifted_encoding.pdf"])
def test_ocr_repairs_a_broken_font_encoding(name: str) -> None:
    (page,) = _ocr(name).pages
    assert _flat(page.text).startswith(FIRST)


def test_sideways_scan_in_a_pdf_is_read_upright() -> None:
    (page,) = _ocr("rotated_scan.pdf").pages
    assert _flat(page.text).startswith(FIRST)
    assert page.ocr_rotation in (90, 270)
    assert page.quality.ocr_confidence is not None
    assert page.quality.ocr_confidence > 85


def test_a_page_over_its_timeout_is_a_transient_timeout() -> None:
    with pytest.raises(OperationTimeout, match="Tesseract exceeded"):
        _ocr("lease_page.png", OcrOptions(page_timeout=0.01))


def test_missing_tesseract_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(ConfigurationError, match="tesseract is not installed"):
        _ocr("lease_page.png")


def _tsv(words: list[tuple[str, int, tuple[int, int, int]]]) -> dict[str, list[object]]:
    return {
        "text": [w for w, _, _ in words],
        "conf": [c for _, c, _ in words],
        "block_num": [k[0] for _, _, k in words],
        "par_num": [k[1] for _, _, k in words],
        "line_num": [k[2] for _, _, k in words],
    }


def test_words_to_text_locates_words_through_normalization() -> None:
    read = words_to_text(
        _tsv(
            [
                ("", -1, (1, 1, 1)),
                ("Rent", 96, (1, 1, 1)),
                ("is", 91, (1, 1, 1)),
                ("$", 40, (1, 1, 1)),
                ("15,000", 88, (1, 1, 1)),
                ("commence-", 90, (1, 1, 1)),
                ("ment", 70, (1, 1, 2)),
                ("Tenant\u2019s", 93, (1, 2, 1)),
            ]
        )
    )
    assert read.text == "Rent is $15,000 commencement\n\nTenant's"
    located = [(read.text[s:e], c) for s, e, c in read.words]
    assert located == [
        ("Rent", 96),
        ("is", 91),
        ("$", 40),
        ("15,000", 88),
        ("commence", 90),
        ("ment", 70),
        ("Tenant's", 93),
    ]
    assert read.mean_confidence == pytest.approx((96 + 91 + 40 + 88 + 90 + 70 + 93) / 7)
