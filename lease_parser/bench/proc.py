"""A worker's memory and CPU, children included, read from /proc (Linux; no psutil needed).

A worker is a process tree: the Celery main process, its prefork pool children, and their
Tesseract subprocesses. ``TreeSampler`` sums the tree's RSS and PSS every ``interval``
seconds and keeps the peak; it also keeps the largest ``VmHWM`` (the kernel's own
high-water mark) seen at each depth, which catches peaks between samples. RSS sums count
pages shared by forked children once per process (an upper bound); PSS splits them, which
is closer to what the machine actually spends.

``tree_cpu_s`` is the CPU a process tree has used (user + system, its own and its reaped
children's): CPU per document is the figure other load on a shared machine disturbs
least, where wall-clock rates swing with the neighbours.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")
DEPTH_NAMES = ("main", "pool_child", "subprocess")


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (every thread's ``children`` list)."""
    out: list[int] = []
    try:
        for task in (PROC / str(pid) / "task").iterdir():
            text = (task / "children").read_text()
            out.extend(int(p) for p in text.split())
    except OSError:
        pass  # the process (or thread) ended while we looked
    return out


def tree(pid: int) -> list[tuple[int, int]]:
    """``(pid, depth)`` for ``pid`` and all its descendants."""
    out, frontier = [], [(pid, 0)]
    while frontier:
        current, depth = frontier.pop()
        out.append((current, depth))
        frontier.extend((child, depth + 1) for child in children(current))
    return out


def cpu_s(pid: int) -> float:
    """User + system CPU of ``pid`` and of its children it has reaped (0 if it is gone)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return 0.0
    # Fields after the ")" that closes the command name; utime is field 14 of the line.
    fields = stat.rsplit(")", 1)[1].split()
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu_s(pid: int) -> float:
    return sum(cpu_s(p) for p, _depth in tree(pid))


def _kb_fields(path: Path, names: tuple[str, ...]) -> dict[str, int]:
    found: dict[str, int] = {}
    try:
        for line in path.read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in names:
                found[key] = int(rest.split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return found


def rss_pss_kb(pid: int) -> tuple[int, int]:
    got = _kb_fields(PROC / str(pid) / "smaps_rollup", ("Rss", "Pss"))
    return got.get("Rss", 0), got.get("Pss", 0)


def hwm_kb(pid: int) -> int:
    return _kb_fields(PROC / str(pid) / "status", ("VmHWM",)).get("VmHWM", 0)


@dataclass
class TreePeak:
    rss_kb: int = 0
    pss_kb: int = 0
    hwm_kb_by_depth: dict[str, int] = field(default_factory=dict)
    samples: int = 0

    def to_json(self) -> dict[str, float | int]:
        out: dict[str, float | int] = {
            "peak_tree_rss_mb": round(self.rss_kb / 1024, 1),
            "peak_tree_pss_mb": round(self.pss_kb / 1024, 1),
            "samples": self.samples,
        }
        for depth, kb in self.hwm_kb_by_depth.items():
            out[f"max_{depth}_hwm_mb"] = round(kb / 1024, 1)
        return out


class TreeSampler(threading.Thread):
    """Samples the process tree under ``root`` until ``stop()``."""

    def __init__(self, root: int, interval: float = 0.25) -> None:
        super().__init__(name=f"rss-{root}", daemon=True)
        self.root = root
        self.interval = interval
        self.peak = TreePeak()
        self._stop_event = threading.Event()

    def sample(self) -> None:
        rss = pss = 0
        for pid, depth in tree(self.root):
            r, p = rss_pss_kb(pid)
            rss, pss = rss + r, pss + p
            name = DEPTH_NAMES[min(depth, len(DEPTH_NAMES) - 1)]
            hwm = self.peak.hwm_kb_by_depth
            hwm[name] = max(hwm.get(name, 0), hwm_kb(pid))
        self.peak.rss_kb = max(self.peak.rss_kb, rss)
        self.peak.pss_kb = max(self.peak.pss_kb, pss)
        self.peak.samples += 1

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.sample()
            self._stop_event.wait(self.interval)

    def stop(self) -> TreePeak:
        self._stop_event.set()
        self.join(5)
        self.sample()  # the last word: VmHWM covers whatever happened since
        return self.peak
