"""Library exceptions → the error taxonomy, in one table (the way httpx maps transport errors).

Adapters translate what they call (objects/: botocore and the file system; store/:
SQLAlchemy; parsing: pdfium, zip, XML). What can still escape an adapter is the broker:
redis-py errors from hash locks, delivery counts and dead letters, and kombu's
``OperationalError`` around a publish. Two boundaries meet them — the tasks' failure path
(pipeline/retry.py) and the CLI (cli/_common.py) — and both use ``translate`` here, so a
Redis outage is ``BrokerUnavailable`` to a worker's retry policy and exit code 6 to an
operator, never a traceback.

No library is imported here: a class is looked up in ``sys.modules`` only if its library
was loaded (an exception of a library nobody imported cannot exist), so the CLI's start-up
stays free of redis, kombu and SQLAlchemy when a command does not need them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from lease_parser.errors import (
    BrokerFullError,
    BrokerUnavailable,
    LeaseParserError,
    StorageUnavailable,
)

# Redis errors that mean "the server is unreachable, loading, failing over or busy".
REDIS_UNAVAILABLE = (
    "ConnectionError",  # incl. BusyLoading (AOF replay after a restart), auth failures
    "TimeoutError",
    "ReadOnlyError",  # a replica promoted under us
    "ClusterDownError",
    "TryAgainError",
)


def _class(module: str, name: str) -> type[BaseException] | None:
    loaded: Any = sys.modules.get(module)
    cls = getattr(loaded, name, None) if loaded is not None else None
    return cls if isinstance(cls, type) and issubclass(cls, BaseException) else None


def _is(exc: BaseException, module: str, *names: str) -> bool:
    return any((cls := _class(module, name)) is not None and isinstance(exc, cls) for name in names)


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: BaseException | None = exc
    while seen is not None:
        yield seen
        seen = seen.__cause__ or seen.__context__


def is_broker_oom(exc: BaseException) -> bool:
    """Redis refused a write at ``maxmemory`` (noeviction). redis-py raises
    ``OutOfMemoryError`` for ``-OOM`` replies; kombu wraps it, so the chain is walked."""
    return any(_is(e, "redis.exceptions", "OutOfMemoryError") for e in _chain(exc))


def translate(exc: BaseException) -> BaseException:
    """Ours for a library's exception we know the meaning of; ``exc`` itself otherwise."""
    if isinstance(exc, LeaseParserError):
        return exc
    if _is(exc, "redis.exceptions", "OutOfMemoryError"):
        return BrokerFullError(f"Redis at maxmemory: {exc}")
    if _is(exc, "redis.exceptions", *REDIS_UNAVAILABLE):
        return BrokerUnavailable(f"Redis unavailable: {type(exc).__name__}: {exc}")
    if _is(exc, "kombu.exceptions", "OperationalError"):
        if is_broker_oom(exc):
            return BrokerFullError(f"the broker is full (Redis maxmemory reached): {exc}")
        return BrokerUnavailable(f"the broker is unreachable: {exc}")
    if _is(exc, "sqlalchemy.exc", "OperationalError"):
        return StorageUnavailable(f"canonical store unavailable: {getattr(exc, 'orig', exc)}")
    return exc


@contextmanager
def translated() -> Iterator[None]:
    """Re-raise a library exception ``translate`` knows as ours, ``from`` the original."""
    try:
        yield
    except Exception as exc:
        ours = translate(exc)
        if ours is exc:
            raise
        raise ours from exc
