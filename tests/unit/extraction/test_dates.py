"""Dates in the forms leases write them."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lease_parser.extraction.dates import MONTHS, find_dates, parse_date, writes_day_first


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("June 3, 2015", "2015-06-03"),
        ("JUNE 3, 2015", "2015-06-03"),
        ("Jun. 3rd, 2015", "2015-06-03"),
        ("Sept 30 2011", "2011-09-30"),
        ("June 3rd , 2015", "2015-06-03"),
        ("3 June 2015", "2015-06-03"),
        ("3rd of June, 2015", "2015-06-03"),
        ("the 3rd day of June, 2015", "2015-06-03"),
        ("this 3 day of June 2015", "2015-06-03"),
        ("the third day of June, 2015", "2015-06-03"),
        ("the twenty-first day of March, 1999", "1999-03-21"),
        ("6/3/2015", "2015-06-03"),
        ("06-03-15", "2015-06-03"),
        ("2015-06-03", "2015-06-03"),
        ("Signed: 6/3/15_______", "2015-06-03"),
    ],
)
def test_date_forms(text: str, iso: str) -> None:
    found = list(find_dates(text))
    assert [d.value.isoformat() for d in found] == [iso]


@pytest.mark.parametrize(
    "text",
    [
        "the ____ day of June, 2015",  # a blank is not a date
        "the 3rd day of June",  # no year
        "February 30, 2015",  # no such day
        "Section 12/40 of the Code",
        "$1,200.00 per month",
        "Suite 2015-06",
    ],
)
def test_not_dates(text: str) -> None:
    assert list(find_dates(text)) == []


def test_spans_point_at_the_date() -> None:
    text = "made as of the 9th day of May, 2012, by and between"
    (found,) = find_dates(text)
    assert text[found.start : found.end] == "9th day of May, 2012"


def test_parse_date_is_whole_string_only() -> None:
    assert parse_date(" March 1, 2020 ") == dt.date(2020, 3, 1)
    assert parse_date("on March 1, 2020") is None


@given(st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2069, 12, 31)))
def test_every_written_form_round_trips(day: dt.date) -> None:
    month = list(MONTHS)[day.month - 1].capitalize()
    for text in (
        f"{month} {day.day}, {day.year}",
        f"{day.day} {month} {day.year}",
        f"the {day.day}th day of {month}, {day.year}",
        f"{day.month}/{day.day}/{day.year}",
        day.isoformat(),
    ):
        assert [d.value for d in find_dates(text)] == [day], text


def test_a_date_that_can_only_be_day_first_is_read_day_first() -> None:
    assert [d.value.isoformat() for d in find_dates("beginning on 14/09/2024")] == ["2024-09-14"]


def test_a_document_that_writes_its_dates_day_first_is_read_day_first() -> None:
    text = "Agreement dated 28/06/2024. Tenancy beginning on 14/09/2024 ending on 05/09/2025."
    assert writes_day_first(text)
    found = [d.value.isoformat() for d in find_dates(text, day_first=writes_day_first(text))]
    assert found == ["2024-06-28", "2024-09-14", "2025-09-05"]
    # An American lease's figures stay month first.
    us = "commencing on 06/16/2023 and ending on 05/09/2024"
    assert not writes_day_first(us)
    assert [d.value.isoformat() for d in find_dates(us)] == ["2023-06-16", "2024-05-09"]


def test_two_digit_years() -> None:
    assert [d.value.isoformat() for d in find_dates("made this 9/24/23 day")] == ["2023-09-24"]
