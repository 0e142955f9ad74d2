"""Document kind, decided on the main agreement."""

from __future__ import annotations

import pytest

from lease_parser.extraction.kind import classify_document, lease_language
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


@pytest.mark.parametrize(
    "opening",
    [
        'THIS LEASE TERMINATION AGREEMENT (this "Agreement") is entered into as of the 18th '
        "day of May, 2023 by and between",
        "THIS TERMINATION OF LEASE is made as of June 1, 2012, by and between",
        "THIS AGREEMENT TO TERMINATE LEASE is made as of June 1, 2012, by and between",
        "THIS DEED OF SURRENDER is dated 1 June 2012 and is made between",
        "THIS SURRENDER OF LEASE is made as of June 1, 2012, by and between",
        "THIS EARLY TERMINATION AGREEMENT is made as of June 1, 2012, by and between",
        "LEASE TERMINATION AGREEMENT THIS AGREEMENT is made as of June 1, 2012, by and between",
        "SURRENDER OF LEASE THIS AGREEMENT is made as of June 1, 2012, by and between",
    ],
)
def test_a_document_that_ends_a_lease_is_never_a_lease(opening: str) -> None:
    """A termination or a surrender changes another lease: never committed as a lease."""
    text = (
        f'{opening} Alder Realty LLC ("Landlord") and Birch Goods Inc. ("Tenant"). Landlord '
        'and Tenant are parties to that certain Lease dated October 12, 1995 (the "Lease"). '
        "The Lease shall terminate on the Termination Date. "
    )
    assert classify_document(document(text + FILLER)) is DocumentKind.AMENDMENT


def test_a_lease_with_a_termination_option_is_a_lease() -> None:
    text = (
        "LEASE AGREEMENT\nARTICLE 30 EARLY TERMINATION OPTION\nTHIS LEASE is made as of June 1, "
        '2012, by and between Alder Realty LLC ("Landlord") and Birch Goods Inc. ("Tenant"). '
        "Tenant may terminate this Lease on the Termination Date. "
    )
    assert classify_document(document(text + FILLER)) is DocumentKind.LEASE


RENT_INVOICE = (
    "INVOICE\nInvoice No. 2025-0517   Invoice Date: May 1, 2025   Due Date: May 10, 2025\n"
    "Bill To: Bluefin Analytics, Inc. (Tenant)\nPremises: 1200 Harbor Point Blvd, Suite 400\n"
    "Base Rent, May 2025 ........ $24,062.50\nCAM estimate ........ $1,925.00\n"
    "Subtotal $25,987.50   Amount Due $25,987.50\nRemit to: Harbor Point Owner LLC, "
    "P.O. Box 100, Baltimore MD. Payment terms: net 10."
)
STATEMENT = (
    "STATEMENT OF ACCOUNT   Statement Date: June 30, 2025\nTenant: Birch Goods Inc.\n"
    "Previous Balance $0.00   Charges $5,000.00   Payments $5,000.00   Closing Balance $0.00"
)
RECEIPT = (
    "RECEIPT No. 88   Received from Cedar Apps LLC the sum of $2,500.00, amount paid in "
    "respect of the security deposit. Paid in full."
)
LETTER = (
    "Dear Ms. Ortiz, thank you for visiting our offices last week. We enclose the brochure "
    "you asked for and look forward to hearing from you."
)
LEASE_THAT_MENTIONS_INVOICES = (
    'THIS LEASE is made as of June 1, 2012, by and between Alder Realty LLC ("Landlord") and '
    'Birch Goods Inc. ("Tenant"). Landlord shall invoice Tenant monthly; the amount due shall '
    "be paid by the due date. Tenant shall pay rent. Tenant shall insure. Landlord shall repair."
)


@pytest.mark.parametrize(
    ("text", "reads_as_lease", "other_kind"),
    [
        (RENT_INVOICE, False, "invoice"),
        (STATEMENT, False, "statement of account"),
        (RECEIPT, False, "receipt"),
        (LETTER, False, None),
        (LEASE_THAT_MENTIONS_INVOICES, True, "invoice"),
        ('THIS SUBLEASE is made by and between A ("Sublandlord") and B ("Subtenant").', True, None),
        ("This letter, when executed by the parties, amends the Lease: the term ends.", True, None),
        ('Date: ("Landlord") and ("Tenant") agree as follows.', True, None),
        ("The Tenant must keep the Premises clean. The Landlord must insure.", True, None),
    ],
    ids=[
        "rent invoice",
        "statement",
        "receipt",
        "letter",
        "lease that mentions invoices",
        "sublease",
        "amending letter",
        "blank form",
        "covenants with must",
    ],
)
def test_lease_language(text: str, reads_as_lease: bool, other_kind: str | None) -> None:
    language = lease_language(text)
    assert language.reads_as_lease is reads_as_lease
    assert language.other_kind == other_kind


@pytest.mark.parametrize("text", [RENT_INVOICE, STATEMENT, RECEIPT, LETTER])
def test_what_is_not_a_lease_is_classified_so(text: str) -> None:
    assert classify_document(document(text)) is DocumentKind.NOT_A_LEASE
