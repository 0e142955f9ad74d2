"""prefork_metrics.py with real processes: children fork, count, die; the parent folds them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from lease_parser import prefork_metrics


def test_files_name_their_process() -> None:
    assert prefork_metrics._pid_of(Path("counter_123.db")) == 123
    assert prefork_metrics._pid_of(Path("gauge_livesum_77.db")) == 77
    assert prefork_metrics._pid_of(Path("histogram_archive.db")) is None


def test_a_live_process_is_alive_and_a_reaped_one_is_not() -> None:
    assert prefork_metrics.pid_alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not prefork_metrics.pid_alive(child.pid)


# One process forks children that count and die without cleanup (as SIGKILL leaves them),
# then folds them, as the worker's main process does at each scrape.
FORKING_SCRIPT = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path
    from prometheus_client.multiprocess import MultiProcessCollector
    from lease_parser import metrics, prefork_metrics

    path = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])

    def totals():
        out = {}
        for family in MultiProcessCollector(None, path=str(path)).collect():
            for s in family.samples:
                out[s.name] = out.get(s.name, 0) + s.value
        return out

    def fork_children(n):
        for i in range(n):
            pid = os.fork()
            if pid == 0:
                m = metrics.worker_metrics()
                m.documents.labels(route="committed", reason="none").inc(i + 1)
                m.task_duration.labels(task="t").observe(0.3)
                m.in_progress.labels(task="t").inc()  # died mid-task
                os._exit(0)
            os.waitpid(pid, 0)

    report = {}
    fork_children(3)
    report["before"] = totals()
    report["folded"] = len(prefork_metrics.fold_dead_processes(path))
    report["after"] = totals()
    fork_children(2)
    prefork_metrics.fold_dead_processes(path)
    report["second"] = totals()
    report["files"] = sorted(p.name for p in path.iterdir())
    print(json.dumps(report))
    """
)


def test_dead_children_are_folded_without_changing_any_total(tmp_path: Path) -> None:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", FORKING_SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    report = json.loads(out.stdout)
    before, after, second = report["before"], report["after"], report["second"]
    assert report["folded"] == 3
    assert before["lease_documents_total"] == after["lease_documents_total"] == 1 + 2 + 3
    assert before["lease_task_duration_seconds_count"] == 3
    assert after["lease_task_duration_seconds_count"] == 3
    assert (
        after["lease_task_duration_seconds_bucket"] == before["lease_task_duration_seconds_bucket"]
    )
    # Live gauges of dead processes are dropped: nothing is really in progress.
    assert before["lease_tasks_in_progress"] == 3
    assert after.get("lease_tasks_in_progress", 0) == 0
    # The archive accumulates across folds.
    assert second["lease_documents_total"] == 6 + 1 + 2
    assert second["lease_task_duration_seconds_count"] == 5
    assert report["files"] == ["counter_archive.db", "histogram_archive.db"]


def test_the_private_mmap_api_we_fold_with_behaves_as_pinned(tmp_path: Path) -> None:
    """Contract of prometheus-client's private MmapedDict, exactly as prefork_metrics uses it:
    written with write_value/close, read back with read_all_values_from_file, and an archive
    so written is summed by the public MultiProcessCollector."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.mmap_dict import MmapedDict, mmap_key
    from prometheus_client.multiprocess import MultiProcessCollector

    key = mmap_key("lease_duplicates_total", "lease_duplicates_total", [], [], "")
    archive = MmapedDict(str(tmp_path / "counter_archive.db"))
    archive.write_value(key, 7.0, 0.0)
    archive.close()
    [(read_key, value, _timestamp, _pos)] = list(
        MmapedDict.read_all_values_from_file(str(tmp_path / "counter_archive.db"))
    )
    assert (json.loads(read_key)[0], value) == ("lease_duplicates_total", 7.0)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(tmp_path))
    assert registry.get_sample_value("lease_duplicates_total") == 7.0


def test_prometheus_client_is_pinned_below_the_next_minor() -> None:
    import re
    from importlib.metadata import version

    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    bound = re.search(r'"prometheus-client>=[\d.]+,<(\d+)\.(\d+)"', pyproject)
    assert bound is not None, "prometheus-client must have an upper bound (private API)"
    installed = tuple(int(p) for p in version("prometheus-client").split(".")[:2])
    assert installed < (int(bound.group(1)), int(bound.group(2)))
