"""Webhooks: telling a client its document is final, signed, retried, never lost.

A submission through the API may carry ``callback_url`` (and ``LEASE_WEBHOOK_URL``, when
set, subscribes every API submission). The subscription is a row in the store's
``webhooks`` table (its SQL is store/webhooks.py). ``lease-parser serve`` runs one
``WebhookDispatcher`` thread that polls for rows whose document has entered a final state
(committed, review, dead) since they last reported one, and POSTs::

    {"event": "document.final", "webhook_id": 7, "doc_hash": "…", "doc_key": "…",
     "state": "committed", "reason": null, "state_changed_at": "…", "document_url": "…"}

with ``X-Lease-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>">`` keyed by
``LEASE_WEBHOOK_SECRET`` (``verify_signature`` is what a receiver runs). The workers never
wait on a client: delivery happens in the server, from the store, whenever it can. A 2xx
answer is a delivery; anything else is retried with exponential backoff, and after
``LEASE_WEBHOOK_MAX_ATTEMPTS`` the row is marked failed, listed by ``lease-parser webhooks
list --failed`` and sent again by ``lease-parser webhooks replay``. A review later
committed (or a requeued document finished again) is a new state: it is reported too.

Delivery is at-least-once (a server killed between the POST and its record sends it
again): receivers de-duplicate on ``webhook_id`` + ``state_changed_at``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import logging
import random
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from lease_parser.errors import CallbackRefused, LeaseParserError
from lease_parser.redaction import redact
from lease_parser.settings import Settings
from lease_parser.store import (
    DocumentRow,
    Store,
    WebhookRow,
    add_webhook,
    as_utc,
    claim_due_webhooks,
    record_webhook,
    utcnow,
)

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Lease-Signature"
EVENT = "document.final"
BATCH = 50


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Lease-Signature`` value of ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify_signature(
    secret: str, header: str, body: bytes, tolerance: float = 300, now: float | None = None
) -> bool:
    """What a receiver checks: the HMAC matches and the timestamp is recent (a replayed
    old request fails)."""
    parts = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    expected = sign(secret, timestamp, body).split("v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))


def check_callback_url(settings: Settings, url: str) -> str:
    """``url`` if the server can call it; ``CallbackRefused`` saying why otherwise."""
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise CallbackRefused("callback_url must be an http:// or https:// URL")
    if not settings.webhook_secret.get_secret_value():
        raise CallbackRefused(
            "this server sends no webhooks (LEASE_WEBHOOK_SECRET is not set): poll "
            "GET /v1/documents/{hash} instead"
        )
    return url


def subscribe(
    store: Store,
    settings: Settings,
    doc_hash: str,
    callback_url: str | None,
    document_url: str,
    actor: str | None = None,
) -> int | None:
    """Record where to report ``doc_hash``'s final state (None: nowhere to report it)."""
    url = callback_url or settings.webhook_url
    if not url:
        return None
    check_callback_url(settings, url)
    return add_webhook(store, doc_hash, url, document_url, actor)


@dataclass(frozen=True)
class Notification:
    webhook_id: int
    url: str
    payload: dict[str, Any]
    state_changed_at: dt.datetime
    attempts: int


def body_of(notification: Notification) -> bytes:
    return json.dumps(notification.payload, separators=(",", ":"), sort_keys=True).encode()


class WebhookDispatcher:
    """Delivers due webhooks from the store; ``start`` runs it in a daemon thread."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def claim_due(self, now: dt.datetime) -> list[Notification]:
        """Due notifications, each held for this dispatcher (a conditional UPDATE: two
        servers polling at once never both send one)."""
        hold = now + dt.timedelta(seconds=self.settings.webhook_timeout + 30)
        taken = claim_due_webhooks(self.store, now, hold, BATCH)
        return [_notification(hook, doc) for hook, doc in taken]

    def deliver(self, notification: Notification) -> bool:
        """POST one notification and record the outcome; True when it was delivered."""
        body = body_of(notification)
        secret = self.settings.webhook_secret.get_secret_value()
        request = urllib.request.Request(
            notification.url,
            data=body,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "User-Agent": "lease-parser-webhook",
                SIGNATURE_HEADER: sign(secret, int(time.time()), body),
            },
        )
        status, error = None, None
        try:
            with urllib.request.urlopen(request, timeout=self.settings.webhook_timeout) as reply:
                status = int(reply.status)
        except urllib.error.HTTPError as exc:
            status, error = exc.code, f"answered {exc.code}"
        except (OSError, ValueError) as exc:  # refused, reset, timeout, DNS, a bad URL
            error = redact(f"{type(exc).__name__}: {exc}")
        ok = status is not None and 200 <= status < 300
        self._record(notification, ok, status, error)
        return ok

    def _record(self, n: Notification, ok: bool, status: int | None, error: str | None) -> None:
        now = utcnow()
        values: dict[str, Any] = {"claimed_until": None, "last_status": status}
        if ok:
            values |= {
                "notified_state_at": n.state_changed_at,
                "attempts": 0,
                "next_attempt_at": None,
                "delivered_at": now,
                "last_error": None,
            }
        else:
            attempts = n.attempts + 1
            values |= {"attempts": attempts, "last_error": error}
            if attempts >= self.settings.webhook_max_attempts:
                values["failed_at"] = now
                log.warning("webhook %s to %s failed for good: %s", n.webhook_id, n.url, error)
            else:
                values["next_attempt_at"] = now + dt.timedelta(seconds=self.backoff(attempts))
        record_webhook(self.store, n.webhook_id, values)

    def backoff(self, attempts: int) -> float:
        """Seconds before attempt ``attempts + 1``: doubling from the base, capped, plus up
        to a quarter more (receivers that failed together do not all come back at once)."""
        base, most = self.settings.webhook_backoff_base, self.settings.webhook_backoff_max
        step: float = min(base * 2.0 ** (attempts - 1), most)
        return step * (1 + random.random() / 4)

    def run_once(self) -> int:
        """Deliver what is due now; how many were delivered."""
        return sum(self.deliver(n) for n in self.claim_due(utcnow()))

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
            except LeaseParserError as exc:  # the store is down: try again next round
                log.warning("webhook dispatch paused: %s", exc)
            self._stop.wait(self.settings.webhook_poll_interval)

    def start(self) -> WebhookDispatcher:
        self._thread = threading.Thread(target=self._loop, name="webhooks", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.settings.webhook_timeout + 5)


def _notification(hook: WebhookRow, doc: DocumentRow) -> Notification:
    changed = as_utc(doc.state_changed_at)
    payload = {
        "event": EVENT,
        "webhook_id": hook.id,
        "doc_hash": doc.doc_hash,
        "doc_key": doc.doc_key,
        "state": doc.state,
        "reason": doc.reason,
        "state_changed_at": changed.isoformat(),
        "document_url": hook.document_url,
    }
    return Notification(hook.id, hook.url, payload, changed, hook.attempts)
