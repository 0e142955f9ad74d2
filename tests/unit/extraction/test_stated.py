"""Fields a lease states that nothing read (extraction/stated.py): each field's shape fires on
a plain statement a lease makes, and not on a blank form, a renewal or extension, an
event-based commencement, an insurance amount near the premises, or a field already read."""

from __future__ import annotations

import re

import pytest

from lease_parser import extraction
from lease_parser.extraction import extract_fields
from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.flat import flatten
from lease_parser.extraction.kind import classify_flat
from lease_parser.extraction.parties import extract_parties
from lease_parser.extraction.sections import primary_span
from lease_parser.extraction.stated import SHAPES, stated_but_not_read
from lease_parser.model import DocumentKind
from tests.unit.extraction.lease_text import document

HEAD = "OFFICE LEASE. "
FILLER = " The parties agree to the terms below." * 20
# What a lease plainly says for each field (the words, then a value of the field's kind).
PLAIN = {
    "landlord": 'This Lease is made between Harbor Point LLC ("Landlord") and Nimbus Inc.',
    "tenant": 'This Lease is made with Nimbus Inc. ("Tenant") by the owner of the Building.',
    "premises_address": "The Premises are located at 41 Lark Drive, Reno, Nevada 89501.",
    "rentable_sqft": "The Premises contain approximately 8,750 rentable square feet.",
    "lease_date": "This Lease is dated March 3, 2024.",
    "commencement_date": "Commencement Date: March 1, 2024.",
    "expiration_date": "Expiration Date: February 28, 2029.",
    "term_months": "Term: sixty (60) months.",
    "base_rent_monthly": "Monthly Base Rent: $5,000.00 per month.",
    "base_rent_annual": "Annual Base Rent: $60,000.00 per year.",
    "security_deposit": "Security Deposit: $10,000.00.",
    "cam_monthly": "Common Area Maintenance charges: $1,150.00 per month.",
    "tenant_share_percent": "Tenant's Pro Rata Share: 12.5%.",
    "renewal_option_count": "Tenant shall have one option to renew this Lease.",
    "renewal_term_months": "Tenant shall have one option to renew this Lease for five (5) years.",
    "renewal_notice": "To exercise a renewal option, Tenant shall give notice not less than "
    "nine (9) months prior to the Expiration Date.",
    "termination_notice": "Break Clause: the Tenant may end this Lease by giving not less than "
    "six (6) months' notice.",
}
# A blank form: its words introduce blanks, not values.
FORM = (
    "COMMERCIAL LEASE. Landlord: ____________ Tenant: ____________ Premises: ____________ "
    "Term: ______ Commencement: ______ Expiration: ______ Use: ______ Broker: ______ "
    "Late charge: ______ Parking: ______ Signs: ______ Guarantor: ______ "
)


def stated(*pages: str, read: dict[str, RawField] | None = None) -> dict[str, RawField]:
    """The fields ``pages`` state that ``read`` does not hold."""
    doc = document(*pages)
    found = stated_but_not_read(flatten(doc), primary_span(doc), read or {})
    return {raw.name: raw for raw in found}


def test_every_shape_has_a_plain_statement() -> None:
    assert set(PLAIN) == set(SHAPES)


@pytest.mark.parametrize("name", list(SHAPES))
def test_a_plain_statement_nothing_read_is_stated_but_not_read(name: str) -> None:
    doc = document(HEAD + PLAIN[name] + FILLER)
    found = {r.name: r for r in stated_but_not_read(flatten(doc), primary_span(doc), {})}
    raw = found[name]
    assert raw.value is None
    assert raw.doubts == {
        Doubt.STATED_NOT_READ: f"the lease states {SHAPES[name].what} here; nothing was read"
    }
    # The reviewer is pointed at the statement.
    assert raw.page == 1
    statement = doc.pages[0].text.index(PLAIN[name])
    assert statement <= raw.start < raw.end <= statement + len(PLAIN[name])


def test_the_statement_is_cited_on_its_own_page() -> None:
    raw = stated(HEAD + FILLER, "4. Deposit. " + PLAIN["security_deposit"] + FILLER)[
        "security_deposit"
    ]
    assert raw.page == 2
    assert "$10,000.00" in raw.snippet


