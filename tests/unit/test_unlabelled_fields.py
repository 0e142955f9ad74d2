"""The fields no labels score yet (issue 23) never change where a lease goes.

The shipped confidence model was fitted without them, so ``ConfidenceModel.fields`` (what
may hold a document back) and its "not stated" fields leave them out; they are neither core
nor in ``gate.COMPLETENESS``; extraction gives them no doubts. A lease routes exactly as it
would without them, whatever they hold.
"""

from __future__ import annotations

from typing import Any

import pytest

from lease_parser.extraction import extract_fields
from lease_parser.extraction.base import RawField
from lease_parser.model import CORE_FIELDS
from lease_parser.scoring.confidence import default_model
from lease_parser.scoring.gate import COMPLETENESS, route_after_normalization
from lease_parser.scoring.normalization import normalize_fields
from tests.unit.extraction.lease_text import document
from tests.unit.scoring.test_gate_routing import BASE

GATE = 0.90
UNLABELLED = {
    "letter_of_credit": "100000.00",
    "free_rent_months": "6",
    "percentage_rent": "5",
    "ti_allowance": '{"amount": "25.00", "per": "per_sqft"}',
    "expense_base_year": "2008",
    "assignment_subletting": "consent",
    "guarantor": "Bluefin Holdings, Inc.",
    "permitted_use": "general office purposes",
    "expense_stop": '{"amount": "9.75", "per": "per_sqft"}',
    "break_dates": '["2027-06-30", "2030-06-30"]',
    "notice_addresses": '{"landlord": "77 Dock Street, Portland, Maine 04101", "tenant": null}',
}
# The complete, consistent lease the gate tests commit.
LEASE = BASE


def _route(values: dict[str, str | None], confidence: dict[str, float]) -> tuple[Any, ...]:
    model = default_model()
    raw = {
        name: RawField(name, value, confidence.get(name, 0.99), page=1, snippet=name)
        for name, value in values.items()
    }
    abstraction, problems = normalize_fields(raw)
    decision = route_after_normalization(
        abstraction, problems, GATE, model.fields, not_stated=model.not_stated_fields
    )
    return decision.route, decision.reason, decision.confidence, decision.doubtful


def test_they_are_not_calibrated_core_or_needed_for_completeness() -> None:
    model = default_model()
    needed = {n for alternatives in COMPLETENESS.values() for a in alternatives for n in a}
    for name in UNLABELLED:
        assert name not in model.fields
        assert name not in model.not_stated_fields
        assert name not in CORE_FIELDS
        assert name not in needed


@pytest.mark.parametrize("probability", [0.0, 0.05, 0.5, 0.99])
def test_a_lease_routes_as_before_whatever_they_hold(probability: float) -> None:
    before = _route(dict(LEASE), {})
    stated = _route({**LEASE, **UNLABELLED}, dict.fromkeys(UNLABELLED, probability))
    unread = _route({**LEASE, **dict.fromkeys(UNLABELLED)}, dict.fromkeys(UNLABELLED, 0.0))
    assert stated == before
    assert unread == before


def test_a_lease_in_review_keeps_exactly_its_problems() -> None:
    held = {**LEASE, "base_rent_monthly": "24062.50"}
    confidence = {"base_rent_monthly": 0.40}
    before = _route(held, confidence)
    after = _route({**held, **UNLABELLED}, {**confidence, **dict.fromkeys(UNLABELLED, 0.01)})
    assert after == before
    assert {p.field for p in after[3]} == {"base_rent_monthly"}


def test_extraction_gives_them_no_doubts() -> None:
    text = (
        "LEASE AGREEMENT between Harbor Point Owner LLC (Landlord) and Bluefin Analytics, Inc. "
        "(Tenant). 1.13 Letter of Credit: $100,000.00. Tenant shall deliver a Letter of Credit "
        "in the amount of $250,000.00. Permitted Use: General office purposes. Tenant shall use "
        "the Premises for retail sales. Guarantor: Bluefin Holdings, Inc. Guarantor: Acme LLC. "
        "Tenant shall not assign this Lease without Landlord's consent. Tenant may assign this "
        "Lease or sublet the Premises without Landlord's consent."
    )
    fields = extract_fields(document(text), default_model().score)
    read = {n: fields[n] for n in UNLABELLED if fields.get(n) and fields[n].value is not None}
    assert {"letter_of_credit", "permitted_use", "guarantor", "assignment_subletting"} <= set(read)
    assert all(not raw.doubts for raw in read.values())
    assert read["letter_of_credit"].rivals  # the other amount is listed, not doubted
    assert all(not fields[n].doubts for n in UNLABELLED)


def test_a_reviewer_types_them_as_their_types_say() -> None:
    from lease_parser.corrections import validate_correction
    from lease_parser.errors import InvalidCorrection

    allowance = '{"amount": "25", "per": "per_sqft"}'
    assert validate_correction("ti_allowance", allowance) == {"amount": "25.00", "per": "per_sqft"}
    assert validate_correction("assignment_subletting", "Consent") == "consent"
    assert validate_correction("letter_of_credit", "100000") == "100000.00"
    with pytest.raises(InvalidCorrection, match="one of permitted, consent, prohibited"):
        validate_correction("assignment_subletting", "maybe")
    with pytest.raises(InvalidCorrection):
        validate_correction("ti_allowance", '{"amount": "25", "per": "month"}')
    dates = validate_correction("break_dates", '["2030-06-30", "2027-06-30"]')
    assert dates == ["2030-06-30", "2027-06-30"]
    assert validate_correction("notice_addresses", '{"tenant": "5 Hill Road"}') == {
        "landlord": None,
        "tenant": "5 Hill Road",
    }
    with pytest.raises(InvalidCorrection):
        validate_correction("notice_addresses", "{}")  # no address at all
