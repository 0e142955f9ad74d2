"""Critical dates scored against what the labels let one compute (``make measure-dates``).

For each labelled document, the dates its labels determine:

- the **expiration**: the labelled expiration date, else the labelled commencement date +
  term (the day before the anniversary); a document whose labels say it states neither
  (expiration ``null``, and commencement or term ``null``) must list no expiration;
- each **renewal notice window** (its deadline, and its opening when the notice has a
  ``most``): from that expiration, the labelled option count and renewal term, and the
  notice period. The corpus labels have no notice periods: they come from a second,
  single-reader file (tests/fixtures/dev_notice_labels.json); a document labelled with
  no renewal option must list no window;
- the **break date** and its notice deadline, from the same second file.

Each is compared with the dates listed from the document's own abstraction (its own terms,
no amendments applied: the labels are the document's own terms). A listed date is *right*
when it equals the computed one; *wrong at the gate* when it differs (or should not be
listed) and its confidence is at or above the gate. Pure: no store.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lease_parser.model import AbstractionResult, NoticeWindow, abstraction_fields_json
from lease_parser.portfolio.dates import CriticalDate, EventKind, before, critical_dates
from lease_parser.portfolio.schedule import months_after
from lease_parser.portfolio.terms import SourceDocument, Stored, current_terms

SCORED = (
    EventKind.EXPIRATION,
    EventKind.RENEWAL_NOTICE_DEADLINE,
    EventKind.RENEWAL_NOTICE_OPENS,
    EventKind.BREAK_DATE,
    EventKind.BREAK_NOTICE_DEADLINE,
)
Key = tuple[EventKind, int | None]


def _date(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(value) if isinstance(value, str) else None


_ABSENT = object()


def expected_expiration(labels: Mapping[str, Any]) -> tuple[bool, dt.date | None]:
    """(whether the labels decide it, the date or None for "states none")."""
    stated = labels.get("expiration_date", _ABSENT)
    if isinstance(stated, str):
        return True, dt.date.fromisoformat(stated)
    start, months = labels.get("commencement_date"), labels.get("term_months")
    if isinstance(start, str) and isinstance(months, int):
        return True, months_after(dt.date.fromisoformat(start), months) - dt.timedelta(days=1)
    unstated = (
        labels.get("commencement_date", _ABSENT) is None or labels.get("term_months", 0) is None
    )
    if stated is None and unstated:
        return True, None
    return False, None


def _renewals(
    end: dt.date, labels: Mapping[str, Any], notices: Mapping[str, Any]
) -> dict[Key, dt.date | None]:
    count = labels.get("renewal_option_count")
    if count == 0:
        return {
            (EventKind.RENEWAL_NOTICE_DEADLINE, 1): None,
            (EventKind.RENEWAL_NOTICE_OPENS, 1): None,
        }
    notice = notices.get("renewal_notice")
    if not isinstance(count, int) or not isinstance(notice, dict):
        return {}
    window = NoticeWindow.model_validate(notice)
    length = labels.get("renewal_term_months")
    out: dict[Key, dt.date | None] = {}
    for option in range(1, count + 1):
        if option > 1:
            if not isinstance(length, int):
                break
            end = months_after(end + dt.timedelta(days=1), length) - dt.timedelta(days=1)
        out[(EventKind.RENEWAL_NOTICE_DEADLINE, option)] = before(end, window.least)
        if window.most is not None:
            out[(EventKind.RENEWAL_NOTICE_OPENS, option)] = before(end, window.most)
    return out


def _break(notices: Mapping[str, Any]) -> dict[Key, dt.date | None]:
    on = _date(notices.get("termination_option_date"))
    if on is None:
        return {}
    out: dict[Key, dt.date | None] = {(EventKind.BREAK_DATE, None): on}
    notice = notices.get("termination_notice")
    if isinstance(notice, dict):
        least = NoticeWindow.model_validate(notice).least
        out[(EventKind.BREAK_NOTICE_DEADLINE, None)] = before(on, least)
    return out


def expected_dates(
    labels: Mapping[str, Any], notices: Mapping[str, Any]
) -> dict[Key, dt.date | None]:
    """The dates the labels determine, by (kind, option); None: must not be listed."""
    out: dict[Key, dt.date | None] = {}
    decided, end = expected_expiration(labels)
    if decided:
        out[(EventKind.EXPIRATION, None)] = end
    if end is not None:
        out.update(_renewals(end, labels, notices))
    out.update(_break(notices))
    return out


def listed_dates(name: str, result: AbstractionResult) -> list[CriticalDate]:
    """The critical dates of a document's own abstraction."""
    if result.abstraction is None:
        return []
    fields = abstraction_fields_json(result.abstraction)
    source = SourceDocument(name, name, "document", None, result.route.value)
    return critical_dates(current_terms(Stored(source, fields), []))


@dataclass
class DateCheck:
    file: str
    kind: str
    option: int | None
    expected: str | None  # None: the labels say there is no such date
    listed: str | None
    confidence: float | None
    at_gate: bool

    @property
    def right(self) -> bool:
        return self.expected == self.listed

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "right": self.right}


@dataclass
class DatesReport:
    gate: float
    checks: list[DateCheck] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"gate": self.gate}
        groups = {
            "expiration": (EventKind.EXPIRATION.value,),
            "renewal_window": (
                EventKind.RENEWAL_NOTICE_DEADLINE.value,
                EventKind.RENEWAL_NOTICE_OPENS.value,
            ),
            "break": (EventKind.BREAK_DATE.value, EventKind.BREAK_NOTICE_DEADLINE.value),
        }
        for group, kinds in groups.items():
            checks = [c for c in self.checks if c.kind in kinds]
            computable = [c for c in checks if c.expected is not None]
            out[group] = {
                "computable": len(computable),
                "listed": sum(c.listed is not None for c in computable),
                "right": sum(c.right for c in computable),
                "right_at_gate": sum(c.right and c.at_gate for c in computable),
                "wrong_at_gate": sum(c.at_gate and not c.right for c in checks),
                "wrong_below_gate": sum(
                    (not c.at_gate) and c.listed is not None and not c.right for c in checks
                ),
            }
        return out

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "checks": [c.to_json() for c in self.checks]}


def check_document(
    name: str,
    result: AbstractionResult,
    labels: Mapping[str, Any],
    notices: Mapping[str, Any],
    gate: float,
) -> list[DateCheck]:
    """Each date the labels decide, against what was listed; and each scored kind listed
    that the labels do not expect, when they say the document states none."""
    listed = {(e.kind, e.option): e for e in listed_dates(name, result) if e.kind in SCORED}
    checks = []
    for (kind, option), expected in expected_dates(labels, notices).items():
        event = listed.get((kind, option))
        checks.append(
            DateCheck(
                name,
                kind.value,
                option,
                expected.isoformat() if expected else None,
                event.date.isoformat() if event else None,
                round(event.confidence, 4) if event else None,
                bool(event and event.confidence >= gate),
            )
        )
    return checks
