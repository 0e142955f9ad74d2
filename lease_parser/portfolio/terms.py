"""A lease's current terms: its own values, with its amendments applied in order.

Works on stored abstractions (the ``abstract --json`` form the store keeps: each field's
value, probability and provenance). Each amendment sets the fields it states; each field
of the result remembers the document that last set it, and every change is logged (field,
old → new, amendment, its date). What an amendment states about itself or its lease —
its own date, the lease it amends, the start of an extension — sets nothing.

How the cases a portfolio team sees most are applied:

- **extension**: the amendment's ``expiration_date`` replaces the lease's;
- **rent change**: the amendment's rent schedule replaces the lease's from its first
  dated step on (earlier steps are kept, the last one ending the day before; month-numbered
  steps are dated from the start the amendment states, else from the day after the
  expiration it extends); a new rent
  with no schedule becomes a step from the day after the old expiration when the
  amendment extends the term, and replaces the rent otherwise;
- **premises change**: a new total area replaces the old one; area added ("the remaining
  32,635 square feet") is added to it (the sum cites both statements);
- **option waived**: an amendment that leaves no renewal option (waived, deleted) removes
  the option's length and notice too.

Amendments apply in the order of their own date (``lease_date``); one whose date was not
read keeps its place in file order. A restated value (the same party or premises written
another way) changes nothing. Pure: no store, no framework.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from lease_parser.comparison import values_match
from lease_parser.fields import AMENDABLE
from lease_parser.portfolio.links import same_premises
from lease_parser.portfolio.schedule import dated_steps

# What an option gives, gone with the option.
OPTION_TERMS = ("renewal_term_months", "renewal_notice")
# What an amendment states that changes the lease is each field's ``amendable`` (model.py):
# its own date, the lease it amends, a commencement (an extension's start) and a length (of
# the extension) change nothing; the area and the rent schedule are applied apart.


@dataclass(frozen=True)
class SourceDocument:
    """A document that sets terms: the lease, or one of its amendments."""

    doc_hash: str
    doc_key: str
    title: str  # "lease", "Amendment to Lease #3", the amendment's file name
    date: str | None  # its own date (ISO), when stated
    state: str
    position: int = 0  # 0 for the lease; an amendment's order in its file, else after

    def to_json(self) -> dict[str, Any]:
        return {
            "doc_hash": self.doc_hash,
            "doc_key": self.doc_key,
            "title": self.title,
            "date": self.date,
            "state": self.state,
        }


@dataclass(frozen=True)
class Stored:
    """One stored abstraction: where it came from and its fields as the store keeps them."""

    source: SourceDocument
    fields: Mapping[str, Any]


@dataclass
class Term:
    """A field's current value, with the document that last set it."""

    value: Any
    confidence: float
    provenance: dict[str, Any] | None
    inputs: list[dict[str, Any]]
    doubts: dict[str, str]
    source: SourceDocument

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "confidence": round(self.confidence, 4),
            "provenance": self.provenance,
            "inputs": self.inputs,
            "doubts": self.doubts,
            "set_by": self.source.to_json(),
        }


@dataclass(frozen=True)
class Change:
    field: str
    old: Any
    new: Any
    source: SourceDocument
    provenance: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "old": self.old,
            "new": self.new,
            "amendment": self.source.to_json(),
            "date": self.source.date,
            "provenance": self.provenance,
        }


@dataclass
class CurrentTerms:
    lease: SourceDocument
    terms: dict[str, Term]
    changes: list[Change] = field(default_factory=list)
    applied: list[SourceDocument] = field(default_factory=list)
    # Linked amendments not applied: not committed yet (a person has not checked them).
    pending: list[SourceDocument] = field(default_factory=list)

    def value(self, name: str) -> Any:
        term = self.terms.get(name)
        return term.value if term else None

    def to_json(self) -> dict[str, Any]:
        return {
            "lease": self.lease.to_json(),
            "terms": {name: t.to_json() for name, t in self.terms.items()},
            "changes": [c.to_json() for c in self.changes],
            "amendments_applied": [a.to_json() for a in self.applied],
            "amendments_pending": [a.to_json() for a in self.pending],
        }


def _term(entry: Mapping[str, Any], source: SourceDocument) -> Term:
    return Term(
        value=entry.get("value"),
        confidence=float(entry.get("confidence") or 0.0),
        provenance=entry.get("provenance"),
        inputs=list(entry.get("inputs") or []),
        doubts=dict(entry.get("doubts") or {}),
        source=source,
    )


def in_order(lease: Stored, amendments: Iterable[Stored]) -> list[Stored]:
    """Amendments by their own date; one with no date keeps its place after the one
    before it in file order (amendments are filed in the order they were signed)."""
    dated: list[tuple[str, int, Stored]] = []
    previous = lease.source.date or ""
    for amendment in sorted(amendments, key=lambda a: a.source.position):
        previous = amendment.source.date or previous
        dated.append((previous, amendment.source.position, amendment))
    return [amendment for _, _, amendment in sorted(dated, key=lambda d: (d[0], d[1]))]


def _same(name: str, new: Any, old: Any) -> bool:
    if name == "premises_address":
        return same_premises(str(new), str(old))
    return values_match(name, new, old)


