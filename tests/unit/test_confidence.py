"""The confidence model: evidence in, a probability out; its file; how settings load it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lease_parser.confidence import (
    COUNT_CAP,
    ConfidenceModel,
    default_model,
    feature_vector,
    score_fields,
    vector_names,
)
from lease_parser.errors import ConfigurationError
from lease_parser.extraction.base import RawField
from lease_parser.settings import load_settings

MODEL = ConfidenceModel(weights={"statements": 1.0, "rival_statements": -2.0}, intercept=0.0)


def test_counts_are_capped_and_the_field_group_is_one_hot() -> None:
    vector = feature_vector("tenant", {"statements": 9, "ocr": 0.2})
    assert vector["statements"] == COUNT_CAP
    assert vector["ocr"] == 0.2
    assert vector["group=party"] == 1.0
    assert sum(v for k, v in vector.items() if k.startswith("group=")) == 1.0
    assert list(vector) == list(vector_names())


def test_more_independent_statements_are_more_probable_and_a_rival_less() -> None:
    one = MODEL.probability("tenant", {"statements": 1})
    two = MODEL.probability("tenant", {"statements": 2})
    rival = MODEL.probability("tenant", {"statements": 2, "rival_statements": 1})
    assert 0 < rival < one < two < 1


def test_the_calibration_map_is_piecewise_linear_and_clipped() -> None:
    model = ConfidenceModel(weights={}, intercept=0.0, calibration=((0.2, 0.1), (0.8, 0.9)))
    assert model.calibrated(0.0) == 0.1
    assert model.calibrated(0.5) == pytest.approx(0.5)
    assert model.calibrated(0.95) == 0.9


def test_the_model_file_round_trips(tmp_path: Path) -> None:
    model = ConfidenceModel(
        weights={"statements": 0.5}, intercept=1.25, calibration=((0.1, 0.0), (0.9, 1.0))
    )
    data = json.loads(json.dumps(model.to_json()))
    again = ConfidenceModel.from_json(data)
    assert again.probability("landlord", {"statements": 2}) == model.probability(
        "landlord", {"statements": 2}
    )
    assert data["features"] == list(vector_names())


def test_the_shipped_model_gives_probabilities() -> None:
    model = default_model()
    assert model.fitted_on
    assert model.fitted_on["examples"] > 100
    for name in ("landlord", "premises_address", "base_rent_monthly"):
        p = model.probability(name, {"statements": 1})
        assert 0.0 <= p <= 1.0
    strong = model.probability("landlord", {"statements": 3, "kinds": 3, "strong": 1})
    weak = model.probability("landlord", {"statements": 1, "rival_statements": 2})
    assert strong > weak


def test_score_fields_sets_each_stated_value_and_leaves_empty_fields_at_zero() -> None:
    fields = {
        "tenant": RawField("tenant", "Beta Inc.", evidence={"statements": 2}),
        "cam_monthly": RawField("cam_monthly", None, confidence=0.7),
    }
    score_fields(fields, MODEL)
    assert fields["tenant"].confidence == MODEL.probability("tenant", {"statements": 2})
    assert fields["cam_monthly"].confidence == 0.0


def test_a_configured_model_is_loaded_and_a_broken_one_fails_at_start_up(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(MODEL.to_json()))
    settings = load_settings(confidence_model=path)
    assert settings.confidence().weights["rival_statements"] == -2.0
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ConfigurationError, match="LEASE_CONFIDENCE_MODEL"):
        load_settings(confidence_model=broken)
