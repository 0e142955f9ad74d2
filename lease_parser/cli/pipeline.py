"""Commands that talk to the queue: ``submit``, ``worker``, ``status``, ``unlock``.

Celery, Redis and the store are imported inside each command: ``status`` (what scripts
poll) loads only the settings and the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from lease_parser.cli._common import (
    HASH,
    ExitCode,
    broker_settings,
    fail,
    in_store,
    json_option,
    open_store,
    print_json,
    resolve_hash,
)
from lease_parser.hashes import full_hash

if TYPE_CHECKING:
    from celery import Celery

QUEUE_NAMES = ("lease_extraction", "lease_ocr", "lease_normalization")  # routing.QUEUES


def _app() -> Celery:
    from lease_parser.pipeline.app import create_app

    return create_app(broker_settings())


def _declared_hash(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    try:
        return full_hash(value) if value is not None else None
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command()
@click.argument("doc_key")
@click.option(
    "--hash",
    "doc_hash",
    default=None,
    callback=_declared_hash,
    help="SHA-256 of the content (64 hex digits), if known; computed otherwise.",
)
@json_option
def submit(doc_key: str, doc_hash: str | None, as_json: bool) -> None:
    """Submit an object KEY (already in LEASE_OBJECT_STORE) for abstraction.

    Content that is already a final document is not queued again: the receipt says it is
    a duplicate and gives that document's state (exit 0).
    """
    from lease_parser.pipeline.submit import submit_document

    receipt = submit_document(_app(), doc_key, doc_hash)
    if as_json:
        print_json(receipt.to_json())
    elif receipt.queued:
        click.echo(f"submitted {receipt.doc_key} sha256={receipt.doc_hash} task={receipt.task_id}")
    else:
        click.echo(
            f"duplicate: {receipt.doc_key} has the content of a document already "
            f"{receipt.document_state} (sha256={receipt.doc_hash}); nothing was queued. "
            f"See: lease-parser status {receipt.doc_hash[:12]}"
        )


@click.command()
@click.option(
    "--queues",
    "-Q",
    default=",".join(QUEUE_NAMES),
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
    from lease_parser.pipeline.routing import QUEUES
    from lease_parser.pipeline.worker import run_worker, unknown_queues

    names = queues.split(",")
    if unknown := unknown_queues(names):
        fail(f"unknown queue(s) {unknown}; choose from {', '.join(QUEUES)}", ExitCode.USAGE)
    run_worker(broker_settings(), names, concurrency, hostname, loglevel)


@click.command()
@click.argument("doc_hash", type=HASH)
@json_option
def status(doc_hash: str, as_json: bool) -> None:
    """Show the state of a document by its content hash (or a unique prefix of 8+)."""
    store = open_store()
    row = store.document(resolve_hash(store, doc_hash))
    if row is None:
        fail(
            f"no document with hash {doc_hash}{in_store(store)}",
            ExitCode.NOT_FOUND,
            state="unknown",
        )
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


def _read_password() -> str:
    """Asked for on a terminal (not echoed); else the first line of stdin, so a script can
    pipe it in (getpass would warn that it cannot hide the input, and echo it)."""
    import sys

    if sys.stdin.isatty():
        return str(click.prompt("Password", hide_input=True, err=True))
    password = sys.stdin.readline().rstrip("\r\n")
    if not password:
        fail("no password: type it at the prompt, or pipe it in on stdin", ExitCode.USAGE)
    return password


@click.command()
@click.argument("doc_hash", type=HASH)
@click.option(
    "--password",
    default=None,
    help="The document's password. Omitted: asked for on a terminal (not echoed), else read "
    "from the first line of stdin. Prefer those: an option shows in `ps`.",
)
@json_option
def unlock(doc_hash: str, password: str | None, as_json: bool) -> None:
    """Supply the password of an encrypted document (review: needs_credential) and requeue it.

    The password is tried on the document first: a wrong one is refused (exit 1) and
    nothing changes. A right one is stored encrypted (LEASE_CREDENTIAL_KEY) beside the
    documents, never in a queue message, and deleted once the document is final.
    """
    from lease_parser.pipeline.unlock import check_unlockable, unlock_document

    app = _app()
    store = open_store(app.lease_settings)
    full = resolve_hash(store, doc_hash)
    check_unlockable(store.document(full), full)  # before asking for a password in vain
    receipt = unlock_document(app, full, password if password is not None else _read_password())
    if as_json:
        print_json(receipt.to_json())
    else:
        click.echo(
            f"password checked and stored encrypted; requeued {receipt.doc_key} "
            f"as task {receipt.task_id}"
        )
