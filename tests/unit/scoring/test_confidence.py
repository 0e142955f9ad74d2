"""The confidence models: evidence in, a probability out; the ranker; the file; settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lease_parser.errors import ConfigurationError
from lease_parser.extraction.base import RawField
from lease_parser.scoring.confidence import (
    COUNT_CAP,
    ConfidenceModel,
    Logistic,
    default_model,
    feature_vector,
    score_fields,
    vector_names,
)
from lease_parser.settings import load_settings

MODEL = ConfidenceModel(
    values=Logistic(weights={"statements": 1.0, "rival_statements": -2.0}, intercept=0.0),
    not_stated=Logistic(weights={"mentioned": -3.0}, intercept=2.0),
    not_stated_fields=frozenset({"security_deposit"}),
)


def test_counts_are_capped_and_each_feature_is_shared_and_crossed_with_the_field_group() -> None:
    vector = feature_vector("tenant", {"statements": 9, "ocr": 0.2, "checks": 0})
    assert vector["statements"] == COUNT_CAP
    assert vector["party:statements"] == COUNT_CAP
    assert vector["ocr"] == vector["party:ocr"] == 0.2
    assert vector["group=party"] == 1.0
    assert "checks" not in vector  # zero entries are left out
    assert set(vector) <= set(vector_names())


def test_more_independent_statements_are_more_probable_and_a_rival_less() -> None:
    one = MODEL.probability("tenant", {"statements": 1})
    two = MODEL.probability("tenant", {"statements": 2})
    rival = MODEL.probability("tenant", {"statements": 2, "rival_statements": 1})
    assert 0 < rival < one < two < 1


def test_the_ranker_orders_candidates_as_the_probability_does() -> None:
    weak, strong = {"statements": 1, "rival_statements": 1}, {"statements": 2}
    assert MODEL.score("landlord", strong) > MODEL.score("landlord", weak)
    assert MODEL.probability("landlord", strong) > MODEL.probability("landlord", weak)


def test_the_calibration_map_is_piecewise_linear_and_clipped() -> None:
    model = Logistic(weights={}, intercept=0.0, calibration=((0.2, 0.1), (0.8, 0.9)))
    assert model.calibrated(0.0) == 0.1
    assert model.calibrated(0.5) == pytest.approx(0.5)
    assert model.calibrated(0.95) == 0.9


def test_the_model_file_round_trips() -> None:
    data = json.loads(json.dumps(MODEL.to_json()))
    again = ConfidenceModel.from_json(data)
    for evidence in ({"statements": 2}, {"statements": 1, "rival_statements": 1}):
        assert again.probability("landlord", evidence) == MODEL.probability("landlord", evidence)
    unread = {"mentioned": 1.0}
    assert again.probability_not_stated("security_deposit", unread) == pytest.approx(
        MODEL.probability_not_stated("security_deposit", unread)
    )


def test_a_model_of_another_format_is_refused_with_what_to_do() -> None:
    with pytest.raises(ValueError, match="lease-parser calibrate"):
        ConfidenceModel.from_json({"format": 1, "weights": {}, "intercept": 0.0})


def test_the_shipped_model_gives_probabilities() -> None:
    model = default_model()
    assert model.fitted_on["examples"] > 100
    assert model.fitted_on["unread"] > 100
    for name in ("landlord", "premises_address", "base_rent_monthly"):
        p = model.probability(name, {"statements": 1})
        assert 0.0 <= p <= 1.0
    strong = model.probability("landlord", {"statements": 3, "kinds": 3, "strong": 1})
    weak = model.probability("landlord", {"statements": 1, "rival_statements": 2})
    assert strong > weak
    assert {"tenant", "security_deposit", "rentable_sqft"} <= model.not_stated_fields


def test_the_shipped_not_stated_model_believes_a_field_whose_words_never_occur() -> None:
    model = default_model()
    absent = model.probability_not_stated("rentable_sqft", {"mentioned": 0.0, "mentions": 0.0})
    flagged = model.probability_not_stated(
        "rentable_sqft", {"mentioned": 1.0, "mentions": 0.8, "shape_found": 1.0}
    )
    assert absent > flagged


def test_score_fields_sets_a_value_right_and_an_unread_field_not_stated() -> None:
    fields = {
        "tenant": RawField("tenant", "Beta Inc.", evidence={"statements": 2}),
        "security_deposit": RawField("security_deposit", None, evidence={"mentioned": 0.0}),
        "cam_monthly": RawField("cam_monthly", None, confidence=0.7),
    }
    score_fields(fields, MODEL)
    assert fields["tenant"].confidence == MODEL.probability("tenant", {"statements": 2})
    assert fields["security_deposit"].confidence == pytest.approx(0.8808, abs=1e-4)
    # No labelled examples of the field: the model says nothing of it.
    assert fields["cam_monthly"].confidence == 0.0


def test_a_configured_model_is_loaded_and_a_broken_one_fails_at_start_up(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(MODEL.to_json()))
    settings = load_settings(confidence_model=path)
    assert settings.confidence().values.weights["rival_statements"] == -2.0
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ConfigurationError, match="LEASE_CONFIDENCE_MODEL"):
        load_settings(confidence_model=broken)
