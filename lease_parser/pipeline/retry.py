"""Retry, dead-letter or review: decided here, once, from the error taxonomy.

Tasks never write their own ``except`` ladders. Library exceptions that can reach a task
(Redis, Celery's time limits) are translated first; everything else was translated at
its adapter (storage.py, parsing/).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from billiard.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

import redis
from lease_parser.errors import (
    BrokerUnavailable,
    EncryptedDocument,
    LeaseParserError,
    PermanentError,
    Reason,
    TransientError,
)
from lease_parser.settings import RetryPolicy


class Action(StrEnum):
    RETRY = "retry"
    DEAD = "dead"
    REVIEW = "review"


@dataclass(frozen=True)
class Decision:
    action: Action
    reason: Reason
    countdown: float = 0.0
    detail: str = ""


def translate(exc: BaseException) -> BaseException:
    """Map library exceptions that reach task code onto the taxonomy."""
    if isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return BrokerUnavailable(f"Redis unavailable: {exc}")
    return exc


def classify(exc: BaseException, retries_done: int, policy: RetryPolicy) -> Decision:
    """What to do about ``exc`` on attempt ``retries_done + 1``."""
    exc = translate(exc)
    detail = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, SoftTimeLimitExceeded | TimeLimitExceeded):
        return Decision(Action.DEAD, Reason.TIME_LIMIT, detail=detail)
    if isinstance(exc, EncryptedDocument):
        return Decision(Action.REVIEW, Reason.NEEDS_CREDENTIAL, detail=detail)
    if isinstance(exc, PermanentError):
        return Decision(Action.DEAD, exc.reason, detail=detail)
    if isinstance(exc, TransientError):
        if retries_done < policy.max_retries:
            countdown = policy.countdown(retries_done, random.random())
            return Decision(Action.RETRY, exc.reason, countdown=countdown, detail=detail)
        return Decision(Action.DEAD, Reason.RETRIES_EXHAUSTED, detail=detail)
    if isinstance(exc, LeaseParserError):
        return Decision(Action.DEAD, exc.reason, detail=detail)
    # An exception we did not foresee is a bug, not a reason to loop: dead-letter it
    # with its traceback so someone fixes the code, then requeues by hand.
    return Decision(Action.DEAD, Reason.INTERNAL_ERROR, detail=detail)
