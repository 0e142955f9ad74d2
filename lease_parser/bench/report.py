"""Turn the phases' raw results into the benchmark's figures (one JSON object) and a table.

``build_report`` does the arithmetic (stats.py) and checks the targets; ``format_table``
only renders that object, so the table and ``--json`` can never disagree.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lease_parser.bench.broker import BrokerCosts
from lease_parser.bench.corpus import DocKind
from lease_parser.bench.phase import DocResult, PhaseRun
from lease_parser.bench.stats import (
    CPU_SUFFIX,
    WORK_STAGES,
    Overhead,
    Summary,
    broker_overhead,
    pool_busy,
    publish_times,
    rate,
    ratio,
    summarize,
)

MS = 1000.0
PHASES = ("sequential", "threaded", "pipeline_c1", "pipeline_c2")
TABLE_STAGES = (*WORK_STAGES, "register", "pdfium_lock_wait")
CORE_STAGES = ("parse", "ocr", "extract", "normalize")


@dataclass(frozen=True)
class Target:
    name: str
    key: str
    limit: float
    higher_is_better: bool
    unit: str

    def met(self, value: float) -> bool:
        return value >= self.limit if self.higher_is_better else value <= self.limit


TARGETS = (
    Target("pipeline c2 / sequential", "ratio_pipeline_c2_over_sequential", 1.8, True, "x"),
    Target("text-PDF abstraction, median", "ms_per_page_text_pdf", 5.0, False, "ms/page"),
    Target("broker + dedup overhead", "broker_overhead_ms_per_task", 2.0, False, "ms/task"),
    Target("OCR CPU at 300 DPI", "ocr_s_per_page", 2.6, False, "s/page"),
    Target("Redis per queued document", "redis_bytes_per_queued_doc", 2048, False, "bytes"),
)


def _ms(summary: Summary) -> dict[str, float | int]:
    return summary.scaled(MS).to_json(digits=3)


def _stage_table(docs: list[DocResult]) -> dict[str, dict[str, float | int]]:
    out = {}
    for stage in TABLE_STAGES:
        values = [d.stages[stage] for d in docs if stage in d.stages]
        if values:
            out[stage] = _ms(summarize(values))
    return out


def ms_per_page(
    docs: Iterable[DocResult], kind: DocKind = DocKind.TEXT_PDF, cpu: bool = False
) -> Summary:
    """The core's time (parse → normalize) per page, one value per document of ``kind``:
    wall time, or with ``cpu`` the thread's CPU time (what other load disturbs least)."""
    stages = [s + CPU_SUFFIX if cpu else s for s in CORE_STAGES]
    return summarize(
        MS * sum(d.stages.get(s, 0.0) for s in stages) / d.pages
        for d in docs
        if d.kind is kind and d.pages
    )


def overhead_cpu_ms(run: PhaseRun, overhead: Overhead) -> float:
    """Broker overhead per task in CPU: the pool process's CPU outside the work stages,
    plus the worker's main process, redis-server and the submits, shared over the tasks."""
    shared = sum(v for k, v in run.cpu_s.items() if k != "worker_pool")
    return (overhead.in_task_cpu.mean + ratio(shared, overhead.tasks)) * MS


def _ocr(sequential: PhaseRun, c1: PhaseRun) -> dict[str, float]:
    scans = [d for d in sequential.docs if d.ocr_pages]
    pages = sum(d.ocr_pages for d in scans)
    spans = [s for s in c1.spans if s.ocr_pages]
    span_pages = sum(s.ocr_pages for s in spans)
    return {
        "pages": pages,
        "tesseract_cpu_s_per_page": ratio(sum(d.ocr_cpu_s for d in scans), pages),
        "in_process_cpu_s_per_page": ratio(sum(d.ocr_self_cpu_s for d in scans), pages),
        "wall_s_per_page": ratio(sum(d.stages.get("ocr", 0.0) for d in scans), pages),
        "pipeline_c1_tesseract_cpu_s_per_page": ratio(sum(s.ocr_cpu_s for s in spans), span_pages),
    }


