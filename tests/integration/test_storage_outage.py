"""The object store fails: an S3 endpoint down then back (retried), a missing key (dead at once).

moto runs as a real HTTP server; "down" is its process stopped, "back" is a new one on
the same port. moto keeps objects in memory, so the test puts the lease back, as a real
S3 outage would have kept it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest

from lease_parser.deadletter import get_dead_letter
from lease_parser.local import RedisServer, wait_for
from lease_parser.pipeline.idempotency import deliveries
from lease_parser.pipeline.submit import submit_document
from tests.integration.conftest import SAMPLES, MotoServer, Pipeline, make_pipeline


@pytest.fixture
def s3_pipeline(
    tmp_path: Path, redis_server: RedisServer, moto_server: MotoServer
) -> Iterator[Pipeline]:
    boto3.client("s3", endpoint_url=moto_server.url).create_bucket(Bucket="leases")
    p = make_pipeline(
        tmp_path,
        redis_server,
        LEASE_OBJECT_STORE="s3://leases/docs",
        LEASE_S3_ENDPOINT_URL=moto_server.url,
        # Seconds, not minutes, between retries; still below the visibility timeout.
        LEASE_RETRY__BACKOFF_BASE="1",
        LEASE_RETRY__BACKOFF_MAX="2",
        LEASE_RETRY__MAX_RETRIES="10",
    )
    yield p
    p.app.close()


def test_an_s3_outage_is_retried_with_backoff_then_the_lease_goes_through(
    s3_pipeline: Pipeline, moto_server: MotoServer
) -> None:
    pipeline = s3_pipeline
    data = (SAMPLES / "maple_grove_retail_lease.pdf").read_bytes()
    pipeline.put("incoming/retail.pdf", data)
    worker = pipeline.worker("s3-outage", concurrency=1).start()
    try:
        moto_server.stop()
        receipt = submit_document(
            pipeline.app, "incoming/retail.pdf", hashlib.sha256(data).hexdigest()
        )
        r = pipeline.runtime.redis
        wait_for(lambda: max(deliveries(r, receipt.task_id), default=0) >= 2, 120, "2 retries")
        assert pipeline.runtime.store.document(receipt.doc_hash).state == "pending"  # type: ignore[union-attr]

        moto_server.start()
        boto3.client("s3", endpoint_url=moto_server.url).create_bucket(Bucket="leases")
        pipeline.put("incoming/retail.pdf", data)
        row = pipeline.wait_final(receipt.doc_hash, timeout=120)
        assert row.state in ("committed", "review")
        assert pipeline.final_events(receipt.doc_hash) == 1
        # Each retry was a new message (retry number + 1), each delivered once.
        tries = deliveries(r, receipt.task_id)
        assert len(tries) >= 3
        assert set(tries.values()) == {1}
        assert get_dead_letter(r, receipt.doc_hash) is None
    finally:
        worker.stop()


def test_a_missing_key_is_dead_at_once_without_a_single_retry(s3_pipeline: Pipeline) -> None:
    pipeline = s3_pipeline
    worker = pipeline.worker("s3-missing", concurrency=1).start()
    try:
        receipt = submit_document(pipeline.app, "incoming/never-uploaded.pdf", "ab" * 32)
        row = pipeline.wait_final(receipt.doc_hash, timeout=120)
        assert (row.state, row.reason) == ("dead", "not_found")
        assert deliveries(pipeline.runtime.redis, receipt.task_id) == {0: 1}
        letter = get_dead_letter(pipeline.runtime.redis, receipt.doc_hash)
        assert letter is not None
        assert (letter.reason, letter.attempts) == ("not_found", 1)
        assert "NoSuchKey" in letter.detail or "404" in letter.detail
    finally:
        worker.stop()
