"""Worker heartbeats: a dead worker's messages back in seconds; a stuck consumer seen.

Every worker's main process runs one daemon thread that, every
``LEASE_HEARTBEAT_INTERVAL`` seconds:

1. renews ``lease:worker:alive:<instance>`` (expires after ``LEASE_HEARTBEAT_TTL``);
   ``<instance>`` is the node name plus a random id, so a container restarted under the
   same node name is a new instance and the old one's messages are still recovered;
2. writes the node's status for ``healthcheck --worker`` (``lease:worker:node:<node>``):
   its queues, concurrency, busy slots, since when a slot has been free, and when it last
   took a message;
3. forgets the messages it held that are acked by now;
4. runs the reaper (reaper.py): messages held by instances whose ``alive`` key expired
   go back to their queues.

Which messages an instance holds is recorded when the main process receives them
(Celery's ``task_received``): running, waiting for a free child, or held for a retry ETA.
The guard's hash lock (idempotency.py) comes later, in the child, and would miss the
latter two.

**Why a reaper in every worker and not a ``lease-parser reaper`` Deployment**: every
worker already holds a broker connection and a thread costs nothing; there is no extra
Deployment to size, watch and keep at one replica; the reaping goes wherever workers go
(``make run``, systemd hosts, Kubernetes); and under KEDA's scale-to-zero the
normalization pool keeps one replica anyway (k8s/keda/). Several reapers are safe: a
restore is one atomic script (reaper.py). A reaper waits until its own connection to
Redis has been good for a whole TTL before it reaps, so after a Redis outage (when every
``alive`` key may have expired) live workers beat again before anyone judges them dead.

Known gap: a worker killed in the few microseconds between kombu moving a message into
``unacked`` and the ``task_received`` record leaves that one message to kombu's
visibility-timeout restore, as before.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

from celery import signals
from redis.typing import EncodableT, FieldT

import redis
from lease_parser.pipeline.reaper import (
    INSTANCES,
    Reaper,
    alive_key,
    as_text,
    held_key,
    prune_held,
)
from lease_parser.settings import Settings

log = logging.getLogger(__name__)

NODE_PREFIX = "lease:worker:node:"


def node_key(node: str) -> str:
    return NODE_PREFIX + node


@dataclass(frozen=True)
class NodeStatus:
    """What a worker's last heartbeat said about its consumption (``healthcheck --worker``)."""

    instance: str
    queues: tuple[str, ...]
    concurrency: int
    busy: int
    beat_at: float
    consumed_at: float
    #: Since when a slot has been free without interruption (None: every slot busy).
    free_since: float | None

    @classmethod
    def from_redis(cls, raw: dict[Any, Any]) -> NodeStatus:
        data = {as_text(k): as_text(v) for k, v in raw.items()}
        free_since = float(data["free_since"]) if data.get("free_since") else None
        return cls(
            instance=data["instance"],
            queues=tuple(q for q in data["queues"].split(",") if q),
            concurrency=int(data["concurrency"]),
            busy=int(data["busy"]),
            beat_at=float(data["beat_at"]),
            consumed_at=float(data["consumed_at"]),
            free_since=free_since,
        )

    def idle_for(self, now: float) -> float | None:
        """Seconds it has had a free slot and taken nothing; None while every slot is busy."""
        if self.free_since is None or self.busy >= self.concurrency:
            return None
        return now - max(self.free_since, self.consumed_at)


def read_node(r: redis.Redis, node: str) -> NodeStatus | None:
    """The node's last status, or None when its heartbeat has lapsed.

    A consumption record can outlive the beat that expired (it is written on receipt), so
    a hash without the beat's fields counts as no heartbeat.
    """
    raw = r.hgetall(node_key(node))
    return NodeStatus.from_redis(raw) if b"beat_at" in raw else None


