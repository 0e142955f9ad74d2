"""``lease-parser review …``: the human review queue (list, claim, show, confirm, correct,
approve, reject, release, prioritize).

The queue lives in the canonical store, so these commands need only ``LEASE_STORE_URL``
(or ``LEASE_DATA_DIR``), never Redis. ``--reviewer`` defaults to ``$LEASE_REVIEWER``.
Deciding needs a live claim; ``confirm`` and ``correct`` decide fields one by one, and
``approve`` commits once every doubtful field is decided (the same rule as the workspace).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import click

from lease_parser.cli._common import (
    HASH,
    ExitCode,
    fail,
    json_option,
    open_store,
    print_json,
    resolve_hash,
    settings_from_env,
)
from lease_parser.errors import Reason

if TYPE_CHECKING:
    from lease_parser.store import DocumentRow, ReviewItem, ReviewQueue

reviewer_option = click.option(
    "--reviewer",
    envvar="LEASE_REVIEWER",
    required=True,
    help="Your name, as the audit trail records it (or set LEASE_REVIEWER).",
)


def _queue() -> ReviewQueue:
    from lease_parser.store import ReviewQueue

    settings = settings_from_env()
    return ReviewQueue(open_store(settings), settings.review_claim_ttl)


def _resolved(queue: ReviewQueue, doc_hash: str) -> str:
    return resolve_hash(queue.store, doc_hash)


def _age(since: dt.datetime) -> str:
    """How long an item has waited: 3h07m, or 2d05h past a day."""
    from lease_parser.store import utcnow

    hours, minutes = divmod(int((utcnow() - since).total_seconds() // 60), 60)
    return f"{hours // 24}d{hours % 24:02}h" if hours >= 24 else f"{hours}h{minutes:02}m"


def _claim_text(item: ReviewItem) -> str:
    if item.claimed_by is None or item.claim_expires_at is None:
        return "-"
    return f"{item.claimed_by} until {item.claim_expires_at:%H:%M}"


@click.group()
def review() -> None:
    """The human review queue: documents routed to review, oldest first."""


@review.command("list")
@click.option("--limit", type=int, default=100, show_default=True)
@click.option("--reason", default=None, help="Only this reason (low_confidence, …).")
@json_option
def list_(limit: int, reason: str | None, as_json: bool) -> None:
    """Items waiting for review, in the order `claim` hands them out."""
    items = _queue().items(limit=limit, reason=reason)
    if as_json:
        print_json([item.to_json() for item in items])
        return
    for item in items:
        click.echo(
            f"{item.doc_hash[:12]}  {_age(item.since):>6}  p{item.priority:<3} "
            f"{item.reason or '-':16} {_claim_text(item):22} {item.doc_key}"
            f"  [{', '.join(item.doubtful)}]"
        )
    claimed = sum(1 for item in items if item.claimed_by)
    click.echo(f"{len(items)} item(s) in review ({claimed} claimed)")


@review.command()
@click.argument("doc_hash", required=False, type=HASH)
@reviewer_option
@json_option
def claim(doc_hash: str | None, reviewer: str, as_json: bool) -> None:
    """Claim the next item (or renew the one you hold), or the item DOC_HASH.

    Exits 5 when the queue is empty, 1 when DOC_HASH is someone else's.
    """
    queue = _queue()
    if doc_hash is not None:
        item: ReviewItem | None = queue.claim(_resolved(queue, doc_hash), reviewer)
    else:
        item = queue.claim_next(reviewer)
    if item is None:
        fail("the review queue is empty", ExitCode.NOT_FOUND)
    if as_json:
        print_json(item.to_json())
        return
    _print_item(item)


@review.command()
@click.argument("doc_hash", type=HASH)
@json_option
def show(doc_hash: str, as_json: bool) -> None:
    """One item: each field with its value, confidence, page and source snippet."""
    queue = _queue()
    item = queue.item(_resolved(queue, doc_hash))
    if as_json:
        print_json(item.to_json())
    else:
        _print_item(item)


def _print_item(item: ReviewItem) -> None:
    reason = f" ({item.reason})" if item.reason else ""
    confidence = f"{item.confidence:.2f}" if item.confidence is not None else "-"
    click.echo(f"{item.doc_key}  v{item.key_version}  sha256 {item.doc_hash}")
    click.echo(
        f"{item.state}{reason}  confidence {confidence}  since {item.since:%Y-%m-%d %H:%M} UTC"
        f"  claimed: {_claim_text(item)}"
    )
    if item.detail:
        click.echo(f"detail: {item.detail}")
    if item.problems:
        click.echo("check these (most serious first):")
    for number, problem in enumerate(item.problems, start=1):
        kind = problem.get("kind") or "invalid"
        page = f" p.{problem['page']}" if problem.get("page") else ""
        click.echo(f"  {number}. {problem['field']} [{kind}]{page}: {problem['problem']}")
    # The doubtful fields first, in the order above; then the rest, which need no check.
    # "!" marks one not checked yet; a decided one shows what was decided.
    from lease_parser.model import FIELD_NAMES

    marks = _marks()
    draft = item.draft()
    doubtful = item.doubtful
    for name in doubtful + [n for n in FIELD_NAMES if n not in doubtful]:
        mark = marks[item.decisions[name].kind] if name in item.decisions else " "
        mark = "!" if name in item.unchecked else mark
        click.echo(_field_line(name, draft.get(name) or {}, mark))
    for decision in item.decisions.values():
        click.echo(
            f"  {marks[decision.kind]} {decision.field}: {decision.kind.value} by "
            f"{decision.reviewer} at {decision.decided_at:%H:%M}"
        )
    if item.reason == Reason.NEEDS_CREDENTIAL:
        click.echo(f"needs its password: lease-parser unlock {item.doc_hash[:12]}")
    elif item.reason == Reason.NOT_A_LEASE:
        click.echo(f"not a lease? confirm with: lease-parser review reject {item.doc_hash[:12]}")
    elif item.state == "review":
        click.echo(_next_step(item))


def _marks() -> dict[Any, str]:
    """What a reviewer decided, as a mark ("!" is doubtful and not checked yet)."""
    from lease_parser.decisions import DecisionKind

    return {DecisionKind.CONFIRMED: "✓", DecisionKind.CORRECTED: "✎", DecisionKind.NOT_STATED: "∅"}


def _next_step(item: ReviewItem) -> str:
    if item.unchecked:
        return (
            f"to check: {', '.join(item.unchecked)} (review confirm HASH FIELD..., "
            "review correct HASH FIELD=VALUE...), then review approve HASH"
        )
    if item.document_doubts:
        return "every doubtful field is checked: review approve HASH --as KIND commits it"
    return "every doubtful field is checked: review approve HASH commits it"


VALUE_WIDTH = 40


def _field_line(name: str, field: dict[str, Any], mark: str) -> str:
    """Whole values, in words: a reviewer must see what they approve. A long one wraps
    inside its column, so confidence, page and snippet stay aligned on the first line."""
    import textwrap

    from lease_parser.portfolio.display import in_words

    lines = textwrap.wrap(in_words(name, field.get("value")), VALUE_WIDTH) or ["-"]
    provenance = field.get("provenance") or {}
    page = f"p.{provenance['page']}" if provenance else "-"
    snippet = f'"{provenance["text"]}"' if provenance else ""
    confidence = f"{field['confidence']:.2f}" if "confidence" in field else "    "
    first = f"{mark} {name:21} {lines[0]:{VALUE_WIDTH}} {confidence}  {page:5} {snippet}"
    indent = " " * (len(mark) + 23)
    return "\n".join([first.rstrip(), *(indent + line for line in lines[1:])])


def _relink(row: DocumentRow) -> None:
    """The committed values may name a lease (an amendment's) or be the lease waiting
    amendments were looking for: link again by them. Best effort, like the pipeline's."""
    from lease_parser.errors import LeaseParserError
    from lease_parser.store import after_finish

    settings = settings_from_env()
    try:
        after_finish(open_store(settings), row.doc_hash, settings.confidence_gate)
    except LeaseParserError as exc:
        click.echo(
            f"warning: amendment linking failed ({exc}); run lease-parser amendments relink",
            err=True,
        )


def _print_decision(row: DocumentRow, as_json: bool) -> None:
    from lease_parser.store import document_json

    if as_json:
        print_json(document_json(row))
        return
    reason = f" ({row.reason}: {row.detail})" if row.reason else ""
    click.echo(f"{row.doc_hash[:12]}  {row.state}{reason}  by {row.reviewer}  {row.doc_key}")
    for name, change in (row.corrections or {}).items():
        click.echo(f"  {name}: {change['from']} -> {change['to']}")


@review.command()
@click.argument("doc_hash", type=HASH)
@click.option(
    "--as",
    "committed_as",
    type=click.Choice(["lease", "sublease", "amendment", "form"]),
    help="What the document is: needed when it was sent to review for what it is "
    "(a blank form, an amendment, too few core fields, not a lease).",
)
@reviewer_option
@json_option
def approve(doc_hash: str, committed_as: str | None, reviewer: str, as_json: bool) -> None:
    """Commit the item: the pipeline's values with your decisions, each value's source kept.

    Refused (exit 1, naming them) while a doubtful field is neither confirmed nor corrected,
    and, for a document sent to review for what it is, without --as.
    """
    queue = _queue()
    row = queue.approve(_resolved(queue, doc_hash), reviewer, committed_as)
    _relink(row)
    _print_decision(row, as_json)


@review.command()
@click.argument("doc_hash", type=HASH)
@click.argument("fields", nargs=-1, required=True, metavar="FIELD...")
@reviewer_option
@json_option
def confirm(doc_hash: str, fields: tuple[str, ...], reviewer: str, as_json: bool) -> None:
    """The pipeline's values of these fields are right (an empty field: not stated)."""
    queue = _queue()
    item = queue.confirm(_resolved(queue, doc_hash), reviewer, list(fields))
    _print_progress(item, as_json)


@review.command()
@click.argument("doc_hash", type=HASH)
@click.argument("changes", nargs=-1, required=True, metavar="FIELD=VALUE...")
@reviewer_option
@json_option
def correct(doc_hash: str, changes: tuple[str, ...], reviewer: str, as_json: bool) -> None:
    """Your values for some fields, validated like the pipeline's (approve commits them).

    Money and decimals as plain numbers (12500.00), dates as YYYY-MM-DD, rent_schedule and
    escalation as JSON; an empty value (field=) means the lease does not state it. One bad
    value refuses them all.
    """
    from lease_parser.corrections import parse_corrections

    try:
        pairs = parse_corrections(list(changes))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="FIELD=VALUE") from None
    queue = _queue()
    item = queue.correct(_resolved(queue, doc_hash), reviewer, pairs)
    _print_progress(item, as_json)


