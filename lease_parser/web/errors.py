"""Our errors as HTTP answers, mapped once: a stable ``code`` and a message a client can act on.

Every API error body is ``{"code": "...", "message": "..."}`` (validation errors add
``errors``: where and what). ``HTTP_ERRORS`` has a line for every class in errors.py (a
test fails when one is missing), so a new error cannot reach a client as a bare 500.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from lease_parser import errors
from lease_parser.errors import ItemNotFound, NotClaimed, ReviewRefused


class ErrorBody(BaseModel):
    """The shape of every API error."""

    code: str = Field(description="stable, machine-readable")
    message: str


# (status, code); the most specific class wins (looked up along the MRO).
HTTP_ERRORS: dict[type[errors.LeaseParserError], tuple[int, str]] = {
    errors.LeaseParserError: (500, "internal_error"),
    errors.ConfigurationError: (500, "configuration_error"),
    errors.BrokerFullError: (503, "broker_full"),
    errors.DocumentNotFound: (404, "not_found"),
    errors.InvalidHash: (422, "invalid_hash"),
    errors.AmbiguousHash: (422, "ambiguous_hash"),
    errors.PermanentError: (422, "unprocessable"),
    errors.CorruptDocument: (422, "corrupt"),
    errors.EmptyDocument: (422, "empty"),
    errors.DocumentTooLarge: (413, "too_large"),
    errors.TooManyPages: (422, "too_many_pages"),
    errors.UnsupportedFormat: (415, "unsupported_format"),
    errors.ResourceBomb: (422, "resource_bomb"),
    errors.EncryptedDocument: (422, "needs_credential"),
    errors.HashMismatch: (409, "hash_mismatch"),
    errors.ObjectNotFound: (404, "object_not_found"),
    errors.StorageForbidden: (403, "storage_forbidden"),
    errors.MessageTooLarge: (500, "message_too_large"),
    errors.TransientError: (503, "unavailable"),
    errors.StorageUnavailable: (503, "storage_unavailable"),
    errors.BrokerUnavailable: (503, "broker_unavailable"),
    errors.OperationTimeout: (503, "timeout"),
    # The CLI's own (a read finding no store, the local system): a server reports them as
    # the unavailable part they are.
    errors.StoreNotFound: (503, "storage_unavailable"),
    errors.LocalSystemRunning: (500, "configuration_error"),
    errors.LocalSystemStopped: (503, "broker_unavailable"),
    errors.CallbackRefused: (422, "invalid_callback"),
    ReviewRefused: (409, "review_refused"),
    ItemNotFound: (404, "not_found"),
    NotClaimed: (403, "not_claimed"),
    errors.InvalidCorrection: (422, "invalid_values"),
    errors.UnlockRefused: (409, "unlock_refused"),
    errors.LinkRefused: (404, "not_found"),
}

# Answers a client should retry later: say when (backpressure is 503 + Retry-After).
RETRY_LATER = frozenset({503})


def status_and_code(exc: errors.LeaseParserError) -> tuple[int, str]:
    for cls in type(exc).__mro__:
        if cls in HTTP_ERRORS:
            status, code = HTTP_ERRORS[cls]
            if isinstance(exc, ReviewRefused) and exc.problems and status == 409:
                return 422, "invalid_values"
            return status, code
    return 500, "internal_error"


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def json_error(
    status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any
) -> JSONResponse:
    return JSONResponse(error_body(code, message, **extra), status_code=status, headers=headers)


def lease_error_response(exc: errors.LeaseParserError, retry_after: int) -> JSONResponse:
    status, code = status_and_code(exc)
    headers = {"Retry-After": str(retry_after)} if status in RETRY_LATER else None
    extra: dict[str, Any] = {}
    if isinstance(exc, ReviewRefused) and exc.problems:
        extra["problems"] = [p.model_dump() for p in exc.problems]
    if isinstance(exc, errors.AmbiguousHash):
        extra["candidates"] = exc.candidates
    return json_error(status, code, exc.message, headers, **extra)


HTTP_CODES = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "too_many_attempts",
}


def http_exception_response(exc: HTTPException) -> JSONResponse:
    code = getattr(exc, "code", None) or HTTP_CODES.get(exc.status_code, "error")
    return json_error(exc.status_code, code, str(exc.detail), dict(exc.headers or {}) or None)


def validation_response(exc: RequestValidationError) -> JSONResponse:
    """Where and what, never the input itself (it may hold a secret a client sent)."""
    problems = [
        {"loc": [str(part) for part in e.get("loc", ())], "message": str(e.get("msg", ""))}
        for e in exc.errors()
    ]
    message = "; ".join(f"{'.'.join(p['loc'])}: {p['message']}" for p in problems)
    return json_error(422, "invalid_request", message or "invalid request", errors=problems)


class ApiError(HTTPException):
    """An HTTP error with our stable ``code``."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(status_code=status, detail=message, headers=headers)
        self.code = code


JSON_PATHS = ("/v1", "/healthz", "/readyz")


def wants_json(request: Request) -> bool:
    """API paths (and the probes) answer JSON; the workspace answers pages."""
    return request.url.path.startswith(JSON_PATHS)
