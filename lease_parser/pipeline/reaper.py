"""Give a dead worker's messages back at once, instead of after the visibility timeout.

Redis has no acks. kombu keeps every delivered, unacknowledged message in the ``unacked``
hash (keyed by *delivery tag*) and puts it back only when it is older than the visibility
timeout (3600 s in production: longer than any task may run). A worker whose main process
dies (OOM killer, node lost, ``kill -9`` of the pod) therefore strands its messages for an
hour. heartbeat.py has every worker process renew a short-lived ``alive`` key and record,
per process, which delivery tags it holds (with their task ids). This module is the other
half: for a worker whose ``alive`` key has expired, each message it held goes back to its
queue.

Safety:

- **Never a live worker.** The restore is one Lua script that first checks the worker's
  ``alive`` key: if the worker beat again (a long GC pause, a slow Redis), nothing moves.
  A slow *task* never matters: the heartbeat comes from the worker's main process, which
  stays responsive while its children run a 25-minute OCR task.
- **At most once, with any number of reapers.** The script moves the message only if the
  ``unacked`` entry is still exactly the one read, deleting it in the same step. kombu's
  own restore (``QoS.restore_by_tag``) and its ack are also atomic deletes of that entry,
  so of all of them exactly one gets the message.
- **Exactly what kombu would push.** The message is rebuilt by kombu's own
  ``Channel._do_restore_message`` (queue lookup through the exchange bindings, priority
  list, ``redelivered`` flag) into a recorder, and the recorded pushes run in the script.
- A message that is restored while its worker is in fact still running it (a worker cut
  off from Redis for longer than the heartbeat TTL) runs twice; the idempotent guard and
  the store's conditional commit make the second run a no-op (docs/reliability.md).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis

log = logging.getLogger(__name__)

ALIVE_PREFIX = "lease:worker:alive:"
HELD_PREFIX = "lease:worker:held:"
#: Every worker process that has beaten and may still hold messages (alive or not).
INSTANCES = "lease:workers"

# KEYS: alive, held, unacked, unacked_index, then one list per push.
# ARGV: delivery tag, the unacked entry as read, then (command, message) per push.
_RESTORE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return -1
end
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 0
end
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
for i = 5, #KEYS do
  redis.call(ARGV[2 * (i - 5) + 3], KEYS[i], ARGV[2 * (i - 5) + 4])
end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""

# KEYS: alive, held, instances. ARGV: instance. Forget a dead worker that holds nothing.
_FORGET = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('HLEN', KEYS[2]) > 0 then
  return 0
end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return 1
"""

# KEYS: held, unacked. Drop held entries that are no longer unacked (acked, or restored).
_PRUNE = """
local dropped = 0
for _, tag in ipairs(redis.call('HKEYS', KEYS[1])) do
  if redis.call('HEXISTS', KEYS[2], tag) == 0 then
    redis.call('HDEL', KEYS[1], tag)
    dropped = dropped + 1
  end
end
return dropped
"""

_PUSH_COMMANDS = {"lpush": "LPUSH", "rpush": "RPUSH"}


def alive_key(instance: str) -> str:
    return ALIVE_PREFIX + instance


def held_key(instance: str) -> str:
    return HELD_PREFIX + instance


@dataclass
class _PushRecorder:
    """Stands in for the Redis pipeline kombu's restore pushes to; records the pushes."""

    pushes: list[tuple[str, str, str]] = field(default_factory=list)

    def __getattr__(self, name: str) -> Callable[[str, str], None]:
        if name not in _PUSH_COMMANDS:
            raise AttributeError(name)
        return lambda key, value: self.pushes.append((_PUSH_COMMANDS[name], key, value))


@dataclass
class Restored:
    instance: str
    task_id: str
    queue_keys: list[str]


class Reaper:
    """Restores the messages of workers whose heartbeat expired. Safe to run anywhere, often.

    ``channel`` is a kombu Redis channel of the same broker (its exchange bindings and key
    names are the ones the messages were published and delivered with).
    """

    def __init__(self, r: redis.Redis, channel: Any) -> None:
        self.redis = r
        self.channel = channel
        self._restore = r.register_script(_RESTORE)
        self._forget = r.register_script(_FORGET)

    def reap(self, skip: str | None = None) -> list[Restored]:
        """Restore every message held by a dead worker process (not ``skip``, ourselves)."""
        instances = sorted(as_text(raw) for raw in self.redis.smembers(INSTANCES))
        with self.redis.pipeline(transaction=False) as pipe:
            for instance in instances:
                pipe.exists(alive_key(instance))
            alive = pipe.execute()
        restored: list[Restored] = []
        for instance, beating in zip(instances, alive, strict=True):
            if instance != skip and not beating:
                restored += self.reap_instance(instance)
        return restored

    def reap_instance(self, instance: str) -> list[Restored]:
        restored = []
        for tag, record in self.redis.hgetall(held_key(instance)).items():
            task_id = json.loads(record).get("task_id", "?")
            queue_keys = self._restore_tag(instance, as_text(tag))
            if queue_keys:
                restored.append(Restored(instance, task_id, queue_keys))
                log.warning(
                    "worker %s stopped beating: restored task %s to %s",
                    instance,
                    task_id,
                    ", ".join(queue_keys),
                )
        self._forget(keys=[alive_key(instance), held_key(instance), INSTANCES], args=[instance])
        return restored

    def _restore_tag(self, instance: str, tag: str) -> list[str]:
        unacked = self.channel.unacked_key
        entry = self.redis.hget(unacked, tag)
        pushes = _kombu_pushes(self.channel, entry) if entry is not None else []
        if entry is not None and not pushes:
            # kombu found no queue bound for it: leave it to the visibility timeout.
            log.error("worker %s: no queue for unacked message %s; left in place", instance, tag)
            return []
        keys = [alive_key(instance), held_key(instance), unacked, self.channel.unacked_index_key]
        args: list[str | bytes] = [tag, entry or b""]
        for command, key, message in pushes:
            keys.append(key)
            args += [command, message]
        moved = int(self._restore(keys=keys, args=args))
        return [key for _, key, _ in pushes] if moved == 1 else []


def as_text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _kombu_pushes(channel: Any, entry: bytes | str) -> list[tuple[str, str, str]]:
    """The pushes kombu's own restore would make for one ``unacked`` entry."""
    message, exchange, routing_key = json.loads(entry)
    recorder = _PushRecorder()
    channel._do_restore_message(message, exchange, routing_key, recorder, leftmost=False)
    return recorder.pushes


def prune_held(r: redis.Redis, instance: str, unacked_key: str) -> int:
    """Forget this worker's held messages that are no longer unacked (acked or restored)."""
    return int(r.register_script(_PRUNE)(keys=[held_key(instance), unacked_key]))
