"""Publishing a task message: size-capped, with broker failures mapped to the taxonomy.

Messages carry keys, hashes and small dicts. A message over the cap is refused before it
reaches Redis (document bytes or OCR text in a message would eat the broker's memory,
and with noeviction a full broker refuses every publish).

Backpressure has two lines. New submissions are refused at a high-water mark below
``maxmemory`` (``check_broker_capacity``), so the workers keep the headroom they need to
drain: every delivery (kombu's ``unacked`` index), hash lock and hand-on writes to Redis too.
If Redis itself refuses a write (``OOM command not allowed``, noeviction), the publish
fails with ``BrokerFullError``; nothing already queued is evicted.
"""

from __future__ import annotations

import json
from typing import Any

from celery import Celery
from kombu.exceptions import OperationalError

import redis
from lease_parser.errors import BrokerFullError, BrokerUnavailable, MessageTooLarge
from lease_parser.settings import Settings
from lease_parser.translate import is_broker_oom

FULL_HELP = (
    "nothing already queued was lost. Let the workers drain the queues (lease-parser "
    "workers must be running), or raise Redis maxmemory (CONFIG SET maxmemory, and "
    "redis.conf), then submit again"
)


def check_broker_capacity(r: redis.Redis, high_water: float) -> None:
    """Refuse new work once Redis uses ``high_water`` of its ``maxmemory``."""
    try:
        memory = r.info("memory")
    except redis.exceptions.RedisError as exc:
        raise BrokerUnavailable(f"cannot read the broker's memory use: {exc}") from exc
    limit = int(memory.get("maxmemory", 0))
    used = int(memory.get("used_memory", 0))
    if limit and used >= high_water * limit:
        raise BrokerFullError(
            f"the broker is full: Redis uses {used} of maxmemory {limit} bytes "
            f"(submissions stop at {high_water:.0%}); {FULL_HELP}",
            used=used,
            maxmemory=limit,
        )


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
        if is_broker_oom(exc):
            raise BrokerFullError(
                f"the broker is full (Redis maxmemory reached, noeviction); {FULL_HELP}"
            ) from exc
        raise BrokerUnavailable(f"cannot publish {task_name}: {exc}") from exc
    return str(result.id)
