"""One document's trip through one task: fetch, hand on to the next stage, or finish.

Everything a task body does besides calling the core goes through ``Job``, so the bodies
in tasks.py stay a few lines long and hold no business ``if``s.
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass
from typing import Any, NoReturn

from celery import Task
from celery.exceptions import Reject

from lease_parser.credentials import forget_password, load_password
from lease_parser.deadletter import DeadLetter, record_dead_letter, settle_dead_letter
from lease_parser.errors import BrokerUnavailable, HashMismatch, LeaseParserError, Reason
from lease_parser.metrics import record_duplicate, record_outcome
from lease_parser.model import AbstractionResult, Route, result_json
from lease_parser.objects import fetch
from lease_parser.pipeline.publish import publish
from lease_parser.pipeline.runtime import Runtime, runtime_for
from lease_parser.redaction import redact
from lease_parser.settings import Settings
from lease_parser.store import DocumentState, Outcome, after_finish

log = logging.getLogger(__name__)
MESSAGE_FIELDS = ("doc_key", "doc_hash", "submission_id")


@dataclass
class Job:
    task: Task
    runtime: Runtime
    doc_key: str
    doc_hash: str
    submission_id: str
    # Set once this job has moved the document to a final state (or found it final).
    final: bool = False

    @classmethod
    def for_task(cls, task: Task, doc_key: str, doc_hash: str, submission_id: str) -> Job:
        return cls(task, runtime_for(task.app.lease_settings), doc_key, doc_hash, submission_id)

    @property
    def settings(self) -> Settings:
        return self.runtime.settings

    @property
    def task_id(self) -> str:
        return str(self.task.request.id)

    @property
    def retries(self) -> int:
        """Retries already made of this message (0 on the first attempt)."""
        return int(self.task.request.retries or 0)

    @property
    def message(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in MESSAGE_FIELDS}

    def fetch_document(self) -> bytes:
        """Download once (size checked from metadata first) and verify the content hash."""
        got = fetch(self.runtime.objects, self.doc_key, self.settings.max_document_bytes)
        if got.sha256 != self.doc_hash:
            raise HashMismatch(
                "the object changed after it was submitted",
                key=self.doc_key,
                expected=self.doc_hash,
                actual=got.sha256,
            )
        return got.data

    def password(self) -> str | None:
        """An operator-supplied password for this document (``unlock``), if one was stored."""
        return load_password(self.runtime.objects, self.settings, self.doc_hash)

    def hand_on(self, task_name: str, **extra: Any) -> str:
        return publish(self.task.app, task_name, {**self.message, **extra})

    def is_final(self) -> bool:
        state = self.runtime.store.document_state(self.doc_hash)
        self.final = state is not None and state != DocumentState.PENDING
        return self.final

    def finish(self, result: AbstractionResult) -> bool:
        """Record the final state; False if the document was already final (lost race)."""
        as_json = result_json(result)
        outcome = Outcome(
            state=DocumentState(result.route.value),
            reason=result.reason,
            detail=redact(result.detail) if result.detail else None,
            kind=as_json["kind"],
            confidence=result.confidence,
            fields=as_json["fields"],
            problems=as_json["problems"],
            pages=result.pages,
            ocr_pages=result.ocr_pages,
            amendments=as_json["amendments"],
        )
        won = self.runtime.store.finish(self.doc_hash, self.submission_id, outcome)
        record_outcome(result, won)
        self.final = True
        self._forget_password()
        if won and result.abstraction is not None:
            self.link_amendments()
        return won

    def link_amendments(self) -> None:
        """Link a finished amendment to its lease, or a finished lease to the amendments
        waiting for it. Best effort: the document's state is recorded already, and
        ``lease-parser amendments relink`` repeats what a store outage interrupted."""
        try:
            after_finish(self.runtime.store, self.doc_hash, self.settings.confidence_gate)
        except LeaseParserError as exc:
            log.warning("amendment linking for %s failed: %s", self.doc_hash[:12], exc)

    def _forget_password(self) -> None:
        """A final document needs no password: delete it (if one was stored at all)."""
        try:
            forget_password(self.runtime.objects, self.doc_hash)
        except Exception as exc:  # the outcome is recorded; a leftover stays encrypted
            log.warning("%s: stored password not deleted: %s", self.doc_hash[:12], exc)

    def review(self, reason: Reason, detail: str) -> bool:
        return self.finish(AbstractionResult(route=Route.REVIEW, reason=reason, detail=detail))

    def dead(
        self,
        reason: Reason,
        detail: str,
        exc: BaseException | None = None,
        attempts: int | None = None,
    ) -> bool:
        """Record a dead letter in Redis and the dead state in the store.

        The letter is written first: if the store write then fails, the message is put
        back and this runs again (the letter is keyed by hash, so it is overwritten, not
        doubled). If another delivery finished the document first, its outcome stands
        and so does its letter (deadletter.settle_dead_letter).
        """
        tb = "".join(traceback.format_exception(exc)) if exc is not None else ""
        letter = DeadLetter(
            doc_hash=self.doc_hash,
            doc_key=self.doc_key,
            submission_id=self.submission_id,
            task=str(self.task.name),
            reason=reason.value,
            attempts=attempts if attempts is not None else self.retries + 1,
            detail=detail,
            traceback=tb,
            payload=self.message,
        )
        previous = record_dead_letter(self.runtime.redis, letter)
        won = self.finish(AbstractionResult(route=Route.DEAD, reason=reason, detail=detail))
        state = None if won else self.runtime.store.document_state(self.doc_hash)
        settle_dead_letter(self.runtime.redis, letter, previous, won, state)
        return won

    def duplicate(self) -> None:
        """This submission is skipped: the same content is (being) processed by another."""
        self.runtime.store.mark_duplicate(self.submission_id)
        record_duplicate()

    def retry(self, countdown: float, exc: BaseException) -> NoReturn:
        """Publish this message again, ``countdown`` seconds from now (raises ``Retry``)."""
        try:
            # max_retries: our policy decided already; Celery's own default (3) would
            # otherwise re-raise ``exc`` on the 4th retry and ack the message into nothing.
            raise self.task.retry(
                countdown=countdown, exc=exc, max_retries=self.settings.retry.max_retries
            )
        except Reject as rejected:
            # Celery turns a failed retry publish into reject(requeue=False), which deletes
            # the message: make it an error of ours so the guard re-queues it instead.
            raise BrokerUnavailable(f"could not publish the retry: {rejected.reason}") from exc
