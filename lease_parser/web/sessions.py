"""The workspace's sessions, kept on the server (in Redis, beside the queues) so they can end.

The cookie holds only a random session id: no name, no token fingerprint, no CSRF secret.
The record (the session's values, who signed in and when) is in Redis under the SHA-256
of the id, so even a copy of Redis holds no usable cookie. A session ends when

- the reviewer signs out (the record is deleted: a copied cookie then opens nothing),
- its token is removed from ``LEASE_API_TOKENS`` or loses the ``review`` scope (the
  record's token fingerprint no longer matches: auth.py),
- an operator revokes it (``lease-parser sessions revoke``, ``DELETE /v1/sessions``),
- or ``SESSION_HOURS`` after sign-in (the record's TTL).

The CSRF token of a session is derived from its id with the server's key
(``csrf_for``): forms carry it, the cookie never does, and an anonymous visitor (the
sign-in form) needs no record at all. ``ServerSessions`` is the ASGI middleware that puts
``scope["session"]`` (a dict, as Starlette's own SessionMiddleware does) in front of the
workspace.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import redis
from lease_parser.translate import translated

SESSION_HOURS = 12  # a working day and some: then sign in again
# A visitor who has not signed in keeps a record only while it holds something (a flash
# message, where to return after sign-in): short-lived, so anonymous traffic cannot fill Redis.
ANONYMOUS_SECONDS = 15 * 60
COOKIE = "lease_session"
RECORD_PREFIX = "lease:websession:"
BY_REVIEWER_PREFIX = "lease:websessions:"
# Keys in scope: the request's session id, and the id it had when it arrived.
SESSION_ID = "lease.session_id"
ARRIVED_AS = "lease.session_arrived_as"
_ID_LENGTH = 43  # secrets.token_urlsafe(32)


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def record_key(session_id: str) -> str:
    return RECORD_PREFIX + hashlib.sha256(session_id.encode()).hexdigest()


def csrf_for(secret: str, session_id: str) -> str:
    """The session's CSRF token: an HMAC of its id (the cookie carries the id only)."""
    mac = hmac.new(secret.encode(), b"csrf:" + session_id.encode(), hashlib.sha256)
    return mac.hexdigest()[:40]


@dataclass(frozen=True)
class SessionInfo:
    """A live session as an operator sees it (never its id)."""

    ref: str  # the first 12 hex digits of the record's key
    reviewer: str | None
    signed_in_at: str | None
    expires_in: int

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "reviewer": self.reviewer,
            "signed_in_at": self.signed_in_at,
            "expires_in": self.expires_in,
        }


class SessionStore:
    """Session records in Redis. Every method may raise ``BrokerUnavailable``."""

    def __init__(self, client: Callable[[], redis.Redis]) -> None:
        self._client = client

    def load(self, session_id: str) -> dict[str, Any] | None:
        with translated():
            raw = self._client().get(record_key(session_id))
        if raw is None:
            return None
        values = json.loads(raw).get("values")
        return values if isinstance(values, dict) else None

    def save(self, session_id: str, values: dict[str, Any], fresh: bool) -> None:
        """Write the record; a ``fresh`` one (a new id) starts its lifetime now, an
        existing one keeps the expiry it was given at sign-in."""
        reviewer = values.get("reviewer")
        key = record_key(session_id)
        ttl = SESSION_HOURS * 3600 if reviewer else ANONYMOUS_SECONDS
        body = json.dumps(
            {
                "values": values,
                "reviewer": reviewer,
                "signed_in_at": values.get("signed_in_at"),
            },
            default=str,
        )
        with translated(), self._client().pipeline(transaction=True) as pipe:
            if fresh:
                pipe.set(key, body, ex=ttl)
            else:
                pipe.set(key, body, keepttl=True)
                pipe.expire(key, ttl, nx=True)  # a record that had none (cannot happen) ends
            if reviewer:
                index = BY_REVIEWER_PREFIX + str(reviewer)
                pipe.sadd(index, key)
                pipe.expire(index, SESSION_HOURS * 3600)
            pipe.execute()

    def delete(self, session_id: str) -> None:
        with translated():
            self._client().delete(record_key(session_id))

    def revoke(self, reviewer: str | None = None) -> int:
        """End every session of ``reviewer`` (every session when None); how many ended."""
        r = self._client()
        with translated():
            if reviewer is None:
                keys = list(r.scan_iter(match=RECORD_PREFIX + "*", count=500))
                indexes = list(r.scan_iter(match=BY_REVIEWER_PREFIX + "*", count=500))
            else:
                index = BY_REVIEWER_PREFIX + reviewer
                keys = list(r.smembers(index))
                indexes = [index]
            ended = int(r.delete(*keys)) if keys else 0
            if indexes:
                r.delete(*indexes)
        return ended

    def sessions(self) -> list[SessionInfo]:
        """Every live session (signed in or not), longest-lived first."""
        r = self._client()
        found = []
        with translated():
            for key in r.scan_iter(match=RECORD_PREFIX + "*", count=500):
                raw, ttl = r.get(key), r.ttl(key)
                if raw is None:
                    continue
                record = json.loads(raw)
                name = key.decode() if isinstance(key, bytes) else str(key)
                found.append(
                    SessionInfo(
                        name.removeprefix(RECORD_PREFIX)[:12],
                        record.get("reviewer"),
                        record.get("signed_in_at"),
                        int(ttl),
                    )
                )
        return sorted(found, key=lambda s: -s.expires_in)


