"""Timing probes for the workers the benchmark starts: how long each task spends where.

Installed only by ``python -m lease_parser.bench.worker`` (the benchmark's workers), never
in a production worker. The task code is not edited: the probes replace, by attribute,
the functions the task bodies call (``lease_parser.pipeline.tasks.parse_stage``,
``Job.fetch_document``, …) with timing wrappers (wall and the thread's CPU time), and
connect Celery's ``task_prerun`` / ``task_postrun`` signals. Each pool process appends
one JSON line per task to ``$LEASE_BENCH_SPANS/<pid>.jsonl``. A wrapper costs about a
microsecond; the line is written after ``task_postrun`` took its timestamp.

If a probed name disappears from the pipeline (a refactor), ``install_probes`` raises
naming it, so the benchmark fails loudly instead of reporting a stage as zero.
"""

from __future__ import annotations

import functools
import json
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lease_parser.bench.stats import TaskSpan

SPANS_ENV = "LEASE_BENCH_SPANS"

# (module path, attribute, stage): the calls a task body makes, by what they are.
PROBES: tuple[tuple[str, str, str], ...] = (
    ("lease_parser.pipeline.tasks", "parse_stage", "parse"),
    ("lease_parser.pipeline.tasks", "extract_stage", "extract"),
    ("lease_parser.pipeline.tasks", "normalize_stage", "normalize"),
    ("lease_parser.pipeline.idempotency", "lock_hash", "hash_lock"),
    ("lease_parser.pipeline.idempotency", "count_delivery", "deliveries"),
    ("lease_parser.pipeline.job.Job", "fetch_document", "download"),
    ("lease_parser.pipeline.job.Job", "finish", "commit"),
    ("lease_parser.pipeline.job.Job", "password", "credential_check"),
    ("lease_parser.pipeline.job.Job", "is_final", "already_final"),
)
OCR_PROBE = ("lease_parser.pipeline.tasks", "ocr_stage")
PUBLISH_PROBE = ("lease_parser.pipeline.job.Job", "hand_on")

_current: dict[str, Any] | None = None  # the task running in this pool process
_spans_dir: Path | None = None


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _add(stage: str, seconds: float, cpu: float) -> None:
    if _current is not None:
        for key, value in (("stages", seconds), ("stage_cpu", cpu)):
            _current[key][stage] = _current[key].get(stage, 0.0) + value


def _timed(stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.monotonic(), time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            _add(stage, time.monotonic() - start, time.thread_time() - cpu)

    return wrapper


def _timed_ocr(fn: Callable[..., Any]) -> Callable[..., Any]:
    """OCR: wall time, plus Tesseract's CPU (a subprocess: RUSAGE_CHILDREN) and pages."""

    @functools.wraps(fn)
    def wrapper(document: Any, *args: Any, **kwargs: Any) -> Any:
        pages = len(document.pages_needing_ocr)
        start, own, cpu = time.monotonic(), time.thread_time(), _children_cpu()
        try:
            return fn(document, *args, **kwargs)
        finally:
            _add("ocr", time.monotonic() - start, time.thread_time() - own)
            if _current is not None:
                _current["ocr_pages"] += pages
                _current["ocr_cpu_s"] += _children_cpu() - cpu

    return wrapper


def _timed_publish(fn: Callable[..., str]) -> Callable[..., str]:
    """Publishing the next stage: its time, and when the next task's message existed."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> str:
        start, cpu = time.monotonic(), time.thread_time()
        task_id = fn(*args, **kwargs)
        now = time.monotonic()
        _add("publish", now - start, time.thread_time() - cpu)
        if _current is not None:
            _current["published"][task_id] = now
        return task_id

    return wrapper


def _resolve(path: str) -> Any:
    """Import ``a.b.c`` as a module, or ``a.b.Cls`` as a class inside module ``a.b``."""
    import importlib

    try:
        return importlib.import_module(path)
    except ModuleNotFoundError:
        module, _, name = path.rpartition(".")
        return getattr(importlib.import_module(module), name)


def _patch(path: str, attribute: str, wrap: Callable[[Any], Any]) -> None:
    owner = _resolve(path)
    if not hasattr(owner, attribute):
        raise RuntimeError(
            f"benchmark probe target {path}.{attribute} no longer exists: update "
            "lease_parser/bench/probes.py to the pipeline's new names"
        )
    setattr(owner, attribute, wrap(getattr(owner, attribute)))


def _on_prerun(task_id: str, task: Any, kwargs: dict[str, Any] | None = None, **_: Any) -> None:
    global _current
    _current = {
        "task_id": task_id,
        "name": str(task.name),
        "doc_hash": str((kwargs or {}).get("doc_hash", "")),
        "pid": os.getpid(),
        "start": time.monotonic(),
        "cpu_start": time.thread_time(),
        "stages": {},
        "stage_cpu": {},
        "published": {},
        "ocr_pages": 0,
        "ocr_cpu_s": 0.0,
    }


def _on_postrun(**_: Any) -> None:
    global _current
    if _current is None or _spans_dir is None:
        return
    record = {**_current, "end": time.monotonic(), "cpu_end": time.thread_time()}
    _current = None
    with (_spans_dir / f"{record['pid']}.jsonl").open("a") as out:
        out.write(json.dumps(record) + "\n")


def install_probes(spans_dir: Path) -> None:
    """Wrap the task bodies' calls and connect the signals (in the worker, before forking)."""
    global _spans_dir
    from celery import signals

    spans_dir.mkdir(parents=True, exist_ok=True)
    _spans_dir = spans_dir
    for path, attribute, stage in PROBES:
        _patch(path, attribute, functools.partial(_timed, stage))
    _patch(*OCR_PROBE, _timed_ocr)
    _patch(*PUBLISH_PROBE, _timed_publish)
    signals.task_prerun.connect(_on_prerun, weak=False)
    signals.task_postrun.connect(_on_postrun, weak=False)


def read_spans(spans_dir: Path) -> list[TaskSpan]:
    """Every task span the probes wrote under ``spans_dir``."""
    spans = []
    for path in sorted(spans_dir.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            raw = json.loads(line)
            spans.append(
                TaskSpan(
                    task_id=raw["task_id"],
                    name=raw["name"],
                    doc_hash=raw["doc_hash"],
                    pid=raw["pid"],
                    start=raw["start"],
                    end=raw["end"],
                    stages=raw["stages"],
                    cpu=raw["cpu_end"] - raw["cpu_start"],
                    stage_cpu=raw["stage_cpu"],
                    published=raw["published"],
                    ocr_pages=raw["ocr_pages"],
                    ocr_cpu_s=raw["ocr_cpu_s"],
                )
            )
    return spans
