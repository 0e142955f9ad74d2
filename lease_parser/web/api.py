"""The HTTP API for ingestion services, under ``/v1`` (schema: ``/v1/openapi.json``).

Submission is idempotent on content: a document whose hash the store already knows is
never submitted again; the answer is its record with ``"duplicate": true`` and its real
state (so content already committed never reads "pending"). A first submission answers
``202`` with ``"state": "pending"``; poll ``GET /v1/documents/{hash}`` (a unique prefix of
8+ hex digits will do, as on the command line).

A hash is a fact only once the bytes have been read: a submission by key that claims a
hash is checked against the object before anything is recorded (409 ``hash_mismatch``
otherwise), so no caller can make a record for content they do not have. Submitting
needs a token with the ``ingest`` scope (auth.py); reading, any token.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from lease_parser.errors import HashMismatch
from lease_parser.hashes import resolve_prefix
from lease_parser.objects import fetch
from lease_parser.parsing.base import SourceFormat
from lease_parser.parsing.detect import detect_format
from lease_parser.pipeline.submit import submit_document
from lease_parser.settings import Scope
from lease_parser.store import (
    DocumentRow,
    DocumentState,
    api_document,
    as_utc,
    content_hash,
    find_document,
    stands_for_content,
)
from lease_parser.web.auth import ApiCaller, api_caller, requires
from lease_parser.web.context import WebContext, context
from lease_parser.web.errors import ApiError, ErrorBody
from lease_parser.web.intake import (
    MAX_KEY_BYTES,
    MAX_SEGMENT_BYTES,
    check_format,
    check_key,
    read_object,
)
from lease_parser.web.uploads import read_upload
from lease_parser.webhooks import check_callback_url, subscribe

router = APIRouter(prefix="/v1", tags=["documents"], dependencies=[Depends(api_caller)])

MAX_PAGE = 500
# A cursor holds a time and a row id: a database integer.
MAX_ROW_ID = 2**63 - 1


class SubmitRequest(BaseModel):
    key: str = Field(
        min_length=1,
        max_length=MAX_KEY_BYTES,
        description=f"object key in LEASE_OBJECT_STORE (at most {MAX_KEY_BYTES} bytes, "
        f"{MAX_SEGMENT_BYTES} between slashes)",
    )
    hash: str | None = Field(
        default=None,
        max_length=128,
        description="SHA-256 of the content (hex); checked against the object (409 when it "
        "differs), computed from it if omitted",
    )
    callback_url: str | None = Field(
        default=None,
        max_length=2048,
        description="POSTed the document's state once it is final, signed "
        "(X-Lease-Signature; see docs/webhooks.md)",
    )


class Submitted(BaseModel):
    doc_hash: str
    doc_key: str
    state: str = Field(description="pending for a new submission, else the document's state")
    reason: str | None = None
    duplicate: bool = Field(description="true when this content was submitted before")
    task_id: str | None = Field(default=None, description="set for a new submission")


class DocumentRecord(BaseModel):
    """State, reason, and the abstraction: each field's value, confidence, provenance and
    (once committed) source: pipeline, confirmed or corrected."""

    doc_hash: str
    doc_key: str
    key_version: int
    state: str
    reason: str | None
    detail: str | None
    kind: str | None
    confidence: float | None
    source: str | None
    reviewer: str | None
    pages: int | None
    submitted_at: str | None
    finished_at: str | None
    reviewed_at: str | None
    state_changed_at: str | None
    problems: list[dict[str, Any]]
    corrections: dict[str, Any]
    fields: dict[str, Any]


class DocumentPage(BaseModel):
    documents: list[DocumentRecord]
    next_cursor: str | None = Field(
        description="pass as cursor= for the next page; null at the end"
    )


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 415, 422, 429, 503)
}


def _submitted(row: DocumentRow) -> JSONResponse:
    body = Submitted(
        doc_hash=row.doc_hash,
        doc_key=row.doc_key,
        state=row.state,
        reason=row.reason,
        duplicate=True,
    )
    return JSONResponse(body.model_dump(), status_code=200, headers=_location(row.doc_hash))


def _location(doc_hash: str) -> dict[str, str]:
    return {"Location": f"/v1/documents/{doc_hash}"}


def _known(ctx: WebContext, doc_hash: str) -> DocumentRow | None:
    """The record that stands for this content (a claimed-hash mismatch does not)."""
    row = ctx.store.document(doc_hash)
    return row if row is not None and stands_for_content(row) else None


def _submit(ctx: WebContext, key: str, doc_hash: str, actor: str) -> JSONResponse:
    known = _known(ctx, doc_hash)
    if known is not None:
        return _submitted(known)
    # join_pending=False: of two racing submissions of the same new bytes one is queued,
    # the other answers duplicate (one task id, one "submitted" event).
    receipt = submit_document(ctx.celery, key, doc_hash, actor=actor, join_pending=False)
    if not receipt.queued:
        row = ctx.store.document(doc_hash)
        assert row is not None
        return _submitted(row)
    body = Submitted(
        doc_hash=receipt.doc_hash,
        doc_key=receipt.doc_key,
        state=receipt.state,
        duplicate=False,
        task_id=receipt.task_id,
    )
    return JSONResponse(body.model_dump(), status_code=202, headers=_location(receipt.doc_hash))


@router.post(
    "/documents",
    status_code=202,
    response_model=Submitted,
    responses={200: {"model": Submitted, "description": "already submitted"}, **ERRORS},
    summary="Submit an object already in the object store (ingest scope)",
)
@requires(Scope.INGEST)
def submit_key(body: SubmitRequest, request: Request, caller: ApiCaller) -> JSONResponse:
    ctx = context(request)
    if body.callback_url:
        check_callback_url(ctx.settings, body.callback_url)  # before anything is recorded
    key = check_key(body.key)
    claimed = content_hash(body.hash) if body.hash is not None else None
    doc_hash, head = read_object(ctx, key)
    if claimed is not None and claimed != doc_hash:
        # Recorded under the claim, this would be a dead record for content the caller
        # never showed us, and the real bytes would be refused later as a duplicate.
        raise HashMismatch(
            "the object under this key is not the content that hash names; nothing was "
            "recorded (submit the key without a hash, or upload the bytes)",
            key=key,
        )
    check_format(head)
    answer = _submit(ctx, key, doc_hash, caller)
    _subscribe(ctx, request, doc_hash, body.callback_url, caller)
    return answer


def _subscribe(
    ctx: WebContext, request: Request, doc_hash: str, url: str | None, caller: str
) -> None:
    """The webhook of a submission (its callback_url, else LEASE_WEBHOOK_URL), if any."""
    document_url = str(request.url_for("get_document", doc_hash=doc_hash))
    subscribe(ctx.store, ctx.settings, doc_hash, url, document_url, caller)


_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def upload_key(doc_hash: str, filename: str | None) -> str:
    """``uploads/HASH[/name]``: content-addressed; the client's file name (cleaned, never a
    path) kept for the people who read the key."""
    name = _SAFE_NAME.sub("_", (filename or "").rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
    name = name.strip("._")[:100]
    return f"uploads/{doc_hash}/{name}" if name else f"uploads/{doc_hash}"


UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {
                            "type": "string",
                            "format": "binary",
                            "description": "the lease: PDF, DOCX, PNG, JPEG or TIFF",
                        }
                    },
                }
            }
        },
    }
}


UPLOAD_PATH = "/v1/documents/upload"


@router.post(
    UPLOAD_PATH.removeprefix("/v1"),
    status_code=202,
    response_model=Submitted,
    responses={200: {"model": Submitted, "description": "already submitted"}, **ERRORS},
    summary="Store the bytes under their content hash and submit them (ingest scope)",
    openapi_extra=UPLOAD_BODY,
)
@requires(Scope.INGEST)
async def submit_upload(request: Request, caller: ApiCaller) -> JSONResponse:
    ctx = context(request)
    upload = await read_upload(request, ctx.settings.max_document_bytes)
    return await run_in_threadpool(
        _store_and_submit, ctx, request, upload.filename, upload.data, caller
    )


def _store_and_submit(
    ctx: WebContext, request: Request, filename: str | None, data: bytes, caller: str
) -> JSONResponse:
    check_format(data)  # 422 empty for zero bytes, 415 for what no parser reads
    doc_hash = hashlib.sha256(data).hexdigest()
    known = _known(ctx, doc_hash)
    if known is not None:
        return _submitted(known)
    key = upload_key(doc_hash, filename)
    ctx.objects.put(key, data)
    answer = _submit(ctx, key, doc_hash, caller)
    _subscribe(ctx, request, doc_hash, None, caller)
    return answer


def find_by_prefix(ctx: WebContext, text: str) -> DocumentRow:
    """The document a full hash or a unique prefix (8+ hex digits) names."""
    return find_document(ctx.store, resolve_prefix(text, ctx.store.hashes_starting_with))


@router.get(
    "/documents/{doc_hash}",
    response_model=DocumentRecord,
    responses=ERRORS,
    summary="A document's state, reason and abstraction (by hash or unique 8+ digit prefix)",
)
def get_document(doc_hash: str, request: Request) -> dict[str, Any]:
    return api_document(find_by_prefix(context(request), doc_hash))


def _cursor(row: DocumentRow) -> str:
    raw = f"{as_utc(row.state_changed_at).isoformat()}|{row.id}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _after(cursor: str | None) -> tuple[dt.datetime, int] | None:
    if not cursor:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        when, row_id = raw.rsplit("|", 1)
        after = as_utc(dt.datetime.fromisoformat(when)), int(row_id)
        if not 0 <= after[1] <= MAX_ROW_ID:
            raise ValueError(row_id)
        return after
    except (ValueError, OverflowError, binascii.Error, UnicodeDecodeError):
        raise ApiError(422, "invalid_cursor", "cursor is not one this API gave out") from None


def _since(text: str | None) -> dt.datetime | None:
    if not text:
        return None
    try:
        return as_utc(dt.datetime.fromisoformat(text))
    except (ValueError, OverflowError):  # 9999-12-31T23:59:59-05:00 is past year 9999 in UTC
        raise ApiError(
            422,
            "invalid_request",
            f"since={text[:40]!r} is not an ISO date or datetime between years 1 and 9999 UTC",
        ) from None


@router.get(
    "/documents",
    response_model=DocumentPage,
    responses=ERRORS,
    summary="Documents by when they entered their state, oldest first, a page at a time",
)
def list_documents(
    request: Request,
    state: Annotated[list[DocumentState] | None, Query(description="repeatable")] = None,
    since: Annotated[
        str | None, Query(max_length=64, description="ISO date or datetime (UTC)")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    cursor: Annotated[
        str | None, Query(max_length=512, description="next_cursor of the previous page")
    ] = None,
) -> dict[str, Any]:
    """A document that changes state later appears again, at its new place: polling with
    the last cursor (or ``since``) is a feed of changes."""
    rows = list(
        context(request).store.documents(
            states=[s.value for s in state or []],
            since=_since(since),
            after=_after(cursor),
            limit=limit + 1,
        )
    )
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "documents": [api_document(row) for row in rows],
        "next_cursor": _cursor(rows[-1]) if more else None,
    }


CONTENT_TYPES = {
    SourceFormat.PDF: "application/pdf",
    SourceFormat.DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}
IMAGE_TYPES = {
    b"\x89PNG": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"II*\x00": "image/tiff",
    b"MM\x00*": "image/tiff",
}


def content_type(data: bytes) -> str:
    """From the bytes, like the parser (never the key's name)."""
    for magic, kind in IMAGE_TYPES.items():
        if data.startswith(magic):
            return kind
    try:
        return CONTENT_TYPES.get(detect_format(data), "application/octet-stream")
    except Exception:  # an unsupported or empty file is still the caller's original
        return "application/octet-stream"


def source_response(ctx: WebContext, row: DocumentRow) -> Response:
    """The original bytes, checked against the hash, with their content type."""
    fetched = fetch(ctx.objects, row.doc_key, ctx.settings.max_document_bytes)
    if fetched.sha256 != row.doc_hash:
        raise ApiError(
            409, "hash_mismatch", "the object under this key changed after it was submitted"
        )
    kind = content_type(fetched.data)
    name = _SAFE_NAME.sub("_", row.doc_key.rsplit("/", 1)[-1]) or row.doc_hash
    inline = kind == "application/pdf" or kind.startswith("image/")
    disposition = f'{"inline" if inline else "attachment"}; filename="{name}"'
    return Response(
        fetched.data,
        media_type=kind,
        headers={
            "Content-Disposition": disposition,
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "private, max-age=86400, immutable",
        },
    )


@router.get(
    "/documents/{doc_hash}/source",
    responses={200: {"content": {"application/pdf": {}}}, **ERRORS},
    response_class=Response,
    summary="The original bytes, with their content type",
)
def get_source(doc_hash: str, request: Request) -> Response:
    ctx = context(request)
    return source_response(ctx, find_by_prefix(ctx, doc_hash))


__all__ = ["find_by_prefix", "router", "source_response", "upload_key"]
