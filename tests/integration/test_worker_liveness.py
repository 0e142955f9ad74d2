"""`healthcheck --worker` sees a worker that answers pings but no longer consumes.

The consumer is stopped the way Celery's own remote control does it (``cancel_consumer``):
the worker keeps answering control pings, exactly like the workers of celery #8030 /
#10205 / #10302 after a Redis reconnect, while its queue grows.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lease_parser.local import Inspector, RedisServer, wait_for
from lease_parser.pipeline.routing import QUEUES, RUN_OCR_FALLBACK
from lease_parser.pipeline.submit import submit_document
from tests.integration.conftest import SAMPLES, Pipeline, make_pipeline, run_cli
from tests.integration.documents import multi_page_scan

STALL = "4"  # seconds: --stalled-after for these tests


@pytest.fixture
def beating(tmp_path: Path, redis_server: RedisServer) -> Iterator[Pipeline]:
    # A short soft shutdown: the busy worker is stopped mid-task at the end of its test.
    p = make_pipeline(
        tmp_path,
        redis_server,
        LEASE_HEARTBEAT_INTERVAL="1",
        LEASE_HEARTBEAT_TTL="3",
        LEASE_SOFT_SHUTDOWN_TIMEOUT="1",
    )
    yield p
    p.app.close()


def _check(pipeline: Pipeline, node: str) -> subprocess.CompletedProcess[str]:
    return run_cli(pipeline, "healthcheck", "--worker", node, "--stalled-after", STALL, "--json")


def _submit(pipeline: Pipeline, key: str, data: bytes) -> str:
    pipeline.put(key, data)
    return submit_document(pipeline.app, key, hashlib.sha256(data).hexdigest()).doc_hash


def test_a_worker_that_stopped_consuming_fails_liveness_though_it_answers_pings(
    beating: Pipeline,
) -> None:
    pipeline = beating
    worker = pipeline.worker("stuck", concurrency=1).start()
    try:
        assert _check(pipeline, worker.hostname).returncode == 0
        for queue in QUEUES:
            pipeline.app.control.cancel_consumer(queue, destination=[worker.hostname], reply=True)
        doc_hash = _submit(
            pipeline, "leases/waiting.pdf", (SAMPLES / "harbor_point_office_lease.pdf").read_bytes()
        )
        failed = wait_for(
            lambda: (r := _check(pipeline, worker.hostname)).returncode == 1 and r,
            60,
            "the liveness check failing",
            interval=0.5,
        )
        report = json.loads(failed.stdout)
        assert report["healthy"] is False
        assert "lease_extraction (1)" in report["problem"]
        assert "has taken none" in report["problem"]
        # ... while the plain ping, the old probe, still passes.
        assert pipeline.app.control.ping(destination=[worker.hostname], timeout=5)
        # Consuming again, it takes the message and is healthy again.
        pipeline.app.control.add_consumer(
            "lease_extraction", destination=[worker.hostname], reply=True
        )
        pipeline.app.control.add_consumer(
            "lease_normalization", destination=[worker.hostname], reply=True
        )
        pipeline.wait_final(doc_hash, timeout=120)
        assert _check(pipeline, worker.hostname).returncode == 0
    finally:
        worker.stop()


def test_a_worker_busy_on_a_long_task_stays_live_while_its_queue_waits(
    beating: Pipeline, inspector: Inspector
) -> None:
    pipeline = beating
    worker = pipeline.worker("busy", concurrency=1).start()
    try:
        # Fourteen OCR pages (~1 s each): the one slot stays busy well past --stalled-after;
        # the worker is stopped mid-task at the end (a one-second soft shutdown).
        _submit(pipeline, "scans/long.pdf", multi_page_scan(14))
        inspector.wait_active(RUN_OCR_FALLBACK, timeout=120)
        _submit(pipeline, "scans/next.pdf", multi_page_scan(1))  # waits: the one slot is busy
        wait_for(
            lambda: pipeline.runtime.redis.llen("lease_extraction") == 1, 30, "a waiting message"
        )
        started = time.monotonic()
        # Past --stalled-after with the message still waiting and the one slot still busy.
        while time.monotonic() - started < 1.5 * float(STALL):
            result = _check(pipeline, worker.hostname)
            assert result.returncode == 0, result.stdout
            assert pipeline.runtime.redis.llen("lease_extraction") == 1
            time.sleep(1)
    finally:
        worker.stop()