class Heartbeat(threading.Thread):
    """The main process's beat: alive key, node status, held-message upkeep, the reaper."""

    def __init__(self, worker: Any, settings: Settings) -> None:
        super().__init__(name="lease-heartbeat", daemon=True)
        self.worker = worker
        self.settings = settings
        self.node = str(worker.hostname)
        self.instance = f"{self.node}#{uuid.uuid4().hex[:12]}"
        self.redis = redis.Redis.from_url(
            settings.broker_url, socket_timeout=10, socket_connect_timeout=10
        )
        # The queues it was started for: Celery's remote control (cancel_consumer) deselects
        # a queue from the live list, and a stopped consumer is what the probe must see.
        self.queues = tuple(sorted(worker.app.amqp.queues.consume_from or {}))
        self.started_at = time.time()
        self.stopped = threading.Event()
        self._free_since: float | None = self.started_at
        self._connected_since: float | None = None
        self._first = True
        self._reaper: Reaper | None = None
        self._connection: Any = None

    # -- in the consumer's thread -----------------------------------------------------------

    def record_received(self, request: Any) -> None:
        """Record a message this process now holds, and that it consumed one just now."""
        tag = request.message.delivery_tag
        kwargs = request.kwargs or {}
        record = {"task_id": request.id, "task": request.name, "doc_hash": kwargs.get("doc_hash")}
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(held_key(self.instance), tag, json.dumps(record))
            pipe.hset(node_key(self.node), "consumed_at", repr(time.time()))
            pipe.expire(node_key(self.node), self.settings.heartbeat_ttl)
            pipe.execute()

    # -- in the heartbeat thread ------------------------------------------------------------

    def run(self) -> None:
        interval = self.settings.heartbeat_interval
        while not self.stopped.is_set():
            try:
                self.beat()
                self.upkeep()
            except Exception as exc:  # a beat must never end the thread
                self._connected_since = None
                log.warning("heartbeat: %r", exc)
            self.stopped.wait(interval)
        if self._connection is not None:
            self._connection.release()

    def stop(self) -> None:
        # The alive key is left to expire: deleting it would invite a reaper while a
        # cold shutdown still re-queues our messages itself (both are atomic; no harm, but
        # the log would blame a dead worker that is not).
        self.stopped.set()

    def beat(self) -> None:
        from celery.worker import state

        now = time.time()
        busy = len(state.reserved_requests)
        concurrency = int(self.worker.concurrency or 1)
        if busy >= concurrency:
            self._free_since = None
        elif self._free_since is None:
            self._free_since = now
        status: dict[FieldT, EncodableT] = {
            "instance": self.instance,
            "queues": ",".join(self.queues),
            "concurrency": concurrency,
            "busy": busy,
            "beat_at": repr(now),
            "free_since": repr(self._free_since) if self._free_since is not None else "",
        }
        if self._first:
            status["consumed_at"] = repr(self.started_at)
        ttl = self.settings.heartbeat_ttl
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(alive_key(self.instance), self.node, ex=ttl)
            pipe.sadd(INSTANCES, self.instance)
            pipe.hset(node_key(self.node), mapping=status)
            pipe.expire(node_key(self.node), ttl)
            pipe.execute()
        self._first = False
        if self._connected_since is None:
            self._connected_since = time.monotonic()

    def upkeep(self) -> None:
        reaper = self._reaper or self._make_reaper()
        prune_held(self.redis, self.instance, reaper.channel.unacked_key)
        assert self._connected_since is not None
        if time.monotonic() - self._connected_since >= self.settings.heartbeat_ttl:
            reaper.reap(skip=self.instance)

    def _make_reaper(self) -> Reaper:
        # Our own kombu connection: the consumer's is not thread-safe.
        connection = self.worker.app.connection_for_write()
        try:
            self._reaper = Reaper(self.redis, connection.default_channel)
        except Exception:
            connection.release()
            raise
        self._connection = connection
        return self._reaper


_heartbeat: Heartbeat | None = None


def _on_worker_init(sender: Any = None, **_: Any) -> None:
    global _heartbeat
    settings: Settings | None = getattr(getattr(sender, "app", None), "lease_settings", None)
    if settings is None:
        return
    _heartbeat = Heartbeat(sender, settings)
    _heartbeat.start()
    log.info("heartbeat: %s beats every %ss", _heartbeat.instance, settings.heartbeat_interval)


def _on_task_received(request: Any = None, **_: Any) -> None:
    if _heartbeat is None or request is None:
        return
    try:
        _heartbeat.record_received(request)
    except redis.RedisError as exc:
        # Not fatal: the message is still in kombu's unacked hash and comes back after the
        # visibility timeout if this worker dies; only the fast path is lost for it.
        log.warning("heartbeat: could not record %s: %r", request.id, exc)


def _on_worker_shutdown(**_: Any) -> None:
    if _heartbeat is not None:
        _heartbeat.stop()


def connect_signals() -> None:
    """Connect the handlers above (pipeline/signals.py does, when the app is made).

    Celery keeps one connection per receiver, so connecting twice is harmless."""
    signals.worker_init.connect(_on_worker_init)
    signals.task_received.connect(_on_task_received)
    signals.worker_shutdown.connect(_on_worker_shutdown)
