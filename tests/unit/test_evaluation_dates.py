"""Critical dates scored against labels (evaluation/dates.py): what the labels let one
compute, and what counts as listed, right, and wrong at the gate."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lease_parser.evaluation.dates import DatesReport, check_document, expected_dates
from lease_parser.model import AbstractionResult, Field, LeaseAbstraction, NoticeWindow, Route
from lease_parser.portfolio.dates import EventKind

NINE_MONTHS = {"least": {"count": 9, "unit": "months"}, "most": None}


def test_the_expiration_is_stated_or_commencement_plus_term() -> None:
    stated = expected_dates({"expiration_date": "2030-07-31"}, {})
    assert stated == {(EventKind.EXPIRATION, None): dt.date(2030, 7, 31)}
    derived = expected_dates({"commencement_date": "2025-05-01", "term_months": 63}, {})
    assert derived == {(EventKind.EXPIRATION, None): dt.date(2030, 7, 31)}
    none = expected_dates({"expiration_date": None, "commencement_date": None}, {})
    assert none == {(EventKind.EXPIRATION, None): None}
    assert expected_dates({"expiration_date": None}, {}) == {}  # undecided: not scored


def test_option_windows_need_the_notice_labels() -> None:
    labels = {"expiration_date": "2030-07-31", "renewal_option_count": 2, "renewal_term_months": 60}
    assert (EventKind.RENEWAL_NOTICE_DEADLINE, 1) not in expected_dates(labels, {})
    got = expected_dates(labels, {"renewal_notice": NINE_MONTHS})
    assert got[(EventKind.RENEWAL_NOTICE_DEADLINE, 1)] == dt.date(2029, 10, 31)
    assert got[(EventKind.RENEWAL_NOTICE_DEADLINE, 2)] == dt.date(2034, 10, 31)
    no_option = expected_dates({**labels, "renewal_option_count": 0}, {})
    assert no_option[(EventKind.RENEWAL_NOTICE_DEADLINE, 1)] is None


def result(values: dict[str, Any], confidence: float) -> AbstractionResult:
    fields = {name: Field(value=value, confidence=confidence) for name, value in values.items()}
    return AbstractionResult(route=Route.REVIEW, abstraction=LeaseAbstraction(**fields))


def test_a_wrong_date_counts_against_the_gate_only_when_confident() -> None:
    labels = {"expiration_date": "2030-07-31", "renewal_option_count": 1}
    notices = {"renewal_notice": NINE_MONTHS}
    read = {
        "expiration_date": dt.date(2030, 7, 31),
        "renewal_option_count": 1,
        "renewal_notice": NoticeWindow.model_validate(NINE_MONTHS),
    }
    report = DatesReport(0.9)
    report.checks += check_document("a", result(read, 0.95), labels, notices, 0.9)
    misread = {**read, "expiration_date": dt.date(2031, 7, 31)}
    report.checks += check_document("b", result(misread, 0.95), labels, notices, 0.9)
    report.checks += check_document("c", result(misread, 0.5), labels, notices, 0.9)
    summary = report.summary()
    assert summary["expiration"] == {
        "computable": 3,
        "listed": 3,
        "right": 1,
        "right_at_gate": 1,
        "wrong_at_gate": 1,
        "wrong_below_gate": 1,
    }
    assert summary["renewal_window"]["wrong_at_gate"] == 1
