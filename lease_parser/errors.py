"""The error taxonomy. What the caller must do decides the branch (reason in brackets)::

    LeaseParserError
    ├── PermanentError          never retried; dead-lettered (or reviewed)
    │   ├── CorruptDocument     unparseable: truncated, broken xref, bad zip  [corrupt]
    │   ├── EmptyDocument       zero bytes, no pages, no text                 [empty]
    │   ├── DocumentTooLarge    over max bytes, from metadata before download [too_large]
    │   ├── TooManyPages        over max pages                                [too_many_pages]
    │   ├── UnsupportedFormat   .doc, RTF, HTML, unknown magic bytes          [unsupported_format]
    │   ├── ResourceBomb        zip or pixel bomb, refused before inflating   [resource_bomb]
    │   ├── EncryptedDocument   needs a password: goes to *review*            [needs_credential]
    │   ├── HashMismatch        bytes differ from the submitted hash          [hash_mismatch]
    │   ├── ObjectNotFound      the key does not exist (404 / NoSuchKey)      [not_found]
    │   ├── StorageForbidden    access denied / key escapes the store root    [storage_forbidden]
    │   └── MessageTooLarge     a publish over the 50 KB cap (a bug)          [message_too_large]
    ├── TransientError          retried with backoff, then dead-lettered      [retries_exhausted]
    │   ├── StorageUnavailable  object store 5xx, throttling, connection refused
    │   ├── BrokerUnavailable   Redis connection errors
    │   ├── LocalSystemStopped  the data dir's own broker is not running (make serve starts it)
    │   └── OperationTimeout    a bounded wait ran out (Tesseract, network)
    ├── BrokerFullError         Redis at maxmemory (noeviction): submit refused   [broker_full]
    ├── ConfigurationError      bad settings; raised at start-up with how to fix it [configuration]
    ├── DocumentNotFound        no document with that content hash (or prefix) in the store
    │   ├── ItemNotFound        … that a review action named (also a ReviewRefused)
    │   └── LinkRefused         a link naming no amendment, or no lease, in the store
    ├── StoreNotFound           a command that reads found no store at LEASE_STORE_URL
    ├── LocalSystemRunning      run / serve --local on a data dir whose system runs already
    ├── CallbackRefused         a submission's callback_url the server will not call
    ├── InvalidHash             not a SHA-256 hex digest or a usable prefix (refused at once)
    ├── AmbiguousHash           a prefix several documents' hashes start with
    ├── ReviewRefused           a review action that cannot be done as asked (its problems say why)
    │   ├── ItemNotFound        (above)
    │   └── NotClaimed          the reviewer holds no live claim on the item
    ├── InvalidCorrection       a reviewer's value the model refuses (also a ValueError)
    └── UnlockRefused           an unlock in the wrong state or with the wrong password

Each class carries structured context (key, page, detail) and a ``reason`` from ``Reason``.
Library exceptions are translated once, at the adapter that calls the library (storage,
parsing, store), and re-raised from the original; what can still escape to a boundary (a
Redis or kombu error from the broker) is translated by ``lease_parser.translate``, the one
table both the tasks' failure path and the CLI use. What each class means for a document
(retry, review, dead) is decided once, in ``lease_parser.outcomes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lease_parser.model import FieldProblem


class Reason(StrEnum):
    """Why a document ended where it did. Stored, exported, and used as a metric label."""

    LOW_CONFIDENCE = "low_confidence"
    SCHEMA_INVALID = "schema_invalid"
    NEEDS_CREDENTIAL = "needs_credential"
    NOT_A_LEASE = "not_a_lease"
    CORRUPT = "corrupt"
    EMPTY = "empty"
    TOO_LARGE = "too_large"
    TOO_MANY_PAGES = "too_many_pages"
    UNSUPPORTED_FORMAT = "unsupported_format"
    RESOURCE_BOMB = "resource_bomb"
    HASH_MISMATCH = "hash_mismatch"
    NOT_FOUND = "not_found"
    STORAGE_FORBIDDEN = "storage_forbidden"
    MESSAGE_TOO_LARGE = "message_too_large"
    CONFIGURATION = "configuration"
    BROKER_FULL = "broker_full"
    RETRIES_EXHAUSTED = "retries_exhausted"
    TIME_LIMIT = "time_limit"
    WORKER_LOST = "worker_lost"
    REJECTED_BY_REVIEWER = "rejected_by_reviewer"
    # A person's action (review, correction, unlock) that cannot be done as asked; it ends
    # no document, so no dead letter carries it.
    REFUSED = "refused"
    # A caller's lookup by a hash that is malformed or matches several documents.
    BAD_HASH = "bad_hash"
    # A submission's callback_url the server refuses to call.
    BAD_CALLBACK = "bad_callback"
    INTERNAL_ERROR = "internal_error"


class LeaseParserError(Exception):
    """Root of every error this package raises on purpose."""

    reason: Reason = Reason.INTERNAL_ERROR

    def __init__(self, message: str, **context: Any) -> None:
        super().__init__(message)
        self.message = message
        self.context = context

    def __str__(self) -> str:
        if not self.context:
            return self.message
        ctx = ", ".join(f"{k}={v!r}" for k, v in self.context.items())
        return f"{self.message} ({ctx})"


class ConfigurationError(LeaseParserError):
    """Settings that cannot work; raised at start-up with a message saying how to fix them."""

    reason = Reason.CONFIGURATION


class DocumentNotFound(LeaseParserError):
    """No document with that content hash in the canonical store (status, the API)."""

    reason = Reason.NOT_FOUND


class StoreNotFound(LeaseParserError):
    """A command that only reads (or works on what is there) found no store at the URL: it
    never creates one, so a mistyped ``LEASE_STORE_URL`` is not an empty portfolio."""

    reason = Reason.NOT_FOUND


class LocalSystemRunning(LeaseParserError):
    """``run`` or ``serve --local`` on a data directory whose local system is running
    already: two redis-servers on one AOF would corrupt it."""

    reason = Reason.CONFIGURATION


class CallbackRefused(LeaseParserError):
    """A submission's ``callback_url`` that is not an http(s) URL, or one given to a server
    with no ``LEASE_WEBHOOK_SECRET`` to sign its webhooks: refused before anything is
    recorded."""

    reason = Reason.BAD_CALLBACK


class InvalidHash(LeaseParserError):
    """A content hash that is not 64 hexadecimal characters (or, where a prefix is looked
    up, not 8-64 of them): refused before any lookup."""

    reason = Reason.BAD_HASH


class AmbiguousHash(LeaseParserError):
    """Several documents' hashes start with this prefix; ``candidates`` lists them."""

    reason = Reason.BAD_HASH

    def __init__(
        self, message: str, prefix: str = "", candidates: Sequence[str] = (), **context: Any
    ) -> None:
        super().__init__(message, **context)
        self.prefix = prefix
        self.candidates = list(candidates)


