"""Column detection on synthetic text-run boxes (left, bottom, right, top)."""

from __future__ import annotations

from lease_parser.parsing.layout import Rect, column_regions


def _lines(left: float, right: float, top: float, count: int, step: float = 12) -> list[Rect]:
    return [(left, top - i * step - 9, right, top - i * step) for i in range(count)]


def test_single_column_prose_has_no_regions() -> None:
    assert column_regions(_lines(50, 560, 740, 40)) is None


def test_too_few_runs_are_not_judged() -> None:
    rects = _lines(50, 280, 740, 5) + _lines(320, 560, 740, 5)
    assert column_regions(rects) is None


def test_newspaper_columns_read_column_by_column_under_a_spanning_heading() -> None:
    heading = [(50.0, 752.0, 560.0, 762.0)]
    rects = heading + _lines(50, 285, 740, 20) + _lines(320, 560, 740, 20)
    regions = column_regions(rects)
    assert regions is not None
    assert len(regions) == 3
    top, left_col, right_col = regions
    assert top[0] < 50
    assert top[2] > 560
    assert top[1] >= left_col[3] - 1e-9  # bands do not overlap
    assert left_col[2] <= right_col[0] + 1e-9  # columns split at the gutter
    assert 285 < left_col[2] < 320


def test_label_value_layout_keeps_stream_order() -> None:
    labels = [(50.0, 740 - i * 16 - 9, 50 + 60 + (i % 3) * 25, 740 - i * 16) for i in range(10)]
    values = _lines(220, 480, 740, 10, step=16)
    assert column_regions(labels + values) is None


def test_three_aligned_table_columns_are_not_newspaper_columns() -> None:
    rects = []
    for x, width in ((60, 60), (220, 80), (380, 55)):
        rects += _lines(x, x + width, 700, 6, step=15)
    assert column_regions(rects) is None
