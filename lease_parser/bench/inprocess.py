"""The baselines: the same core, with no broker, in this one process.

- A, ``sequential``: one document after another.
- B, ``threaded``: a bounded pool of threads (the seed's "below the threshold" batch
  script). PDFium is not thread-safe — two threads in it at once, even on different
  documents, can crash or corrupt the process (pypdfium2's documentation) — so every
  stage that calls PDFium holds one process-wide lock: parsing a PDF, and OCR, since
  ``ocr_pdf_pages`` renders each page and runs Tesseract on it in one call with the PDF
  open. The time spent waiting for it is reported as ``pdfium_lock_wait``. What remains
  parallel is pure Python under the GIL (DOCX parsing, extraction, normalization) and
  waiting: storage and SQLite I/O.

Each document goes through exactly what a pipeline task does with it — ``Job``'s download
(with the hash check) and commit, the core's stage functions — minus the broker.
"""

from __future__ import annotations

import contextlib
import resource
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import cast

from celery import Task

from lease_parser.abstract import (
    extract_stage,
    normalize_stage,
    ocr_stage,
    parse_stage,
    result_for_error,
)
from lease_parser.bench.corpus import CorpusDoc
from lease_parser.bench.phase import (
    DocResult,
    PhaseRun,
    Placed,
    Say,
    phase_settings,
    place_corpus,
    process_cpu_s,
)
from lease_parser.bench.stats import CPU_SUFFIX
from lease_parser.errors import LeaseParserError
from lease_parser.model import AbstractionResult
from lease_parser.parsing import SourceFormat, detect_format
from lease_parser.pipeline.job import Job
from lease_parser.pipeline.runtime import Runtime


@contextlib.contextmanager
def timed(stages: dict[str, float], name: str) -> Iterator[None]:
    """Add the block's wall time to ``stages[name]`` and its thread CPU to ``name + "_cpu"``."""
    start, cpu = time.perf_counter(), time.thread_time()
    try:
        yield
    finally:
        stages[name] = stages.get(name, 0.0) + time.perf_counter() - start
        cpu_name = f"{name}{CPU_SUFFIX}"
        stages[cpu_name] = stages.get(cpu_name, 0.0) + time.thread_time() - cpu


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


class InProcess:
    """Runs documents through the core in this process, timing each stage."""

    def __init__(self, runtime: Runtime, pdfium_lock: threading.Lock | None = None) -> None:
        self.runtime = runtime
        self.pdfium_lock = pdfium_lock

    @contextlib.contextmanager
    def _pdfium(self, data: bytes, stages: dict[str, float]) -> Iterator[None]:
        if self.pdfium_lock is None or detect_format(data) is not SourceFormat.PDF:
            yield
            return
        with timed(stages, "pdfium_lock_wait"):
            self.pdfium_lock.acquire()
        try:
            yield
        finally:
            self.pdfium_lock.release()

    def _core(self, data: bytes, result: DocResult) -> AbstractionResult:
        settings, stages = self.runtime.settings, result.stages
        with self._pdfium(data, stages), timed(stages, "parse"):
            document = parse_stage(data, settings)
        if document.pages_needing_ocr:
            result.ocr_pages = len(document.pages_needing_ocr)
            children, own = _cpu(resource.RUSAGE_CHILDREN), _cpu(resource.RUSAGE_THREAD)
            with self._pdfium(data, stages), timed(stages, "ocr"):
                document = ocr_stage(document, data, settings)
            # RUSAGE_CHILDREN is per process: meaningful per document only when one runs.
            result.ocr_cpu_s = _cpu(resource.RUSAGE_CHILDREN) - children
            result.ocr_self_cpu_s = _cpu(resource.RUSAGE_THREAD) - own
        with timed(stages, "extract"):
            extraction = extract_stage(document, settings.confidence())
        with timed(stages, "normalize"):
            return normalize_stage(extraction, settings.confidence_gate, settings.confidence())

    def process(self, placed: Placed) -> DocResult:
        doc = placed.doc
        result = DocResult(doc.name, doc.kind, doc.pages, placed.doc_hash, "", None, None)
        submission = str(uuid.uuid4())
        # Job's download and commit are the pipeline's own; finish() never touches the task.
        job = Job(cast(Task, None), self.runtime, placed.key, placed.doc_hash, submission)
        with timed(result.stages, "register"):
            self.runtime.store.register_submission(submission, placed.key, placed.doc_hash)
        try:
            with timed(result.stages, "download"):
                data = job.fetch_document()
            outcome = self._core(data, result)
        except LeaseParserError as exc:
            outcome = result_for_error(exc)
        with timed(result.stages, "commit"):
            job.finish(outcome)
        result.route, result.reason, result.confidence = (
            outcome.route.value,
            outcome.reason,
            outcome.confidence,
        )
        return result


def _prepare(
    docs: list[CorpusDoc], warmup: list[CorpusDoc], data_dir: Path
) -> tuple[Runtime, list[Placed], list[Placed]]:
    runtime = Runtime(phase_settings(data_dir))
    runtime.store.upgrade_schema()
    return runtime, place_corpus(runtime.objects, docs), place_corpus(runtime.objects, warmup)


def run_sequential(
    docs: list[CorpusDoc], warmup: list[CorpusDoc], data_dir: Path, say: Say
) -> PhaseRun:
    """Baseline A: one document at a time (after the untimed warm-up documents)."""
    runtime, placed, warm = _prepare(docs, warmup, data_dir)
    runner = InProcess(runtime)
    for item in warm:
        runner.process(item)
    start, cpu = time.perf_counter(), process_cpu_s()
    results = []
    for i, item in enumerate(placed, 1):
        results.append(runner.process(item))
        if i % 10 == 0 or i == len(placed):
            say(f"  sequential: {i}/{len(placed)} documents")
    wall, cpu = time.perf_counter() - start, process_cpu_s() - cpu
    runtime.store.close()
    return PhaseRun("sequential", 1, wall, results, cpu_s={"process": cpu})


def run_threaded(
    docs: list[CorpusDoc], warmup: list[CorpusDoc], data_dir: Path, threads: int, say: Say
) -> PhaseRun:
    """Baseline B: at most ``threads`` documents in flight, PDFium serialized."""
    runtime, placed, warm = _prepare(docs, warmup, data_dir)
    runner = InProcess(runtime, pdfium_lock=threading.Lock())
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bench") as pool:
        list(pool.map(runner.process, warm))
        start, cpu = time.perf_counter(), process_cpu_s()
        results = list(pool.map(runner.process, placed))
        wall, cpu = time.perf_counter() - start, process_cpu_s() - cpu
    say(f"  threaded: {len(results)}/{len(placed)} documents")
    runtime.store.close()
    return PhaseRun("threaded", threads, wall, results, cpu_s={"process": cpu})