@pytest.mark.parametrize("name", list(SHAPES))
def test_a_field_already_read_is_not_stated_again(name: str) -> None:
    read = {name: RawField(name, "read")}
    assert name not in stated(HEAD + PLAIN[name] + FILLER, read=read)


def test_a_field_present_without_a_value_is_not_read() -> None:
    read = {"security_deposit": RawField("security_deposit", None)}
    assert "security_deposit" in stated(HEAD + PLAIN["security_deposit"] + FILLER, read=read)


@pytest.mark.parametrize("name", ["renewal_term_months", "renewal_notice"])
@pytest.mark.parametrize(
    ("count", "fires"),
    [(None, True), ("0", False)],
)
def test_no_option_no_option_length_or_notice(name: str, count: str | None, fires: bool) -> None:
    read = {} if count is None else {"renewal_option_count": RawField("x", count)}
    found = stated(HEAD + PLAIN[name] + FILLER, read=read)
    assert (name in found) is fires


@pytest.mark.parametrize("name", list(SHAPES))
def test_a_blank_form_states_nothing(name: str) -> None:
    doc = document(FORM + PLAIN[name] + FILLER)
    assert classify_flat(flatten(doc)) is DocumentKind.FORM
    assert stated_but_not_read(flatten(doc), primary_span(doc), {}) == []


@pytest.mark.parametrize(
    ("name", "statement"),
    [
        ("security_deposit", "Security Deposit: $________ (at least $10,000.00)."),
        ("base_rent_monthly", "Monthly Base Rent: $______ per month ($5,000.00 per month)."),
        ("commencement_date", "Commencement Date: ____________ (March 1, 2024 if blank)."),
        ("tenant_share_percent", "Tenant's Pro Rata Share: ____% (12.5% if fully leased)."),
        ("term_months", "Term: ______ months (sixty (60) months if blank)."),
        ("premises_address", "The Premises are located at ______________ (41 Lark Drive)."),
    ],
)
def test_a_blank_left_in_a_statement_is_no_value(name: str, statement: str) -> None:
    assert name not in stated(HEAD + statement + FILLER)
    # ... and the blank is what tells: filled in, the same words state the field.
    assert name in stated(HEAD + statement.replace("_", "") + FILLER)


@pytest.mark.parametrize(
    ("name", "statement"),
    [
        ("base_rent_monthly", "Monthly Base Rent for the Extension Term: $6,000.00 per month."),
        ("base_rent_monthly", "Monthly Base Rent during any renewal: $6,000.00 per month."),
        ("base_rent_annual", "Annual Base Rent for each Renewal Term: $72,000.00 per year."),
        ("term_months", "Renewal Term: sixty (60) months."),
        ("term_months", "Tenant may renew this Lease for one additional term of five (5) years."),
        ("term_months", "The term of this Lease may be extended for five (5) years."),
        ("commencement_date", "Extension Commencement Date: March 1, 2029."),
        ("expiration_date", "The Expiration Date shall be extended to February 28, 2034."),
        ("base_rent_monthly", "Upon renewal, the Monthly Base Rent shall be $6,000.00 per month."),
        (
            "base_rent_annual",
            "If this Lease is renewed, Annual Base Rent shall be $72,000.00 per year.",
        ),
        ("term_months", "Tenant may extend the Lease for a term of five (5) years."),
        (
            "expiration_date",
            "In the event of an extension, the Expiration Date shall be February 28, 2034.",
        ),
    ],
)
def test_a_renewal_or_extension_is_not_the_field(name: str, statement: str) -> None:
    assert name not in stated(HEAD + statement + FILLER)


@pytest.mark.parametrize(
    "statement",
    [
        "Commencement Date: the later of March 1, 2024 and the date Landlord delivers the "
        "Premises.",
        "The Commencement Date shall be the later of (a) March 1, 2024 and (b) the date "
        "Landlord delivers the Premises.",
        "The Commencement Date shall be the earlier of March 1, 2024 and the date Tenant opens "
        "for business.",
        "Commencement Date: upon substantial completion, estimated to be March 1, 2024.",
        "The Commencement Date is the day following delivery, expected on March 1, 2024.",
    ],
)
def test_an_event_based_commencement_is_not_a_stated_date(statement: str) -> None:
    assert "commencement_date" not in stated(HEAD + statement + FILLER)


