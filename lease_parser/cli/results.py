"""``lease-parser results list|show|export``: what the canonical store holds, for people and
for downstream imports. Reads only the store (``LEASE_STORE_URL``), never Redis."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from lease_parser.cli._common import (
    HASH,
    OUTPUT_FILE,
    ExitCode,
    fail,
    in_store,
    json_option,
    open_store,
    print_json,
    resolve_hash,
    settings_from_env,
)

if TYPE_CHECKING:
    from lease_parser.portfolio.terms import CurrentTerms
    from lease_parser.store import DocumentRow, Store

# store.DocumentState, spelled out so `--help` does not load SQLAlchemy (a test pins them).
STATES = ["pending", "committed", "review", "dead"]


def parse_when(text: str | None, end: bool = False) -> dt.datetime | None:
    """An ISO date or datetime (UTC unless it says otherwise). A bare date as ``--until``
    means the end of that day, so ``--since D --until D`` is the whole day."""
    if not text:
        return None
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not an ISO date or datetime") from None
    if end and len(text) == 10:
        when += dt.timedelta(days=1)
    return when.replace(tzinfo=dt.UTC) if when.tzinfo is None else when


def _filters(f: click.decorators.FC) -> click.decorators.FC:
    f = click.option(
        "--until", default=None, help="Entered its state before (ISO date/datetime, UTC)."
    )(f)
    f = click.option("--since", default=None, help="Entered its state at/after (ISO, UTC).")(f)
    return click.option(
        "--state",
        "states",
        multiple=True,
        type=click.Choice([*STATES, "all"]),
        help="Only these states (repeatable).",
    )(f)


def _selected(
    store: Store,
    states: tuple[str, ...],
    since: str | None,
    until: str | None,
    default: str,
    limit: int | None = None,
    newest_first: bool = False,
) -> Iterator[DocumentRow]:
    chosen = states or (default,)
    return store.documents(
        states=() if "all" in chosen else chosen,
        since=parse_when(since),
        until=parse_when(until, end=True),
        limit=limit,
        newest_first=newest_first,
    )


@click.group()
def results() -> None:
    """Abstractions in the canonical store: list, show one, export."""


@results.command("list")
@_filters
@click.option("--limit", type=int, default=100, show_default=True)
@json_option
def list_(
    states: tuple[str, ...], since: str | None, until: str | None, limit: int, as_json: bool
) -> None:
    """Documents of every state (or --state), newest first by when they entered it."""
    from lease_parser.store import document_json

    store = open_store()
    rows = list(_selected(store, states, since, until, "all", limit, newest_first=True))
    if as_json:
        print_json([document_json(row) for row in rows])
        return
    from lease_parser.portfolio.display import clip

    for row in rows:
        fields = row.fields or {}
        tenant = (fields.get("tenant") or {}).get("value") or "-"
        rent = (fields.get("base_rent_monthly") or {}).get("value") or "-"
        state = f"{row.state}({row.reason})" if row.reason else row.state
        when = document_json(row)["state_changed_at"] or ""
        click.echo(
            f"{row.doc_hash[:12]}  {state:32} {row.source or '-':6} {when[:16]}  "
            f"{row.doc_key} v{row.key_version}  {clip(str(tenant), 30)}  {rent}"
        )
    click.echo(f"{len(rows)} document(s){in_store(store)}")


@results.command()
@click.argument("doc_hash", type=HASH)
@json_option
def show(doc_hash: str, as_json: bool) -> None:
    """One document (hash or unique prefix): abstraction, audit trail, other versions of its key.

    For a lease, its current terms (each field with the document that last set it, its
    amendments applied) and the change log; for an amendment, the lease it is linked to."""
    from lease_parser.store import decision_json, document_json, event_json

    store = open_store()
    row = store.document(resolve_hash(store, doc_hash))
    if row is None:
        fail(f"no document with hash {doc_hash}", ExitCode.NOT_FOUND)
    record = document_json(row)
    record["events"] = [event_json(e) for e in store.events(row.doc_hash)]
    record["decisions"] = [decision_json(d) for d in store.decisions(row.doc_hash)]
    record["versions"] = [
        {"key_version": v.key_version, "doc_hash": v.doc_hash, "state": v.state}
        for v in store.versions(row.doc_key)
    ]
    terms = _portfolio_record(store, row, record)
    if as_json:
        print_json(record)
        return
    by = f" by {row.reviewer}" if row.reviewer else ""
    click.echo(f"{row.doc_key}  v{row.key_version}  sha256 {row.doc_hash}")
    click.echo(
        f"{row.state}"
        + (f" ({row.reason})" if row.reason else "")
        + f"  source {row.source or '-'}{by}"
    )
    from lease_parser.portfolio.display import clip, in_words

    sources = record["field_sources"]
    for name, field in record["fields"].items():
        if field.get("value") is not None or sources.get(name, "pipeline") != "pipeline":
            value = clip(in_words(name, field["value"]), 60)
            click.echo(f"  {name:22} {value:60} {field['confidence']:.2f}  {sources.get(name, '')}")
    if terms is not None:
        _print_terms(terms)
    if "link" in record:
        link = record["link"]
        click.echo(f"  amends: {link['lease_hash'] or '-'}  ({link['state']}: {link['why']})")
    for d in record["decisions"]:
        click.echo(f"  {d['decided_at'][:19]}  {d['field']:22} {d['decision']:10} {d['reviewer']}")
    for event in record["events"]:
        click.echo(
            f"  {event['at'][:19]}  {event['state']:10} {event['reason'] or '':22} {event['actor']}"
        )
    if len(record["versions"]) > 1:
        versions = ", ".join(
            f"v{v['key_version']} {v['doc_hash'][:12]}" for v in record["versions"]
        )
        click.echo(f"  versions of {row.doc_key}: {versions}")


def _portfolio_record(
    store: Store, row: DocumentRow, record: dict[str, Any]
) -> CurrentTerms | None:
    """Add a lease's current terms, or an amendment's link, to ``record``."""
    from lease_parser.store import AMENDMENT_KIND, LEASE_KINDS, lease_record, link_of

    if row.kind in LEASE_KINDS and row.fields:
        terms = lease_record(store, row).terms
        record["current_terms"] = terms.to_json()
        return terms
    link = link_of(store, row.doc_hash) if row.kind == AMENDMENT_KIND else None
    if link is not None:
        record["link"] = {
            "state": link.state,
            "lease_hash": link.lease_hash,
            "method": link.method,
            "confidence": link.confidence,
            "why": (link.evidence or {}).get("why"),
        }
    return None


def _print_terms(terms: CurrentTerms) -> None:
    """Current terms (field, value, probability, the document that set it), change log."""
    from lease_parser.portfolio.display import clip, in_words

    click.echo("  current terms (amendments applied):")
    for name, term in terms.terms.items():
        click.echo(
            f"    {name:24} {clip(in_words(name, term.value), 56):56} {term.confidence:.2f}  "
            f"{term.source.title}"
        )
    if terms.changes:
        click.echo("  changes:")
        for change in terms.changes:
            old = clip(in_words(change.field, change.old), 28)
            new = clip(in_words(change.field, change.new), 28)
            click.echo(
                f"    {change.source.date or '?':10}  {change.field:22} {old:28} "
                f"-> {new:28}  {change.source.title}"
            )
    for pending in terms.pending:
        click.echo(f"  not applied yet ({pending.state}): {pending.title} {pending.doc_hash[:12]}")


@results.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["csv", "jsonl", "xlsx"]),
    default="csv",
    show_default=True,
)
@click.option(
    "--out",
    type=OUTPUT_FILE,
    default=None,
    help="File to write (default stdout; xlsx needs a file). For CSV the rent schedule goes "
    "beside it as NAME.rent_schedule.csv.",
)
@_filters
def export(
    fmt: str, out: Path | None, states: tuple[str, ...], since: str | None, until: str | None
) -> None:
    """Export abstractions (committed only unless --state): CSV, JSON lines, or an Excel
    abstract (xlsx: Portfolio, Rent roll, Critical dates, one sheet per lease, with each
    lease's amendments applied)."""
    from lease_parser.store import write_csv, write_jsonl

    if fmt == "xlsx":
        _export_xlsx(out, states, since, until)
        return
    rows = _selected(open_store(), states, since, until, "committed")
    schedule_path = out.with_name(f"{out.stem}.rent_schedule.csv") if out else None
    with ExitStack() as stack:
        target = stack.enter_context(out.open("w", newline="")) if out else sys.stdout
        if fmt == "jsonl":
            count = write_jsonl(rows, target)
        else:
            schedule = (
                stack.enter_context(schedule_path.open("w", newline="")) if schedule_path else None
            )
            count = write_csv(rows, target, schedule)
    where = f" to {out}" if out else ""
    extra = f" (rent schedule: {schedule_path})" if fmt == "csv" and schedule_path else ""
    click.echo(f"exported {count} document(s){where}{extra}", err=True)


def _export_xlsx(
    out: Path | None, states: tuple[str, ...], since: str | None, until: str | None
) -> None:
    from lease_parser.portfolio.workbook import write_workbook  # openpyxl: only when asked
    from lease_parser.store import lease_records

    if out is None:
        raise click.UsageError("--format xlsx writes a file: give --out FILE.xlsx")
    settings = settings_from_env()
    chosen = states or ("committed",)
    records = lease_records(
        open_store(settings),
        states=() if "all" in chosen else chosen,
        since=parse_when(since),
        until=parse_when(until, end=True),
    )
    count = write_workbook(
        records, out, settings.confidence_gate, measured=settings.confidence().fields
    )
    click.echo(f"exported {count} lease(s) to {out}", err=True)
