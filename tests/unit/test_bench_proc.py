"""Reading a process tree's memory and CPU from /proc."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from lease_parser.bench.proc import TreeSampler, cpu_s, hwm_kb, rss_pss_kb, tree
from tests.waiting import wait_for

BUSY_CHILD = (
    "import time; x = bytearray(64 * 2**20); t = time.time()\nwhile time.time() - t < 30: pass"
)


def test_tree_finds_a_child_one_level_down_and_its_memory() -> None:
    child = subprocess.Popen([sys.executable, "-c", BUSY_CHILD])
    try:
        deadline = time.monotonic() + 10
        while hwm_kb(child.pid) < 64 * 1024 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (child.pid, 1) in tree(os.getpid())
        rss, pss = rss_pss_kb(child.pid)
        assert rss >= 64 * 1024
        assert 0 < pss <= rss
        sampler = TreeSampler(os.getpid(), interval=0.05)
        sampler.start()
        wait_for(lambda: sampler.peak.samples >= 2, "two samples of the tree", timeout=10)
        peak = sampler.stop()
        assert peak.samples >= 2
        assert peak.rss_kb >= rss
        assert peak.hwm_kb_by_depth["pool_child"] >= 64 * 1024
        assert cpu_s(child.pid) > 0
    finally:
        child.kill()
        child.wait()


def test_a_process_that_is_gone_reads_as_nothing_not_an_error() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert tree(child.pid) == [(child.pid, 0)]
    assert rss_pss_kb(child.pid) == (0, 0)
    assert cpu_s(child.pid) == 0.0
