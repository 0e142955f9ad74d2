"""The OCR decision: a pure function of page statistics, pinned by a table of cases.

Each row is a page we have met (in the dev corpus or a fixture) or a boundary of a
threshold; the id says which.
"""

from __future__ import annotations

import pytest

from lease_parser.parsing.base import OcrReason, PageQuality
from lease_parser.parsing.quality import measure_text, needs_ocr, ocr_reason

PROSE = {"chars": 2500, "words": 400, "printable_ratio": 1.0, "dictionary_ratio": 0.55}


def q(**overrides: float | int) -> PageQuality:
    return PageQuality(**{**PROSE, **overrides})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("quality", "reason"),
    [
        # --- a good text layer is read as it is
        pytest.param(q(), None, id="prose page"),
        pytest.param(q(image_coverage=1.0), None, id="searchable scan with a good OCR layer"),
        pytest.param(q(image_coverage=0.08), None, id="prose with a logo"),
        pytest.param(
            q(chars=2281, words=177, printable_ratio=1.0, dictionary_ratio=0.34),
            None,
            id="form page of blanks (form_ca p19, was OCR'd for its underscores)",
        ),
        pytest.param(
            q(chars=411, words=56, dictionary_ratio=0.125),
            None,
            id="survey drawing labels, no image (pa_decatur p95: OCR reads the same)",
        ),
        pytest.param(
            q(chars=250, words=20, dictionary_ratio=0.1),
            None,
            id="drawing labels, few words (pa_decatur p96)",
        ),
        pytest.param(
            q(chars=260, words=14, dictionary_ratio=0.29),
            None,
            id="exhibit page of image placeholders (ud_witman p76)",
        ),
        pytest.param(q(chars=2, words=0, dictionary_ratio=0.0), None, id="page number only"),
        pytest.param(
            q(chars=0, words=0, printable_ratio=0.0, dictionary_ratio=0.0), None, id="blank page"
        ),
        pytest.param(
            q(chars=0, words=0, dictionary_ratio=0.0, vector_objects=9),
            None,
            id="empty page with a few rules",
        ),
        # --- scanned pages inside a text PDF
        pytest.param(
            q(chars=0, words=0, dictionary_ratio=0.0, image_coverage=1.0),
            OcrReason.SCANNED,
            id="image-only page",
        ),
        pytest.param(
            q(chars=30, words=4, image_coverage=0.1),
            OcrReason.SCANNED,
            id="small scan, no layer (coverage at threshold)",
        ),
        pytest.param(
            q(chars=150, words=20, image_coverage=0.95),
            OcrReason.SCANNED,
            id="scan with a stamped header only",
        ),
        pytest.param(
            q(chars=300, words=18, dictionary_ratio=0.0, image_coverage=1.0),
            OcrReason.GARBLED_OCR_LAYER,
            id="scan under OCR bleed (mixed_scan.pdf p4)",
        ),
        pytest.param(
            q(dictionary_ratio=0.11, image_coverage=0.7),
            OcrReason.GARBLED_OCR_LAYER,
            id="scan under a poor layer, just below the bar",
        ),
        pytest.param(
            q(dictionary_ratio=0.12, image_coverage=0.7),
            None,
            id="scan under a poor layer, at the bar",
        ),
        # --- empty or broken text layers without images
        pytest.param(
            q(chars=0, words=0, dictionary_ratio=0.0, vector_objects=400),
            OcrReason.OUTLINED_TEXT,
            id="text drawn as outlines",
        ),
        pytest.param(
            q(printable_ratio=0.02, dictionary_ratio=0.0),
            OcrReason.BROKEN_ENCODING,
            id="private-use glyphs (broken_encoding.pdf)",
        ),
        pytest.param(q(printable_ratio=0.84), OcrReason.BROKEN_ENCODING, id="just below 0.85"),
        pytest.param(q(printable_ratio=0.85), None, id="at 0.85"),
        pytest.param(
            q(words=188, dictionary_ratio=0.0),
            OcrReason.GARBLED_WORDS,
            id="shifted encoding 'Wkh ohdvh' (shifted_encoding.pdf)",
        ),
        pytest.param(q(words=40, dictionary_ratio=0.02), OcrReason.GARBLED_WORDS, id="40 words"),
        pytest.param(q(words=39, dictionary_ratio=0.0), None, id="39 words: too few to judge"),
    ],
)
def test_ocr_reason(quality: PageQuality, reason: OcrReason | None) -> None:
    assert ocr_reason(quality) == reason
    assert needs_ocr(quality) is (reason is not None)


@pytest.mark.parametrize(
    ("text", "chars", "words", "printable", "dictionary"),
    [
        ("", 0, 0, 0.0, 0.0),
        ("The Tenant shall pay the rent.", 25, 6, 1.0, 1.0),
        ("Date: ______ Premises: ______ ☐ maybe", 32, 3, 1.0, 2 / 3),
        ("\ue041\ue042 \ue043", 3, 0, 0.0, 0.0),
        ("Wkh ohdvh vkdoo", 13, 3, 1.0, 0.0),
        ("[ggkz0rn2wzls000007.jpg] EXHIBIT", 31, 2, 1.0, 0.5),
        ("bad \ufffd glyph", 9, 2, 8 / 9, 0.0),
    ],
)
def test_measure_text(
    text: str, chars: int, words: int, printable: float, dictionary: float
) -> None:
    got = measure_text(text)
    assert (got.chars, got.words) == (chars, words)
    assert got.printable_ratio == pytest.approx(printable)
    assert got.dictionary_ratio == pytest.approx(dictionary)
