"""The probability that an extracted value is right, from the evidence for it.

Extraction records the evidence for each value as named features (extraction/evidence.py).
A logistic model learned from labelled leases, followed by a monotone calibration map,
turns them into a probability: of the values this model gives 0.9, about nine in ten were
right on leases it was not fitted on (``lease-parser eval`` checks that by leave-one-
document-out cross-validation). Nothing here is set by hand: ``lease-parser calibrate``
refits the parameters (lease_parser/calibration.py) from the labelled corpus and from
reviewers' decisions, and writes them to ``confidence_model.json`` in this package, a small
file reviewed in git like code.

Pure and small on purpose: workers apply the model with a dot product and a table lookup,
without scikit-learn (only fitting needs it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import FEATURES

MODEL_FILE = "confidence_model.json"
# Counts beyond this add nothing more: a fifth restatement is no stronger than a third.
COUNT_CAP = 3.0
_COUNTS = frozenset(
    {"statements", "kinds", "checks", "rival_statements", "relations_met", "relations_failed"}
)
# Fields are grouped by how they are read: a group shares what the model learns about it.
FIELD_GROUPS: dict[str, str] = {
    "landlord": "party",
    "tenant": "party",
    "premises_address": "address",
    "rentable_sqft": "area",
    "lease_date": "date",
    "commencement_date": "date",
    "expiration_date": "date",
    "term_months": "term",
    "base_rent_monthly": "rent",
    "base_rent_annual": "rent",
    "rent_schedule": "schedule",
    "escalation": "schedule",
    "cam_monthly": "charge",
    "tenant_share_percent": "charge",
    "security_deposit": "deposit",
    "renewal_option_count": "option",
    "renewal_term_months": "option",
    "currency": "currency",
    # No labelled examples yet (so they gate nothing): each borrows what its group learned.
    "renewal_notice": "option",
    "termination_notice": "option",
    "termination_option_date": "date",
    "amended_lease_date": "date",
    "premises_added_sqft": "area",
}
GROUPS: tuple[str, ...] = tuple(sorted(set(FIELD_GROUPS.values())))


def feature_vector(name: str, evidence: Mapping[str, float]) -> dict[str, float]:
    """The model's inputs for one value: its evidence (counts capped) and its field group."""
    vector = {}
    for feature in FEATURES:
        value = float(evidence.get(feature, 0.0))
        vector[feature] = min(value, COUNT_CAP) if feature in _COUNTS else value
    group = FIELD_GROUPS.get(name, "other")
    for each in GROUPS:
        vector[f"group={each}"] = 1.0 if each == group else 0.0
    return vector


def vector_names() -> tuple[str, ...]:
    return (*FEATURES, *(f"group={g}" for g in GROUPS))


@dataclass(frozen=True)
class ConfidenceModel:
    """Logistic weights over ``feature_vector`` and a monotone map of its output."""

    weights: Mapping[str, float]
    intercept: float
    # Piecewise-linear calibration: (model probability, observed rate) points, ascending.
    calibration: tuple[tuple[float, float], ...] = ()
    # The fields it saw labelled examples of: only their probabilities are measured, so only
    # they gate a document (others are shown with their score, and their doubts still count).
    fields: frozenset[str] = frozenset(FIELD_GROUPS)
    fitted_on: Mapping[str, Any] | None = None

    def probability(self, name: str, evidence: Mapping[str, float]) -> float:
        vector = feature_vector(name, evidence)
        z = self.intercept + sum(self.weights.get(k, 0.0) * v for k, v in vector.items())
        return self.calibrated(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))))

    def calibrated(self, p: float) -> float:
        points = self.calibration
        if not points:
            return p
        if p <= points[0][0]:
            return points[0][1]
        for (x0, y0), (x1, y1) in pairwise(points):
            if p <= x1:
                return y0 if x1 == x0 else y0 + (y1 - y0) * (p - x0) / (x1 - x0)
        return points[-1][1]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": 1,
            "features": list(vector_names()),
            "weights": {k: round(self.weights.get(k, 0.0), 6) for k in vector_names()},
            "intercept": round(self.intercept, 6),
            "calibration": [[round(x, 6), round(y, 6)] for x, y in self.calibration],
            "fields": sorted(self.fields),
            "fitted_on": self.fitted_on or {},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ConfidenceModel:
        return cls(
            weights={str(k): float(v) for k, v in data["weights"].items()},
            intercept=float(data["intercept"]),
            calibration=tuple((float(x), float(y)) for x, y in data.get("calibration", [])),
            fields=frozenset(data.get("fields", FIELD_GROUPS)),
            fitted_on=data.get("fitted_on"),
        )


def model_path() -> Path:
    return Path(str(resources.files("lease_parser").joinpath(MODEL_FILE)))


@lru_cache(maxsize=4)
def load_model(path: Path) -> ConfidenceModel:
    """A model written by ``lease-parser calibrate`` (read once per process)."""
    return ConfidenceModel.from_json(json.loads(path.read_text(encoding="utf-8")))


def default_model() -> ConfidenceModel:
    """The model shipped in the package (refit with ``lease-parser calibrate``)."""
    return load_model(model_path())


def score_fields(fields: Mapping[str, RawField], model: ConfidenceModel | None = None) -> None:
    """Set each stated value's ``confidence`` to the model's probability that it is right."""
    model = model or default_model()
    for raw in fields.values():
        raw.confidence = 0.0 if raw.value is None else model.probability(raw.name, raw.evidence)
