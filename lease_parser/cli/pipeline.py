"""Commands that talk to the queue: ``submit``, ``worker``, ``status``, ``unlock``."""

from __future__ import annotations

import os
import sys

import click
from celery import Celery

from lease_parser.cli._common import (
    ExitCode,
    fail,
    json_option,
    print_json,
    settings_from_env,
)
from lease_parser.pipeline.routing import QUEUES


def _app() -> Celery:
    from lease_parser.pipeline.app import create_app

    return create_app(settings_from_env())


@click.command()
@click.argument("doc_key")
@click.option("--hash", "doc_hash", default=None, help="SHA-256 of the content, if known.")
@json_option
def submit(doc_key: str, doc_hash: str | None, as_json: bool) -> None:
    """Submit an object KEY (already in LEASE_OBJECT_STORE) for abstraction."""
    from lease_parser.pipeline.submit import submit_document

    receipt = submit_document(_app(), doc_key, doc_hash)
    if as_json:
        print_json(receipt.to_json())
    else:
        click.echo(f"submitted {receipt.doc_key} sha256={receipt.doc_hash} task={receipt.task_id}")


def use_soft_shutdown_on_sigterm() -> None:
    """Make SIGTERM Celery's soft shutdown (a time-limited warm one, then re-queue).

    Celery's plain SIGTERM is a warm shutdown that waits for running tasks however long
    they take: an OCR task near its 30-minute limit would hold a rollout or a scale-down
    that long. ``REMAP_SIGTERM=SIGQUIT`` makes SIGTERM the cold shutdown, which first waits
    ``worker_soft_shutdown_timeout`` (app.py) and then cancels what still runs; acks_late
    leaves those messages unacked and closing the channel puts them back on their queue.
    billiard reads the variable once, at import (billiard/common.py), in this process and
    in the pool children it starts, hence here, before the worker is imported.
    """
    if "billiard.common" in sys.modules:
        raise RuntimeError("REMAP_SIGTERM must be set before billiard is imported")
    os.environ["REMAP_SIGTERM"] = "SIGQUIT"


@click.command()
@click.option(
    "--queues",
    "-Q",
    default=",".join(QUEUES),
    show_default=True,
    help="Comma-separated queues to consume.",
)
@click.option(
    "--concurrency",
    "-c",
    type=int,
    default=None,
    help="Worker processes (default: number of CPUs).",
)
@click.option("--hostname", "-n", default=None, help="Node name, e.g. ocr@%h.")
@click.option("--loglevel", "-l", default="INFO", show_default=True)
def worker(queues: str, concurrency: int | None, hostname: str | None, loglevel: str) -> None:
    """Run a Celery worker for the given queues (blocks until shut down).

    SIGTERM (and SIGQUIT) is a soft shutdown: no new work; running tasks get
    LEASE_SOFT_SHUTDOWN_TIMEOUT seconds (30) to finish, then what still runs is cancelled
    and its message re-queued at once for another worker; then the worker exits. Give it
    that timeout + 45 s as grace. SIGKILL loses nothing either: the other workers' reapers
    restore its messages within LEASE_HEARTBEAT_TTL + a few seconds.
    """
    unknown = set(queues.split(",")) - set(QUEUES)
    if unknown:
        fail(f"unknown queue(s) {sorted(unknown)}; choose from {', '.join(QUEUES)}", ExitCode.USAGE)
    # Tesseract's OpenMP threads cost ~6x the CPU when every core already runs a child.
    os.environ["OMP_THREAD_LIMIT"] = "1"
    use_soft_shutdown_on_sigterm()
    argv = [
        "worker",
        "--queues",
        queues,
        "--loglevel",
        loglevel,
        "--without-mingle",
        "--without-gossip",
    ]
    if concurrency:
        argv += ["--concurrency", str(concurrency)]
    if hostname:
        argv += ["--hostname", hostname]
    app = _app()
    # A worker owns its process: let Celery configure logging so our INFO lines show.
    app.conf.worker_hijack_root_logger = True
    app.worker_main(argv)


@click.command()
@click.argument("doc_hash")
@json_option
def status(doc_hash: str, as_json: bool) -> None:
    """Show the state of a document by its content hash."""
    from lease_parser.store import Store

    settings = settings_from_env()
    row = Store(settings.store_database_url).document(doc_hash.lower())
    if row is None:
        if as_json:
            print_json({"doc_hash": doc_hash, "doc_key": None, "state": "unknown", "reason": None})
        fail(f"no document with hash {doc_hash}", ExitCode.NOT_FOUND)
    payload = {
        "doc_hash": row.doc_hash,
        "doc_key": row.doc_key,
        "state": row.state,
        "reason": row.reason,
    }
    if as_json:
        print_json(payload)
    else:
        reason = f" ({row.reason})" if row.reason else ""
        click.echo(f"{row.doc_hash[:12]}  {row.doc_key}  {row.state}{reason}")


@click.command()
@click.argument("doc_hash")
@click.option(
    "--password",
    prompt=True,
    hide_input=True,
    help="The document's password (prompted for if omitted).",
)
@json_option
def unlock(doc_hash: str, password: str, as_json: bool) -> None:
    """Supply the password of an encrypted document (review: needs_credential) and requeue it.

    The password is stored in the object store beside the documents (credentials/HASH.json),
    never in a queue message.
    """
    from lease_parser.pipeline.job import credential_key
    from lease_parser.pipeline.runtime import runtime_for
    from lease_parser.pipeline.submit import requeue_document
    from lease_parser.storage import put_json

    app = _app()
    runtime = runtime_for(app.lease_settings)
    put_json(runtime.objects, credential_key(doc_hash.lower()), {"password": password})
    receipt = requeue_document(app, doc_hash.lower(), actor="unlock")
    if receipt is None:
        fail(f"{doc_hash} is not waiting for a credential (or does not exist)", ExitCode.NOT_FOUND)
    if as_json:
        print_json(receipt.to_json())
    else:
        click.echo(f"password stored; requeued {receipt.doc_key} as task {receipt.task_id}")
