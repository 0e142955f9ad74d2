"""The hash-keyed dedup guard: the one decorator every task runs under.

Delivery on Redis is at-least-once (``acks_late``: a message is acknowledged after the
task, and re-delivered when its worker dies); effects must be exactly-once. Three layers:

1. **The hash lock**: one Lua script, atomic on the server, on the content hash. Never a
   check-then-set: ``GET`` then ``SET`` from the client (or the seed design's
   ``sismember``/``sadd``) lets two workers both see "free" and both process the lease.

   - free → locked by this submission (``ACQUIRED``)
   - held by this submission → a redelivery of the same message, or a later stage or a
     retry of the same submission (all carry its id): proceed (``REENTRANT``)
   - held by another submission → the same content submitted again: skip (``DUPLICATE``)

   The lock is released when the task fails (so a retry, or a manual requeue, can take
   it) and when the document reaches its final state; it expires after ``hash_lock_ttl``.
   (It is called a lock, not a claim, because a *claim* is what a reviewer takes on a
   review item: store/review.py.)
2. **The delivery count** per task id and retry number: a message that keeps killing its
   worker (OOM, segfault) comes back through ``task_reject_on_worker_lost``; after
   ``max_deliveries`` it is dead-lettered (``worker_lost``) instead of looping forever.
3. **The store**: the move out of ``pending`` is a conditional UPDATE unique on the hash
   (store/database.py), so even a lock lost with Redis cannot commit a document twice.

Every failure goes through one path: retry.py classifies it, and the document is retried,
reviewed or dead-lettered. If recording that outcome itself fails (Redis or the store
down), the message is re-queued rather than acknowledged into nothing.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from billiard.exceptions import TimeLimitExceeded
from celery import Task
from celery.exceptions import Reject, Retry

import redis
from lease_parser.errors import Reason
from lease_parser.pipeline.hold import hold_point
from lease_parser.pipeline.job import MESSAGE_FIELDS, Job
from lease_parser.pipeline.retry import Action, classify

log = logging.getLogger(__name__)

HASH_LOCK_PREFIX = "lease:hashlock:"
DELIVERY_PREFIX = "lease:deliveries:"
Body = Callable[..., None]
TaskFunction = Callable[..., str]

# KEYS[1] lock key; ARGV[1] submission id; ARGV[2] ttl seconds.
_LOCK = """
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  return 2
end
return 0
"""

# Compare-and-delete: only the holder may release (a late worker must not free a lock
# that another submission has since taken).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class HashLock(StrEnum):
    ACQUIRED = "acquired"
    REENTRANT = "reentrant"
    DUPLICATE = "duplicate"


def hash_lock_key(doc_hash: str) -> str:
    return HASH_LOCK_PREFIX + doc_hash


def lock_hash(r: redis.Redis, doc_hash: str, submission_id: str, ttl: int) -> HashLock:
    result = r.register_script(_LOCK)(keys=[hash_lock_key(doc_hash)], args=[submission_id, ttl])
    return {1: HashLock.ACQUIRED, 2: HashLock.REENTRANT}.get(int(result), HashLock.DUPLICATE)


def release_hash_lock(r: redis.Redis, doc_hash: str, submission_id: str) -> bool:
    return bool(r.register_script(_RELEASE)(keys=[hash_lock_key(doc_hash)], args=[submission_id]))


def clear_hash_lock(r: redis.Redis, doc_hash: str) -> None:
    """Drop the lock whoever holds it: only for an operator's requeue of a final document."""
    r.delete(hash_lock_key(doc_hash))


def hash_lock_holder(r: redis.Redis, doc_hash: str) -> str | None:
    value = r.get(hash_lock_key(doc_hash))
    return value.decode() if isinstance(value, bytes) else None


def count_delivery(r: redis.Redis, task_id: str, retries: int, ttl: int) -> int:
    """Count one more delivery of this message (task id + retry number); return the count.

    Redeliveries after a worker death keep both, so they add up; a retry is a new message
    (retry number + 1) and starts again at 1.
    """
    key = DELIVERY_PREFIX + task_id
    with r.pipeline(transaction=True) as pipe:
        pipe.hincrby(key, str(retries), 1)
        pipe.expire(key, ttl)
        count, _ = pipe.execute()
    return int(count)


def deliveries(r: redis.Redis, task_id: str) -> dict[int, int]:
    """Deliveries so far of each retry of a task id: ``{retry number: deliveries}``."""
    raw = r.hgetall(DELIVERY_PREFIX + task_id)
    return {int(k): int(v) for k, v in raw.items()}


