"""The benchmark's arithmetic: percentiles, dispatch gaps, broker overhead per task."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lease_parser.bench.stats import (
    TaskSpan,
    broker_overhead,
    dispatch_gaps,
    percentile,
    pool_busy,
    publish_times,
    rate,
    ratio,
    stages_by_document,
    summarize,
)


def span(
    task_id: str,
    pid: int,
    start: float,
    end: float,
    doc: str = "h",
    stages: dict[str, float] | None = None,
    stage_cpu: dict[str, float] | None = None,
    cpu: float = 0.0,
    published: dict[str, float] | None = None,
) -> TaskSpan:
    return TaskSpan(
        task_id,
        "t",
        doc,
        pid,
        start,
        end,
        stages=stages or {},
        cpu=cpu,
        stage_cpu=stage_cpu or {},
        published=published or {},
    )


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([1, 2, 3, 4], 50, 2.5),
        ([1, 2, 3, 4], 95, 3.85),
        ([1, 2, 3, 4], 0, 1),
        ([1, 2, 3, 4], 100, 4),
        ([7], 95, 7),
        ([3, 1, 2], 50, 2),
    ],
)
def test_percentile_interpolates_between_ranks_like_numpy(
    values: list[float], q: float, expected: float
) -> None:
    assert percentile(values, q) == pytest.approx(expected)


def test_percentile_of_nothing_is_nan_not_zero() -> None:
    assert math.isnan(percentile([], 50))
    assert summarize([]).n == 0


@given(st.lists(st.floats(-1e6, 1e6), min_size=1), st.floats(0, 100), st.floats(0, 100))
def test_percentile_is_monotonic_and_within_the_data(
    values: list[float], q1: float, q2: float
) -> None:
    low, high = sorted((q1, q2))
    assert min(values) <= percentile(values, low) <= percentile(values, high) <= max(values)


def test_summary_scales_to_milliseconds() -> None:
    s = summarize([0.001, 0.002, 0.003]).scaled(1000)
    assert (s.n, s.p50, s.mean) == (3, pytest.approx(2.0), pytest.approx(2.0))


def test_rate_and_ratio_refuse_to_divide_by_zero() -> None:
    assert rate(10, 4) == 2.5
    assert math.isnan(rate(10, 0))
    assert math.isnan(ratio(1, 0))


def test_dispatch_gap_counts_from_the_later_of_publish_and_previous_end() -> None:
    spans = [
        span("a", 1, start=1.0, end=3.0),  # published at 0, process idle: gap 1.0
        span("b", 1, start=3.5, end=4.0),  # published at 2 while a ran: gap from a's end
        span("c", 1, start=5.2, end=6.0),  # published at 5, after b ended: gap from publish
        span("d", 2, start=0.4, end=9.0),  # another process: its own sequence
    ]
    gaps = dispatch_gaps(spans, {"a": 0.0, "b": 2.0, "c": 5.0, "d": 0.1})
    assert gaps == pytest.approx({"a": 1.0, "b": 0.5, "c": 0.2, "d": 0.3})


def test_a_task_whose_publish_time_is_unknown_gets_no_gap() -> None:
    gaps = dispatch_gaps([span("a", 1, 1.0, 2.0), span("b", 1, 2.5, 3.0)], {"b": 0.0})
    assert gaps == pytest.approx({"b": 0.5})


def test_publish_times_merge_the_controller_and_the_tasks_that_published() -> None:
    first = span("a", 1, 1.0, 2.0, published={"b": 1.9})
    assert publish_times([first], {"a": 0.5}) == {"a": 0.5, "b": 1.9}


def test_broker_overhead_is_time_outside_work_stages_plus_the_gap() -> None:
    spans = [
        span(
            "a",
            1,
            start=1.0,
            end=1.1,
            stages={"parse": 0.05, "extract": 0.02, "hash_lock": 0.001, "publish": 0.004},
            cpu=0.08,
            stage_cpu={"parse": 0.05, "extract": 0.02},
        ),
        span("b", 1, start=1.2, end=1.25, stages={"normalize": 0.01, "commit": 0.03}),
    ]
    o = broker_overhead(spans, {"a": 0.99, "b": 1.095})
    # a: 0.1 in the worker − 0.07 work + 0.01 gap; b: 0.05 − 0.04 + 0.1 gap (from a's end)
    assert o.tasks == 2
    assert o.per_task.mean == pytest.approx((0.04 + 0.11) / 2)
    assert o.gap.mean == pytest.approx((0.01 + 0.1) / 2)
    assert o.in_task_cpu.p50 == pytest.approx(0.005)
    assert o.components["hash_lock"].mean == pytest.approx(0.0005)
    # a's unexplained rest: 0.03 − 0.001 − 0.004; b's: 0.01
    assert o.components["other_in_task"].mean == pytest.approx((0.025 + 0.01) / 2)


def test_pool_busy_is_task_time_over_processes_times_wall() -> None:
    spans = [span("a", 1, 0.0, 3.0), span("b", 2, 0.0, 1.0), span("c", 2, 2.0, 3.0)]
    assert pool_busy(spans, processes=2, wall=4.0) == pytest.approx(5 / 8)


def test_stages_by_document_adds_up_a_documents_tasks_wall_and_cpu() -> None:
    spans = [
        span("a", 1, 0, 1, doc="h1", stages={"parse": 0.2}, stage_cpu={"parse": 0.1}),
        span("b", 1, 1, 2, doc="h1", stages={"parse": 0.3, "ocr": 2.0}),
        span("c", 2, 0, 1, doc="h2", stages={"parse": 0.1}),
    ]
    by_doc = stages_by_document(spans)
    assert by_doc["h1"] == pytest.approx({"parse": 0.5, "ocr": 2.0, "parse_cpu": 0.1})
    assert by_doc["h2"] == pytest.approx({"parse": 0.1})
