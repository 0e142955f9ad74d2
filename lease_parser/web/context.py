"""What the web app shares between requests: settings, tokens, the store, the object store,
the review queue, the Celery app (for submissions) and a small cache of open documents.

Built once by ``create_app`` (the edge) and kept on ``app.state``; every handler reaches it
through ``context(request)``.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import Request

import redis
from lease_parser.errors import LeaseParserError
from lease_parser.objects import ObjectStore, derived_key, fetch
from lease_parser.parsing import Document
from lease_parser.pipeline.runtime import Runtime, runtime_for
from lease_parser.settings import ApiToken, Scope, Settings
from lease_parser.store import ReviewQueue, Revisions, Store
from lease_parser.viewer import ImageView, TextView, open_view
from lease_parser.web.sessions import SessionStore
from lease_parser.web.throttle import FailureThrottle

if TYPE_CHECKING:
    from celery import Celery

# Documents kept open for page images and highlights (a reviewer scrolls one item's pages;
# a few reviewers work at once). Bounded by count and bytes.
CACHED_DOCUMENTS = 8
CACHED_BYTES = 256 * 1024 * 1024
# Rendered pages kept in memory (a text page is ~150 KB of PNG at 1200 px, a scan ~300 KB).
CACHED_IMAGE_BYTES = 128 * 1024 * 1024
T = TypeVar("T")


@dataclass(frozen=True)
class OpenDocument:
    """A document's bytes (hash checked), the pipeline's OCR'd pages, and its view, with
    what the item page computes from them (page sizes, citation boxes, a DOCX's text
    pages): a document's bytes never change (the hash names them), so neither do these."""

    data: bytes
    ocr: Document | None
    view: ImageView | TextView
    derived: dict[Any, Any] = field(default_factory=dict)

    def once(self, key: Any, compute: Callable[[], T]) -> T:
        """``compute()`` the first time ``key`` is asked for, then what it gave."""
        if key not in self.derived:
            self.derived[key] = compute()
        value: T = self.derived[key]
        return value


@dataclass
class WebContext:
    settings: Settings
    _documents: OrderedDict[str, OpenDocument] = field(default_factory=OrderedDict)
    _images: OrderedDict[tuple[str, int, int], bytes] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # The key CSRF tokens are derived with (app.py: LEASE_WEB_SESSION_SECRET or a kept file).
    csrf_key: str = ""

    @cached_property
    def tokens(self) -> dict[str, ApiToken]:
        return self.settings.api_token_table()

    @cached_property
    def redis(self) -> redis.Redis:
        """Redis for sessions, the sign-in throttle and readiness: short timeouts, so an
        outage answers 503 in seconds instead of holding every page for the workers' 30 s."""
        return redis.Redis.from_url(
            self.settings.broker_url,
            socket_timeout=3,
            socket_connect_timeout=2,
            health_check_interval=25,
        )

    @cached_property
    def sessions(self) -> SessionStore:
        return SessionStore(lambda: self.redis)

    @cached_property
    def throttle(self) -> FailureThrottle:
        return FailureThrottle(
            lambda: self.redis,
            self.settings.auth_max_failures,
            self.settings.auth_failure_window,
        )

    @property
    def runtime(self) -> Runtime:
        return runtime_for(self.settings)

    @property
    def store(self) -> Store:
        return self.runtime.store

    @property
    def objects(self) -> ObjectStore:
        return self.runtime.objects

    @cached_property
    def queue(self) -> ReviewQueue:
        return ReviewQueue(self.store, self.settings.review_claim_ttl)

    @cached_property
    def revisions(self) -> Revisions:
        return Revisions(self.store, self.settings.qa_sample_share)

    @cached_property
    def celery(self) -> Celery:
        from lease_parser.pipeline.app import create_app

        return create_app(self.settings)

    def caller(self, token: str) -> ApiToken | None:
        """Whose token this is, and its scopes; compared in constant time, every token
        each time."""
        found = None
        for known, entry in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = entry
        return found

    def token_id(self, name: str) -> str | None:
        """A fingerprint of ``name``'s current token, if it may review: a session signed in
        with a token that has since been removed, changed or lost ``review`` stops working.
        Kept in the server-side session record only."""
        for token, entry in self.tokens.items():
            if entry.name == name and entry.allows(Scope.REVIEW):
                return hashlib.sha256(token.encode()).hexdigest()[:16]
        return None

    def document(self, doc_hash: str, doc_key: str) -> OpenDocument:
        """The document's bytes (checked against its hash) and its view, cached."""
        with self._lock:
            if doc_hash in self._documents:
                self._documents.move_to_end(doc_hash)
                return self._documents[doc_hash]
        fetched = fetch(self.objects, doc_key, self.settings.max_document_bytes)
        if fetched.sha256 != doc_hash:
            from lease_parser.errors import HashMismatch

            raise HashMismatch(
                "the object under this key changed after it was submitted",
                key=doc_key,
            )
        ocr = self._ocr_document(doc_hash)
        opened = OpenDocument(
            fetched.data, ocr, open_view(fetched.data, ocr, self.settings.parse_limits())
        )
        with self._lock:
            self._documents[doc_hash] = opened
            while len(self._documents) > CACHED_DOCUMENTS or (
                len(self._documents) > 1
                and sum(len(d.data) for d in self._documents.values()) > CACHED_BYTES
            ):
                self._documents.popitem(last=False)
        return opened

    def page_image(self, doc_hash: str, doc_key: str, number: int, width: int) -> bytes:
        """A page rendered as an image, cached by content hash: in memory, and in the object
        store beside the document's other derived files, so a restarted server (or another
        replica) does not render it again."""
        cache_key = (doc_hash, number, width)
        with self._lock:
            if cache_key in self._images:
                self._images.move_to_end(cache_key)
                return self._images[cache_key]
        key = derived_key(doc_hash, f"pages/{number}-{width}.img")
        try:
            image = b"".join(self.objects.iter_chunks(key)) if self.objects.exists(key) else b""
        except LeaseParserError:
            image = b""  # the cache is unreadable: render, as if it were not there
        if not image:
            view = self.document(doc_hash, doc_key).view
            assert isinstance(view, ImageView)
            image = view.render(number, width)
            # A read-only object store: the memory cache still holds it.
            with contextlib.suppress(LeaseParserError):
                self.objects.put(key, image)
        with self._lock:
            self._images[cache_key] = image
            while sum(len(i) for i in self._images.values()) > CACHED_IMAGE_BYTES:
                self._images.popitem(last=False)
        return image

    def _ocr_document(self, doc_hash: str) -> Document | None:
        key = derived_key(doc_hash, "ocr-document.json")
        if not self.objects.exists(key):
            return None
        return Document.from_json(b"".join(self.objects.iter_chunks(key)))


def context(request: Request) -> WebContext:
    ctx = request.app.state.context
    assert isinstance(ctx, WebContext)
    return ctx
