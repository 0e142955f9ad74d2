"""Document.to_json/from_json: the form a parsed or OCR'd document takes in object storage."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lease_parser.errors import CorruptDocument
from lease_parser.parsing import (
    Document,
    OcrOptions,
    OcrReason,
    Page,
    PageQuality,
    PageSource,
    ParseLimits,
    SourceFormat,
    Table,
    apply_ocr,
    parse_document,
)
from tests.unit.parsing.conftest import fixture_bytes


@pytest.mark.parametrize("name", ["tables.pdf", "two_columns.pdf", "tracked_changes.docx"])
def test_parsed_documents_round_trip(name: str) -> None:
    document = parse_document(fixture_bytes(name), ParseLimits())
    assert Document.from_json(document.to_json()) == document


def test_ocrd_document_round_trips_with_word_confidences() -> None:
    data = fixture_bytes("mixed_scan.pdf")
    document = apply_ocr(parse_document(data, ParseLimits()), data, OcrOptions())
    restored = Document.from_json(document.to_json().encode())
    assert restored == document
    assert restored.pages[1].word_confidences == document.pages[1].word_confidences
    assert restored.pages[1].quality.ocr_confidence == document.pages[1].quality.ocr_confidence


def test_json_is_stable_and_compact() -> None:
    document = parse_document(fixture_bytes("tables.pdf"), ParseLimits())
    first, second = document.to_json(), Document.from_json(document.to_json()).to_json()
    assert first == second
    assert ", " not in first[:200]
    assert ": " not in first[:200]
    payload = json.loads(first)
    assert list(payload) == sorted(payload)
    assert "headers" not in payload
    assert "warnings" not in payload
    assert payload["v"] == 1
    assert len(first) < 2 * len(document.text) + 3000


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"not json",
        b"[]",
        b'{"v": 99, "format": "pdf", "pages": []}',
        b'{"v": 1}',
        b'{"v": 1, "format": "rtf", "pages": []}',
        b'{"v": 1, "format": "pdf", "pages": [{}]}',
    ],
)
def test_damaged_json_is_a_corrupt_document(payload: bytes) -> None:
    with pytest.raises(CorruptDocument, match="stored document JSON"):
        Document.from_json(payload)


_TEXT = st.text(max_size=40)
_SPAN = st.one_of(st.none(), st.tuples(st.integers(0, 99), st.integers(0, 99)))
_FLOAT = st.floats(allow_nan=False, allow_infinity=False)
_TABLE = st.builds(
    Table,
    rows=st.lists(st.lists(_TEXT, max_size=3), max_size=3),
    start=st.integers(-1, 99),
    end=st.integers(-1, 99),
    spans=st.lists(st.lists(_SPAN, max_size=3), max_size=3),
)
_QUALITY = st.builds(
    PageQuality,
    chars=st.integers(0, 10**6),
    words=st.integers(0, 10**5),
    printable_ratio=_FLOAT,
    dictionary_ratio=_FLOAT,
    image_coverage=_FLOAT,
    vector_objects=st.integers(0, 10**5),
    ocr_confidence=st.one_of(st.none(), _FLOAT),
    ocr_low_confidence_ratio=st.one_of(st.none(), _FLOAT),
)
_PAGE = st.builds(
    Page,
    number=st.integers(1, 500),
    text=_TEXT,
    source=st.sampled_from(PageSource),
    tables=st.lists(_TABLE, max_size=2),
    quality=_QUALITY,
    needs_ocr=st.booleans(),
    ocr_reason=st.one_of(st.none(), st.sampled_from(OcrReason)),
    word_confidences=st.lists(
        st.tuples(st.integers(0, 99), st.integers(0, 99), st.integers(0, 100))
    ),
)


@settings(max_examples=200, deadline=None)
@given(
    st.builds(
        Document,
        format=st.sampled_from(SourceFormat),
        pages=st.lists(_PAGE, max_size=3),
        headers=st.lists(_TEXT, max_size=2),
        footers=st.lists(_TEXT, max_size=2),
        warnings=st.lists(_TEXT, max_size=2),
    )
)
def test_any_document_round_trips(document: Document) -> None:
    assert Document.from_json(document.to_json()) == document
