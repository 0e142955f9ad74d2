"""The report: the figures the issue names, the ratios, the targets, the table."""

from __future__ import annotations

import json
import math

import pytest

from lease_parser.bench.broker import BrokerCosts
from lease_parser.bench.corpus import DocKind
from lease_parser.bench.phase import DocResult, PhaseRun
from lease_parser.bench.report import (
    TARGETS,
    Target,
    build_report,
    format_table,
    json_safe,
    ms_per_page,
)
from lease_parser.bench.stats import TaskSpan, summarize


def doc(
    name: str, kind: DocKind, pages: int, parse: float, route: str = "committed", **kw: float
) -> DocResult:
    stages = {"download": 0.001, "parse": parse, "extract": 0.01, "normalize": 0.001}
    stages |= {"commit": 0.002, "parse_cpu": parse / 2}
    return DocResult(name, kind, pages, f"hash-{name}", route, None, 0.9, stages, **kw)  # type: ignore[arg-type]


def corpus_docs(route: str = "committed", with_scan: bool = True) -> list[DocResult]:
    docs = [
        doc("a.pdf", DocKind.TEXT_PDF, 10, parse=0.03, route=route),  # 4.1 ms/page
        doc("b.pdf", DocKind.TEXT_PDF, 20, parse=0.05, route=route),  # 3.05 ms/page
        doc("c.docx", DocKind.DOCX, 4, parse=0.02, route=route),
    ]
    if with_scan:
        docs.append(
            doc("d.scan.pdf", DocKind.SCAN, 1, parse=0.001, route=route, ocr_pages=1, ocr_cpu_s=1.5)
        )
    return docs


def pipeline(name: str, wall: float, route: str = "committed", with_scan: bool = True) -> PhaseRun:
    spans = [
        TaskSpan(
            "t1",
            "extract",
            "hash-a.pdf",
            7,
            1.0,
            1.05,
            {"parse": 0.03, "publish": 0.002},
            published={"t2": 1.049},
        ),
        TaskSpan("t2", "normalize", "hash-a.pdf", 7, 1.06, 1.07, {"commit": 0.005}, cpu=0.004),
    ]
    return PhaseRun(
        name,
        1,
        wall,
        corpus_docs(route, with_scan),
        spans,
        submitted={"t1": 0.999},
        memory={"peak_tree_rss_mb": 300.0},
        cpu_s={"worker_main": 0.01, "worker_pool": 1.0, "redis": 0.002, "submit": 0.001},
    )


def make_report(with_scan: bool = True) -> dict:  # type: ignore[type-arg]
    docs = corpus_docs(with_scan=with_scan)
    phases = {
        "sequential": PhaseRun("sequential", 1, 4.0, docs, cpu_s={"process": 3.9}),
        "threaded": PhaseRun("threaded", 2, 3.0, docs, cpu_s={"process": 4.0}),
        "pipeline_c1": pipeline("pipeline c1", 4.4, with_scan=with_scan),
        "pipeline_c2": pipeline("pipeline c2", 2.0, route="review", with_scan=with_scan),
    }
    s = summarize([0.0001, 0.0002])
    broker = BrokerCosts(s, s, s, queued=100, bytes_per_queued_doc=1400.0, message_bytes=1380)
    corpus = {"docs": 4, "pages": 35, "seed": 0, "threads": 2, "by_kind": {"scan": {"docs": 1}}}
    machine = {"cpus": 2, "cpu_model": "test", "load_start": [0.1], "load_end": [0.2]}
    return build_report(corpus, phases, broker, machine)


@pytest.fixture
def report() -> dict:  # type: ignore[type-arg]
    return make_report()


def test_report_has_every_figure_the_issue_names(report: dict) -> None:  # type: ignore[type-arg]
    assert set(report["docs_per_s"]) == {"sequential", "threaded", "pipeline_c1", "pipeline_c2"}
    for key in (
        "ratio_pipeline_c2_over_sequential",
        "ms_per_page_text_pdf",
        "ocr_s_per_page",
        "broker_overhead_ms_per_task",
        "redis_bytes_per_queued_doc",
    ):
        assert isinstance(report[key], float), key
    json.dumps(report)  # the --json output is one serializable object


