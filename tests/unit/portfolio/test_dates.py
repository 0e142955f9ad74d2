"""Critical dates of a lease whose windows are known (portfolio/dates.py): each date, how it
was computed, its citations, and a confidence no higher than its weakest input."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lease_parser.portfolio.dates import CriticalDate, EventKind, critical_dates, within
from lease_parser.portfolio.terms import current_terms
from tests.unit.portfolio.helpers import LEASE, amendment, stored


def dates_of(values: dict[str, Any], confidence: float = 0.95) -> list[CriticalDate]:
    return critical_dates(current_terms(stored(values, confidence), []))


def by_kind(events: list[CriticalDate]) -> dict[tuple[str, int | None], dt.date]:
    return {(e.kind.value, e.option): e.date for e in events}


def test_the_known_windows_of_a_lease() -> None:
    assert by_kind(dates_of(LEASE)) == {
        ("expiration", None): dt.date(2030, 7, 31),
        ("renewal_notice_opens", 1): dt.date(2029, 7, 31),
        ("renewal_notice_deadline", 1): dt.date(2029, 10, 31),
        ("rent_step", None): dt.date(2027, 5, 1),  # the last of the steps, keyed once
    }
    steps = [e.date for e in dates_of(LEASE) if e.kind is EventKind.RENT_STEP]
    assert steps == [dt.date(2026, 5, 1), dt.date(2027, 5, 1)]


def test_the_expiration_is_derived_when_not_stated() -> None:
    values = {k: v for k, v in LEASE.items() if k != "expiration_date"}
    [expiration] = [e for e in dates_of(values) if e.kind is EventKind.EXPIRATION]
    # 63 months from May 1, 2025 end the day before August 1, 2030.
    assert expiration.date == dt.date(2030, 7, 31)
    assert {c.field for c in expiration.citations} == {"commencement_date", "term_months"}


def test_later_options_count_from_the_end_of_the_earlier_renewal_terms() -> None:
    values = {
        **LEASE,
        "renewal_option_count": "2",
        "renewal_notice": {"least": {"count": 180, "unit": "days"}, "most": None},
    }
    got = by_kind(dates_of(values))
    assert got[("renewal_notice_deadline", 1)] == dt.date(2030, 7, 31) - dt.timedelta(180)
    assert got[("renewal_notice_deadline", 2)] == dt.date(2035, 7, 31) - dt.timedelta(180)
    assert ("renewal_notice_opens", 1) not in got  # no "most": no opening date


def test_a_derived_date_is_no_more_probable_than_its_weakest_input() -> None:
    lease = stored(LEASE, confidence=0.97)
    lease.fields["renewal_notice"]["confidence"] = 0.62  # type: ignore[index]
    events = critical_dates(current_terms(lease, []))
    deadline = next(e for e in events if e.kind is EventKind.RENEWAL_NOTICE_DEADLINE)
    expiration = next(e for e in events if e.kind is EventKind.EXPIRATION)
    assert deadline.confidence == 0.62
    assert expiration.confidence == 0.97
    assert not deadline.confirmed(0.9)
    assert expiration.confirmed(0.9)
    # It cites every statement it was computed from.
    assert {c.field for c in deadline.citations} == {
        "expiration_date",
        "renewal_option_count",
        "renewal_notice",
    }
    assert all(c.document.doc_key == "leases/brightwater.pdf" for c in deadline.citations)


def test_a_break_option_and_its_notice() -> None:
    values = {
        **LEASE,
        "termination_option_date": "2028-04-30",
        "termination_notice": {"least": {"count": 6, "unit": "months"}, "most": None},
    }
    got = by_kind(dates_of(values))
    assert got[("break_date", None)] == dt.date(2028, 4, 30)
    assert got[("break_notice_deadline", None)] == dt.date(2027, 10, 30)


def test_rent_commencement_after_free_months() -> None:
    values = {
        **LEASE,
        "rent_schedule": [
            {"start": 1, "end": 3, "monthly": "0.00", "annual": None},
            {"start": 4, "end": 63, "monthly": "20000.00", "annual": None},
        ],
    }
    events = dates_of(values)
    [commences] = [e for e in events if e.kind is EventKind.RENT_COMMENCEMENT]
    assert commences.date == dt.date(2025, 8, 1)
    assert not [e for e in events if e.kind is EventKind.RENT_STEP]


def test_an_amendments_extension_moves_the_windows() -> None:
    extension = amendment({"lease_date": "2029-06-15", "expiration_date": "2035-07-31"}, 1)
    events = critical_dates(current_terms(stored(LEASE), [extension]))
    got = by_kind(events)
    assert got[("expiration", None)] == dt.date(2035, 7, 31)
    assert got[("renewal_notice_deadline", 1)] == dt.date(2034, 10, 31)
    [expiration] = [e for e in events if e.kind is EventKind.EXPIRATION]
    assert expiration.citations[0].document.title == "Amendment 1"


def test_nothing_to_compute_nothing_listed() -> None:
    assert dates_of({"tenant": "Brightwater Labs, Inc.", "renewal_option_count": "2"}) == []


def test_within_selects_a_span_in_date_order() -> None:
    events = dates_of(LEASE)
    start, end = dt.date(2029, 1, 1), dt.date(2029, 12, 31)
    assert [e.kind.value for e in within(events, start, end)] == [
        "renewal_notice_opens",
        "renewal_notice_deadline",
    ]
    assert within(events, None, None) == sorted(events, key=lambda e: e.date)
