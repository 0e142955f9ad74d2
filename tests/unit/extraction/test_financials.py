"""The financial family as a whole: main agreement only, kinds of documents, blank input."""

from __future__ import annotations

from lease_parser.extraction import extract_fields
from lease_parser.extraction.financials import extract_financials
from lease_parser.parsing.base import Document, SourceFormat
from tests.unit.extraction.lease_text import by_name, document

SUBLEASE = (
    'THIS SUBLEASE AGREEMENT ("Sublease") is made as of May 1, 2020, by and between Alpha LLC '
    '("Sublessor") and Beta Inc. ("Sublessee"). 3. Rent. Sublessee shall pay Sublessor Base '
    "Rent in the sum of $4,000.00 per month. Security Deposit: $4,000.00. " + "Other terms. " * 80
)
MASTER = (
    'EXHIBIT A MASTER LEASE THIS LEASE AGREEMENT ("Lease") is made as of June 1, 2015, by and '
    'between Gamma LP ("Landlord") and Alpha LLC ("Tenant"). Monthly Base Rent: $25,000.00. '
    "Security Deposit: $75,000.00. Tenant shall have two (2) options to extend the Term for "
    "five (5) years each."
)


def test_an_attached_master_lease_is_not_read() -> None:
    fields = by_name(extract_financials(document(SUBLEASE, MASTER)))
    assert fields["base_rent_monthly"].value == "4000.00"
    assert fields["security_deposit"].value == "4000.00"
    assert "renewal_option_count" not in fields


def test_every_value_of_a_blank_form_says_it_comes_from_a_form() -> None:
    """A blank form's amounts are examples or instructions: the kind of document is evidence
    about every value read from it."""
    form = (
        "COMMERCIAL LEASE. Landlord: ____________ Tenant: ____________ Premises: ____________ "
        "Term: ______ Commencement: ______ Expiration: ______ Use: ______ Broker: ______ "
        "Security Deposit: $______ Late charge: ______ Parking: ______ Signs: ______ "
        "Insurance: ______ Guarantor: ______ "
        "Monthly Base Rent: $2,000.00 Base Rent: Tenant shall pay Base Rent of $2,000.00 per month."
    )
    assert extract_financials(document(form))
    fields = extract_fields(document(form))
    assert fields
    for raw in fields.values():
        assert raw.evidence["kind_form"] == 1
        assert raw.evidence["kind_amendment"] == 0


def test_an_amendments_values_say_they_come_from_an_amendment() -> None:
    """An amendment states changed terms of another lease."""
    amendment = (
        "FIRST AMENDMENT TO LEASE. This First Amendment to Lease amends the Lease dated "
        "January 1, 2019. Monthly Base Rent: $9,000.00. Tenant shall pay Base Rent in the sum "
        "of $9,000.00 per month."
    )
    fields = extract_fields(document(amendment))
    assert fields["base_rent_monthly"].value == "9000.00"
    assert fields["base_rent_monthly"].evidence["kind_amendment"] == 1
    assert fields["base_rent_monthly"].evidence["kind_form"] == 0


def test_an_empty_document_has_no_fields() -> None:
    assert extract_financials(Document(format=SourceFormat.PDF, pages=[])) == []


def test_ocr_text_is_evidence_of_doubt() -> None:
    text = (
        "Monthly Base Rent: $6,200.00. Tenant shall pay Base Rent in the sum of $6,200.00 "
        "per month."
    )
    typed = by_name(extract_financials(document(text)))["base_rent_monthly"]
    scanned = by_name(extract_financials(document(text, ocr_confidence=75.0)))["base_rent_monthly"]
    assert scanned.value == typed.value
    assert typed.evidence["ocr"] == 0
    assert scanned.evidence["ocr"] > 0
    assert scanned.evidence["statements"] == typed.evidence["statements"]
