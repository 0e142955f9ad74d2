"""Amendment links on both store backends (SQLite and the machine's PostgreSQL): the lease
is found by the date inside the stored JSON (json_extract / ->>), linked, and applied."""

from __future__ import annotations

from typing import Any

from lease_parser.store import DocumentState, LinkState, Store, after_finish, lease_records, link_of
from tests.store_helpers import add_document, fields_json

LEASE: dict[str, Any] = {
    "lease_date": "2019-04-09",
    "tenant": "Tidewater Robotics, Inc.",
    "premises_address": "310 Ferry Street, Suite 500, Portland, Oregon 97209",
    "expiration_date": "2026-04-30",
}
AMENDMENT: dict[str, Any] = {
    "amended_lease_date": "2019-04-09",
    "lease_date": "2025-06-03",
    "tenant": "Tidewater Robotics, Inc.",
    "expiration_date": "2031-03-31",
}


def add(store: Store, values: dict[str, Any], kind: str) -> str:
    doc_hash = add_document(
        store,
        state=DocumentState.COMMITTED,
        reason=None,
        fields=fields_json(values, confidence=0.97),
        kind=kind,
    )
    after_finish(store, doc_hash, 0.9)
    return doc_hash


def test_an_amendment_finds_its_lease_by_date_and_applies(store_url: str) -> None:
    store = Store(store_url)
    try:
        add(store, {**LEASE, "lease_date": "2019-04-10"}, "lease")  # another day: no match
        lease = add(store, LEASE, "lease")
        amendment = add(store, AMENDMENT, "amendment")
        link = link_of(store, amendment)
        assert link is not None
        assert (link.state, link.lease_hash) == (LinkState.LINKED, lease)
        terms = {r.row.doc_hash: r.terms for r in lease_records(store)}
        assert terms[lease].value("expiration_date") == "2031-03-31"
    finally:
        store.close()
