"""Critical dates as an iCalendar file (RFC 5545, written by the ``icalendar`` library).

One all-day event per date. Its summary names the event and the tenant; its description
the lease (key and hash), how the date was computed, its confidence (and "check the
lease" when it is below the gate) and every statement it rests on, with page and text.
Each notice deadline carries a reminder (a ``VALARM``) ``remind_days`` before it. The UID
is stable (lease hash, event kind, date), so importing an updated file into a calendar
updates events instead of doubling them.

Lease text is untrusted: it only ever enters text properties, which the library escapes
(a "\\n" or ";" in a tenant's name cannot start a new property).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable

from icalendar import Alarm, Calendar, Event

from lease_parser.portfolio.dates import DEADLINES, CriticalDate

PRODID = "-//lease_parser//critical dates//EN"
DEFAULT_REMIND_DAYS = 30


def _uid(event: CriticalDate) -> str:
    key = f"{event.lease.doc_hash}|{event.kind.value}|{event.date.isoformat()}|{event.summary}"
    return f"{hashlib.sha256(key.encode()).hexdigest()[:32]}@lease-parser"


def _description(event: CriticalDate, gate: float) -> str:
    lines = [
        event.summary,
        f"Lease: {event.lease.doc_key} (sha256 {event.lease.doc_hash})",
        f"Tenant: {event.tenant or '-'}",
        f"Premises: {event.premises or '-'}",
        f"Confidence: {event.confidence:.2f}"
        + ("" if event.confirmed(gate) else f" (below the gate {gate:.2f}: check the lease)"),
        "Cited:",
        *(f"- {citation}" for citation in event.citations),
    ]
    return "\n".join(lines)


def _event(event: CriticalDate, gate: float, remind_days: int, stamp: dt.datetime) -> Event:
    out = Event()
    out.add("uid", _uid(event))
    out.add("dtstamp", stamp)
    out.add("dtstart", event.date)
    out.add("dtend", event.date + dt.timedelta(days=1))
    mark = "" if event.confirmed(gate) else " [check]"
    out.add("summary", f"{event.summary} — {event.tenant or event.lease.doc_key}{mark}")
    out.add("description", _description(event, gate))
    out.add("categories", [event.kind.value])
    out.add("transp", "TRANSPARENT")
    if event.kind in DEADLINES and remind_days > 0:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("trigger", dt.timedelta(days=-remind_days))
        alarm.add("description", f"In {remind_days} days: {event.summary}")
        out.add_component(alarm)
    return out


def calendar_of(
    events: Iterable[CriticalDate],
    gate: float,
    remind_days: int = DEFAULT_REMIND_DAYS,
    stamp: dt.datetime | None = None,
) -> Calendar:
    """An iCalendar object with one event per critical date."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", "Lease critical dates")
    when = stamp or dt.datetime.now(dt.UTC).replace(microsecond=0)
    for event in events:
        cal.add_component(_event(event, gate, remind_days, when))
    return cal


def ics_bytes(
    events: Iterable[CriticalDate],
    gate: float,
    remind_days: int = DEFAULT_REMIND_DAYS,
    stamp: dt.datetime | None = None,
) -> bytes:
    return bytes(calendar_of(events, gate, remind_days, stamp).to_ical())
