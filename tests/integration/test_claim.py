"""The hash-keyed claim and the delivery count against a real redis-server."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from lease_parser.local import RedisServer
from lease_parser.pipeline.idempotency import (
    Claim,
    claim_document,
    claim_holder,
    claim_key,
    clear_claim,
    count_delivery,
    deliveries,
    release_claim,
)

HASH = "ab" * 32


def test_twenty_racing_submissions_get_one_claim(redis_server: RedisServer) -> None:
    clients = [redis_server.client() for _ in range(20)]

    def claim(i: int) -> Claim:
        return claim_document(clients[i], HASH, f"submission-{i}", ttl=60)

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = Counter(pool.map(claim, range(20)))
    assert results == {Claim.ACQUIRED: 1, Claim.DUPLICATE: 19}


def test_the_holder_re_enters_and_only_the_holder_releases(redis_server: RedisServer) -> None:
    r = redis_server.client()
    assert claim_document(r, HASH, "first", ttl=60) is Claim.ACQUIRED
    r.expire(claim_key(HASH), 5)
    # A redelivery, a retry or a later stage of the same submission: proceed, TTL renewed.
    assert claim_document(r, HASH, "first", ttl=60) is Claim.REENTRANT
    assert int(r.ttl(claim_key(HASH))) > 5
    assert claim_document(r, HASH, "second", ttl=60) is Claim.DUPLICATE
    assert not release_claim(r, HASH, "second")  # a late non-holder cannot free it
    assert claim_holder(r, HASH) == "first"
    assert release_claim(r, HASH, "first")  # failure: the retry can take it again
    assert claim_document(r, HASH, "second", ttl=60) is Claim.ACQUIRED
    clear_claim(r, HASH)  # an operator's requeue
    assert claim_holder(r, HASH) is None


def test_the_claim_expires(redis_server: RedisServer) -> None:
    r = redis_server.client()
    claim_document(r, HASH, "first", ttl=60)
    assert 0 < int(r.ttl(claim_key(HASH))) <= 60


def test_deliveries_are_counted_per_message_and_retry(redis_server: RedisServer) -> None:
    r = redis_server.client()
    assert [count_delivery(r, "task-1", 0, ttl=60) for _ in range(3)] == [1, 2, 3]
    assert count_delivery(r, "task-1", 1, ttl=60) == 1  # a retry is a new message
    assert deliveries(r, "task-1") == {0: 3, 1: 1}
    assert deliveries(r, "task-2") == {}
