"""Cross-field consistency: what must hold between values, used as evidence for all of them.

A lease's values constrain each other: commencement + term = expiration, annual rent = 12 ×
monthly rent, the first step of the rent schedule is the initial rent, its rate per foot ×
the area is the annual rent, its rents step by the stated escalation, it ends with the
term, a renewal term or notice exists only with a renewal option, the lease is dated before
it expires, a break date falls within the term. Each relation that applies is
checked once, after every field is read. One that holds is evidence for each value in it
(``relations_met``); one that fails lowers belief in each (``relations_failed``) and is a
doubt a reviewer resolves, with the relation named.

Values stated in one sentence are not independent: "Base Rent: $5,000.00 per month
($60,000.00 per year)" agreeing with itself says the drafter can multiply, not that we read
the right sentence. A relation among values all cited from one sentence, or where one value
was read from inside another's citation (a rent from its schedule's first row), counts as
met for none of them (it still fails loudly).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from lease_parser.extraction.base import RawField
from lease_parser.extraction.clauses import SENTENCE_END
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.rent_table import rate_fits, twelve_times
from lease_parser.extraction.schedule import follows_rate, step_pattern
from lease_parser.model import EscalationKind
from lease_parser.parsing.base import Document

# A lease dated more than this after its term starts is more likely a misread date.
LATE_SIGNING = dt.timedelta(days=366)


def months_between(start: dt.date, end: dt.date) -> int:
    """Whole months from ``start`` to the day after ``end`` (a term's last day)."""
    after = end + dt.timedelta(days=1)
    return (
        (after.year - start.year) * 12
        + (after.month - start.month)
        + (0 if after.day >= start.day else -1)
    )


@dataclass(frozen=True)
class Outcome:
    holds: bool
    says: str  # what was checked, in the words a reviewer reads


Check = Callable[[Mapping[str, str]], Outcome | None]


@dataclass(frozen=True)
class Relation:
    name: str
    fields: tuple[str, ...]
    check: Check  # None when the values give nothing to check


def _date(values: Mapping[str, str], name: str) -> dt.date:
    return dt.date.fromisoformat(values[name])


def _term(values: Mapping[str, str]) -> Outcome:
    start, end = _date(values, "commencement_date"), _date(values, "expiration_date")
    months = int(values["term_months"])
    span = months_between(start, end)
    return Outcome(span == months, f"commencement {start} + {months} months = expiration {end}")


def _order(values: Mapping[str, str]) -> Outcome:
    start, end = _date(values, "commencement_date"), _date(values, "expiration_date")
    return Outcome(start < end, f"commencement {start} before expiration {end}")


def _dated_before_end(values: Mapping[str, str]) -> Outcome:
    dated, end = _date(values, "lease_date"), _date(values, "expiration_date")
    return Outcome(dated < end, f"lease date {dated} before expiration {end}")


def _dated_near_start(values: Mapping[str, str]) -> Outcome:
    dated, start = _date(values, "lease_date"), _date(values, "commencement_date")
    return Outcome(dated <= start + LATE_SIGNING, f"lease date {dated} not long after {start}")


def _twelve(values: Mapping[str, str]) -> Outcome:
    monthly, annual = Decimal(values["base_rent_monthly"]), Decimal(values["base_rent_annual"])
    holds = twelve_times(monthly, annual) is not None
    return Outcome(holds, f"annual {annual} = 12 × monthly {monthly}")


def _first_step(values: Mapping[str, str]) -> Outcome | None:
    steps = json.loads(values["rent_schedule"])
    first = next((s for s in steps if s.get("monthly") not in (None, "0", "0.00")), None)
    if first is None:
        return None
    stated = Decimal(values["base_rent_monthly"])
    return Outcome(
        Decimal(first["monthly"]) == stated, f"first scheduled rent {first['monthly']} = {stated}"
    )


def _rate_times_area(values: Mapping[str, str]) -> Outcome | None:
    steps = json.loads(values["rent_schedule"])
    first = next((s for s in steps if s.get("per_sqft_annual")), None)
    if first is None:
        return None
    rate, area = Decimal(first["per_sqft_annual"]), Decimal(values["rentable_sqft"])
    annual = Decimal(values["base_rent_annual"])
    return Outcome(rate_fits(rate, area, annual, 12), f"{rate}/sq ft × {area} = {annual}")


def _steps_follow_escalation(values: Mapping[str, str]) -> Outcome | None:
    """A stated percentage the schedule's rents step by; a ``schedule`` whose rents change;
    ``none`` with a schedule whose rents do not (there is no schedule then)."""
    steps = json.loads(values["rent_schedule"])
    escalation = json.loads(values["escalation"])
    kind = escalation["kind"]
    if kind == EscalationKind.FIXED_PERCENT:
        rate = Decimal(escalation["rate"])
        return Outcome(follows_rate(steps, rate), f"the scheduled rents step by {rate}%")
    if kind in (EscalationKind.SCHEDULE, EscalationKind.NONE):
        changes = step_pattern(steps) is not None
        says = "the scheduled rents change" if changes else "the scheduled rents do not change"
        return Outcome(changes == (kind == EscalationKind.SCHEDULE), f"{kind}: {says}")
    return None


def _steps_span_term(values: Mapping[str, str]) -> Outcome | None:
    """A schedule numbered by month ends with the term's last month."""
    steps = json.loads(values["rent_schedule"])
    ends = [s["end"] for s in steps if isinstance(s.get("end"), int)]
    if not ends:
        return None
    months = int(values["term_months"])
    return Outcome(ends[-1] == months, f"the schedule's last month {ends[-1]} = term {months}")


def _steps_end_at_expiration(values: Mapping[str, str]) -> Outcome | None:
    """A dated schedule ends on the expiration date."""
    steps = json.loads(values["rent_schedule"])
    last = steps[-1].get("end") if steps else None
    if not isinstance(last, str):
        return None
    end = _date(values, "expiration_date")
    return Outcome(
        dt.date.fromisoformat(last) == end, f"the schedule's last day {last} = expiration {end}"
    )


def _break_after_start(values: Mapping[str, str]) -> Outcome:
    start, on = _date(values, "commencement_date"), _date(values, "termination_option_date")
    return Outcome(start < on, f"break date {on} after commencement {start}")


def _break_before_end(values: Mapping[str, str]) -> Outcome:
    on, end = _date(values, "termination_option_date"), _date(values, "expiration_date")
    return Outcome(on <= end, f"break date {on} not after expiration {end}")


def _renewal(values: Mapping[str, str]) -> Outcome:
    count = int(values["renewal_option_count"])
    return Outcome(count > 0, f"{count} renewal options, each of {values['renewal_term_months']}")


def _renewal_notice(values: Mapping[str, str]) -> Outcome:
    count = int(values["renewal_option_count"])
    window = json.loads(values["renewal_notice"])
    if not isinstance(window, dict):
        raise TypeError("a notice window is an object")  # normalization refuses it
    return Outcome(count > 0, f"{count} renewal options, with a notice window")


RELATIONS: tuple[Relation, ...] = (
    Relation("term", ("commencement_date", "term_months", "expiration_date"), _term),
    Relation("dates in order", ("commencement_date", "expiration_date"), _order),
    Relation("dated before expiration", ("lease_date", "expiration_date"), _dated_before_end),
    Relation("dated near commencement", ("lease_date", "commencement_date"), _dated_near_start),
    Relation("annual = 12 × monthly", ("base_rent_monthly", "base_rent_annual"), _twelve),
    Relation("schedule starts at the rent", ("rent_schedule", "base_rent_monthly"), _first_step),
    Relation(
        "rate × area = annual rent",
        ("rent_schedule", "rentable_sqft", "base_rent_annual"),
        _rate_times_area,
    ),
    Relation(
        "schedule follows the escalation", ("rent_schedule", "escalation"), _steps_follow_escalation
    ),
    Relation("schedule spans the term", ("rent_schedule", "term_months"), _steps_span_term),
    Relation(
        "schedule ends at expiration",
        ("rent_schedule", "expiration_date"),
        _steps_end_at_expiration,
    ),
    Relation(
        "renewal term needs an option", ("renewal_option_count", "renewal_term_months"), _renewal
    ),
    Relation(
        "renewal notice needs an option",
        ("renewal_option_count", "renewal_notice"),
        _renewal_notice,
    ),
    Relation(
        "break date after commencement",
        ("commencement_date", "termination_option_date"),
        _break_after_start,
    ),
    Relation(
        "break date within the term",
        ("termination_option_date", "expiration_date"),
        _break_before_end,
    ),
)


def _one_sentence(document: Document, raws: list[RawField]) -> bool:
    """All cited in one sentence of one page (no sentence end between the first and last)."""
    if len({r.page for r in raws}) != 1 or not 1 <= raws[0].page <= len(document.pages):
        return False
    text = document.pages[raws[0].page - 1].text
    start, end = min(r.start for r in raws), max(r.end for r in raws)
    return SENTENCE_END.search(" ".join(text[start:end].split())) is None


def _nested(raws: list[RawField]) -> bool:
    """One value cited inside another's span: read from it (a rent from its schedule's row)."""
    return any(
        a is not b and a.page == b.page and b.start <= a.start and a.end <= b.end
        for a in raws
        for b in raws
    )


def _apply(relation: Relation, raws: list[RawField], outcome: Outcome, document: Document) -> None:
    if outcome.holds:
        if _one_sentence(document, raws) or _nested(raws):
            return
        for raw in raws:
            raw.evidence["relations_met"] = raw.evidence.get("relations_met", 0.0) + 1
            raw.notes.append(f"consistent: {outcome.says}")
        return
    for raw in raws:
        raw.evidence["relations_failed"] = raw.evidence.get("relations_failed", 0.0) + 1
        why = f"{relation.name} fails: {outcome.says} does not hold"
        previous = raw.doubts.get(Doubt.FAILED_RELATION)
        raw.doubts[Doubt.FAILED_RELATION] = f"{previous}; {why}" if previous else why
        raw.notes.append(why)


def check_relations(fields: Mapping[str, RawField], document: Document) -> None:
    """Check every relation whose values were all read; record the outcome on each field."""
    for relation in RELATIONS:
        raws = [fields.get(name) for name in relation.fields]
        if any(r is None or r.value is None for r in raws):
            continue
        present = [r for r in raws if r is not None]
        values = {r.name: str(r.value) for r in present}
        try:
            outcome = relation.check(values)
        except (ValueError, InvalidOperation, KeyError, TypeError):
            continue  # a value normalization will refuse; it is reported there
        if outcome is not None:
            _apply(relation, present, outcome, document)
