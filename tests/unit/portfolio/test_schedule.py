"""Calendar arithmetic (portfolio/schedule.py): months from a date, clamped to the month's end."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lease_parser.portfolio.schedule import dated_steps, month_end, month_start, months_after


@pytest.mark.parametrize(
    ("date", "months", "expected"),
    [
        (dt.date(2030, 7, 31), -9, dt.date(2029, 10, 31)),
        (dt.date(2025, 3, 31), -6, dt.date(2024, 9, 30)),
        (dt.date(2028, 2, 29), -12, dt.date(2027, 2, 28)),
        (dt.date(2024, 8, 31), -6, dt.date(2024, 2, 29)),
        (dt.date(2025, 5, 1), 63, dt.date(2030, 8, 1)),
        (dt.date(2025, 12, 15), 1, dt.date(2026, 1, 15)),
    ],
)
def test_months_after(date: dt.date, months: int, expected: dt.date) -> None:
    assert months_after(date, months) == expected


@given(st.dates(dt.date(1950, 1, 1), dt.date(2150, 12, 31)), st.integers(-600, 600))
def test_months_after_keeps_the_day_or_ends_the_month(date: dt.date, months: int) -> None:
    moved = months_after(date, months)
    assert (moved.year * 12 + moved.month) - (date.year * 12 + date.month) == months
    assert moved.day == date.day or (moved.day < date.day and (moved + dt.timedelta(1)).day == 1)


def test_month_numbers_become_dates_from_the_commencement() -> None:
    start = dt.date(2025, 5, 1)
    assert (month_start(start, 13), month_end(start, 24)) == (
        dt.date(2026, 5, 1),
        dt.date(2027, 4, 30),
    )
    steps = [{"start": 1, "end": 12, "monthly": "1.00"}, {"start": "2026-05-01", "end": None}]
    assert dated_steps(steps, start) == [
        {"start": "2025-05-01", "end": "2026-04-30", "monthly": "1.00"},
        {"start": "2026-05-01", "end": None},
    ]
