"""retry.py: every error has a decision, every library error reaching a task is translated,
and backoff stays bounded below the visibility timeout."""

from __future__ import annotations

import inspect
from pathlib import Path

import botocore.exceptions
import pytest
from billiard.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from hypothesis import given
from hypothesis import strategies as st

import redis
from lease_parser import errors
from lease_parser.errors import (
    BrokerFullError,
    BrokerUnavailable,
    LeaseParserError,
    PermanentError,
    Reason,
    StorageUnavailable,
    TransientError,
)
from lease_parser.pipeline.retry import ACTIONS, Action, classify, translate
from lease_parser.settings import RetryPolicy, Settings
from lease_parser.store import Store

POLICY = RetryPolicy()


def _classes(module: object, root: type[BaseException]) -> list[type[BaseException]]:
    return [
        c
        for c in vars(module).values()
        if inspect.isclass(c) and issubclass(c, root) and c.__module__ == module.__name__  # type: ignore[attr-defined]
    ]


ERROR_CLASSES = _classes(errors, LeaseParserError)
REDIS_CLASSES = _classes(redis.exceptions, redis.exceptions.RedisError)


def test_every_error_class_has_a_declared_decision() -> None:
    assert set(ERROR_CLASSES) - set(ACTIONS) == set()


def error_of(cls: type[LeaseParserError]) -> LeaseParserError:
    if cls is errors.InvalidCorrection:  # its own signature: field, value, problem, form
        return errors.InvalidCorrection("tenant", "boom", "not a name", "a name")
    return cls("boom", key="k")


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_decisions_follow_the_taxonomy(cls: type[LeaseParserError]) -> None:
    first = classify(error_of(cls), 0, POLICY)
    last = classify(error_of(cls), POLICY.max_retries, POLICY)
    if issubclass(cls, TransientError) or cls is BrokerFullError:
        assert (first.action, last.action) == (Action.RETRY, Action.DEAD)
        assert last.reason is Reason.RETRIES_EXHAUSTED
    elif cls is errors.EncryptedDocument:
        assert first.action is Action.REVIEW
        assert first.reason is Reason.NEEDS_CREDENTIAL
    else:
        # Permanent (and configuration) errors never retry, on any attempt.
        assert first.action is last.action is Action.DEAD
        assert first.reason is cls.reason


def test_a_missing_object_is_permanent_not_retried() -> None:
    decision = classify(errors.ObjectNotFound("no such object (NoSuchKey)"), 0, POLICY)
    assert (decision.action, decision.reason) == (Action.DEAD, Reason.NOT_FOUND)


@pytest.mark.parametrize("exc", [SoftTimeLimitExceeded(), TimeLimitExceeded(300)])
def test_time_limits_are_dead_lettered(exc: BaseException) -> None:
    decision = classify(exc, 0, POLICY)
    assert (decision.action, decision.reason) == (Action.DEAD, Reason.TIME_LIMIT)


def test_an_unforeseen_exception_is_a_bug_dead_lettered_at_once() -> None:
    decision = classify(KeyError("fields"), 0, POLICY)
    assert (decision.action, decision.reason) == (Action.DEAD, Reason.INTERNAL_ERROR)
    assert "KeyError" in decision.detail


def _redis_error(cls: type[BaseException]) -> BaseException:
    try:
        return cls("simulated")
    except (TypeError, ValueError):  # cluster errors parse their message
        return cls.__new__(cls)


@pytest.mark.parametrize("cls", REDIS_CLASSES, ids=lambda c: c.__name__)
def test_every_redis_error_gets_a_decision(cls: type[BaseException]) -> None:
    exc = _redis_error(cls)
    translated = translate(exc)
    decision = classify(exc, 0, POLICY)
    if isinstance(exc, redis.exceptions.OutOfMemoryError):
        assert isinstance(translated, BrokerFullError)
    elif isinstance(
        exc,
        redis.exceptions.ConnectionError
        | redis.exceptions.TimeoutError
        | redis.exceptions.ReadOnlyError
        | redis.exceptions.ClusterDownError
        | redis.exceptions.TryAgainError,
    ):
        assert isinstance(translated, BrokerUnavailable)
        assert decision.action is Action.RETRY
    else:
        # A protocol or usage error is a bug: dead-lettered with its traceback.
        assert translated is exc
        assert (decision.action, decision.reason) == (Action.DEAD, Reason.INTERNAL_ERROR)


