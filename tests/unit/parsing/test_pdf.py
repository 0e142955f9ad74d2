"""PDF parsing on real files: reading order, tables, the OCR decision, broken and hostile PDFs."""

from __future__ import annotations

import re

import pytest

from lease_parser.errors import (
    CorruptDocument,
    EmptyDocument,
    EncryptedDocument,
    TooManyPages,
)
from lease_parser.parsing import OcrReason, ParseLimits, SourceFormat, parse_document
from lease_parser.parsing.pdf import parse_pdf, render_pages
from lease_parser.parsing.text import normalize_text
from tests.unit.parsing.conftest import PASSWORD, fixture_bytes


def _flat(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ reading order


def test_column_major_two_column_page_reads_left_column_first(limits: ParseLimits) -> None:
    page = parse_pdf(fixture_bytes("two_columns.pdf"), limits).pages[0]
    text = _flat(page.text)
    assert text.startswith("ARTICLE 1. PREMISES AND TERM")
    assert text.index("alterations without the written consent of Landlord.") < text.index(
        "Tenant shall carry commercial general liability"
    )


def test_row_major_two_column_page_is_reordered_into_columns(limits: ParseLimits) -> None:
    # Written line by line across the page: pdfium alone glues each left line to the right
    # line beside it ("...Holdings Tenant shall carry..."); layout.py undoes that.
    page = parse_pdf(fixture_bytes("two_columns.pdf"), limits).pages[1]
    text = _flat(page.text)
    assert "This Lease is made between Harbor Point Holdings LLC as Landlord" in text
    assert "Tenant shall carry commercial general liability insurance with limits" in text
    assert text.index("alterations without the written consent") < text.index("Tenant shall carry")


def test_values_filled_into_a_form_are_read_in_their_blanks(limits: ParseLimits) -> None:
    # An e-signature service prints the values typed into a form after the whole form:
    # pdfium alone reads "Apartment No. , at" and, at the page's end, "755 … 755 Dublin".
    page = parse_pdf(fixture_bytes("filled_form.pdf"), limits).pages[0]
    assert "Date of Lease Contract: April 13, 2023\n" in page.text
    assert "signing the Lease Contract): Kimberly Barnes\nand us, the owner: Hamilton" in page.text
    assert "Apartment No. 755 , at 755 Dublin Drive\n" in page.text
    assert "(city), Indiana, 46064 (zip code)" in page.text
    assert page.text.rstrip().endswith("Document ID: 368488933")  # the stamp stays last


def test_label_value_summary_is_read_row_by_row(limits: ParseLimits) -> None:
    page = parse_pdf(fixture_bytes("two_columns.pdf"), limits).pages[2]
    assert "Landlord: Harbor Point Holdings LLC\nTenant: Blue Finch Bakery Inc" in page.text
    assert "Monthly Base Rent: $15,000.00" in page.text


# ------------------------------------------------------------------ tables

SCHEDULE = [
    ["Period", "Annual Base Rent", "Monthly Installment"],
    ["Months 1-12", "$180,000.00", "$15,000.00"],
    ["Months 13-24", "$185,400.00", "$15,450.00"],
    ["Months 25-36", "$190,962.00", "$15,913.50"],
]


def _assert_spans_point_into_text(text: str, rows: list[list[str]], spans: list) -> None:
    for row, row_spans in zip(rows, spans, strict=True):
        for cell, span in zip(row, row_spans, strict=True):
            if cell:
                assert span is not None, cell
                assert _flat(text[span[0] : span[1]]) == cell


@pytest.mark.parametrize("page_index", [0, 1], ids=["ruled (pdfplumber)", "aligned (pdfium)"])
def test_rent_schedule_table_with_offsets_into_page_text(
    page_index: int, limits: ParseLimits
) -> None:
    page = parse_pdf(fixture_bytes("tables.pdf"), limits).pages[page_index]
    assert len(page.tables) == 1
    table = page.tables[0]
    assert table.rows == SCHEDULE
    _assert_spans_point_into_text(page.text, table.rows, table.spans)
    assert _flat(page.text[table.start : table.end]).startswith("Period Annual Base Rent")
    assert _flat(page.text[table.start : table.end]).endswith("$15,913.50")


def test_regression_bytes_before_the_pdf_header_still_find_ruled_tables(
    limits: ParseLimits,
) -> None:
    # A corpus lease (gh_united_property) was published with an HTTP multipart preamble in
    # front of %PDF-: pdfium reads it, pdfminer could not open it and the tables were lost.
    preamble = b'------boundary\r\nContent-Disposition: form-data; name="file"\r\n\r\n'
    document = parse_pdf(preamble + fixture_bytes("tables.pdf"), limits)
    assert document.warnings == []
    assert document.pages[0].tables[0].rows == SCHEDULE


def test_rent_prose_without_a_table_yields_none(limits: ParseLimits) -> None:
    assert parse_pdf(fixture_bytes("tables.pdf"), limits).pages[2].tables == []


def test_label_value_summary_is_an_aligned_table(limits: ParseLimits) -> None:
    page = parse_pdf(fixture_bytes("two_columns.pdf"), limits).pages[2]
    (table,) = page.tables
    assert table.rows[0] == ["Landlord:", "Harbor Point Holdings LLC"]
    assert table.rows[-1] == ["Security Deposit:", "$30,000.00"]
    _assert_spans_point_into_text(page.text, table.rows, table.spans)


def test_table_finder_is_capped_and_says_so() -> None:
    data = fixture_bytes("corpus_georgia_p1_rent_table.pdf")
    document = parse_pdf(data, ParseLimits(max_table_pages=0))
    assert document.pages[0].tables == []  # the ruled table was not looked for
    assert document.warnings == ["table finder skipped pages [1] (limit 0)"]


def test_regression_georgia_form_ruled_rent_schedule(limits: ParseLimits) -> None:
    # form_georgia_gba_specimen.pdf p1: a blank "Period | Monthly Base Rent" grid.
    page = parse_pdf(fixture_bytes("corpus_georgia_p1_rent_table.pdf"), limits).pages[0]
    schedule = [t for t in page.tables if t.rows[0] == ["Period", "Monthly Base Rent"]]
    assert len(schedule) == 1
    assert page.text[schedule[0].start : schedule[0].end] == "Period Monthly Base Rent"


def test_regression_form_checkboxes_and_underlines_are_not_tables(limits: ParseLimits) -> None:
    # form_car_cl_commercial.pdf p1: 16 checkboxes and 34 underlines, no table.
    page = parse_pdf(fixture_bytes("corpus_car_p1_checkboxes.pdf"), limits).pages[0]
    assert page.tables == []
    assert not page.needs_ocr


# ------------------------------------------------------------------ OCR decision


def test_mixed_document_flags_exactly_the_scanned_pages(limits: ParseLimits) -> None:
    document = parse_pdf(fixture_bytes("mixed_scan.pdf"), limits)
    assert [p.ocr_reason for p in document.pages] == [
        None,  # text
        OcrReason.SCANNED,  # image only
        None,  # blank: nothing to read
        OcrReason.GARBLED_OCR_LAYER,  # image under an invisible garbage layer
    ]
    assert document.pages_needing_ocr == [2, 4]
    assert document.pages[1].quality.image_coverage == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("broken_encoding.pdf", OcrReason.BROKEN_ENCODING),
        ("shifted_encoding.pdf", OcrReason.GARBLED_WORDS),
    ],
)
def test_garbage_text_layer_without_images_is_flagged(
    name: str, reason: OcrReason, limits: ParseLimits
) -> None:
    (page,) = parse_pdf(fixture_bytes(name), limits).pages
    assert page.ocr_reason is reason
    assert "Landlord" not in page.text  # the layer really is unreadable


