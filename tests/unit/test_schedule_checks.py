"""A rent schedule checked as a whole: each rule on a small case, refusals naming the row
and the cell from 1, and every labelled schedule of the dev corpus accepted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lease_parser.corrections import abstraction_from_fields, validate_correction
from lease_parser.decisions import corrections_to_decisions
from lease_parser.errors import InvalidCorrection
from lease_parser.schedule_checks import CellProblem, add_months, schedule_problems
from tests.store_helpers import fields_json

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "dev"
LEASE = {
    "commencement_date": "2025-05-01",
    "expiration_date": "2030-07-31",
    "term_months": "63",
    "rentable_sqft": "8750",
    "base_rent_monthly": "24062.50",
}
GOOD = [
    {
        "start": 1,
        "end": 12,
        "monthly": "24062.50",
        "annual": "288750.00",
        "per_sqft_annual": "33.00",
    },
    {"start": 13, "end": 24, "monthly": "24784.38"},
    {"start": "2027-05-01", "end": "2030-07-31", "monthly": "25527.91"},
]


def problems(steps: list[dict[str, Any]], **values: Any) -> list[CellProblem]:
    fields = fields_json({**LEASE, **values, "rent_schedule": steps})
    abstraction, invalid = abstraction_from_fields(fields)
    assert invalid == []
    return schedule_problems(abstraction)


def where(found: list[CellProblem]) -> list[tuple[int | None, str | None]]:
    return [(p.row, p.column) for p in found]


def test_a_schedule_that_can_be_the_leases_passes() -> None:
    assert problems(GOOD) == []
    assert problems(GOOD, commencement_date=None, expiration_date=None) == []


@pytest.mark.parametrize(
    ("change", "cell", "words"),
    [
        ({1: {"end": 6}}, (2, "end"), "Row 2, end: month 6 is before the period's start, month 13"),
        ({1: {"start": 10}}, (2, "start"), "Row 2, start: month 10 is within row 1"),
        ({2: {"end": "2031-01-31"}}, (3, "end"), "after the end of the term, 2030-07-31"),
        ({0: {"start": "2025-01-01"}}, (1, "start"), "before the commencement date"),
        ({1: {"monthly": "0.01"}}, (2, "monthly"), "Row 2, monthly rent: 0.01 is not a rent"),
        ({0: {"annual": "300000.00"}}, (1, "annual"), "not 12 × the monthly rent"),
        ({0: {"per_sqft_annual": "35.00"}}, (1, "per_sqft_annual"), "35.00 × 8,750 sq ft"),
        ({1: {"monthly": None}}, (2, None), "Row 2: no rent"),
    ],
)
def test_each_rule_names_the_row_and_the_cell(
    change: dict[int, dict[str, Any]], cell: tuple[int, str | None], words: str
) -> None:
    steps = [{**step, **change.get(i, {})} for i, step in enumerate(GOOD)]
    found = problems(steps)
    assert cell in where(found), found
    assert any(words in p.problem for p in found), [p.problem for p in found]
    assert all('"start"' not in p.problem for p in found)  # never the schedule's JSON


def test_month_numbers_past_the_term_and_a_base_rent_no_row_has_are_refused() -> None:
    past = [*GOOD[:2], {"start": 25, "end": 72, "monthly": "25527.91"}]
    assert "month 72 is after the end of the term (63 months)" in problems(past)[0].problem
    [missing] = problems(GOOD, base_rent_monthly="5000.00")
    assert (missing.row, missing.column) == (None, None)
    assert "no row has the monthly base rent, 5,000.00" in missing.problem


def test_a_typed_schedule_is_refused_cell_by_cell_counting_rows_from_1() -> None:
    typed = json.dumps([GOOD[0], {"start": "June", "end": 24, "annual": "288,750.00", "monthy": 1}])
    with pytest.raises(InvalidCorrection) as refused:
        validate_correction("rent_schedule", typed)
    cells = {(c.row, c.column): c.problem for c in refused.value.cells}
    assert set(cells) == {(2, None), (2, "start"), (2, "annual")}
    assert "unknown column 'monthy'" in cells[2, None]
    assert "Row 2, start: 'June' is not a month or a date" in cells[2, "start"]
    assert "use a number like 7048.80" in cells[2, "annual"]


def test_a_correction_into_an_impossible_schedule_is_refused_whatever_the_pipeline_read() -> None:
    fields = fields_json({**LEASE, "rent_schedule": [{**GOOD[0], "end": 90}]})  # already wrong
    bad = json.dumps([{**GOOD[0], "end": 80}])
    decided, refused = corrections_to_decisions(fields, fields, {"rent_schedule": bad}, "lease")
    assert decided == {}
    assert [p.problem for p in refused] == [
        "Row 1, end: month 80 is after the end of the term (63 months)"
    ]
    # Correcting another field is not blocked by the schedule the pipeline read.
    decided, refused = corrections_to_decisions(fields, fields, {"tenant": "Bluefin"}, "lease")
    assert refused == []


def test_months_are_added_like_a_calendar() -> None:
    assert add_months(__import__("datetime").date(2024, 1, 31), 1).isoformat() == "2024-02-29"
    assert add_months(__import__("datetime").date(2025, 5, 1), 12).isoformat() == "2026-05-01"


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")
def test_every_labelled_schedule_of_the_dev_corpus_passes() -> None:
    labels = json.loads((CORPUS / "labels.json").read_text())
    checked = 0
    for name, values in labels.items():
        if not values.get("rent_schedule"):
            continue
        fields = fields_json({k: v for k, v in values.items() if v is not None})
        abstraction, invalid = abstraction_from_fields(fields)
        assert invalid == [], name
        assert schedule_problems(abstraction) == [], name
        checked += 1
    assert checked >= 10
