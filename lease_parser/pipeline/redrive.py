"""Documents stuck ``pending``: find them, and re-drive the ones whose message is gone.

A document is pending from its submission until a worker records its outcome. If the
broker loses the message in between (a Redis restarted without its AOF, a queue deleted
by hand, a publish acknowledged and then lost), nothing will ever move it: no worker has
it, and dedup makes a plain resubmission a "duplicate" of the pending document.

``lease-parser pending`` lists the documents with nothing happening to them for a while,
and says for each whether its submission still has a message in the broker (queued, or
held unacked by a worker: running, or waiting for a retry). ``--redrive`` publishes the
extraction message again for those that have none, under the same submission, so the
hash lock treats it as that submission's own (exactly-once still holds: the store's move
out of ``pending`` is conditional). It is idempotent: a re-driven document has a message
again, and its re-drive is recorded, so running it twice publishes once.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from celery import Celery

import redis
from lease_parser.pipeline.publish import check_broker_capacity, publish
from lease_parser.pipeline.queues import priority_keys
from lease_parser.pipeline.routing import EXTRACT_CLAUSES, QUEUES
from lease_parser.pipeline.runtime import runtime_for
from lease_parser.store import PendingDocument, utcnow

# kombu's Redis transport keeps delivered-but-unacked messages here.
UNACKED = "unacked"
SCAN_CHUNK = 500


class MessageState(StrEnum):
    QUEUED = "queued"  # waiting in a queue
    UNACKED = "unacked"  # delivered to a worker: running, or held for a retry's countdown
    MISSING = "missing"  # no message anywhere: lost; re-drive it


@dataclass(frozen=True)
class StuckDocument:
    document: PendingDocument
    message: MessageState
    where: str | None = None  # the queue holding its message
    redriven_as: str | None = None  # the task id of the re-driven message

    def to_json(self, now: dt.datetime) -> dict[str, Any]:
        doc = self.document
        return {
            "doc_hash": doc.doc_hash,
            "doc_key": doc.doc_key,
            "submission_id": doc.submission_id,
            "pending_since": doc.pending_since.isoformat(),
            "quiet_seconds": round((now - doc.last_activity).total_seconds()),
            "message": self.message.value,
            "queue": self.where,
            "redriven_task_id": self.redriven_as,
        }


def _submission_of(raw: bytes | str) -> str | None:
    """The ``submission_id`` a raw kombu message carries (None for anything else)."""
    try:
        message = json.loads(raw)
        if isinstance(message, list):  # an unacked entry: [message, exchange, routing key]
            message = message[0]
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        _args, kwargs, _embed = json.loads(body)
        return str(kwargs["submission_id"])
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def _list_items(r: redis.Redis, key: str) -> Iterator[bytes | str]:
    start = 0
    while chunk := r.lrange(key, start, start + SCAN_CHUNK - 1):
        yield from chunk
        start += SCAN_CHUNK


def broker_messages(r: redis.Redis, queues: Iterable[str] = QUEUES) -> dict[str, tuple[str, str]]:
    """``{submission id: (state, queue)}`` of every task message in the broker."""
    found: dict[str, tuple[str, str]] = {}
    for queue in queues:
        for key in priority_keys(queue):
            for raw in _list_items(r, key):
                if submission := _submission_of(raw):
                    found[submission] = (MessageState.QUEUED, queue)
    for entry in r.hvals(UNACKED):
        if submission := _submission_of(entry):
            found.setdefault(submission, (MessageState.UNACKED, str(json.loads(entry)[2])))
    return found


def find_stuck(app: Celery, quiet_for: dt.timedelta, limit: int = 1000) -> list[StuckDocument]:
    """Pending documents quiet for ``quiet_for``, each with where its message is."""
    runtime = runtime_for(app.lease_settings)
    documents = runtime.store.quiet_pending(utcnow() - quiet_for, limit)
    messages = broker_messages(runtime.redis) if documents else {}
    stuck = []
    for doc in documents:
        state, queue = messages.get(doc.submission_id or "", (MessageState.MISSING, None))
        stuck.append(StuckDocument(doc, MessageState(state), queue))
    return stuck


def redrive(app: Celery, stuck: StuckDocument, actor: str) -> StuckDocument:
    """Publish the extraction message of a document whose message is missing (and record
    the re-drive); anything else is returned as it is."""
    if stuck.message is not MessageState.MISSING:
        return stuck
    runtime = runtime_for(app.lease_settings)
    doc = stuck.document
    submission_id = doc.submission_id
    if submission_id is None:  # every submission of it was closed: give it a new one
        submission_id = str(uuid.uuid4())
        runtime.store.register_submission(submission_id, doc.doc_key, doc.doc_hash, actor)
    check_broker_capacity(runtime.redis, runtime.settings.broker_high_water)
    message = {"doc_key": doc.doc_key, "doc_hash": doc.doc_hash, "submission_id": submission_id}
    task_id = publish(app, EXTRACT_CLAUSES, message, task_id=str(uuid.uuid4()))
    runtime.store.note_redriven(doc.doc_hash, submission_id, actor)
    return StuckDocument(doc, MessageState.QUEUED, "lease_extraction", task_id)
