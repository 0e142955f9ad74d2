"""Heartbeat recovery: a whole worker killed (main process and children) gives its messages
back within seconds, with the production visibility timeout of an hour; a live worker
running a long task is never reaped; several reapers restore a message at most once."""

from __future__ import annotations

import hashlib
import json
import threading
import time

import redis
from lease_parser.local import wait_for
from lease_parser.pipeline.app import create_app
from lease_parser.pipeline.idempotency import deliveries
from lease_parser.pipeline.reaper import INSTANCES, Reaper, alive_key, held_key
from lease_parser.pipeline.routing import EXTRACTION, RUN_OCR_FALLBACK
from lease_parser.pipeline.submit import submit_document
from tests.integration.conftest import Pipeline, make_pipeline
from tests.integration.documents import multi_page_scan


def _submit(pipeline: Pipeline, key: str, data: bytes) -> str:
    pipeline.put(key, data)
    return submit_document(pipeline.app, key, hashlib.sha256(data).hexdigest()).doc_hash


def test_a_killed_worker_s_documents_are_final_within_two_minutes_not_an_hour(
    pipeline: Pipeline,
) -> None:
    assert pipeline.settings.visibility_timeout == 3600  # production; no shortcut here
    # The victim's OCR tasks wait at the hold point (pipeline/hold.py): the kill lands while
    # both surely run.
    victim = pipeline.worker("victim", concurrency=2, LEASE_TEST_HOLD=RUN_OCR_FALLBACK).start()
    survivor = pipeline.worker("survivor", concurrency=2)
    try:
        # Distinct content (1 and 2 pages): two documents, not a duplicate.
        docs = [_submit(pipeline, f"scans/held-{n}.pdf", multi_page_scan(n)) for n in (1, 2)]
        held = [pipeline.held(180), pipeline.held(180)]
        victim.kill_all()  # main process and children at once: a lost node
        killed = time.monotonic()
        survivor.start()  # the replacement pod; its reaper restores the victim's messages
        for doc_hash in docs:
            row = pipeline.wait_final(doc_hash, timeout=max(1.0, 120 - (time.monotonic() - killed)))
            assert row.state in ("committed", "review")
            assert pipeline.final_events(doc_hash) == 1
        recovered_in = time.monotonic() - killed
        for task_id in held:
            assert deliveries(pipeline.runtime.redis, task_id) == {0: 2}
        r = pipeline.runtime.redis
        # A task's message is acknowledged just after its result is stored (acks_late): the
        # last one leaves `unacked` a moment after its document is final.
        wait_for(lambda: r.hlen("unacked") == 0, 30, "every message acknowledged")
        dead = [m.decode() for m in r.smembers(INSTANCES) if m.decode().startswith(victim.hostname)]
        assert dead == []  # the reaper forgot the dead instance once it held nothing
        print(f"whole-worker SIGKILL: both documents final {recovered_in:.1f}s after the kill")
    finally:
        victim.stop()
        survivor.stop()


def test_a_live_worker_running_a_task_far_longer_than_the_ttl_is_never_reaped(
    tmp_path, redis_server
) -> None:
    pipeline = make_pipeline(
        tmp_path, redis_server, LEASE_HEARTBEAT_INTERVAL="1", LEASE_HEARTBEAT_TTL="3"
    )
    slow = pipeline.worker(
        "slow", queues=("lease_ocr",), concurrency=1, LEASE_TEST_HOLD=RUN_OCR_FALLBACK
    ).start()
    reapers = [pipeline.worker(f"reaper{i}", queues=(EXTRACTION,)).start() for i in (1, 2)]
    try:
        doc_hash = _submit(pipeline, "scans/long.pdf", multi_page_scan(1))
        held = pipeline.held()  # running, and held there for as long as the test says
        r = pipeline.runtime.redis
        ttl = pipeline.settings.heartbeat_ttl
        started = time.monotonic()
        # Three TTLs pass with the task running: the reapers (a sweep a second) never
        # restore its message, because its worker's heartbeat is alive.
        while time.monotonic() - started < 3 * ttl:
            assert deliveries(r, held) == {0: 1}, "a live worker's running task was reaped"
            time.sleep(0.5)
        pipeline.release(held)
        normalizer = pipeline.worker("normalizer", queues=("lease_normalization",)).start()
        try:
            row = pipeline.wait_final(doc_hash, timeout=240)
        finally:
            normalizer.stop()
        assert row.state in ("committed", "review")
        assert deliveries(r, held) == {0: 1}
        assert pipeline.final_events(doc_hash) == 1
    finally:
        slow.stop()
        for w in reapers:
            w.stop()
        pipeline.app.close()


def _strand(r: redis.Redis, instance: str, count: int) -> list[bytes]:
    """Move ``count`` queued messages into kombu's unacked hash as a delivery to a dead
    ``instance`` would (kombu QoS.append: [message, exchange, routing key] by tag)."""
    tags = []
    for n in range(count):
        raw = r.rpop(EXTRACTION)
        assert raw is not None
        message = json.loads(raw)
        info = message["properties"]["delivery_info"]
        tag = f"tag-{n}"
        r.hset("unacked", tag, json.dumps([message, info["exchange"], info["routing_key"]]))
        r.zadd("unacked_index", {tag: time.time()})
        r.hset(held_key(instance), tag, json.dumps({"task_id": message["headers"]["id"]}))
        tags.append(raw)
    r.sadd(INSTANCES, instance)
    return tags


def test_four_reapers_at_once_restore_each_message_exactly_once(pipeline: Pipeline) -> None:
    r = pipeline.runtime.redis
    for i in range(6):
        _submit(pipeline, f"docs/{i}.pdf", f"not really a pdf {i}".encode())
    _strand(r, "gone@host#1", 6)
    _strand(r, "alive@host#2", 0)
    r.set(alive_key("alive@host#2"), "alive@host", ex=60)
    assert r.llen(EXTRACTION) == 0

    restored: list[int] = []
    apps = [create_app(pipeline.settings) for _ in range(4)]
    connections = [app.connection_for_write() for app in apps]

    def reap(connection: object) -> None:
        reaper = Reaper(
            redis.Redis.from_url(pipeline.settings.broker_url), connection.default_channel
        )  # type: ignore[attr-defined]
        restored.append(len(reaper.reap()))

    threads = [threading.Thread(target=reap, args=(c,)) for c in connections]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for c, app in zip(connections, apps, strict=True):
        c.release()
        app.close()
    assert sum(restored) == 6
    assert r.llen(EXTRACTION) == 6
    assert r.hlen("unacked") == 0
    assert r.zcard("unacked_index") == 0
    assert r.smembers(INSTANCES) == {b"alive@host#2"}
    messages = [json.loads(m) for m in r.lrange(EXTRACTION, 0, -1)]
    assert all(m["headers"]["redelivered"] for m in messages)
    assert len({m["headers"]["id"] for m in messages}) == 6


def test_a_reaper_leaves_the_messages_of_a_worker_that_beats_again(pipeline: Pipeline) -> None:
    r = pipeline.runtime.redis
    _submit(pipeline, "docs/late.pdf", b"a late beat")
    _strand(r, "late@host#3", 1)
    r.set(alive_key("late@host#3"), "late@host", ex=60)  # it beat just in time
    with pipeline.app.connection_for_write() as connection:
        reaper = Reaper(r, connection.default_channel)
        assert reaper.reap_instance("late@host#3") == []
    assert r.hlen("unacked") == 1
    assert r.llen(EXTRACTION) == 0
    assert r.hlen(held_key("late@host#3")) == 1
