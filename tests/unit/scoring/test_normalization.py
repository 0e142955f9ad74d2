"""normalization.py types every field by the model's own annotation (issue 14, item 5)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from pydantic import Field as PydanticField
from pydantic import create_model

from lease_parser import model as model_module
from lease_parser.abstract import Extraction, normalize_stage
from lease_parser.extraction.base import RawField
from lease_parser.model import DocumentKind, Field, LeaseAbstraction, Money, Route
from lease_parser.scoring.normalization import (
    CHOICE_FIELDS,
    JSON_FIELDS,
    MONEY_FIELDS,
    normalize_fields,
    value_type,
)


def raw(name: str, value: Any, confidence: float = 0.9) -> RawField:
    return RawField(name=name, value=value, confidence=confidence, page=1, start=0, end=5)


def extended_model() -> type[LeaseAbstraction]:
    """The model with three fields nobody told normalization about."""
    return create_model(
        "ExtendedAbstraction",
        __base__=LeaseAbstraction,
        parking_rent_monthly=(Field[Money], PydanticField(default_factory=Field)),
        parking_spaces=(Field[int], PydanticField(default_factory=Field)),
        early_access_date=(Field[dt.date], PydanticField(default_factory=Field)),
    )


def test_a_field_added_to_the_model_flows_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_module, "LeaseAbstraction", extended_model())
    fields = {
        "tenant": raw("tenant", "Bluefin Analytics, Inc."),
        "parking_rent_monthly": raw("parking_rent_monthly", "150.00"),
        "parking_spaces": raw("parking_spaces", "12"),
        "early_access_date": raw("early_access_date", "2025-04-01"),
    }
    extraction = Extraction(DocumentKind.LEASE, fields, pages=1, ocr_pages=0)
    result = normalize_stage(extraction, gate=0.8)
    assert result.route is Route.REVIEW  # too few core fields: reviewed, not dead
    assert result.abstraction is not None
    extended: Any = result.abstraction
    assert extended.parking_rent_monthly.value == Money(amount=Decimal("150.00"))
    assert extended.parking_spaces.value == 12
    assert extended.early_access_date.value == dt.date(2025, 4, 1)


def test_a_bad_value_of_a_new_field_is_that_fields_problem(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(model_module, "LeaseAbstraction", extended_model())
    abstraction, problems = normalize_fields(
        {"parking_rent_monthly": raw("parking_rent_monthly", "-3")}
    )
    assert [p.field for p in problems] == ["parking_rent_monthly"]
    assert abstraction.field("parking_rent_monthly").value is None


def test_the_type_sets_are_the_models() -> None:
    for name in LeaseAbstraction.field_names():
        kind = value_type(name)
        assert (name in MONEY_FIELDS) == (kind is Money)
    assert {
        "rent_schedule",
        "escalation",
        "renewal_notice",
        "termination_notice",
        "ti_allowance",
        "expense_stop",
        "break_dates",
        "notice_addresses",
    } == JSON_FIELDS
    # One of a few words: typed and exported as the word, never parsed as JSON.
    assert {"assignment_subletting"} == CHOICE_FIELDS
