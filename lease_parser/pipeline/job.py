"""One document's trip through one task: fetch, hand on to the next stage, or finish.

Everything a task body does besides calling the core goes through ``Job``, so the bodies
in tasks.py stay a few lines long and hold no business ``if``s.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any

from celery import Task

from lease_parser.deadletter import DeadLetter, record_dead_letter
from lease_parser.errors import HashMismatch, Reason
from lease_parser.metrics import record_duplicate, record_outcome
from lease_parser.model import AbstractionResult, Route, result_json
from lease_parser.pipeline.publish import publish
from lease_parser.pipeline.runtime import Runtime
from lease_parser.storage import fetch, get_json
from lease_parser.store import DocumentState, Outcome

CREDENTIAL_PREFIX = "credentials/"


def credential_key(doc_hash: str) -> str:
    """Where an operator puts the password of an encrypted document (see README)."""
    return f"{CREDENTIAL_PREFIX}{doc_hash}.json"


@dataclass
class Job:
    task: Task
    runtime: Runtime
    doc_key: str
    doc_hash: str
    submission_id: str

    @property
    def message(self) -> dict[str, str]:
        return {
            "doc_key": self.doc_key,
            "doc_hash": self.doc_hash,
            "submission_id": self.submission_id,
        }

    def fetch_document(self) -> bytes:
        """Download once (size checked from metadata first) and verify the content hash."""
        got = fetch(self.runtime.objects, self.doc_key, self.runtime.settings.max_document_bytes)
        if got.sha256 != self.doc_hash:
            raise HashMismatch(
                "the object changed after it was submitted",
                key=self.doc_key,
                expected=self.doc_hash,
                actual=got.sha256,
            )
        return got.data

    def password(self) -> str | None:
        """An operator-supplied password for this document, if one was stored."""
        key = credential_key(self.doc_hash)
        if not self.runtime.objects.exists(key):
            return None
        value = get_json(self.runtime.objects, key).get("password")
        return str(value) if value else None

    def hand_on(self, task_name: str, **extra: Any) -> str:
        return publish(self.task.app, task_name, {**self.message, **extra})

    def already_final(self) -> bool:
        row = self.runtime.store.document(self.doc_hash)
        return row is not None and row.state != DocumentState.PENDING

    def finish(self, result: AbstractionResult) -> bool:
        as_json = result_json(result)
        outcome = Outcome(
            state=DocumentState(result.route.value),
            reason=result.reason,
            detail=result.detail,
            kind=as_json["kind"],
            confidence=result.confidence,
            fields=as_json["fields"],
            problems=as_json["problems"],
            pages=result.pages,
            ocr_pages=result.ocr_pages,
        )
        won = self.runtime.store.finish(self.doc_hash, self.submission_id, outcome)
        record_outcome(result, won)
        return won

    def review(self, reason: Reason, detail: str) -> bool:
        result = AbstractionResult(route=Route.REVIEW, reason=reason, detail=detail)
        return self.finish(result)

    def dead(self, reason: Reason, detail: str, exc: BaseException | None = None) -> bool:
        """Record a dead letter in Redis and the dead state in the store."""
        tb = "".join(traceback.format_exception(exc)) if exc is not None else ""
        letter = DeadLetter(
            doc_hash=self.doc_hash,
            doc_key=self.doc_key,
            submission_id=self.submission_id,
            task=str(self.task.name),
            reason=reason.value,
            attempts=int(self.task.request.retries or 0) + 1,
            detail=detail,
            traceback=tb,
            payload=self.message,
        )
        record_dead_letter(self.runtime.redis, letter)
        return self.finish(AbstractionResult(route=Route.DEAD, reason=reason, detail=detail))

    def duplicate(self) -> None:
        self.runtime.store.mark_duplicate(self.submission_id)
        record_duplicate()
