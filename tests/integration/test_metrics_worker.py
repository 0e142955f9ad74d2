"""A real prefork worker serves its children's metrics, aggregated, and they match the store.

The worker runs with PROMETHEUS_MULTIPROC_DIR and LEASE_WORKER_METRICS_PORT, as in the
Kubernetes Deployments; its /metrics is scraped over HTTP.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from prometheus_client.mmap_dict import MmapedDict, mmap_key
from sqlalchemy import select

from lease_parser.local import WorkerProcess, free_port
from lease_parser.pipeline.routing import EXTRACT_CLAUSES, NORMALIZE_FINANCIALS
from lease_parser.pipeline.submit import submit_document
from lease_parser.store import DocumentRow, SubmissionRow
from tests.integration.conftest import SAMPLES, Pipeline, make_pipeline
from tests.integration.test_metrics_exporter import Samples, scrape

pytestmark = pytest.mark.timeout(300)


def metrics_worker(pipeline: Pipeline, tmp_path: Path, concurrency: int = 2) -> WorkerProcess:
    return pipeline.worker(
        "metrics",
        concurrency=concurrency,
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "prom"),
        LEASE_WORKER_METRICS_PORT=str(free_port()),
    )


def port_of(worker: WorkerProcess) -> int:
    return int(worker.env["LEASE_WORKER_METRICS_PORT"])


def total(samples: Samples, name: str, **labels: str) -> float:
    """Sum of the samples of ``name`` whose labels include ``labels``."""
    return sum(
        v for (n, lbls), v in samples.items() if n == name and set(labels.items()) <= set(lbls)
    )


def plant_stale_file(directory: Path) -> None:
    """What a crashed container leaves in its emptyDir: a counter of a PID long gone."""
    directory.mkdir(parents=True)
    stale = MmapedDict(str(directory / "counter_4194000.db"))
    key = mmap_key(
        "lease_documents",
        "lease_documents_total",
        ["route", "reason"],
        ["committed", "none"],
        "Documents that reached a final route, by route and reason.",
    )
    stale.write_value(key, 1000.0, 0.0)
    stale.close()


def store_rows(pipeline: Pipeline) -> tuple[list[DocumentRow], list[SubmissionRow]]:
    with pipeline.runtime.store.session() as s:
        return list(s.scalars(select(DocumentRow))), list(s.scalars(select(SubmissionRow)))


def submit_file(pipeline: Pipeline, name: str, key: str, data: bytes | None = None) -> str:
    pipeline.put(key, data if data is not None else (SAMPLES / name).read_bytes())
    return submit_document(pipeline.app, key).task_id


def settled_scrape(worker: WorkerProcess) -> Samples:
    """A scrape once no task is in progress.

    The store records a document's outcome inside its last task, and the task's duration is
    observed just after it returns: a scrape between the two would miss that observation.
    """
    deadline = time.monotonic() + 30
    while total(samples := scrape(port_of(worker)), "lease_tasks_in_progress"):
        assert time.monotonic() < deadline, "a task stayed in progress"
        time.sleep(0.1)
    return samples


def assert_matches_store(pipeline: Pipeline, samples: Samples) -> None:
    documents, submissions = store_rows(pipeline)
    for doc in documents:
        assert doc.state != "pending"
    for state in {d.state for d in documents}:
        for reason in {d.reason for d in documents if d.state == state}:
            in_store = sum(1 for d in documents if (d.state, d.reason) == (state, reason))
            scraped = total(samples, "lease_documents_total", route=state, reason=reason or "none")
            assert scraped == in_store, (state, reason)
    assert total(samples, "lease_documents_total") == len(documents)
    duplicates = sum(1 for s in submissions if s.state == "duplicate")
    assert total(samples, "lease_duplicates_total") == duplicates
    # Every submission ran extract_clauses once; every abstracted document ran normalization.
    assert total(samples, "lease_task_duration_seconds_count", task=EXTRACT_CLAUSES) == len(
        submissions
    )
    abstracted = [d for d in documents if d.fields]  # dead documents have no fields
    assert total(samples, "lease_task_duration_seconds_count", task=NORMALIZE_FINANCIALS) == len(
        abstracted
    )
    assert total(samples, "lease_extraction_confidence_count") == len(abstracted)
    assert total(samples, "lease_extraction_confidence_sum") == pytest.approx(
        sum(d.confidence or 0 for d in abstracted)
    )
    assert total(samples, "lease_tasks_in_progress") == 0


def test_children_are_aggregated_and_survive_a_child_being_killed(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    plant_stale_file(tmp_path / "prom")
    worker = metrics_worker(pipeline, tmp_path).start()
    try:
        ids = [
            submit_file(pipeline, "harbor_point_office_lease.pdf", "a/office.pdf"),
            submit_file(pipeline, "maple_grove_retail_lease.pdf", "a/retail.pdf"),
            submit_file(pipeline, "riverside_sublease_tracked_changes.docx", "a/sub.docx"),
            submit_file(pipeline, "truncated_upload.pdf", "a/broken.pdf"),
            submit_file(pipeline, "maple_grove_retail_lease.pdf", "b/retail-copy.pdf"),
        ]
        pipeline.wait_submissions_done(ids)
        before = settled_scrape(worker)
        # The stale file of the crashed run was cleared, not added in.
        assert total(before, "lease_documents_total") == 4
        assert_matches_store(pipeline, before)

        # SIGKILL a child (OOM killer): its counts stay, its files are folded and removed.
        victim = worker.child_pids()[0]
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while victim in worker.child_pids() or len(worker.child_pids()) < 2:
            assert time.monotonic() < deadline, "child not replaced"
            time.sleep(0.2)
        after = settled_scrape(worker)
        prom = tmp_path / "prom"
        assert not list(prom.glob(f"*_{victim}.db"))
        assert (prom / "counter_archive.db").exists()
        for name in ("lease_documents_total", "lease_task_duration_seconds_count"):
            assert total(after, name) == total(before, name)

        # New content after the kill: the replacement child's counts add to the archive's.
        amended = (SAMPLES / "harbor_point_office_lease.pdf").read_bytes() + b"\n% amended\n"
        ids.append(submit_file(pipeline, "", "a/office-v2.pdf", amended))
        pipeline.wait_submissions_done(ids)
        assert_matches_store(pipeline, settled_scrape(worker))
    finally:
        worker.stop()


def test_retries_are_counted_by_their_transient_cause(tmp_path: Path, redis_server: object) -> None:
    """S3 endpoint down: every attempt fails with StorageUnavailable, then dead-letters."""
    dead_endpoint = f"http://127.0.0.1:{free_port()}"
    pipeline = make_pipeline(
        tmp_path,
        redis_server,  # type: ignore[arg-type]
        LEASE_OBJECT_STORE="s3://leases/incoming",
        LEASE_S3_ENDPOINT_URL=dead_endpoint,
        LEASE_RETRY__MAX_RETRIES="2",
        LEASE_RETRY__BACKOFF_BASE="1",
        LEASE_RETRY__BACKOFF_MAX="1",
        LEASE_RETRY__JITTER="0",
        AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing",
        AWS_DEFAULT_REGION="us-east-1",
    )
    worker = metrics_worker(pipeline, tmp_path, concurrency=1).start()
    try:
        receipt = submit_document(pipeline.app, "in/lease.pdf", doc_hash="ab" * 32)
        row = pipeline.wait_final(receipt.doc_hash, timeout=120)
        assert (row.state, row.reason) == ("dead", "retries_exhausted")
        samples = settled_scrape(worker)
        assert (
            total(
                samples,
                "lease_task_retries_total",
                task=EXTRACT_CLAUSES,
                reason="storage_unavailable",
            )
            == 2
        )
        assert total(samples, "lease_task_retries_total") == 2
        assert (
            total(samples, "lease_documents_total", route="dead", reason="retries_exhausted") == 1
        )
        # Three attempts ran: the first and two retries.
        assert total(samples, "lease_task_duration_seconds_count", task=EXTRACT_CLAUSES) == 3
    finally:
        worker.stop()
        pipeline.app.close()
