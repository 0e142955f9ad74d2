"""No registered task may fall through to the `unrouted` queue (nobody consumes it)."""

from __future__ import annotations

from lease_parser.pipeline.app import create_app
from lease_parser.pipeline.routing import QUEUES, UNROUTED
from lease_parser.settings import Settings


def test_every_registered_task_routes_to_a_consumed_queue() -> None:
    app = create_app(Settings())
    ours = [name for name in app.tasks if name.startswith("lease_parser.")]
    assert len(ours) == 3
    router = app.amqp.router
    for name in ours:
        route = router.route({}, name)
        queue = route["queue"].name
        assert queue != UNROUTED, f"{name} would be routed to {UNROUTED}"
        assert queue in QUEUES


def test_an_unknown_task_lands_in_unrouted() -> None:
    app = create_app(Settings())
    assert app.amqp.router.route({}, "lease_parser.not_a_task")["queue"].name == UNROUTED


def test_broker_semantics_of_design_md() -> None:
    s = Settings()
    conf = create_app(s).conf
    assert conf.task_acks_late
    assert conf.task_reject_on_worker_lost
    assert conf.worker_prefetch_multiplier == 1
    assert conf.accept_content == ["json"]
    assert conf.task_serializer == "json"
    assert conf.broker_transport_options["visibility_timeout"] == s.visibility_timeout
    assert conf.result_backend_transport_options["visibility_timeout"] == s.visibility_timeout
    assert conf.visibility_timeout == s.visibility_timeout
    assert conf.worker_max_tasks_per_child == 500
    limits = conf.task_annotations["lease_parser.run_ocr_fallback"]
    assert limits["time_limit"] == s.time_limits.ocr.hard
    assert limits["time_limit"] < s.visibility_timeout
