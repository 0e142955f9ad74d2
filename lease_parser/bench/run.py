"""One benchmark run: the corpus, then every phase on it, then the report.

Phases run back to back on the same corpus in the same run, so the comparison between
them holds even when the machine's absolute speed drifts (other load on a shared box).
With ``rounds`` > 1 the four phases run again, interleaved, and each phase is reported
from its fastest round: neighbours can only make a phase slower, never faster.
"""

from __future__ import annotations

import os
import platform
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lease_parser.bench.broker import measure_broker
from lease_parser.bench.cluster import run_pipeline
from lease_parser.bench.corpus import CorpusDoc, DocKind, generate_corpus
from lease_parser.bench.inprocess import run_sequential, run_threaded
from lease_parser.bench.phase import PhaseRun, Say
from lease_parser.bench.report import build_report

WARMUP_DOCS = 4  # untimed, through every phase first: at least two per pool process


@dataclass(frozen=True)
class BenchOptions:
    docs: int = 60
    scans: int = 3
    seed: int = 0
    threads: int = 2
    rounds: int = 1
    messages: int = 10_000
    locks: int = 2_000
    timeout: float = 1800


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def machine_info() -> dict[str, Any]:
    import pytesseract

    import redis

    return {
        "cpus": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "python": platform.python_version(),
        "tesseract": str(pytesseract.get_tesseract_version()),
        "redis_py": redis.__version__,
        "load_start": _load(),
    }


def corpus_info(docs: list[CorpusDoc], options: BenchOptions) -> dict[str, Any]:
    by_kind = {
        kind.value: {
            "docs": sum(1 for d in docs if d.kind is kind),
            "pages": sum(d.pages for d in docs if d.kind is kind),
        }
        for kind in DocKind
    }
    return {
        "docs": len(docs),
        "pages": sum(d.pages for d in docs),
        "seed": options.seed,
        "threads": options.threads,
        "by_kind": by_kind,
    }


def _run_phases(
    docs: list[CorpusDoc], warmup: list[CorpusDoc], data_dir: Path, options: BenchOptions, say: Say
) -> dict[str, PhaseRun]:
    say("baseline A: sequential, in this process ...")
    phases = {"sequential": run_sequential(docs, warmup, data_dir / "sequential", say)}
    say(f"baseline B: {options.threads} threads, in this process ...")
    phases["threaded"] = run_threaded(docs, warmup, data_dir / "threaded", options.threads, say)
    for c in (1, 2):
        say(f"pipeline at concurrency {c} ...")
        phases[f"pipeline_c{c}"] = run_pipeline(
            docs, warmup, data_dir / f"pipeline_c{c}", c, say, options.timeout
        )
    return phases


def run_benchmark(options: BenchOptions, data_dir: Path, say: Say) -> dict[str, Any]:
    """Every phase (``options.rounds`` times), in a fresh ``data_dir``; returns the report."""
    started = time.monotonic()
    machine = machine_info()
    say(f"generating {options.docs} documents (seed {options.seed}) ...")
    docs = generate_corpus(options.docs, options.scans, options.seed)
    # Distinct from the corpus (another seed), so the warm-up never dedups a timed document.
    warmup = generate_corpus(WARMUP_DOCS, 0, seed=-1 - options.seed, prefix="warmup")
    runs: dict[str, list[PhaseRun]] = defaultdict(list)
    for n in range(1, options.rounds + 1):
        if options.rounds > 1:
            say(f"round {n} of {options.rounds}")
        for name, run in _run_phases(docs, warmup, data_dir / f"round{n}", options, say).items():
            runs[name].append(run)
    phases = {name: min(rs, key=lambda run: run.wall_s) for name, rs in runs.items()}
    say("broker costs ...")
    broker = measure_broker(data_dir / "broker", options.messages, options.locks, say)
    machine["load_end"] = _load()
    report = build_report(corpus_info(docs, options), phases, broker, machine)
    report["rounds_wall_s"] = {name: [run.wall_s for run in rs] for name, rs in runs.items()}
    report["duration_s"] = round(time.monotonic() - started, 1)
    return report
