"""Document kind, decided on the main agreement."""

from __future__ import annotations

import pytest

from lease_parser.extraction.kind import classify_document
from lease_parser.model import DocumentKind
from tests.unit.extraction.lease_text import document

FILLER = "The parties agree to the terms below. " * 40


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            'THIS LEASE is made as of June 1, 2012, by and between Alder Realty LLC ("Landlord") '
            'and Birch Goods Inc. ("Tenant").',
            DocumentKind.LEASE,
        ),
        (
            "THIS SUBLEASE is made as of June 1, 2012, by and between Birch Goods Inc. "
            '("Sublandlord") and Cedar Apps LLC ("Subtenant").',
            DocumentKind.SUBLEASE,
        ),
        (
            'THIS AGREEMENT (the "Sublease") is made as of June 1, 2012, between Birch Goods Inc. '
            '("Sublessor") and Cedar Apps LLC ("Sublessee").',
            DocumentKind.SUBLEASE,
        ),
        (
            "THIS SECOND AMENDMENT TO LEASE is made as of June 1, 2012, by and between Alder "
            'Realty LLC ("Landlord") and Birch Goods Inc. ("Tenant").',
            DocumentKind.AMENDMENT,
        ),
        (
            'Dear Tenant: This letter agreement ("Extension Letter"), when executed by the '
            "parties, amends the Lease as follows: the term is extended through May 31, 2020.",
            DocumentKind.AMENDMENT,
        ),
        (
            "THIS LEASE is made this ____ day of __________, 20__, by and between __________ "
            '("Landlord") and ______________ ("Tenant"). Premises: ____________ Rent: $______ '
            "per month. Deposit: $______. Term: ______ months. Date: ________",
            DocumentKind.FORM,
        ),
        (
            'Date: ("Landlord") and ("Tenant") agree as follows: the term begins on (date).',
            DocumentKind.FORM,
        ),
    ],
)
def test_kind(text: str, kind: DocumentKind) -> None:
    assert classify_document(document(text + " " + FILLER)) is kind


def test_a_lease_followed_by_its_amendment_is_a_lease() -> None:
    lease = (
        'THIS LEASE is made as of June 1, 2012, by and between Alder Realty LLC ("Landlord") '
        'and Birch Goods Inc. ("Tenant"). ' + FILLER
    )
    amendment = (
        "FIRST AMENDMENT TO LEASE This First Amendment is made as of May 1, 2015 by and between "
        'Alder Realty LLC ("Landlord") and Birch Goods Inc. ("Tenant"). ' + FILLER
    )
    assert classify_document(document(lease, amendment)) is DocumentKind.LEASE


def test_a_partly_filled_lease_is_not_a_form() -> None:
    text = (
        'This Storage Lease (this "Lease") is entered into by and between Dune Storage LLC '
        '("Lessor") and __Kite Co______ ("Lessee"). Rent shall be $______ per month. ' + FILLER
    )
    assert classify_document(document(text)) is DocumentKind.LEASE


@pytest.mark.parametrize(
    "title",
    ["LEASE EXTENSION AGREEMENT", "RENEWAL OF LEASE", "LEASE MODIFICATION AGREEMENT", "ADDENDUM"],
)
def test_amendment_titles(title: str) -> None:
    text = (
        f"THIS {title} is made as of June 1, 2012, by and between Alder Realty LLC "
        '("Landlord") and Birch Goods Inc. ("Tenant"). '
    )
    assert classify_document(document(text + FILLER)) is DocumentKind.AMENDMENT
