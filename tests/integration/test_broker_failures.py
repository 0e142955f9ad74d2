"""The broker fails: Redis killed and restarted on its AOF, and Redis full (backpressure)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from sqlalchemy import func, select

import redis
from lease_parser.cli import ExitCode
from lease_parser.deadletter import get_dead_letter
from lease_parser.errors import BrokerFullError
from lease_parser.local import RedisServer
from lease_parser.pipeline.publish import publish
from lease_parser.pipeline.routing import EXTRACT_CLAUSES, EXTRACTION
from lease_parser.pipeline.submit import SubmitReceipt, submit_document
from lease_parser.soak import lease_documents
from lease_parser.store import DocumentState, SubmissionRow
from tests.integration.conftest import SAMPLES, Pipeline, make_pipeline, run_cli
from tests.integration.documents import multi_page_scan
from tests.waiting import wait_for


def _submit_new(pipeline: Pipeline, name: str, data: bytes) -> SubmitReceipt:
    pipeline.put(f"incoming/{name}", data)
    return submit_document(pipeline.app, f"incoming/{name}", hashlib.sha256(data).hexdigest())


def _aof_written(pipeline: Pipeline) -> bool:
    """Redis has written every acknowledged write to its AOF file. Redis is SIGKILLed here,
    not the machine, so what is written survives in the page cache whether or not the
    once-a-second fsync (appendfsync everysec) ran; what can be lost is a write Redis
    postponed while a background fsync was running, which waits in its AOF buffer."""
    info = pipeline.redis_server.client().info("persistence")
    return info["aof_enabled"] == 1 and info["aof_buffer_length"] == 0


def _pending(pipeline: Pipeline, hashes: list[str]) -> int:
    rows = [pipeline.runtime.store.document(h) for h in hashes]
    return sum(1 for row in rows if row is not None and row.state == DocumentState.PENDING)


def test_redis_sigkilled_after_acknowledged_submissions_loses_nothing_and_commits_once(
    fast_pipeline: Pipeline,
) -> None:
    pipeline = fast_pipeline
    worker = pipeline.worker("through-restart", concurrency=1).start()
    try:
        corrupt = _submit_new(
            pipeline, "truncated.pdf", (SAMPLES / "truncated_upload.pdf").read_bytes()
        )
        assert pipeline.wait_final(corrupt.doc_hash).state == "dead"
        # An eight-page scan first (many seconds of OCR for the one child, however slow
        # the submissions are on a loaded machine), then 24 leases queued behind it: a task
        # in flight and a backlog at the kill.
        hashes = [_submit_new(pipeline, "scan.pdf", multi_page_scan(8)).doc_hash]
        hashes += [_submit_new(pipeline, n, d).doc_hash for n, d in lease_documents(24, seed=3)]
        wait_for(lambda: _aof_written(pipeline), "the submissions written to the AOF")
        assert _pending(pipeline, hashes) > 0, "everything finished before the kill"
        pipeline.redis_server.kill()
        pipeline.redis_server.start()  # same port, same data directory: replays the AOF
        for doc_hash in hashes:
            assert pipeline.wait_final(doc_hash, timeout=240).state in ("committed", "review")
            assert pipeline.final_events(doc_hash) == 1
        # The dead letter recorded before the crash survived it, with the store's state.
        letter = get_dead_letter(pipeline.runtime.redis, corrupt.doc_hash)
        assert letter is not None
        assert letter.reason == "corrupt"
    finally:
        worker.stop()
        pipeline.app.close()


def _submission_count(pipeline: Pipeline) -> int:
    with pipeline.runtime.store.session() as s:
        return int(s.scalar(select(func.count()).select_from(SubmissionRow)) or 0)


def _fill(r: redis.Redis) -> None:
    for _ in range(100):  # 10 MB at most; this broker's maxmemory is ~2 MB
        r.append("ballast", b"x" * 100_000)


def test_a_full_broker_refuses_submissions_and_keeps_everything_already_queued(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    # Production keeps 10% of 4 GB as the workers' headroom; this broker is ~2 MB, so
    # the mark sits at half of it to leave the workers' own connections room to drain.
    pipeline = make_pipeline(tmp_path, redis_server, LEASE_BROKER_HIGH_WATER="0.5")
    r = pipeline.runtime.redis
    documents = lease_documents(400, seed=4)
    accepted = [_submit_new(pipeline, *next(documents))]  # connections and scripts warm
    used = int(r.info("memory")["used_memory"])
    r.config_set("maxmemory", 2 * (used + 150_000))  # the mark: ~150 KB of messages more
    with pytest.raises(BrokerFullError, match="drain the queues"):
        accepted.extend(_submit_new(pipeline, name, data) for name, data in documents)
    assert 20 < len(accepted) < 400
    # The refused submission left no record behind; every accepted one is queued.
    assert _submission_count(pipeline) == len(accepted)
    assert r.llen(EXTRACTION) == len(accepted)

    # The CLI says so with its own exit code. Redis's own allocations move a little once
    # the refusal is made (a freed buffer): keep it at the mark, below maxmemory.
    mark = int(0.5 * int(r.config_get("maxmemory")["maxmemory"]))
    shortfall = mark - int(r.info("memory")["used_memory"]) + 20_000
    if shortfall > 0:
        r.set("at-the-mark", b"x" * shortfall)
    name, data = next(documents)
    pipeline.put(f"incoming/{name}", data)
    cli = run_cli(pipeline, "submit", f"incoming/{name}")
    assert cli.returncode == ExitCode.BROKER_FULL, cli.stderr
    assert "broker is full" in cli.stderr
    assert "maxmemory" in cli.stderr

    # Past maxmemory, Redis itself refuses the write (noeviction): the same error.
    with pytest.raises(redis.exceptions.OutOfMemoryError):
        _fill(r)
    message = {"doc_key": "k", "doc_hash": "0" * 64, "submission_id": "s"}
    with pytest.raises(BrokerFullError):
        publish(pipeline.app, EXTRACT_CLAUSES, message)
    r.delete("ballast", "at-the-mark")
    assert r.llen(EXTRACTION) == len(accepted)  # nothing evicted

    # The workers drain the queue in the headroom the mark left them.
    worker = pipeline.worker("drain", concurrency=2).start()
    try:
        for receipt in accepted:
            row = pipeline.wait_final(receipt.doc_hash, timeout=240)
            assert row.state in ("committed", "review")
            assert pipeline.final_events(receipt.doc_hash) == 1
    finally:
        worker.stop()
        pipeline.app.close()
