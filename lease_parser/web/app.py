"""The web application: the HTTP API (``/v1``) and the reviewers' workspace, one ASGI app.

``create_app(settings)`` is the edge: it reads the tokens (refusing to start without any:
nobody could sign in), the session key, and wires middleware and error handlers. Errors
are mapped once (errors.py): JSON with a stable ``code`` under ``/v1``, a page elsewhere.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware

from lease_parser import __version__
from lease_parser.errors import ConfigurationError, LeaseParserError
from lease_parser.settings import Settings
from lease_parser.web import api, workspace
from lease_parser.web.auth import CsrfFailed, LoginRequired
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
from lease_parser.web.middleware import ENVELOPE_BYTES, BodyLimit, SecurityHeaders

SESSION_HOURS = 12  # a working day and some: then sign in again
SESSION_KEY_FILE = "web-session.key"


def session_secret(settings: Settings) -> str:
    """``LEASE_WEB_SESSION_SECRET``, or a random key kept under the data directory (0600)
    so sessions survive a restart of a single server."""
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
    if not settings.api_token_names():
        raise ConfigurationError(
            "lease-parser serve needs LEASE_API_TOKENS=name:token[,name2:token2]: the API's "
            "callers and the reviewers sign in with these tokens (the name is recorded in "
            "the audit trail)"
        )
    app = FastAPI(
        title="lease_parser",
        version=__version__,
        description="Submit leases, follow them, read their abstractions. Authenticate with "
        "Authorization: Bearer <token> (LEASE_API_TOKENS).",
        openapi_url="/v1/openapi.json",
        docs_url=None,
        redoc_url=None,
    )
    app.state.context = WebContext(settings)
    app.include_router(api.router)
    app.include_router(workspace.router)
    app.mount("/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static")
    _add_error_handlers(app, settings)
    app.add_middleware(
        SessionMiddleware,
        secret_key=session_secret(settings),
        session_cookie="lease_session",
        max_age=SESSION_HOURS * 3600,
        same_site="strict",
        https_only=settings.web_cookie_secure,
    )
    app.add_middleware(BodyLimit, limit=settings.max_document_bytes + ENVELOPE_BYTES)
    app.add_middleware(SecurityHeaders)
    return app


def _add_error_handlers(app: FastAPI, settings: Settings) -> None:
    retry_after = settings.api_retry_after

    @app.exception_handler(LeaseParserError)
    def lease_error(request: Request, exc: LeaseParserError) -> Response:
        if wants_json(request):
            return lease_error_response(exc, retry_after)
        status, _code = status_and_code(exc)
        return _error_page(request, status, exc.message)

    @app.exception_handler(HTTPException)
    def http_error(request: Request, exc: HTTPException) -> Response:
        if wants_json(request):
            return http_exception_response(exc)
        return _error_page(request, exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    def invalid(request: Request, exc: RequestValidationError) -> Response:
        if wants_json(request):
            return validation_response(exc)
        return _error_page(request, 422, bytes(validation_response(exc).body).decode())

    @app.exception_handler(LoginRequired)
    def login_required(request: Request, exc: LoginRequired) -> Response:
        return RedirectResponse(exc.location, status_code=303)

    @app.exception_handler(CsrfFailed)
    def csrf_failed(request: Request, exc: CsrfFailed) -> Response:
        message = "the form was sent without this session's token: reload the page and retry"
        if wants_json(request):
            return json_error(403, "csrf_failed", message)
        return _error_page(request, 403, message)


def _error_page(request: Request, status: int, message: str) -> HTMLResponse:
    return workspace.templates.TemplateResponse(
        request,
        "error.html",
        {"status": status, "message": message, "reviewer": request.session.get("reviewer")},
        status_code=status,
    )


__all__ = ["create_app", "error_body", "session_secret"]
