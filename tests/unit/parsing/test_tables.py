"""Table gating and cell location, on plain data."""

from __future__ import annotations

import pytest

from lease_parser.parsing.tables import (
    PageGraphics,
    aligned_blocks,
    is_ruled,
    locate_table,
    touching_boxes,
)


@pytest.mark.parametrize(
    ("graphics", "ruled"),
    [
        pytest.param(PageGraphics(), False, id="prose"),
        pytest.param(PageGraphics(horizontal_rules=34), False, id="form underlines only"),
        pytest.param(PageGraphics(horizontal_rules=5, vertical_rules=9), True, id="line grid"),
        pytest.param(PageGraphics(cell_boxes=12), True, id="grid of cell boxes"),
        pytest.param(PageGraphics(cell_boxes=2, horizontal_rules=40), False, id="two cells"),
        pytest.param(
            PageGraphics(vector_objects=9000, horizontal_rules=900, vertical_rules=900),
            False,
            id="a drawing",
        ),
    ],
)
def test_is_ruled(graphics: PageGraphics, ruled: bool) -> None:
    assert is_ruled(graphics) is ruled


def test_locate_table_finds_cells_whitespace_insensitively() -> None:
    text = "Rent is due.\nPeriod Monthly\nRent\nMonths 1-12 $15,000.00\nEnd."
    table = locate_table([["Period", "Monthly Rent"], ["Months 1-12", "$15,000.00"]], text)
    assert table.spans[0][1] is not None
    start, end = table.spans[0][1]
    assert text[start:end] == "Monthly\nRent"
    assert text[table.start : table.end].startswith("Period")
    assert text[table.start : table.end].endswith("$15,000.00")


def test_locate_table_prefers_the_occurrence_after_the_previous_cell() -> None:
    text = "Deposit $15,000.00. Schedule: Months 1-12 $15,000.00"
    table = locate_table([["Months 1-12", "$15,000.00"]], text)
    assert table.spans[0][1] == (text.rindex("$15,000.00"), len(text))


def test_locate_table_marks_missing_and_empty_cells() -> None:
    table = locate_table([["", "absent"], ["x", ""]], "x")
    assert table.spans == [[None, None], [(0, 1), None]]
    assert (table.start, table.end) == (0, 1)
    nothing = locate_table([["absent"]], "text")
    assert (nothing.start, nothing.end) == (-1, -1)


def _row(y: float, *xs: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    return [(x0, y, x1, y + 9) for x0, x1 in xs]


def test_aligned_blocks_need_three_aligned_rows_with_a_gutter() -> None:
    rows = [_row(700 - 15 * i, (60, 110), (220, 290), (380, 440)) for i in range(4)]
    blocks = aligned_blocks([r for row in rows for r in row])
    assert len(blocks) == 1
    assert [len(line) for line in blocks[0]] == [3, 3, 3, 3]


def test_touching_runs_of_a_justified_line_are_one_cell() -> None:
    # pdfium splits prose lines into runs that touch: that is not a two-column table.
    rows = [_row(700 - 12 * i, (50, 300), (301, 560)) for i in range(6)]
    assert aligned_blocks([r for row in rows for r in row]) == []


def test_misaligned_rows_are_not_a_table() -> None:
    rows = [_row(700 - 15 * i, (60, 110), (150 + 37 * i, 200 + 37 * i)) for i in range(4)]
    assert aligned_blocks([r for row in rows for r in row]) == []


def test_touching_boxes_counts_cells_of_a_grid_not_lone_form_fields() -> None:
    grid = [
        (50 + 100 * c, 700 - 20 * r, 150 + 100 * c, 720 - 20 * r)
        for r in range(3)
        for c in range(3)
    ]
    fields = [(265, 570, 348, 582), (277, 493, 360, 505), (70, 693, 541, 710)]
    assert touching_boxes(grid) == 9
    assert touching_boxes(fields) == 0
    assert touching_boxes(grid + fields) == 9
