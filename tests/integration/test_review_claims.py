"""Two reviewer processes claiming from the same queue at once never get the same item,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import multiprocessing
from typing import Any

from lease_parser.store import ReviewQueue, Store
from tests.store_helpers import add_document

ITEMS = 40


def _claim_everything(url: str, name: str, barrier: Any, results: Any) -> None:
    """A fresh reviewer name per claim, so nobody renews: every claim is a new race."""
    queue = ReviewQueue(Store(url), claim_ttl=600)
    got: list[str] = []
    barrier.wait()
    while (item := queue.claim_next(f"{name}-{len(got)}")) is not None:
        got.append(item.doc_hash)
    results.put((name, got))


def _drain(url: str, name: str, barrier: Any, results: Any) -> None:
    """A reviewer's day: claim the next item, approve it, repeat until the queue is empty."""
    queue = ReviewQueue(Store(url), claim_ttl=600)
    got: list[str] = []
    barrier.wait()
    while (item := queue.claim_next(name)) is not None:
        queue.confirm(item.doc_hash, name, item.unchecked)
        queue.approve(item.doc_hash, name)
        got.append(item.doc_hash)
    results.put((name, got))


def _race(url: str, target: Any) -> dict[str, list[str]]:
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=target, args=(url, name, barrier, results)) for name in "AB"]
    for p in procs:
        p.start()
    got = dict(results.get(timeout=180) for _ in procs)
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    return got


def test_concurrent_claims_never_hand_out_the_same_item(store_url: str) -> None:
    store = Store(store_url)
    hashes = {add_document(store) for _ in range(ITEMS)}
    got = _race(store_url, _claim_everything)
    a, b = got["A"], got["B"]
    assert len(set(a)) == len(a)
    assert len(set(b)) == len(b)
    assert not set(a) & set(b), "two reviewers hold the same item"
    assert set(a) | set(b) == hashes
    claimed = {i.doc_hash: i.claimed_by for i in ReviewQueue(store).items(limit=ITEMS)}
    assert all(str(claimed[h]).startswith("A-") for h in a)
    assert all(str(claimed[h]).startswith("B-") for h in b)


def test_two_reviewers_draining_the_queue_commit_each_document_once(store_url: str) -> None:
    store = Store(store_url)
    hashes = {add_document(store) for _ in range(ITEMS)}
    got = _race(store_url, _drain)
    assert not set(got["A"]) & set(got["B"])
    assert set(got["A"]) | set(got["B"]) == hashes
    for name, decided in got.items():
        for doc_hash in decided:
            row = store.document(doc_hash)
            assert row is not None
            assert (row.state, row.source, row.reviewer) == ("committed", "review", name)
            assert store.commit_events(doc_hash) == 1
    assert store.counts_by_state() == {"committed": ITEMS}