def _overhead_json(o: Overhead) -> dict[str, Any]:
    return {
        "tasks": o.tasks,
        "per_task_ms": _ms(o.per_task),
        "dispatch_gap_ms": _ms(o.gap),
        "in_task_ms": _ms(o.in_task),
        "in_task_cpu_ms": _ms(o.in_task_cpu),
        "in_task_components_ms": {k: _ms(v) for k, v in o.components.items()},
    }


def _signature(d: DocResult) -> tuple[str, str | None, float | None]:
    return d.route, d.reason, None if d.confidence is None else round(d.confidence, 3)


def _mismatches(reference: PhaseRun, other: PhaseRun) -> list[str]:
    expected = {d.doc_hash: _signature(d) for d in reference.docs}
    return [d.name for d in other.docs if _signature(d) != expected.get(d.doc_hash)]


RATIOS = (
    ("pipeline_c1", "sequential"),
    ("pipeline_c2", "sequential"),
    ("pipeline_c1", "threaded"),
    ("pipeline_c2", "threaded"),
    ("threaded", "sequential"),
)


def _ratios(docs_per_s: dict[str, float], cpu_per_doc: dict[str, float]) -> dict[str, float]:
    out = {f"{a}_over_{b}": ratio(docs_per_s[a], docs_per_s[b]) for a, b in RATIOS}
    # What c2 / sequential would be on two idle cores if both were CPU-bound: from CPU
    # seconds per document, which neighbours on a shared machine disturb least.
    out["pipeline_c2_over_sequential_if_cpu_bound"] = 2 * ratio(
        cpu_per_doc["sequential"], cpu_per_doc["pipeline_c2"]
    )
    return out


def build_report(
    corpus: dict[str, Any],
    phases: dict[str, PhaseRun],
    broker: BrokerCosts,
    machine: dict[str, Any],
) -> dict[str, Any]:
    seq, c1, c2 = phases["sequential"], phases["pipeline_c1"], phases["pipeline_c2"]
    docs_per_s = {n: rate(len(p.docs), p.wall_s) for n, p in phases.items()}
    cpu_per_doc = {n: ratio(sum(p.cpu_s.values()), len(p.docs)) for n, p in phases.items()}
    pipelines = (("pipeline_c1", c1), ("pipeline_c2", c2))
    overheads = {
        n: broker_overhead(p.spans, publish_times(p.spans, p.submitted)) for n, p in pipelines
    }
    ocr = _ocr(seq, c1)
    ratios = _ratios(docs_per_s, cpu_per_doc)
    report: dict[str, Any] = {
        "machine": machine,
        "corpus": corpus,
        "docs_per_s": docs_per_s,
        "pages_per_s": {n: rate(p.pages, p.wall_s) for n, p in phases.items()},
        "wall_s": {n: p.wall_s for n, p in phases.items()},
        "cpu_s_per_doc": cpu_per_doc,
        "cpu_s": {n: p.cpu_s for n, p in phases.items()},
        "pool_busy": {n: pool_busy(p.spans, p.concurrency, p.wall_s) for n, p in pipelines},
        "ratio_pipeline_c2_over_sequential": ratios["pipeline_c2_over_sequential"],
        "ratios": ratios,
        "ms_per_page_text_pdf": ms_per_page(seq.docs).p50,
        "ms_per_page_text_pdf_cpu": ms_per_page(seq.docs, cpu=True).p50,
        "ms_per_page_text_pdf_detail": {
            n: ms_per_page(p.docs).to_json() for n, p in phases.items()
        },
        "ms_per_page_docx": ms_per_page(seq.docs, DocKind.DOCX).p50,
        "ocr_s_per_page": ocr["tesseract_cpu_s_per_page"],
        "ocr": ocr,
        "broker_overhead_ms_per_task": overheads["pipeline_c1"].per_task.mean * MS,
        "broker_overhead_cpu_ms_per_task": overhead_cpu_ms(c1, overheads["pipeline_c1"]),
        "broker_overhead": {n: _overhead_json(o) for n, o in overheads.items()},
        "broker_overhead_macro_ms_per_task": ratio((c1.wall_s - seq.wall_s) * MS, len(c1.spans)),
        "broker_overhead_macro_cpu_ms_per_task": ratio(
            (sum(c1.cpu_s.values()) - sum(seq.cpu_s.values())) * MS, len(c1.spans)
        ),
        "dedup_hash_lock_ms": {**_ms(broker.lock_s), "ping_p50": broker.ping_s.p50 * MS},
        "redis_bytes_per_queued_doc": broker.bytes_per_queued_doc,
        "redis": {
            "queued": broker.queued,
            "message_bytes": broker.message_bytes,
            "publish_ms": _ms(broker.publish_s),
        },
        "peak_memory": {"pipeline_c1": c1.memory, "pipeline_c2": c2.memory},
        "stages_ms_per_doc": {n: _stage_table(p.docs) for n, p in phases.items()},
        "routes": {n: dict(Counter(d.route for d in p.docs)) for n, p in phases.items()},
        "mismatches_vs_sequential": {
            n: _mismatches(seq, p) for n, p in phases.items() if n != "sequential"
        },
    }
    report["targets"] = [
        {
            "name": t.name,
            "key": t.key,
            "target": ("≥ " if t.higher_is_better else "≤ ") + f"{t.limit:g} {t.unit}",
            "value": report[t.key],
            # Not measured (e.g. no scanned document with --scans 0): neither met nor missed.
            "met": None if math.isnan(report[t.key]) else t.met(report[t.key]),
        }
        for t in TARGETS
    ]
    return report