def _print_progress(item: ReviewItem, as_json: bool) -> None:
    if as_json:
        print_json(item.to_json())
        return
    draft, marks = item.draft(), _marks()
    for decision in item.decisions.values():
        value = draft[decision.field]["value"]
        click.echo(f"  {marks[decision.kind]} {decision.field}: {decision.kind.value} ({value})")
    click.echo(_next_step(item).replace("HASH", item.doc_hash[:12]))


@review.command()
@click.argument("doc_hash", type=HASH)
@click.option(
    "--reason",
    "why",
    default="",
    help="Why: illegible, wrong file… Required unless the item is flagged not_a_lease "
    "(then rejecting confirms it: 'not a lease').",
)
@reviewer_option
@json_option
def reject(doc_hash: str, why: str, reviewer: str, as_json: bool) -> None:
    """Refuse the document: state dead, reason rejected_by_reviewer, your reason kept."""
    queue = _queue()
    row = queue.reject(_resolved(queue, doc_hash), reviewer, why)
    _print_decision(row, as_json)


@review.command()
@click.argument("doc_hash", type=HASH)
@reviewer_option
@json_option
def release(doc_hash: str, reviewer: str, as_json: bool) -> None:
    """Give a claimed item back to the queue without deciding it."""
    queue = _queue()
    full = _resolved(queue, doc_hash)
    queue.release(full, reviewer)
    if as_json:
        print_json({"ok": True, "doc_hash": full})
    else:
        click.echo(f"released {full[:12]}")


@review.command()
@click.argument("doc_hash", type=HASH)
@click.argument("priority", type=int)
@json_option
def prioritize(doc_hash: str, priority: int, as_json: bool) -> None:
    """Set an item's priority (higher is handed out first; default 0)."""
    queue = _queue()
    full = _resolved(queue, doc_hash)
    queue.prioritize(full, priority)
    if as_json:
        print_json({"ok": True, "doc_hash": full, "priority": priority})
    else:
        click.echo(f"{full[:12]} priority {priority}")
