"""Commands for operating the pipeline: ``metrics``, ``flower``, ``healthcheck``."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

import click

from lease_parser.cli._common import (
    ExitCode,
    broker_settings,
    describe_broker,
    fail,
    json_option,
    print_json,
)
from lease_parser.errors import ConfigurationError

if TYPE_CHECKING:
    from lease_parser.settings import Settings

FLOWER_AUTH_ENV = "LEASE_FLOWER_BASIC_AUTH"


def _wait_for_termination() -> None:
    """Block until SIGTERM (exit 0, what Kubernetes sends) or Ctrl-C (exit 130, via main)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    threading.Event().wait()


@click.command()
@click.option("--port", type=int, default=9808, show_default=True)
@click.option(
    "--address",
    default="127.0.0.1",
    show_default=True,
    help="Interface to bind; 0.0.0.0 in a pod so Prometheus can scrape it.",
)
def metrics(port: int, address: str) -> None:
    """Serve /metrics: queue depths, unacked, message age, dead letters, review depth.

    Reads Redis (LEASE_BROKER_URL) and the store (LEASE_STORE_URL) at every scrape; needs
    no worker. Blocks until SIGTERM.
    """
    from lease_parser.metrics import serve_exporter

    serve_exporter(broker_settings(), port, address)
    click.echo(f"serving lease-parser metrics on http://{address}:{port}/metrics", err=True)
    _wait_for_termination()


def parse_basic_auth(value: str | None) -> list[str]:
    """``user:password[,user2:password2]`` → the list Flower compares; anything else is refused."""
    if not value or not value.strip():
        raise ConfigurationError(
            f"Flower refuses to start without basic-auth credentials: set {FLOWER_AUTH_ENV}="
            "user:password (from a secret) or pass --basic-auth. Its UI and API can revoke "
            "tasks and shut workers down."
        )
    pairs = [pair.strip() for pair in value.split(",")]
    for pair in pairs:
        user, _, password = pair.partition(":")
        if not user or not password:
            raise ConfigurationError(
                f"{FLOWER_AUTH_ENV} must be user:password[,user2:password2] with a non-empty "
                "user and password (no commas inside a password)"
            )
    return pairs


@click.command()
@click.option("--port", type=int, default=5555, show_default=True)
@click.option(
    "--address",
    default="127.0.0.1",
    show_default=True,
    help="Interface to bind. Keep loopback unless a NetworkPolicy guards the port.",
)
@click.option(
    "--basic-auth",
    envvar=FLOWER_AUTH_ENV,
    default=None,
    help=f"user:password[,…]; prefer {FLOWER_AUTH_ENV} (command lines are visible in ps).",
)
def flower(port: int, address: str, basic_auth: str | None) -> None:
    """Start Flower against the configured broker, behind HTTP basic auth.

    Flower's /metrics and /healthcheck stay unauthenticated (upstream behaviour): bind to
    loopback, or keep the port behind a NetworkPolicy, and never expose it publicly.
    """
    credentials = parse_basic_auth(basic_auth)
    from lease_parser.pipeline.app import create_app

    app = create_app(broker_settings())
    # Through Flower's own environment option, not argv: no password in the process list.
    os.environ["FLOWER_BASIC_AUTH"] = ",".join(credentials)
    os.environ.pop("FLOWER_UNAUTHENTICATED_API", None)
    # Pods come and go under the autoscaler: forget workers gone for 5 minutes.
    argv = ["flower", f"--port={port}", f"--address={address}", "--purge_offline_workers=300"]
    sys.exit(app.start(argv) or 0)


def broker_problem(settings: Settings, timeout: float) -> str | None:
    """Why the broker is unusable, or None if it answers PING."""
    import redis

    client = redis.Redis.from_url(
        settings.broker_url, socket_timeout=timeout, socket_connect_timeout=timeout
    )
    try:
        client.ping()
    except redis.RedisError as exc:
        return f"broker unreachable: {exc}"
    finally:
        client.close()
    return None


