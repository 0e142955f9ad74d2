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
from lease_parser.model import FIELD_NAMES, DocumentKind, ProblemKind, Route
from lease_parser.scoring.gate import (
    COMPLETENESS,
    RoutingDecision,
    route_after_normalization,
)
from lease_parser.scoring.normalization import normalize_fields

GATE = 0.80
SURE = 0.95
# The fields a confidence model was calibrated on (no labelled CAM charge here), and those
# whose "not stated" probability it was.
GATED = frozenset(FIELD_NAMES) - {"cam_monthly"}
NOT_STATED = frozenset(FIELD_NAMES) - {"cam_monthly"}

# A complete lease, its values consistent with each other: committed when every one is
# confident.
BASE: dict[str, str] = {
    "landlord": "Harbor Point Owner LLC",
    "tenant": "Bluefin Analytics, Inc.",
    "premises_address": "1200 Harbor Point Drive, Suite 400, Baltimore, Maryland 21230",
    "lease_date": "2024-03-15",
    "term_months": "63",
    "base_rent_monthly": "24062.50",
    "security_deposit": "48125.00",
    "escalation": '{"kind": "none", "rate": null}',
}


def _route(
    values: Mapping[str, str | None], confidence: dict[str, float] | None = None, gate: float = GATE
) -> tuple[Route, Reason | None, list[str]]:
    """Values (None: unread, its confidence the probability that it is not stated)."""
    confidence = confidence or {}
    raw = {
        name: RawField(name, value, confidence.get(name, SURE), page=1, snippet=f"{name} cue")
        for name, value in values.items()
    }
    abstraction, problems = normalize_fields(raw)
    decision = route_after_normalization(abstraction, problems, gate, GATED, not_stated=NOT_STATED)
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
        "a lease with no tenant read never commits, whatever the not-stated model says",
        _with(tenant=None),
        {"tenant": 0.99},
        GATE,
        Route.REVIEW,
        Reason.LOW_CONFIDENCE,
        ["tenant"],
    ),
    (
        "an unread deposit the lease very probably does not state",
        _with(security_deposit=None),
        {"security_deposit": 0.95},
        GATE,
        Route.COMMITTED,
        None,
        [],
    ),
    (
        "an unread deposit the lease may well state",
        _with(security_deposit=None),
        {"security_deposit": 0.6},
        GATE,
        Route.REVIEW,
        Reason.LOW_CONFIDENCE,
        ["security_deposit"],
    ),
    (
        "an unread escalation: a lease says how its rent moves, if only that it does not",
        _with(escalation=None),
        {"escalation": 0.99},
        GATE,
        Route.REVIEW,
        Reason.LOW_CONFIDENCE,
        ["escalation"],
    ),
    (
        "the term read as its dates, not its length",
        _with(term_months=None, **DATES),
        {"term_months": 0.1},
        GATE,
        Route.COMMITTED,
        None,
        [],
    ),
    (
        "only the annual rent read",
        _with(base_rent_monthly=None, base_rent_annual="288750.00"),
        {"base_rent_monthly": 0.1},
        GATE,
        Route.COMMITTED,
        None,
        [],
    ),
    (
        "nothing read",
        {},
        {},
        GATE,
        Route.REVIEW,
        Reason.LOW_CONFIDENCE,
        sorted(a[0][0] for a in COMPLETENESS.values()),
    ),
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
    return route_after_normalization(abstraction, problems, GATE, not_stated=NOT_STATED)


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
        st.floats(min_value=0, max_value=1), min_size=len(BASE), max_size=len(BASE)
    ),
    gate=st.floats(min_value=0.05, max_value=1),
)
def test_consistent_values_commit_exactly_when_every_core_field_clears_the_gate(
    confidences: list[float], gate: float
) -> None:
    names = list(BASE)
    route, reason, _ = _route(BASE, dict(zip(names, confidences, strict=True)), gate)
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


@pytest.mark.parametrize(
    "kind", [k for k in DocumentKind if k not in (DocumentKind.LEASE, DocumentKind.SUBLEASE)]
)
def test_only_leases_and_subleases_commit_unread(kind: DocumentKind) -> None:
    """A kind of document added later (a termination agreement, a surrender) is held back
    until the gate names it committable."""
    assert _decide(_confident(), kind).route is Route.REVIEW


def test_an_unread_field_asks_the_reviewer_whether_the_lease_states_it() -> None:
    raw = _confident()
    raw["lease_date"] = RawField("lease_date", None, 0.4)
    [problem] = _decide(raw).doubtful
    assert (problem.field, problem.kind) == ("lease_date", ProblemKind.NOT_READ)
    assert "does the lease state the lease date?" in problem.problem
    assert "0.40" in problem.problem
