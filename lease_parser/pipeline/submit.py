"""Submitting documents: the Python entry point ``lease_parser.submit`` lands here.

Every move into the pipeline — a new submission, an operator's ``dead requeue``, an
``unlock`` — records the document in the store and then publishes its message; if the
publish fails the record is rolled back, so a failure leaves the document where it was
(never ``pending`` with nothing queued). A broker that cannot be reached at all is found
before anything is written (``check_broker_capacity`` also tells a full one).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from celery import Celery

from lease_parser.deadletter import (
    get_dead_letter,
    record_dead_letter,
    remove_dead_letter,
    withdraw_dead_letter,
)
from lease_parser.hashes import full_hash
from lease_parser.objects import hash_object
from lease_parser.pipeline.idempotency import clear_hash_lock
from lease_parser.pipeline.publish import check_broker_capacity, publish
from lease_parser.pipeline.routing import EXTRACT_CLAUSES
from lease_parser.pipeline.runtime import Runtime, runtime_for
from lease_parser.store import FINAL_STATES, HASH_MISMATCH, JOINED, DocumentState
from lease_parser.translate import translated

DUPLICATE = "duplicate"


@dataclass(frozen=True)
class SubmitReceipt:
    """What a submission did. ``state`` is ``pending`` (queued as task ``task_id``) or
    ``duplicate``: the content is already a final document (``document_state``: committed,
    review or dead) and nothing was queued; ``task_id`` is then the submission's record."""

    doc_key: str
    doc_hash: str
    task_id: str
    state: str
    document_state: str | None = None

    @property
    def queued(self) -> bool:
        return self.state != DUPLICATE

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _publish_extraction(app: Celery, doc_key: str, doc_hash: str, submission_id: str) -> None:
    message = {"doc_key": doc_key, "doc_hash": doc_hash, "submission_id": submission_id}
    publish(app, EXTRACT_CLAUSES, message, task_id=submission_id)


def submit_document(
    app: Celery,
    doc_key: str,
    doc_hash: str | None = None,
    actor: str | None = None,
    join_pending: bool = True,
) -> SubmitReceipt:
    """Record the submission in the store, then publish it to ``lease_extraction``.

    ``actor`` (an API caller's token name) is recorded with a ``submitted`` audit event.
    Content that is already a final document is not queued again: the receipt says it is
    a duplicate and gives that document's state. Nor is content already pending, with
    ``join_pending=False`` (the API: one task for racing uploads of the same bytes).
    A document that died as ``hash_mismatch`` is the exception: its hash was only
    claimed, the bytes under its key were other content, so it stands for nothing, and
    this submission reopens it under ``doc_key`` (``resubmitted``). Raises
    ``BrokerFullError`` when the broker is past its high-water mark (checked first, so
    nothing is registered) or refuses the publish, ``BrokerUnavailable`` when it cannot
    be reached, and ``InvalidHash`` for a ``doc_hash`` that is not 64 hex digits. The
    store row comes before the publish so a document is never in a queue without a
    record; if the publish fails the record is withdrawn (or put back) and the error raised.
    """
    runtime = runtime_for(app.lease_settings)
    doc_hash = full_hash(doc_hash) if doc_hash is not None else None
    check_broker_capacity(runtime.redis, runtime.settings.broker_high_water)
    if doc_hash is None:
        doc_hash = hash_object(runtime.objects, doc_key)
    task_id = str(uuid.uuid4())
    reopened = _reopen_mismatch(app, runtime, doc_key, doc_hash, task_id, actor)
    if reopened is not None:
        return reopened
    state = runtime.store.register_submission(task_id, doc_key, doc_hash, actor, join_pending)
    if state == JOINED:
        return SubmitReceipt(doc_key, doc_hash, task_id, DUPLICATE, DocumentState.PENDING)
    if state in FINAL_STATES:
        runtime.store.mark_duplicate(task_id)
        return SubmitReceipt(doc_key, doc_hash, task_id, DUPLICATE, state)
    _publish_or_undo(
        lambda: _publish_extraction(app, doc_key, doc_hash, task_id),
        lambda: runtime.store.withdraw_submission(task_id),
    )
    return SubmitReceipt(doc_key, doc_hash, task_id, DocumentState.PENDING)


