"""What the broker itself costs: the dedup hash lock, and Redis memory per queued document.

Both against the benchmark's own redis-server (from redis/redis.conf), with no worker
attached: the queue only grows, so ``INFO memory`` before and after N messages divided
by N is what a backlog of N documents costs the broker (noeviction: when it is full,
submits fail). The messages are real: published through ``pipeline.publish`` with the
fields, task and task id ``submit_document`` gives them (checked against one it sends).
``submit_document``'s other step, the store row, does not touch Redis and would only
make this phase slow.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import redis
from lease_parser.bench.phase import Say, phase_settings
from lease_parser.bench.stats import Summary, summarize
from lease_parser.local import LocalCluster
from lease_parser.pipeline.idempotency import lock_hash
from lease_parser.pipeline.publish import publish
from lease_parser.pipeline.routing import EXTRACT_CLAUSES, EXTRACTION


@dataclass(frozen=True)
class BrokerCosts:
    lock_s: Summary  # one lock_hash (a Lua EVAL round trip)
    ping_s: Summary  # one PING round trip on the same connection: the floor
    publish_s: Summary  # one publish of a submit message
    queued: int
    bytes_per_queued_doc: float
    message_bytes: int  # one message as it sits in the queue list


def _timed_calls(n: int, call: Callable[[int], object]) -> Summary:
    samples = []
    for i in range(n):
        start = time.perf_counter()
        call(i)
        samples.append(time.perf_counter() - start)
    return summarize(samples)


def _fake_hash(i: int) -> str:
    return hashlib.sha256(f"bench-queued-{i}".encode()).hexdigest()


def _submit_message(i: int) -> tuple[dict[str, str], str]:
    """The message ``submit_document`` publishes for a document, and its task id."""
    task_id = str(uuid.uuid4())
    key = f"incoming/bench-queued-{i:06d}.pdf"
    return {"doc_key": key, "doc_hash": _fake_hash(i), "submission_id": task_id}, task_id


def _check_same_fields(raw: object) -> None:
    """Refuse to measure if ``submit_document``'s message no longer has our fields."""
    assert isinstance(raw, bytes)
    _args, kwargs, _embed = json.loads(base64.b64decode(json.loads(raw)["body"]))
    ours = _submit_message(0)[0]
    if set(kwargs) != set(ours):
        raise RuntimeError(
            f"submit_document now publishes {sorted(kwargs)}, the benchmark {sorted(ours)}: "
            "update _submit_message in lease_parser/bench/broker.py"
        )


def _lock_costs(r: redis.Redis, locks: int, ttl: int) -> tuple[Summary, Summary]:
    holder = str(uuid.uuid4())
    ping = _timed_calls(locks, lambda _i: r.ping())
    lock = _timed_calls(locks, lambda i: lock_hash(r, _fake_hash(i), holder, ttl))
    return lock, ping


def measure_broker(data_dir: Path, messages: int, locks: int, say: Say) -> BrokerCosts:
    from lease_parser.pipeline.app import create_app
    from lease_parser.pipeline.runtime import runtime_for
    from lease_parser.pipeline.submit import submit_document

    with LocalCluster(data_dir, concurrency={}) as cluster:
        settings = phase_settings(data_dir, cluster.env)
        app = create_app(settings)
        runtime = runtime_for(settings)
        r = runtime.redis
        try:
            say(f"  broker: {locks} dedup hash locks")
            lock, ping = _lock_costs(r, locks, settings.hash_lock_ttl)
            r.flushall()

            def submit(i: int) -> None:
                message, task_id = _submit_message(i)
                publish(app, EXTRACT_CLAUSES, message, task_id=task_id)
                if (i + 1) % 2000 == 0:
                    say(f"  broker: {i + 1}/{messages} queued")

            # The first, through submit_document itself, creates the queue, kombu's bindings
            # and the connection, and shows that our messages are the ones it sends.
            submit_document(app, "incoming/warm-up.pdf", _fake_hash(-1))
            _check_same_fields(r.lindex(EXTRACTION, 0))
            before = int(r.info("memory")["used_memory"])
            say(f"  broker: queueing {messages} documents with no worker")
            publish_s = _timed_calls(messages, submit)
            after = int(r.info("memory")["used_memory"])
            queued = int(r.llen(EXTRACTION)) - 1
            sample = r.lindex(EXTRACTION, 0)
            message_bytes = len(sample) if isinstance(sample, bytes) else 0
            r.flushall()
        finally:
            app.close()
            runtime.store.close()
    if queued != messages:
        raise RuntimeError(f"{messages} submitted but {queued} queued in {EXTRACTION}")
    return BrokerCosts(lock, ping, publish_s, queued, (after - before) / messages, message_bytes)
