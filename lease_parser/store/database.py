"""The canonical store (SQLAlchemy 2): SQLite by default (WAL), PostgreSQL in production.

Five tables:

- ``documents``: one row per distinct content hash (unique), its current state
  (pending → committed | review | dead; review → committed | dead by a reviewer), the
  reason and the time it entered that state, and its abstraction (``fields`` as
  ``abstract --json`` renders them, ``source`` auto or review, ``reviewer``). A re-upload
  of the same key with new content is a new row, linked by ``doc_key`` and numbered by
  ``key_version``: never an overwrite.
- ``submissions``: one row per ``submit`` call (keyed by its task id), pending → processed
  or duplicate.
- ``document_events``: an append-only audit trail of state changes (who, why, what changed).
- ``amendment_links``: which lease an amendment amends (store/amendment_links.py):
  linked by what it states, or waiting for a person to link it, with the evidence.
- ``review_decisions``: a reviewer's decision on one field of a document in review
  (confirmed, corrected, not stated), with who and when, kept after the document is
  committed; ``documents.field_sources`` then says where each committed value came from
  (pipeline, confirmed, corrected).

Every state change is a conditional UPDATE (``WHERE state = 'pending'``, or ``'review'``
for a reviewer's decision) in one transaction with its event row: two workers (or two
reviewers) finishing the same document race on that row and exactly one wins, so a
document is never committed twice even if the Redis hash lock was lost.

The schema is Alembic's (store/migrations/): ``Store`` upgrades it to head at
start-up, so a deploy never depends on a separate migration step running first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    and_,
    create_engine,
    delete,
    event,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from lease_parser.errors import ConfigurationError, StorageUnavailable, StoreNotFound
from lease_parser.store.migrations import upgrade_to_head


class DocumentState(StrEnum):
    PENDING = "pending"
    COMMITTED = "committed"
    REVIEW = "review"
    DEAD = "dead"


class SubmissionState(StrEnum):
    PENDING = "pending"
    PROCESSED = "processed"
    DUPLICATE = "duplicate"


FINAL_STATES = frozenset({DocumentState.COMMITTED, DocumentState.REVIEW, DocumentState.DEAD})
# register_submission's answer for a document already pending under another submission
# (with join_pending=False): nothing was recorded.
JOINED = "joined"
# Audit events of a review item that is and stays in review (who held it): not an entry
# into the review state.
CLAIM_EVENTS = frozenset({"claimed", "released"})
# An operator who discarded a dead document's letter: it stays dead (and can still be
# requeued); the event only records who triaged it and why.
DISCARDED = "discarded"
# A committed lease corrected afterwards, or checked in the QA sample (store/
# revisions.py): it stays committed; the event records who changed what.
AFTER_COMMIT_EVENTS = frozenset({"revised", "qa_checked"})
# The reason of a document whose bytes did not match its (claimed) hash: errors.Reason.
HASH_MISMATCH = "hash_mismatch"
# An operator re-published a pending document's lost message (lease-parser pending --redrive).
REDRIVEN = "redriven"


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def as_utc(value: dt.datetime) -> dt.datetime:
    """SQLite hands timestamps back naive; every timestamp we write is UTC."""
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


class Base(DeclarativeBase):
    pass


class DocumentRow(Base):
    __tablename__ = "documents"
    __table_args__ = (
        UniqueConstraint("doc_key", "key_version", name="uq_documents_key_version"),
        # The review queue (state = 'review', oldest first) and exports by state and date.
        Index("ix_documents_state_changed", "state", "state_changed_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    doc_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    doc_key: Mapped[str] = mapped_column(String(1024), index=True)
    key_version: Mapped[int] = mapped_column(Integer, default=1)
    state: Mapped[str] = mapped_column(String(16), index=True, default=DocumentState.PENDING)
    reason: Mapped[str | None] = mapped_column(String(64), nullable=True)
    detail: Mapped[str | None] = mapped_column(Text, nullable=True)
    kind: Mapped[str | None] = mapped_column(String(16), nullable=True)
    confidence: Mapped[float | None] = mapped_column(Float, nullable=True)
    # The abstraction as `abstract --json` renders its "fields", plus the doubtful fields.
    fields: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    problems: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    # Amendments filed after the lease in the same file: [{"title", "fields"}] (same form).
    amendments: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    pages: Mapped[int | None] = mapped_column(Integer, nullable=True)
    ocr_pages: Mapped[int | None] = mapped_column(Integer, nullable=True)
    source: Mapped[str | None] = mapped_column(String(16), nullable=True)  # auto | review
    reviewer: Mapped[str | None] = mapped_column(String(128), nullable=True)
    processed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    review_priority: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(128), nullable=True)
    claim_expires_at: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    claimed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # What a reviewer changed: {field: {"from": value, "to": value}}.
    corrections: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Committed by a reviewer: where each value came from, {field: pipeline | confirmed |
    # corrected}. None for an auto-committed document (every value is the pipeline's).
    field_sources: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    reviewed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # When the document entered its current state (queue order, export --since/--until).
    # Nullable in the DDL only: SQLite cannot add a NOT NULL column to a table that others
    # reference without rebuilding it; migration 0002 backfills it and every write sets it.
    state_changed_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), nullable=True, default=utcnow
    )


class SubmissionRow(Base):
    __tablename__ = "submissions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # the first task's id
    doc_hash: Mapped[str] = mapped_column(String(64), ForeignKey("documents.doc_hash"), index=True)
    doc_key: Mapped[str] = mapped_column(String(1024))
    state: Mapped[str] = mapped_column(String(16), default=SubmissionState.PENDING)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )


class EventRow(Base):
    __tablename__ = "document_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    doc_hash: Mapped[str] = mapped_column(String(64), index=True)
    state: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(64), nullable=True)
    submission_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    actor: Mapped[str | None] = mapped_column(String(128), nullable=True)
    # Structured context: a reviewer's corrections, a rejection's stated reason.
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LinkState(StrEnum):
    LINKED = "linked"  # to ``lease_hash``, by what the amendment states or by a person
    NEEDS_REVIEW = "needs_review"  # doubtful or no lease found: a person links it
    UNLINKED = "unlinked"  # a person said its lease is not in the store


class AmendmentLinkRow(Base):
    """Which lease an amendment amends. One row per amendment; a person's decision
    (``method`` reviewer) is never overwritten by automatic relinking."""

    __tablename__ = "amendment_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    amendment_hash: Mapped[str] = mapped_column(
        String(64), ForeignKey("documents.doc_hash"), unique=True, index=True
    )
    lease_hash: Mapped[str | None] = mapped_column(
        String(64), ForeignKey("documents.doc_hash"), nullable=True, index=True
    )
    state: Mapped[str] = mapped_column(String(16))
    method: Mapped[str] = mapped_column(String(16))  # auto | reviewer
    confidence: Mapped[float | None] = mapped_column(Float, nullable=True)
    # What the link rests on: each criterion compared, and the candidates considered.
    evidence: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    actor: Mapped[str | None] = mapped_column(String(128), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )


class WebhookRow(Base):
    """A client to tell when a document is final (``callback_url``, or the server's
    ``LEASE_WEBHOOK_URL``), and how its delivery went: lease_parser/webhooks.py. A row is
    due whenever the document has entered a final state since ``notified_state_at``."""

    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    doc_hash: Mapped[str] = mapped_column(String(64), ForeignKey("documents.doc_hash"), index=True)
    url: Mapped[str] = mapped_column(String(2048))
    # The document's absolute API address, as the submitting client reached the server.
    document_url: Mapped[str] = mapped_column(String(2048))
    actor: Mapped[str | None] = mapped_column(String(128), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The document's state_changed_at the last delivered notification reported.
    notified_state_at: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    attempts: Mapped[int] = mapped_column(Integer, default=0)  # of the current notification
    next_attempt_at: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    # A dispatcher's hold while it delivers (several `serve` replicas share the table).
    claimed_until: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    last_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    delivered_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Every attempt failed: kept, listed, and sent again by `lease-parser webhooks replay`.
    failed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ReviewDecisionRow(Base):
    """One reviewer decision on one field, for one stay of a document in review.

    ``review_since`` is the time the document entered review (``state_changed_at``): a
    document requeued and reviewed again starts with no decisions, while the earlier
    stay's decisions stay in the record. A field decided twice keeps the latest decision.
    """

    __tablename__ = "review_decisions"
    __table_args__ = (
        UniqueConstraint("doc_hash", "review_since", "field", name="uq_review_decisions_field"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    doc_hash: Mapped[str] = mapped_column(String(64), index=True)
    review_since: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    field: Mapped[str] = mapped_column(String(64))
    decision: Mapped[str] = mapped_column(String(16))  # decisions.DecisionKind
    # The value decided, in the stored JSON form (null for not_stated).
    value: Mapped[Any] = mapped_column(JSON, nullable=True)
    reviewer: Mapped[str] = mapped_column(String(128))
    decided_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def decision_rows(
    doc_hash: str,
    review_since: dt.datetime,
    decided: Mapping[str, tuple[Any, Any]],
    reviewer: str,
    now: dt.datetime,
) -> list[ReviewDecisionRow]:
    """One row per field decided (``{field: (DecisionKind, value)}``): review and revision
    record decisions the same way."""
    return [
        ReviewDecisionRow(
            doc_hash=doc_hash,
            review_since=review_since,
            field=name,
            decision=kind.value,
            value=value,
            reviewer=reviewer,
            decided_at=now,
        )
        for name, (kind, value) in decided.items()
    ]


def stands_for_content(row: DocumentRow) -> bool:
    """False for a document that died because the bytes under its key were not the content
    its hash names (``hash_mismatch``): the hash was only claimed, so the record says
    nothing about that content, and the real bytes may still be submitted (and are then
    processed: ``Store.requeue`` with the new key, from ``submit_document``)."""
    return not (row.state == DocumentState.DEAD and row.reason == HASH_MISMATCH)


def entered_final_state() -> ColumnElement[bool]:
    """Events that moved a document into a final state (exactly-once means one each)."""
    return and_(
        EventRow.state.in_(FINAL_STATES),
        or_(
            EventRow.reason.is_(None),
            EventRow.reason.not_in(CLAIM_EVENTS | AFTER_COMMIT_EVENTS | {DISCARDED}),
        ),
    )


# What a requeue changes on a document row, and so what undoing it restores.
REQUEUE_RESETS = (
    "state",
    "reason",
    "doc_key",
    "key_version",
    "finished_at",
    "updated_at",
    "state_changed_at",
    "claimed_by",
    "claimed_at",
    "claim_expires_at",
)


@dataclass(frozen=True)
class Requeue:
    """A document put back to ``pending`` for a new submission, and what it was before."""

    doc_hash: str
    doc_key: str
    submission_id: str
    event_id: int
    requeued_at: dt.datetime
    before: dict[str, Any]


@dataclass(frozen=True)
class PendingDocument:
    """A document still ``pending``: its newest pending submission (None if it has none
    left), since when it is pending, and when anything last happened to it."""

    doc_hash: str
    doc_key: str
    submission_id: str | None
    pending_since: dt.datetime
    last_activity: dt.datetime


@dataclass(frozen=True)
class Outcome:
    """The terminal result a worker records for a document."""

    state: DocumentState
    reason: str | None = None
    detail: str | None = None
    kind: str | None = None
    confidence: float | None = None
    fields: dict[str, Any] | None = None
    problems: list[dict[str, Any]] | None = None
    pages: int | None = None
    ocr_pages: int | None = None
    amendments: list[dict[str, Any]] | None = None


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # busy_timeout makes a writer wait for the lock instead of failing when several workers
    # commit; it is set first because switching to WAL needs the lock too (processes opening
    # a new store at once wait for the one migrating it). WAL lets readers (CLI, exporter)
    # run while a worker writes.
    cur.execute("PRAGMA busy_timeout=30000")
    _owner_only(cur)
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _owner_only(cur: Any) -> None:
    """The database file is the owner's only (0600), like the objects and the token files:
    it holds every abstraction. Done before WAL is switched on, because SQLite gives the
    -wal and -shm files the database file's mode."""
    import os
    import stat

    for _seq, name, path in cur.execute("PRAGMA database_list").fetchall():
        if name == "main" and path:
            try:
                if os.stat(path).st_mode & 0o077:
                    os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
            except OSError:  # not ours to change (a shared, read-only mount): leave it
                pass


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL (None for another database or an in-memory one)."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[-1].split("?", 1)[0]
    return path if path and path != ":memory:" else None


