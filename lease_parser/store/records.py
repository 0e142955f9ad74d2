"""One document's record as callers outside the pipeline read it: its status, its typed
abstraction, and the JSON the HTTP API returns. Reads only the store.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from lease_parser.corrections import abstraction_from_fields
from lease_parser.errors import DocumentNotFound, InvalidHash
from lease_parser.model import LeaseAbstraction
from lease_parser.store.database import DocumentRow, DocumentState, Store
from lease_parser.store.export import document_json, sources_of

_CONTENT_HASH = re.compile(r"[0-9a-f]{64}")


def content_hash(text: str) -> str:
    """A SHA-256 hex digest, lower-cased; anything else is ``InvalidHash``."""
    value = text.strip().lower()
    if not _CONTENT_HASH.fullmatch(value):
        raise InvalidHash(
            "a content hash is the 64 hexadecimal characters of the document's SHA-256",
            doc_hash=text[:80],
        )
    return value


@dataclass(frozen=True)
class DocumentStatus:
    """Where a document stands: ``pending`` | ``committed`` | ``review`` | ``dead``."""

    doc_hash: str
    doc_key: str
    state: str
    reason: str | None
    detail: str | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def find_document(store: Store, doc_hash: str) -> DocumentRow:
    row = store.document(content_hash(doc_hash))
    if row is None:
        raise DocumentNotFound(f"no document with hash {doc_hash}", doc_hash=doc_hash)
    return row


def document_status(store: Store, doc_hash: str) -> DocumentStatus:
    row = find_document(store, doc_hash)
    return DocumentStatus(row.doc_hash, row.doc_key, row.state, row.reason, row.detail)


def committed_abstraction(store: Store, doc_hash: str) -> LeaseAbstraction | None:
    """The committed, typed abstraction (values with confidence and provenance); None while
    the document is not committed (pending, in review, dead)."""
    row = find_document(store, doc_hash)
    if row.state != DocumentState.COMMITTED:
        return None
    abstraction, _invalid = abstraction_from_fields(row.fields or {}, row.kind)
    return abstraction


def api_document(row: DocumentRow) -> dict[str, Any]:
    """The record the API returns: state, reason, and each field with its value,
    confidence, provenance and (once committed) source."""
    record = document_json(row)
    sources = sources_of(row)
    record["fields"] = {
        name: {**field, "source": sources.get(name)} for name, field in record["fields"].items()
    }
    del record["field_sources"]
    return record
