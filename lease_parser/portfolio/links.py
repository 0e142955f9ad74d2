"""Which lease an amendment amends, decided from what the amendment states.

An amendment names its lease the way a person would find it in a filing cabinet: "that
certain Office Lease dated March 3, 2025 between ... (Landlord) and BLUEFIN ANALYTICS, INC.
(Tenant) ... for premises at 1200 Harbor Point Drive". Each lease in the store is compared on:

- the lease's date (the amendment's ``amended_lease_date`` against the lease's
  ``lease_date``): the most telling fact, since a landlord and tenant rarely sign two
  leases on one day;
- the tenant, and the premises' street number and street: what stays the same across an
  amendment (an assignment changes the tenant, a relocation the premises, rarely both);
- the landlord: compared and shown, never decisive (buildings are sold: "Landlord (as
  successor in interest to ...)").

A lease is a **match** when its date is the amendment's and its tenant or premises is the
same, and neither differs. The amendment is linked automatically only to the one match,
when there is exactly one and the link is at least as probable as the gate; otherwise a
person links it (``lease-parser amendments link``), shown the candidates and why.

The link's confidence is the least probable of the statements it rests on (each read
value's probability, on both documents): the link is right if those readings are, and the
probability that several readings are all right is at most the smallest of theirs. Pure:
no store, no framework.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from lease_parser.comparison import canonical_text, values_match


class Outcome(StrEnum):
    SAME = "same"
    DIFFERS = "differs"
    UNKNOWN = "unknown"  # one side does not state it


@dataclass(frozen=True)
class Stated:
    value: Any
    confidence: float


def stated(fields: Mapping[str, Any], name: str) -> Stated | None:
    """A stored field (``abstract --json`` form) as a value and its probability."""
    entry = fields.get(name) or {}
    if entry.get("value") is None:
        return None
    return Stated(entry["value"], float(entry.get("confidence") or 0.0))


@dataclass(frozen=True)
class Identity:
    """What identifies a lease, as one document states it."""

    doc_hash: str
    lease_date: Stated | None
    landlord: Stated | None
    tenant: Stated | None
    premises: Stated | None

    @classmethod
    def of_lease(cls, doc_hash: str, fields: Mapping[str, Any]) -> Identity:
        return cls(doc_hash, *_parties(fields, "lease_date"))

    @classmethod
    def of_amendment(cls, doc_hash: str, fields: Mapping[str, Any]) -> Identity:
        return cls(doc_hash, *_parties(fields, "amended_lease_date"))


def _parties(fields: Mapping[str, Any], date_field: str) -> tuple[Stated | None, ...]:
    names = (date_field, "landlord", "tenant", "premises_address")
    return tuple(stated(fields, name) for name in names)


@dataclass(frozen=True)
class Comparison:
    criterion: str  # lease date | tenant | premises | landlord
    outcome: Outcome
    amendment_says: Any
    lease_says: Any
    confidence: float  # the lesser probability of the two readings


@dataclass
class Candidate:
    lease_hash: str
    comparisons: list[Comparison]

    def outcome(self, criterion: str) -> Outcome:
        return next(c.outcome for c in self.comparisons if c.criterion == criterion)

    @property
    def is_match(self) -> bool:
        date = self.outcome("lease date") is Outcome.SAME
        tenant, premises = self.outcome("tenant"), self.outcome("premises")
        same = Outcome.SAME in (tenant, premises)
        return date and same and Outcome.DIFFERS not in (tenant, premises)

    @property
    def confidence(self) -> float:
        """The least probable reading among the facts that matched."""
        used = [c.confidence for c in self.comparisons if c.outcome is Outcome.SAME]
        return min(used, default=0.0)

    @property
    def agreements(self) -> int:
        return sum(c.outcome is Outcome.SAME for c in self.comparisons)

    def to_json(self) -> dict[str, Any]:
        return {
            "lease_hash": self.lease_hash,
            "match": self.is_match,
            "confidence": round(self.confidence, 4),
            "comparisons": [asdict(c) for c in self.comparisons],
        }


@dataclass
class LinkDecision:
    """``lease_hash`` set when the amendment can be linked without a person."""

    lease_hash: str | None
    confidence: float
    why: str
    candidates: list[Candidate] = field(default_factory=list)

    def evidence(self) -> dict[str, Any]:
        return {"why": self.why, "candidates": [c.to_json() for c in self.candidates]}


# Street words that say nothing about which street it is.
_GENERIC = frozenset(
    "street st avenue ave road rd drive dr boulevard blvd suite ste floor unit building "
    "parkway pkwy lane ln way place pl court ct highway hwy north south east west n s e w "
    "ne nw se sw the of and at".split()
)
_STREET_NUMBER = re.compile(r"\b(\d{1,6})\b")


def _premises(amendment: str, lease: str) -> Outcome:
    """Same street number and another distinctive word in common (the street or city)."""
    a, b = canonical_text(str(amendment)), canonical_text(str(lease))
    number_a, number_b = _STREET_NUMBER.search(a), _STREET_NUMBER.search(b)
    if number_a is None or number_b is None:
        return Outcome.UNKNOWN
    if number_a.group(1) != number_b.group(1):
        return Outcome.DIFFERS
    words_a = set(a.split()) - _GENERIC - {number_a.group(1)}
    words_b = set(b.split()) - _GENERIC - {number_b.group(1)}
    return Outcome.SAME if words_a & words_b else Outcome.UNKNOWN


def same_premises(a: str, b: str) -> bool:
    """Two statements of one address (the same street number and street or city)."""
    return _premises(a, b) is Outcome.SAME


def _compare(criterion: str, field_name: str, a: Stated | None, b: Stated | None) -> Comparison:
    if a is None or b is None:
        return Comparison(criterion, Outcome.UNKNOWN, a and a.value, b and b.value, 0.0)
    if criterion == "premises":
        outcome = _premises(a.value, b.value)
    else:
        outcome = Outcome.SAME if values_match(field_name, a.value, b.value) else Outcome.DIFFERS
    return Comparison(criterion, outcome, a.value, b.value, min(a.confidence, b.confidence))


def compare(amendment: Identity, lease: Identity) -> Candidate:
    return Candidate(
        lease.doc_hash,
        [
            _compare("lease date", "lease_date", amendment.lease_date, lease.lease_date),
            _compare("tenant", "tenant", amendment.tenant, lease.tenant),
            _compare("premises", "premises_address", amendment.premises, lease.premises),
            _compare("landlord", "landlord", amendment.landlord, lease.landlord),
        ],
    )


# Candidates kept in the evidence for a person to choose from.
SHOWN_CANDIDATES = 5


def decide_link(amendment: Identity, leases: Iterable[Identity], gate: float) -> LinkDecision:
    """Link to the one matching lease when sure enough; otherwise say why a person must."""
    candidates = [
        compare(amendment, lease) for lease in leases if lease.doc_hash != amendment.doc_hash
    ]
    candidates = [c for c in candidates if c.agreements > 0]
    candidates.sort(key=lambda c: (not c.is_match, -c.agreements, -c.confidence))
    shown = candidates[:SHOWN_CANDIDATES]
    matches = [c for c in candidates if c.is_match]
    if amendment.lease_date is None:
        return LinkDecision(None, 0.0, "the amendment states no date of the lease it amends", shown)
    if not matches:
        why = "no lease in the store has the stated date with the same tenant or premises"
        return LinkDecision(None, 0.0, why, shown)
    if len(matches) > 1:
        return LinkDecision(None, 0.0, f"{len(matches)} leases match what it states", shown)
    best = matches[0]
    if best.confidence < gate:
        why = (
            f"one lease matches, but a statement it rests on has probability {best.confidence:.2f}"
        )
        return LinkDecision(None, best.confidence, why, shown)
    agreed = ", ".join(c.criterion for c in best.comparisons if c.outcome is Outcome.SAME)
    return LinkDecision(best.lease_hash, best.confidence, f"same {agreed}", shown)