def create_store_engine(url: str, create: bool = True) -> Engine:
    """An engine for ``url``; with ``create``, a SQLite file's directory is made too."""
    if url.startswith("sqlite"):
        path = sqlite_path(url)
        if path is not None and create:
            from pathlib import Path

            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    try:
        return create_engine(url, pool_pre_ping=True)
    except Exception as exc:  # unknown dialect, missing driver
        raise ConfigurationError(
            f"LEASE_STORE_URL={url!r} cannot be used: {exc}. Use sqlite:///path or "
            "postgresql+psycopg2://user:pass@host/db (pip install lease-parser[postgres])."
        ) from exc


class Store:
    """The system of record. Safe to share within a process; create one per process."""

    def __init__(self, url: str, create: bool = True) -> None:
        self.url = url
        self.engine = create_store_engine(url, create=create)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        if create:
            self.upgrade_schema()

    @classmethod
    def existing(cls, url: str) -> Store:
        """The store at ``url`` if there is one, for commands that read (or act on what is
        there): never creates a file, a directory or a schema. Raises ``StoreNotFound``
        naming the URL (password masked) when there is none; an existing store is brought
        to the newest schema like any other."""
        from pathlib import Path

        from lease_parser.redaction import redact

        path = sqlite_path(url)
        if path is not None and not Path(path).is_file():
            raise StoreNotFound(f"no store at {redact(url)}")
        store = cls(url, create=False)
        try:
            with store._guard(), store.engine.connect() as conn:
                found = store.engine.dialect.has_table(conn, DocumentRow.__tablename__)
        except BaseException:
            store.close()
            raise
        if not found:
            store.close()
            raise StoreNotFound(f"no store at {redact(url)} (the database has no documents table)")
        store.upgrade_schema()
        return store

    def upgrade_schema(self) -> None:
        """Bring the schema to the newest migration (a no-op when it is already there)."""
        with self._guard():
            upgrade_to_head(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """One ``SELECT 1``: raises if the database does not answer (the readiness probe)."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except OperationalError as exc:
            raise StorageUnavailable(f"canonical store unavailable: {exc.orig}") from exc

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._guard(), self._session.begin() as session:
            yield session

    # -- submissions ---------------------------------------------------------------------

    def register_submission(
        self,
        submission_id: str,
        doc_key: str,
        doc_hash: str,
        actor: str | None = None,
        join_pending: bool = True,
    ) -> str:
        """Record a submission (idempotent on its id) and its document if new; return the
        document's state (``pending`` for a new one). With an ``actor`` (an API caller's
        token name), a ``submitted`` audit event says who.

        ``join_pending=False`` records nothing for a document that is already pending
        (another submission made it): the state comes back as ``joined``, so two racing
        uploads of the same new bytes queue one task, not two."""
        for _attempt in range(5):
            try:
                with self.session() as s:
                    doc = s.scalar(select(DocumentRow).where(DocumentRow.doc_hash == doc_hash))
                    if s.get(SubmissionRow, submission_id) is not None:
                        return str(doc.state) if doc is not None else DocumentState.PENDING
                    if doc is not None and doc.state == DocumentState.PENDING and not join_pending:
                        return JOINED
                    if doc is None:
                        doc = DocumentRow(
                            doc_hash=doc_hash,
                            doc_key=doc_key,
                            key_version=self._next_version(s, doc_key),
                            state=DocumentState.PENDING,
                        )
                        s.add(doc)
                        s.flush()
                    s.add(SubmissionRow(id=submission_id, doc_hash=doc_hash, doc_key=doc_key))
                    if actor is not None:
                        s.add(
                            EventRow(
                                doc_hash=doc_hash,
                                state=DocumentState.PENDING,
                                reason="submitted",
                                submission_id=submission_id,
                                actor=actor,
                            )
                        )
                    return str(doc.state)
            except IntegrityError:
                continue  # a concurrent submit inserted the same document/version: re-read
        raise StorageUnavailable("could not register the submission after 5 attempts")

    @staticmethod
    def _next_version(s: Session, doc_key: str) -> int:
        current = s.scalar(
            select(func.max(DocumentRow.key_version)).where(DocumentRow.doc_key == doc_key)
        )
        return (current or 0) + 1

    def withdraw_submission(self, submission_id: str) -> None:
        """Undo a registration whose message never reached the broker."""
        with self.session() as s:
            sub = s.get(SubmissionRow, submission_id)
            if sub is None:
                return
            doc_hash = sub.doc_hash
            s.delete(sub)
            s.flush()
            others = s.scalar(
                select(func.count())
                .select_from(SubmissionRow)
                .where(SubmissionRow.doc_hash == doc_hash)
            )
            doc = s.scalar(select(DocumentRow).where(DocumentRow.doc_hash == doc_hash))
            if not others and doc is not None and doc.state == DocumentState.PENDING:
                s.delete(doc)

    def mark_duplicate(self, submission_id: str) -> None:
        with self.session() as s:
            s.execute(
                update(SubmissionRow)
                # Only a pending submission: a redelivered message of one that already
                # processed the document must not relabel it a duplicate.
                .where(
                    SubmissionRow.id == submission_id,
                    SubmissionRow.state == SubmissionState.PENDING,
                )
                .values(state=SubmissionState.DUPLICATE, updated_at=utcnow())
            )

    # -- documents -----------------------------------------------------------------------

    def document(self, doc_hash: str) -> DocumentRow | None:
        with self.session() as s:
            return s.scalar(select(DocumentRow).where(DocumentRow.doc_hash == doc_hash))

    def hashes_starting_with(self, prefix: str, limit: int) -> list[str]:
        """Up to ``limit`` document hashes that start with ``prefix`` (lower-case hex)."""
        with self._guard(), self.engine.connect() as conn:
            query = (
                select(DocumentRow.doc_hash)
                .where(DocumentRow.doc_hash.startswith(prefix, autoescape=True))
                .order_by(DocumentRow.doc_hash)
                .limit(limit)
            )
            return [str(h) for h in conn.scalars(query)]

    def document_state(self, doc_hash: str) -> str | None:
        """Just the state: every task asks it, so it must not load the abstraction JSON."""
        with self._guard(), self.engine.connect() as conn:
            state = conn.scalar(select(DocumentRow.state).where(DocumentRow.doc_hash == doc_hash))
            return None if state is None else str(state)

    def submission(self, submission_id: str) -> SubmissionRow | None:
        with self.session() as s:
            return s.get(SubmissionRow, submission_id)

    def quiet_pending(self, cutoff: dt.datetime, limit: int = 1000) -> list[PendingDocument]:
        """Pending documents with nothing happening since ``cutoff``, oldest first: no state
        change, no submission and no re-drive after it (``lease-parser pending``)."""
        with self._guard(), self.engine.connect() as conn:
            docs = conn.execute(
                select(DocumentRow.doc_hash, DocumentRow.doc_key, DocumentRow.state_changed_at)
                .where(
                    DocumentRow.state == DocumentState.PENDING,
                    DocumentRow.state_changed_at < cutoff,
                )
                .order_by(DocumentRow.state_changed_at)
            ).all()
            found = []
            for doc_hash, doc_key, changed in docs:
                pending = self._pending_activity(conn, doc_hash, as_utc(changed))
                if pending.last_activity < as_utc(cutoff):
                    found.append(replace(pending, doc_key=doc_key))
                if len(found) >= limit:
                    break
            return found

    @staticmethod
    def _pending_activity(conn: Any, doc_hash: str, changed: dt.datetime) -> PendingDocument:
        submission = conn.execute(
            select(SubmissionRow.id, SubmissionRow.created_at)
            .where(
                SubmissionRow.doc_hash == doc_hash,
                SubmissionRow.state == SubmissionState.PENDING,
            )
            .order_by(SubmissionRow.created_at.desc())
            .limit(1)
        ).first()
        redriven = conn.scalar(
            select(func.max(EventRow.at)).where(
                EventRow.doc_hash == doc_hash, EventRow.reason == REDRIVEN
            )
        )
        times = [changed, *(as_utc(t) for t in (redriven, submission and submission[1]) if t)]
        return PendingDocument(
            doc_hash=doc_hash,
            doc_key="",
            submission_id=str(submission[0]) if submission else None,
            pending_since=changed,
            last_activity=max(times),
        )

    def note_redriven(self, doc_hash: str, submission_id: str, actor: str) -> None:
        """Audit a re-drive (it also restarts the document's quiet time)."""
        with self.session() as s:
            s.add(
                EventRow(
                    doc_hash=doc_hash,
                    state=DocumentState.PENDING,
                    reason=REDRIVEN,
                    submission_id=submission_id,
                    actor=actor,
                )
            )

    def note_attempt(self, doc_hash: str) -> None:
        with self.session() as s:
            s.execute(
                update(DocumentRow)
                .where(DocumentRow.doc_hash == doc_hash)
                .values(attempts=DocumentRow.attempts + 1)
            )

    def finish(self, doc_hash: str, submission_id: str, outcome: Outcome) -> bool:
        """Move a pending document to its final state. False if it was already final."""
        now = utcnow()
        with self.session() as s:
            result = s.execute(
                update(DocumentRow)
                .where(DocumentRow.doc_hash == doc_hash, DocumentRow.state == DocumentState.PENDING)
                .values(
                    state=outcome.state,
                    reason=outcome.reason,
                    detail=outcome.detail,
                    kind=outcome.kind,
                    confidence=outcome.confidence,
                    fields=outcome.fields,
                    problems=outcome.problems,
                    amendments=outcome.amendments or None,
                    pages=outcome.pages,
                    ocr_pages=outcome.ocr_pages,
                    source="auto" if outcome.state == DocumentState.COMMITTED else None,
                    # A requeued document starts over: an earlier review no longer applies.
                    reviewer=None,
                    reviewed_at=None,
                    corrections=None,
                    field_sources=None,
                    processed_by=submission_id,
                    finished_at=now,
                    updated_at=now,
                    state_changed_at=now,
                )
            )
            won = bool(result.rowcount)  # type: ignore[attr-defined]
            if won:
                s.add(
                    EventRow(
                        doc_hash=doc_hash,
                        state=outcome.state,
                        reason=outcome.reason,
                        submission_id=submission_id,
                        actor="pipeline",
                    )
                )
            s.execute(
                update(SubmissionRow)
                .where(
                    SubmissionRow.id == submission_id,
                    SubmissionRow.state == SubmissionState.PENDING,
                )
                .values(
                    state=SubmissionState.PROCESSED if won else SubmissionState.DUPLICATE,
                    updated_at=now,
                )
            )
            return won

    def requeue(
        self,
        doc_hash: str,
        submission_id: str,
        actor: str,
        states: Iterable[DocumentState],
        reason: str | None = None,
        doc_key: str | None = None,
        event: str = "requeued",
    ) -> Requeue | None:
        """Put a document in one of ``states`` (and with ``reason``, if given) back to
        ``pending`` under a new submission, in one transaction; None if it is not one.
        With ``doc_key`` the document is read from that key from now on (a resubmission of
        content whose first key held other bytes); ``event`` is the audit event's reason.

        The returned ``Requeue`` remembers what the row was, so ``undo_requeue`` can put
        it back exactly if the message cannot be published: a failed requeue must leave
        the document where it was (its fields, problems and kind are never touched here).
        """
        now = utcnow()
        conditions = [DocumentRow.doc_hash == doc_hash, DocumentRow.state.in_(list(states))]
        if reason is not None:
            conditions.append(DocumentRow.reason == reason)
        with self.session() as s:
            row = s.scalar(select(DocumentRow).where(*conditions).with_for_update())
            if row is None:
                return None
            before = {column: getattr(row, column) for column in REQUEUE_RESETS}
            key = row.doc_key if doc_key is None else doc_key
            version = row.key_version if key == row.doc_key else self._next_version(s, key)
            changed = s.execute(
                update(DocumentRow)
                .where(*conditions)
                .values(
                    doc_key=key,
                    key_version=version,
                    state=DocumentState.PENDING,
                    reason=None,
                    finished_at=None,
                    updated_at=now,
                    state_changed_at=now,
                    claimed_by=None,
                    claimed_at=None,
                    claim_expires_at=None,
                )
            ).rowcount  # type: ignore[attr-defined]
            if not changed:
                return None
            entry = EventRow(
                doc_hash=doc_hash, state=DocumentState.PENDING, reason=event, actor=actor
            )
            s.add(entry)
            s.add(SubmissionRow(id=submission_id, doc_hash=doc_hash, doc_key=key))
            s.flush()
            return Requeue(doc_hash, key, submission_id, entry.id, now, before)

    def undo_requeue(self, requeue: Requeue) -> bool:
        """Put a requeued document back as it was, if nothing has moved it since: its
        columns restored, the "requeued" event and the submission gone. False if it moved
        on (then the message did go out, and the pipeline owns it)."""
        with self.session() as s:
            restored = s.execute(
                update(DocumentRow)
                .where(
                    DocumentRow.doc_hash == requeue.doc_hash,
                    DocumentRow.state == DocumentState.PENDING,
                    DocumentRow.state_changed_at == requeue.requeued_at,
                )
                .values(**requeue.before)
            ).rowcount  # type: ignore[attr-defined]
            if not restored:
                return False
            s.execute(delete(EventRow).where(EventRow.id == requeue.event_id))
            s.execute(delete(SubmissionRow).where(SubmissionRow.id == requeue.submission_id))
            return True

    def note_discarded(self, doc_hash: str, actor: str, note: str | None) -> bool:
        """Record that an operator discarded a dead document's letter; False if not dead."""
        with self.session() as s:
            state = s.scalar(select(DocumentRow.state).where(DocumentRow.doc_hash == doc_hash))
            if state != DocumentState.DEAD:
                return False
            detail = {"note": note} if note else None
            s.add(
                EventRow(
                    doc_hash=doc_hash,
                    state=DocumentState.DEAD,
                    reason=DISCARDED,
                    actor=actor,
                    detail=detail,
                )
            )
            return True

    def counts_by_state(self) -> dict[str, int]:
        with self.session() as s:
            rows = s.execute(select(DocumentRow.state, func.count()).group_by(DocumentRow.state))
            return {str(state): int(n) for state, n in rows.all()}

    def commit_events(self, doc_hash: str) -> int:
        """How many times a document entered ``committed`` (must never exceed 1)."""
        with self.session() as s:
            return (
                s.scalar(
                    select(func.count())
                    .select_from(EventRow)
                    .where(
                        EventRow.doc_hash == doc_hash,
                        EventRow.state == DocumentState.COMMITTED,
                        or_(EventRow.reason.is_(None), EventRow.reason.not_in(AFTER_COMMIT_EVENTS)),
                    )
                )
                or 0
            )

    # -- reading the record (results, review screens) ------------------------------------

    def documents(
        self,
        states: Iterable[str] = (),
        since: dt.datetime | None = None,
        until: dt.datetime | None = None,
        limit: int | None = None,
        newest_first: bool = False,
        after: tuple[dt.datetime, int] | None = None,
    ) -> Iterator[DocumentRow]:
        """Documents by the time they entered their state (oldest first), filtered.

        ``since`` is inclusive, ``until`` exclusive; ``after`` is a page cursor, the
        ``(state_changed_at, id)`` of the last row of the previous page (oldest first
        only). Rows are streamed in batches so an export of the whole store does not hold
        it in memory.
        """
        order = [DocumentRow.state_changed_at, DocumentRow.id]
        query = select(DocumentRow).order_by(*(c.desc() for c in order) if newest_first else order)
        if states := list(states):
            query = query.where(DocumentRow.state.in_(states))
        if since is not None:
            query = query.where(DocumentRow.state_changed_at >= since)
        if until is not None:
            query = query.where(DocumentRow.state_changed_at < until)
        if after is not None:
            at, row_id = after
            query = query.where(
                or_(
                    DocumentRow.state_changed_at > at,
                    and_(DocumentRow.state_changed_at == at, DocumentRow.id > row_id),
                )
            )
        if limit is not None:
            query = query.limit(limit)
        with self.session() as s:
            yield from s.scalars(query.execution_options(yield_per=500))

    def events(self, doc_hash: str) -> list[EventRow]:
        """A document's audit trail, oldest first."""
        with self.session() as s:
            query = select(EventRow).where(EventRow.doc_hash == doc_hash)
            return list(s.scalars(query.order_by(EventRow.at, EventRow.id)))

    def versions(self, doc_key: str) -> list[DocumentRow]:
        """Every document ever uploaded under a key, first version first."""
        with self.session() as s:
            query = select(DocumentRow).where(DocumentRow.doc_key == doc_key)
            return list(s.scalars(query.order_by(DocumentRow.key_version)))

    def decisions(
        self, doc_hash: str, review_since: dt.datetime | None = None
    ) -> list[ReviewDecisionRow]:
        """Reviewers' field decisions on a document (one stay in review, or all), in order."""
        with self.session() as s:
            query = select(ReviewDecisionRow).where(ReviewDecisionRow.doc_hash == doc_hash)
            if review_since is not None:
                query = query.where(ReviewDecisionRow.review_since == review_since)
            return list(
                s.scalars(query.order_by(ReviewDecisionRow.decided_at, ReviewDecisionRow.id))
            )
