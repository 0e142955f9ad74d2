"""Retry, dead-letter or review: decided here, once, from the error taxonomy.

Tasks never write their own ``except`` ladders. Every class in errors.py has an explicit
entry in ``ACTIONS`` (a unit test fails when a new one is added without a decision), and
library exceptions that can reach task code are translated first: Redis errors here
(claims, delivery counts and dead letters talk to Redis directly), Celery's soft time
limit here; object-store, canonical-store and parser errors at their own adapters
(storage.py, store.py, parsing/), publish errors in publish.py.

A transient error is retried with exponential backoff and jitter (``RetryPolicy``); the
largest countdown is validated to stay below the visibility timeout, because a retry is
an ETA message held unacked by a worker, and one held past the visibility timeout is
handed to a second worker. After the last retry it is dead-lettered
(``retries_exhausted``). A permanent error never retries. An exception nobody foresaw is
a bug: dead-lettered at once (``internal_error``) with its traceback, never retried in a
loop.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from billiard.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

import redis
from lease_parser import errors
from lease_parser.errors import LeaseParserError, Reason
from lease_parser.settings import RetryPolicy


class Action(StrEnum):
    RETRY = "retry"
    DEAD = "dead"
    REVIEW = "review"


# One line per class in errors.py, so adding a class forces a decision (tested).
ACTIONS: dict[type[LeaseParserError], Action] = {
    errors.LeaseParserError: Action.DEAD,
    # A worker that sees bad settings cannot fix them: dead-letter, fix, requeue by hand.
    errors.ConfigurationError: Action.DEAD,
    # In a worker, a full broker (a hand-on refused) drains as other tasks finish.
    errors.BrokerFullError: Action.RETRY,
    # Callers' lookups (status, the API), never raised in a task; dead if one ever is.
    errors.DocumentNotFound: Action.DEAD,
    errors.InvalidHash: Action.DEAD,
    errors.PermanentError: Action.DEAD,
    errors.CorruptDocument: Action.DEAD,
    errors.EmptyDocument: Action.DEAD,
    errors.DocumentTooLarge: Action.DEAD,
    errors.TooManyPages: Action.DEAD,
    errors.UnsupportedFormat: Action.DEAD,
    errors.ResourceBomb: Action.DEAD,
    # Someone can supply the password (lease-parser unlock): a person's queue, not ops'.
    errors.EncryptedDocument: Action.REVIEW,
    errors.HashMismatch: Action.DEAD,
    # 404 / NoSuchKey: the key will not appear by retrying (the seed design retried it).
    errors.ObjectNotFound: Action.DEAD,
    errors.StorageForbidden: Action.DEAD,
    errors.MessageTooLarge: Action.DEAD,
    errors.TransientError: Action.RETRY,
    errors.StorageUnavailable: Action.RETRY,
    errors.BrokerUnavailable: Action.RETRY,
    errors.OperationTimeout: Action.RETRY,
}

# Redis errors that mean "the server is unreachable, loading, failing over or busy".
_REDIS_UNAVAILABLE = (
    redis.exceptions.ConnectionError,  # incl. BusyLoading (AOF replay after a restart)
    redis.exceptions.TimeoutError,
    redis.exceptions.ReadOnlyError,  # a replica promoted under us
    redis.exceptions.ClusterDownError,
    redis.exceptions.TryAgainError,
)


@dataclass(frozen=True)
class Decision:
    action: Action
    reason: Reason
    countdown: float = 0.0
    detail: str = ""


def translate(exc: BaseException) -> BaseException:
    """Map the library exceptions that reach task code directly onto the taxonomy."""
    if isinstance(exc, redis.exceptions.OutOfMemoryError):
        return errors.BrokerFullError(f"Redis at maxmemory: {exc}")
    if isinstance(exc, _REDIS_UNAVAILABLE):
        return errors.BrokerUnavailable(f"Redis unavailable: {type(exc).__name__}: {exc}")
    return exc


def action_for(exc: LeaseParserError) -> Action:
    """The declared action of the nearest class in ``exc``'s MRO."""
    for cls in type(exc).__mro__:
        if cls in ACTIONS:
            return ACTIONS[cls]
    return Action.DEAD  # unreachable: LeaseParserError itself is in the table


def classify(exc: BaseException, retries_done: int, policy: RetryPolicy) -> Decision:
    """What to do about ``exc`` raised on attempt ``retries_done + 1``."""
    exc = translate(exc)
    detail = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, SoftTimeLimitExceeded | TimeLimitExceeded):
        return Decision(Action.DEAD, Reason.TIME_LIMIT, detail=detail)
    if not isinstance(exc, LeaseParserError):
        # Unforeseen: a bug. Dead-letter it with its traceback so someone fixes the code
        # and requeues by hand; retrying a bug is a slow infinite loop.
        return Decision(Action.DEAD, Reason.INTERNAL_ERROR, detail=detail)
    action = action_for(exc)
    if action is not Action.RETRY:
        return Decision(action, exc.reason, detail=detail)
    if retries_done < policy.max_retries:
        countdown = policy.countdown(retries_done, random.random())
        return Decision(Action.RETRY, exc.reason, countdown=countdown, detail=detail)
    return Decision(Action.DEAD, Reason.RETRIES_EXHAUSTED, detail=detail)