class _Applier:
    """Applies one amendment after another to the lease's terms, logging each change."""

    def __init__(self, lease: Stored) -> None:
        self.current = CurrentTerms(
            lease.source,
            {
                name: _term(entry, lease.source)
                for name, entry in lease.fields.items()
                if isinstance(entry, Mapping) and entry.get("value") is not None
            },
        )
        self._date_schedule()

    def _date_schedule(self) -> None:
        """Month-numbered steps ("Months 13-24") dated from the commencement date: the
        dated schedule rests on both statements, so it cites both and is no more probable
        than either."""
        schedule = self.current.terms.get("rent_schedule")
        commencement = self.current.terms.get("commencement_date")
        if schedule is None or commencement is None:
            return
        dated = dated_steps(schedule.value, dt.date.fromisoformat(commencement.value))
        if dated == schedule.value:
            return
        schedule.value = dated
        schedule.confidence = min(schedule.confidence, commencement.confidence)
        schedule.inputs += [p for p in (commencement.provenance, *commencement.inputs) if p]

    def set(self, name: str, entry: Mapping[str, Any], source: SourceDocument) -> None:
        new = entry.get("value")
        old_term = self.current.terms.get(name)
        old = old_term.value if old_term else None
        if old is not None and _same(name, new, old):
            return  # restated, not changed
        self.current.terms[name] = _term(entry, source)
        self.current.changes.append(Change(name, old, new, source, entry.get("provenance")))

    def apply(self, amendment: Stored) -> None:
        fields, source = amendment.fields, amendment.source
        old_expiration = self.current.value("expiration_date")
        for name in AMENDABLE:
            entry = fields.get(name) or {}
            if entry.get("value") is not None:
                self.set(name, entry, source)
        self._area(fields, source)
        self._rent(fields, source, old_expiration)
        self._options_waived(source)
        self.current.applied.append(source)

    def _options_waived(self, source: SourceDocument) -> None:
        """An amendment that leaves no option (waived, deleted) takes the option's length
        and notice with it: a critical-date calendar must not keep a window for it."""
        count = self.current.terms.get("renewal_option_count")
        if count is None or str(count.value) != "0" or count.source is not source:
            return
        for name in OPTION_TERMS:
            old = self.current.terms.pop(name, None)
            if old is not None:
                self.current.changes.append(Change(name, old.value, None, source, count.provenance))

    def _area(self, fields: Mapping[str, Any], source: SourceDocument) -> None:
        total = fields.get("rentable_sqft") or {}
        added = fields.get("premises_added_sqft") or {}
        if total.get("value") is not None:
            self.set("rentable_sqft", total, source)
            return
        old = self.current.terms.get("rentable_sqft")
        if added.get("value") is None or old is None:
            return
        try:
            value = str(Decimal(str(old.value)) + Decimal(str(added["value"])))
        except InvalidOperation:
            return
        inputs = [p for p in (old.provenance, *old.inputs) if p]
        self.set(
            "rentable_sqft",
            {
                "value": value,
                "confidence": min(old.confidence, float(added.get("confidence") or 0.0)),
                "provenance": added.get("provenance"),
                "inputs": inputs,
                "doubts": {},
            },
            source,
        )

    def _rent(
        self, fields: Mapping[str, Any], source: SourceDocument, old_expiration: str | None
    ) -> None:
        schedule = fields.get("rent_schedule") or {}
        steps = self._dated(schedule.get("value") or [], fields, old_expiration)
        if steps:
            self.set("rent_schedule", {**schedule, "value": self._merged(steps)}, source)
            return
        monthly = (fields.get("base_rent_monthly") or {}).get("value")
        new_expiration = self.current.value("expiration_date")
        if monthly is None or old_expiration is None or new_expiration == old_expiration:
            return
        start = dt.date.fromisoformat(old_expiration) + dt.timedelta(days=1)
        step = {
            "start": start.isoformat(),
            "end": new_expiration,
            "monthly": monthly,
            "annual": (fields.get("base_rent_annual") or {}).get("value"),
            "per_sqft_annual": None,
        }
        entry = {**fields["base_rent_monthly"], "value": self._merged([step])}
        self.set("rent_schedule", entry, source)

    def _dated(
        self, steps: list[dict[str, Any]], fields: Mapping[str, Any], old_expiration: str | None
    ) -> list[dict[str, Any]]:
        """An amendment's month-numbered steps ("Months 1-12" of the extension) dated from the
        start it states (its commencement), else from the day after the expiration it
        extends; left as they are when neither is known."""
        if not steps or not isinstance(steps[0].get("start"), int):
            return steps
        start = (fields.get("commencement_date") or {}).get("value")
        if start is None and old_expiration is not None:
            extended = self.current.value("expiration_date") != old_expiration
            if extended:
                start = (dt.date.fromisoformat(old_expiration) + dt.timedelta(days=1)).isoformat()
        return dated_steps(steps, dt.date.fromisoformat(start)) if start else steps

    def _merged(self, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The lease's steps before the amendment's first dated step, then the amendment's."""
        first = steps[0].get("start")
        current = self.current.terms.get("rent_schedule")
        if current is None or not isinstance(first, str):
            return list(steps)
        begins = dt.date.fromisoformat(first)
        kept = []
        for step in current.value or []:
            start = step.get("start")
            if not isinstance(start, str) or dt.date.fromisoformat(start) >= begins:
                continue
            end = step.get("end")
            if not isinstance(end, str) or dt.date.fromisoformat(end) >= begins:
                step = {**step, "end": (begins - dt.timedelta(days=1)).isoformat()}
            kept.append(step)
        return kept + list(steps)


def current_terms(
    lease: Stored, amendments: Iterable[Stored], pending: Iterable[SourceDocument] = ()
) -> CurrentTerms:
    """``lease`` with ``amendments`` applied in order (see the module docstring)."""
    applier = _Applier(lease)
    for amendment in in_order(lease, amendments):
        applier.apply(amendment)
    applier.current.pending = list(pending)
    return applier.current


__all__ = [
    "AMENDABLE",
    "Change",
    "CurrentTerms",
    "SourceDocument",
    "Stored",
    "Term",
    "current_terms",
]
