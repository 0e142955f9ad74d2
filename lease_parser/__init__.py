"""lease_parser: lease documents in, validated typed abstractions out.

``submit``, ``status`` and ``abstraction`` are the Python entry points for ingestion
services. They import what they need lazily (Celery for ``submit``, the store for the
others), so ``import lease_parser`` costs nothing and ``import lease_parser.parsing`` (the
pure core) never pulls in Celery or Redis.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from celery import Celery

    from lease_parser.model import LeaseAbstraction
    from lease_parser.pipeline.submit import SubmitReceipt
    from lease_parser.store import DocumentStatus, Store

__version__ = "0.1.0"
__all__ = ["__version__", "abstraction", "status", "submit"]


@cache
def _default_app() -> Celery:
    from lease_parser.pipeline.app import create_app
    from lease_parser.settings import load_settings

    return create_app(load_settings())


def submit(doc_key: str, doc_hash: str | None = None) -> SubmitReceipt:
    """Submit an object key (already in ``LEASE_OBJECT_STORE``) for abstraction.

    ``doc_hash`` is the SHA-256 of the content; when omitted it is computed by streaming
    the object once. Raises ``BrokerFullError`` when the broker is full (past
    ``LEASE_BROKER_HIGH_WATER`` of Redis ``maxmemory``).
    """
    from lease_parser.pipeline.submit import submit_document

    return submit_document(_default_app(), doc_key, doc_hash)


@cache
def _default_store() -> Store:
    from lease_parser.settings import load_settings
    from lease_parser.store import Store

    return Store(load_settings().store_database_url)


def status(doc_hash: str) -> DocumentStatus:
    """Where a submitted document stands: ``.state`` is ``pending``, ``committed``,
    ``review`` or ``dead``, with ``.reason`` and ``.detail``. Reads ``LEASE_STORE_URL``.

    Raises ``DocumentNotFound`` for a hash the store has never seen, ``InvalidHash`` for
    one that is not a SHA-256 hex digest.
    """
    from lease_parser.store import document_status

    return document_status(_default_store(), doc_hash)


def abstraction(doc_hash: str) -> LeaseAbstraction | None:
    """The committed abstraction (typed values, each with confidence and provenance), or
    None while the document is not committed. Raises like ``status``."""
    from lease_parser.store import committed_abstraction

    return committed_abstraction(_default_store(), doc_hash)
