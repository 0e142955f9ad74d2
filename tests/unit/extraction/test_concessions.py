"""The letter of credit, free rent, the TI allowance, percentage rent and the expense base
year, read from lease sentences (extraction/concessions.py)."""

from __future__ import annotations

import json

import pytest

from lease_parser.extraction.base import RawField
from lease_parser.extraction.concessions import extract_concessions
from tests.unit.extraction.lease_text import by_name, document

FILLER = " The parties agree to the terms below." * 20


def read(name: str, *sentences: str) -> RawField | None:
    text = "LEASE AGREEMENT." + FILLER + " " + " ".join(sentences) + FILLER
    return by_name(extract_concessions(document(text))).get(name)


def value(name: str, *sentences: str) -> str | None:
    raw = read(name, *sentences)
    return None if raw is None else raw.value


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "1.13 Letter of Credit. Upon Tenant's execution of this Lease, Tenant shall deliver to "
            "Landlord a Letter of Credit in the amount of $100,000.00.",
            "100000.00",
        ),
        ("Letter of Credit: $250,000.00", "250000.00"),
        (
            "Tenant shall provide an irrevocable Letter of Credit in the amount of Thirty Seven "
            "Thousand and no/100 Dollars ($37,000) in favor of Landlord.",
            "37000.00",
        ),
        (
            '"Security Deposit" shall mean a letter of credit in the amount of Fifty Thousand '
            "Dollars ($50,000.00).",
            "50000.00",
        ),
        # Not a letter of credit's amount: none required, a reduction, another sum.
        ("No letter of credit shall be required under this Lease.", None),
        (
            "The amount of the Letter of Credit may be reduced by $50,000.00 on each Reduction "
            "Date.",
            None,
        ),
        ("Tenant shall pay a security deposit of $5,000.00.", None),
        (
            "The Letter of Credit shall secure Tenant's obligations. Base Rent shall be $9,000.00 "
            "per month.",
            None,
        ),
    ],
)
def test_letter_of_credit(sentence: str, expected: str | None) -> None:
    assert value("letter_of_credit", sentence) == expected


def test_a_letter_of_credit_the_lease_also_states_otherwise_is_a_note_not_a_doubt() -> None:
    raw = read(
        "letter_of_credit",
        "Letter of Credit: $100,000.00.",
        "Tenant shall deliver a Letter of Credit in the amount of $250,000.00.",
    )
    assert raw is not None
    assert raw.value in {"100000.00", "250000.00"}
    assert raw.doubts == {}
    assert [r.value for r in raw.rivals]  # the other amount, still cited


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Base Rent shall be abated for the first six (6) months of the Term.", "6"),
        (
            "Tenant shall be entitled to an abatement of the Base Rental for the first three (3) "
            "full calendar months of the Lease Term.",
            "3",
        ),
        ('The "Rent Credit Period" shall be the first six full calendar months of the Term.', "6"),
        ("The first two months of the Term shall be free rent months.", "2"),
        # Remedies and other abatements are not free rent.
        (
            "If the Premises are damaged by casualty, Rent shall be abated for the first six (6) "
            "months of the repair.",
            None,
        ),
        (
            "Fixed Rent shall abate on a day for day basis for the first 30 days of delay.",
            None,
        ),
        ("Rent shall be paid without abatement, deduction or offset.", None),
        ("Base Rent for the first twelve (12) months shall be $5,000.00 per month.", None),
    ],
)
def test_free_rent_months(sentence: str, expected: str | None) -> None:
    assert value("free_rent_months", sentence) == expected


@pytest.mark.parametrize(
    ("sentences", "expected"),
    [
        (
            (
                "Landlord shall provide a Tenant Improvement Allowance of $25.00 per rentable "
                "square foot.",
            ),
            {"amount": "25.00", "per": "per_sqft"},
        ),
        (
            ("1.17 Tenant Improvement Allowance. $1,350,000.00 ($100.00 /sf), to be paid.",),
            {"amount": "1350000.00", "per": "total"},
        ),
        (
            (
                "Landlord shall pay for the Tenant Improvements at a cost not to exceed $2,156,115 "
                '(based upon $15 per rentable square foot) (the "TI Allowance").',
            ),
            {"amount": "2156115.00", "per": "total"},
        ),
        (
            (
                "Landlord shall provide a construction allowance of $195,524.00.",
                "Landlord shall also provide an improvement allowance of $12.00 per square foot "
                "for the expansion space.",
            ),
            {"amount": "195524.00", "per": "total"},
        ),
        (("Tenant shall pay a moving fee of $2,000.00.",), None),
        (
            (
                "If the cost is less than the Improvement Allowance, Tenant may use the excess, "
                "but no more than $2.00 per square foot, for moving costs.",
            ),
            None,
        ),
    ],
)
def test_ti_allowance(sentences: tuple[str, ...], expected: dict[str, str] | None) -> None:
    found = value("ti_allowance", *sentences)
    assert (json.loads(found) if found else None) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Tenant shall pay percentage rent equal to five percent (5%) of Gross Sales in excess "
            "of the Breakpoint.",
            "5",
        ),
        ("5. PERCENTAGE RENT. (a) 55% of Gross Revenue to Landlord until the hurdle.", "55"),
        ("Percentage Rent: 6.5% of Tenant's gross receipts.", "6.5"),
        ("Tenant shall pay no percentage rent.", None),
        ("Base Rent shall increase by three percent (3%) of the prior year's rent.", None),
    ],
)
def test_percentage_rent(sentence: str, expected: str | None) -> None:
    assert value("percentage_rent", sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Base Year: calendar year 2008.", "2008"),
        ('(d) "Base Year" shall mean calendar year 2019.', "2019"),
        ("The Base Year for the Sublease shall be 2005.", "2005"),
        ('Operating Expenses for calendar year 2012 (the "Base Year").', "2012"),
        ("BASE YEAR (EXPENSES): Expenses for January 1, 2006 to December 31, 2006.", "2006"),
        (
            "If the Index is changed so that the base year differs from 1982, it shall be "
            "converted.",
            None,
        ),
        ("Tenant shall pay its share of Base Year Taxes.", None),
    ],
)
def test_expense_base_year(sentence: str, expected: str | None) -> None:
    assert value("expense_base_year", sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Expense Stop: $9.75 per rentable square foot.", {"amount": "9.75", "per": "per_sqft"}),
        (
            "Tenant shall pay Operating Expenses in excess of $8.50 per rentable square foot per "
            'year (the "Expense Stop").',
            {"amount": "8.50", "per": "per_sqft"},
        ),
        ("The Expense Stop shall be $125,000.00.", {"amount": "125000.00", "per": "total"}),
        ("Tenant shall pay the Security Deposit of $9,000.00 before the Expense Stop.", None),
    ],
)
def test_expense_stop(sentence: str, expected: dict[str, str] | None) -> None:
    found = value("expense_stop", sentence)
    assert (json.loads(found) if found else None) == expected
