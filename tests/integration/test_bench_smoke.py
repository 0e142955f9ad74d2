"""`lease-parser bench` end to end on a tiny corpus, so the command cannot rot.

Real parts throughout: its own redis-server, a real probed worker per pipeline phase,
Tesseract on the scanned page. Speed is not asserted (a shared CI box is noisy); the
figures' presence, consistency, and that everything started was stopped, are.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.timeout(900)
def test_bench_runs_every_phase_and_prints_one_json_object(tmp_path: Path) -> None:
    env = {**os.environ, "LEASE_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "lease_parser", "bench", "--docs", "3", "--scans", "1",
         "--messages", "200", "--rounds", "1", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=850,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    phases = ("sequential", "threaded", "pipeline_c1", "pipeline_c2")
    assert all(report["docs_per_s"][p] > 0 for p in phases)
    assert report["corpus"]["docs"] == 3
    assert report["corpus"]["by_kind"]["scan"]["docs"] == 1
    # The pipeline reached the same results as the core run in one process.
    assert report["mismatches_vs_sequential"] == {p: [] for p in phases[1:]}
    # 2 tasks per text document, 3 for the scan (it goes through the OCR queue).
    assert report["broker_overhead"]["pipeline_c1"]["tasks"] == 2 + 2 + 3
    assert report["ocr"]["pages"] == 1
    assert 0 < report["ocr_s_per_page"] < 60
    assert report["redis"]["queued"] == 200
    assert 100 < report["redis_bytes_per_queued_doc"] < 100_000
    assert report["peak_memory"]["pipeline_c2"]["peak_tree_rss_mb"] > 0
    assert {t["key"] for t in report["targets"]} >= {"ratio_pipeline_c2_over_sequential"}
    assert "pipeline at concurrency 2" in done.stderr  # progress went to stderr
    assert not list(tmp_path.glob("bench-*")), "the run's data directory was not removed"
    leftover = subprocess.run(
        ["pgrep", "-f", f"--dir {tmp_path}"], capture_output=True, text=True, check=False
    )
    assert leftover.stdout == "", "a redis-server of the benchmark is still running"
