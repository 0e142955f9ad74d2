"""The probability that an extracted value is right, and that an unread field is not stated.

Extraction records the evidence for each candidate value as named features (extraction/
evidence.py, candidates.py, sanity.py), and for each field it read nothing for, the evidence
whether the lease states it at all (extraction/unread.py). Two logistic models learned from
labelled leases, each followed by a monotone calibration map, turn them into probabilities:

- **values**: the probability a value is right. The same model, before its calibration map,
  is the *ranker* that chooses among a field's candidates while a document is read
  (``ConfidenceModel.score``; extraction/ranking.py), so the value shown is the one the
  labels say is most often right, and its probability is how often such values were right;
- **not stated**: the probability that a field nobody read is one the lease does not state
  (a field labelled ``null`` is a positive; a stated value nobody read a negative). A
  committed lease must have each core field read, or this probability above the gate.

Of the values (or unread fields) a model gives 0.9, about nine in ten were right on leases
from sources it was not fitted on: ``lease-parser eval`` checks that by cross-validation
grouped by source. Nothing here is set by hand: ``lease-parser calibrate`` refits the
parameters (scoring/calibration.py) and writes them to ``confidence_model.json`` in this
package, a small file reviewed in git like code.

A value that carries a doubt (a rival the lease states, a failed relation, a caveat) goes to
a person whatever its probability, and such values are wrong far more often than the rest:
they have a calibration map of their own, fitted on doubted values only, so their
probability says how often a doubted value with this evidence was right instead of
borrowing the undoubted values' confidence.

Each feature enters twice: once shared by every field, and once for the field's group (a
signature block is good evidence for a party's name and poor evidence for a rent), so what
a group has too few examples to learn falls back on what all fields share.

Pure and small on purpose: workers apply the models with a dot product and a table lookup,
without scikit-learn (only fitting needs it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import FEATURES
from lease_parser.extraction.unread import UNREAD_FEATURES
from lease_parser.fields import FIELD_GROUPS

MODEL_FILE = "confidence_model.json"
FORMAT = 2
# Counts beyond this add nothing more: a fifth restatement is no stronger than a third.
COUNT_CAP = 3.0
_COUNTS = frozenset(
    {"statements", "kinds", "checks", "rival_statements", "relations_met", "relations_failed"}
)
# The features a doubt always sets (extraction/evidence.py ``Doubt``): a value with any of
# them is a doubted value, calibrated on its own map; so is an unread field whose statement
# was seen ("stated but not read": ``shape_found``).
DOUBT_FEATURES = ("rival_statements", "relations_failed", "caveats", "shape_found")


def doubted(evidence: Mapping[str, float]) -> bool:
    """Whether the evidence carries a doubt: a rival, a failed relation, a caveat, or (for an
    unread field) a statement of it seen and not read."""
    return any(evidence.get(f, 0.0) > 0 for f in DOUBT_FEATURES)


# Fields are grouped by how they are read (the ``group`` of each field's description): a
# group shares what the model learns about it.
GROUPS: tuple[str, ...] = tuple(sorted(set(FIELD_GROUPS.values())))


def group_of(name: str) -> str:
    return FIELD_GROUPS.get(name, "other")


def _vector(
    name: str, evidence: Mapping[str, float], features: tuple[str, ...]
) -> dict[str, float]:
    """Each feature shared and crossed with the field's group (``<group>:<feature>``), and
    the group itself (``group=<group>``); zero entries are left out."""
    group = group_of(name)
    vector = {f"group={group}": 1.0}
    for feature in features:
        value = float(evidence.get(feature, 0.0))
        if feature in _COUNTS:
            value = min(value, COUNT_CAP)
        if value:
            vector[feature] = value
            vector[f"{group}:{feature}"] = value
    return vector


def feature_vector(name: str, evidence: Mapping[str, float]) -> dict[str, float]:
    """The values model's inputs for one candidate value (non-zero entries only)."""
    return _vector(name, evidence, FEATURES)


def unread_vector(name: str, evidence: Mapping[str, float]) -> dict[str, float]:
    """The not-stated model's inputs for one unread field (non-zero entries only)."""
    return _vector(name, evidence, UNREAD_FEATURES)


