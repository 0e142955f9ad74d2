"""Money in words and figures, with the unit written after it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lease_parser.extraction.money import Per, find_money, format_money
from tests.unit.extraction.spelling import spell_dollars

amounts = st.decimals(
    min_value=Decimal("0.01"), max_value=Decimal("99999999.99"), places=2, allow_nan=False
)


@given(amounts)
def test_formatted_money_reads_back(amount: Decimal) -> None:
    [mention] = find_money(f"Tenant shall pay {format_money(amount)} on the first day.")
    assert mention.amount == amount
    assert mention.words_agree is None


@given(amounts)
def test_words_and_figures_agree(amount: Decimal) -> None:
    text = f"the sum of {spell_dollars(amount)} ({format_money(amount)}) per month"
    [mention] = find_money(text)
    assert mention.amount == amount
    assert mention.words_agree is True
    assert mention.per is Per.MONTH
    assert text[mention.start : mention.end].startswith(spell_dollars(amount).split()[0])


@given(amounts, amounts)
def test_words_that_disagree_keep_the_figures(spelled: Decimal, written: Decimal) -> None:
    text = f"rent of {spell_dollars(spelled)} ({format_money(written)})"
    [mention] = find_money(text)
    assert mention.amount == written
    assert mention.words_agree is (spelled == written)


@pytest.mark.parametrize(
    ("text", "per"),
    [
        ("$22.75 per rentable square foot per annum", Per.SQFT),
        ("$38.00 per square foot", Per.SQFT),
        ("$37.00/RSF", Per.SQFT),
        ("$12.87 psf", Per.SQFT),
        ("$100 per annum per square foot", Per.SQFT),
        ("$4,000.00 per month", Per.MONTH),
        ("$4,000.00 each month", Per.MONTH),
        ("$48,000.00 per annum", Per.YEAR),
        ("$48,000.00 annually", Per.YEAR),
        ("$48,000.00 to Landlord", Per.NONE),
    ],
)
def test_unit_after_the_figure(text: str, per: Per) -> None:
    assert find_money(text)[0].per is per


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("($1,200,000) from the date", Decimal(1200000)),
        ("$ 42,750.00 for months", Decimal("42750.00")),
        ("$149,210 .08 per month", Decimal("149210.08")),
        ("One Hundred Thousand Dollars and XX/100 Dollars ($100,000.00).", Decimal("100000.00")),
        ("$595.00 (Five Hundred Ninety-Five Dollars)", Decimal("595.00")),
    ],
)
def test_figures_in_the_forms_leases_write(text: str, amount: Decimal) -> None:
    assert find_money(text)[0].amount == amount


@pytest.mark.parametrize(
    ("text", "currency"),
    [("A$1,000", "AUD"), ("AUD 1,000", "AUD"), ("C$500", "CAD"), ("£750", "GBP"), ("$10", "")],
)
def test_currency_markers(text: str, currency: str) -> None:
    assert find_money(text)[0].currency == currency


@pytest.mark.parametrize("text", ["$_______ per month", "$1,5000", "the sum of 5,000", "$5.123"])
def test_not_money(text: str) -> None:
    assert find_money(text) == []
