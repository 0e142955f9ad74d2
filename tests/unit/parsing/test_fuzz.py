"""Fuzzing: random and mutated bytes never raise anything outside the error taxonomy.

Seeds are real small fixtures (a text PDF, a DOCX with tracked changes, PNG and TIFF scans);
mutations flip, insert, delete and truncate bytes. A few hundred examples each, no deadline:
this is a net for crashes (IndexError from a parser, a pdfminer KeyError, a zlib error
escaping), not a benchmark.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lease_parser.errors import LeaseParserError
from lease_parser.parsing import Document, ParseLimits, parse_document
from lease_parser.parsing.ocr import image_frames
from tests.unit.parsing.conftest import fixture_bytes

SEEDS = {
    name: fixture_bytes(name)
    for name in (
        "simple_lease.pdf",
        "tables.pdf",
        "tracked_changes.docx",
        "lease_page.png",
        "lease_pages.tiff",
    )
}
# Small limits keep a lucky mutation from turning into a long parse.
LIMITS = ParseLimits(max_pages=20, max_image_pixels=20_000_000, max_member_bytes=4_000_000)
FUZZ = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def _parse(data: bytes) -> None:
    try:
        document = parse_document(data, LIMITS)
    except LeaseParserError:
        return
    assert Document.from_json(document.to_json()) == document


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(SEEDS[draw(st.sampled_from(sorted(SEEDS)))])
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "splice"]))
        if action == "flip":
            data[at] = draw(st.integers(0, 255))
        elif action == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif action == "truncate":
            del data[max(at, 8) :]
        else:  # repeat a slice: duplicated objects, overlapping zip entries
            piece = bytes(data[at : at + draw(st.integers(1, 256))])
            data[at:at] = piece * draw(st.integers(1, 4))
        if len(data) < 2:
            break
    return bytes(data)


@FUZZ
@given(st.binary(max_size=4096))
@example(b"%PDF-")
@example(b"PK\x03\x04")
@example(b"\x89PNG\r\n\x1a\n")
@example(b"II*\x00\x08\x00\x00\x00")
def test_random_bytes(data: bytes) -> None:
    _parse(data)


@FUZZ
@given(
    st.sampled_from([b"%PDF-1.7\n", b"PK\x03\x04", b"\x89PNG\r\n\x1a\n", b"II*\x00"]),
    st.binary(max_size=2048),
)
def test_random_bytes_behind_a_real_magic_number(magic: bytes, rest: bytes) -> None:
    _parse(magic + rest)


@FUZZ
@given(mutated())
def test_mutated_real_documents(data: bytes) -> None:
    _parse(data)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(mutated())
def test_mutated_images_decode_or_fail_named(data: bytes) -> None:
    # parse_document only reads image headers; this decodes the pixels too (without OCR).
    try:
        for _frame in image_frames(data, max_frames=5, max_pixels=20_000_000):
            pass
    except LeaseParserError:
        pass
