"""Routing after normalization, as a table: raw fields → normalize → route_after_normalization.

The raw fields go through the real ``normalize_fields``, so "schema-invalid" means what the
pipeline means by it (a value the model refuses, or values that cannot all be true).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lease_parser.errors import Reason
from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import Doubt
from lease_parser.gate import (
    MIN_CORE_FIELDS_STATED,
    RoutingDecision,
    route_after_normalization,
)
from lease_parser.model import CORE_FIELDS, FIELD_NAMES, DocumentKind, ProblemKind, Route
from lease_parser.normalization import normalize_fields

GATE = 0.80
SURE = 0.95
# The fields a confidence model was calibrated on (no labelled CAM charge here).
GATED = frozenset(FIELD_NAMES) - {"cam_monthly"}

# Five core fields, consistent with each other: committed when every one is confident.
BASE: dict[str, str] = {
    "landlord": "Harbor Point Owner LLC",
    "tenant": "Bluefin Analytics, Inc.",
    "term_months": "63",
    "base_rent_monthly": "24062.50",
    "security_deposit": "48125.00",
}


def _route(
    values: Mapping[str, str | None], confidence: dict[str, float] | None = None, gate: float = GATE
) -> tuple[Route, Reason | None, list[str]]:
    confidence = confidence or {}
    raw = {
        name: RawField(name, value, confidence.get(name, SURE), page=1, snippet=f"{name} cue")
        for name, value in values.items()
    }
    abstraction, problems = normalize_fields(raw)
    decision = route_after_normalization(abstraction, problems, gate, GATED)
    return decision.route, decision.reason, sorted({p.field for p in decision.doubtful})


def _with(**changes: Any) -> dict[str, str | None]:
    return {**BASE, **changes}


DATES = {"commencement_date": "2024-05-01", "expiration_date": "2029-07-31"}

CASES = [
    # (id, values, confidences, gate, route, reason, doubtful fields)
    ("all confident", BASE, {}, GATE, Route.COMMITTED, None, []),
    ("exactly at the gate", BASE, {"tenant": GATE}, GATE, Route.COMMITTED, None, []),
    (
        "one core field just below the gate",
        BASE,
        {"base_rent_monthly": 0.79},
        GATE,
        Route.REVIEW,
        Reason.LOW_CONFIDENCE,
        ["base_rent_monthly"],
    ),
    (
        "two weak fields are both named",
        BASE,
        {"tenant": 0.5, "security_deposit": 0.6},
        GATE,
        Route.REVIEW,
        Reason.LOW_CONFIDENCE,
        ["security_deposit", "tenant"],
    ),
    (
        "a stricter gate sends the same document to review",
        BASE,
        {},
        0.99,
        Route.REVIEW,
        Reason.LOW_CONFIDENCE,
        sorted(BASE),
    ),
    (
        "a weak field the model has no calibration data for does not hold back the rest",
        _with(cam_monthly="1850.00"),
        {"cam_monthly": 0.3},
        GATE,
        Route.COMMITTED,
        None,
        [],
    ),
    (
        "too few core fields stated, however confident",
        {k: BASE[k] for k in list(BASE)[: MIN_CORE_FIELDS_STATED - 1]},
        {},
        GATE,
        Route.REVIEW,
        Reason.LOW_CONFIDENCE,
        ["*"],
    ),
    ("nothing stated", {}, {}, GATE, Route.REVIEW, Reason.LOW_CONFIDENCE, ["*"]),
    (
        "negative rent, however confident",
        _with(base_rent_monthly="-24062.50"),
        {},
        GATE,
        Route.REVIEW,
        Reason.SCHEMA_INVALID,
        ["base_rent_monthly"],
    ),
    (
        "negative deposit",
        _with(security_deposit="-1.00"),
        {},
        GATE,
        Route.REVIEW,
        Reason.SCHEMA_INVALID,
        ["security_deposit"],
    ),
    (
        "expiration before commencement",
        _with(commencement_date="2029-07-31", expiration_date="2024-05-01", term_months=None),
        {},
        GATE,
        Route.REVIEW,
        Reason.SCHEMA_INVALID,
        ["expiration_date"],
    ),
    (
        "expiration equal to commencement",
        _with(commencement_date="2024-05-01", expiration_date="2024-05-01", term_months=None),
        {},
        GATE,
        Route.REVIEW,
        Reason.SCHEMA_INVALID,
        ["expiration_date"],
    ),
    (
        "term that contradicts the dates",
        _with(**DATES, term_months="36"),
        {},
        GATE,
        Route.REVIEW,
        Reason.SCHEMA_INVALID,
        ["term_months"],
    ),
    ("term that agrees with the dates", _with(**DATES), {}, GATE, Route.COMMITTED, None, []),
    (
        "a zero term",
        _with(term_months="0"),
        {},
        GATE,
        Route.REVIEW,
        Reason.SCHEMA_INVALID,
        ["term_months"],
    ),
    (
        "a malformed date",
        _with(lease_date="2024-02-30"),
        {},
        GATE,
        Route.REVIEW,
        Reason.SCHEMA_INVALID,
        ["lease_date"],
    ),
    (
        "schema-invalid wins over low confidence, and the weak field is listed too",
        _with(base_rent_monthly="-5.00"),
        {"tenant": 0.2},
        GATE,
        Route.REVIEW,
        Reason.SCHEMA_INVALID,
        ["base_rent_monthly", "tenant"],
    ),
]


@pytest.mark.parametrize(
    ("values", "confidence", "gate", "route", "reason", "doubtful"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_route_after_normalization(
    values: dict[str, str | None],
    confidence: dict[str, float],
    gate: float,
    route: Route,
    reason: Reason | None,
    doubtful: list[str],
) -> None:
    assert _route(values, confidence, gate) == (route, reason, doubtful)


def test_a_review_item_says_why_each_field_is_doubtful() -> None:
    raw = {name: RawField(name, value, SURE, page=1) for name, value in BASE.items()}
    raw["base_rent_monthly"] = RawField(
        "base_rent_monthly", "24062.50", 0.55, page=1, notes=["other amounts also stated"]
    )
    abstraction, problems = normalize_fields(raw)
    decision = route_after_normalization(abstraction, problems, GATE)
    [problem] = decision.doubtful
    assert problem.field == "base_rent_monthly"
    assert problem.kind is ProblemKind.LOW_PROBABILITY
    assert problem.page == 1
    assert "0.55" in problem.problem
    assert "other amounts also stated" in problem.problem


def _decide(raw: dict[str, RawField], kind: DocumentKind = DocumentKind.LEASE) -> RoutingDecision:
    abstraction, problems = normalize_fields(raw, kind)
    return route_after_normalization(abstraction, problems, GATE)


def _confident() -> dict[str, RawField]:
    return {name: RawField(name, value, SURE, page=2) for name, value in BASE.items()}


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (Doubt.RIVAL_VALUE, ProblemKind.RIVAL_VALUE),
        (Doubt.FAILED_RELATION, ProblemKind.FAILED_RELATION),
        (Doubt.CAVEAT, ProblemKind.CAVEAT),
    ],
)
def test_a_doubt_sends_a_confident_document_to_review(code: Doubt, kind: ProblemKind) -> None:
    raw = _confident()
    raw["tenant"].doubts[code] = "why a person must look"
    decision = _decide(raw)
    assert (decision.route, decision.reason) == (Route.REVIEW, Reason.LOW_CONFIDENCE)
    assert [(p.field, p.kind, p.problem, p.page) for p in decision.doubtful] == [
        ("tenant", kind, "why a person must look", 2)
    ]


def test_a_field_stated_but_not_read_sends_the_document_to_review_with_its_page() -> None:
    raw = _confident()
    raw["cam_monthly"] = RawField("cam_monthly", None, 0.0, page=7)
    raw["cam_monthly"].doubts[Doubt.STATED_NOT_READ] = "the lease states a monthly CAM charge here"
    decision = _decide(raw)
    assert decision.route is Route.REVIEW
    [problem] = decision.doubtful
    assert (problem.field, problem.kind, problem.page) == (
        "cam_monthly",
        ProblemKind.STATED_NOT_READ,
        7,
    )


def test_review_items_list_the_most_serious_problems_first() -> None:
    raw = _confident()
    raw["landlord"].confidence = 0.5
    raw["tenant"].confidence = 0.7
    raw["term_months"].doubts[Doubt.CAVEAT] = "ambiguous"
    raw["security_deposit"].doubts[Doubt.FAILED_RELATION] = "deposit is not 2 months' rent"
    decision = _decide(raw)
    assert [(p.field, p.kind) for p in decision.doubtful] == [
        ("security_deposit", ProblemKind.FAILED_RELATION),
        ("term_months", ProblemKind.CAVEAT),
        ("landlord", ProblemKind.LOW_PROBABILITY),  # the least probable first
        ("tenant", ProblemKind.LOW_PROBABILITY),
    ]


@pytest.mark.parametrize("kind", [DocumentKind.FORM, DocumentKind.AMENDMENT])
def test_forms_and_amendments_are_never_committed_unread(kind: DocumentKind) -> None:
    decision = _decide(_confident(), kind)
    assert decision.route is Route.REVIEW
    assert [(p.field, p.kind) for p in decision.doubtful] == [("*", ProblemKind.DOCUMENT)]


@given(
    confidences=st.lists(
        st.floats(min_value=0, max_value=1), min_size=MIN_CORE_FIELDS_STATED, max_size=5
    ),
    gate=st.floats(min_value=0.05, max_value=1),
)
def test_consistent_values_commit_exactly_when_every_stated_core_field_clears_the_gate(
    confidences: list[float], gate: float
) -> None:
    names = [n for n in CORE_FIELDS if n in BASE][: len(confidences)]
    values = {n: BASE[n] for n in names}
    route, reason, _ = _route(values, dict(zip(names, confidences, strict=True)), gate)
    expected = Route.COMMITTED if min(confidences) >= gate else Route.REVIEW
    assert route == expected
    assert reason == (None if expected == Route.COMMITTED else Reason.LOW_CONFIDENCE)


def test_a_lease_followed_by_amendments_goes_to_a_person() -> None:
    abstraction, problems = normalize_fields(_confident())
    assert route_after_normalization(abstraction, problems, GATE).route is Route.COMMITTED
    decision = route_after_normalization(abstraction, problems, GATE, appended=2)
    assert (decision.route, decision.reason) == (Route.REVIEW, Reason.LOW_CONFIDENCE)
    [problem] = decision.doubtful
    assert problem.kind is ProblemKind.DOCUMENT
    assert "followed by 2 amendment(s)" in problem.problem