def rotate(scope: Scope) -> str:
    """Give the request's session a new id (at sign-in: an id seen before signing in, or
    planted by someone else, never becomes a signed-in session)."""
    scope[SESSION_ID] = new_session_id()
    return str(scope[SESSION_ID])


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _cookie_id(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            cookie: SimpleCookie = SimpleCookie()
            try:
                cookie.load(value.decode("latin-1"))
            except Exception:  # a malformed Cookie header: no session, not a 500
                return None
            morsel = cookie.get(COOKIE)
            if morsel is not None and len(morsel.value) == _ID_LENGTH:
                return morsel.value
    return None


class ServerSessions:
    """``scope["session"]`` from the record of the cookie's id; written back (or deleted)
    when the request changed it. Paths under ``skip`` (the API, probes, static files) get an
    empty session and no cookie. Redis unreachable → 503, never a session-less page."""

    def __init__(
        self,
        app: ASGIApp,
        store: Callable[[], SessionStore],
        https_only: bool,
        skip: tuple[str, ...] = ("/v1", "/healthz", "/readyz", "/static"),
    ) -> None:
        self.app = app
        self.store = store
        self.https_only = https_only
        self.skip = skip

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or str(scope["path"]).startswith(self.skip):
            if scope["type"] == "http":
                scope["session"] = {}
            await self.app(scope, receive, send)
            return
        arrived = _cookie_id(scope)
        try:
            values = await run_in_threadpool(self.store().load, arrived) if arrived else None
        except Exception:
            await _unavailable(send)
            return
        # An id without a record (a visitor on the sign-in form, a signed-out or revoked
        # cookie) is kept as an anonymous session: its CSRF token stays the same from the
        # form to the POST. It is never signed in under that id (``rotate``).
        scope["session"] = values if values is not None else {}
        scope[SESSION_ID] = arrived or new_session_id()
        scope[ARRIVED_AS] = arrived if values is not None else None
        before = json.dumps(scope["session"], sort_keys=True, default=str)
        failed = False

        async def send_with_session(message: Message) -> None:
            nonlocal failed
            if message["type"] == "http.response.start":
                try:
                    cookie = await run_in_threadpool(self._write, scope, before)
                except Exception:
                    failed = True
                    await _unavailable(send)
                    return
                if cookie is not None:
                    message["headers"] = [*message.get("headers", []), cookie]
            if not failed:
                await send(message)

        await self.app(scope, receive, send_with_session)

    def _write(self, scope: Scope, before: str) -> tuple[bytes, bytes] | None:
        """Persist what the request did to its session; the Set-Cookie header, if any."""
        values: dict[str, Any] = scope["session"]
        current, arrived = str(scope[SESSION_ID]), scope.get(ARRIVED_AS)
        store = self.store()
        if arrived is not None and (current != arrived or not values):
            store.delete(arrived)  # signed out, or rotated at sign-in: the old id is dead
        if not values:
            # Signed out (or never signed in): a fresh id for the next anonymous page.
            if arrived is not None:
                current = scope[SESSION_ID] = new_session_id()
            return self._cookie(current) if current != _cookie_id(scope) else None
        if current != arrived or json.dumps(values, sort_keys=True, default=str) != before:
            store.save(current, values, fresh=current != arrived)
        return self._cookie(current) if current != _cookie_id(scope) else None

    def _cookie(self, session_id: str) -> tuple[bytes, bytes]:
        parts = [
            f"{COOKIE}={session_id}",
            "Path=/",
            f"Max-Age={SESSION_HOURS * 3600}",
            "HttpOnly",
            "SameSite=Strict",
        ]
        if self.https_only:
            parts.append("Secure")
        return b"set-cookie", "; ".join(parts).encode("latin-1")


async def _unavailable(send: Send) -> None:
    body = (
        b"<!doctype html><title>503</title><p>The session store (Redis) cannot be reached: "
        b"try again in a minute.</p>"
    )
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", b"30"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