def test_rates_and_ratios_come_from_wall_times(report: dict) -> None:  # type: ignore[type-arg]
    assert report["docs_per_s"]["sequential"] == pytest.approx(1.0)
    assert report["pages_per_s"]["pipeline_c2"] == pytest.approx(17.5)
    assert report["ratio_pipeline_c2_over_sequential"] == pytest.approx(2.0)
    assert report["ratios"]["pipeline_c1_over_threaded"] == pytest.approx(3.0 / 4.4)
    assert report["pool_busy"]["pipeline_c1"] == pytest.approx(0.06 / 4.4)


def test_ms_per_page_is_the_median_of_text_pdfs_core_time(report: dict) -> None:  # type: ignore[type-arg]
    # a: (30 + 10 + 1) ms / 10 pages = 4.1; b: (50 + 10 + 1) / 20 = 3.05; median 3.575
    assert report["ms_per_page_text_pdf"] == pytest.approx(3.575)
    assert ms_per_page(corpus_docs(), DocKind.DOCX).p50 == pytest.approx(31 / 4)
    assert report["ms_per_page_text_pdf_cpu"] == pytest.approx((1.5 + 1.25) / 2)


def test_ocr_cpu_is_tesseract_seconds_per_ocr_page(report: dict) -> None:  # type: ignore[type-arg]
    assert report["ocr_s_per_page"] == pytest.approx(1.5)


def test_broker_overhead_comes_from_the_c1_spans(report: dict) -> None:  # type: ignore[type-arg]
    # t1: 0.05 − 0.03 work + 0.001 gap; t2: 0.01 − 0.005 + 0.01 gap (from t1's end)
    assert report["broker_overhead_ms_per_task"] == pytest.approx((21 + 15) / 2)
    assert report["broker_overhead"]["pipeline_c1"]["tasks"] == 2


def test_results_that_differ_from_sequential_are_named(report: dict) -> None:  # type: ignore[type-arg]
    assert report["mismatches_vs_sequential"]["threaded"] == []
    assert len(report["mismatches_vs_sequential"]["pipeline_c2"]) == 4


def test_targets_are_judged_in_the_right_direction(report: dict) -> None:  # type: ignore[type-arg]
    met = {t["key"]: t["met"] for t in report["targets"]}
    assert met == {
        "ratio_pipeline_c2_over_sequential": True,
        "ms_per_page_text_pdf": True,
        "broker_overhead_ms_per_task": False,
        "ocr_s_per_page": True,
        "redis_bytes_per_queued_doc": True,
    }
    assert {t.key for t in TARGETS} == set(met)


@pytest.mark.parametrize(
    ("higher", "value", "met"), [(True, 1.8, True), (True, 1.7, False), (False, 2.1, False)]
)
def test_target_limits_are_inclusive(higher: bool, value: float, met: bool) -> None:
    limit = 1.8 if higher else 2.0
    assert Target("t", "k", limit, higher, "x").met(value) is met
    assert not Target("t", "k", 1.0, True, "x").met(math.nan)


def test_without_scans_the_ocr_figure_is_null_and_its_target_not_judged() -> None:
    report = make_report(with_scan=False)
    [ocr] = [t for t in report["targets"] if t["key"] == "ocr_s_per_page"]
    assert ocr["met"] is None
    assert "not measured" in format_table(report)
    printed = json.loads(json.dumps(json_safe(report), allow_nan=False))
    assert printed["ocr_s_per_page"] is None


def test_table_shows_throughput_overhead_and_the_targets(report: dict) -> None:  # type: ignore[type-arg]
    table = format_table(report)
    assert "pipeline, 1 worker -c 2" in table
    assert "broker overhead per task" in table
    assert "MISSED" in table
    assert "pipeline_c2 NO:" in table
