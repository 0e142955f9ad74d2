"""The benchmark's arithmetic: percentiles, rates, and the broker overhead of each task.

Pure: numbers and spans in, numbers out (unit-tested in tests/unit/test_bench_stats.py).

Broker overhead of a task = what the pipeline spends on it that the in-process baseline
does not: its time inside the worker minus its work stages, plus the dispatch gap before
it started (from the later of "its message was published" and "its pool process finished
the previous task", to "it started"). The gap holds the ack, the fetch of the next
message, the hand-off from the worker's main process to the pool child.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

# The stages the in-process baselines run too: everything else a task spends is overhead.
WORK_STAGES = ("download", "parse", "ocr", "extract", "normalize", "commit")
CPU_SUFFIX = "_cpu"  # stages["parse_cpu"]: the thread's CPU seconds in "parse"
# Stages the probes time inside a task that are pipeline machinery, not work.
OVERHEAD_STAGES = ("deliveries", "hash_lock", "already_final", "credential_check", "publish")


@dataclass(frozen=True)
class Summary:
    n: int
    p50: float
    p95: float
    mean: float

    def scaled(self, factor: float) -> Summary:
        return Summary(self.n, self.p50 * factor, self.p95 * factor, self.mean * factor)

    def to_json(self, digits: int = 3) -> dict[str, float | int]:
        return {
            "n": self.n,
            "p50": round(self.p50, digits),
            "p95": round(self.p95, digits),
            "mean": round(self.mean, digits),
        }


@dataclass
class TaskSpan:
    """One task as the probes saw it in a pool process (monotonic seconds, system-wide)."""

    task_id: str
    name: str
    doc_hash: str
    pid: int
    start: float
    end: float
    stages: dict[str, float] = field(default_factory=dict)
    cpu: float = 0.0  # the pool process's own CPU over the span (Tesseract not included)
    stage_cpu: dict[str, float] = field(default_factory=dict)
    # Messages this task published: task id → monotonic time the publish returned.
    published: dict[str, float] = field(default_factory=dict)
    ocr_pages: int = 0
    ocr_cpu_s: float = 0.0

    @property
    def duration(self) -> float:
        return self.end - self.start

    @property
    def work(self) -> float:
        return sum(self.stages.get(s, 0.0) for s in WORK_STAGES)

    @property
    def work_cpu(self) -> float:
        return sum(self.stage_cpu.get(s, 0.0) for s in WORK_STAGES)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100), linear between closest ranks (numpy's default)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summarize(values: Iterable[float]) -> Summary:
    data = list(values)
    mean = sum(data) / len(data) if data else math.nan
    return Summary(len(data), percentile(data, 50), percentile(data, 95), mean)


def rate(count: float, seconds: float) -> float:
    return count / seconds if seconds > 0 else math.nan


def ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator > 0 else math.nan


def pool_busy(spans: Iterable[TaskSpan], processes: int, wall: float) -> float:
    """Share of the pool's time spent inside tasks: near 1 means the pool never waited for
    work, so a low throughput is the cores' speed (or neighbours), not dispatch or a tail."""
    return ratio(sum(s.duration for s in spans), processes * wall)


def publish_times(spans: Iterable[TaskSpan], submitted: Mapping[str, float]) -> dict[str, float]:
    """When each task's message was published: by the controller, or by an earlier task."""
    out = dict(submitted)
    for span in spans:
        out.update(span.published)
    return out


def dispatch_gaps(spans: Sequence[TaskSpan], published: Mapping[str, float]) -> dict[str, float]:
    """Per task: start − max(publish time, end of the same process's previous task).

    Tasks whose publish time is unknown get no gap (they are left out, not guessed).
    """
    by_pid: dict[int, list[TaskSpan]] = defaultdict(list)
    for span in spans:
        by_pid[span.pid].append(span)
    gaps: dict[str, float] = {}
    for tasks in by_pid.values():
        tasks.sort(key=lambda s: s.start)
        previous_end = -math.inf
        for span in tasks:
            sent = published.get(span.task_id)
            if sent is not None:
                gaps[span.task_id] = max(0.0, span.start - max(sent, previous_end))
            previous_end = span.end
    return gaps


@dataclass(frozen=True)
class Overhead:
    """Broker overhead per task, and what it is made of (seconds)."""

    per_task: Summary
    in_task: Summary
    in_task_cpu: Summary  # the same, in the pool process's CPU time: immune to waiting
    gap: Summary
    components: dict[str, Summary]
    tasks: int


def broker_overhead(spans: Sequence[TaskSpan], published: Mapping[str, float]) -> Overhead:
    """Overhead of every task with a known dispatch gap; see the module docstring."""
    gaps = dispatch_gaps(spans, published)
    measured = [s for s in spans if s.task_id in gaps]
    in_task = [max(0.0, s.duration - s.work) for s in measured]
    components = {
        name: summarize(s.stages.get(name, 0.0) for s in measured) for name in OVERHEAD_STAGES
    }
    named = [sum(s.stages.get(n, 0.0) for n in OVERHEAD_STAGES) for s in measured]
    components["other_in_task"] = summarize(t - n for t, n in zip(in_task, named, strict=True))
    return Overhead(
        per_task=summarize(t + gaps[s.task_id] for t, s in zip(in_task, measured, strict=True)),
        in_task=summarize(in_task),
        in_task_cpu=summarize(max(0.0, s.cpu - s.work_cpu) for s in measured),
        gap=summarize(gaps[s.task_id] for s in measured),
        components=components,
        tasks=len(measured),
    )


def stages_by_document(spans: Iterable[TaskSpan]) -> dict[str, dict[str, float]]:
    """Sum each document's stage times over its tasks (the OCR task re-downloads and
    re-parses, so a scanned document's download and parse count twice, as they cost)."""
    out: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for span in spans:
        for stage, seconds in span.stages.items():
            out[span.doc_hash][stage] += seconds
        for stage, seconds in span.stage_cpu.items():
            out[span.doc_hash][stage + CPU_SUFFIX] += seconds
    return {doc: dict(stages) for doc, stages in out.items()}
