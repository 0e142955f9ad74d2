"""Moving a document back into the pipeline never strands it (issue 14, items 1, 2 and 4).

Real redis-server, real `lease-parser` processes, a real encrypted PDF. A requeue or an
unlock either publishes and records, or leaves the document's record exactly as it was:
with the broker on a dead port, with a broker that answers but refuses the publish, with a
wrong password, and for a document that is not waiting for a password.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from lease_parser.cli import ExitCode
from lease_parser.credentials import credential_key
from lease_parser.deadletter import DeadLetter, get_dead_letter, record_dead_letter
from lease_parser.errors import Reason
from lease_parser.local import free_port
from lease_parser.store import DocumentState, Outcome
from tests.integration.conftest import SAMPLES, Pipeline, run_cli
from tests.store_helpers import add_document, fields_json

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "parsing"
PASSWORD = "s3cret-lease"  # tests/fixtures/make_parsing_fixtures.py
QUEUE = "lease_extraction"
ACL_PASSWORD = "acl-pass-9f3c1e"


def record(pipeline: Pipeline, doc_hash: str) -> dict[str, Any]:
    """Everything a failed requeue must leave alone."""
    store = pipeline.runtime.store
    row = store.document(doc_hash)
    assert row is not None
    return {
        "state": row.state,
        "reason": row.reason,
        "detail": row.detail,
        "kind": row.kind,
        "fields": row.fields,
        "problems": row.problems,
        "claimed_by": row.claimed_by,
        "state_changed_at": row.state_changed_at,
        "events": [(e.state, e.reason, e.actor) for e in store.events(doc_hash)],
    }


def final_document(pipeline: Pipeline, key: str, data: bytes, outcome: Outcome) -> str:
    """``data`` uploaded at ``key`` and recorded final as the pipeline records it."""
    doc_hash = hashlib.sha256(data).hexdigest()
    pipeline.put(key, data)
    store = pipeline.runtime.store
    store.register_submission("first", key, doc_hash)
    assert store.finish(doc_hash, "first", outcome)
    return doc_hash


def dead_document(pipeline: Pipeline) -> str:
    """A retail lease that went dead (its upload was late) and whose file is now in place."""
    outcome = Outcome(
        state=DocumentState.DEAD,
        reason=Reason.NOT_FOUND,
        detail="ObjectNotFound",
        kind="lease",
        fields=fields_json(),
        problems=[{"field": "*", "problem": "kept"}],
    )
    data = (SAMPLES / "maple_grove_retail_lease.pdf").read_bytes()
    doc_hash = final_document(pipeline, "late/retail.pdf", data, outcome)
    letter = DeadLetter(doc_hash, "late/retail.pdf", "first", "t", Reason.NOT_FOUND, 1)
    record_dead_letter(pipeline.runtime.redis, letter)
    return doc_hash


def locked_document(pipeline: Pipeline) -> str:
    """An encrypted PDF waiting in review for its password, as the pipeline leaves it."""
    outcome = Outcome(state=DocumentState.REVIEW, reason=Reason.NEEDS_CREDENTIAL, fields={})
    data = (FIXTURES / "encrypted.pdf").read_bytes()
    return final_document(pipeline, "incoming/locked.pdf", data, outcome)


def queued(pipeline: Pipeline) -> int:
    return int(pipeline.runtime.redis.llen(QUEUE))


def no_traceback(*outputs: str) -> None:
    for output in outputs:
        assert "Traceback" not in output


def test_dead_requeue_with_the_broker_down_leaves_the_document_dead(pipeline: Pipeline) -> None:
    doc_hash = dead_document(pipeline)
    before = record(pipeline, doc_hash)
    dead_port = f"redis://127.0.0.1:{free_port()}/0"

    down = run_cli(pipeline, "dead", "requeue", doc_hash[:12], env={"LEASE_BROKER_URL": dead_port})
    assert down.returncode == ExitCode.UNAVAILABLE, down.stderr
    no_traceback(down.stdout, down.stderr)
    assert "LEASE_BROKER_URL" in down.stderr
    assert record(pipeline, doc_hash) == before
    assert queued(pipeline) == 0

    # Once the broker is back, the same command works: nothing was stranded.
    back = run_cli(pipeline, "dead", "requeue", doc_hash[:12], "--json")
    assert back.returncode == 0, back.stderr
    [receipt] = json.loads(back.stdout)
    assert (receipt["doc_hash"], receipt["state"]) == (doc_hash, "pending")
    assert queued(pipeline) == 1
    assert pipeline.runtime.store.document_state(doc_hash) == "pending"
    assert get_dead_letter(pipeline.runtime.redis, doc_hash) is None


def test_a_publish_refused_after_the_record_rolls_the_record_back(pipeline: Pipeline) -> None:
    """A broker that answers (INFO, DEL) but refuses the message itself (LPUSH)."""
    doc_hash = dead_document(pipeline)
    before = record(pipeline, doc_hash)
    admin = pipeline.redis_server.client()
    admin.execute_command(
        "ACL", "SETUSER", "nopush", "on", f">{ACL_PASSWORD}", "~*", "&*", "+@all", "-lpush"
    )
    url = f"redis://nopush:{ACL_PASSWORD}@127.0.0.1:{pipeline.redis_server.port}/0"

    refused = run_cli(pipeline, "dead", "requeue", doc_hash, env={"LEASE_BROKER_URL": url})
    assert refused.returncode == ExitCode.UNAVAILABLE, refused.stderr
    no_traceback(refused.stdout, refused.stderr)
    assert ACL_PASSWORD not in refused.stdout + refused.stderr  # redacted
    assert record(pipeline, doc_hash) == before
    assert queued(pipeline) == 0
    assert get_dead_letter(pipeline.runtime.redis, doc_hash) is not None


def test_unlock_refuses_what_it_must_not_move_and_leaves_it_untouched(
    pipeline: Pipeline,
) -> None:
    low_confidence = add_document(pipeline.runtime.store)  # a reviewer's, not unlock's
    before = record(pipeline, low_confidence)
    moved = run_cli(pipeline, "unlock", low_confidence[:10], "--password", PASSWORD)
    assert moved.returncode == ExitCode.FAILED, moved.stderr
    assert "only a document waiting for its password" in moved.stderr
    assert record(pipeline, low_confidence) == before
    assert not pipeline.runtime.objects.exists(credential_key(low_confidence))

    locked = locked_document(pipeline)
    before = record(pipeline, locked)
    wrong = run_cli(pipeline, "unlock", locked[:8], "--password", "wrong-password", "--json")
    assert wrong.returncode == ExitCode.FAILED, wrong.stderr
    assert json.loads(wrong.stdout)["ok"] is False
    assert "does not open" in wrong.stderr
    assert "wrong-password" not in wrong.stdout + wrong.stderr
    assert not pipeline.runtime.objects.exists(credential_key(locked))

    dead_port = f"redis://127.0.0.1:{free_port()}/0"
    down = run_cli(
        pipeline, "unlock", locked, "--password", PASSWORD, env={"LEASE_BROKER_URL": dead_port}
    )
    assert down.returncode == ExitCode.UNAVAILABLE, down.stderr
    no_traceback(moved.stderr, wrong.stderr, down.stderr)
    assert record(pipeline, locked) == before
    assert not pipeline.runtime.objects.exists(credential_key(locked))
    assert queued(pipeline) == 0


def test_the_right_password_is_stored_encrypted_used_and_deleted(pipeline: Pipeline) -> None:
    locked = locked_document(pipeline)
    unlocked = run_cli(pipeline, "unlock", locked[:12], "--password", PASSWORD)
    assert unlocked.returncode == 0, unlocked.stderr
    assert PASSWORD not in unlocked.stdout + unlocked.stderr
    assert queued(pipeline) == 1
    stored = b"".join(pipeline.runtime.objects.iter_chunks(credential_key(locked)))
    assert PASSWORD.encode() not in stored
    assert json.loads(stored)["format"] == "fernet-v1"
    key_file = pipeline.settings.data_dir / "credential.key"
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600

    worker = pipeline.worker(concurrency=1).start()
    try:
        row = pipeline.wait_final(locked)
    finally:
        worker.stop()
    assert row.reason != Reason.NEEDS_CREDENTIAL  # the worker decrypted and used it
    assert row.pages
    assert not pipeline.runtime.objects.exists(credential_key(locked))  # final: deleted


@pytest.mark.parametrize("bad_hash", ["abc", "z" * 64, "0" * 63])
def test_submit_refuses_a_malformed_hash_at_once(pipeline: Pipeline, bad_hash: str) -> None:
    done = run_cli(pipeline, "submit", "incoming/x.pdf", "--hash", bad_hash)
    assert done.returncode == ExitCode.USAGE
    assert "64 hex digits" in done.stderr
    assert queued(pipeline) == 0


def test_resubmitting_final_content_says_duplicate_and_queues_nothing(
    pipeline: Pipeline,
) -> None:
    """Item 8: the receipt tells the truth instead of "pending" for a submission skipped later."""
    doc_hash = dead_document(pipeline)  # any final state; dead is one
    pipeline.put("again/retail.pdf", (SAMPLES / "maple_grove_retail_lease.pdf").read_bytes())
    done = run_cli(pipeline, "submit", "again/retail.pdf", "--json")
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert (receipt["doc_hash"], receipt["state"], receipt["document_state"]) == (
        doc_hash,
        "duplicate",
        "dead",
    )
    assert queued(pipeline) == 0
    submission = pipeline.runtime.store.submission(receipt["task_id"])
    assert submission is not None
    assert submission.state == "duplicate"
    human = run_cli(pipeline, "submit", "again/retail.pdf")
    assert "duplicate" in human.stdout
    assert "already dead" in human.stdout
    assert "submitted" not in human.stdout
    assert queued(pipeline) == 0