@pytest.mark.parametrize(
    "statement",
    [
        "The Premises shall be insured with a limit of not less than $50.00 per 1,000 square "
        "feet of floor area.",
        "The Premises: insurance of not less than $50.00 for each 1,000 square feet.",
        "Tenant shall maintain property insurance on the Premises of not less than $50.00 "
        "for each 1,000 square feet.",
    ],
)
def test_an_insurance_amount_near_the_premises_is_not_its_area(statement: str) -> None:
    assert "rentable_sqft" not in stated(HEAD + statement + FILLER)


@pytest.mark.parametrize(
    ("name", "statement"),
    [
        ("term_months", "Most landlords offer tenancies for a fixed term of 6 or 12 months."),
        ("security_deposit", "The security deposit is usually $500 or $1,000."),
    ],
)
def test_a_choice_of_values_is_not_a_statement(name: str, statement: str) -> None:
    assert name not in stated(HEAD + statement + FILLER)
    one_value = re.sub(r"\S+ or ", "", statement)  # "... a fixed term of 12 months."
    assert name in stated(HEAD + one_value + FILLER)


@pytest.mark.parametrize(
    ("name", "statement"),
    [
        ("commencement_date", "Rent Commencement Date: March 1, 2024."),
        ("base_rent_monthly", "Additional Rent: $400.00 per month."),
        ("term_months", "Insurance Term: twelve (12) months."),
        ("base_rent_monthly", "Monthly Base Rent shall increase by $150.00 per month."),
    ],
)
def test_another_fields_words_or_a_change_are_not_the_field(name: str, statement: str) -> None:
    assert name not in stated(HEAD + statement + FILLER)


LEASE = (
    'THIS LEASE is made as of January 15, 2024, by and between Harbor Point LLC ("Landlord") and '
    'Nimbus Inc. ("Tenant"). 1. Premises. The premises located at 41 Lark Drive, Reno, Nevada '
    '89501 (the "Premises"). 2. Rent. Tenant shall pay Base Rent in the sum of $5,000.00 per '
    "month. 3. Deposit. Security Deposit: $10,000.00." + FILLER
)


def test_extract_fields_says_what_the_lease_states_that_no_extractor_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(extraction, "EXTRACTORS", (extract_parties,))
    fields = extract_fields(document(LEASE))
    assert fields["landlord"].value == "Harbor Point LLC"
    for name in ("base_rent_monthly", "security_deposit", "premises_address"):
        assert fields[name].value is None
        assert Doubt.STATED_NOT_READ in fields[name].doubts


def test_extract_fields_says_nothing_of_what_was_read() -> None:
    fields = extract_fields(document(LEASE))
    for name in ("landlord", "tenant", "base_rent_monthly", "security_deposit"):
        assert fields[name].value is not None
    assert not any(Doubt.STATED_NOT_READ in raw.doubts for raw in fields.values())


@pytest.mark.parametrize(
    ("read_name", "read_value", "missing"),
    [
        ("base_rent_annual", "84585.60", "base_rent_monthly"),
        ("base_rent_monthly", "7048.80", "base_rent_annual"),
    ],
)
def test_the_other_rent_written_in_the_lease_is_stated_but_not_read(
    read_name: str, read_value: str, missing: str
) -> None:
    # No rent words right before the second figure, and no unit after it: only arithmetic
    # with the rent that was read says the lease states it.
    text = (
        "2. Payment. Tenant shall pay Landlord $84,585.60 per year, payable in installments of "
        "$7,048.80 plus applicable sales taxes on the first day of each month. "
    )
    read = {read_name: RawField(read_name, read_value)}
    found = stated(HEAD + text + FILLER, read=read)
    assert missing in found
    assert found[missing].doubts[Doubt.STATED_NOT_READ]


def test_a_total_over_the_term_is_not_the_annual_rent() -> None:
    text = "RENT. The total rent under this lease agreement is $96,000.00 for the whole term. "
    assert "base_rent_annual" not in stated(HEAD + text + FILLER)
    # A one-year term's total is 12 × the monthly rent read: still not an annual rent.
    text = (
        "The term is one year. RENT. A. The total rent under this lease agreement is "
        "$96,000.00. B. Lessee shall pay the above amount in installments of $8,000.00 each "
        "month. "
    )
    read = {"base_rent_monthly": RawField("base_rent_monthly", "8000.00")}
    assert "base_rent_annual" not in stated(HEAD + text + FILLER, read=read)
