"""``lease-parser dates`` and ``lease-parser amendments …``: the portfolio's calendar and the
links between amendments and their leases. They read only the canonical store."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import TYPE_CHECKING

import click

from lease_parser.cli._common import (
    HASH,
    OUTPUT_FILE,
    ExitCode,
    fail,
    json_option,
    open_store,
    print_json,
    resolve_hash,
    settings_from_env,
)
from lease_parser.portfolio.schedule import months_after

if TYPE_CHECKING:
    from lease_parser.portfolio.dates import CriticalDate
    from lease_parser.store import LinkView

# store.DocumentState and store.LinkState, spelled out so `--help` loads no SQLAlchemy.
STATES = ["pending", "committed", "review", "dead"]
LINK_STATES = ["linked", "needs_review", "unlinked"]
DEFAULT_REMIND_DAYS = 30  # portfolio.calendar's default, without loading icalendar for --help

_SPAN = re.compile(r"^\s*(\d{1,4})\s*([dwmy])\s*$", re.IGNORECASE)


def end_of_span(start: dt.date, text: str) -> dt.date:
    """ "180d", "26w", "6m", "1y" after ``start``."""
    match = _SPAN.match(text)
    if match is None:
        raise click.BadParameter(f"{text!r}: use a number and d, w, m or y (180d, 6m, 1y)")
    count, unit = int(match.group(1)), match.group(2).lower()
    if unit == "d":
        return start + dt.timedelta(days=count)
    if unit == "w":
        return start + dt.timedelta(weeks=count)
    return months_after(start, count * (12 if unit == "y" else 1))


def _line(event: CriticalDate, gate: float) -> str:
    from lease_parser.portfolio.display import clip

    mark = " " if event.confirmed(gate) else "?"
    who = clip(event.tenant or event.lease.doc_key, 28)
    return (
        f"{event.date.isoformat()} {mark} {event.confidence:.2f}  {event.kind.value:24} "
        f"{who:28}  {event.summary}"
    )


@click.command()
@click.option(
    "--within", "span", default=None, help="Only dates in this span from --from: 180d, 26w, 6m, 1y."
)
@click.option(
    "--from",
    "start",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Count from this day (default today).",
)
@click.option("--all", "everything", is_flag=True, help="Past dates too.")
@click.option(
    "--state",
    "states",
    multiple=True,
    type=click.Choice(STATES),
    help="Leases in these states (default committed).",
)
@click.option(
    "--ics",
    type=OUTPUT_FILE,
    default=None,
    help="Write the dates to this iCalendar file (one event each, reminders before deadlines).",
)
@click.option(
    "--remind",
    "remind_days",
    type=click.IntRange(0, 365),
    default=DEFAULT_REMIND_DAYS,
    show_default=True,
    help="Days before each notice deadline the calendar reminds (0: none).",
)
@json_option
def dates(
    span: str | None,
    start: dt.datetime | None,
    everything: bool,
    states: tuple[str, ...],
    ics: Path | None,
    remind_days: int,
    as_json: bool,
) -> None:
    """Critical dates across the portfolio: expirations, renewal and break notice windows,
    rent steps. Each date cites what it was computed from; "?" marks a date less probable
    than the confidence gate (check the lease)."""
    from lease_parser.portfolio.dates import critical_dates, within
    from lease_parser.store import lease_records

    settings = settings_from_env()
    gate = settings.confidence_gate
    first = start.date() if start else dt.date.today()
    last = end_of_span(first, span) if span else None
    chosen = states or ("committed",)
    events = [
        event
        for record in lease_records(open_store(settings), chosen)
        for event in critical_dates(record.terms)
    ]
    selected = within(events, None if everything else first, last)
    if ics is not None:
        from lease_parser.portfolio.calendar import ics_bytes

        ics.write_bytes(ics_bytes(selected, gate, remind_days))
        click.echo(f"wrote {len(selected)} date(s) to {ics}", err=True)
    if as_json:
        print_json([event.to_json(gate) for event in selected])
        return
    if ics is None:
        for event in selected:
            click.echo(_line(event, gate))
        click.echo(f"{len(selected)} date(s)", err=True)


@click.group()
def amendments() -> None:
    """Which lease each amendment amends: list, show why, link by hand, relink."""


def _view_json(view: LinkView) -> dict[str, object]:
    link = view.link
    return {
        "amendment_hash": view.amendment.doc_hash,
        "amendment_key": view.amendment.doc_key,
        "amendment_state": view.amendment.state,
        "state": link.state,
        "method": link.method,
        "lease_hash": link.lease_hash,
        "lease_key": view.lease.doc_key if view.lease else None,
        "confidence": link.confidence,
        "actor": link.actor,
        "evidence": link.evidence,
    }


@amendments.command("list")
@click.option("--state", type=click.Choice(LINK_STATES), default=None)
@json_option
def list_(state: str | None, as_json: bool) -> None:
    """Every amendment's link (newest first): linked, needs_review or unlinked."""
    from lease_parser.store import links

    views = links(open_store(), state)
    if as_json:
        print_json([_view_json(v) for v in views])
        return
    from lease_parser.portfolio.display import clip

    for view in views:
        link = view.link
        lease = (
            f"{link.lease_hash[:12]} {view.lease.doc_key}"
            if view.lease and link.lease_hash
            else "-"
        )
        why = (link.evidence or {}).get("why", "")
        click.echo(
            f"{view.amendment.doc_hash[:12]}  {link.state:12} {link.method:8} "
            f"{clip(view.amendment.doc_key, 36):36} -> {lease}  ({why})"
        )
    click.echo(f"{len(views)} amendment(s)", err=True)