def test_redis_loading_its_aof_after_a_restart_is_transient() -> None:
    exc = redis.exceptions.BusyLoadingError("Redis is loading the dataset in memory")
    assert classify(exc, 0, POLICY).action is Action.RETRY


# -- the object store's adapter (objects/) maps every botocore error -----------------


def _botocore(cls: type[Exception]) -> Exception:
    # Built without __init__: some take arguments only botocore itself knows how to supply.
    return cls.__new__(cls)


BOTO_CLASSES = _classes(botocore.exceptions, botocore.exceptions.BotoCoreError)


@pytest.mark.parametrize("cls", BOTO_CLASSES, ids=lambda c: c.__name__)
def test_every_botocore_error_is_transient_at_the_adapter(cls: type[Exception]) -> None:
    from lease_parser.objects import S3ObjectStore

    store = S3ObjectStore.__new__(S3ObjectStore)
    with pytest.raises(StorageUnavailable), store._errors("k"):  # type: ignore[attr-defined]
        raise _botocore(cls)


@pytest.mark.parametrize(
    ("code", "status", "expected", "action"),
    [
        ("NoSuchKey", 404, errors.ObjectNotFound, Action.DEAD),
        ("404", 404, errors.ObjectNotFound, Action.DEAD),
        ("NoSuchBucket", 404, errors.ObjectNotFound, Action.DEAD),
        ("AccessDenied", 403, errors.StorageForbidden, Action.DEAD),
        ("InternalError", 500, StorageUnavailable, Action.RETRY),
        ("ServiceUnavailable", 503, StorageUnavailable, Action.RETRY),
        ("SlowDown", 503, StorageUnavailable, Action.RETRY),
        ("RequestTimeout", 400, StorageUnavailable, Action.RETRY),
    ],
)
def test_s3_client_errors_map_by_code_and_status(
    code: str, status: int, expected: type[LeaseParserError], action: Action
) -> None:
    from lease_parser.objects import S3ObjectStore

    store = S3ObjectStore.__new__(S3ObjectStore)
    error = botocore.exceptions.ClientError(
        {"Error": {"Code": code}, "ResponseMetadata": {"HTTPStatusCode": status}}, "GetObject"
    )
    with pytest.raises(expected) as caught, store._errors("k"):  # type: ignore[attr-defined]
        raise error
    assert classify(caught.value, 0, POLICY).action is action


def test_the_canonical_store_unreachable_is_transient(tmp_path: Path) -> None:
    (tmp_path / "lease.db").mkdir()  # a directory where the database file should be
    with pytest.raises(StorageUnavailable) as caught:
        Store(f"sqlite:///{tmp_path / 'lease.db'}")
    assert classify(caught.value, 0, POLICY).action is Action.RETRY


# -- backoff -------------------------------------------------------------------------


@given(
    base=st.integers(1, 600),
    cap=st.integers(1, 3600),
    jitter=st.floats(0, 1),
    retries=st.integers(0, 20),
    attempt=st.integers(0, 30),
    rand=st.floats(0, 1, exclude_max=True),
)
def test_backoff_is_bounded_below_the_visibility_timeout(
    base: int, cap: int, jitter: float, retries: int, attempt: int, rand: float
) -> None:
    policy = RetryPolicy(max_retries=retries, backoff_base=base, backoff_max=cap, jitter=jitter)
    visibility = int(policy.largest_countdown()) + 1
    settings = Settings(
        retry=policy, visibility_timeout=max(visibility, 1801)
    )  # validation accepts it
    countdown = policy.countdown(attempt, rand)
    assert 0 < countdown <= policy.largest_countdown() < settings.visibility_timeout
    assert countdown >= min(base * 2**attempt, cap)  # jitter only ever adds


def test_default_backoff_is_60_120_240_480_with_jitter_on_top() -> None:
    assert [POLICY.countdown(n) for n in range(5)] == [60, 120, 240, 480, 480]
    assert POLICY.countdown(0, 0.999) < 60 * 1.25


def test_a_transient_error_retries_with_growing_countdowns_then_dies() -> None:
    exc = StorageUnavailable("S3 error SlowDown (HTTP 503)")
    countdowns = [classify(exc, n, POLICY).countdown for n in range(POLICY.max_retries)]
    assert countdowns == sorted(countdowns)
    assert classify(exc, POLICY.max_retries, POLICY).reason is Reason.RETRIES_EXHAUSTED
    assert isinstance(exc, TransientError)
    assert not isinstance(exc, PermanentError)
