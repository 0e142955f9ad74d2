"""Schema changes go through Alembic; an upgrade never loses data (SQLite here; PostgreSQL in
tests/integration/test_store_postgres.py runs the same checks)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, inspect, text

from lease_parser.store import Base, DocumentState, Outcome, Store, as_utc, create_store_engine
from lease_parser.store.migrations import (
    INITIAL_REVISION,
    alembic_config,
    current_revisions,
    head_revisions,
    migration_transaction,
)
from tests.store_helpers import fields_json

SUBMITTED = dt.datetime(2024, 5, 1, 9, 30, tzinfo=dt.UTC)
FINISHED = dt.datetime(2024, 5, 1, 9, 31, tzinfo=dt.UTC)


def migrate(engine: Engine, revision: str) -> None:
    with migration_transaction(engine) as conn:
        command.upgrade(alembic_config(conn), revision)


def fill_initial_schema(engine: Engine) -> None:
    """Rows as the walking skeleton (revision 0001) wrote them."""
    with engine.begin() as conn:
        for doc_hash, state, finished in (
            ("a" * 64, "review", FINISHED),
            ("b" * 64, "pending", None),
        ):
            conn.execute(
                text(
                    "INSERT INTO documents (doc_hash, doc_key, key_version, state, reason, "
                    "confidence, fields, attempts, review_priority, created_at, updated_at, "
                    "finished_at) VALUES (:h, 'incoming/x.pdf', :v, :s, :r, 0.55, :f, 1, 0, "
                    ":c, :c, :fin)"
                ),
                {
                    "h": doc_hash,
                    "v": 1 if state == "review" else 2,
                    "s": state,
                    "r": "low_confidence" if state == "review" else None,
                    "f": '{"tenant": {"value": "Bluefin", "confidence": 0.55, "provenance": null}}',
                    "c": SUBMITTED,
                    "fin": finished,
                },
            )
            conn.execute(
                text(
                    "INSERT INTO submissions (id, doc_hash, doc_key, state, created_at, updated_at)"
                    " VALUES (:id, :h, 'incoming/x.pdf', 'processed', :c, :c)"
                ),
                {"id": f"sub-{doc_hash[0]}", "h": doc_hash, "c": SUBMITTED},
            )
        conn.execute(
            text(
                "INSERT INTO document_events (doc_hash, state, reason, actor, at) "
                "VALUES (:h, 'review', 'low_confidence', 'pipeline', :at)"
            ),
            {"h": "a" * 64, "at": FINISHED},
        )


def assert_initial_data_kept(store: Store) -> None:
    reviewed, pending = store.document("a" * 64), store.document("b" * 64)
    assert reviewed is not None
    assert pending is not None
    assert (reviewed.state, reviewed.reason, reviewed.confidence) == (
        "review",
        "low_confidence",
        0.55,
    )
    assert reviewed.fields == {
        "tenant": {"value": "Bluefin", "confidence": 0.55, "provenance": None}
    }
    # Backfilled: the time each document entered its current state.
    assert as_utc(reviewed.state_changed_at) == FINISHED
    assert as_utc(pending.state_changed_at) == SUBMITTED
    assert [e.reason for e in store.events("a" * 64)] == ["low_confidence"]
    assert store.submission("sub-b") is not None
    # And the upgraded store works for the pipeline: the pending document can finish.
    assert store.finish(
        "b" * 64, "sub-b", Outcome(state=DocumentState.COMMITTED, fields=fields_json())
    )
    assert store.commit_events("b" * 64) == 1


def schema_diff(engine: Engine) -> list[object]:
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'lease.db'}"


def test_upgrading_a_store_at_the_initial_revision_keeps_its_data(url: str) -> None:
    engine = create_store_engine(url)
    migrate(engine, INITIAL_REVISION)
    fill_initial_schema(engine)
    store = Store(url)
    with store.engine.connect() as conn:
        assert current_revisions(conn) == head_revisions()
    assert_initial_data_kept(store)


def test_a_store_made_before_migrations_existed_is_adopted(url: str) -> None:
    """The skeleton made its schema with create_all and had no alembic_version table."""
    engine = create_store_engine(url)
    migrate(engine, INITIAL_REVISION)
    fill_initial_schema(engine)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE alembic_version"))
    assert_initial_data_kept(Store(url))


def test_the_migrations_make_exactly_the_models_schema(url: str) -> None:
    store = Store(url)
    assert schema_diff(store.engine) == []


def test_the_initial_revision_differs_from_the_models_so_the_comparison_can_fail(url: str) -> None:
    engine = create_store_engine(url)
    migrate(engine, INITIAL_REVISION)
    added = {
        d[3].name for d in schema_diff(engine) if isinstance(d, tuple) and d[0] == "add_column"
    }
    assert {"state_changed_at", "corrections", "detail"} <= added


def test_history_is_one_line_and_reversible(url: str) -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert len(script.get_heads()) == 1
    assert script.get_base() == INITIAL_REVISION
    store = Store(url)
    with migration_transaction(store.engine) as conn:
        command.downgrade(alembic_config(conn), INITIAL_REVISION)
    assert "state_changed_at" not in {
        c["name"] for c in inspect(store.engine).get_columns("documents")
    }
    store.upgrade_schema()
    assert schema_diff(store.engine) == []


def test_opening_a_store_at_head_changes_nothing(url: str) -> None:
    Store(url).close()
    engine = create_engine(url)
    with engine.connect() as conn:
        before = conn.execute(text("SELECT sql FROM sqlite_master ORDER BY name")).all()
    Store(url).close()
    with engine.connect() as conn:
        assert conn.execute(text("SELECT sql FROM sqlite_master ORDER BY name")).all() == before


def test_the_fast_head_check_names_alembics_head() -> None:
    """Store skips Alembic when the database is at HEAD_REVISION: it must be the real head."""
    from lease_parser.store.migrations import HEAD_REVISION

    assert head_revisions() == {HEAD_REVISION}