def vector_names(features: tuple[str, ...] = FEATURES) -> tuple[str, ...]:
    """Every entry a vector of ``features`` can have, in a fixed order."""
    return (
        *features,
        *(f"group={g}" for g in GROUPS),
        *(f"{g}:{f}" for g in GROUPS for f in features),
    )


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True)
class Logistic:
    """Logistic weights over a sparse vector and a monotone map of the output."""

    weights: Mapping[str, float]
    intercept: float
    # Piecewise-linear calibration: (model probability, observed rate) points, ascending.
    calibration: tuple[tuple[float, float], ...] = ()
    # The same for doubted values (``doubted``); empty: they share ``calibration``.
    doubted_calibration: tuple[tuple[float, float], ...] = ()

    def score(self, vector: Mapping[str, float]) -> float:
        """The log-odds before calibration: what ranks candidates."""
        return self.intercept + sum(self.weights.get(k, 0.0) * v for k, v in vector.items())

    def probability(self, vector: Mapping[str, float], doubt: bool = False) -> float:
        return self.calibrated(_sigmoid(self.score(vector)), doubt)

    def calibrated(self, p: float, doubt: bool = False) -> float:
        points = (doubt and self.doubted_calibration) or self.calibration
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
            "weights": {k: round(v, 6) for k, v in sorted(self.weights.items()) if round(v, 6)},
            "intercept": round(self.intercept, 6),
            "calibration": _points_json(self.calibration),
            "doubted_calibration": _points_json(self.doubted_calibration),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Logistic:
        return cls(
            weights={str(k): float(v) for k, v in data["weights"].items()},
            intercept=float(data["intercept"]),
            calibration=_points(data.get("calibration", [])),
            doubted_calibration=_points(data.get("doubted_calibration", [])),
        )


def _points_json(points: tuple[tuple[float, float], ...]) -> list[list[float]]:
    return [[round(x, 6), round(y, 6)] for x, y in points]


def _points(data: list[list[float]]) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in data)


@dataclass(frozen=True)
class ConfidenceModel:
    """The values model (ranker and probability) and the not-stated model."""

    values: Logistic
    # The fields it saw labelled examples of: only their probabilities are measured, so only
    # they gate a document (others are shown with their score, and their doubts still count).
    fields: frozenset[str] = frozenset(FIELD_GROUPS)
    not_stated: Logistic | None = None
    # The fields whose "not stated" probability was fitted on labels.
    not_stated_fields: frozenset[str] = frozenset()
    fitted_on: Mapping[str, Any] = field(default_factory=dict)

    def score(self, name: str, evidence: Mapping[str, float]) -> float:
        """How the ranker orders a field's candidates (log-odds, uncalibrated)."""
        return self.values.score(feature_vector(name, evidence))

    def probability(self, name: str, evidence: Mapping[str, float]) -> float:
        """The probability that a value with this evidence is right."""
        return self.values.probability(feature_vector(name, evidence), doubted(evidence))

    def probability_not_stated(self, name: str, evidence: Mapping[str, float]) -> float:
        """The probability that a field nothing was read for is not stated in the lease;
        0 where the model has no labelled examples of the field."""
        if self.not_stated is None or name not in self.not_stated_fields:
            return 0.0
        return self.not_stated.probability(unread_vector(name, evidence), doubted(evidence))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "values": self.values.to_json(),
            "fields": sorted(self.fields),
            "not_stated": self.not_stated.to_json() if self.not_stated else None,
            "not_stated_fields": sorted(self.not_stated_fields),
            "fitted_on": dict(self.fitted_on),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ConfidenceModel:
        if data.get("format") != FORMAT:
            raise ValueError(
                f"confidence model format {data.get('format')!r}, expected {FORMAT}: "
                "refit it with lease-parser calibrate"
            )
        not_stated = data.get("not_stated")
        return cls(
            values=Logistic.from_json(data["values"]),
            fields=frozenset(data.get("fields", FIELD_GROUPS)),
            not_stated=Logistic.from_json(not_stated) if not_stated else None,
            not_stated_fields=frozenset(data.get("not_stated_fields", ())),
            fitted_on=data.get("fitted_on") or {},
        )


def model_path() -> Path:
    return Path(str(resources.files("lease_parser.scoring").joinpath(MODEL_FILE)))


@lru_cache(maxsize=4)
def load_model(path: Path) -> ConfidenceModel:
    """A model written by ``lease-parser calibrate`` (read once per process)."""
    return ConfidenceModel.from_json(json.loads(path.read_text(encoding="utf-8")))


def default_model() -> ConfidenceModel:
    """The model shipped in the package (refit with ``lease-parser calibrate``)."""
    return load_model(model_path())


def score_fields(fields: Mapping[str, RawField], model: ConfidenceModel | None = None) -> None:
    """Set each stated value's ``confidence`` to the probability that it is right, and each
    unread field's to the probability that the lease does not state it."""
    model = model or default_model()
    for raw in fields.values():
        if raw.value is None:
            raw.confidence = model.probability_not_stated(raw.name, raw.evidence)
        else:
            raw.confidence = model.probability(raw.name, raw.evidence)
