"""Who is calling: bearer tokens for the API, a signed session cookie for the workspace, and a
CSRF token on every form.

- API: ``Authorization: Bearer TOKEN`` with a token from ``LEASE_API_TOKENS``. None → 401
  ``unauthenticated``; an unknown token → 401 ``invalid_token`` (both with
  ``WWW-Authenticate: Bearer``). 403 is kept for a caller who is known but not allowed
  (a key outside the object store, an item someone else holds).
- Workspace: a reviewer signs in with their token once; the session cookie (HttpOnly,
  SameSite=Strict, signed, Secure with ``LEASE_WEB_COOKIE_SECURE``) holds their name, a
  fingerprint of the token (removing a token ends its sessions) and a CSRF token that
  every form and script request must send back.

Tokens are never logged: uvicorn's access log has no headers, and no message here quotes
one.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Annotated
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from lease_parser.web.context import context
from lease_parser.web.errors import ApiError

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"

_bearer = HTTPBearer(auto_error=False, description="A token from LEASE_API_TOKENS")


def api_caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The name of the API caller (the audit trail's actor)."""
    challenge = {"WWW-Authenticate": "Bearer"}
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise ApiError(
            401, "unauthenticated", "send Authorization: Bearer <token>", headers=challenge
        )
    name = context(request).caller(credentials.credentials)
    if name is None:
        raise ApiError(401, "invalid_token", "the token is not valid", headers=challenge)
    return name


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


def reviewer(request: Request) -> str:
    """The signed-in reviewer, whose token is still configured."""
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
    """Start a session for the token's owner; None when the token is not valid."""
    ctx = context(request)
    name = ctx.caller(token.strip())
    if name is None:
        return None
    request.session.clear()  # a fresh session (and CSRF token) at each sign-in
    request.session.update(reviewer=name, token_id=ctx.token_id(name))
    csrf_token(request)
    return name


def csrf_token(request: Request) -> str:
    """The session's CSRF token (made on first use)."""
    token = request.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        request.session["csrf"] = token
    return str(token)


def check_csrf(request: Request, sent: str | None) -> None:
    expected = request.session.get("csrf")
    sent = sent or request.headers.get(CSRF_HEADER)
    if not expected or not sent or not hmac.compare_digest(str(expected), sent):
        raise CsrfFailed()


def safe_next(path: str | None) -> str:
    """Only a path on this site (never ``//host`` or a URL): no open redirect."""
    if path and path.startswith("/") and not path.startswith("//") and "\\" not in path:
        return path
    return "/queue"
