"""The Celery app factory. Every reliability setting is here, each with the reason for it.

Do not "fix" these back to Celery's defaults: each one closes a way to lose or duplicate
a lease (docs/architecture.md, "Broker and worker semantics").
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from kombu.entity import Queue

from lease_parser.pipeline.routing import QUEUES, ROUTES, UNROUTED, queue_for
from lease_parser.settings import Settings


def transport_options(settings: Settings) -> dict[str, Any]:
    return {
        # Redis has no acks: a delivered message sits in the `unacked` hash and is handed
        # out again only after this many seconds. It must exceed the largest hard time
        # limit and retry countdown (Settings validates this), or a task that is still
        # running — or an ETA retry waiting in a worker — is delivered a second time.
        "visibility_timeout": settings.visibility_timeout,
        # How soon a message whose worker died is put back (kombu/transport/redis.py:
        # a sweep every interval x throttle seconds; kombu's default is every 100 s).
        "unacked_restore_interval": settings.unacked_restore_interval,
        "unacked_restore_throttle": settings.unacked_restore_throttle,
        # The sweep runs under a Redis mutex that expires after this many seconds. A worker
        # SIGKILLed while holding it would block every other sweep for kombu's default 300 s;
        # a sweep takes milliseconds, so 60 s bounds that stall without risking overlap.
        "unacked_mutex_expire": 60,
        # A half-open connection (failover, NAT timeout) must not hang a publish forever.
        "socket_timeout": 30,
        "socket_connect_timeout": 10,
        "socket_keepalive": True,
        "health_check_interval": 25,
    }


def task_annotations(settings: Settings) -> dict[str, dict[str, int]]:
    """Soft and hard time limits per task, from its queue's limits."""
    out = {}
    for name in ROUTES:
        limit = settings.time_limits.for_queue(queue_for(name))
        out[name] = {"soft_time_limit": limit.soft, "time_limit": limit.hard}
    return out


def celery_config(settings: Settings) -> dict[str, Any]:
    options = transport_options(settings)
    return {
        "broker_url": settings.broker_url,
        "result_backend": settings.result_backend,
        "broker_transport_options": options,
        # Celery reads the visibility timeout in three places; set all three alike or the
        # result backend's and the default fall back to one hour.
        "result_backend_transport_options": {"visibility_timeout": settings.visibility_timeout},
        "visibility_timeout": settings.visibility_timeout,
        # JSON only: pickle from the network is remote code execution.
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "result_accept_content": ["json"],
        # Ack after the task ran, and re-deliver if the worker child died mid-task: a
        # worker killed by the OOM killer or a deploy must not drop a lease.
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        # A timed-out or failed task is handled by our own failure path (dead-letter) before
        # the ack; Celery's default ack-on-failure is what we want *after* that record.
        "task_acks_on_failure_or_timeout": True,
        # One message at a time per process: a 15-second lease must not sit prefetched
        # behind another while idle workers starve.
        "worker_prefetch_multiplier": 1,
        # Recycle children: PDF and OCR libraries leak; bound each child's lifetime.
        "worker_max_tasks_per_child": settings.worker_max_tasks_per_child,
        "worker_max_memory_per_child": settings.worker_max_memory_per_child,
        # Off, on purpose (it is Celery 6's default). With it on, a Redis outage makes the
        # worker cancel its running tasks; the cancel sends a task event, which fails
        # while Redis is down, so the request is not marked cancelled, and when the killed
        # child reports back Celery records it as *revoked and acks the message*: the
        # document is lost (seen in tests/integration/test_broker_failures.py). Off, the
        # task runs on; its ack is a server-side HDEL by delivery tag, which works on the
        # new connection, and if it cannot be acked the message returns after the
        # visibility timeout. Either way the idempotent guard absorbs a second run.
        "worker_cancel_long_running_tasks_on_connection_loss": False,
        "broker_connection_retry_on_startup": True,
        # Nothing consumes `unrouted`: a task missing from ROUTES shows up as depth there.
        "task_default_queue": UNROUTED,
        "task_queues": [Queue(q) for q in (*QUEUES, UNROUTED)],
        "task_routes": ROUTES,
        "task_create_missing_queues": False,
        "task_annotations": task_annotations(settings),
        # The canonical store is the system of record and nothing reads Celery's task
        # results, so none are written (STARTED/SUCCESS writes were ~2 ms of broker work a
        # task in `make bench`). The backend stays configured for tools that want it.
        "task_ignore_result": True,
        "task_track_started": False,
        "result_expires": 24 * 3600,
        # Task events are off by default for the same reason (an SMEMBERS + PUBLISH per
        # event); Flower switches them on in the workers it watches (enable_events).
        "task_send_sent_event": False,
        "worker_send_task_events": False,
        # Shutdown (celery/apps/worker.py, 5.7). `lease-parser worker` makes SIGTERM the
        # cold shutdown (REMAP_SIGTERM=SIGQUIT, pipeline/worker.py), which first waits this
        # soft-shutdown timeout for running tasks, then cancels what still runs; acks_late
        # leaves those messages unacked and closing the channel re-queues them at once.
        "worker_soft_shutdown_timeout": settings.soft_shutdown_timeout,
        # An idle worker leaves at once. Messages it holds for a retry ETA are unacked in
        # Redis like any other: kombu re-queues them when the channel closes
        # (QoS.restore_unacked_once), and failing that the other workers' reapers do
        # (pipeline/reaper.py), so there is nothing to wait for.
        "worker_enable_soft_shutdown_on_idle": False,
        "worker_hijack_root_logger": False,
    }


def create_app(settings: Settings) -> Celery:
    """A Celery app for these settings, with the pipeline's tasks registered."""
    app = Celery("lease_parser", set_as_current=True)
    app.config_from_object(celery_config(settings))
    app.lease_settings = settings
    # Here, not at import: the heartbeat, reaper and metrics handlers exist in exactly the
    # processes that make an app (workers and publishers), and importing changes nothing.
    from lease_parser.pipeline.signals import connect_signals
    from lease_parser.pipeline.tasks import register_tasks

    connect_signals()
    register_tasks(app)
    return app
