"""What every benchmark phase shares: its settings, its corpus in object storage, its results.

Each phase gets a fresh data directory (object store, SQLite store, Redis data), so no
phase sees another's documents, hash locks or cached OCR pages: every phase does all the work.
The benchmark always runs on the embedded defaults (file:// objects, SQLite), whatever
LEASE_OBJECT_STORE / LEASE_STORE_URL say, so that phases compare like with like.
"""

from __future__ import annotations

import hashlib
import resource
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lease_parser.bench.corpus import CorpusDoc, DocKind
from lease_parser.bench.stats import TaskSpan
from lease_parser.objects import ObjectStore
from lease_parser.settings import Settings, load_settings

Say = Callable[[str], None]


@dataclass(frozen=True)
class Placed:
    """A corpus document uploaded to a phase's object store."""

    doc: CorpusDoc
    key: str
    doc_hash: str


@dataclass
class DocResult:
    """One document's trip through one phase."""

    name: str
    kind: DocKind
    pages: int
    doc_hash: str
    route: str
    reason: str | None
    confidence: float | None
    # Wall seconds per stage; f"{stage}{CPU_SUFFIX}" is the thread's CPU seconds in it.
    stages: dict[str, float] = field(default_factory=dict)
    ocr_pages: int = 0
    ocr_cpu_s: float = 0.0  # Tesseract's CPU (a subprocess), where it can be attributed
    ocr_self_cpu_s: float = 0.0  # rendering and image encoding in our own thread


@dataclass
class PhaseRun:
    """A phase's outcome: wall time and per-document results (and, for the pipeline, the
    task spans, submit times and worker memory)."""

    name: str
    concurrency: int
    wall_s: float
    docs: list[DocResult]
    spans: list[TaskSpan] = field(default_factory=list)
    submitted: dict[str, float] = field(default_factory=dict)
    memory: dict[str, Any] = field(default_factory=dict)
    # CPU seconds spent in the timed window, by who spent them: this process (baselines);
    # the worker's main process and pool, redis-server and the submits (pipeline).
    cpu_s: dict[str, float] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        return sum(d.pages for d in self.docs)


def process_cpu_s() -> float:
    """CPU of this process and of the subprocesses it has reaped (Tesseract)."""
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def phase_settings(data_dir: Path, env: dict[str, str] | None = None) -> Settings:
    """Settings on the embedded defaults under ``data_dir`` (and a cluster's Redis URLs)."""
    urls = {}
    if env is not None:
        urls = {
            "broker_url": env["LEASE_BROKER_URL"],
            "result_backend": env["LEASE_RESULT_BACKEND"],
        }
    return load_settings(data_dir=data_dir, object_store="", store_url="", **urls)


def place_corpus(objects: ObjectStore, docs: list[CorpusDoc]) -> list[Placed]:
    """Upload the corpus (ingestion's job, so not timed) and hash each document."""
    placed = []
    for doc in docs:
        key = f"incoming/{doc.name}"
        objects.put(key, doc.data)
        placed.append(Placed(doc, key, hashlib.sha256(doc.data).hexdigest()))
    return placed
