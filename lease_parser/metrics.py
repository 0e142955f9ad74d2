"""Prometheus metrics: an exporter that reads the broker and the store, and the workers' own.

Two kinds of process serve them:

- **The exporter** (``lease-parser metrics --port P``, ``serve_exporter``): at every scrape
  ``BrokerCollector`` reads Redis and the store. Queue depths drive the autoscalers, so
  each queue of the routing table is reported even when no worker runs and its Redis key
  does not exist (0), and a depth sums kombu's priority sub-lists (``q``, ``q\\x06\\x163``,
  ``q\\x06\\x166``, ``q\\x06\\x169``): a message published with a priority sits in another list.
- **Workers**: Celery signals, connected when this module is imported (pipeline/job.py
  imports it, so every process that creates the app has them), count tasks, retries,
  routes and confidences. Prefork children each write prometheus-client's multiprocess
  files in ``PROMETHEUS_MULTIPROC_DIR``; the worker's main process serves them aggregated
  on ``LEASE_WORKER_METRICS_PORT`` (prefork_metrics.py).

Celery messages carry no enqueue time on Redis, so every publish is stamped with a header
(``before_task_publish``) and the exporter reads the message the consumer takes next:
kombu LPUSHes at the head and BRPOPs from the tail, so that is ``LINDEX key -1``.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from celery import Task, signals
from kombu.transport.redis import PRIORITY_STEPS
from kombu.transport.redis import Channel as RedisChannel
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from sqlalchemy.exc import SQLAlchemyError

import redis
from lease_parser.deadletter import dead_letter_depth
from lease_parser.errors import ConfigurationError, LeaseParserError
from lease_parser.model import AbstractionResult
from lease_parser.pipeline.retry import translate
from lease_parser.pipeline.routing import QUEUES, ROUTES, UNROUTED
from lease_parser.settings import Settings
from lease_parser.store import DocumentState, Store

log = logging.getLogger(__name__)

#: Every queue a message can sit in, consumed or not.
ALL_QUEUES: tuple[str, ...] = (*QUEUES, UNROUTED)
#: Header stamped on every published task message: epoch seconds at publish.
PUBLISHED_AT_HEADER = "lease_published_at"
#: kombu's Redis keys (kombu/transport/redis.py: Channel.sep, Channel.unacked_key).
PRIORITY_SEP: str = RedisChannel.sep
UNACKED_KEY: str = RedisChannel.unacked_key

EXPORTER_METRICS: dict[str, str] = {
    "lease_queue_depth": "Messages waiting in a queue, all priority sub-lists summed.",
    "lease_oldest_message_age_seconds": "Age of the message a queue hands out next "
    "(0 when empty; absent when that message carries no publish stamp).",
    "lease_unacked_messages": "Messages delivered to a worker and not yet acknowledged "
    "(kombu's unacked hash: running, prefetched or waiting for a retry ETA).",
    "lease_dead_letter_depth": "Dead letters awaiting ops triage (Redis index; "
    "`lease-parser dead list` shows them, `dead requeue` removes them).",
    "lease_review_depth": "Documents in the human review queue (store state review).",
    "lease_store_documents": "Documents in the canonical store, by state.",
    "lease_broker_memory_used_bytes": "Redis used_memory (queues, hash locks, dead letters, "
    "results).",
    "lease_broker_memory_max_bytes": "Redis maxmemory: at it, publishes fail (noeviction) and "
    "submit raises BrokerFullError. Absent when unlimited.",
    "lease_broker_up": "1 if the exporter could read the broker at this scrape.",
    "lease_store_up": "1 if the exporter could read the canonical store at this scrape.",
}

DOCUMENTS_TOTAL = "lease_documents_total"
DUPLICATES_TOTAL = "lease_duplicates_total"
TASK_DURATION = "lease_task_duration_seconds"
TASK_RETRIES_TOTAL = "lease_task_retries_total"
EXTRACTION_CONFIDENCE = "lease_extraction_confidence"
TASKS_IN_PROGRESS = "lease_tasks_in_progress"
WORKER_METRIC_NAMES = frozenset(
    {
        DOCUMENTS_TOTAL,
        DUPLICATES_TOTAL,
        TASK_DURATION,
        TASK_RETRIES_TOTAL,
        EXTRACTION_CONFIDENCE,
        TASKS_IN_PROGRESS,
    }
)
#: Every metric family name this package exposes (alerts and autoscalers may name only these).
METRIC_NAMES = frozenset(EXPORTER_METRICS) | WORKER_METRIC_NAMES

# Seconds: normalization takes well under a second, OCR of a long scan up to its 1800 s limit.
DURATION_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800)
# Dense around the 0.90 confidence gate, where routing changes.
CONFIDENCE_BUCKETS = (0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.99, 1.0)


# -- the exporter: broker and store, read at scrape time --------------------------------


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


def _gauge(name: str, labels: Sequence[str] = ()) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, EXPORTER_METRICS[name], labels=list(labels))


class BrokerCollector:
    """Reads Redis and the store at every scrape; an unreachable one reports ``*_up 0``."""

    def __init__(self, broker: redis.Redis, store: Store) -> None:
        self.broker = broker
        self.store = store

    def collect(self) -> Iterator[Metric]:
        yield from self._broker_metrics()
        yield from self._store_metrics()

    def _broker_metrics(self) -> Iterator[Metric]:
        up = _gauge("lease_broker_up")
        try:
            queues = read_queues(self.broker)
            unacked = int(self.broker.hlen(UNACKED_KEY))
            dead = dead_letter_depth(self.broker)
            memory = self.broker.info("memory")
        except redis.RedisError as exc:
            log.warning("broker unreadable: %s", exc)
            up.add_metric([], 0)
            yield up
            return
        now = time.time()
        depth = _gauge("lease_queue_depth", ["queue"])
        age = _gauge("lease_oldest_message_age_seconds", ["queue"])
        for queue, state in queues.items():
            depth.add_metric([queue], state.depth)
            if state.depth == 0:
                age.add_metric([queue], 0)
            elif state.oldest_published_at is not None:
                age.add_metric([queue], max(0.0, now - state.oldest_published_at))
        up.add_metric([], 1)
        yield from (up, depth, age)
        yield _single("lease_unacked_messages", unacked)
        yield _single("lease_dead_letter_depth", dead)
        yield _single("lease_broker_memory_used_bytes", int(memory["used_memory"]))
        if int(memory.get("maxmemory", 0)):
            yield _single("lease_broker_memory_max_bytes", int(memory["maxmemory"]))

    def _store_metrics(self) -> Iterator[Metric]:
        up = _gauge("lease_store_up")
        try:
            counts = self.store.counts_by_state()
        except (LeaseParserError, SQLAlchemyError) as exc:
            log.warning("store unreadable: %s", exc)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield _single("lease_review_depth", counts.get(DocumentState.REVIEW, 0))
        by_state = _gauge("lease_store_documents", ["state"])
        for state in DocumentState:
            by_state.add_metric([state.value], counts.get(state, 0))
        yield by_state


def _single(name: str, value: float) -> GaugeMetricFamily:
    family = _gauge(name)
    family.add_metric([], value)
    return family


def exporter_registry(settings: Settings) -> CollectorRegistry:
    """The exporter's registry: broker and store readings plus its own process metrics."""
    broker = redis.Redis.from_url(settings.broker_url, socket_timeout=5, socket_connect_timeout=5)
    # create=False: the exporter only reads; the schema belongs to the workers/migrations.
    store = Store(settings.store_database_url, create=False)
    registry = CollectorRegistry()
    registry.register(BrokerCollector(broker, store))
    ProcessCollector(registry=registry)
    return registry


