"""Fitting the confidence model: examples from labels and reviews, determinism, held-out fits."""

from __future__ import annotations

import json
import random

import pytest

from lease_parser.extraction.base import Alternative, RawField
from lease_parser.scoring.calibration import (
    Example,
    fit_model,
    labelled_examples,
    out_of_fold,
    reviewed_examples,
    source_family,
    unread_examples,
)
from lease_parser.scoring.confidence import ConfidenceModel


def _examples(documents: int = 12, seed: int = 7, families: int = 4) -> list[Example]:
    """Synthetic evidence where more statements and no rival make a value likelier right,
    and an unread field whose words never occur likelier not stated; documents named
    ``src<k>_doc-<d>`` belong to ``families`` sources."""
    rng = random.Random(seed)
    out = []
    for d in range(documents):
        document = f"src{d % families}_doc-{d}"
        mentioned = rng.random() < 0.5
        not_stated = rng.random() < (0.2 if mentioned else 0.9)
        out.append(
            Example(
                document, "security_deposit", {"mentioned": float(mentioned)}, not_stated, "unread"
            )
        )
        for name in ("landlord", "tenant", "premises_address", "base_rent_monthly"):
            statements = rng.randint(1, 4)
            rival = rng.random() < 0.2
            right = rng.random() < (0.55 + 0.1 * statements - (0.4 if rival else 0.0))
            evidence = {"statements": statements, "rival_statements": int(rival)}
            out.append(Example(document, name, evidence, right))
    return out


def test_labelled_values_are_right_wrong_or_spurious() -> None:
    fields = {
        "landlord": RawField("landlord", "Acme Holdings LLC", evidence={"statements": 2}),
        "tenant": RawField("tenant", "Beta Widgets Inc."),
        "lease_date": RawField("lease_date", "2024-02-30"),  # normalization refuses it
        "cam_monthly": RawField("cam_monthly", "100.00"),
        "term_months": RawField("term_months", None),
    }
    labels = {
        "landlord": "ACME HOLDINGS",
        "tenant": "Gamma Corp",
        "lease_date": "2024-02-28",
        "cam_monthly": None,  # the lease does not state it: any value is wrong
        "term_months": 60,  # missed: no value, no example
    }
    examples = {e.field: e for e in labelled_examples("a.pdf", fields, labels)}
    assert sorted(examples) == ["cam_monthly", "landlord", "lease_date", "tenant"]
    assert examples["landlord"].right
    assert examples["landlord"].evidence == {"statements": 2}
    assert not examples["tenant"].right
    assert not examples["lease_date"].right
    assert not examples["cam_monthly"].right


def test_reviewers_decisions_are_examples() -> None:
    evidence = {"statements": 1}
    doc = {
        "doc_hash": "h1",
        "fields": {
            "tenant": {"value": "Beta Inc.", "evidence": evidence},
            "landlord": {"value": "Acme LLC", "evidence": evidence},
            "lease_date": {"value": None, "evidence": {}},
            "term_months": {"value": 60},  # typed by the reviewer: no pipeline evidence
        },
        "corrections": {"tenant": {"from": "Beta Inc", "to": "Beta Widgets Inc."}},
    }
    examples = {e.field: e for e in reviewed_examples([doc])}
    assert sorted(examples) == ["landlord", "tenant"]
    assert examples["landlord"].right
    assert examples["landlord"].source == "review"
    assert not examples["tenant"].right


def test_fitting_is_deterministic_whatever_the_order() -> None:
    examples = _examples()
    first = fit_model(examples).to_json()
    shuffled = list(examples)
    random.Random(1).shuffle(shuffled)
    second = fit_model(shuffled).to_json()
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    assert first["fitted_on"]["examples"] == len(examples) - 12  # one unread field each
    assert first["fitted_on"]["unread"] == 12
    assert first["fitted_on"]["documents"] == 12
    assert first["fitted_on"]["families"] == 4


def test_the_fit_learns_the_direction_of_the_evidence() -> None:
    model = fit_model(_examples(documents=60))
    assert model.values.weights["statements"] > 0
    assert model.values.weights["rival_statements"] < 0
    calibration = [y for _, y in model.values.calibration]
    assert calibration == sorted(calibration)  # monotone
    assert model.not_stated is not None
    assert model.not_stated.weights["mentioned"] < 0
    assert model.not_stated_fields == {"security_deposit"}


