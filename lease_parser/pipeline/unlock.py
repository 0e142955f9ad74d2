"""Unlocking an encrypted document: check its password, keep it encrypted, requeue it.

Only a document waiting for its password (``review`` / ``needs_credential``) is unlocked:
a low-confidence item a reviewer holds, or a dead letter, is not this command's to move.
The password is tried on the document itself before anything is stored (a wrong one is
refused and nothing changes), then stored encrypted (credentials.py) and the document
requeued; if the requeue fails the document's record is rolled back untouched and the
stored password deleted.
"""

from __future__ import annotations

import contextlib

from celery import Celery

from lease_parser.credentials import forget_password, store_password
from lease_parser.errors import DocumentNotFound, Reason, UnlockRefused
from lease_parser.objects import fetch
from lease_parser.parsing import password_opens
from lease_parser.pipeline.runtime import Runtime, runtime_for
from lease_parser.pipeline.submit import SubmitReceipt, requeue_document
from lease_parser.store import DocumentRow, DocumentState


def _document_bytes(runtime: Runtime, doc_key: str, doc_hash: str) -> bytes:
    got = fetch(runtime.objects, doc_key, runtime.settings.max_document_bytes)
    if got.sha256 != doc_hash:
        raise UnlockRefused(
            f"{doc_key} no longer holds document {doc_hash[:12]} (it was replaced after it "
            "was submitted): submit the current file instead",
            key=doc_key,
        )
    return got.data


def check_unlockable(row: DocumentRow | None, doc_hash: str) -> DocumentRow:
    """The document if it waits for its password; raises ``DocumentNotFound`` or
    ``UnlockRefused`` otherwise (the CLI asks this before it asks for a password)."""
    if row is None:
        raise DocumentNotFound(f"no document with hash {doc_hash}")
    if (row.state, row.reason) != (DocumentState.REVIEW, Reason.NEEDS_CREDENTIAL):
        where = f"{row.state} ({row.reason})" if row.reason else str(row.state)
        raise UnlockRefused(
            f"{doc_hash[:12]} is {where}: only a document waiting for its password "
            "(review, needs_credential) can be unlocked"
        )
    return row


def unlock_document(app: Celery, doc_hash: str, password: str) -> SubmitReceipt:
    """Check ``password`` against the document, store it encrypted, requeue the document.

    Raises ``UnlockRefused`` (nothing stored, nothing moved) when the document is not
    waiting for a credential or the password does not open it.
    """
    runtime = runtime_for(app.lease_settings)
    row = check_unlockable(runtime.store.document(doc_hash), doc_hash)
    if not password_opens(_document_bytes(runtime, row.doc_key, doc_hash), password):
        raise UnlockRefused(
            f"that password does not open {row.doc_key}: nothing was stored or requeued"
        )
    try:
        receipt = requeue_document(
            app,
            doc_hash,
            actor="unlock",
            states=(DocumentState.REVIEW,),
            reason=Reason.NEEDS_CREDENTIAL,
            before_publish=lambda rt: store_password(rt.objects, rt.settings, doc_hash, password),
        )
    except BaseException:
        with contextlib.suppress(Exception):  # the requeue's own error is the one to report
            forget_password(runtime.objects, doc_hash)
        raise
    if receipt is None:  # a reviewer decided it between our read and the requeue
        raise UnlockRefused(f"{doc_hash[:12]} left review while it was being unlocked")
    return receipt
