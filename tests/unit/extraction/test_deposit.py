"""The security deposit: amounts, letters of credit, none stated, and never mentioned."""

from __future__ import annotations

import pytest

from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.financials import extract_financials
from tests.unit.extraction.lease_text import by_name, document

FILLER = " The parties agree to the terms below." * 20


def deposit(*pages: str) -> RawField | None:
    return by_name(extract_financials(document(*pages))).get("security_deposit")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Security Deposit: $4,500.00", "4500.00"),
        (
            "4.1 Security Deposit. Upon execution hereof, Tenant shall deposit with Landlord the "
            "sum of Four Thousand Five Hundred and 00/100 Dollars ($4,500.00) as a Security "
            "Deposit.",
            "4500.00",
        ),
        (
            "At execution Tenant shall pay (i) $9,000.00 toward fixed rent and (ii) the amount of "
            "$27,000.00 representing the security deposit.",
            "27000.00",
        ),
        ('Tenant has deposited with Landlord the sum of $8,000.00 (the "Deposit").', "8000.00"),
        (
            '"Security Deposit" shall mean a letter of credit in the amount of Fifty Thousand '
            "Dollars and 00/100 Dollars ($50,000.00).",
            "50000.00",
        ),
        (
            'The term "Security Deposit Amount" shall mean (i) One Hundred Thousand and No/100 '
            "Dollars ($100,000) until the second anniversary, and (ii) Fifty Thousand and No/100 "
            "Dollars ($50,000) thereafter.",
            "100000.00",
        ),
        ("Security Deposit: None.", "0.00"),
        ("Sublessor and Sublessee agree that there shall be no initial security deposit.", "0.00"),
        (
            "As of the date of this lease, no security deposit is being required from Tenant.",
            "0.00",
        ),
    ],
)
def test_deposit(sentence: str, expected: str) -> None:
    raw = deposit(sentence)
    assert raw is not None
    assert raw.value == expected


def test_never_mentioned_is_null() -> None:
    assert deposit("Tenant shall pay Base Rent of $5,000.00 per month.") is None


def test_words_that_agree_with_an_explicit_deposit_check_it() -> None:
    raw = deposit(
        "Tenant shall deposit with Landlord a security deposit in the amount of Ten Thousand "
        "and 00/100 Dollars ($10,000.00)."
    )
    assert raw is not None
    assert raw.value == "10000.00"
    assert raw.evidence["statements"] == 1
    assert raw.evidence["checks"] >= 1
    assert "checked by: words agree with figures" in raw.notes


def test_a_bare_figure_is_stated_and_unchecked() -> None:
    raw = deposit("Tenant shall deposit with Landlord a security deposit of $10,000.00.")
    assert raw is not None
    assert raw.value == "10000.00"
    assert raw.evidence["statements"] == 1
    assert raw.evidence["checks"] == 0


def test_a_contingent_deposit_is_not_the_deposit() -> None:
    raw = deposit(
        "There shall be no initial security deposit. Landlord reserves the right to demand a "
        "deposit of $20,000 should Tenant default. Upon such demand Tenant shall pay "
        "$20,000.00 as security for its obligations."
    )
    assert raw is not None
    assert raw.value == "0.00"


def test_a_letter_of_credit_besides_a_cash_deposit_is_not_the_deposit() -> None:
    raw = deposit(
        "4.1 Security Deposit. Tenant shall deposit the sum of $23,000.00 as a Security Deposit.",
        "4.2 Letter of Credit. Tenant shall also deliver a Letter of Credit of $37,000.00.",
    )
    assert raw is not None
    assert raw.value == "23000.00"


def test_none_and_a_letter_of_credit_conflict() -> None:
    raw = deposit(
        "1.12 Security Deposit. As of the Date of this Lease, there is no Security Deposit.",
        "1.13 Letter of Credit. Tenant shall deliver a Letter of Credit in the amount of "
        "$100,000.00.",
    )
    assert raw is not None
    assert raw.value == "0.00"
    assert "'100000.00'" in raw.doubts[Doubt.RIVAL_VALUE]


