"""The soak: hundreds of leases through a real local cluster while worker children are
SIGKILLed at random, then an audit of the store: nothing lost, nothing committed twice.

``make soak`` runs it at 500 documents (scripts/soak.py); a small run is part of
``make test``. The documents are small distinct leases generated on the fly (text PDFs
and DOCX, varied parties and amounts, so every one has its own content hash).
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import redis
from lease_parser.bench.corpus import DocKind, PageRanges, generate_corpus
from lease_parser.local import Inspector, LocalCluster
from lease_parser.pipeline.idempotency import DELIVERY_PREFIX
from lease_parser.pipeline.routing import EXTRACTION, NORMALIZATION, OCR
from lease_parser.store import (
    DocumentState,
    Store,
    SubmissionState,
    pending_submissions,
    run_record,
)

# Small documents: the soak is about delivery under kills, not about parsing speed.
SOAK_PAGES: PageRanges = {DocKind.TEXT_PDF: (1, 3), DocKind.DOCX: (1, 2), DocKind.SCAN: (1, 1)}


def lease_documents(count: int, seed: int = 0) -> Iterator[tuple[str, bytes]]:
    """``count`` distinct small leases as (file name, bytes): text PDFs and DOCX files
    (the benchmark's generator), one in twenty-five a scan that needs OCR."""
    for doc in generate_corpus(count, count // 25, seed, prefix=f"lease-{seed}", pages=SOAK_PAGES):
        yield doc.name, doc.data


@dataclass
class SoakReport:
    submitted: int = 0
    committed: int = 0
    review: int = 0
    dead: int = 0
    duplicate: int = 0
    lost: int = 0
    committed_twice: int = 0
    finished_twice: int = 0
    kills: int = 0
    redelivered: int = 0
    seconds: float = 0.0
    dead_reasons: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.lost == 0 and self.committed_twice == 0 and self.finished_twice == 0

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}

    def lines(self) -> list[str]:
        return [
            f"documents submitted   {self.submitted}",
            f"committed             {self.committed}",
            f"review                {self.review}",
            f"dead                  {self.dead} {self.dead_reasons or ''}".rstrip(),
            f"duplicate (skipped)   {self.duplicate}",
            f"lost                  {self.lost}",
            f"committed twice       {self.committed_twice}",
            f"finished twice        {self.finished_twice}",
            f"worker children killed {self.kills}",
            f"messages redelivered  {self.redelivered} (their worker died mid-task)",
            f"wall time             {self.seconds:.1f} s",
        ]


class ChildKiller(threading.Thread):
    """SIGKILLs a random worker child every few seconds, preferring one that runs a task.

    A task is hit at most once: a message killed on every delivery is, by definition, a
    poison message, and is dead-lettered (``worker_lost``, tested on its own); the soak
    is about random crashes, which every document must survive.
    """

    def __init__(self, cluster: LocalCluster, every: tuple[float, float], seed: int) -> None:
        super().__init__(daemon=True, name="child-killer")
        self.cluster, self.every, self.rng = cluster, every, random.Random(seed)
        self.inspector = Inspector(cluster.env["LEASE_BROKER_URL"])
        self.stopping = threading.Event()
        self.kills = 0
        self.hit: set[str] = set()

    def _victim(self) -> int | None:
        children = [pid for w in self.cluster.workers for pid in w.child_pids()]
        try:
            active = self.inspector.active(timeout=0.5)
        except Exception:  # the broker is busy; any child will do
            active = []
        hit = {t["worker_pid"] for t in active if t["id"] in self.hit}
        busy: dict[int, str] = {
            int(t["worker_pid"]): str(t["id"]) for t in active if t["worker_pid"] in children
        }
        fresh = [pid for pid in busy if pid not in hit]
        if fresh:
            victim = self.rng.choice(fresh)
            self.hit.add(busy[victim])
            return victim
        idle = [pid for pid in children if pid not in busy]
        return self.rng.choice(idle) if idle else None

    def run(self) -> None:
        while not self.stopping.wait(self.rng.uniform(*self.every)):
            victim = self._victim()
            if victim is None:
                continue
            try:
                os.kill(victim, signal.SIGKILL)
                self.kills += 1
            except ProcessLookupError:
                pass  # it exited (max tasks per child) between the listing and the kill

    def stop(self) -> None:
        self.stopping.set()
        self.join(10)
        self.inspector.close()


def audit(store: Store, submission_ids: list[str], report: SoakReport) -> SoakReport:
    """Fill ``report`` from the store: outcomes, losses, and documents finished twice."""
    record = run_record(store, submission_ids)
    finals: dict[str, int] = {}
    for doc_hash, state, n in record.final_entries:
        finals[doc_hash] = finals.get(doc_hash, 0) + n
        report.committed_twice += int(state == DocumentState.COMMITTED and n > 1)
    for state, reason in record.documents:
        if state == DocumentState.PENDING:
            continue  # its submission is still pending: counted as lost below
        setattr(report, str(state), getattr(report, str(state)) + 1)
        if state == DocumentState.DEAD:
            report.dead_reasons[str(reason)] = report.dead_reasons.get(str(reason), 0) + 1
    states = [record.submissions.get(i) for i in submission_ids]
    report.duplicate = states.count(SubmissionState.DUPLICATE)
    # Lost: a submission never recorded, or still unresolved after the wait.
    report.lost = sum(1 for st in states if st in (None, SubmissionState.PENDING))
    report.finished_twice = sum(1 for n in finals.values() if n > 1)
    return report


def count_redelivered(r: redis.Redis) -> int:
    """Messages delivered more than once (a worker died while running them)."""
    return sum(
        1
        for key in r.scan_iter(f"{DELIVERY_PREFIX}*", count=500)
        if any(int(n) > 1 for n in r.hvals(key))
    )


def run_soak(
    documents: int,
    data_dir: Path,
    kill_every: tuple[float, float] = (2.0, 5.0),
    timeout: float = 1800,
    seed: int = 0,
    progress: Callable[[str], None] = print,
    confidence_gate: float = 0.5,
) -> SoakReport:
    """Submit ``documents`` leases to a local cluster under random child kills; audit."""
    from lease_parser.pipeline.app import create_app
    from lease_parser.pipeline.runtime import runtime_for
    from lease_parser.pipeline.submit import submit_document
    from lease_parser.settings import load_settings

    started = time.monotonic()
    concurrency = {EXTRACTION: 2, OCR: 1, NORMALIZATION: 1}
    # A lower gate lets these plain generated leases commit (the default sends most of
    # them to review), so a double commit would show as one.
    env = {"LEASE_CONFIDENCE_GATE": str(confidence_gate)}
    with LocalCluster(data_dir, concurrency=concurrency, extra_env=env) as cluster:
        env = cluster.env
        settings = load_settings(
            data_dir=data_dir,
            broker_url=env["LEASE_BROKER_URL"],
            result_backend=env["LEASE_RESULT_BACKEND"],
            confidence_gate=confidence_gate,
        )
        app = create_app(settings)
        runtime = runtime_for(settings)
        killer = ChildKiller(cluster, kill_every, seed)
        killer.start()
        try:
            ids = []
            for name, data in lease_documents(documents, seed):
                runtime.objects.put(f"soak/{name}", data)
                ids.append(submit_document(app, f"soak/{name}").task_id)
            progress(f"submitted {len(ids)} documents; waiting (children are being killed)")
            _wait_done(runtime.store, ids, started + timeout, progress)
        finally:
            killer.stop()
            app.close()
        report = audit(runtime.store, ids, SoakReport(submitted=len(ids), kills=killer.kills))
        report.redelivered = count_redelivered(runtime.redis)
    report.seconds = time.monotonic() - started
    return report


def _wait_done(
    store: Store, ids: list[str], deadline: float, progress: Callable[[str], None]
) -> None:
    last = -1
    while time.monotonic() < deadline:
        pending = pending_submissions(store, ids)
        if not pending:
            return
        if pending != last:
            progress(f"  {len(ids) - int(pending)}/{len(ids)} done")
            last = int(pending)
        time.sleep(1)
