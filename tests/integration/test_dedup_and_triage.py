"""Exactly-once under concurrent duplicates, and the dead-letter triage an operator runs."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
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


def _cli_with_input(pipeline: Pipeline, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lease_parser", *args],
        env={**os.environ, **pipeline.env},
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_dead_letter_is_discarded_only_after_confirmation_and_stays_requeueable(
    pipeline: Pipeline, worker: WorkerProcess
) -> None:
    data = (SAMPLES / "truncated_upload.pdf").read_bytes()
    pipeline.put("junk/truncated.pdf", data)
    doc_hash = submit_document(pipeline.app, "junk/truncated.pdf").doc_hash
    assert pipeline.wait_final(doc_hash).state == "dead"

    declined = _cli_with_input(pipeline, "n\n", "dead", "discard", doc_hash)
    assert declined.returncode == ExitCode.INTERRUPTED, declined.stderr
    assert "junk/truncated.pdf" in declined.stdout  # shown before the question
    assert get_dead_letter(pipeline.runtime.redis, doc_hash) is not None

    confirmed = _cli_with_input(
        pipeline, "y\n", "dead", "discard", doc_hash, "--note", "a broken upload", "--by", "ops1"
    )
    assert confirmed.returncode == 0, confirmed.stderr
    assert get_dead_letter(pipeline.runtime.redis, doc_hash) is None
    assert run_cli(pipeline, "dead", "list", "--json").stdout.strip() == "[]"
    row = pipeline.runtime.store.document(doc_hash)
    assert row is not None
    assert row.state == "dead"
    events = pipeline.runtime.store.events(doc_hash)
    [event] = [e for e in events if e.reason == "discarded"]
    assert (event.actor, event.detail) == ("ops1", {"note": "a broken upload"})
    assert pipeline.final_events(doc_hash) == 1  # a discard is not a second entry into dead

    scripted = run_cli(pipeline, "dead", "discard", doc_hash, "f" * 64, "--yes", "--json")
    assert scripted.returncode == ExitCode.NOT_FOUND
    assert json.loads(scripted.stdout) == {"discarded": [], "not_found": [doc_hash, "f" * 64]}
    # Still dead in the store: an operator can replay it once a good copy is in place.
    pipeline.put("junk/truncated.pdf", (SAMPLES / "harbor_point_office_lease.pdf").read_bytes())
    assert run_cli(pipeline, "dead", "requeue", doc_hash).returncode == 0
