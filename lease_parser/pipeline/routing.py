"""Queues and the routing table: the one place that says which task runs where.

The default queue is ``unrouted`` and nothing consumes it: a task that is missing from
``ROUTES`` lands there and sits visibly (queue depth > 0, alert) instead of being run by
the wrong pool. A unit test fails if any registered task would route to it.
"""

from __future__ import annotations

from typing import Final

EXTRACTION: Final = "lease_extraction"
OCR: Final = "lease_ocr"
NORMALIZATION: Final = "lease_normalization"
UNROUTED: Final = "unrouted"

QUEUES: Final[tuple[str, ...]] = (EXTRACTION, OCR, NORMALIZATION)

EXTRACT_CLAUSES: Final = "lease_parser.extract_clauses"
RUN_OCR_FALLBACK: Final = "lease_parser.run_ocr_fallback"
NORMALIZE_FINANCIALS: Final = "lease_parser.normalize_financials"

ROUTES: Final[dict[str, dict[str, str]]] = {
    EXTRACT_CLAUSES: {"queue": EXTRACTION},
    RUN_OCR_FALLBACK: {"queue": OCR},
    NORMALIZE_FINANCIALS: {"queue": NORMALIZATION},
}


def queue_for(task_name: str) -> str:
    return ROUTES.get(task_name, {}).get("queue", UNROUTED)
