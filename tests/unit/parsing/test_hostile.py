"""Hostile and unsupported inputs: each ends in a named error, decided before any damage."""

from __future__ import annotations

import io
import time
import zipfile

import pytest

from lease_parser.errors import (
    CorruptDocument,
    DocumentTooLarge,
    EmptyDocument,
    EncryptedDocument,
    LeaseParserError,
    ResourceBomb,
    TooManyPages,
    UnsupportedFormat,
)
from lease_parser.parsing import ParseLimits, SourceFormat, detect_format, parse_document
from tests.unit.parsing.conftest import fixture_bytes


@pytest.mark.parametrize(
    ("name", "error", "match"),
    [
        ("legacy.doc", UnsupportedFormat, r"legacy Word/OLE"),
        ("encrypted.docx", EncryptedDocument, r"DOCX is password-protected"),
        ("lease.rtf", UnsupportedFormat, r"RTF"),
        ("lease.html", UnsupportedFormat, r"HTML"),
        ("unknown.bin", UnsupportedFormat, r"unknown file type"),
        ("not_word.zip", UnsupportedFormat, r"not a Word document"),
        ("zip_bomb.docx", ResourceBomb, r"word/document\.xml inflates 10\d\dx, limit 200x"),
        ("overlapping_entries.docx", ResourceBomb, r"overlap"),
        ("billion_laughs.docx", ResourceBomb, r"entity expansion"),
        ("pixel_bomb.png", ResourceBomb, r"100000x100000 pixels|pixel bomb"),
        ("no_pages.pdf", EmptyDocument, r"no pages"),
    ],
)
def test_hostile_fixture_gets_its_named_error(
    name: str, error: type[LeaseParserError], match: str, limits: ParseLimits
) -> None:
    with pytest.raises(error, match=match):
        parse_document(fixture_bytes(name), limits)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"", EmptyDocument),
        (b" \n\t ", EmptyDocument),
        (b"%PDF-1.4\n%%EOF", CorruptDocument),
        (b"PK\x03\x04" + b"\x00" * 40, CorruptDocument),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 20, CorruptDocument),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 20, CorruptDocument),
        (b"II*\x00" + b"\x00" * 20, CorruptDocument),
        (b"GIF89a" + b"\x00" * 20, UnsupportedFormat),
        (b"<?xml version='1.0'?><lease/>", UnsupportedFormat),
    ],
    ids=[
        "zero bytes",
        "whitespace",
        "pdf header only",
        "zip header only",
        "png header only",
        "jpeg header only",
        "tiff header only",
        "gif",
        "xml",
    ],
)
def test_broken_or_unknown_bytes(data: bytes, error: type[LeaseParserError]) -> None:
    with pytest.raises(error):
        parse_document(data, ParseLimits())


def test_format_is_decided_by_magic_bytes_not_the_name() -> None:
    # The bytes are all parse_document sees; a PDF saved as "lease.doc" is still a PDF.
    assert detect_format(fixture_bytes("simple_lease.pdf")) is SourceFormat.PDF
    assert detect_format(b"\n\n" + fixture_bytes("simple_lease.pdf")) is SourceFormat.PDF
    assert detect_format(fixture_bytes("tracked_changes.docx")) is SourceFormat.DOCX
    assert detect_format(fixture_bytes("lease_pages.tiff")) is SourceFormat.IMAGE


def test_over_the_byte_limit_is_too_large() -> None:
    with pytest.raises(DocumentTooLarge) as caught:
        parse_document(fixture_bytes("simple_lease.pdf"), ParseLimits(max_bytes=100))
    assert caught.value.reason == "too_large"


def test_zip_bomb_is_refused_before_inflating() -> None:
    data = fixture_bytes("zip_bomb.docx")
    declared = max(i.file_size for i in zipfile.ZipFile(io.BytesIO(data)).infolist())
    assert declared > 16_000_000
    assert len(data) < 100_000
    started = time.process_time()
    with pytest.raises(ResourceBomb):
        parse_document(data, ParseLimits())
    # Inflating 16 MB takes far longer than reading a central directory; this only proves
    # the refusal came from the directory (speed itself is measured in the script).
    assert time.process_time() - started < 0.5


def _docx_with_document_xml(xml: bytes) -> bytes:
    base = zipfile.ZipFile(io.BytesIO(fixture_bytes("tracked_changes.docx")))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in base.infolist():
            data = xml if info.filename == "word/document.xml" else base.read(info)
            dst.writestr(info.filename, data)
    return out.getvalue()


def test_huge_document_xml_over_the_member_limit() -> None:
    body = b"".join(
        b"<w:p><w:r><w:t>Clause %d: Tenant shall pay rent %x.</w:t></w:r></w:p>" % (i, i * 7919)
        for i in range(40_000)
    )
    xml = (
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body>" + body + b"</w:body></w:document>"
    )
    data = _docx_with_document_xml(xml)
    assert len(xml) > 2_000_000
    with pytest.raises(ResourceBomb, match=r"word/document\.xml declares"):
        parse_document(data, ParseLimits(max_member_bytes=1_000_000))
    # ... and within the default limits the same document parses.
    assert len(parse_document(data, ParseLimits()).text) > 1_000_000


def test_declared_total_over_the_unpacked_limit() -> None:
    with pytest.raises(ResourceBomb, match=r"declares .* unpacked bytes"):
        parse_document(fixture_bytes("tracked_changes.docx"), ParseLimits(max_unpacked_bytes=10))


def test_nested_archive_is_never_opened(limits: ParseLimits) -> None:
    data = fixture_bytes("nested_zip.docx")
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "word/embeddings/package.zip" in names
    document = parse_document(data, limits)  # the inner 20 MB bomb is just bytes to us
    assert "IN WITNESS WHEREOF" in document.text


@pytest.mark.parametrize("keep", [30, 2_000, 20_000], ids=lambda n: f"first {n} bytes")
def test_truncated_docx_is_corrupt(keep: int, limits: ParseLimits) -> None:
    with pytest.raises(CorruptDocument):
        parse_document(fixture_bytes("tracked_changes.docx")[:keep], limits)


def test_docx_without_text_is_empty() -> None:
    xml = (
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body><w:p/></w:body></w:document>"
    )
    with pytest.raises(EmptyDocument, match="no text"):
        parse_document(_docx_with_document_xml(xml), ParseLimits())


def test_docx_over_the_page_limit() -> None:
    page = b'<w:p><w:r><w:t>page</w:t><w:br w:type="page"/></w:r></w:p>'
    xml = (
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body>" + page * 5 + b"</w:body></w:document>"
    )
    with pytest.raises(TooManyPages):
        parse_document(_docx_with_document_xml(xml), ParseLimits(max_pages=3))


def test_pixel_bomb_within_pillows_limit_is_refused_by_ours() -> None:
    # 12000 x 12000 = 144 Mpx: under Pillow's error (179 Mpx), over its warning (89 Mpx)
    # and over our 50 Mpx limit. No DecompressionBombWarning may escape (-W error here).
    from tests.fixtures.make_parsing_fixtures import _png_header_only

    with pytest.raises(ResourceBomb, match="12000x12000 pixels, limit 50000000"):
        parse_document(_png_header_only(12_000, 12_000), ParseLimits())


def test_tiff_with_too_many_frames(limits: ParseLimits) -> None:
    with pytest.raises(TooManyPages, match="over 1 frames"):
        parse_document(fixture_bytes("lease_pages.tiff"), ParseLimits(max_pages=1))
