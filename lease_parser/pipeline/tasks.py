"""The pipeline's tasks: thin wrappers that fetch, call the core, and hand on.

extract_clauses ──(text layer unusable)──▶ run_ocr_fallback ──▶ normalize_financials
       └───────────────(text layer fine)───────────────────────────────┘

Every task goes through ``guarded``: the delivery count (poison messages), the hash-keyed
claim (duplicates), and one failure path that asks retry.py what to do. Bodies never
catch exceptions themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from billiard.exceptions import TimeLimitExceeded
from celery import Celery, Task
from celery.exceptions import Retry

from lease_parser.abstract import Extraction, extract_stage, normalize_stage, ocr_stage, parse_stage
from lease_parser.errors import Reason
from lease_parser.parsing import Document, Page
from lease_parser.parsing.base import PageQuality, PageSource
from lease_parser.pipeline.idempotency import Claim, claim_document, release_claim
from lease_parser.pipeline.job import Job
from lease_parser.pipeline.retry import Action, classify
from lease_parser.pipeline.routing import EXTRACT_CLAUSES, NORMALIZE_FINANCIALS, RUN_OCR_FALLBACK
from lease_parser.pipeline.runtime import runtime_for
from lease_parser.storage import derived_key, get_json, put_json

DELIVERY_PREFIX = "lease:deliveries:"
Body = Callable[..., None]


class PipelineTask(Task):  # type: ignore[misc]
    """Base task: a hard time limit kills the child, so the record is made here, in the parent."""

    def on_failure(
        self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any
    ) -> None:
        if isinstance(exc, TimeLimitExceeded) and {"doc_key", "doc_hash", "submission_id"} <= set(
            kwargs
        ):
            job = _job(self, kwargs)
            job.dead(Reason.TIME_LIMIT, f"killed at the hard time limit ({exc})", exc)


def _job(task: Task, kwargs: dict[str, Any]) -> Job:
    runtime = runtime_for(task.app.lease_settings)
    return Job(task, runtime, kwargs["doc_key"], kwargs["doc_hash"], kwargs["submission_id"])


def _count_delivery(job: Job) -> int:
    """Deliveries of this very message (task id + retry number), across worker deaths."""
    key = f"{DELIVERY_PREFIX}{job.task.request.id}:{job.task.request.retries or 0}"
    pipe = job.runtime.redis.pipeline()
    pipe.incr(key)
    pipe.expire(key, job.runtime.settings.claim_ttl)
    count, _ = pipe.execute()
    return int(count)


def _handle_failure(job: Job, exc: Exception) -> None:
    settings = job.runtime.settings
    decision = classify(exc, int(job.task.request.retries or 0), settings.retry)
    release_claim(job.runtime.redis, job.doc_hash, job.submission_id)
    if decision.action is Action.RETRY:
        raise job.task.retry(countdown=decision.countdown, exc=exc)
    if decision.action is Action.REVIEW:
        job.review(decision.reason, decision.detail)
    else:
        job.dead(decision.reason, decision.detail, exc)


def guarded(body: Body) -> Callable[..., str]:
    """Wrap a task body with the poison check, the dedup claim and the failure path."""

    def run(task: Task, *, doc_key: str, doc_hash: str, submission_id: str, **kw: Any) -> str:
        job = _job(task, {"doc_key": doc_key, "doc_hash": doc_hash, "submission_id": submission_id})
        try:
            if _count_delivery(job) > job.runtime.settings.max_deliveries:
                job.dead(Reason.WORKER_LOST, "delivered too many times: it kills its worker")
                return "dead"
            claim = claim_document(
                job.runtime.redis, doc_hash, submission_id, job.runtime.settings.claim_ttl
            )
            if claim is Claim.DUPLICATE or (claim is Claim.ACQUIRED and job.already_final()):
                job.duplicate()
                return "duplicate"
            body(job, **kw)
            return "ok"
        except Retry:
            raise
        except Exception as exc:
            _handle_failure(job, exc)
            return "failed"

    # Not functools.wraps: Celery checks call arguments against the signature, which
    # must stay the wrapper's (keyword message fields), not the body's.
    run.__name__ = run.__qualname__ = body.__name__
    run.__doc__ = body.__doc__
    return run


def extract_clauses(job: Job) -> None:
    data = job.fetch_document()
    document = parse_stage(data, job.runtime.settings, job.password())
    if document.pages_needing_ocr:
        job.hand_on(RUN_OCR_FALLBACK)
    else:
        job.hand_on(NORMALIZE_FINANCIALS, extraction=extract_stage(document).to_message())


def _stored_ocr_pages(document: Document, stored: list[dict[str, Any]]) -> Document:
    by_number = {
        p["number"]: Page(
            number=p["number"],
            text=p["text"],
            source=PageSource.OCR,
            quality=PageQuality(chars=len(p["text"]), ocr_confidence=p["conf"]),
        )
        for p in stored
    }
    document.pages = [by_number.get(p.number, p) for p in document.pages]
    return document


def run_ocr_fallback(job: Job) -> None:
    settings = job.runtime.settings
    data = job.fetch_document()
    password = job.password()
    document = parse_stage(data, settings, password)
    # OCR output lives in object storage under the content hash: never in a message, and a
    # redelivered OCR task reuses it instead of paying Tesseract twice.
    key = derived_key(job.doc_hash, "ocr-pages.json")
    if job.runtime.objects.exists(key):
        document = _stored_ocr_pages(document, get_json(job.runtime.objects, key))
    else:
        document = ocr_stage(document, data, settings, password)
        pages = [
            {"number": p.number, "text": p.text, "conf": p.quality.ocr_confidence}
            for p in document.pages
            if p.source is PageSource.OCR
        ]
        put_json(job.runtime.objects, key, pages)
    job.hand_on(NORMALIZE_FINANCIALS, extraction=extract_stage(document).to_message())


def normalize_financials(job: Job, extraction: dict[str, Any]) -> None:
    result = normalize_stage(
        Extraction.from_message(extraction), job.runtime.settings.confidence_gate
    )
    job.finish(result)


TASKS: dict[str, Body] = {
    EXTRACT_CLAUSES: extract_clauses,
    RUN_OCR_FALLBACK: run_ocr_fallback,
    NORMALIZE_FINANCIALS: normalize_financials,
}


def register_tasks(app: Celery) -> None:
    for name, body in TASKS.items():
        app.task(name=name, bind=True, base=PipelineTask, shared=False)(guarded(body))
