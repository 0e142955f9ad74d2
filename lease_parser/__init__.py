"""lease_parser: lease documents in, validated typed abstractions out.

``submit`` is the Python entry point for ingestion services. It imports the Celery layer
lazily, so ``import lease_parser.parsing`` (the pure core) never pulls in Celery or Redis.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from celery import Celery

    from lease_parser.pipeline.submit import SubmitReceipt

__version__ = "0.1.0"
__all__ = ["__version__", "submit"]


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
