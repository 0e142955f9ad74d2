"""Currency: written codes and names, then where the lease is, then USD."""

from __future__ import annotations

import pytest

from lease_parser.extraction.financials import extract_financials
from tests.unit.extraction.lease_text import by_name, document


def currency(text: str) -> str | None:
    raw = by_name(extract_financials(document(text))).get("currency")
    return None if raw is None else raw.value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Base Rent shall be A$5,000 per month.", "AUD"),
        ("Rent is payable in Canadian dollars: $4,000 per month.", "CAD"),
        ("All Rent shall be paid in lawful money of the United States: $4,000 per month.", "USD"),
        (
            "Tenant: Acme Pty Ltd, 12 High Street, Mount Waverley, Victoria 3149. Rent $84,000 "
            "per annum, exclusive of Goods and Services Tax.",
            "AUD",
        ),
        ("Premises: 1 Main Street, Springfield, IL 62701. Base Rent: $2,000 per month.", "USD"),
        ("Base Rent: $2,000 per month.", "USD"),
        ("Rent of £1,500 per calendar month.", "GBP"),
    ],
)
def test_currency(text: str, expected: str) -> None:
    assert currency(text) == expected


def test_one_foreign_sign_is_not_enough_to_leave_usd() -> None:
    assert (
        currency("Tenant shall insure with Bank of Australia. Base Rent: $2,000 per month.")
        == "USD"
    )


def test_no_money_no_currency() -> None:
    assert currency("This Lease is made between Landlord and Tenant.") is None


def test_shekels() -> None:
    assert currency("The basic monthly lease fees shall be NIS 45,000 per month.") == "ILS"
