"""Which lease an amendment amends (portfolio/links.py): the lease's date with its tenant or
premises, one match only, and sure enough; otherwise a person links it."""

from __future__ import annotations

from typing import Any

from lease_parser.portfolio.links import Identity, Outcome, decide_link, same_premises
from tests.store_helpers import fields_json

GATE = 0.9
LEASE: dict[str, Any] = {
    "lease_date": "2019-04-09",
    "landlord": "Orchard Row Holdings LLC",
    "tenant": "Tidewater Robotics, Inc.",
    "premises_address": "310 Ferry Street, Suite 500, Portland, Oregon 97209",
}
AMENDMENT: dict[str, Any] = {
    "amended_lease_date": "2019-04-09",
    "landlord": "Bridgeport Realty LP",  # the building was sold: never decisive
    "tenant": "TIDEWATER ROBOTICS, INC.",
    "premises_address": "310 Ferry St., Portland, OR",
}


def lease(doc_hash: str, confidence: float = 0.97, **changes: Any) -> Identity:
    return Identity.of_lease(doc_hash, fields_json({**LEASE, **changes}, confidence))


def amendment(confidence: float = 0.97, **changes: Any) -> Identity:
    values = {k: v for k, v in {**AMENDMENT, **changes}.items() if v is not None}
    return Identity.of_amendment("e" * 64, fields_json(values, confidence))


def test_the_one_matching_lease_is_linked() -> None:
    others = [lease("b" * 64, lease_date="2019-04-10"), lease("c" * 64, tenant="Other Co.")]
    decision = decide_link(amendment(), [lease("a" * 64), *others], GATE)
    assert decision.lease_hash == "a" * 64
    assert decision.confidence == 0.97
    assert decision.why == "same lease date, tenant, premises"
    best = decision.candidates[0]
    assert best.outcome("landlord") is Outcome.DIFFERS


def test_a_doubtful_reading_leaves_the_link_to_a_person() -> None:
    decision = decide_link(amendment(confidence=0.7), [lease("a" * 64)], GATE)
    assert decision.lease_hash is None
    assert "probability 0.70" in decision.why
    assert decision.candidates[0].lease_hash == "a" * 64  # shown as the suggestion


def test_two_matching_leases_leave_the_link_to_a_person() -> None:
    decision = decide_link(amendment(), [lease("a" * 64), lease("b" * 64)], GATE)
    assert decision.lease_hash is None
    assert decision.why == "2 leases match what it states"


def test_the_date_alone_is_not_enough() -> None:
    moved = lease("a" * 64, tenant="Other Co.", premises_address="9 Elm Road, Salem, Oregon")
    decision = decide_link(amendment(), [moved], GATE)
    assert decision.lease_hash is None
    assert decision.candidates
    assert not decision.candidates[0].is_match


def test_no_stated_lease_date_no_automatic_link() -> None:
    decision = decide_link(amendment(amended_lease_date=None), [lease("a" * 64)], GATE)
    assert decision.lease_hash is None
    assert decision.why == "the amendment states no date of the lease it amends"


def test_no_lease_in_the_store() -> None:
    decision = decide_link(amendment(), [], GATE)
    assert (decision.lease_hash, decision.candidates) == (None, [])


def test_premises_are_the_same_when_number_and_street_agree() -> None:
    assert same_premises("310 Ferry Street, Suite 500, Portland", "310 Ferry St., Portland, OR")
    assert not same_premises("310 Ferry Street, Portland", "311 Ferry Street, Portland")
    assert not same_premises("310 Ferry Street", "310 Canal Street")
