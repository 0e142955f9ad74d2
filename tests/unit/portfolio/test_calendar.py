"""Critical dates as an iCalendar file (portfolio/calendar.py), read back with the icalendar
library: one event per date with its lease and citation, reminders before deadlines."""

from __future__ import annotations

import datetime as dt

from icalendar import Calendar

from lease_parser.portfolio.calendar import ics_bytes
from lease_parser.portfolio.dates import critical_dates
from lease_parser.portfolio.terms import current_terms
from tests.unit.portfolio.helpers import LEASE, stored

STAMP = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)


def read_back(values: dict[str, object], remind: int = 30) -> list[dict[str, object]]:
    events = critical_dates(current_terms(stored(values), []))
    calendar = Calendar.from_ical(ics_bytes(events, 0.9, remind, STAMP))
    out = []
    for event in calendar.walk("VEVENT"):
        out.append(
            {
                "uid": str(event.get("uid")),
                "date": event.get("dtstart").dt,
                "end": event.get("dtend").dt,
                "summary": str(event.get("summary")),
                "description": str(event.get("description")),
                "alarms": [a.get("trigger").dt for a in event.walk("VALARM")],
            }
        )
    return out


def test_one_event_per_critical_date_with_lease_and_citation() -> None:
    events = read_back(LEASE)
    assert [e["date"] for e in events] == [
        dt.date(2026, 5, 1),
        dt.date(2027, 5, 1),
        dt.date(2029, 7, 31),
        dt.date(2029, 10, 31),
        dt.date(2030, 7, 31),
    ]
    deadline = events[3]
    assert deadline["end"] == dt.date(2029, 11, 1)  # an all-day event
    assert "Renewal option 1 of 1: last day to give notice" in str(deadline["summary"])
    assert "Brightwater Labs, Inc." in str(deadline["summary"])
    description = str(deadline["description"])
    assert "Lease: leases/brightwater.pdf (sha256 " + "a" * 64 + ")" in description
    assert '- renewal_notice (leases/brightwater.pdf p.1): "... renewal_notice ..."' in description
    assert len({e["uid"] for e in events}) == len(events)


def test_a_reminder_before_each_notice_deadline_only() -> None:
    events = read_back(LEASE, remind=45)
    with_alarm = [e for e in events if e["alarms"]]
    assert [e["date"] for e in with_alarm] == [dt.date(2029, 10, 31)]
    assert with_alarm[0]["alarms"] == [dt.timedelta(days=-45)]
    assert not [e for e in read_back(LEASE, remind=0) if e["alarms"]]


def test_a_date_below_the_gate_says_check_the_lease() -> None:
    events = critical_dates(current_terms(stored(LEASE, confidence=0.5), []))
    calendar = Calendar.from_ical(ics_bytes(events, 0.9, 30, STAMP))
    first = next(iter(calendar.walk("VEVENT")))
    assert str(first.get("summary")).endswith("[check]")
    assert "below the gate 0.90: check the lease" in str(first.get("description"))


def test_hostile_lease_text_stays_inside_its_property() -> None:
    tenant = 'Evil Corp\nBEGIN:VEVENT\nSUMMARY:injected;X-ALT-DESC="=cmd|x"'
    lease = stored(LEASE)
    lease.fields["tenant"]["value"] = tenant  # type: ignore[index]  # as a worker stored it
    events = critical_dates(current_terms(lease, []))
    calendar = Calendar.from_ical(ics_bytes(events, 0.9, 30, STAMP))
    read = list(calendar.walk("VEVENT"))
    assert len(read) == 5  # no event was injected
    assert all(f"Tenant: {tenant}" in str(e.get("description")) for e in read)
    assert all(str(e.get("summary")).endswith(tenant) for e in read)
