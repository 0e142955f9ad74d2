"""``lease-parser dead list|show|requeue|discard``: the ops triage queue. Replay is manual only.

An automatic replay of a poison message is a slower infinite loop, so nothing here runs
on a timer: an operator reads the diagnosis, fixes the cause, and requeues.
"""

from __future__ import annotations

import datetime as dt
import getpass
from typing import TYPE_CHECKING

import click

from lease_parser.cli._common import (
    HASH,
    ExitCode,
    broker_settings,
    describe_broker,
    fail,
    json_option,
    open_store,
    print_json,
    resolve_hash,
)
from lease_parser.errors import Reason
from lease_parser.hashes import resolve_prefix

if TYPE_CHECKING:
    import redis


def _redis() -> redis.Redis:
    from lease_parser.pipeline.runtime import runtime_for

    return runtime_for(broker_settings()).redis


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # a container user with no passwd entry
        return "unknown"


def _dead_hashes(texts: tuple[str, ...]) -> list[str]:
    """Full hashes of the dead letters given by hash or unique prefix; an unknown prefix is
    kept as typed (reported as not found, like an unknown full hash)."""
    from lease_parser.deadletter import dead_hashes_starting_with
    from lease_parser.errors import DocumentNotFound

    r = _redis()
    out = []
    for text in texts:
        try:
            out.append(
                resolve_prefix(text, lambda prefix, n: dead_hashes_starting_with(r, prefix, n))
            )
        except DocumentNotFound:
            out.append(text.strip().lower())
    return out


@click.group()
def dead() -> None:
    """Dead-lettered documents: list, inspect, requeue by hand, discard what is junk."""


@dead.command("list")
@click.option("--limit", type=int, default=100, show_default=True)
@click.option(
    "--reason",
    type=click.Choice([r.value for r in Reason]),
    default=None,
    help="Only letters with this reason (e.g. retries_exhausted after an outage).",
)
@json_option
def list_(limit: int, reason: str | None, as_json: bool) -> None:
    """Dead letters, oldest first: hash, when, reason, attempts, key."""
    from lease_parser.deadletter import list_dead_letters
    from lease_parser.pipeline.runtime import runtime_for

    settings = broker_settings()
    letters = list_dead_letters(runtime_for(settings).redis, limit, reason)
    if as_json:
        print_json([letter.to_json() for letter in letters])
        return
    for letter in letters:
        at = dt.datetime.fromtimestamp(letter.at, dt.UTC).strftime("%Y-%m-%d %H:%M")
        click.echo(
            f"{letter.doc_hash[:12]}  {at}  {letter.reason:18} x{letter.attempts:<2} "
            f"{letter.doc_key}"
        )
    click.echo(f"{len(letters)} dead letter(s) in {describe_broker(settings)}")


@dead.command()
@click.argument("doc_hash", type=HASH)
@json_option
def show(doc_hash: str, as_json: bool) -> None:
    """One dead letter (hash or unique prefix): payload, reason, attempts, diagnosis, traceback."""
    from lease_parser.deadletter import dead_hashes_starting_with, get_dead_letter

    r = _redis()
    full = resolve_prefix(doc_hash, lambda prefix, n: dead_hashes_starting_with(r, prefix, n))
    letter = get_dead_letter(r, full)
    if letter is None:
        fail(f"no dead letter for {doc_hash}", ExitCode.NOT_FOUND)
    if as_json:
        print_json(letter.to_json())
        return
    click.echo(f"document   {letter.doc_key} (sha256 {letter.doc_hash})")
    click.echo(f"reason     {letter.reason} after {letter.attempts} attempt(s) in {letter.task}")
    click.echo(f"diagnosis  {letter.diagnosis}")
    click.echo(f"detail     {letter.detail}")
    click.echo(f"payload    {letter.payload}")
    if letter.traceback:
        click.echo(letter.traceback.rstrip())


@dead.command()
@click.argument("doc_hashes", nargs=-1, required=True, type=HASH)
@json_option
def requeue(doc_hashes: tuple[str, ...], as_json: bool) -> None:
    """Send dead documents (hashes or unique prefixes) through the pipeline again.

    Each becomes a new submission; its dead letter is removed once the message is queued.
    If the broker is down or full nothing changes (exit 6 or 4): run it again later.
    Exits 5 if any hash is not a dead document (the others are still requeued).
    """
    from lease_parser.pipeline.app import create_app
    from lease_parser.pipeline.submit import requeue_dead_document

    app = create_app(broker_settings())
    store = open_store(app.lease_settings)
    receipts, missing = [], []
    for doc_hash in (resolve_hash(store, h) for h in doc_hashes):
        receipt = requeue_dead_document(app, doc_hash, "dead requeue")
        if receipt is None:
            missing.append(doc_hash)
            continue
        receipts.append(receipt)
    if as_json:
        print_json([receipt.to_json() for receipt in receipts])
    else:
        for receipt in receipts:
            click.echo(f"requeued {receipt.doc_key} as task {receipt.task_id}")
    if missing:
        fail(f"not dead documents: {', '.join(missing)}", ExitCode.NOT_FOUND, printed=True)


@dead.command()
@click.argument("doc_hashes", nargs=-1, required=True, type=HASH)
@click.option("--note", default=None, help="Why it is discarded (kept in the audit trail).")
@click.option("--by", "actor", default=None, help="Who discards it [default: the login name].")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation (for scripts).")
@json_option
def discard(
    doc_hashes: tuple[str, ...], note: str | None, actor: str | None, yes: bool, as_json: bool
) -> None:
    """Drop dead letters (hashes or unique prefixes) for good: triaged, nothing to replay.

    The letters leave the triage queue (and the LeaseDeadLetters alert); each document
    stays `dead` with its reason, an audit event records who discarded it and why, and
    `dead requeue HASH` still works later. Asks for confirmation unless --yes. Exits 5 if
    any hash has no dead letter (the others are still discarded).
    """
    from lease_parser.deadletter import discard_dead_letter, get_dead_letter
    from lease_parser.pipeline.runtime import runtime_for

    runtime = runtime_for(broker_settings())
    letters = {h: get_dead_letter(runtime.redis, h) for h in _dead_hashes(doc_hashes)}
    found = [letter for letter in letters.values() if letter is not None]
    missing = [h for h, letter in letters.items() if letter is None]
    if found and not yes:
        for letter in found:
            click.echo(f"{letter.doc_hash[:12]}  {letter.reason:18} {letter.doc_key}", err=as_json)
        click.confirm(f"Discard {len(found)} dead letter(s) for good?", abort=True, err=as_json)
    who = actor or _login_name()
    discarded = [
        letter
        for letter in found
        if discard_dead_letter(runtime.redis, runtime.store, letter.doc_hash, who, note)
    ]
    if as_json:
        print_json({"discarded": [d.doc_hash for d in discarded], "not_found": missing})
    else:
        for letter in discarded:
            click.echo(f"discarded {letter.doc_hash[:12]} {letter.doc_key} ({letter.reason})")
    if missing:
        fail(f"no dead letter for: {', '.join(missing)}", ExitCode.NOT_FOUND, printed=True)
