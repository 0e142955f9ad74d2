"""``lease-parser pending [--older-than 10m] [--redrive]``: documents stuck ``pending``.

Lists the pending documents nothing has happened to for a while, and where each one's
message is (pipeline/redrive.py); ``--redrive`` publishes again the ones whose message the
broker lost. Idempotent: run it twice and the second finds their messages queued.
"""

from __future__ import annotations

import datetime as dt
import re

import click

from lease_parser.cli._common import broker_settings, describe_broker, json_option, print_json

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> dt.timedelta:
    """``90s``, ``10m``, ``2h``, ``1d`` (a bare number is minutes)."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text)
    if not found:
        raise click.BadParameter(f"{text!r} is not a duration like 90s, 10m, 2h or 1d")
    return dt.timedelta(seconds=float(found.group(1)) * UNITS[found.group(2) or "m"])


def _age(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60}h{minutes % 60:02}m" if minutes >= 60 else f"{minutes}m"


@click.command()
@click.option(
    "--older-than",
    "quiet_for",
    default="10m",
    show_default=True,
    help="Only documents nothing has happened to for this long (90s, 10m, 2h, 1d).",
)
@click.option(
    "--redrive",
    is_flag=True,
    help="Publish the message again for each one the broker has lost (those marked missing).",
)
@click.option("--limit", type=int, default=1000, show_default=True)
@json_option
def pending(quiet_for: str, redrive: bool, limit: int, as_json: bool) -> None:
    """Documents stuck `pending`, and whether the broker still has their message.

    queued / unacked: a worker will get to it (a backlog, a retry's countdown, running);
    missing: the broker lost it, and --redrive sends it again under the same submission
    (the hash lock and the store keep it exactly-once).
    """
    from lease_parser.pipeline.app import create_app
    from lease_parser.pipeline.redrive import find_stuck
    from lease_parser.pipeline.redrive import redrive as redrive_one
    from lease_parser.store import utcnow

    settings = broker_settings()
    app = create_app(settings)
    stuck = find_stuck(app, parse_duration(quiet_for), limit)
    if redrive:
        stuck = [redrive_one(app, s, "pending --redrive") for s in stuck]
    now = utcnow()
    if as_json:
        print_json([s.to_json(now) for s in stuck])
        return
    for s in stuck:
        doc = s.document
        quiet = _age((now - doc.last_activity).total_seconds())
        what = f"re-driven as task {s.redriven_as}" if s.redriven_as else s.message.value
        where = f" ({s.where})" if s.where and not s.redriven_as else ""
        click.echo(f"{doc.doc_hash[:12]}  quiet {quiet:>6}  {what}{where}  {doc.doc_key}")
    missing = sum(1 for s in stuck if s.message == "missing")
    click.echo(
        f"{len(stuck)} document(s) pending and quiet for {quiet_for} in "
        f"{describe_broker(settings)}"
        + (f"; {missing} lost by the broker: re-drive with --redrive" if missing else "")
    )