def serve_exporter(settings: Settings, port: int, address: str) -> Any:
    """Serve the exporter's /metrics on ``address:port`` from a daemon thread; return the server."""
    server, _thread = start_http_server(port, address, exporter_registry(settings))
    return server


# -- the workers: counted through Celery signals ----------------------------------------


@dataclass(frozen=True)
class WorkerMetrics:
    documents: Counter
    duplicates: Counter
    task_duration: Histogram
    task_retries: Counter
    confidence: Histogram
    in_progress: Gauge


#: Single-process registry (tests, ``--pool solo``); prefork workers serve the mmap files.
WORKER_REGISTRY = CollectorRegistry()


@cache
def worker_metrics() -> WorkerMetrics:
    """Created on first use, not at import: in multiprocess mode a metric opens its file
    when created, and the worker's main process must first clear the directory."""
    reg = WORKER_REGISTRY
    return WorkerMetrics(
        documents=Counter(
            DOCUMENTS_TOTAL,
            "Documents that reached a final route, by route and reason.",
            ["route", "reason"],
            registry=reg,
        ),
        duplicates=Counter(
            DUPLICATES_TOTAL, "Submissions skipped because their content was seen.", registry=reg
        ),
        task_duration=Histogram(
            TASK_DURATION, "Task run time.", ["task"], buckets=DURATION_BUCKETS, registry=reg
        ),
        task_retries=Counter(
            TASK_RETRIES_TOTAL,
            "Task retries, by transient error.",
            ["task", "reason"],
            registry=reg,
        ),
        confidence=Histogram(
            EXTRACTION_CONFIDENCE,
            "Aggregate confidence of each abstracted document.",
            buckets=CONFIDENCE_BUCKETS,
            registry=reg,
        ),
        in_progress=Gauge(
            TASKS_IN_PROGRESS,
            "Tasks running now.",
            ["task"],
            multiprocess_mode="livesum",
            registry=reg,
        ),
    )


