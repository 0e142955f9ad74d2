"""Workers die mid-task (SIGKILL of a child, of the main process, shutdown signals): every
document still ends in exactly one final state, committed at most once."""

from __future__ import annotations

import hashlib
import os
import signal
import time

from lease_parser.deadletter import get_dead_letter
from lease_parser.local import Inspector, wait_for
from lease_parser.pipeline.idempotency import deliveries
from lease_parser.pipeline.routing import RUN_OCR_FALLBACK
from lease_parser.pipeline.submit import submit_document
from tests.integration.conftest import Pipeline
from tests.integration.documents import multi_page_scan


def _submit(pipeline: Pipeline, key: str, data: bytes) -> tuple[str, str]:
    pipeline.put(key, data)
    receipt = submit_document(pipeline.app, key, hashlib.sha256(data).hexdigest())
    return receipt.doc_hash, receipt.task_id


# Workers whose OCR tasks wait at the hold point (pipeline/hold.py) until the test says:
# a kill or a shutdown lands while the task surely runs, whatever the machine's speed.
HOLD_OCR = {"LEASE_TEST_HOLD": RUN_OCR_FALLBACK}


def _redelivered(pipeline: Pipeline, task_id: str, times: int) -> bool:
    return deliveries(pipeline.runtime.redis, task_id).get(0, 0) >= times


def test_a_child_killed_mid_task_is_redelivered_and_committed_once(
    pipeline: Pipeline, inspector: Inspector
) -> None:
    worker = pipeline.worker("child-kill", concurrency=1, **HOLD_OCR).start()
    try:
        doc_hash, _ = _submit(pipeline, "scans/one-page.pdf", multi_page_scan(1))
        held = pipeline.held()
        task = inspector.wait_active(RUN_OCR_FALLBACK, timeout=120)
        assert task["id"] == held
        os.kill(task["worker_pid"], signal.SIGKILL)
        assert pipeline.held() == held  # redelivered to the replacement child
        pipeline.release(held)
        row = pipeline.wait_final(doc_hash, timeout=240)
        assert row.state in ("committed", "review")
        assert deliveries(pipeline.runtime.redis, task["id"]) == {0: 2}
        assert pipeline.final_events(doc_hash) == 1
    finally:
        worker.stop()


def test_a_killed_main_process_gives_its_message_back_through_the_heartbeat(
    pipeline: Pipeline,
) -> None:
    """Only the main process dies (its child may even finish the task): the reaper of the
    next worker restores the message long before the hour-long visibility timeout."""
    assert pipeline.settings.visibility_timeout == 3600
    first = pipeline.worker("main-kill", concurrency=1, **HOLD_OCR).start()
    second = pipeline.worker("successor", concurrency=1)
    try:
        doc_hash, _ = _submit(pipeline, "scans/one-page.pdf", multi_page_scan(1))
        held = pipeline.held()  # the kill lands while it runs on the first worker
        first.kill()
        killed_at = time.monotonic()
        second.start()
        wait_for(lambda: _redelivered(pipeline, held, 2), 120, "the OCR message back")
        back_after = time.monotonic() - killed_at
        row = pipeline.wait_final(doc_hash, timeout=120)
        assert row.state in ("committed", "review")
        assert pipeline.final_events(doc_hash) == 1
        assert back_after < pipeline.settings.heartbeat_ttl + 60
        print(f"main-process SIGKILL: message redelivered after {back_after:.1f}s")
    finally:
        first.stop()
        second.stop()


