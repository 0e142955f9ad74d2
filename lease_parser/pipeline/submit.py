"""Submitting documents: the Python entry point ``lease_parser.submit`` lands here."""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass

from celery import Celery

from lease_parser.errors import LeaseParserError
from lease_parser.pipeline.publish import publish
from lease_parser.pipeline.routing import EXTRACT_CLAUSES
from lease_parser.pipeline.runtime import runtime_for
from lease_parser.storage import hash_object


@dataclass(frozen=True)
class SubmitReceipt:
    doc_key: str
    doc_hash: str
    task_id: str
    state: str

    def to_json(self) -> dict[str, str]:
        return asdict(self)


def submit_document(app: Celery, doc_key: str, doc_hash: str | None = None) -> SubmitReceipt:
    """Record the submission in the store, then publish it to ``lease_extraction``.

    The store row comes first so a document is never in a queue without a record; if the
    publish fails (broker full or down) the record is withdrawn and the error raised.
    """
    runtime = runtime_for(app.lease_settings)
    if doc_hash is None:
        doc_hash = hash_object(runtime.objects, doc_key)
    doc_hash = doc_hash.lower()
    task_id = str(uuid.uuid4())
    runtime.store.register_submission(task_id, doc_key, doc_hash)
    message = {"doc_key": doc_key, "doc_hash": doc_hash, "submission_id": task_id}
    try:
        publish(app, EXTRACT_CLAUSES, message, task_id=task_id)
    except LeaseParserError:
        runtime.store.withdraw_submission(task_id)
        raise
    return SubmitReceipt(doc_key, doc_hash, task_id, "pending")


def requeue_document(app: Celery, doc_hash: str, actor: str) -> SubmitReceipt | None:
    """Manual replay of a dead (or credential-blocked) document; None if it is not one."""
    runtime = runtime_for(app.lease_settings)
    row = runtime.store.document(doc_hash)
    if row is None or not runtime.store.reset_to_pending(doc_hash, actor):
        return None
    return submit_document(app, row.doc_key, doc_hash)
