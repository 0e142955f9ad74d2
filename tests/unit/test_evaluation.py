"""The eval harness: docs/fields.md's comparison rules and the gate metrics, on synthetic
outcomes."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fpdf import FPDF

from lease_parser.cli import cli
from lease_parser.evaluation import (
    DocumentOutcome,
    Prediction,
    load_labels,
    parse_with_cache,
    score_outcomes,
    strings_match,
    token_set_similarity,
    unmet_targets,
    values_match,
)
from lease_parser.model import Money
from lease_parser.settings import Settings

GATE = 0.8


@pytest.mark.parametrize(
    ("field", "predicted", "expected", "equal"),
    [
        # str: case, whitespace, punctuation
        ("landlord", "ACME  PROPERTIES, LLC", "Acme Properties LLC", True),
        ("landlord", "Acme Properties L.L.C.", "Acme Properties, LLC", True),
        # str: a trailing legal-form suffix difference
        ("tenant", "Blue Heron Systems, Inc.", "Blue Heron Systems", True),
        ("tenant", "Blue Heron Systems Corporation", "Blue Heron Systems", True),
        ("tenant", "Northwind Holdings, L.P.", "Northwind Holdings", True),
        ("tenant", "Orbit Company", "Orbit", True),
        # str: token-set similarity (order, one OCR slip) ≥ 0.90
        ("landlord", "Holdings Riverside West", "Riverside West Holdings", True),
        ("tenant", "Post Tensi0n of Nevada", "Post Tension of Nevada", True),
        # str: a different party, or a dropped word, is not equal
        ("landlord", "Riverside West Holdings", "Riverside East Holdings", False),
        ("landlord", "Acme", "Acme Properties LLC", False),
        ("premises_address", "12 Elm Street", "12 Elm Street, Suite 400, Springfield", False),
        ("premises_address", "12 Elm Street, Suite 400", "12 Elm Street Suite 400", True),
        # dates: the same ISO date
        ("lease_date", dt.date(2004, 10, 7), "2004-10-07", True),
        ("lease_date", dt.date(2004, 10, 7), "2004-07-10", False),
        ("expiration_date", "2009-02-28", "2009-02-28", True),
        # money / decimals: within 0.01
        ("base_rent_monthly", Money(amount=Decimal("15000")), "15000.00", True),
        ("base_rent_monthly", Money(amount=Decimal("15000.01")), "15000.00", True),
        ("base_rent_monthly", Money(amount=Decimal("15000.02")), "15000.00", False),
        ("security_deposit", Money(amount=Decimal("0")), "0.00", True),
        ("rentable_sqft", Decimal("2000"), "2,000", True),
        ("rentable_sqft", Decimal("2000"), "2001", False),
        # int: equal
        ("term_months", 60, 60, True),
        ("term_months", 60, "60", True),
        ("term_months", 61, 60, False),
        ("renewal_option_count", 0, 0, True),
    ],
)
def test_values_match(field: str, predicted: Any, expected: Any, equal: bool) -> None:
    assert values_match(field, predicted, expected) is equal


def test_token_set_similarity_ignores_order_and_repeats() -> None:
    assert token_set_similarity("a b c", "c b a a") == 1.0
    assert token_set_similarity("", "") == 1.0
    assert token_set_similarity("", "x") == 0.0


def test_strings_match_is_symmetric_for_suffixes() -> None:
    assert strings_match("Acme", "Acme Inc.")
    assert strings_match("Acme Inc.", "Acme")


def _outcome(name: str, route: str, **preds: tuple[Any, float]) -> DocumentOutcome:
    predictions = {k: Prediction(v, c, 1, f"snippet {k}") for k, (v, c) in preds.items()}
    return DocumentOutcome(name, route, None, 0.9, "lease", predictions)


def test_counts_right_wrong_spurious_and_missed() -> None:
    labels = {
        "a.pdf": {"landlord": "Acme LLC", "tenant": "Beta Inc", "lease_date": None},
        "b.pdf": {"landlord": "Gamma LLC", "tenant": "Delta Inc", "term_months": 60},
    }
    outcomes = [
        _outcome(
            "a.pdf",
            "committed",
            landlord=("ACME, LLC", 0.95),  # right, confident
            tenant=("Zeta Inc", 0.9),  # wrong, confident
            lease_date=(dt.date(2020, 1, 1), 0.5),  # spurious, not confident
        ),
        _outcome(
            "b.pdf",
            "review",
            landlord=("Gamma LLC", 0.6),  # right, under the gate
            term_months=(60, 0.85),  # right, confident
            # tenant missed
        ),
    ]
    report = score_outcomes(outcomes, labels, GATE)
    ll, tn, ld, tm = (report.fields[n] for n in ("landlord", "tenant", "lease_date", "term_months"))
    assert (ll.tp, ll.fp, ll.fn, ll.support) == (2, 0, 0, 2)
    assert (tn.tp, tn.fp, tn.fn, tn.support) == (0, 1, 2, 2)
    assert (ld.tp, ld.fp, ld.fn, ld.support) == (0, 1, 0, 0)
    assert ld.precision == 0.0
    assert ld.recall is None
    assert tm.precision == tm.recall == tm.f1 == 1.0
    assert tn.f1 == 0.0  # precision 0 and recall 0
    assert ld.f1 is None  # no recall without labelled values
    # Gate: right & confident = landlord(a) + term(b) = 2; wrong & confident = tenant(a).
    assert report.precision_at_gate() == pytest.approx(2 / 3)
    # Core support: landlord 2 + tenant 2 + term 1 (lease_date label is null) = 5.
    assert report.recall_at_gate() == pytest.approx(2 / 5)
    # a.pdf is committed with a wrong tenant.
    assert report.auto_commit_precision() == 0.0
    assert report.review_rate() == 0.5
    kinds = sorted((m.document, m.field, m.kind) for m in report.mistakes)
    assert kinds == [
        ("a.pdf", "lease_date", "spurious"),
        ("a.pdf", "tenant", "wrong"),
        ("b.pdf", "tenant", "missed"),
    ]


def test_absent_field_is_not_scored_and_null_null_is_right() -> None:
    labels = {"a.pdf": {"lease_date": None}}
    report = score_outcomes(
        [_outcome("a.pdf", "committed", landlord=("Anyone", 0.99))], labels, GATE
    )
    assert "landlord" not in report.fields  # never labelled: not scored
    assert report.mistakes == []
    assert report.auto_commit_precision() == 1.0
    assert report.precision_at_gate() is None  # nothing scored above the gate


def test_unlabelled_and_missing_files_are_reported() -> None:
    report = score_outcomes([_outcome("x.pdf", "review")], {"y.pdf": {"tenant": "T"}}, GATE)
    assert report.unlabelled == ["x.pdf"]
    assert report.missing_files == ["y.pdf"]


def test_report_json_has_the_documented_keys() -> None:
    labels = {"a.pdf": {"landlord": "Acme LLC"}}
    report = score_outcomes([_outcome("a.pdf", "committed", landlord=("Acme", 0.9))], labels, GATE)
    data = json.loads(json.dumps(report.to_json()))
    assert data["fields"]["landlord"] == {
        "precision": 1.0,
        "recall": 1.0,
        "f1": 1.0,
        "support": 1,
        "tp": 1,
        "fp": 0,
        "fn": 0,
        "at_gate_right": 1,
        "at_gate_wrong": 0,
    }
    for key in ("precision_at_gate", "auto_commit_precision", "review_rate", "documents"):
        assert key in data
    assert data["documents"] == 1
    assert data["per_document"][0]["route"] == "committed"


def _lease_pdf(path: Path) -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(
        0,
        6,
        'This Lease is made by and between Acme Holdings LLC ("Landlord") and '
        'Beta Widgets Inc. ("Tenant").',
    )
    data = bytes(pdf.output())
    path.write_bytes(data)
    return data


def test_parse_cache_is_reused(tmp_path: Path) -> None:
    data = _lease_pdf(tmp_path / "a.pdf")
    settings = Settings(data_dir=tmp_path)
    first = parse_with_cache(data, settings, tmp_path / "cache")
    (entry,) = (tmp_path / "cache").iterdir()
    second = parse_with_cache(data, settings, tmp_path / "cache")
    assert second == first
    assert entry.stat().st_size > 0


def test_eval_command_json(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _lease_pdf(corpus / "a.pdf")
    labels = corpus / "labels.json"
    labels.write_text(json.dumps({"a.pdf": {"landlord": "Acme Holdings", "lease_date": None}}))
    result = CliRunner().invoke(
        cli,
        [
            "eval",
            str(corpus),
            "--labels",
            str(labels),
            "--json",
            "--cache-dir",
            str(tmp_path / "c"),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.splitlines()[-1])
    assert data["documents"] == 1
    assert data["fields"]["landlord"]["tp"] == 1


def test_load_labels_rejects_wrong_shape(tmp_path: Path) -> None:
    path = tmp_path / "labels.json"
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="expected"):
        load_labels(path)


def test_unmet_targets_names_each_missed_target() -> None:
    labels = {"a.pdf": {"landlord": "Acme LLC", "tenant": "Beta Inc"}}
    right = score_outcomes(
        [_outcome("a.pdf", "committed", landlord=("Acme", 0.99), tenant=("Beta", 0.99))],
        labels,
        GATE,
    )
    assert unmet_targets(right) == []
    wrong = score_outcomes(
        [_outcome("a.pdf", "review", landlord=("Acme", 0.9), tenant=("Zeta", 0.9))], labels, GATE
    )
    missed = unmet_targets(wrong)
    assert [m.split()[0] for m in missed] == [
        "precision_at_gate",
        "recall_at_gate",
        "complete_and_right_share",
        "auto_commit_precision",
        "calibration_error",
    ]
    assert "auto_commit_precision - not" in missed[3]  # nothing committed: not measurable


def test_eval_check_exits_1_under_target(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _lease_pdf(corpus / "a.pdf")
    labels = corpus / "labels.json"
    labels.write_text(json.dumps({"a.pdf": {"landlord": "Somebody Else LLC"}}))
    result = CliRunner().invoke(cli, ["eval", str(corpus), "--labels", str(labels), "--check"])
    assert result.exit_code == 1
    assert "targets not met" in result.output


@pytest.mark.parametrize(
    ("predicted", "expected"),
    [
        ("The Irvine Company LLC", "Irvine Company"),
        ("Irvine Company", "THE IRVINE COMPANY, LLC"),
        ("the Board of Trustees", "Board of Trustees"),
    ],
)
def test_a_leading_the_is_ignored_on_both_sides(predicted: str, expected: str) -> None:
    assert strings_match(predicted, expected)
    assert strings_match(expected, predicted)


def test_the_inside_a_name_still_counts() -> None:
    assert not strings_match("Bank of the West", "Bank of West Virginia")


def test_committed_leases_are_complete_and_right_only_with_every_core_field_as_labelled() -> None:
    labels = {
        "whole.pdf": {"landlord": "Acme LLC", "tenant": "Beta Inc", "security_deposit": None},
        "hole.pdf": {"landlord": "Acme LLC", "tenant": "Beta Inc"},
        "wrong_cam.pdf": {"landlord": "Acme LLC", "tenant": "Beta Inc", "cam_monthly": "10.00"},
        "reviewed.pdf": {"landlord": "Acme LLC", "tenant": "Beta Inc"},
    }
    outcomes = [
        # The deposit unread, and labelled not stated: complete.
        _outcome("whole.pdf", "committed", landlord=("Acme", 0.99), tenant=("Beta", 0.99)),
        # The tenant unread though the lease states it: a hole in the portfolio.
        _outcome("hole.pdf", "committed", landlord=("Acme", 0.99), tenant=(None, 0.95)),
        # Core fields right, a non-core field wrong.
        _outcome(
            "wrong_cam.pdf",
            "committed",
            landlord=("Acme", 0.99),
            tenant=("Beta", 0.99),
            cam_monthly=("12.00", 0.99),
        ),
        _outcome("reviewed.pdf", "review", landlord=("Acme", 0.99)),
    ]
    report = score_outcomes(outcomes, labels, GATE)
    assert report.complete_and_right() == ["whole.pdf", "wrong_cam.pdf"]
    assert report.complete_and_right(None) == ["whole.pdf"]  # every labelled field
    assert report.committed_incomplete_or_wrong() == ["hole.pdf"]
    assert report.complete_and_right_share() == 0.5
    data = report.to_json()
    assert data["committed_incomplete_or_wrong"] == ["hole.pdf"]


def test_not_stated_probabilities_are_scored_against_the_labels() -> None:
    labels = {
        "a.pdf": {"security_deposit": None, "rentable_sqft": 4200, "tenant": "Beta Inc"},
        "b.pdf": {"security_deposit": None, "rentable_sqft": None},
    }
    outcomes = [
        _outcome(
            "a.pdf",
            "review",
            security_deposit=(None, 0.95),  # not stated, and said so: right
            rentable_sqft=(None, 0.92),  # stated after all: cleared wrongly
            tenant=("Beta", 0.99),
        ),
        _outcome("b.pdf", "review", security_deposit=(None, 0.3), rentable_sqft=(None, 0.99)),
    ]
    report = score_outcomes(outcomes, labels, GATE)
    assert sorted(report.unread) == [(0.3, True), (0.92, False), (0.95, True), (0.99, True)]
    assert report.not_stated_at_gate() == (2, 1, 1)
    assert report.not_stated_precision_at_gate() == 2 / 3
    assert report.calibration_error(report.unread) is not None
    assert report.to_json()["not_stated"]["at_gate_core"] == {
        "not_stated": 2,
        "stated": 1,
        "stated_unread": 1,
    }
