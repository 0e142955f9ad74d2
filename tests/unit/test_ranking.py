"""The confidence model's ranker chooses each field's value in the core stages."""

from __future__ import annotations

from lease_parser.abstract import extract_stage, normalize_stage
from lease_parser.scoring.confidence import ConfidenceModel, Logistic
from tests.unit.extraction.lease_text import document

# The preamble names one landlord, the particulars another: two candidates.
TEXT = (
    "THIS LEASE is made as of April 9, 2019, by and between Orchard Row Holdings LLC "
    '("Landlord") and Tidewater Robotics, Inc. ("Tenant"). '
    + "The parties agree to the terms of this Lease. " * 20
    + "BASIC LEASE INFORMATION\nLandlord: Pier Nine Partners LLC\n"
    + "Tenant: Tidewater Robotics, Inc.\n"
)


def _model(weights: dict[str, float]) -> ConfidenceModel:
    return ConfidenceModel(values=Logistic(weights=weights, intercept=0.0))


def test_the_ranker_of_the_model_given_chooses_the_value() -> None:
    doc = document(TEXT)
    preamble = extract_stage(doc, _model({"party:place=preamble": 2.0}))
    summary = extract_stage(doc, _model({"party:place=summary": 2.0}))
    assert preamble.fields["landlord"].value == "Orchard Row Holdings LLC"
    assert summary.fields["landlord"].value == "Pier Nine Partners LLC"
    # The value not chosen is kept as the lease's other statement, and doubted.
    assert summary.fields["landlord"].doubts


def test_the_probability_is_the_same_model_s() -> None:
    model = _model({"party:place=summary": 2.0})
    result = normalize_stage(extract_stage(document(TEXT), model), 0.9, model)
    assert result.abstraction is not None
    landlord = result.abstraction.landlord
    assert landlord.value == "Pier Nine Partners LLC"
    assert landlord.confidence == model.probability("landlord", landlord.evidence)
