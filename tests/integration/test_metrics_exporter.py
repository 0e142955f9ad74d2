"""`lease-parser metrics` against a real redis-server with messages really queued, no worker.

Every value the exporter serves over HTTP is checked against what Redis and the store hold
(read here directly) and against the numbers the test put there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select

from lease_parser.deadletter import DeadLetter, dead_letter_depth, record_dead_letter
from lease_parser.local import free_port
from lease_parser.pipeline import signals as pipeline_signals
from lease_parser.pipeline.queues import (
    ALL_QUEUES,
    PUBLISHED_AT_HEADER,
    UNACKED_KEY,
    priority_keys,
)
from lease_parser.pipeline.routing import (
    EXTRACTION,
    NORMALIZATION,
    NORMALIZE_FINANCIALS,
    OCR,
    RUN_OCR_FALLBACK,
    UNROUTED,
)
from lease_parser.pipeline.submit import submit_document
from lease_parser.store import DocumentRow, DocumentState, Outcome, Store
from tests.integration.conftest import SAMPLES, Pipeline

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(port: int) -> Samples:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as resp:
        text = resp.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


@contextmanager
def exporter(env: dict[str, str], log: Path) -> Iterator[int]:
    """A real `lease-parser metrics` process; yields its port once it answers."""
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "lease_parser", "metrics", "--port", str(port)],
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                scrape(port)
                break
            except OSError:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "exporter did not answer"
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        # SIGTERM is Kubernetes' stop: a clean exit, not a traceback.
        assert proc.wait(10) == 0, log.read_text()


def documents_by_state(store: Store) -> dict[str, int]:
    """Read straight from the table, independently of the exporter's query."""
    with store.session() as s:
        rows = s.execute(select(DocumentRow.state, func.count()).group_by(DocumentRow.state))
        return {str(state): int(n) for state, n in rows}


#: How far back the first messages of a test are stamped (seconds).
EARLIER = 60.0


def _message(n: int) -> dict[str, str]:
    return {"doc_key": f"k{n}", "doc_hash": f"{n:064x}", "submission_id": f"s{n}"}


