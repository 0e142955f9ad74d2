"""Renewal and extension options: count and length of each term."""

from __future__ import annotations

import pytest

from lease_parser.extraction.financials import extract_financials
from tests.unit.extraction.lease_text import by_name, document


def options(*pages: str) -> tuple[str | None, str | None]:
    fields = by_name(extract_financials(document(*pages)))
    count, term = fields.get("renewal_option_count"), fields.get("renewal_term_months")
    return (count.value if count else None, term.value if term else None)


@pytest.mark.parametrize(
    ("sentence", "count", "term"),
    [
        (
            "Tenant shall have two (2) options to extend the Term for five (5) years each.",
            "2",
            "60",
        ),
        (
            'Tenant shall have two (2) options (each, an "Option") to extend the Term of this '
            "Lease by three (3) years each.",
            "2",
            "36",
        ),
        (
            "Tenant shall be entitled to extend the term of this Lease for two (2) successive "
            'periods of five (5) years each (each an "Extension Term").',
            "2",
            "60",
        ),
        (
            "Tenant shall have the option to extend the Lease Term for three additional periods "
            "of 36 months each.",
            "3",
            "36",
        ),
        ("Tenant may renew this Lease for one (1) additional five (5) year term.", "1", "60"),
        (
            "Lessor grants to lessee an option to renew this lease agreement for one year at a "
            "rental to be agreed.",
            "1",
            "12",
        ),
        (
            "Provided Tenant is not in default, Tenant shall have the right to renew the Lease for "
            "two (2) additional one (1) year periods.",
            "2",
            "12",
        ),
        ("Renewal Terms: Two (2) ten (10) year terms.", "2", "120"),
        (
            "Renewal Options. Tenant shall have the option to extend the Term for: (a) a period "
            'of five (5) years (the "First Renewal Term"), and (b) a further period of five (5) '
            'years (the "Second Renewal Term").',
            "2",
            "60",
        ),
    ],
)
def test_options(sentence: str, count: str, term: str) -> None:
    assert options(sentence) == (count, term)


@pytest.mark.parametrize(
    "sentence",
    [
        "2.2 Option to Extend. Sublessee shall have no option to extend this Sublease.",
        "29. Renewal. Subtenant shall have no right to renew the Term.",
        "Item 18 Further term(s) None.",
        "c. NUMBER OF OPTIONS 0",
        # An amendment taking the option away.
        "2. Renewal. Tenant hereby waives its option to extend the Term under the Lease.",
        "The Renewal Option set forth in Section 3.2 of the Lease is hereby deleted.",
        "Tenant shall have no further right or option to renew or extend the Term.",
    ],
)
def test_no_option(sentence: str) -> None:
    assert options(sentence) == ("0", None)


@pytest.mark.parametrize(
    "sentence",
    [
        "Tenant shall pay Base Rent of $5,000.00 per month.",
        "Tenant shall have the option to extend the Term for a period of up to 90 days as "
        "an authorized holdover.",
    ],
)
def test_not_stated(sentence: str) -> None:
    assert options(sentence) == (None, None)


def test_a_limit_on_renewals_is_not_a_denial() -> None:
    count, _ = options(
        "Tenant shall have two (2) options to renew this Lease for five (5) years each. Tenant "
        "shall have no option to renew this Lease beyond the expiration of the last Renewal Term."
    )
    assert count == "2"


@pytest.mark.parametrize(
    ("sentence", "count", "term"),
    [
        (
            "Tenant shall have the option to renew this Lease for one additional term of five "
            "(5) years. The option to renew may not be exercised if Tenant is then in default.",
            "1",
            "60",
        ),
        (
            "Tenant is granted the right to extend the Term for a period of three (3) years on "
            "the terms below. Tenant shall have no right to extend the Term except as provided "
            "in this Section 3.",
            "1",
            "36",
        ),
    ],
)
def test_a_lease_that_grants_an_option_never_has_none(sentence: str, count: str, term: str) -> None:
    assert options(sentence) == (count, term)


@pytest.mark.parametrize(
    "sentence",
    [
        "The option to extend may not be exercised while Tenant is in default.",
        "Tenant shall have no right to extend the Term except as set out in the Rider.",
    ],
)
def test_a_condition_on_an_option_is_not_a_denial(sentence: str) -> None:
    assert options(sentence)[0] != "0"