@amendments.command()
@click.argument("amendment_hash", type=HASH)
@json_option
def show(amendment_hash: str, as_json: bool) -> None:
    """Why an amendment is (not) linked: each candidate lease, criterion by criterion."""
    from lease_parser.store import LinkView, link_of

    store = open_store()
    full = resolve_hash(store, amendment_hash)
    link = link_of(store, full)
    amendment = store.document(full)
    if link is None or amendment is None:
        fail(f"no amendment link for {amendment_hash}", ExitCode.NOT_FOUND)
    view = LinkView(amendment, link, store.document(link.lease_hash) if link.lease_hash else None)
    if as_json:
        print_json(_view_json(view))
        return
    click.echo(f"{amendment.doc_key}  sha256 {amendment.doc_hash}")
    click.echo(
        f"{link.state} ({link.method}, {link.actor or '-'}): {(link.evidence or {}).get('why')}"
    )
    from lease_parser.portfolio.display import clip

    for candidate in (link.evidence or {}).get("candidates", []):
        mark = "match" if candidate["match"] else "     "
        click.echo(
            f"  {mark} {candidate['lease_hash'][:12]}  confidence {candidate['confidence']:.2f}"
        )
        for c in candidate["comparisons"]:
            says, lease_says = clip(str(c["amendment_says"]), 40), clip(str(c["lease_says"]), 40)
            click.echo(
                f"      {c['criterion']:10} {c['outcome']:8} amendment: {says:40} "
                f"lease: {lease_says}"
            )


reviewer_option = click.option(
    "--reviewer",
    envvar="LEASE_REVIEWER",
    required=True,
    help="Your name, as the link records it (or set LEASE_REVIEWER).",
)


@amendments.command()
@click.argument("amendment_hash", type=HASH)
@click.argument("lease_hash", type=HASH)
@reviewer_option
@json_option
def link(amendment_hash: str, lease_hash: str, reviewer: str, as_json: bool) -> None:
    """Link an amendment to its lease by hand (automatic relinking never changes it)."""
    _decide(amendment_hash, lease_hash, reviewer, as_json)


@amendments.command()
@click.argument("amendment_hash", type=HASH)
@reviewer_option
@json_option
def unlink(amendment_hash: str, reviewer: str, as_json: bool) -> None:
    """Record that the amendment's lease is not in the store."""
    _decide(amendment_hash, None, reviewer, as_json)


def _decide(amendment_hash: str, lease_hash: str | None, reviewer: str, as_json: bool) -> None:
    """A person's link; one that names no amendment or lease exits 5 (LinkRefused)."""
    from lease_parser.store import link_by_reviewer

    store = open_store()
    lease = resolve_hash(store, lease_hash) if lease_hash else None
    row = link_by_reviewer(store, resolve_hash(store, amendment_hash), lease, reviewer)
    if as_json:
        print_json(
            {
                "ok": True,
                "amendment_hash": row.amendment_hash,
                "state": row.state,
                "lease_hash": row.lease_hash,
            }
        )
        return
    click.echo(f"{row.amendment_hash[:12]}  {row.state}  -> {row.lease_hash or '-'}  by {reviewer}")


@amendments.command("relink")
@click.argument("hashes", nargs=-1, type=HASH)
@json_option
def relink_(hashes: tuple[str, ...], as_json: bool) -> None:
    """Link again by what the amendments state: HASH..., or every amendment not linked."""
    from lease_parser.store import relink

    settings = settings_from_env()
    store = open_store(settings)
    rows = relink(store, settings.confidence_gate, [resolve_hash(store, h) for h in hashes])
    if as_json:
        print_json(
            [
                {"amendment_hash": r.amendment_hash, "state": r.state, "lease_hash": r.lease_hash}
                for r in rows
            ]
        )
        return
    for row in rows:
        click.echo(f"{row.amendment_hash[:12]}  {row.state:12} -> {row.lease_hash or '-'}")
    click.echo(f"{len(rows)} amendment(s) relinked", err=True)
