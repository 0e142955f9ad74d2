"""What an error means for its document — retry, review or dead — decided here, once.

Both places a document can fail use this table: the pipeline's failure path
(pipeline/retry.py adds the backoff and the retry budget) and the in-process core
(``abstract``, ``eval``, the benchmark's baselines), which cannot retry, so a transient
error there ends as ``retries_exhausted`` at once. Pure: no Celery, no Redis.

Every class in errors.py has its own line (a unit test fails when one is missing), so a
new class forces a decision instead of inheriting one by accident.
"""

from __future__ import annotations

from enum import StrEnum

from lease_parser import errors
from lease_parser.errors import LeaseParserError, Reason
from lease_parser.model import Route


class Action(StrEnum):
    RETRY = "retry"
    DEAD = "dead"
    REVIEW = "review"


ACTIONS: dict[type[LeaseParserError], Action] = {
    errors.LeaseParserError: Action.DEAD,
    # A worker that sees bad settings cannot fix them: dead-letter (reason
    # `configuration`), fix the settings, requeue by hand.
    errors.ConfigurationError: Action.DEAD,
    # In a worker, a full broker (a hand-on refused) drains as other tasks finish.
    errors.BrokerFullError: Action.RETRY,
    # Callers' lookups (status, the API, the CLI), never raised in a task; dead if one is.
    errors.DocumentNotFound: Action.DEAD,
    errors.InvalidHash: Action.DEAD,
    errors.AmbiguousHash: Action.DEAD,
    # The CLI's: a read of a store that does not exist, the local system's lock and broker.
    # A task opens its store with create, and takes its broker from its settings.
    errors.StoreNotFound: Action.DEAD,
    errors.LocalSystemRunning: Action.DEAD,
    errors.LocalSystemStopped: Action.RETRY,
    errors.CallbackRefused: Action.DEAD,  # the API's, never raised in a task
    # A person's actions (review, corrections, unlock, links), never raised in a task.
    errors.ReviewRefused: Action.DEAD,
    errors.ItemNotFound: Action.DEAD,
    errors.NotClaimed: Action.DEAD,
    errors.InvalidCorrection: Action.DEAD,
    errors.UnlockRefused: Action.DEAD,
    errors.LinkRefused: Action.DEAD,
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


def action_for(exc: LeaseParserError) -> Action:
    """The declared action of the nearest class in ``exc``'s MRO."""
    for cls in type(exc).__mro__:
        if cls in ACTIONS:
            return ACTIONS[cls]
    return Action.DEAD  # unreachable: LeaseParserError itself is in the table


def route_for_error(exc: LeaseParserError) -> tuple[Route, Reason]:
    """Where a document goes when the core gave up on it and nobody will retry it."""
    action = action_for(exc)
    if action is Action.REVIEW:
        return Route.REVIEW, exc.reason
    if action is Action.RETRY:
        return Route.DEAD, Reason.RETRIES_EXHAUSTED
    return Route.DEAD, exc.reason
