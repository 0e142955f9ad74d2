"""Serving a prefork worker's metrics: its children write files, its main process serves them.

prometheus-client's multiprocess mode: every process writes its values to mmap files in
``PROMETHEUS_MULTIPROC_DIR`` and a ``MultiProcessCollector`` adds them up at scrape time.
Celery's children are recycled (``worker_max_tasks_per_child``) and can be killed (OOM), so
at each scrape the main process folds the files of dead processes into one archive per
kind: counters and histograms keep their totals, live gauges (tasks in progress) of the
dead are dropped with ``mark_process_dead``, and the directory stays small.

Folding uses prometheus-client's private ``MmapedDict`` (the file format the public
collector reads; there is no public API to merge files). The version is pinned below the
next minor in pyproject.toml and every call made here is pinned by a contract test
(tests/unit/test_metrics_prefork.py): an upgrade that changes it fails there, not in
production.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import Metric
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

from lease_parser.errors import ConfigurationError

log = logging.getLogger(__name__)


def multiproc_dir() -> Path | None:
    value = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    return Path(value) if value else None


def serve_worker_metrics(port: int, address: str = "0.0.0.0") -> Any:
    """In the worker's main process, before the pool forks: clear the directory, serve it."""
    path = multiproc_dir()
    if path is None:
        raise ConfigurationError(
            "LEASE_WORKER_METRICS_PORT is set but PROMETHEUS_MULTIPROC_DIR is not: set it to "
            "an empty directory of this worker's own (an emptyDir volume in Kubernetes)"
        )
    path.mkdir(parents=True, exist_ok=True)
    # Files from an earlier run (a restarted container keeps its emptyDir) would be read
    # as live processes, and a reused PID would inherit a stale in-progress gauge.
    for stale in [*path.glob("*.db"), *path.glob("*.tmp")]:
        stale.unlink()
    registry = CollectorRegistry()
    registry.register(ChildrenCollector(path))
    server, _thread = start_http_server(port, address, registry)
    log.info("worker metrics on %s:%d from %s", address, port, path)
    return server


class ChildrenCollector:
    """prometheus-client's multiprocess collector, after folding in the dead children."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._inner = MultiProcessCollector(None, path=str(path))
        # Scrapes run in threads; folding and reading must not interleave.
        self._lock = threading.Lock()

    def collect(self) -> Iterable[Metric]:
        with self._lock:
            fold_dead_processes(self.path)
            return list(self._inner.collect())


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # A zombie (exited, not yet reaped) is dead for our purposes.
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _pid_of(path: Path) -> int | None:
    last = path.stem.rsplit("_", 1)[-1]
    return int(last) if last.isdigit() else None


def fold_dead_processes(path: Path) -> list[int]:
    """For each dead process: drop its live gauges, add its counters and histograms into
    ``<kind>_archive.db`` and delete its files. Totals are unchanged; file count is bounded."""
    dead = sorted({pid for f in path.glob("*.db") if (pid := _pid_of(f)) and not pid_alive(pid)})
    for pid in dead:
        mark_process_dead(pid, str(path))
        for kind in ("counter", "histogram"):
            _fold(path, kind, pid)
        for leftover in path.glob(f"*_{pid}.db"):  # gauges in other modes: per-pid, now gone
            leftover.unlink()
    return dead


def _fold(path: Path, kind: str, pid: int) -> None:
    source = path / f"{kind}_{pid}.db"
    if not source.exists():
        return
    archive = path / f"{kind}_archive.db"
    totals: dict[str, float] = defaultdict(float)
    for f in (archive, source):
        if f.exists():  # the reader MultiProcessCollector itself uses
            for key, value, _timestamp, _pos in MmapedDict.read_all_values_from_file(str(f)):
                totals[key] += value
    # Written beside, then renamed over: a reader sees the old archive or the new, never half.
    scratch = path / f"{kind}_archive.tmp"
    scratch.unlink(missing_ok=True)  # left by a fold that died: MmapedDict would reuse it
    merged = MmapedDict(str(scratch))
    try:
        for key, value in totals.items():
            merged.write_value(key, value, 0.0)
    finally:
        merged.close()
    os.replace(scratch, archive)
    source.unlink()
