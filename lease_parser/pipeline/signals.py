"""The workers' Celery signal handlers, connected when the app is made (``create_app``).

Connected there and not on import, so that importing the metrics (the exporter, the CLI,
a test) or the heartbeat never changes what Celery does. Every process that publishes or
runs a task makes its app with ``create_app``, so each has the handlers; Celery keeps one
connection per receiver, so making several apps in one process connects them once.

- metrics: every publish is stamped with its time (the exporter's oldest-message age),
  tasks in progress, their durations and retries are counted (metrics.py), and a worker's
  main process serves its prefork children's metrics (prefork_metrics.py);
- heartbeat.py: the worker's alive key, node status, held messages and reaper.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import Task, signals

from lease_parser.errors import ConfigurationError
from lease_parser.metrics import retry_reason, worker_metrics
from lease_parser.pipeline import heartbeat
from lease_parser.pipeline.queues import PUBLISHED_AT_HEADER
from lease_parser.pipeline.routing import ROUTES
from lease_parser.settings import Settings

log = logging.getLogger(__name__)

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
    """Connect the heartbeat's handlers and the metrics' (idempotent: one per receiver)."""
    heartbeat.connect_signals()
    signals.before_task_publish.connect(_stamp_published_at)
    signals.task_prerun.connect(_on_prerun)
    signals.task_postrun.connect(_on_postrun)
    signals.task_retry.connect(_on_retry)
    signals.worker_init.connect(_on_worker_init)
