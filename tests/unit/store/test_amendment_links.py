"""Amendment links in a real store (store/amendment_links.py, store/leases.py): linked when
a document finishes, whichever arrives first; a person's link is never overwritten; a
linked amendment applies to its lease's current terms once it is committed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lease_parser.errors import LinkRefused, Reason
from lease_parser.store import (
    DocumentState,
    LinkState,
    Store,
    after_finish,
    lease_record,
    lease_records,
    link_by_reviewer,
    link_of,
    links,
    relink,
)
from tests.store_helpers import add_document, fields_json

GATE = 0.9
LEASE: dict[str, Any] = {
    "lease_date": "2019-04-09",
    "landlord": "Orchard Row Holdings LLC",
    "tenant": "Tidewater Robotics, Inc.",
    "premises_address": "310 Ferry Street, Suite 500, Portland, Oregon 97209",
    "commencement_date": "2019-05-01",
    "expiration_date": "2026-04-30",
    "base_rent_monthly": "15000.00",
}
AMENDMENT: dict[str, Any] = {
    "amended_lease_date": "2019-04-09",
    "lease_date": "2025-06-03",
    "landlord": "Orchard Row Holdings LLC",
    "tenant": "Tidewater Robotics, Inc.",
    "premises_address": "310 Ferry St., Portland, OR",
    "expiration_date": "2031-03-31",
}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'lease.db'}")


def add(store: Store, values: dict[str, Any], kind: str, **more: Any) -> str:
    more.setdefault("state", DocumentState.COMMITTED)
    more.setdefault("reason", None)
    doc_hash = add_document(
        store, fields=fields_json(values, confidence=0.97), kind=kind, confidence=0.97, **more
    )
    after_finish(store, doc_hash, GATE)
    return doc_hash


def test_an_amendment_is_linked_to_its_lease_when_it_finishes(store: Store) -> None:
    lease = add(store, LEASE, "lease")
    amendment = add(
        store, AMENDMENT, "amendment", state=DocumentState.REVIEW, reason=Reason.LOW_CONFIDENCE
    )
    link = link_of(store, amendment)
    assert link is not None
    assert (link.state, link.lease_hash, link.method) == (LinkState.LINKED, lease, "auto")
    assert link.confidence == pytest.approx(0.97)
    assert link.evidence is not None
    assert link.evidence["why"].startswith("same lease date")


def test_an_amendment_that_arrives_first_is_linked_when_its_lease_does(store: Store) -> None:
    amendment = add(store, AMENDMENT, "amendment")
    waiting = link_of(store, amendment)
    assert waiting is not None
    assert waiting.state == LinkState.NEEDS_REVIEW
    lease = add(store, LEASE, "lease")
    link = link_of(store, amendment)
    assert link is not None
    assert (link.state, link.lease_hash) == (LinkState.LINKED, lease)


def test_a_linked_amendment_applies_once_committed(store: Store) -> None:
    lease = add(store, LEASE, "lease")
    add(store, AMENDMENT, "amendment", state=DocumentState.REVIEW, reason=Reason.LOW_CONFIDENCE)
    row = store.document(lease)
    assert row is not None
    terms = lease_record(store, row).terms
    assert terms.value("expiration_date") == "2026-04-30"  # in review: not applied
    assert [p.state for p in terms.pending] == ["review"]
    add(store, {**AMENDMENT, "lease_date": "2025-07-01"}, "amendment")  # committed
    terms = lease_record(store, row).terms
    assert terms.value("expiration_date") == "2031-03-31"
    [change] = [c for c in terms.changes if c.field == "expiration_date"]
    assert (change.old, change.new, change.source.date) == (
        "2026-04-30",
        "2031-03-31",
        "2025-07-01",
    )


def test_a_persons_link_is_kept_by_automatic_relinking(store: Store) -> None:
    add(store, LEASE, "lease")
    other = add(store, {**LEASE, "lease_date": "2020-01-01"}, "lease")
    amendment = add(store, AMENDMENT, "amendment")
    link_by_reviewer(store, amendment, other, "alice")
    relink(store, GATE, [amendment])
    add(store, {**LEASE, "tenant": "Someone Else"}, "lease")  # another lease finishing
    link = link_of(store, amendment)
    assert link is not None
    assert (link.lease_hash, link.method, link.actor) == (other, "reviewer", "alice")


def test_a_person_can_say_the_lease_is_not_in_the_store(store: Store) -> None:
    amendment = add(store, AMENDMENT, "amendment")
    link = link_by_reviewer(store, amendment, None, "alice")
    assert (link.state, link.lease_hash) == (LinkState.UNLINKED, None)
    assert [v.link.state for v in links(store, LinkState.UNLINKED)] == [LinkState.UNLINKED]


def test_links_to_what_is_not_a_lease_are_refused(store: Store) -> None:
    lease = add(store, LEASE, "lease")
    amendment = add(store, AMENDMENT, "amendment")
    with pytest.raises(LinkRefused):
        link_by_reviewer(store, lease, amendment, "alice")  # backwards
    with pytest.raises(LinkRefused):
        link_by_reviewer(store, amendment, "0" * 64, "alice")


def test_amendments_filed_in_the_leases_own_file_apply_with_it(store: Store) -> None:
    appended = [{"title": "Amendment to Lease", "fields": fields_json(AMENDMENT, 0.95)}]
    lease = add(store, LEASE, "lease", amendments=appended)
    [record] = list(lease_records(store))
    assert record.row.doc_hash == lease
    assert record.terms.value("expiration_date") == "2031-03-31"
    assert record.terms.applied[0].title == "Amendment to Lease (in the same file)"