def _fail(job: Job, exc: Exception) -> str:
    """The one failure path: classify, release the hash lock, then retry, review or dead."""
    decision = classify(exc, job.retries, job.settings.retry)
    log.warning(
        "%s %s: %s (%s)", job.task.name, job.doc_hash[:12], decision.action, decision.detail
    )
    release_hash_lock(job.runtime.redis, job.doc_hash, job.submission_id)
    if decision.action is Action.RETRY:
        job.retry(decision.countdown, exc)
    if decision.action is Action.REVIEW:
        job.review(decision.reason, decision.detail)
    else:
        job.dead(decision.reason, decision.detail, exc)
    return decision.action.value


def _run_once(job: Job, body: Body, kwargs: dict[str, Any]) -> str:
    settings = job.settings
    r = job.runtime.redis
    delivered = count_delivery(r, job.task_id, job.retries, settings.delivery_count_ttl)
    lock = lock_hash(r, job.doc_hash, job.submission_id, settings.hash_lock_ttl)
    if lock is HashLock.DUPLICATE:
        job.duplicate()
        return "duplicate"
    if job.is_final():
        # Finished already: by this submission (redelivered after its commit, before its
        # ack: the store leaves a processed submission alone) or by an earlier one whose
        # lock had expired or been released.
        job.duplicate()
        release_hash_lock(r, job.doc_hash, job.submission_id)
        return "done"
    if delivered > settings.max_deliveries:
        job.dead(
            Reason.WORKER_LOST,
            f"delivered {delivered} times without finishing: it kills its worker "
            "(OOM, segfault) or its outcome could not be recorded",
        )
        release_hash_lock(r, job.doc_hash, job.submission_id)
        return "dead"
    hold_point(r, settings.test_hold, job.task.name, job.task_id)
    try:
        body(job, **kwargs)
    except Exception as exc:
        return _fail(job, exc)
    if job.final:
        release_hash_lock(r, job.doc_hash, job.submission_id)
    return "ok"


def _requeue_pause(job: Job) -> float:
    """A short pause before re-queueing, so an outage does not become a hot loop."""
    return min(float(job.settings.retry.backoff_base), 5.0) * (0.5 + random.random() / 2)


def idempotent(body: Body) -> TaskFunction:
    """Wrap a task body with the delivery count, the hash lock and the failure path."""

    def run(task: Task, *, doc_key: str, doc_hash: str, submission_id: str, **kw: Any) -> str:
        job = Job.for_task(task, doc_key, doc_hash, submission_id)
        try:
            return _run_once(job, body, kw)
        except (Retry, Reject):
            raise
        except Exception as exc:
            # Recording the outcome failed. An exception escaping here would be acked
            # (task_acks_on_failure_or_timeout) and the document lost: re-queue it. If
            # even that fails (Redis down) it stays unacked and comes back after the
            # visibility timeout.
            log.error(
                "%s %s: could not record the outcome, re-queueing: %r",
                task.name,
                doc_hash[:12],
                exc,
            )
            time.sleep(_requeue_pause(job))
            raise Reject(repr(exc), requeue=True) from exc

    # Not functools.wraps: Celery checks call arguments against the signature, which
    # must stay the wrapper's (keyword message fields), not the body's.
    run.__name__ = run.__qualname__ = body.__name__
    run.__doc__ = body.__doc__
    return run


def on_hard_time_limit(
    task: Task, task_id: str, kwargs: dict[str, Any], exc: BaseException
) -> None:
    """Dead-letter a task whose child was killed at the hard time limit.

    Runs in the worker's main process (Celery 5.7 calls ``Task.on_failure`` there on a
    hard timeout, celery/worker/request.py ``on_timeout``), because the child is gone.
    If this raises, Celery does not reach its ack: the message returns after the
    visibility timeout and meets the time limit again.
    """
    if not isinstance(exc, TimeLimitExceeded) or not set(MESSAGE_FIELDS) <= set(kwargs):
        return
    job = Job.for_task(task, *(str(kwargs[name]) for name in MESSAGE_FIELDS))
    counts = deliveries(job.runtime.redis, task_id)
    attempts = max(counts, default=0) + 1
    job.dead(Reason.TIME_LIMIT, f"killed at the hard time limit ({exc})", exc, attempts)
    release_hash_lock(job.runtime.redis, job.doc_hash, job.submission_id)
