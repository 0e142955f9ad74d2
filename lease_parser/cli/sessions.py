"""``lease-parser sessions list|revoke``: the workspace's sign-ins, seen and ended from a shell.

Sessions live in Redis (lease_parser/web/sessions.py), so this works on any machine that
reaches the broker, for every replica of ``serve`` at once. The same is open to a token with
the ``admin`` scope over HTTP (``GET``/``DELETE /v1/sessions``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from lease_parser.cli._common import ExitCode, fail, json_option, print_json, settings_from_env

if TYPE_CHECKING:
    from lease_parser.web.sessions import SessionStore


def _store() -> SessionStore:
    from lease_parser.pipeline.runtime import runtime_for
    from lease_parser.web.sessions import SessionStore

    r = runtime_for(settings_from_env()).redis
    return SessionStore(lambda: r)


@click.group()
def sessions() -> None:
    """The reviewers' workspace sessions: list them, end them."""


@sessions.command("list")
@json_option
def list_sessions(as_json: bool) -> None:
    """Live sessions: who, since when, seconds left (never a session's id)."""
    found = _store().sessions()
    if as_json:
        print_json([s.to_json() for s in found])
        return
    if not found:
        click.echo("no live sessions")
    for s in found:
        who = s.reviewer or "(not signed in)"
        click.echo(f"{s.ref}  {who:<24} since {s.signed_in_at or '-'}  {s.expires_in}s left")


@sessions.command()
@click.option("--reviewer", default=None, help="End this reviewer's sessions (a token's name).")
@click.option("--all", "every", is_flag=True, help="End every session (everyone signs in again).")
@json_option
def revoke(reviewer: str | None, every: bool, as_json: bool) -> None:
    """End sessions now: the next page each one asks for is the sign-in page.

    Removing a token from LEASE_API_TOKENS ends its sessions too (at their next request);
    this is for a stolen laptop, a leaked cookie, or a reviewer who has left.
    """
    if (reviewer is None) == (not every):
        fail("give --reviewer NAME or --all (not both)", ExitCode.USAGE)
    ended = _store().revoke(None if every else reviewer)
    if as_json:
        print_json({"ended": ended, "reviewer": reviewer})
    else:
        click.echo(f"ended {ended} session(s)" + (f" of {reviewer}" if reviewer else ""))
