"""Operator endpoints under ``/v1`` (the ``admin`` scope): the dead letters to triage, and the
workspace's sessions, listed and ended (``lease-parser sessions`` does the same from a shell).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from lease_parser.deadletter import list_dead_letters
from lease_parser.settings import Scope
from lease_parser.translate import translated
from lease_parser.web.auth import api_caller, requires
from lease_parser.web.context import context
from lease_parser.web.errors import ApiError, ErrorBody

router = APIRouter(prefix="/v1", tags=["operators"], dependencies=[Depends(api_caller)])
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (401, 403, 422, 429, 503)
}


class DeadLetterSummary(BaseModel):
    doc_hash: str
    doc_key: str
    reason: str
    attempts: int
    detail: str
    diagnosis: str
    at: float = Field(description="when it was dead-lettered (Unix time)")


class Sessions(BaseModel):
    sessions: list[dict[str, Any]]


class Ended(BaseModel):
    ended: int = Field(description="how many sessions were ended")


@router.get(
    "/dead-letters",
    response_model=list[DeadLetterSummary],
    responses=ERRORS,
    summary="Dead letters, oldest first (admin scope); requeue with `lease-parser dead requeue`",
)
@requires(Scope.ADMIN)
def dead_letters(
    request: Request,
    reason: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[dict[str, Any]]:
    with translated():
        letters = list_dead_letters(context(request).redis, limit, reason)
    return [
        {
            "doc_hash": letter.doc_hash,
            "doc_key": letter.doc_key,
            "reason": letter.reason,
            "attempts": letter.attempts,
            "detail": letter.detail,
            "diagnosis": letter.diagnosis,
            "at": letter.at,
        }
        for letter in letters
    ]


@router.get(
    "/sessions",
    response_model=Sessions,
    responses=ERRORS,
    summary="The workspace's live sessions (admin scope)",
)
@requires(Scope.ADMIN)
def sessions(request: Request) -> dict[str, Any]:
    found = context(request).sessions.sessions()
    return {"sessions": [s.to_json() for s in found]}


@router.delete(
    "/sessions",
    response_model=Ended,
    responses=ERRORS,
    summary="End a reviewer's sessions, or every session with all=true (admin scope)",
)
@requires(Scope.ADMIN)
def end_sessions(
    request: Request,
    reviewer: Annotated[str | None, Query(min_length=1, max_length=128)] = None,
    all: Annotated[bool, Query(description="every session, of every reviewer")] = False,
) -> dict[str, int]:
    if (reviewer is None) == (not all):
        raise ApiError(422, "invalid_request", "give reviewer=NAME or all=true (not both)")
    return {"ended": context(request).sessions.revoke(None if all else reviewer)}
