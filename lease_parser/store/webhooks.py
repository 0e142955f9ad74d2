"""The ``webhooks`` table: subscriptions, which are due, their delivery records.

Delivering (signing, POSTing, backing off) is ``lease_parser.webhooks``; this module only
reads and writes the rows it decides about.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import ColumnElement, and_, or_, select, update

from lease_parser.store.database import FINAL_STATES, DocumentRow, Store, WebhookRow


def add_webhook(
    store: Store, doc_hash: str, url: str, document_url: str, actor: str | None = None
) -> int:
    """A new subscription: report ``doc_hash``'s final states to ``url``; its id."""
    with store.session() as s:
        row = WebhookRow(
            doc_hash=doc_hash, url=url, document_url=document_url, actor=actor, attempts=0
        )
        s.add(row)
        s.flush()
        return int(row.id)


def _unclaimed(now: dt.datetime) -> ColumnElement[bool]:
    return or_(WebhookRow.claimed_until.is_(None), WebhookRow.claimed_until < now)


def _due(now: dt.datetime) -> ColumnElement[bool]:
    return and_(
        WebhookRow.doc_hash == DocumentRow.doc_hash,
        DocumentRow.state.in_(FINAL_STATES),
        WebhookRow.failed_at.is_(None),
        or_(
            WebhookRow.notified_state_at.is_(None),
            DocumentRow.state_changed_at > WebhookRow.notified_state_at,
        ),
        or_(WebhookRow.next_attempt_at.is_(None), WebhookRow.next_attempt_at <= now),
        _unclaimed(now),
    )


def claim_due_webhooks(
    store: Store, now: dt.datetime, hold_until: dt.datetime, limit: int
) -> list[tuple[WebhookRow, DocumentRow]]:
    """Due subscriptions with their documents, each held until ``hold_until`` by a
    conditional UPDATE: two servers polling at once never both take one."""
    claimed = []
    with store.session() as s:
        rows = s.execute(select(WebhookRow, DocumentRow).where(_due(now)).limit(limit)).all()
        for hook, doc in rows:
            taken = s.execute(
                update(WebhookRow)
                .where(WebhookRow.id == hook.id, _unclaimed(now))
                .values(claimed_until=hold_until)
            )
            if taken.rowcount:  # type: ignore[attr-defined]
                claimed.append((hook, doc))
    return claimed


def record_webhook(store: Store, webhook_id: int, values: dict[str, Any]) -> None:
    """Write a delivery's outcome (column → value) to its subscription."""
    with store.session() as s:
        s.execute(update(WebhookRow).where(WebhookRow.id == webhook_id).values(**values))


def list_webhooks(store: Store, failed_only: bool = False, limit: int = 100) -> list[WebhookRow]:
    """Subscriptions, newest first (only those given up on, with ``failed_only``)."""
    query = select(WebhookRow).order_by(WebhookRow.id.desc()).limit(limit)
    if failed_only:
        query = query.where(WebhookRow.failed_at.is_not(None))
    with store.session() as s:
        return list(s.scalars(query))


def replay_webhooks(store: Store, ids: list[int] | None = None, failed: bool = False) -> list[int]:
    """Send these webhooks (or every failed one) again: their last notification is
    forgotten, so the dispatcher delivers the document's current state anew."""
    condition = WebhookRow.id.in_(ids or []) if ids else WebhookRow.failed_at.is_not(None)
    if not ids and not failed:
        return []
    with store.session() as s:
        chosen = list(s.scalars(select(WebhookRow.id).where(condition)))
        s.execute(
            update(WebhookRow)
            .where(WebhookRow.id.in_(chosen))
            .values(
                failed_at=None,
                attempts=0,
                next_attempt_at=None,
                claimed_until=None,
                notified_state_at=None,
            )
        )
    return [int(i) for i in chosen]
