"""The hash lock (dedup) and the delivery count against a real redis-server."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from lease_parser.local import RedisServer
from lease_parser.pipeline.idempotency import (
    HashLock,
    clear_hash_lock,
    count_delivery,
    deliveries,
    hash_lock_holder,
    hash_lock_key,
    lock_hash,
    release_hash_lock,
)

HASH = "ab" * 32


def test_twenty_racing_submissions_get_one_lock(redis_server: RedisServer) -> None:
    clients = [redis_server.client() for _ in range(20)]

    def lock(i: int) -> HashLock:
        return lock_hash(clients[i], HASH, f"submission-{i}", ttl=60)

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = Counter(pool.map(lock, range(20)))
    assert results == {HashLock.ACQUIRED: 1, HashLock.DUPLICATE: 19}


def test_the_holder_re_enters_and_only_the_holder_releases(redis_server: RedisServer) -> None:
    r = redis_server.client()
    assert lock_hash(r, HASH, "first", ttl=60) is HashLock.ACQUIRED
    r.expire(hash_lock_key(HASH), 5)
    # A redelivery, a retry or a later stage of the same submission: proceed, TTL renewed.
    assert lock_hash(r, HASH, "first", ttl=60) is HashLock.REENTRANT
    assert int(r.ttl(hash_lock_key(HASH))) > 5
    assert lock_hash(r, HASH, "second", ttl=60) is HashLock.DUPLICATE
    assert not release_hash_lock(r, HASH, "second")  # a late non-holder cannot free it
    assert hash_lock_holder(r, HASH) == "first"
    assert release_hash_lock(r, HASH, "first")  # failure: the retry can take it again
    assert lock_hash(r, HASH, "second", ttl=60) is HashLock.ACQUIRED
    clear_hash_lock(r, HASH)  # an operator's requeue
    assert hash_lock_holder(r, HASH) is None


def test_the_hash_lock_expires(redis_server: RedisServer) -> None:
    r = redis_server.client()
    lock_hash(r, HASH, "first", ttl=60)
    assert 0 < int(r.ttl(hash_lock_key(HASH))) <= 60


def test_deliveries_are_counted_per_message_and_retry(redis_server: RedisServer) -> None:
    r = redis_server.client()
    assert [count_delivery(r, "task-1", 0, ttl=60) for _ in range(3)] == [1, 2, 3]
    assert count_delivery(r, "task-1", 1, ttl=60) == 1  # a retry is a new message
    assert deliveries(r, "task-1") == {0: 3, 1: 1}
    assert deliveries(r, "task-2") == {}
