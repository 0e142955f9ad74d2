"""The pipeline's tasks: thin wrappers that fetch, call the core, and hand on.

extract_clauses ──(text layer unusable)──▶ run_ocr_fallback ──▶ normalize_financials
       └───────────────(text layer fine)───────────────────────────────┘

Every task runs under ``idempotent`` (pipeline/idempotency.py): the delivery count
(poison messages), the hash lock (duplicates), and one failure path that asks
retry.py what to do. Bodies never catch exceptions themselves.
"""

from __future__ import annotations

import json
from typing import Any

from celery import Celery, Task

from lease_parser.abstract import Extraction, extract_stage, normalize_stage, ocr_stage, parse_stage
from lease_parser.objects import derived_key
from lease_parser.parsing import Document
from lease_parser.pipeline.idempotency import Body, idempotent, on_hard_time_limit
from lease_parser.pipeline.job import Job
from lease_parser.pipeline.routing import EXTRACT_CLAUSES, NORMALIZE_FINANCIALS, RUN_OCR_FALLBACK


class PipelineTask(Task):  # type: ignore[misc]
    """Base task: a hard time limit kills the child, so the record is made here, in the parent."""

    # Our retry policy decides how often (retry.py); Celery's default cap of 3 must not.
    max_retries = None

    def on_failure(
        self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any
    ) -> None:
        on_hard_time_limit(self, task_id, dict(kwargs or {}), exc)


def extract_clauses(job: Job) -> None:
    data = job.fetch_document()
    document = parse_stage(data, job.runtime.settings, job.password())
    if document.pages_needing_ocr:
        job.hand_on(RUN_OCR_FALLBACK)
    else:
        job.hand_on(NORMALIZE_FINANCIALS, **_extract(job, document))


def run_ocr_fallback(job: Job) -> None:
    settings = job.runtime.settings
    objects = job.runtime.objects
    # The OCR'd document lives in object storage under the content hash: never in a
    # message, and a redelivered OCR task reuses it instead of paying Tesseract twice.
    key = derived_key(job.doc_hash, "ocr-document.json")
    if objects.exists(key):
        document = Document.from_json(b"".join(objects.iter_chunks(key)))
    else:
        data = job.fetch_document()
        password = job.password()
        document = ocr_stage(parse_stage(data, settings, password), data, settings, password)
        objects.put(key, document.to_json().encode())
    job.hand_on(NORMALIZE_FINANCIALS, **_extract(job, document))


def _extract(job: Job, document: Document) -> dict[str, Any]:
    """The extraction, in the message when it fits in half the cap (the rest is the job's
    own keys), else stored under the content hash and handed on by reference: a lease
    followed by many amendments is read whole, never cut to fit a message."""
    extraction = extract_stage(document, job.runtime.settings.confidence()).to_message()
    encoded = json.dumps(extraction, separators=(",", ":")).encode()
    if len(encoded) <= job.runtime.settings.max_message_bytes // 2:
        return {"extraction": extraction}
    key = derived_key(job.doc_hash, "extraction.json")
    job.runtime.objects.put(key, encoded)
    return {"extraction_key": key}


def normalize_financials(
    job: Job, extraction: dict[str, Any] | None = None, extraction_key: str | None = None
) -> None:
    if extraction is None:
        assert extraction_key is not None, "a normalization message carries one of the two"
        extraction = json.loads(b"".join(job.runtime.objects.iter_chunks(extraction_key)))
    result = normalize_stage(
        Extraction.from_message(extraction),
        job.runtime.settings.confidence_gate,
        job.runtime.settings.confidence(),
    )
    job.finish(result)


TASKS: dict[str, Body] = {
    EXTRACT_CLAUSES: extract_clauses,
    RUN_OCR_FALLBACK: run_ocr_fallback,
    NORMALIZE_FINANCIALS: normalize_financials,
}


def register_tasks(app: Celery) -> None:
    for name, body in TASKS.items():
        app.task(name=name, bind=True, base=PipelineTask, shared=False)(idempotent(body))