@pytest.mark.parametrize(
    "name",
    [
        "corpus_form_ca_p18_blanks.pdf",  # underscores + a Wingdings checkbox: 0.54 "printable"
        "corpus_pa_decatur_p95_drawing.pdf",  # a site plan typeset as OCR text; OCR reads it alike
        "corpus_ud_witman_p76_placeholders.pdf",  # "[ggkz0rn2wzls000007.jpg]" placeholders
    ],
)
def test_regression_corpus_pages_that_were_wrongly_sent_to_ocr(
    name: str, limits: ParseLimits
) -> None:
    (page,) = parse_pdf(fixture_bytes(name), limits).pages
    assert page.ocr_reason is None, page.quality


def test_regression_pdfium_fffe_hyphen_and_crlf(limits: ParseLimits) -> None:
    # pa_decatur_tractor_supply.pdf p49: pdfium reports the hyphen of "month-to-month" as
    # U+FFFE, and ends every line with "\r\n" (which once became two line breaks).
    (page,) = parse_pdf(fixture_bytes("corpus_pa_decatur_p49_fffe_hyphen.pdf"), limits).pages
    assert "month-to-month tenancy" in page.text
    assert "\ufffe" not in page.text
    assert "\n\n" not in page.text.split("month-to-month")[0][-200:]
    assert page.text == normalize_text(page.text)