def record_outcome(result: AbstractionResult, won: bool) -> None:
    """Count a document's final route (hook in Job.finish). Not ``won``: already final."""
    metrics = worker_metrics()
    if not won:
        metrics.duplicates.inc()
        return
    reason = result.reason.value if result.reason else "none"
    metrics.documents.labels(route=result.route.value, reason=reason).inc()
    if result.abstraction is not None:
        metrics.confidence.observe(result.confidence)


def record_duplicate() -> None:
    """Count a submission skipped by the dedup hash lock (hook in Job.duplicate)."""
    worker_metrics().duplicates.inc()


def retry_reason(exc: BaseException | None) -> str:
    """A bounded label for a retry's cause: the taxonomy class, snake_case."""
    exc = translate(exc) if exc is not None else None
    if not isinstance(exc, LeaseParserError):
        return "other"
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(exc).__name__).lower()


_started: dict[str, float] = {}


def _stamp_published_at(headers: dict[str, Any] | None = None, **_: Any) -> None:
    # Overwritten, not kept, on a retry: the age is that of *this* message in its queue.
    if headers is not None:
        headers[PUBLISHED_AT_HEADER] = time.time()


def _on_prerun(task_id: str, task: Task, **_: Any) -> None:
    if task.name in ROUTES:
        _started[task_id] = time.monotonic()
        worker_metrics().in_progress.labels(task=task.name).inc()


def _on_postrun(task_id: str, task: Task, **_: Any) -> None:
    if task.name not in ROUTES:
        return
    metrics = worker_metrics()
    started = _started.pop(task_id, None)
    if started is not None:
        metrics.task_duration.labels(task=task.name).observe(time.monotonic() - started)
    # Last, so that a scrape seeing nothing in progress sees every finished task's duration.
    metrics.in_progress.labels(task=task.name).dec()


def _on_retry(sender: Task, reason: Any = None, **_: Any) -> None:
    if sender.name in ROUTES:
        exc = getattr(reason, "exc", None)
        worker_metrics().task_retries.labels(task=sender.name, reason=retry_reason(exc)).inc()


def _on_worker_init(sender: Any = None, **_: Any) -> None:
    settings: Settings | None = getattr(getattr(sender, "app", None), "lease_settings", None)
    if settings is None or settings.worker_metrics_port is None:
        return
    from lease_parser.prefork_metrics import serve_worker_metrics

    try:
        serve_worker_metrics(settings.worker_metrics_port)
    except (ConfigurationError, OSError) as exc:
        # A signal handler cannot stop the worker; say it loudly (the scrape target goes down).
        log.critical("worker metrics not served: %s", exc)


def connect_signals() -> None:
    """Connect the handlers above; runs at import. Celery keeps one connection per receiver."""
    signals.before_task_publish.connect(_stamp_published_at)
    signals.task_prerun.connect(_on_prerun)
    signals.task_postrun.connect(_on_postrun)
    signals.task_retry.connect(_on_retry)
    signals.worker_init.connect(_on_worker_init)


connect_signals()
