"""Numbers in words and figures."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lease_parser.extraction.numbers import (
    COUNT,
    NUMBER_WORDS,
    ordinal_value,
    parse_count,
    parse_figure,
    words_to_amount,
    words_to_int,
)
from tests.unit.extraction.spelling import spell, spell_dollars


@given(st.integers(min_value=0, max_value=999_999_999))
def test_words_to_int_reads_every_spelled_integer(n: int) -> None:
    assert words_to_int(spell(n)) == n


@given(st.integers(min_value=1, max_value=99_999_999), st.integers(min_value=0, max_value=99))
def test_words_to_amount_reads_dollars_and_cents(whole: int, cents: int) -> None:
    amount = Decimal(whole) + Decimal(cents) / 100
    assert words_to_amount(spell_dollars(amount)) == amount


@given(st.integers(min_value=1, max_value=999_999))
def test_number_words_pattern_spans_the_whole_spelling(n: int) -> None:
    spelled = spell(n)
    match = re.fullmatch(NUMBER_WORDS, spelled, re.IGNORECASE)
    assert match is not None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Fifteen Thousand and 00/100", Decimal("15000.00")),
        ("One Million Two Hundred Thousand and No/100 Dollars", Decimal("1200000")),
        ("One Hundred Thousand Dollars and XX/100 Dollars", Decimal("100000")),
        ("Five Hundred Ninety-Five Dollars and Fifty Cents", Decimal("595.50")),
        ("a hundred dollars", Decimal("100")),
        ("Twenty Three Thousand Eight Hundred Twenty Seven and 96/100", Decimal("23827.96")),
    ],
)
def test_words_to_amount_forms(text: str, expected: Decimal) -> None:
    assert words_to_amount(text) == expected


@pytest.mark.parametrize("text", ["", "and", "several", "a", "one banana"])
def test_words_to_int_rejects_non_numbers(text: str) -> None:
    assert words_to_int(text) is None


def test_a_lone_article_is_not_the_number_one() -> None:
    assert re.search(NUMBER_WORDS, "for a period of", re.IGNORECASE) is None
    assert re.search(NUMBER_WORDS, "a hundred", re.IGNORECASE) is not None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("15,000.00", Decimal("15000.00")),
        ("595", Decimal(595)),
        ("149,210 .08", Decimal("149210.08")),
    ],
)
def test_parse_figure(text: str, expected: Decimal) -> None:
    assert parse_figure(text) == expected


@pytest.mark.parametrize("text", ["1,50", "15,0000", "abc", "1.2.3", ""])
def test_parse_figure_rejects_malformed(text: str) -> None:
    assert parse_figure(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [("two (2)", (2, True)), ("three (2)", (2, False)), ("two", (2, None)), ("(4)", (4, None))],
)
def test_parse_count_compares_words_and_figure(
    text: str, expected: tuple[int, bool | None]
) -> None:
    match = re.search(COUNT, text, re.IGNORECASE)
    assert match is not None
    assert parse_count(match) == expected


@pytest.mark.parametrize(
    ("word", "expected"), [("third", 3), ("3rd", 3), ("Twelfth", 12), ("x", None)]
)
def test_ordinal_value(word: str, expected: int | None) -> None:
    assert ordinal_value(word) == expected
