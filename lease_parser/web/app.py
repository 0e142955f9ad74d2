"""The web application: the HTTP API (``/v1``) and the reviewers' workspace, one ASGI app.

``create_app(settings)`` is the edge: it reads the tokens (refusing to start without any:
nobody could sign in), the session key, and wires middleware and error handlers. Errors
are mapped once (errors.py): JSON with a stable ``code`` under ``/v1``, a page elsewhere.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from lease_parser import __version__
from lease_parser.errors import ConfigurationError, LeaseParserError
from lease_parser.settings import ApiToken, Settings
from lease_parser.web import admin, api, health, workspace
from lease_parser.web.auth import ApiAuth, CsrfFailed, LoginRequired, SignInRefused
from lease_parser.web.context import WebContext
from lease_parser.web.errors import (
    error_body,
    http_exception_response,
    json_error,
    lease_error_response,
    status_and_code,
    validation_response,
    wants_json,
)
from lease_parser.web.middleware import (
    ENVELOPE_BYTES,
    BodyLimit,
    SecurityHeaders,
    redact_access_log,
)
from lease_parser.web.sessions import ServerSessions

SESSION_KEY_FILE = "web-session.key"
OPENAPI_URL = "/v1/openapi.json"
log = logging.getLogger("lease_parser.web")


def session_secret(settings: Settings) -> str:
    """``LEASE_WEB_SESSION_SECRET``, or a random key kept under the data directory (0600)
    so forms keep their CSRF tokens across a restart of a single server (replicas must
    share one: set the variable)."""
    configured = settings.web_session_secret.get_secret_value()
    if configured:
        return configured
    path = settings.data_dir / SESSION_KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


def create_app(settings: Settings) -> FastAPI:
    tokens = settings.api_token_table()
    if not tokens:
        raise ConfigurationError(
            "lease-parser serve needs LEASE_API_TOKENS=name:token:scopes[,...] (scopes "
            "ingest, review, admin joined by +): the API's callers and the reviewers sign "
            "in with these tokens (the name is recorded in the audit trail)"
        )
    _warn_legacy_tokens(tokens)
    app = FastAPI(
        title="lease_parser",
        version=__version__,
        description="Submit leases, follow them, read their abstractions. Authenticate with "
        "Authorization: Bearer <token> (LEASE_API_TOKENS); submitting needs the ingest "
        "scope, dead letters and sessions the admin scope, reading any token. Every error "
        'is {"code", "message"} with a stable code.',
        openapi_url=OPENAPI_URL,
        docs_url=None,
        redoc_url=None,
    )
    ctx = WebContext(settings, csrf_key=session_secret(settings))
    app.state.context = ctx
    app.include_router(health.router)
    app.include_router(api.router)
    app.include_router(admin.router)
    app.include_router(workspace.router)
    app.mount("/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static")
    _add_error_handlers(app, settings)
    # Outermost last: headers on every answer; authentication before anything reads a
    # body; the size limit; then the workspace's session.
    app.add_middleware(
        ServerSessions, store=lambda: ctx.sessions, https_only=settings.web_cookie_secure
    )
    app.add_middleware(
        BodyLimit,
        limit=settings.max_document_bytes + ENVELOPE_BYTES,
        upload_paths=(api.UPLOAD_PATH,),
    )
    app.add_middleware(
        ApiAuth, ctx=ctx, routes=[*api.router.routes, *admin.router.routes], public=(OPENAPI_URL,)
    )
    app.add_middleware(SecurityHeaders)
    redact_access_log()
    return app


def _warn_legacy_tokens(tokens: dict[str, ApiToken]) -> None:
    legacy = sorted(entry.name for entry in tokens.values() if entry.legacy)
    if legacy:
        log.warning(
            "LEASE_API_TOKENS: %s %s no scopes (name:token, deprecated) and may ingest and "
            "review as before; write name:token:scopes with scopes ingest, review, admin "
            "joined by + (e.g. %s:TOKEN:ingest)",
            ", ".join(legacy),
            "has" if len(legacy) == 1 else "have",
            legacy[0],
        )


def _add_error_handlers(app: FastAPI, settings: Settings) -> None:
    retry_after = settings.api_retry_after

    def lease_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, LeaseParserError)
        if wants_json(request):
            return lease_error_response(exc, retry_after)
        status, _code = status_and_code(exc)
        return _error_page(request, status, exc.message)

    app.add_exception_handler(LeaseParserError, lease_error)
    for exc_type, handler in _HANDLERS:
        app.add_exception_handler(exc_type, handler)


def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if wants_json(request):
        return http_exception_response(exc)
    return _error_page(request, exc.status_code, str(exc.detail))


def _invalid(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    if wants_json(request):
        return validation_response(exc)
    return _error_page(request, 422, bytes(validation_response(exc).body).decode())


def _login_required(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, LoginRequired)
    return RedirectResponse(exc.location, status_code=303)


def _sign_in_refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SignInRefused)
    request.session["flash"] = {"kind": "error", "text": exc.message}
    page = workspace.login_page(request)
    page.status_code = exc.status
    if exc.retry_after is not None:
        page.headers["Retry-After"] = str(exc.retry_after)
    return page


def _unexpected(request: Request, exc: Exception) -> Response:
    # Never a plain-text 500: the API's clients parse JSON. (The traceback is logged.)
    message = "an unexpected error; it is logged on the server"
    if wants_json(request):
        return json_error(500, "internal_error", message)
    return HTMLResponse(f"<!doctype html><title>500</title><p>{message}.</p>", 500)


def _csrf_failed(request: Request, exc: Exception) -> Response:
    message = "the form was sent without this session's token: reload the page and retry"
    if wants_json(request):
        return json_error(403, "csrf_failed", message)
    return _error_page(request, 403, message)


# Starlette picks the handler of the exception's nearest class, so the order is free.
_HANDLERS: tuple[tuple[type[Exception], Callable[[Request, Exception], Response]], ...] = (
    (HTTPException, _http_error),
    (RequestValidationError, _invalid),
    (LoginRequired, _login_required),
    (SignInRefused, _sign_in_refused),
    (Exception, _unexpected),
    (CsrfFailed, _csrf_failed),
)


def _error_page(request: Request, status: int, message: str) -> HTMLResponse:
    return workspace.templates.TemplateResponse(
        request,
        "error.html",
        {"status": status, "message": message, "reviewer": request.session.get("reviewer")},
        status_code=status,
    )


__all__ = ["create_app", "error_body", "session_secret"]
