"""Publishing a task message: size-capped, with broker failures mapped to the taxonomy.

Messages carry keys, hashes and small dicts. A message over the cap is refused before it
reaches Redis (document bytes or OCR text in a message would eat the broker's memory,
and with noeviction a full broker refuses every publish).
"""

from __future__ import annotations

import json
from typing import Any

from celery import Celery
from kombu.exceptions import OperationalError

import redis
from lease_parser.errors import BrokerFullError, BrokerUnavailable, MessageTooLarge
from lease_parser.settings import Settings


def _is_oom(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, redis.exceptions.ResponseError) and "OOM" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def publish(app: Celery, task_name: str, kwargs: dict[str, Any], task_id: str | None = None) -> str:
    """Send ``task_name`` with ``kwargs`` to its routed queue; return the task id."""
    settings: Settings = app.lease_settings
    size = len(json.dumps(kwargs, separators=(",", ":"), default=str).encode())
    if size > settings.max_message_bytes:
        raise MessageTooLarge(
            f"{task_name} message is {size} bytes, cap {settings.max_message_bytes}",
            task=task_name,
        )
    try:
        result = app.signature(task_name, kwargs=kwargs).apply_async(task_id=task_id)
    except (redis.exceptions.RedisError, OperationalError) as exc:
        if _is_oom(exc):
            raise BrokerFullError(
                "the broker is full (Redis maxmemory reached, noeviction): nothing queued "
                "was lost; let the workers drain the queues or raise maxmemory, then resubmit"
            ) from exc
        raise BrokerUnavailable(f"cannot publish {task_name}: {exc}") from exc
    return str(result.id)