def _reopen_mismatch(
    app: Celery, runtime: Runtime, doc_key: str, doc_hash: str, task_id: str, actor: str | None
) -> SubmitReceipt | None:
    """Reopen a ``hash_mismatch`` document for this submission of its content (one
    conditional UPDATE: None when the document is anything else). Its stale dead letter
    goes once the message is out: the document is back in the pipeline, not in triage."""
    reopened = runtime.store.requeue(
        doc_hash,
        task_id,
        actor or "submit",
        (DocumentState.DEAD,),
        HASH_MISMATCH,
        doc_key=doc_key,
        event="resubmitted",
    )
    if reopened is None:
        return None
    letter = get_dead_letter(runtime.redis, doc_hash)

    def send() -> None:
        # The letter goes before the publish: a new failure of this submission records
        # its own letter, which must not be the one removed.
        remove_dead_letter(runtime.redis, doc_hash)
        _publish_extraction(app, doc_key, doc_hash, task_id)

    def undo() -> None:
        runtime.store.undo_requeue(reopened)
        if letter is not None:
            with contextlib.suppress(Exception):  # Redis down: the store says dead anyway
                record_dead_letter(runtime.redis, letter)

    _publish_or_undo(send, undo)
    return SubmitReceipt(doc_key, doc_hash, task_id, DocumentState.PENDING)


def _publish_or_undo(send: Callable[[], None], undo: Callable[[], object]) -> None:
    """Run ``send``; if it fails, ``undo`` what was recorded for it and raise (as ours)."""
    try:
        with translated():
            send()
    except BaseException:  # Ctrl-C mid-publish too: the record must not say "queued"
        undo()
        raise


def requeue_document(
    app: Celery,
    doc_hash: str,
    actor: str,
    states: tuple[DocumentState, ...] = (DocumentState.DEAD,),
    reason: str | None = None,
    before_publish: Callable[[Runtime], object] = lambda runtime: None,
) -> SubmitReceipt | None:
    """Manual replay of a document in one of ``states`` (with ``reason``, if given); None
    if it is not one.

    The document goes back to ``pending`` under a new submission and its message is
    published; its old hash lock is dropped (whoever held it has finished). If anything
    after the record fails — ``before_publish`` (unlock stores the password there), the
    broker down or full — the record is rolled back exactly (state, reason, reviewer's claim;
    fields, problems and kind were never touched) and the error raised, so the operator
    can simply try again later.
    """
    runtime = runtime_for(app.lease_settings)
    check_broker_capacity(runtime.redis, runtime.settings.broker_high_water)
    submission_id = str(uuid.uuid4())
    requeue = runtime.store.requeue(doc_hash, submission_id, actor, states, reason)
    if requeue is None:
        return None

    def send() -> None:
        before_publish(runtime)
        clear_hash_lock(runtime.redis, doc_hash)
        _publish_extraction(app, requeue.doc_key, doc_hash, submission_id)

    _publish_or_undo(send, lambda: runtime.store.undo_requeue(requeue))
    return SubmitReceipt(requeue.doc_key, doc_hash, submission_id, DocumentState.PENDING)


def requeue_dead_document(app: Celery, doc_hash: str, actor: str) -> SubmitReceipt | None:
    """Send a dead document through the pipeline again (None if it is not dead).

    Its letter leaves triage once the message is queued — the letter read *before* the
    requeue, by compare-and-set: the requeued document may fail again at once, and the
    letter its new delivery writes must stay (a plain delete after the publish removed it).
    If the publish fails nothing changes, letter included.
    """
    r = runtime_for(app.lease_settings).redis
    before = get_dead_letter(r, doc_hash)
    receipt = requeue_document(app, doc_hash, actor, (DocumentState.DEAD,))
    if receipt is not None and before is not None:
        withdraw_dead_letter(r, before)
    return receipt
