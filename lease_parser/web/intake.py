"""What a submission must be before anything is recorded: a key every object store can hold,
a format some parser reads, and (api.py) an object that is the content its hash names.
Refused here with a 4xx that says why, instead of a 503 from the store quoting its own path
or a document that dies in the pipeline later."""

from __future__ import annotations

import hashlib

from lease_parser.errors import DocumentTooLarge, EncryptedDocument
from lease_parser.parsing.detect import detect_format
from lease_parser.web.context import WebContext
from lease_parser.web.errors import ApiError

# S3's limit on a key, and a file name's (NAME_MAX) on the file store.
MAX_KEY_BYTES = 1024
MAX_SEGMENT_BYTES = 255
# Enough of an object to tell its format (an encrypted DOCX says so within 64 KB).
HEAD_BYTES = 64 * 1024


def check_key(key: str) -> str:
    """An object key every store can hold: 422 ``invalid_key`` naming the limit otherwise."""
    try:
        raw = key.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\\ud800" in the JSON)
        raise ApiError(422, "invalid_key", "an object key must be valid UTF-8") from None
    if any(ord(c) < 32 or ord(c) == 127 for c in key):
        raise ApiError(422, "invalid_key", "an object key cannot hold control characters")
    if len(raw) > MAX_KEY_BYTES:
        raise ApiError(
            422, "invalid_key", f"the key is {len(raw)} bytes; the limit is {MAX_KEY_BYTES}"
        )
    if any(len(part) > MAX_SEGMENT_BYTES for part in raw.split(b"/")):
        raise ApiError(
            422,
            "invalid_key",
            f"a part of the key between slashes is over {MAX_SEGMENT_BYTES} bytes",
        )
    return key


def check_format(data: bytes) -> None:
    """415 ``unsupported_format`` (or 422 ``empty``) now, not a dead document later. An
    encrypted document is accepted: it waits in review for its password."""
    try:
        detect_format(data)
    except EncryptedDocument:
        return


def read_object(ctx: WebContext, key: str) -> tuple[str, bytes]:
    """The object's SHA-256 (streamed) and its first bytes, after its size is checked."""
    size = ctx.objects.size(key)  # 404 for a missing key, before anything is recorded
    if size > ctx.settings.max_document_bytes:
        raise DocumentTooLarge(f"{size} bytes, limit {ctx.settings.max_document_bytes}", key=key)
    digest, head = hashlib.sha256(), b""
    for chunk in ctx.objects.iter_chunks(key):
        digest.update(chunk)
        if len(head) < HEAD_BYTES:
            head += chunk[: HEAD_BYTES - len(head)]
    return digest.hexdigest(), head