def json_safe(obj: Any) -> Any:
    """The report with NaN (a figure that could not be measured) as null: strict JSON."""
    if isinstance(obj, float) and math.isnan(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    return obj


# -- the table ----------------------------------------------------------------------------


def _f(value: float, digits: int = 2) -> str:
    return f"{value:,.{digits}f}"


def _throughput(r: dict[str, Any]) -> list[str]:
    labels = {
        "sequential": "A sequential (1 process)",
        "threaded": f"B threads x{r['corpus']['threads']} (1 process)",
        "pipeline_c1": "pipeline, 1 worker -c 1",
        "pipeline_c2": "pipeline, 1 worker -c 2",
    }
    seq = r["docs_per_s"]["sequential"]
    lines = [
        f"{'throughput':34}{'docs/s':>9}{'pages/s':>10}{'wall s':>9}{'x seq':>8}{'CPU s/doc':>11}"
    ]
    for name, label in labels.items():
        docs = r["docs_per_s"][name]
        lines.append(
            f"  {label:32}{_f(docs):>9}{_f(r['pages_per_s'][name], 1):>10}"
            f"{_f(r['wall_s'][name], 1):>9}{_f(docs / seq):>8}{_f(r['cpu_s_per_doc'][name], 3):>11}"
        )
    bound = r["ratios"]["pipeline_c2_over_sequential_if_cpu_bound"]
    busy = r["pool_busy"]
    lines += [
        f"  from CPU s/doc, on two idle cores: pipeline c2 / sequential ≈ {_f(bound)} at best",
        f"  pool processes busy in tasks: c1 {busy['pipeline_c1']:.0%}, c2 "
        f"{busy['pipeline_c2']:.0%} of the wall time",
    ]
    return lines


def _stages(r: dict[str, Any]) -> list[str]:
    header = f"{'stage, ms per document':24}" + "".join(f"{n:>18}" for n in PHASES)
    lines = [header, f"{'':24}" + f"{'p50':>9}{'p95':>9}" * len(PHASES)]
    table = r["stages_ms_per_doc"]
    for stage in TABLE_STAGES:
        cells = []
        for name in PHASES:
            s = table[name].get(stage)
            cells.append(f"{_f(s['p50'], 1):>9}{_f(s['p95'], 1):>9}" if s else f"{'-':>9}{'-':>9}")
        if any(stage in table[n] for n in PHASES):
            lines.append(f"  {stage:22}" + "".join(cells))
    return lines


def _overhead(r: dict[str, Any]) -> list[str]:
    lines = ["broker overhead per task, ms = time in the worker − work stages + dispatch gap"]
    for name, o in r["broker_overhead"].items():
        per, parts = o["per_task_ms"], o["in_task_components_ms"]
        lines += [
            f"  {name} ({o['tasks']} tasks): mean {_f(per['mean'], 3)}, p50 {_f(per['p50'], 3)}"
            f", p95 {_f(per['p95'], 3)}; dispatch gap mean {_f(o['dispatch_gap_ms']['mean'], 3)}"
            f"; in task mean {_f(o['in_task_ms']['mean'], 3)} "
            f"(CPU {_f(o['in_task_cpu_ms']['mean'], 3)})",
            "    in task, means: " + ", ".join(f"{k} {_f(v['mean'], 3)}" for k, v in parts.items()),
        ]
    lines += [
        f"  in CPU, pipeline c1: {_f(r['broker_overhead_cpu_ms_per_task'], 3)} ms per task (pool "
        "process outside work stages + worker main process, redis-server and submits)",
        "  cross-checks, (pipeline c1 − sequential) / tasks: wall "
        f"{_f(r['broker_overhead_macro_ms_per_task'], 1)} ms, CPU "
        f"{_f(r['broker_overhead_macro_cpu_ms_per_task'], 1)} ms",
    ]
    return lines


def _memory(r: dict[str, Any]) -> list[str]:
    lines = ["peak memory per worker (main + pool children + Tesseract), MB"]
    for name, m in r["peak_memory"].items():
        details = ", ".join(f"{k} {v}" for k, v in m.items() if k != "samples")
        lines.append(f"  {name}: {details}")
    return lines


def format_table(r: dict[str, Any]) -> str:
    c, m, ocr, redis = r["corpus"], r["machine"], r["ocr"], r["redis"]
    kinds = ", ".join(f"{v['docs']} {k}" for k, v in c["by_kind"].items())
    lock = r["dedup_hash_lock_ms"]
    lines = [
        f"lease_parser benchmark: {c['docs']} documents ({kinds}; {c['pages']} pages), "
        f"seed {c['seed']}",
        f"machine: {m['cpus']} CPUs, {m['cpu_model']}; load average {m['load_start']} at "
        f"start, {m['load_end']} at end",
        "",
        *_throughput(r),
        "",
        *_stages(r),
        "",
        *_overhead(r),
        f"dedup hash lock (Lua EVALSHA, one round trip): p50 {_f(lock['p50'], 3)} ms, p95 "
        f"{_f(lock['p95'], 3)} ms; PING p50 {_f(lock['ping_p50'], 3)} ms",
        f"redis: {_f(r['redis_bytes_per_queued_doc'], 0)} bytes per queued document "
        f"({redis['queued']} queued, one message {redis['message_bytes']} bytes); "
        f"publish p50 {_f(redis['publish_ms']['p50'], 2)} ms",
        f"OCR at 300 DPI over {ocr['pages']} pages: Tesseract "
        f"{_f(ocr['tesseract_cpu_s_per_page'])} s CPU/page (pipeline "
        f"{_f(ocr['pipeline_c1_tesseract_cpu_s_per_page'])}), rendering + encoding "
        f"{_f(ocr['in_process_cpu_s_per_page'])} s CPU/page, wall {_f(ocr['wall_s_per_page'])} "
        "s/page",
        *_memory(r),
        "routes: "
        + "; ".join(
            f"{n} " + ", ".join(f"{k} {v}" for k, v in sorted(x.items()))
            for n, x in r["routes"].items()
        ),
        "results identical to sequential: "
        + ", ".join(
            f"{n} {'yes' if not bad else 'NO: ' + ' '.join(bad[:5])}"
            for n, bad in r["mismatches_vs_sequential"].items()
        ),
        "",
        f"{'target':34}{'goal':>18}{'measured':>14}",
    ]
    for t in r["targets"]:
        mark = {True: "met", False: "MISSED", None: "not measured"}[t["met"]]
        lines.append(f"  {t['name']:32}{t['target']:>18}{_f(t['value'], 2):>14}  {mark}")
    return "\n".join(lines)
