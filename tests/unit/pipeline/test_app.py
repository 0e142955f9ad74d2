"""The reliability settings of the Celery app: each closes a way to lose or repeat a lease."""

from __future__ import annotations

from lease_parser.pipeline.app import create_app
from lease_parser.pipeline.routing import ROUTES, queue_for
from lease_parser.settings import Settings


def test_a_worker_death_redelivers_and_a_broker_outage_does_not_ack_into_nothing() -> None:
    conf = create_app(Settings()).conf
    assert conf.task_acks_late
    assert conf.task_reject_on_worker_lost
    # On, Celery acks a task it failed to cancel during a Redis outage (as revoked).
    assert conf.worker_cancel_long_running_tasks_on_connection_loss is False
    assert conf.worker_prefetch_multiplier == 1


def test_dead_workers_messages_are_swept_back_promptly() -> None:
    s = Settings(unacked_restore_interval=7, unacked_restore_throttle=1)
    options = create_app(s).conf.broker_transport_options
    assert options["visibility_timeout"] == s.visibility_timeout
    # kombu sweeps every interval x throttle seconds (default 10 x 10).
    assert (options["unacked_restore_interval"], options["unacked_restore_throttle"]) == (7, 1)


def test_every_task_has_its_queues_soft_and_hard_limit_and_no_celery_retry_cap() -> None:
    s = Settings()
    app = create_app(s)
    for name in ROUTES:
        limit = s.time_limits.for_queue(queue_for(name))
        assert app.conf.task_annotations[name] == {
            "soft_time_limit": limit.soft,
            "time_limit": limit.hard,
        }
        # Celery's default max_retries=3 would re-raise on the 4th retry and ack the
        # message: our policy decides (retry.py), so the task has none.
        assert app.tasks[name].max_retries is None


def test_the_soft_shutdown_timeout_comes_from_the_settings() -> None:
    conf = create_app(Settings(soft_shutdown_timeout=12.5)).conf
    assert conf.worker_soft_shutdown_timeout == 12.5
