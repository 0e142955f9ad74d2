"""kombu's Redis layout: which lists hold a queue's messages, and what the next one says.

A depth sums kombu's priority sub-lists (``q``, ``q\\x06\\x163``, ``q\\x06\\x166``,
``q\\x06\\x169``): a message published with a priority sits in another list. Celery messages
carry no enqueue time on Redis, so every publish is stamped with a header
(``PUBLISHED_AT_HEADER``, pipeline/signals.py) and a reader looks at the message the
consumer takes next: kombu LPUSHes at the head and BRPOPs from the tail, so that is
``LINDEX key -1``.

Here, under pipeline/, because it is kombu's layout: the exporter (metrics.py), the
health check and the re-drive read it, and none of them needs to know kombu.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from kombu.transport.redis import PRIORITY_STEPS
from kombu.transport.redis import Channel as RedisChannel

import redis
from lease_parser.pipeline.routing import QUEUES, UNROUTED

#: Every queue a message can sit in, consumed or not.
ALL_QUEUES: tuple[str, ...] = (*QUEUES, UNROUTED)
#: Header stamped on every published task message: epoch seconds at publish.
PUBLISHED_AT_HEADER = "lease_published_at"
#: kombu's Redis keys (kombu/transport/redis.py: Channel.sep, Channel.unacked_key).
PRIORITY_SEP: str = RedisChannel.sep
UNACKED_KEY: str = RedisChannel.unacked_key


def priority_keys(queue: str, steps: Sequence[int] = PRIORITY_STEPS) -> list[str]:
    """The Redis lists kombu keeps for ``queue``: the bare name for step 0, then suffixed."""
    return [f"{queue}{PRIORITY_SEP}{step}" if step else queue for step in steps]


def published_at(raw: bytes | str | None) -> float | None:
    """The publish stamp of a raw kombu message, or None (absent, or not a task message)."""
    if raw is None:
        return None
    try:
        return float(json.loads(raw)["headers"][PUBLISHED_AT_HEADER])
    except (ValueError, KeyError, TypeError):
        return None


@dataclass(frozen=True)
class QueueState:
    depth: int
    #: Oldest publish stamp among the messages each priority list hands out next.
    oldest_published_at: float | None


def read_queues(r: redis.Redis, queues: Sequence[str] = ALL_QUEUES) -> dict[str, QueueState]:
    """Depth and next-message stamp of each queue, in one MULTI (a consistent snapshot)."""
    pipe = r.pipeline(transaction=True)
    for queue in queues:
        for key in priority_keys(queue):
            pipe.llen(key)
            pipe.lindex(key, -1)
    replies = iter(pipe.execute())
    states = {}
    for queue in queues:
        depth, stamps = 0, []
        for _key in priority_keys(queue):
            depth += int(next(replies))
            stamp = published_at(next(replies))
            if stamp is not None:
                stamps.append(stamp)
        states[queue] = QueueState(depth, min(stamps, default=None))
    return states