class ReviewRefused(LeaseParserError):
    """A review action that cannot be done as asked; ``problems`` say which fields and why."""

    reason = Reason.REFUSED

    def __init__(
        self, message: str, problems: Sequence[FieldProblem] | None = None, **context: Any
    ) -> None:
        super().__init__(message, **context)
        self.problems = list(problems or [])


class ItemNotFound(ReviewRefused, DocumentNotFound):
    """No document with that hash."""

    reason = Reason.NOT_FOUND


class NotClaimed(ReviewRefused):
    """The reviewer does not hold a live claim on the item (someone else does, nobody
    does, or theirs expired): only the holder of a claim decides."""


class InvalidCorrection(LeaseParserError, ValueError):
    """A reviewer's value the model refuses: which field, what is wrong, what is expected;
    for a rent schedule, each bad cell (``cells``)."""

    reason = Reason.REFUSED

    def __init__(
        self,
        field: str,
        value: str,
        problem: str,
        expected: str,
        cells: Sequence[FieldProblem] | None = None,
    ) -> None:
        super().__init__(f"{field}: {problem}; expected {expected}")
        self.field = field
        self.value = value
        self.problem = problem
        self.expected = expected
        self.cells = list(cells or [])


class UnlockRefused(LeaseParserError):
    """The document cannot be unlocked as asked (wrong state, wrong password); nothing changed."""

    reason = Reason.REFUSED


class LinkRefused(DocumentNotFound):
    """A link a person asked for names no amendment, or no lease, in the store."""


class BrokerFullError(LeaseParserError):
    """The broker refused a publish because it is at ``maxmemory`` (noeviction)."""

    reason = Reason.BROKER_FULL


class PermanentError(LeaseParserError):
    """Retrying cannot help: the same input fails the same way."""


class CorruptDocument(PermanentError):
    reason = Reason.CORRUPT


class EmptyDocument(PermanentError):
    reason = Reason.EMPTY


class DocumentTooLarge(PermanentError):
    reason = Reason.TOO_LARGE


class TooManyPages(PermanentError):
    reason = Reason.TOO_MANY_PAGES


class UnsupportedFormat(PermanentError):
    reason = Reason.UNSUPPORTED_FORMAT


class ResourceBomb(PermanentError):
    reason = Reason.RESOURCE_BOMB


class EncryptedDocument(PermanentError):
    """Password-protected. Routed to review so someone can supply the password."""

    reason = Reason.NEEDS_CREDENTIAL


class HashMismatch(PermanentError):
    reason = Reason.HASH_MISMATCH


class ObjectNotFound(PermanentError):
    reason = Reason.NOT_FOUND


class StorageForbidden(PermanentError):
    """The store refused access (credentials, policy, a key outside the root)."""

    reason = Reason.STORAGE_FORBIDDEN


class MessageTooLarge(PermanentError):
    reason = Reason.MESSAGE_TOO_LARGE


class TransientError(LeaseParserError):
    """May succeed later: retried with exponential backoff, then dead-lettered."""

    reason = Reason.RETRIES_EXHAUSTED


class StorageUnavailable(TransientError):
    pass


class BrokerUnavailable(TransientError):
    pass


class LocalSystemStopped(TransientError):
    """The command needs the data directory's own broker (no ``LEASE_BROKER_URL`` set) and
    the local system is not running; the message says how to start it."""


class OperationTimeout(TransientError):
    pass
