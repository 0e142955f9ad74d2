"""The canonical store on SQLite: states, exactly-once moves out of pending, versions by key."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from pathlib import Path

import pytest

from lease_parser.errors import Reason
from lease_parser.store import DocumentState, Outcome, Store, SubmissionState, as_utc
from lease_parser.store.migrations import head_revisions
from tests.store_helpers import add_document, claim_and_reject, fields_json


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'lease.db'}")


def test_a_new_store_is_a_wal_sqlite_file_at_the_newest_migration(tmp_path: Path) -> None:
    Store(f"sqlite:///{tmp_path / 'sub' / 'lease.db'}").close()
    db = sqlite3.connect(tmp_path / "sub" / "lease.db")
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert {row[0] for row in db.execute("SELECT version_num FROM alembic_version")} == (
        head_revisions()
    )


def test_versions_of_a_key_are_kept_and_the_same_content_is_one_document(store: Store) -> None:
    store.register_submission("s1", "incoming/lease.pdf", "a" * 64)
    store.register_submission("s2", "incoming/lease.pdf", "b" * 64)  # amended re-upload
    store.register_submission("s3", "elsewhere/copy.pdf", "a" * 64)  # same bytes again
    versions = store.versions("incoming/lease.pdf")
    assert [(v.key_version, v.doc_hash) for v in versions] == [(1, "a" * 64), (2, "b" * 64)]
    assert store.versions("elsewhere/copy.pdf") == []
    assert store.counts_by_state() == {"pending": 2}


def test_a_document_leaves_pending_exactly_once(store: Store) -> None:
    store.register_submission("s1", "k.pdf", "c" * 64)
    store.register_submission("s2", "k-copy.pdf", "c" * 64)
    outcome = Outcome(state=DocumentState.COMMITTED, confidence=0.93, fields=fields_json())
    assert store.finish("c" * 64, "s1", outcome)
    assert not store.finish("c" * 64, "s2", Outcome(state=DocumentState.REVIEW))
    row = store.document("c" * 64)
    assert row is not None
    assert (row.state, row.source, row.processed_by) == ("committed", "auto", "s1")
    assert row.finished_at is not None
    assert row.state_changed_at == row.finished_at
    assert store.commit_events("c" * 64) == 1
    states = [store.submission(s).state for s in ("s1", "s2")]  # type: ignore[union-attr]
    assert states == [SubmissionState.PROCESSED, SubmissionState.DUPLICATE]


def test_racing_finishers_commit_once(store: Store) -> None:
    store.register_submission("s0", "race.pdf", "d" * 64)
    for i in range(8):
        store.register_submission(f"r{i}", "race.pdf", "d" * 64)
    results: list[bool] = []
    barrier = threading.Barrier(8)

    def finish(i: int) -> None:
        barrier.wait()
        outcome = Outcome(state=DocumentState.COMMITTED, fields=fields_json())
        results.append(store.finish("d" * 64, f"r{i}", outcome))

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 7 + [True]
    assert store.commit_events("d" * 64) == 1


def test_every_state_change_is_in_the_audit_trail(store: Store) -> None:
    doc_hash = add_document(store, state=DocumentState.DEAD, reason=Reason.CORRUPT)
    assert store.requeue(doc_hash, "s-new", "dead requeue", [DocumentState.DEAD])
    events = [(e.state, e.reason, e.actor) for e in store.events(doc_hash)]
    assert events == [("dead", "corrupt", "pipeline"), ("pending", "requeued", "dead requeue")]


def test_a_requeued_review_item_loses_its_claim(store: Store) -> None:
    doc_hash = add_document(store, reason=Reason.NEEDS_CREDENTIAL)
    from lease_parser.store import ReviewQueue

    item = ReviewQueue(store).claim_next("alice")
    assert item is not None
    assert item.doc_hash == doc_hash
    assert store.requeue(doc_hash, "s-new", "unlock", [DocumentState.REVIEW])
    row = store.document(doc_hash)
    assert row is not None
    assert (row.state, row.claimed_by, row.claim_expires_at) == ("pending", None, None)


def test_documents_filter_by_state_and_by_when_they_entered_it(store: Store) -> None:
    committed = add_document(store, state=DocumentState.COMMITTED, reason=None)
    review = add_document(store)
    dead = add_document(store, state=DocumentState.DEAD, reason=Reason.CORRUPT, fields={})
    by_hash = {row.doc_hash: row for row in store.documents()}
    assert list(by_hash) == [committed, review, dead]  # oldest first
    assert [r.doc_hash for r in store.documents(states=["review", "dead"])] == [review, dead]
    middle = as_utc(by_hash[review].state_changed_at)
    assert [r.doc_hash for r in store.documents(since=middle)] == [review, dead]
    assert [r.doc_hash for r in store.documents(until=middle)] == [committed]
    later = middle + dt.timedelta(days=1)
    assert list(store.documents(since=later)) == []
    assert [r.doc_hash for r in store.documents(limit=1)] == [committed]
    assert [r.doc_hash for r in store.documents(newest_first=True, limit=1)] == [dead]


def test_a_requeued_rejected_document_starts_over(store: Store) -> None:
    from lease_parser.store import ReviewQueue

    doc_hash = add_document(store)
    claim_and_reject(ReviewQueue(store), doc_hash, "bob", "illegible scan")
    assert store.requeue(doc_hash, "again", "dead requeue", [DocumentState.DEAD])
    outcome = Outcome(state=DocumentState.COMMITTED, fields=fields_json())
    assert store.finish(doc_hash, "again", outcome)
    row = store.document(doc_hash)
    assert row is not None
    assert (row.state, row.source, row.reviewer, row.reviewed_at) == (
        "committed",
        "auto",
        None,
        None,
    )
    assert store.commit_events(doc_hash) == 1


def _record(store: Store, doc_hash: str) -> tuple[object, ...]:
    row = store.document(doc_hash)
    assert row is not None
    events = [(e.state, e.reason, e.actor) for e in store.events(doc_hash)]
    return (
        row.state,
        row.reason,
        row.detail,
        row.kind,
        row.fields,
        row.problems,
        row.claimed_by,
        row.state_changed_at,
        row.finished_at,
        events,
    )


def test_an_undone_requeue_leaves_the_record_exactly_as_it_was(store: Store) -> None:
    """A requeue whose publish failed must not strand the document, nor wipe its fields."""
    from lease_parser.store import ReviewQueue

    doc_hash = add_document(store, reason=Reason.NEEDS_CREDENTIAL)
    ReviewQueue(store).claim_next("alice")
    before = _record(store, doc_hash)
    requeue = store.requeue(
        doc_hash, "s-new", "unlock", [DocumentState.REVIEW], Reason.NEEDS_CREDENTIAL
    )
    assert requeue is not None
    assert store.document_state(doc_hash) == "pending"
    assert store.undo_requeue(requeue)
    assert _record(store, doc_hash) == before
    assert store.submission("s-new") is None
    assert store.requeue(doc_hash, "s-2", "dead requeue", [DocumentState.DEAD]) is None


def test_a_requeue_moves_only_the_states_and_reason_asked_for(store: Store) -> None:
    low = add_document(store)  # review, low_confidence
    before = _record(store, low)
    reviewing = [DocumentState.REVIEW]
    assert store.requeue(low, "s1", "unlock", reviewing, Reason.NEEDS_CREDENTIAL) is None
    assert store.requeue(low, "s2", "dead requeue", [DocumentState.DEAD]) is None
    assert _record(store, low) == before


def test_a_requeue_that_a_worker_already_finished_is_not_undone(store: Store) -> None:
    doc_hash = add_document(store, state=DocumentState.DEAD, reason=Reason.CORRUPT)
    requeue = store.requeue(doc_hash, "s-new", "dead requeue", [DocumentState.DEAD])
    assert requeue is not None
    assert store.finish(doc_hash, "s-new", Outcome(state=DocumentState.COMMITTED))
    assert not store.undo_requeue(requeue)
    assert store.document_state(doc_hash) == "committed"


def test_hashes_are_found_by_prefix(store: Store) -> None:
    zeros, ones = "abcdef12" + "0" * 56, "abcdef12" + "1" * 56
    store.register_submission("s0", "a.pdf", zeros)
    store.register_submission("s1", "b.pdf", ones)
    assert store.hashes_starting_with("abcdef12", 10) == [zeros, ones]
    assert store.hashes_starting_with("abcdef121", 10) == [ones]
    assert store.hashes_starting_with("abcdef12", 1) == [zeros]
    assert store.hashes_starting_with("abcdef13", 10) == []