def test_doubted_values_are_calibrated_on_their_own() -> None:
    # A rival stated in the lease halves the chance of being right (synthetic evidence):
    # a doubted value's probability comes from how often doubted values were right.
    model = fit_model(_examples(documents=80))
    assert model.values.doubted_calibration
    clean = model.probability("tenant", {"statements": 2})
    rivalled = model.probability("tenant", {"statements": 2, "rival_statements": 1})
    assert rivalled < clean
    doubted_points = [y for _, y in model.values.doubted_calibration]
    assert doubted_points == sorted(doubted_points)
    assert max(doubted_points) < max(y for _, y in model.values.calibration)
    # Written and read back whole.
    again = ConfidenceModel.from_json(json.loads(json.dumps(model.to_json())))
    assert again.probability("tenant", {"statements": 2, "rival_statements": 1}) == pytest.approx(
        rivalled, abs=1e-6
    )


def test_an_unread_field_whose_statement_was_seen_is_calibrated_on_its_own() -> None:
    # Unread fields with the shape of a statement seen (flagged "stated but not read") are
    # mostly stated: they have their own map, as doubted values do.
    examples = [
        Example(
            f"src{d % 4}_doc-{d}", "security_deposit", {"shape_found": 1.0}, d % 5 == 0, "unread"
        )
        for d in range(40)
    ] + [
        Example(
            f"src{d % 4}_doc-{d}", "security_deposit", {"mentioned": 1.0}, d % 10 != 0, "unread"
        )
        for d in range(40)
    ]
    model = fit_model(examples)
    assert model.not_stated is not None
    assert model.not_stated.doubted_calibration
    flagged = model.probability_not_stated("security_deposit", {"shape_found": 1.0})
    plain = model.probability_not_stated("security_deposit", {"mentioned": 1.0})
    assert flagged < 0.5 < plain


def test_each_source_is_scored_by_a_model_fitted_without_any_of_its_documents() -> None:
    examples = _examples(documents=8, families=4)
    held = out_of_fold(examples)
    assert sorted(held) == ["src0", "src1", "src2", "src3"]
    without = fit_model([e for e in examples if source_family(e.document) != "src2"])
    assert held["src2"].to_json()["values"] == without.to_json()["values"]


def test_a_document_s_source_is_its_file_name_up_to_the_first_underscore() -> None:
    assert source_family("res_in_kokomo.pdf") == "res"
    assert source_family("cb_sublease_x.docx") == "cb"
    assert source_family("9f2c0a") == "9f2c0a"  # a reviewed document: its own source


def test_unread_fields_are_examples_of_whether_the_lease_states_them() -> None:
    fields = {
        "security_deposit": RawField("security_deposit", None, evidence={"mentioned": 0.0}),
        "rentable_sqft": RawField("rentable_sqft", None, evidence={"mentioned": 1.0}),
        "tenant": RawField("tenant", "Beta Inc."),
        "cam_monthly": RawField("cam_monthly", None),
    }
    labels = {"security_deposit": None, "rentable_sqft": 4200, "tenant": "Beta Inc."}
    examples = {e.field: e for e in unread_examples("a.pdf", fields, labels)}
    assert sorted(examples) == ["rentable_sqft", "security_deposit"]  # cam: not labelled
    assert examples["security_deposit"].right  # labelled null: not stated
    assert not examples["rentable_sqft"].right  # stated, and nobody read it
    assert examples["rentable_sqft"].source == "unread"


@pytest.mark.parametrize("right", [True, False])
def test_one_kind_of_example_gives_a_constant_shrunk_rate(right: bool) -> None:
    examples = [Example("d", "tenant", {"statements": 1}, right) for _ in range(8)]
    p = fit_model(examples).probability("tenant", {"statements": 3})
    assert (0.5 < p < 1.0) if right else (0.0 < p < 0.5)


def test_the_rival_values_a_lease_states_are_examples_too() -> None:
    raw = RawField("tenant", "Beta Widgets Inc.", evidence={"statements": 2})
    raw.alternatives = [Alternative("Gamma Corp", {"statements": 1, "rival_statements": 2})]
    labels = {"tenant": "Beta Widgets Inc."}
    chosen_only = labelled_examples("a.pdf", {"tenant": raw}, labels)
    assert [(e.source, e.right) for e in chosen_only] == [("labels", True)]
    both = labelled_examples("a.pdf", {"tenant": raw}, labels, alternatives=True)
    assert [(e.source, e.right) for e in both] == [("labels", True), ("alternative", False)]
    assert "alternatives" not in raw.to_dict()  # a training aid, never sent between stages
