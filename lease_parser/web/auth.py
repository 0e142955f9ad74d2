"""Who is calling and what they may do: bearer tokens with scopes for the API, a server-side
session for the workspace, and a CSRF token on every form.

- Tokens come from ``LEASE_API_TOKENS`` (``name:token:scopes``): ``ingest`` submits
  documents, ``review`` signs in to the workspace, ``admin`` works dead letters and
  sessions. Any valid token reads documents.
- API: ``ApiAuth`` (ASGI middleware) checks ``Authorization: Bearer TOKEN`` and the
  route's scope *before the application runs*, so nothing of a refused request's body is
  read: none → 401 ``unauthenticated``; unknown → 401 ``invalid_token`` (both with
  ``WWW-Authenticate: Bearer``); known but without the scope → 403 ``missing_scope``
  naming it. Wrong tokens are throttled per address (throttle.py).
- Workspace: a reviewer signs in with a token that has ``review``; the session record
  (sessions.py) keeps their name and their token's fingerprint on the server, so removing
  the token, or its ``review`` scope, ends the session at the next request.

Tokens are never logged: uvicorn's access log has no headers, its query strings are
redacted (app.py), and no message here quotes one.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

import anyio
from fastapi import Depends, Request
from fastapi.security import HTTPBearer
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from lease_parser.settings import ApiToken
from lease_parser.settings import Scope as TokenScope
from lease_parser.web.context import WebContext, context
from lease_parser.web.errors import ApiError
from lease_parser.web.sessions import SESSION_ID, csrf_for, now_iso, rotate

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
CALLER = "lease.caller"  # the ApiToken ApiAuth found, in the request's scope
REQUIRED_SCOPE = "__lease_scope__"

# Documents the scheme in the OpenAPI schema; ApiAuth does the checking.
bearer_scheme = HTTPBearer(auto_error=False, description="A token from LEASE_API_TOKENS")

F = TypeVar("F", bound=Callable[..., Any])


def requires(scope: TokenScope) -> Callable[[F], F]:
    """Mark an API endpoint as needing ``scope`` (ApiAuth reads the mark)."""

    def mark(endpoint: F) -> F:
        setattr(endpoint, REQUIRED_SCOPE, scope)
        return endpoint

    return mark


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            kind, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if kind.lower() == "bearer" and token.strip() else None
    return None


def _required_scope(routes: Sequence[BaseRoute], scope: Scope) -> TokenScope | None:
    for route in routes:
        match, _child = route.matches(scope)
        if match is Match.FULL:
            found = getattr(getattr(route, "endpoint", None), REQUIRED_SCOPE, None)
            return found if isinstance(found, TokenScope) else None
    return None


class ApiAuth:
    """Authenticate and authorize every ``/v1`` request (but the schema) before the app
    runs: a refused upload is answered while its body is still unread (and the connection
    closed, since the body never will be)."""

    def __init__(
        self,
        app: ASGIApp,
        ctx: WebContext,
        routes: Sequence[BaseRoute],
        public: tuple[str, ...],
    ) -> None:
        self.app = app
        self.ctx = ctx
        self.routes = routes  # the API's routes, whose endpoints carry their scope
        self.public = public

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or not path.startswith("/v1") or path in self.public:
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is not None:
            await _answer(scope, receive, send, *refusal)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> tuple[int, dict[str, Any], dict[str, str]] | None:
        challenge = {"WWW-Authenticate": "Bearer"}
        token = _bearer(scope)
        if token is None:
            body = {"code": "unauthenticated", "message": "send Authorization: Bearer <token>"}
            return 401, body, challenge
        caller = self.ctx.caller(token)
        if caller is None:
            wait = self.ctx.throttle.failed(client_address(scope))
            if wait is not None:
                message = f"too many wrong tokens from this address: wait {wait} s"
                return (
                    429,
                    {"code": "too_many_attempts", "message": message},
                    {"Retry-After": str(wait)},
                )
            return 401, {"code": "invalid_token", "message": "the token is not valid"}, challenge
        needed = _required_scope(self.routes, scope)
        if needed is not None and not caller.allows(needed):
            has = "+".join(sorted(caller.scopes))
            message = f"this needs a token with the {needed} scope ({caller.name} has {has})"
            return 403, {"code": "missing_scope", "message": message, "scope": needed}, {}
        scope[CALLER] = caller
        return None


# After the refusal's headers, up to this much of an unread body is received and dropped
# (never kept) before the connection closes: closing a socket with unread data makes the
# kernel send a reset, and a client still sending (curl without Expect) may then lose the
# answer. nginx calls it a lingering close.
LINGER_BYTES = 1024 * 1024
LINGER_SECONDS = 1.0


async def _answer(
    scope: Scope,
    receive: Receive,
    send: Send,
    status: int,
    body: dict[str, Any],
    headers: dict[str, str],
) -> None:
    data = json.dumps(body).encode()
    raw = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(data)).encode()),
        (b"connection", b"close"),  # the request's body was not read
        *((k.lower().encode(), v.encode()) for k, v in headers.items()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await _linger(scope, receive)
    await send({"type": "http.response.body", "body": data})


async def _linger(scope: Scope, receive: Receive) -> None:
    request_headers = dict(scope.get("headers", []))
    if request_headers.get(b"expect", b"").lower() == b"100-continue":
        return  # the client waits for our word and sends nothing: it has it
    if request_headers.get(b"content-length", b"0") == b"0" and (
        b"transfer-encoding" not in request_headers
    ):
        return
    dropped = 0
    with anyio.move_on_after(LINGER_SECONDS):
        while dropped < LINGER_BYTES:
            message = await receive()
            if message["type"] != "http.request":
                return
            dropped += len(message.get("body", b""))
            if not message.get("more_body"):
                return


def api_caller(request: Request, _doc: Annotated[Any, Depends(bearer_scheme)] = None) -> str:
    """The name of the API caller (the audit trail's actor), as ApiAuth found it."""
    caller = request.scope.get(CALLER)
    if not isinstance(caller, ApiToken):  # ApiAuth runs before every /v1 route
        raise ApiError(401, "unauthenticated", "send Authorization: Bearer <token>")
    return caller.name


ApiCaller = Annotated[str, Depends(api_caller)]


class LoginRequired(Exception):
    """No (valid) session: the workspace sends the browser to the sign-in page."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path

    @property
    def location(self) -> str:
        return "/login?next=" + quote(self.path, safe="/")


class CsrfFailed(Exception):
    """A form or script request without the session's CSRF token."""


class SignInRefused(Exception):
    """A sign-in that cannot succeed now: a token without ``review``, or too many failures."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def reviewer(request: Request) -> str:
    """The signed-in reviewer, whose token is still configured and still has ``review``."""
    session = request.session
    name = session.get("reviewer")
    if not name or session.get("token_id") != context(request).token_id(str(name)):
        session.pop("reviewer", None)
        raise LoginRequired(return_to(request))
    return str(name)


def return_to(request: Request) -> str:
    """Where sign-in sends the browser back: the page itself, or for a form sent (POST)
    the page it was sent from (a GET of the form's address would be 405)."""
    path = request.url.path
    if request.method in ("GET", "HEAD"):
        return path
    parts = path.split("/")
    return "/".join(parts[:3]) if len(parts) > 2 and parts[1] == "items" else "/queue"


Reviewer = Annotated[str, Depends(reviewer)]


def sign_in(request: Request, token: str) -> str | None:
    """Start a session for the token's owner; None when the token is not valid. Raises
    ``SignInRefused`` for a valid token without ``review``, or an address that failed too
    often (then even a valid token waits: that is what makes guessing slow)."""
    ctx = context(request)
    address = client_address(request.scope)
    wait = ctx.throttle.retry_after(address)
    if wait is not None:
        raise SignInRefused(429, f"Too many failed sign-ins: try again in {wait} s.", wait)
    caller = ctx.caller(token.strip())
    if caller is None:
        ctx.throttle.failed(address)
        return None
    if not caller.allows(TokenScope.REVIEW):
        raise SignInRefused(
            403, "This token cannot sign in to the workspace: it has no review scope."
        )
    request.session.clear()
    rotate(request.scope)  # a new id (and so a new CSRF token) at each sign-in
    request.session.update(
        reviewer=caller.name, token_id=ctx.token_id(caller.name), signed_in_at=now_iso()
    )
    return caller.name


def csrf_token(request: Request) -> str:
    """The session's CSRF token (derived from its id: it is in no cookie)."""
    return csrf_for(context(request).csrf_key, str(request.scope[SESSION_ID]))


def check_csrf(request: Request, sent: str | None) -> None:
    expected = csrf_token(request)
    sent = sent or request.headers.get(CSRF_HEADER)
    if not sent or not hmac.compare_digest(expected, sent):
        raise CsrfFailed()


def safe_next(path: str | None) -> str:
    """Only a path on this site (never ``//host`` or a URL): no open redirect."""
    if path and path.startswith("/") and not path.startswith("//") and "\\" not in path:
        return path
    return "/queue"
