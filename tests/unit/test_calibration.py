"""Fitting the confidence model: examples from labels and reviews, determinism, held-out fits."""

from __future__ import annotations

import json
import random

import pytest

from lease_parser.calibration import (
    Example,
    fit_model,
    labelled_examples,
    out_of_fold,
    reviewed_examples,
)
from lease_parser.extraction.base import Alternative, RawField


def _examples(documents: int = 12, seed: int = 7) -> list[Example]:
    """Synthetic evidence where more statements and no rival make a value likelier right."""
    rng = random.Random(seed)
    out = []
    for d in range(documents):
        for name in ("landlord", "tenant", "premises_address", "base_rent_monthly"):
            statements = rng.randint(1, 4)
            rival = rng.random() < 0.2
            right = rng.random() < (0.55 + 0.1 * statements - (0.4 if rival else 0.0))
            evidence = {"statements": statements, "rival_statements": int(rival)}
            out.append(Example(f"doc-{d}", name, evidence, right))
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
    assert first["fitted_on"]["examples"] == len(examples)
    assert first["fitted_on"]["documents"] == 12


def test_the_fit_learns_the_direction_of_the_evidence() -> None:
    model = fit_model(_examples(documents=40))
    assert model.weights["statements"] > 0
    assert model.weights["rival_statements"] < 0
    calibration = [y for _, y in model.calibration]
    assert calibration == sorted(calibration)  # monotone


def test_each_document_is_scored_by_a_model_fitted_without_it() -> None:
    examples = _examples(documents=5)
    held = out_of_fold(examples)
    assert sorted(held) == [f"doc-{d}" for d in range(5)]
    without = fit_model([e for e in examples if e.document != "doc-2"])
    assert held["doc-2"].to_json()["weights"] == without.to_json()["weights"]


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
