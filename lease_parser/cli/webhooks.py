"""``lease-parser webhooks list|replay``: what the server told clients, and sending again.

`serve` delivers the webhooks (lease_parser/webhooks.py); these commands read and reset
their records in the store, so a delivery lost to a receiver's outage is sent again by the
running server: `webhooks replay --failed` after the receiver is back.
"""

from __future__ import annotations

import click

from lease_parser.cli._common import ExitCode, fail, json_option, open_store, print_json


@click.group()
def webhooks() -> None:
    """Webhooks the server sends when a document is final: list, replay."""


@webhooks.command("list")
@click.option("--failed", is_flag=True, help="Only those given up on after every retry.")
@click.option("--limit", type=int, default=100, show_default=True)
@json_option
def list_(failed: bool, limit: int, as_json: bool) -> None:
    """Subscriptions, newest first: the document, the URL, the last delivery or error."""
    from lease_parser.store import list_webhooks

    rows = list_webhooks(open_store(), failed, limit)
    if as_json:
        print_json(
            [
                {
                    "id": r.id,
                    "doc_hash": r.doc_hash,
                    "url": r.url,
                    "attempts": r.attempts,
                    "last_status": r.last_status,
                    "last_error": r.last_error,
                    "delivered_at": r.delivered_at,
                    "failed_at": r.failed_at,
                }
                for r in rows
            ]
        )
        return
    for r in rows:
        if r.failed_at:
            outcome = f"FAILED after {r.attempts} attempt(s): {r.last_error}"
        elif r.delivered_at:
            outcome = f"delivered {r.delivered_at:%Y-%m-%d %H:%M} ({r.last_status})"
        else:
            outcome = f"waiting ({r.attempts} failed attempt(s))" if r.attempts else "waiting"
        click.echo(f"{r.id:>6}  {r.doc_hash[:12]}  {outcome}  {r.url}")
    click.echo(f"{len(rows)} webhook(s)", err=True)


@webhooks.command()
@click.argument("ids", nargs=-1, type=int)
@click.option("--failed", is_flag=True, help="Every webhook given up on.")
@json_option
def replay(ids: tuple[int, ...], failed: bool, as_json: bool) -> None:
    """Send webhooks again (by id, or --failed): the running server delivers the
    document's current state anew, with fresh retries."""
    from lease_parser.store import replay_webhooks

    if not ids and not failed:
        raise click.UsageError("give webhook ids, or --failed")
    replayed = replay_webhooks(open_store(), list(ids), failed)
    if as_json:
        print_json({"replayed": replayed})
    else:
        click.echo(f"{len(replayed)} webhook(s) to send again: {replayed}")
    if missing := sorted(set(ids) - set(replayed)):
        fail(f"no webhook with id {missing}", ExitCode.NOT_FOUND, printed=as_json)
