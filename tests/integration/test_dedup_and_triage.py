"""Exactly-once under concurrent duplicates, and the dead-letter triage an operator runs."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from lease_parser.cli import ExitCode
from lease_parser.deadletter import get_dead_letter
from lease_parser.local import WorkerProcess
from lease_parser.pipeline.submit import submit_document
from tests.integration.conftest import SAMPLES, Pipeline, run_cli


def test_twenty_concurrent_submissions_of_the_same_content_are_processed_once(
    pipeline: Pipeline, worker: WorkerProcess
) -> None:
    data = (SAMPLES / "harbor_point_office_lease.pdf").read_bytes()
    keys = [f"inbox/{i:02d}/office-lease.pdf" for i in range(20)]
    for key in keys:
        pipeline.put(key, data)
    with ThreadPoolExecutor(max_workers=20) as pool:
        receipts = list(pool.map(lambda key: submit_document(pipeline.app, key), keys))
    assert len({r.doc_hash for r in receipts}) == 1
    pipeline.wait_submissions_done([r.task_id for r in receipts], timeout=180)
    store = pipeline.runtime.store
    states = Counter(store.submission(r.task_id).state for r in receipts)  # type: ignore[union-attr]
    assert states == {"processed": 1, "duplicate": 19}
    assert pipeline.final_events(receipts[0].doc_hash) == 1


def test_dead_letters_are_listed_shown_and_requeued_by_hand(
    pipeline: Pipeline, worker: WorkerProcess
) -> None:
    data = (SAMPLES / "maple_grove_retail_lease.pdf").read_bytes()
    doc_hash = hashlib.sha256(data).hexdigest()
    # Ingestion announced a lease whose upload has not landed: dead, not_found.
    submit_document(pipeline.app, "late/retail.pdf", doc_hash)
    assert pipeline.wait_final(doc_hash).reason == "not_found"

    listed = run_cli(pipeline, "dead", "list", "--reason", "not_found", "--json")
    assert listed.returncode == 0, listed.stderr
    [letter] = json.loads(listed.stdout)
    assert (letter["doc_hash"], letter["reason"], letter["attempts"]) == (doc_hash, "not_found", 1)
    assert "check the key" in letter["diagnosis"]

    shown = run_cli(pipeline, "dead", "show", doc_hash, "--json")
    assert shown.returncode == 0, shown.stderr
    detail = json.loads(shown.stdout)
    assert detail["payload"]["doc_key"] == "late/retail.pdf"
    assert "ObjectNotFound" in detail["traceback"]
    assert run_cli(pipeline, "dead", "show", "f" * 64).returncode == ExitCode.NOT_FOUND

    # The operator fixes the cause (the upload lands), then replays it by hand.
    pipeline.put("late/retail.pdf", data)
    requeued = run_cli(pipeline, "dead", "requeue", doc_hash, "--json")
    assert requeued.returncode == 0, requeued.stderr
    [receipt] = json.loads(requeued.stdout)
    assert receipt["doc_hash"] == doc_hash
    row = pipeline.wait_final(doc_hash)
    assert row.state in ("committed", "review")
    assert get_dead_letter(pipeline.runtime.redis, doc_hash) is None
    assert pipeline.runtime.store.commit_events(doc_hash) <= 1
    again = run_cli(pipeline, "dead", "requeue", doc_hash)
    assert again.returncode == ExitCode.NOT_FOUND
