"""``lease-parser dead list|show|requeue``: the ops triage queue. Replay is manual only."""

from __future__ import annotations

import datetime as dt

import click

import redis
from lease_parser.cli._common import ExitCode, fail, json_option, print_json, settings_from_env


def _redis() -> redis.Redis:
    from lease_parser.pipeline.runtime import runtime_for

    return runtime_for(settings_from_env()).redis


@click.group()
def dead() -> None:
    """Dead-lettered documents: list, inspect, requeue by hand."""


@dead.command("list")
@click.option("--limit", type=int, default=100, show_default=True)
@json_option
def list_(limit: int, as_json: bool) -> None:
    """Dead letters, oldest first."""
    from lease_parser.deadletter import list_dead_letters

    letters = list_dead_letters(_redis(), limit)
    if as_json:
        print_json([letter.to_json() for letter in letters])
        return
    for letter in letters:
        at = dt.datetime.fromtimestamp(letter.at, dt.UTC).strftime("%Y-%m-%d %H:%M")
        click.echo(f"{letter.doc_hash[:12]}  {at}  {letter.reason:18} {letter.doc_key}")
    click.echo(f"{len(letters)} dead letter(s)")


@dead.command()
@click.argument("doc_hash")
@json_option
def show(doc_hash: str, as_json: bool) -> None:
    """One dead letter: payload, reason, attempts, diagnosis and traceback."""
    from lease_parser.deadletter import get_dead_letter

    letter = get_dead_letter(_redis(), doc_hash.lower())
    if letter is None:
        fail(f"no dead letter for {doc_hash}", ExitCode.NOT_FOUND)
    if as_json:
        print_json(letter.to_json())
        return
    click.echo(f"document   {letter.doc_key} (sha256 {letter.doc_hash})")
    click.echo(f"reason     {letter.reason} after {letter.attempts} attempt(s) in {letter.task}")
    click.echo(f"diagnosis  {letter.diagnosis}")
    click.echo(f"detail     {letter.detail}")
    if letter.traceback:
        click.echo(letter.traceback.rstrip())


@dead.command()
@click.argument("doc_hash")
@json_option
def requeue(doc_hash: str, as_json: bool) -> None:
    """Send a dead document through the pipeline again (after fixing its cause)."""
    from lease_parser.deadletter import remove_dead_letter
    from lease_parser.pipeline.app import create_app
    from lease_parser.pipeline.submit import requeue_document

    app = create_app(settings_from_env())
    receipt = requeue_document(app, doc_hash.lower(), actor="dead requeue")
    if receipt is None:
        fail(f"{doc_hash} is not a dead document", ExitCode.NOT_FOUND)
    from lease_parser.pipeline.runtime import runtime_for

    remove_dead_letter(runtime_for(app.lease_settings).redis, doc_hash.lower())
    if as_json:
        print_json(receipt.to_json())
    else:
        click.echo(f"requeued {receipt.doc_key} as task {receipt.task_id}")
