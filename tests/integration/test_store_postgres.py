"""The store's contract on both backends: SQLite and a real PostgreSQL server.

Migrations (upgrade keeps data, schema equals the models, many processes starting at once),
exactly-once commits, claim expiry on the database's own clock, decisions and the export
round trip.
"""

from __future__ import annotations

import io
import multiprocessing
import threading
from typing import Any

import pytest
from sqlalchemy import text

from lease_parser.errors import ReviewRefused
from lease_parser.store import (
    DocumentState,
    Outcome,
    ReviewQueue,
    Store,
    as_utc,
    create_store_engine,
    read_leases_csv,
    read_schedule_csv,
    utcnow,
    values_of,
    write_csv,
)
from lease_parser.store.migrations import INITIAL_REVISION, current_revisions, head_revisions
from tests.store_helpers import add_document, claim_and_reject, fields_json, review_and_approve
from tests.unit.store.test_migrations import (
    assert_initial_data_kept,
    fill_initial_schema,
    migrate,
    schema_diff,
)
from tests.waiting import wait_for


def test_upgrading_from_the_initial_revision_keeps_the_data(store_url: str) -> None:
    engine = create_store_engine(store_url)
    migrate(engine, INITIAL_REVISION)
    fill_initial_schema(engine)
    engine.dispose()
    store = Store(store_url)
    with store.engine.connect() as conn:
        assert current_revisions(conn) == head_revisions()
    assert_initial_data_kept(store)
    store.close()


def test_the_migrations_make_exactly_the_models_schema(store_url: str) -> None:
    store = Store(store_url)
    assert schema_diff(store.engine) == []
    store.close()


def _open_store(url: str, barrier: Any, results: Any) -> None:
    barrier.wait()
    try:
        store = Store(url)
        results.put(("ok", sorted(store.counts_by_state().items())))
    except Exception as exc:
        results.put(("error", repr(exc)))


def test_processes_starting_at_once_on_an_empty_database_all_get_the_schema(
    store_url: str,
) -> None:
    """Every worker child upgrades the schema at start-up; the migration lock serialises them."""
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(4), ctx.Queue()
    procs = [ctx.Process(target=_open_store, args=(store_url, barrier, results)) for _ in range(4)]
    for p in procs:
        p.start()
    outcomes = [results.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(30)
    assert outcomes == [("ok", [])] * 4
    engine = create_store_engine(store_url)
    with engine.connect() as conn:
        versions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    engine.dispose()
    assert set(versions) == head_revisions()
    assert len(versions) == 1


def test_racing_finishers_commit_once(store_url: str) -> None:
    store = Store(store_url)
    doc_hash = "d" * 64
    for i in range(6):
        store.register_submission(f"r{i}", "race.pdf", doc_hash)
    barrier, results = threading.Barrier(6), []

    def finish(i: int) -> None:
        barrier.wait()
        outcome = Outcome(state=DocumentState.COMMITTED, fields=fields_json())
        results.append(store.finish(doc_hash, f"r{i}", outcome))

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 5 + [True]
    assert store.commit_events(doc_hash) == 1
    store.close()


def test_a_claim_expires_on_the_real_clock(store_url: str) -> None:
    store = Store(store_url)
    doc_hash = add_document(store)
    queue = ReviewQueue(store, claim_ttl=1)
    held = queue.claim_next("alice")
    assert held is not None
    assert held.claim_expires_at is not None
    assert queue.claim_next("bob") is None
    # Bob asks until the claim has run out: it must, within a few seconds, and not before
    # the time it was held until.
    taken = wait_for(lambda: queue.claim_next("bob"), "alice's claim expiring", timeout=10)
    assert utcnow() >= as_utc(held.claim_expires_at)
    assert (taken.doc_hash, taken.claimed_by) == (doc_hash, "bob")
    store.close()


def test_decisions_and_the_export_round_trip(store_url: str) -> None:
    store = Store(store_url)
    queue = ReviewQueue(store)
    corrected, approved, rejected = (add_document(store) for _ in range(3))
    changes = {"base_rent_monthly": "24100.10", "lease_date": "2024-03-16"}
    review_and_approve(queue, corrected, "alice", changes)
    queue.claim(approved, "bob")
    with pytest.raises(ReviewRefused, match="is not valid"):
        queue.correct(approved, "bob", {"security_deposit": "-3"})
    review_and_approve(queue, approved, "bob")
    claim_and_reject(queue, rejected, "bob", "duplicate scan")
    with pytest.raises(ReviewRefused, match="not in review"):
        queue.approve(corrected, "bob")
    assert [store.commit_events(h) for h in (corrected, approved, rejected)] == [1, 1, 0]

    leases, schedule = io.StringIO(), io.StringIO()
    assert write_csv(store.documents(states=["committed"]), leases, schedule) == 2
    back = {r["doc_hash"]: r for r in read_leases_csv(io.StringIO(leases.getvalue()))}
    steps = read_schedule_csv(io.StringIO(schedule.getvalue()))
    for doc_hash in (corrected, approved):
        row = store.document(doc_hash)
        assert row is not None
        assert back[doc_hash]["values"] == values_of(row)
        assert steps[doc_hash] == values_of(row)["rent_schedule"]
    assert back[corrected]["values"]["base_rent_monthly"] == "24100.10"
    assert (back[corrected]["source"], back[corrected]["reviewer"]) == ("review", "alice")
    store.close()
