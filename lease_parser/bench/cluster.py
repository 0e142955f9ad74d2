"""The full pipeline phase: own redis-server, one real worker for all queues, probes on.

"Concurrency N" here means N pool processes in total, in ONE worker that consumes all
three queues (``--concurrency N``). That is the fair comparison on a 2-core machine: the
baselines run 1 or 2 documents at a time in one process, and N processes is what N cores
can run. One worker per queue at ``-c 2`` (``make run``'s layout, scaled) would be six
pool processes for two cores — the normalization pool idle most of the time, extraction
and OCR pools fighting for the same cores — measuring oversubscription, not the broker.

The clock starts before the first submit (registering it in the store and publishing it
is the pipeline's cost) and stops at the last ``finished_at`` the workers wrote in the
store, so the controller's polling interval does not count. A few warm-up documents go
through first, untimed, so that each pool process has imported, connected and opened
its stores before the clock starts (a long-lived worker's steady state).
"""

from __future__ import annotations

import datetime as dt
import os
import time
from pathlib import Path

from celery import Celery

from lease_parser.bench.corpus import CorpusDoc
from lease_parser.bench.phase import (
    DocResult,
    PhaseRun,
    Placed,
    Say,
    phase_settings,
    place_corpus,
    process_cpu_s,
)
from lease_parser.bench.probes import SPANS_ENV, read_spans
from lease_parser.bench.proc import TreeSampler, cpu_s, tree_cpu_s
from lease_parser.bench.stats import stages_by_document
from lease_parser.bench.worker import probed_worker
from lease_parser.local import LocalCluster
from lease_parser.pipeline.routing import QUEUES
from lease_parser.store import Store, last_finished_at, pending_submissions

POLL_S = 0.5  # only the tail wait depends on it: the end time is the store's


def _pending(store: Store) -> int:
    return pending_submissions(store)


def _last_finished(store: Store) -> float:
    last = last_finished_at(store)
    if last is None:
        return float("nan")
    if last.tzinfo is None:  # SQLite drops the zone; the store writes UTC
        last = last.replace(tzinfo=dt.UTC)
    return float(last.timestamp())


def _wait(store: Store, total: int, label: str, timeout: float, say: Say) -> None:
    """Poll the store until no submission is pending (``total`` of them are being waited for)."""
    deadline = time.monotonic() + timeout
    shown, last_said, done = -1, 0.0, 0
    while time.monotonic() < deadline:
        done = total - _pending(store)
        if done != shown and (done == total or time.monotonic() - last_said > 2):
            say(f"  {label}: {done}/{total} documents")
            shown, last_said = done, time.monotonic()
        if done == total:
            return
        time.sleep(POLL_S)
    raise TimeoutError(f"{label}: {total - done} documents still pending after {timeout:.0f}s")


def _results(
    store: Store, placed: list[Placed], stages: dict[str, dict[str, float]]
) -> list[DocResult]:
    out = []
    for item in placed:
        row = store.document(item.doc_hash)
        assert row is not None, f"{item.key} has no store record"
        out.append(
            DocResult(
                item.doc.name,
                item.doc.kind,
                item.doc.pages,
                item.doc_hash,
                row.state,
                row.reason,
                row.confidence,
                stages=stages.get(item.doc_hash, {}),
                ocr_pages=row.ocr_pages or 0,
            )
        )
    return out


def _submit(app: Celery, placed: list[Placed]) -> dict[str, float]:
    """Submit each document; return task id → monotonic time its message was published."""
    from lease_parser.pipeline.submit import submit_document

    submitted = {}
    for item in placed:
        receipt = submit_document(app, item.key, item.doc_hash)
        submitted[receipt.task_id] = time.monotonic()
    return submitted


def _cpu(worker_pid: int, redis_pid: int) -> dict[str, float]:
    main = cpu_s(worker_pid)
    return {
        "worker_main": main,
        "worker_pool": tree_cpu_s(worker_pid) - main,
        "redis": cpu_s(redis_pid),
    }


def run_pipeline(
    docs: list[CorpusDoc],
    warmup: list[CorpusDoc],
    data_dir: Path,
    concurrency: int,
    say: Say,
    timeout: float = 1800,
) -> PhaseRun:
    """Warm a fresh local pipeline up, then submit the corpus and follow it to the end."""
    from lease_parser.pipeline.app import create_app
    from lease_parser.pipeline.runtime import runtime_for

    label = f"pipeline c{concurrency}"
    spans_dir = data_dir / "spans"
    env = {SPANS_ENV: str(spans_dir), "LEASE_OBJECT_STORE": "", "LEASE_STORE_URL": ""}
    with LocalCluster(data_dir, concurrency={}, extra_env=env) as cluster:
        assert cluster.redis_server is not None
        assert cluster.redis_server.process is not None
        worker = probed_worker(
            env=cluster.env,
            queues=QUEUES,
            concurrency=concurrency,
            name=f"bench-c{concurrency}-{os.getpid()}",
            log_path=data_dir / "worker.log",
        )
        settings = phase_settings(data_dir, cluster.env)
        app = create_app(settings)
        runtime = runtime_for(settings)
        sampler: TreeSampler | None = None
        try:
            say(f"  {label}: starting a worker for all queues with --concurrency {concurrency}")
            worker.start()
            assert worker.process is not None
            pids = (worker.process.pid, cluster.redis_server.process.pid)
            warm = place_corpus(runtime.objects, warmup)
            placed = place_corpus(runtime.objects, docs)
            _submit(app, warm)
            _wait(runtime.store, len(warm), f"{label} warm-up", timeout, say)
            sampler = TreeSampler(worker.process.pid)
            sampler.start()
            cpu_before, start, submit_cpu = _cpu(*pids), time.time(), process_cpu_s()
            submitted = _submit(app, placed)
            # Only the submits count for the controller: its polling and sampling are the
            # benchmark's, not the pipeline's.
            submit_cpu = process_cpu_s() - submit_cpu
            _wait(runtime.store, len(placed), label, timeout, say)
            cpu_after = _cpu(*pids)
            wall = _last_finished(runtime.store) - start
        finally:
            peak = sampler.stop() if sampler else None
            worker.stop()
            app.close()
        hashes = {item.doc_hash for item in placed}
        spans = [s for s in read_spans(spans_dir) if s.doc_hash in hashes]
        results = _results(runtime.store, placed, stages_by_document(spans))
        runtime.store.close()
    cpu = {k: cpu_after[k] - cpu_before[k] for k in cpu_before} | {"submit": submit_cpu}
    assert peak is not None
    return PhaseRun(label, concurrency, wall, results, spans, submitted, peak.to_json(), cpu)
