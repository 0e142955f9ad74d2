"""Submitting documents: the Python entry point ``lease_parser.submit`` lands here."""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass

from celery import Celery

from lease_parser.errors import LeaseParserError
from lease_parser.pipeline.idempotency import clear_claim
from lease_parser.pipeline.publish import check_broker_capacity, publish
from lease_parser.pipeline.routing import EXTRACT_CLAUSES
from lease_parser.pipeline.runtime import runtime_for
from lease_parser.storage import hash_object
from lease_parser.store import DocumentState, Outcome


@dataclass(frozen=True)
class SubmitReceipt:
    doc_key: str
    doc_hash: str
    task_id: str
    state: str

    def to_json(self) -> dict[str, str]:
        return asdict(self)


def submit_document(
    app: Celery, doc_key: str, doc_hash: str | None = None, actor: str | None = None
) -> SubmitReceipt:
    """Record the submission in the store, then publish it to ``lease_extraction``.

    ``actor`` (an API caller's token name) is recorded with a ``submitted`` audit event.

    Raises ``BrokerFullError`` when the broker is past its high-water mark (checked first,
    so nothing is registered) or refuses the publish. The store row comes before the
    publish so a document is never in a queue without a record; if the publish fails
    (broker full or down) the record is withdrawn and the error raised.
    """
    runtime = runtime_for(app.lease_settings)
    check_broker_capacity(runtime.redis, runtime.settings.broker_high_water)
    if doc_hash is None:
        doc_hash = hash_object(runtime.objects, doc_key)
    doc_hash = doc_hash.lower()
    task_id = str(uuid.uuid4())
    runtime.store.register_submission(task_id, doc_key, doc_hash, actor)
    message = {"doc_key": doc_key, "doc_hash": doc_hash, "submission_id": task_id}
    try:
        publish(app, EXTRACT_CLAUSES, message, task_id=task_id)
    except LeaseParserError:
        runtime.store.withdraw_submission(task_id)
        raise
    return SubmitReceipt(doc_key, doc_hash, task_id, "pending")


def requeue_document(
    app: Celery,
    doc_hash: str,
    actor: str,
    states: tuple[DocumentState, ...] = (DocumentState.DEAD, DocumentState.REVIEW),
) -> SubmitReceipt | None:
    """Manual replay of a dead (or credential-blocked) document; None if it is not one.

    The document goes back to ``pending`` and is submitted afresh (a new submission id).
    Its old claim is dropped: whoever held it has finished. If the submission fails (the
    broker full or down) the document returns to the state it was in, so the operator
    can simply requeue again later.
    """
    runtime = runtime_for(app.lease_settings)
    row = runtime.store.document(doc_hash)
    if row is None or row.state not in states:
        return None
    previous = Outcome(state=DocumentState(row.state), reason=row.reason, detail=row.detail)
    if not runtime.store.reset_to_pending(doc_hash, actor):
        return None
    clear_claim(runtime.redis, doc_hash)
    try:
        return submit_document(app, row.doc_key, doc_hash)
    except LeaseParserError:
        runtime.store.finish(doc_hash, f"requeue-failed:{actor}", previous)
        raise