def test_a_message_that_keeps_killing_its_worker_is_dead_lettered_not_looped(
    fast_pipeline: Pipeline, inspector: Inspector
) -> None:
    pipeline = fast_pipeline
    worker = pipeline.worker("poison", concurrency=1, LEASE_MAX_DELIVERIES="2", **HOLD_OCR)
    worker.start()
    try:
        doc_hash, _ = _submit(pipeline, "scans/poison.pdf", multi_page_scan(1))
        killed: set[int] = set()
        for _ in range(2):  # the "OOM killer" strikes every delivery, held while it runs
            pipeline.held()
            task = inspector.wait_active(RUN_OCR_FALLBACK, 120, frozenset(killed))
            os.kill(task["worker_pid"], signal.SIGKILL)
            killed.add(task["worker_pid"])
        row = pipeline.wait_final(doc_hash, timeout=120)
        assert (row.state, row.reason) == ("dead", "worker_lost")
        assert deliveries(pipeline.runtime.redis, task["id"]) == {0: 3}
        letter = get_dead_letter(pipeline.runtime.redis, doc_hash)
        assert letter is not None
        assert letter.reason == "worker_lost"
        assert letter.payload["doc_key"] == "scans/poison.pdf"
        assert pipeline.final_events(doc_hash) == 1
    finally:
        worker.stop()


def test_sigterm_lets_a_task_that_ends_within_the_soft_shutdown_timeout_finish(
    pipeline: Pipeline,
) -> None:
    worker = pipeline.worker("soft", concurrency=1, LEASE_SOFT_SHUTDOWN_TIMEOUT="20", **HOLD_OCR)
    worker.start()
    successor = pipeline.worker("after-soft", concurrency=1)
    try:
        running, _ = _submit(pipeline, "scans/running.pdf", multi_page_scan(1))
        held = pipeline.held()
        waiting, _ = _submit(pipeline, "scans/waiting.pdf", multi_page_scan(2))
        worker.process.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
        pipeline.release(held)  # it finishes within the soft shutdown's 20 s
        assert worker.wait_exit(timeout=90) == 0
        # The one-page OCR task finished and handed on: it is never run a second time.
        assert deliveries(pipeline.runtime.redis, held) == {0: 1}
        assert pipeline.runtime.store.document(waiting).state == "pending"  # type: ignore[union-attr]
        successor.start()
        for doc_hash in (running, waiting):
            row = pipeline.wait_final(doc_hash, timeout=240)
            assert row.state in ("committed", "review")
            assert pipeline.final_events(doc_hash) == 1
    finally:
        worker.stop()
        successor.stop()


def test_sigterm_during_a_slow_task_requeues_it_at_once_and_exits_within_the_timeout(
    pipeline: Pipeline,
) -> None:
    """What a rollout does to an OCR pod: no waiting out the hard limit, nothing lost."""
    assert pipeline.settings.visibility_timeout == 3600  # the re-queue cannot come from it
    soft = 3
    worker = pipeline.worker(
        "rollout", concurrency=1, LEASE_SOFT_SHUTDOWN_TIMEOUT=str(soft), **HOLD_OCR
    )
    worker.start()
    successor = pipeline.worker("after-rollout", concurrency=1)
    try:
        # Held, never released: still running when the 3 s soft shutdown ends.
        doc_hash, _ = _submit(pipeline, "scans/slow.pdf", multi_page_scan(1))
        held = pipeline.held()
        signalled = time.monotonic()
        worker.process.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
        worker.wait_exit(timeout=soft + 60)
        exited_after = time.monotonic() - signalled
        # Generous for a loaded machine; what matters is seconds, not the 1800 s limit.
        assert exited_after < soft + 30, f"exited {exited_after:.1f}s after SIGTERM"
        assert pipeline.runtime.store.document(doc_hash).state == "pending"  # type: ignore[union-attr]
        assert pipeline.runtime.redis.llen("lease_ocr") == 1  # back on its queue already
        successor.start()
        row = pipeline.wait_final(doc_hash, timeout=240)
        assert row.state in ("committed", "review")
        assert deliveries(pipeline.runtime.redis, held) == {0: 2}
        assert pipeline.final_events(doc_hash) == 1
        print(f"SIGTERM mid-task: worker gone after {exited_after:.1f}s, task re-queued")
    finally:
        worker.stop()
        successor.stop()