def worker_problem(settings: Settings, worker: str, timeout: float) -> str | None:
    """Why ``worker`` is unhealthy, or None if it answers a control ping within ``timeout``."""
    from celery import Celery
    from kombu.exceptions import OperationalError

    import redis
    from lease_parser.pipeline.app import transport_options

    app = Celery(
        "lease_parser_healthcheck",
        broker=settings.broker_url,
        set_as_current=False,
        broker_transport_options=transport_options(settings),
    )
    try:
        replies: list[dict[str, Any]] = app.control.ping(destination=[worker], timeout=timeout)
    except (OperationalError, redis.RedisError, OSError) as exc:
        return f"ping failed: {exc}"
    finally:
        app.close()
    if not any(worker in reply for reply in replies):
        return f"worker {worker} did not answer a ping within {timeout:g}s"
    return None


def consumption_problem(settings: Settings, worker: str, stall_after: float) -> str | None:
    """Why ``worker`` is not consuming, or None.

    Unhealthy when its last heartbeat is gone (the main process is hung or dead), or when
    its queues hold messages while it has had a free slot and taken none for
    ``stall_after`` seconds (a consumer that stopped after a Redis reconnect still answers
    pings). Busy workers and empty queues are healthy however long they last.
    """
    import time

    from lease_parser.pipeline.heartbeat import read_node
    from lease_parser.pipeline.queues import read_queues
    from lease_parser.pipeline.runtime import runtime_for

    r = runtime_for(settings).redis
    node = read_node(r, worker)
    if node is None:
        return f"no heartbeat from {worker} in the last {settings.heartbeat_ttl}s"
    now = time.time()
    idle = node.idle_for(now)
    if idle is None or idle <= stall_after:
        return None
    waiting = {q: s.depth for q, s in read_queues(r, node.queues).items() if s.depth}
    if not waiting:
        return None
    queues = ", ".join(f"{q} ({n})" for q, n in sorted(waiting.items()))
    return (
        f"worker {worker} has {node.concurrency - node.busy} free slot(s) and messages waiting "
        f"in {queues} but has taken none for {idle:.0f}s (its consumer is stuck; restart it)"
    )


@click.command()
@click.option(
    "--worker",
    "worker_name",
    default=None,
    help="Also require this node (e.g. lease_ocr@%h) to answer a control ping and to be "
    "consuming its queues.",
)
@click.option("--timeout", type=float, default=5.0, show_default=True, help="Seconds per check.")
@click.option(
    "--stalled-after",
    type=float,
    default=None,
    help="Seconds a worker with a free slot may take nothing from its non-empty queues "
    "[default: LEASE_WORKER_STALL_AFTER, 300].",
)
@json_option
def healthcheck(
    worker_name: str | None, timeout: float, stalled_after: float | None, as_json: bool
) -> None:
    """Exit 0 if the broker answers (and WORKER answers a ping and consumes), 1 otherwise.

    For Kubernetes probes: with --worker, also fails when the worker's queues hold messages
    and it has had a free slot and taken none for --stalled-after seconds.
    """
    from celery.utils.nodenames import host_format

    settings = broker_settings()
    stall_after = settings.worker_stall_after if stalled_after is None else stalled_after
    problem = broker_problem(settings, timeout)
    worker = host_format(worker_name) if worker_name else None
    if problem is None and worker is not None:
        problem = worker_problem(settings, worker, timeout) or consumption_problem(
            settings, worker, stall_after
        )
    if as_json:
        print_json({"healthy": problem is None, "worker": worker, "problem": problem})
    if problem is not None:
        fail(problem, ExitCode.FAILED, printed=as_json)
    if not as_json:
        what = f"{worker} answers and consumes" if worker else "the broker answers"
        click.echo(f"ok: {what} ({describe_broker(settings)})")
