"""Critical dates: the dated events a lease's current terms give, each citing its sources.

From a lease's current terms (terms.py: its values with its amendments applied):

- **expiration**: the stated expiration date, else commencement + term (the day before
  the anniversary: a 60-month term from May 1, 2025 ends April 30, 2030);
- **renewal notice window** of each option: its deadline is the end of the term the option
  follows minus the notice's ``least``, and it opens at the end minus ``most`` when the
  lease says notice may not come earlier. Option 1 follows the expiration; option *k*
  follows the (*k*−1)-th renewal term, so it is listed "if the earlier options are
  exercised";
- **break option**: the break date, and its notice deadline (and opening) likewise;
- **rent steps**: each step of the rent schedule after the first (month numbers dated from
  the commencement date), and the **rent commencement** when the first rent is due later
  than the commencement (free months first).

A derived date cites every statement it was computed from, and its confidence is the
smallest probability among them. That is arithmetic, not a weight: the date is right when
every input was read right, and the probability that several readings are all right is
at most the smallest of theirs (it equals it when the others are certain). Multiplying them
would assume the readings independent, which the relations between them (a notice period
and the expiration it counts back from are often one sentence apart) deny.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from lease_parser.model import NoticeWindow, Period, PeriodUnit
from lease_parser.portfolio.schedule import months_after
from lease_parser.portfolio.terms import CurrentTerms, SourceDocument, Term

# Options beyond this many are not diarised one by one (a 99-year lease with 20 options).
MAX_OPTIONS_LISTED = 5


class EventKind(StrEnum):
    EXPIRATION = "expiration"
    RENEWAL_NOTICE_OPENS = "renewal_notice_opens"
    RENEWAL_NOTICE_DEADLINE = "renewal_notice_deadline"
    BREAK_NOTICE_OPENS = "break_notice_opens"
    BREAK_NOTICE_DEADLINE = "break_notice_deadline"
    BREAK_DATE = "break_date"
    RENT_STEP = "rent_step"
    RENT_COMMENCEMENT = "rent_commencement"


# Events a reminder is set before (the ones that cost an option if missed).
DEADLINES = frozenset({EventKind.RENEWAL_NOTICE_DEADLINE, EventKind.BREAK_NOTICE_DEADLINE})


@dataclass(frozen=True)
class Citation:
    """A statement an event rests on: which field, which document, where."""

    field: str
    document: SourceDocument
    page: int | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "doc_hash": self.document.doc_hash,
            "doc_key": self.document.doc_key,
            "document": self.document.title,
            "page": self.page,
            "text": self.text,
        }

    def __str__(self) -> str:
        where = f"{self.document.doc_key}" + (f" p.{self.page}" if self.page else "")
        return f'{self.field} ({where}): "{self.text}"'


@dataclass
class CriticalDate:
    date: dt.date
    kind: EventKind
    lease: SourceDocument
    summary: str
    confidence: float
    citations: list[Citation] = field(default_factory=list)
    tenant: str | None = None
    premises: str | None = None
    option: int | None = None  # which renewal option a notice event belongs to

    def confirmed(self, gate: float) -> bool:
        return self.confidence >= gate

    def to_json(self, gate: float) -> dict[str, Any]:
        return {
            "date": self.date.isoformat(),
            "kind": self.kind.value,
            "summary": self.summary,
            "confidence": round(self.confidence, 4),
            "confirmed": self.confirmed(gate),
            "doc_hash": self.lease.doc_hash,
            "doc_key": self.lease.doc_key,
            "tenant": self.tenant,
            "premises": self.premises,
            "option": self.option,
            "citations": [c.to_json() for c in self.citations],
        }


def _citations(name: str, term: Term) -> list[Citation]:
    cited = [p for p in (term.provenance, *term.inputs) if p]
    return [Citation(name, term.source, p.get("page"), str(p.get("text", ""))) for p in cited]


@dataclass
class _Inputs:
    """The terms an event is computed from: their least probability and their citations."""

    terms: dict[str, Term]

    @property
    def confidence(self) -> float:
        return min((t.confidence for t in self.terms.values()), default=0.0)

    @property
    def citations(self) -> list[Citation]:
        return [c for name, term in self.terms.items() for c in _citations(name, term)]

    def plus(self, **more: Term) -> _Inputs:
        return _Inputs({**self.terms, **more})


def before(date: dt.date, period: Period) -> dt.date:
    """``period`` before ``date``: calendar months (schedule.months_after), or days."""
    if period.unit is PeriodUnit.MONTHS:
        return months_after(date, -period.count)
    return date - dt.timedelta(days=period.count)


class _Builder:
    def __init__(self, terms: CurrentTerms) -> None:
        self.terms = terms
        self.events: list[CriticalDate] = []

    def term(self, name: str) -> Term | None:
        return self.terms.terms.get(name)

    def add(
        self,
        date: dt.date,
        kind: EventKind,
        summary: str,
        inputs: _Inputs,
        option: int | None = None,
    ) -> None:
        self.events.append(
            CriticalDate(
                date,
                kind,
                self.terms.lease,
                summary,
                inputs.confidence,
                inputs.citations,
                tenant=self.terms.value("tenant"),
                premises=self.terms.value("premises_address"),
                option=option,
            )
        )

    def expiration(self) -> tuple[dt.date, _Inputs] | None:
        stated = self.term("expiration_date")
        if stated is not None:
            return dt.date.fromisoformat(stated.value), _Inputs({"expiration_date": stated})
        start, months = self.term("commencement_date"), self.term("term_months")
        if start is None or months is None:
            return None
        end = months_after(dt.date.fromisoformat(start.value), int(months.value))
        inputs = _Inputs({"commencement_date": start, "term_months": months})
        return end - dt.timedelta(days=1), inputs

    def build(self) -> list[CriticalDate]:
        expiration = self.expiration()
        if expiration is not None:
            end, inputs = expiration
            derived = "" if "expiration_date" in inputs.terms else " (commencement + term)"
            self.add(end, EventKind.EXPIRATION, f"Lease expires{derived}", inputs)
            self.renewals(end, inputs)
        self.break_option()
        self.rent()
        return sorted(self.events, key=lambda e: (e.date, e.kind.value))

    def notice_events(
        self,
        end: dt.date,
        window: NoticeWindow,
        kinds: tuple[EventKind, EventKind],
        what: str,
        inputs: _Inputs,
        option: int | None = None,
    ) -> None:
        opens, deadline = kinds
        self.add(
            before(end, window.least),
            deadline,
            f"{what}: last day to give notice ({window.describe()} before {end.isoformat()})",
            inputs,
            option,
        )
        if window.most is not None:
            self.add(
                before(end, window.most),
                opens,
                f"{what}: first day notice may be given ({window.describe()} before "
                f"{end.isoformat()})",
                inputs,
                option,
            )

    def renewals(self, expiration: dt.date, inputs: _Inputs) -> None:
        count, notice = self.term("renewal_option_count"), self.term("renewal_notice")
        if count is None or notice is None or int(count.value) < 1:
            return
        window = NoticeWindow.model_validate(notice.value)
        length = self.term("renewal_term_months")
        inputs = inputs.plus(renewal_option_count=count, renewal_notice=notice)
        total = int(count.value)
        end = expiration
        for option in range(1, min(total, MAX_OPTIONS_LISTED) + 1):
            if option > 1:
                if length is None:
                    return
                inputs = inputs.plus(renewal_term_months=length)
                end = months_after(end + dt.timedelta(days=1), int(length.value))
                end -= dt.timedelta(days=1)
            what = f"Renewal option {option} of {total}"
            if option > 1:
                what += " (if the earlier options are exercised)"
            kinds = (EventKind.RENEWAL_NOTICE_OPENS, EventKind.RENEWAL_NOTICE_DEADLINE)
            self.notice_events(end, window, kinds, what, inputs, option)

    def break_option(self) -> None:
        on = self.term("termination_option_date")
        if on is None:
            return
        date = dt.date.fromisoformat(on.value)
        inputs = _Inputs({"termination_option_date": on})
        self.add(date, EventKind.BREAK_DATE, "Break option: the lease may end on this date", inputs)
        notice = self.term("termination_notice")
        if notice is not None:
            window = NoticeWindow.model_validate(notice.value)
            kinds = (EventKind.BREAK_NOTICE_OPENS, EventKind.BREAK_NOTICE_DEADLINE)
            inputs = inputs.plus(termination_notice=notice)
            self.notice_events(date, window, kinds, "Break option", inputs)

    def rent(self) -> None:
        """Each step a rent changes on; the rent commencement when free months come first.
        A step starting on the commencement date (or the lease's own first step, when the
        commencement is not stated) is the initial rent, not a change."""
        schedule = self.term("rent_schedule")
        if schedule is None:
            return
        currency = self.terms.value("currency") or "USD"
        commencement = self.term("commencement_date")
        inputs = _Inputs({"rent_schedule": schedule})
        steps = [s for s in schedule.value or [] if s.get("monthly") is not None]
        first_paying = next((s for s in steps if Decimal(str(s["monthly"])) > 0), None)
        for index, step in enumerate(steps):
            start = step.get("start")
            if not isinstance(start, str):
                continue
            amount = Decimal(str(step["monthly"]))
            if step is first_paying and self.rent_commencement(start, inputs):
                continue
            initial = (
                start <= commencement.value
                if commencement is not None
                else index == 0 and schedule.source == self.terms.lease
            )
            if initial:
                continue
            what = (
                f"Base rent becomes {amount:,.2f} {currency} a month"
                if amount > 0
                else "Base rent abated (0.00 a month)"
            )
            self.add(dt.date.fromisoformat(start), EventKind.RENT_STEP, what, inputs)

    def rent_commencement(self, start: str, inputs: _Inputs) -> bool:
        """The first rent is due after the term commenced (free months first)."""
        commencement = self.term("commencement_date")
        if commencement is None or start <= commencement.value:
            return False
        self.add(
            dt.date.fromisoformat(start),
            EventKind.RENT_COMMENCEMENT,
            f"Rent commences (the term commenced {commencement.value})",
            inputs.plus(commencement_date=commencement),
        )
        return True


def critical_dates(terms: CurrentTerms) -> list[CriticalDate]:
    """Every critical date of one lease, in date order."""
    return _Builder(terms).build()


def within(
    events: Iterable[CriticalDate], start: dt.date | None, end: dt.date | None
) -> list[CriticalDate]:
    """Events from ``start`` to ``end`` (inclusive; None is open), in date order."""
    return sorted(
        (
            e
            for e in events
            if (start is None or e.date >= start) and (end is None or e.date <= end)
        ),
        key=lambda e: (e.date, e.lease.doc_key, e.kind.value),
    )
