"""Calendar arithmetic leases use: months counted from a date, schedules by month number.

"nine (9) months prior to the Expiration Date" of March 31 is June 30 of the year before
(the same day of the month, or the month's last day when it has no such day: six months
before August 31 is February 28 or 29). "Months 13-24" of a term commencing May 1, 2025
run from May 1, 2026 to April 30, 2027.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Any


def months_after(date: dt.date, months: int) -> dt.date:
    """``date`` moved by ``months`` calendar months (negative: before), clamped to the end
    of the month."""
    index = date.year * 12 + date.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(date.day, last))


def month_start(commencement: dt.date, month: int) -> dt.date:
    """The first day of the term's ``month``-th month (1-based)."""
    return months_after(commencement, month - 1)


def month_end(commencement: dt.date, month: int) -> dt.date:
    """The last day of the term's ``month``-th month."""
    return months_after(commencement, month) - dt.timedelta(days=1)


def _bound(value: Any, commencement: dt.date, end: bool) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    day = month_end(commencement, value) if end else month_start(commencement, value)
    return day.isoformat()


def dated_steps(steps: list[dict[str, Any]], commencement: dt.date) -> list[dict[str, Any]]:
    """A rent schedule with month numbers turned into dates from ``commencement``."""
    return [
        {
            **step,
            "start": _bound(step.get("start"), commencement, end=False),
            "end": _bound(step.get("end"), commencement, end=True),
        }
        for step in steps
    ]