def test_a_summary_line_in_words_and_figures_is_checked() -> None:
    raw = deposit(
        "Security Deposit: Five Hundred Thousand and 00/100 ($500,000.00) Dollars, subject to "
        "reduction in accordance with Section 16.26"
    )
    assert raw is not None
    assert raw.value == "500000.00"
    assert raw.evidence["checks"] >= 1
    assert "checked by: words agree with figures" in raw.notes


def test_the_words_of_an_extra_letter_of_credit_are_no_rival() -> None:
    raw = deposit(
        "4.1 Security Deposit. Tenant shall deposit the sum of Twenty Three Thousand and "
        "00/100 Dollars ($23,000.00) as a Security Deposit.",
        "4.2 Letter of Credit. Tenant shall also deliver a Letter of Credit in the amount of "
        "Thirty Seven Thousand and 00/100 Dollars ($37,000.00).",
    )
    assert raw is not None
    assert raw.value == "23000.00"
    assert raw.evidence["rival_statements"] == 0
    assert Doubt.RIVAL_VALUE not in raw.doubts


@pytest.mark.parametrize(
    "sentence",
    [
        "Tenant shall deposit with Landlord a security deposit equal to three (3) months' Base "
        "Rent, being $7,500.00.",
        "Tenant will give Landlord a refundable three month Security Deposit ($7,500.00) "
        "on signing.",
    ],
)
def test_a_deposit_stated_as_months_of_rent_is_checked_by_the_rent(sentence: str) -> None:
    rent = "Tenant shall pay monthly Base Rent of $2,500.00 on the first day of each month. "
    found = by_name(extract_financials(document(rent + sentence + FILLER)))["security_deposit"]
    assert found.value == "7500.00"
    assert found.evidence["checks"] >= 1
    assert any("3 × monthly rent" in note for note in found.notes)


def test_months_of_rent_that_do_not_add_up_check_nothing() -> None:
    text = (
        "Tenant shall pay monthly Base Rent of $2,500.00 on the first day of each month. Tenant "
        "shall deposit a security deposit equal to two (2) months' Base Rent, being $7,500.00."
    )
    found = by_name(extract_financials(document(text + FILLER)))["security_deposit"]
    assert found.evidence["checks"] == 0
    assert not any("monthly rent" in note for note in found.notes)


# ---------------------------------------------------------------- what is not the security
# deposit (issue 19)


@pytest.mark.parametrize(
    "text",
    [
        # a pet deposit, a key deposit, a holding deposit
        "Tenant shall pay a pet deposit of $300.00 for each pet.",
        "A key deposit of $100.00 is due at move-in.",
        "The holding deposit of $250.00 will be applied to the first month's rent.",
        # a fee after the deposit's name
        "If Tenant fails to give notice, Tenant forfeits the security deposit and shall pay a "
        "$100.00 administration fee.",
        "Upon move-out the security deposit will be charged $100 cleaning fee.",
        # a threshold in a covenant, and a letter of credit's rights
        "Excluded Assets: (i) letter of credit rights (other than to the extent a lien on such "
        "rights can be perfected by filing a UCC-1), and commercial tort claims with a value of "
        "less than Fifteen Million and No/100 Dollars ($15,000,000.00).",
        # a loan
        "The security for the loan of $2,000,000.00 shall be a mortgage on the Property.",
    ],
)
def test_other_deposits_fees_and_sums_are_not_the_security_deposit(text: str) -> None:
    assert deposit(text + FILLER) is None


def test_the_security_deposit_beside_a_pet_deposit() -> None:
    text = (
        "Security Deposit: $1,300.00. Pet Deposit: $300.00. The security deposit is held "
        "against damage." + FILLER
    )
    found = deposit(text)
    assert found is not None
    assert found.value == "1300.00"
