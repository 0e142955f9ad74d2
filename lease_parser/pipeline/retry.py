"""Retry, dead-letter or review: decided here, once, from the error taxonomy.

Tasks never write their own ``except`` ladders. What each error class means (retry,
review, dead) is declared once in ``lease_parser.outcomes.ACTIONS`` (a unit test fails when
a class is added without a decision); this module adds the backoff and the retry budget.
Library exceptions that can reach task code are translated first: Redis and kombu errors
by ``lease_parser.translate`` (hash locks, delivery counts and dead letters talk to Redis
directly), Celery's time limits here; object-store, canonical-store and parser errors at
their own adapters (objects/, store/, parsing/).

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

from billiard.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

from lease_parser.errors import LeaseParserError, Reason
from lease_parser.outcomes import ACTIONS, Action, action_for
from lease_parser.settings import RetryPolicy
from lease_parser.translate import translate

__all__ = ["ACTIONS", "Action", "Decision", "action_for", "classify", "translate"]


@dataclass(frozen=True)
class Decision:
    action: Action
    reason: Reason
    countdown: float = 0.0
    detail: str = ""


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
