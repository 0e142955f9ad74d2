"""ASGI middleware: a request-size limit checked before the body is read, security headers
on every response, and an access log with no secrets in its query strings."""

from __future__ import annotations

import json
import logging
import re

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# A multipart upload's envelope (boundaries, part headers) on top of the document itself.
ENVELOPE_BYTES = 64 * 1024


# Every body but an upload's: a JSON submission, a workspace form. A sign-in form (read
# before anyone is known) must not be a way to make the server take in 50 MB.
SMALL_BODY_BYTES = 1024 * 1024


def _too_large_message(limit: int) -> str:
    if limit <= SMALL_BODY_BYTES:
        return f"the request body is over {limit} bytes (only uploads may be larger)"
    return (
        f"the request body is over {limit} bytes "
        "(LEASE_MAX_DOCUMENT_BYTES plus the multipart envelope)"
    )


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` mid-body. An HTTPException, so the framework's body parsing
    passes it on as it is (it turns any other error there into a 400)."""

    code = "too_large"

    def __init__(self, limit: int) -> None:
        super().__init__(413, _too_large_message(limit))


class BodyLimit:
    """Refuse a body over ``limit`` bytes (``SMALL_BODY_BYTES`` but on ``upload_paths``) with
    413: at once from Content-Length, or as soon as a streamed (chunked) body passes it.
    Nothing over the limit is buffered."""

    def __init__(self, app: ASGIApp, limit: int, upload_paths: tuple[str, ...] = ()) -> None:
        self.app = app
        self.upload_limit = limit
        self.upload_paths = upload_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        upload = not self.upload_paths or scope["path"] in self.upload_paths
        limit = self.upload_limit if upload else min(self.upload_limit, SMALL_BODY_BYTES)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _too_large(send, limit)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except BodyTooLarge:
            if not started:
                await _too_large(send, limit)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"code": "too_large", "message": _too_large_message(limit)}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# Scripts and styles from this site only (no inline script can run, so a lease's
# "<script>" could not execute even if it escaped escaping); no framing; no referrer leaks.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
        b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


# Query parameters whose values never reach the access log: a client that puts its token
# in the URL (``?token=``, which the API does not accept) must not leave it in the logs.
SECRET_PARAMETER = re.compile(
    r"(?i)([?&;][^=&;?/]*(?:token|secret|password|passwd|auth|key|signature|credential)"
    r"[^=&;?/]*=)[^&;]*"
)


def redact_query(path: str) -> str:
    return SECRET_PARAMETER.sub(r"\1***", path)


class RedactQuery(logging.Filter):
    """uvicorn's access log line is ``client - "METHOD PATH HTTP/x" status``: the path's
    secret-looking parameters are masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redact_query(args[2]), *args[3:])
        return True


def redact_access_log() -> None:
    """Install ``RedactQuery`` on uvicorn's access logger (once; it survives uvicorn's own
    logging set-up, which replaces handlers, not filters)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactQuery) for f in access.filters):
        access.addFilter(RedactQuery())
