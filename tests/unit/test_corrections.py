"""Reviewer values checked by the pipeline's model, without a store (the queue's tests cover
the same rules end to end in test_review_queue.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lease_parser.corrections import (
    REVIEWED_CONFIDENCE,
    abstraction_from_fields,
    apply_corrections,
    commit_problems,
    expected_form,
    validate_correction,
)
from lease_parser.errors import InvalidCorrection, Reason
from lease_parser.model import FIELD_NAMES, FieldProblem, Money
from lease_parser.schedule_checks import CellProblem
from tests.store_helpers import fields_json


def test_stored_fields_type_back_into_the_model() -> None:
    abstraction, problems = abstraction_from_fields(fields_json(), "lease")
    assert problems == []
    assert abstraction.base_rent_monthly.value == Money(amount="24062.50")
    assert abstraction.term_months.value == 63
    assert abstraction.base_rent_monthly.provenance is not None


def test_a_stored_value_the_model_refuses_is_a_problem_not_a_crash() -> None:
    fields = fields_json()
    fields["security_deposit"]["value"] = "-5.00"
    _, problems = abstraction_from_fields(fields)
    assert [p.field for p in problems] == ["security_deposit"]


def test_nothing_is_applied_when_any_value_is_bad() -> None:
    fields = fields_json()
    new, record, problems = apply_corrections(
        fields, {"tenant": "Bluefin", "lease_date": "someday", "rent": "1"}
    )
    assert sorted(p.field for p in problems) == ["lease_date", "rent"]
    assert "unknown field" in next(p.problem for p in problems if p.field == "rent")
    new, record, problems = apply_corrections(fields, {"tenant": "  Bluefin   Analytics "})
    assert problems == []
    assert new["tenant"]["value"] == "Bluefin Analytics"
    assert new["tenant"]["confidence"] == REVIEWED_CONFIDENCE
    assert record == {"tenant": {"from": "Bluefin Analytics, Inc.", "to": "Bluefin Analytics"}}
    assert fields["tenant"]["value"] == "Bluefin Analytics, Inc."  # the input is not mutated


def test_a_schema_invalid_items_dropped_value_must_be_restated() -> None:
    fields = fields_json({"tenant": "Bluefin", "term_months": "63"})
    dropped = [FieldProblem(field="base_rent_monthly", problem="'-1' is not valid")]
    problems = commit_problems(fields, "lease", Reason.SCHEMA_INVALID, dropped)
    assert [p.field for p in problems] == ["base_rent_monthly"]
    assert commit_problems(fields, "lease", Reason.LOW_CONFIDENCE, dropped) == []
    corrected = frozenset({"base_rent_monthly"})
    assert commit_problems(fields, "lease", Reason.SCHEMA_INVALID, dropped, corrected) == []


def test_corrections_import_no_store_or_framework() -> None:
    code = (
        "import sys, lease_parser.corrections\n"
        "bad = [m for m in ('celery', 'redis', 'sqlalchemy') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("name", "raw", "named"),
    [
        ("escalation", '{"kind":"fixed_percent","percent":"2.5"}', "percent"),
        ("escalation", '{"kind":"fixed_percent"}', "needs its rate"),
        ("escalation", '{"kind":"fixed_amount","rate":"-1"}', "rate"),
        ("escalation", '{"kind":"yearly","rate":"3"}', "kind"),
        ("rent_schedule", '[{"start":1,"monthy":"24062.50"}]', "monthy"),
        ("rent_schedule", '{"start":1}', "list"),
        ("lease_date", "2024-02-30", "out of range"),
        ("base_rent_monthly", "NaN", "finite"),
        ("term_months", "12.5", "12.5"),
        ("currency", "dollars", "pattern"),
    ],
)
def test_a_malformed_correction_is_refused_naming_the_field_and_the_form(
    name: str, raw: str, named: str
) -> None:
    with pytest.raises(InvalidCorrection) as refused:
        validate_correction(name, raw)
    assert refused.value.field == name
    assert named in refused.value.problem
    assert refused.value.expected == expected_form(name)
    _, record, problems = apply_corrections(fields_json(), {name: raw})
    assert record == {}
    [problem] = problems
    assert problem.field == name
    if isinstance(problem, CellProblem):  # a schedule's row: named, counted from 1
        assert problem.problem.startswith("Row 1")
    else:
        assert f"expected {expected_form(name)}" in problem.problem


def test_the_escalation_a_reviewer_meant_is_accepted_as_the_model_types_it() -> None:
    assert validate_correction("escalation", '{"kind":"fixed_percent","rate":2.5}') == {
        "kind": "fixed_percent",
        "rate": "2.5",
    }
    assert validate_correction("escalation", '{"kind":"cpi"}') == {"kind": "cpi", "rate": None}
    assert validate_correction("currency", "eur") == "EUR"
    assert validate_correction("rent_schedule", "") is None  # "the lease does not state it"


def test_every_field_has_an_expected_form() -> None:
    """A field added to the model with a new type must say what a reviewer types."""
    for name in FIELD_NAMES:
        assert expected_form(name) != "a value of the field's type", name
