"""Prometheus metrics: an exporter that reads the broker and the store, and the workers' own.

Two kinds of process serve them:

- **The exporter** (``lease-parser metrics --port P``, ``serve_exporter``): at every scrape
  ``BrokerCollector`` reads Redis and the store. Queue depths drive the autoscalers, so
  each queue of the routing table is reported even when no worker runs and its Redis key
  does not exist (0); how a depth and a message's age are read from kombu's lists is
  pipeline/queues.py.
- **Workers**: the metrics are defined here and counted by Celery signal handlers
  (pipeline/signals.py, connected when the app is made) and by the job's hooks
  (``record_outcome``, ``record_duplicate``): tasks, retries, routes and confidences.
  Prefork children each write prometheus-client's multiprocess files in
  ``PROMETHEUS_MULTIPROC_DIR``; the worker's main process serves them aggregated on
  ``LEASE_WORKER_METRICS_PORT`` (prefork_metrics.py).

Nothing here imports Celery: the exporter and the CLI load it without the worker's framework.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from sqlalchemy.exc import SQLAlchemyError

import redis
from lease_parser.deadletter import dead_letter_depth
from lease_parser.errors import LeaseParserError
from lease_parser.model import AbstractionResult
from lease_parser.pipeline.queues import UNACKED_KEY, read_queues
from lease_parser.settings import Settings
from lease_parser.store import DocumentState, Store
from lease_parser.translate import translate

log = logging.getLogger(__name__)

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


# -- the workers: counted by pipeline/signals.py and the job's hooks -------------------


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