# ------------------------------------------------------------------ encrypted


def test_encrypted_pdf_needs_a_credential(limits: ParseLimits) -> None:
    with pytest.raises(EncryptedDocument, match="needs a password") as caught:
        parse_document(fixture_bytes("encrypted.pdf"), limits)
    assert caught.value.reason == "needs_credential"


def test_encrypted_pdf_with_a_wrong_password_says_so(limits: ParseLimits) -> None:
    with pytest.raises(EncryptedDocument, match="password given is wrong"):
        parse_document(fixture_bytes("encrypted.pdf"), limits, password="guess")


def test_encrypted_pdf_parses_with_its_password(limits: ParseLimits) -> None:
    document = parse_document(fixture_bytes("encrypted.pdf"), limits, password=PASSWORD)
    assert document.format is SourceFormat.PDF
    assert "Harbor Point Holdings LLC as Landlord" in document.pages[0].text


def test_corrupt_pdf_after_an_encrypted_one_is_still_corrupt(limits: ParseLimits) -> None:
    # pdfium's last-error code is process-global and survives a later failure.
    with pytest.raises(EncryptedDocument):
        parse_document(fixture_bytes("encrypted.pdf"), limits)
    with pytest.raises(CorruptDocument):
        parse_document(b"%PDF-1.7\n" + b"\x00garbage" * 50, limits)


# ------------------------------------------------------------------ broken and limits


def test_pdf_without_pages_is_empty(limits: ParseLimits) -> None:
    with pytest.raises(EmptyDocument, match="no pages"):
        parse_document(fixture_bytes("no_pages.pdf"), limits)


@pytest.mark.parametrize("keep", [9, 60, 200], ids=lambda n: f"first {n} bytes")
def test_truncated_pdf_is_corrupt(keep: int, limits: ParseLimits) -> None:
    with pytest.raises(CorruptDocument):
        parse_document(fixture_bytes("simple_lease.pdf")[:keep], limits)


def test_truncated_tail_is_recovered_or_named(limits: ParseLimits) -> None:
    # pdfium rebuilds a lost xref: a PDF cut after its pages still reads; if not, it is named.
    data = fixture_bytes("simple_lease.pdf")
    outcomes = set()
    for cut in range(len(data) // 2, len(data), max(len(data) // 20, 1)):
        try:
            document = parse_document(data[:cut], limits)
            outcomes.add(f"{len(document.pages)} pages")
        except (CorruptDocument, EmptyDocument) as exc:
            outcomes.add(exc.reason)
    assert outcomes <= {"1 pages", "2 pages", "corrupt", "empty"}
    assert outcomes


def test_over_the_page_limit(limits: ParseLimits) -> None:
    with pytest.raises(TooManyPages, match="3 pages, limit 2") as caught:
        parse_document(fixture_bytes("tables.pdf"), ParseLimits(max_pages=2))
    assert caught.value.context == {"pages": 3}


def test_render_of_an_oversized_page_is_scaled_to_the_pixel_limit() -> None:
    data = fixture_bytes("simple_lease.pdf")
    notes: list[str] = []
    ((number, image),) = render_pages(data, [1], dpi=300, max_pixels=1_000_000, notes=notes)
    assert number == 1
    assert image.width * image.height <= 1_000_000
    assert image.mode == "L"
    assert re.search(r"rendered at \d+ DPI, not 300", notes[0])