def test_depths_are_present_and_zero_before_anything_exists(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    with exporter(pipeline.env, tmp_path / "exporter.log") as port:
        samples = scrape(port)
    for queue in ALL_QUEUES:
        assert value(samples, "lease_queue_depth", queue=queue) == 0
        assert value(samples, "lease_oldest_message_age_seconds", queue=queue) == 0
    assert value(samples, "lease_unacked_messages") == 0
    assert value(samples, "lease_dead_letter_depth") == 0
    assert value(samples, "lease_broker_up") == 1
    # No worker or submit has created the store's schema yet: reported, not crashed.
    assert value(samples, "lease_store_up") == 0


def test_every_value_matches_redis_and_the_store_with_no_worker_running(
    pipeline: Pipeline, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, r, store = pipeline.app, pipeline.redis_server.client(), pipeline.runtime.store

    # The oldest OCR message has the lowest priority, so it sits in a priority sub-list.
    # The first two messages are stamped a minute back (the publish stamp's clock is the
    # one thing faked): the ages below are then a minute apart, without waiting for one.
    first_publish = time.time() - EARLIER
    with monkeypatch.context() as m:
        clock = SimpleNamespace(time=lambda: first_publish, monotonic=time.monotonic)
        m.setattr(pipeline_signals, "time", clock)
        app.send_task(RUN_OCR_FALLBACK, kwargs=_message(0), priority=9)
        app.send_task("lease_parser.no_such_task", kwargs=_message(1))  # goes to unrouted
    second_batch = time.time()
    for n, priority in enumerate([9, 6, 5, 3, 0], start=2):
        app.send_task(RUN_OCR_FALLBACK, kwargs=_message(n), priority=priority)
    receipts = []
    for name in ("harbor_point_office_lease.pdf", "maple_grove_retail_lease.pdf"):
        pipeline.put(f"in/{name}", (SAMPLES / name).read_bytes())
        receipts.append(submit_document(app, f"in/{name}"))
    for n in (10, 11, 12):
        app.send_task(NORMALIZE_FINANCIALS, kwargs=_message(n))

    # A consumer holds one normalization message without acking it (a worker mid-task).
    conn = app.connection_for_read()
    held = conn.default_channel.basic_get(NORMALIZATION, no_ack=False)
    assert held is not None

    for n in range(3):
        record_dead_letter(r, DeadLetter(f"{n:064x}", f"k{n}", f"s{n}", "t", "corrupt", 1))
    store.finish(receipts[0].doc_hash, receipts[0].task_id, Outcome(DocumentState.REVIEW))

    # What kombu did with the priorities: 6 OCR messages spread over 4 lists (5 -> step 3).
    lengths = [r.llen(key) for key in priority_keys(OCR)]
    assert lengths == [1, 2, 1, 2]
    assert json.loads(r.lindex(EXTRACTION, -1))["headers"][PUBLISHED_AT_HEADER] >= first_publish

    try:
        with exporter(pipeline.env, tmp_path / "exporter.log") as port:
            samples = scrape(port)
            scraped_at = time.time()
        in_redis = {q: sum(r.llen(key) for key in priority_keys(q)) for q in ALL_QUEUES}
        unacked_in_redis = r.hlen(UNACKED_KEY)
    finally:
        conn.release()

    expected_depths = {EXTRACTION: 2, OCR: 6, NORMALIZATION: 2, UNROUTED: 1}
    for queue, expected in expected_depths.items():
        assert value(samples, "lease_queue_depth", queue=queue) == expected == in_redis[queue]
    assert value(samples, "lease_unacked_messages") == 1 == unacked_in_redis
    assert value(samples, "lease_dead_letter_depth") == 3 == dead_letter_depth(r)
    # redis/redis.conf: maxmemory 4gb. Used memory moves a little between two reads.
    max_bytes = int(r.config_get("maxmemory")["maxmemory"])
    assert value(samples, "lease_broker_memory_max_bytes") == 4 * 2**30 == max_bytes
    used = value(samples, "lease_broker_memory_used_bytes")
    assert abs(used - int(r.info("memory")["used_memory"])) < 2**20
    counts = documents_by_state(store)
    assert value(samples, "lease_review_depth") == 1 == counts[DocumentState.REVIEW]
    assert value(samples, "lease_store_documents", state="pending") == 1
    assert value(samples, "lease_store_up") == 1
    for state in DocumentState:
        assert value(samples, "lease_store_documents", state=state) == counts.get(state, 0)

    ages = {q: value(samples, "lease_oldest_message_age_seconds", queue=q) for q in ALL_QUEUES}
    assert EARLIER <= ages[OCR] <= scraped_at - first_publish
    assert ages[UNROUTED] <= ages[OCR]
    assert ages[EXTRACTION] <= scraped_at - second_batch
    # The OCR queue's oldest message (priority 9, in a sub-list) was published a minute
    # before anything in lease_extraction: the age reads every sub-list's tail.
    assert ages[OCR] - ages[EXTRACTION] >= EARLIER

    # Closing the consumer's connection hands the held message back (kombu restores it).
    assert r.hlen(UNACKED_KEY) == 0
    assert sum(r.llen(key) for key in priority_keys(NORMALIZATION)) == 3


def test_a_dead_broker_is_reported_not_fatal(pipeline: Pipeline, tmp_path: Path) -> None:
    with exporter(pipeline.env, tmp_path / "exporter.log") as port:
        pipeline.redis_server.stop()
        samples = scrape(port)
        assert value(samples, "lease_broker_up") == 0
        assert not any(name == "lease_queue_depth" for name, _ in samples)
        # Still serving the next scrape.
        assert value(scrape(port), "lease_broker_up") == 0


@pytest.mark.parametrize("priority", [None, 0, 4, 9])
def test_depth_counts_a_message_whatever_its_priority(
    pipeline: Pipeline, tmp_path: Path, priority: int | None
) -> None:
    from lease_parser.pipeline.queues import read_queues

    pipeline.app.send_task(RUN_OCR_FALLBACK, kwargs=_message(1), priority=priority)
    states = read_queues(pipeline.redis_server.client())
    assert states[OCR].depth == 1
    assert states[OCR].oldest_published_at is not None
    assert all(states[q].depth == 0 for q in ALL_QUEUES if q != OCR)
