"""Fitting the confidence model from labelled values, and checking it on unseen documents.

A labelled value is an example: the evidence extraction recorded for a value
(``RawField.evidence``) and whether the value was right. Examples come from

- labelled documents (a labels file, docs/fields.md's form): a stated value is right when it
  equals its label by docs/fields.md's comparison rules, wrong otherwise (also when the label
  says the document does not state the field);
- reviewers' decisions in the store: a value committed as the pipeline read it is right,
  a value a reviewer corrected was wrong;
- the other values a labelled lease states for a field (``RawField.alternatives``), each with
  the evidence it would have had if chosen: most are wrong, and they show the regression
  what a wrong candidate looks like (the calibration map is fitted on chosen values only).

``fit_model`` fits an L2-regularised logistic regression (scikit-learn) on the examples,
then a monotone map from its output to the rate observed on documents held out of the fit
(isotonic regression on leave-one-document-out predictions), so the shipped probability is
calibrated on documents the regression did not see. ``out_of_fold`` gives each document's
values the probability a model fitted without that document gives them: what
``lease-parser eval`` reports as cross-validated. Fitting is deterministic: examples are
sorted, the solver is deterministic, numbers are rounded when written.

scikit-learn is needed only here (``pip install 'lease-parser[calibrate]'``); applying the
model (lease_parser.confidence) needs nothing but the parameter file.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lease_parser.confidence import ConfidenceModel, feature_vector, vector_names
from lease_parser.errors import ConfigurationError
from lease_parser.evaluation.compare import values_match
from lease_parser.extraction.base import RawField
from lease_parser.normalization import typed_value

# Inverse L2 strength: a few hundred examples, a few dozen wrong ones, ~30 features.
# Chosen by leave-one-document-out log-loss on the dev corpus among 0.1, 0.3, 1, 3, 10, 30.
REGULARIZATION = 1.0
# Calibration points are kept at this resolution (the map is reviewed in git).
MAP_POINTS = 20


@dataclass(frozen=True)
class Example:
    document: str
    field: str
    evidence: Mapping[str, float]
    right: bool
    source: str = "labels"  # labels | review


def labelled_examples(
    document: str,
    fields: Mapping[str, RawField],
    labels: Mapping[str, Any],
    alternatives: bool = False,
) -> list[Example]:
    """One example per stated value whose field the document's labels score; with
    ``alternatives``, also one per other value the lease states for it (source
    "alternative": mostly wrong, they teach what a wrong candidate looks like)."""
    out = []
    for name, expected in labels.items():
        raw = fields.get(name)
        if raw is None or raw.value is None:
            continue
        out.append(Example(document, name, dict(raw.evidence), _right(name, raw.value, expected)))
        if alternatives:
            out += [
                Example(
                    document, name, dict(a.evidence), _right(name, a.value, expected), "alternative"
                )
                for a in raw.alternatives
            ]
    return out


def _right(name: str, value: str, expected: Any) -> bool:
    try:
        predicted = typed_value(name, value)
    except ValueError:
        return False  # normalization refuses it: never right
    return expected is not None and values_match(name, predicted, expected)


def reviewed_examples(documents: Iterable[Mapping[str, Any]]) -> list[Example]:
    """Examples from committed reviews: ``{"doc_hash", "fields", "corrections"}`` each, the
    stored fields JSON (with the pipeline's evidence) and what the reviewer changed."""
    out = []
    for doc in documents:
        corrections = doc.get("corrections") or {}
        for name, stored in (doc.get("fields") or {}).items():
            evidence = stored.get("evidence")
            if not evidence:
                continue  # a value a reviewer typed, or stored before evidence was kept
            change = corrections.get(name)
            was = change["from"] if change else stored.get("value")
            if was is None:
                continue
            right = change is None or change.get("to") == change.get("from")
            out.append(Example(str(doc["doc_hash"]), name, dict(evidence), right, "review"))
    return out


def _matrix(examples: Sequence[Example]) -> tuple[list[list[float]], list[int]]:
    names = vector_names()
    rows = []
    for example in examples:
        vector = feature_vector(example.field, example.evidence)
        rows.append([vector[n] for n in names])
    return rows, [int(e.right) for e in examples]


def _sorted(examples: Iterable[Example]) -> list[Example]:
    return sorted(examples, key=lambda e: (e.source, e.document, e.field))


def _sklearn() -> Any:
    try:
        from sklearn import isotonic, linear_model
    except ImportError as exc:  # an optional dependency: say how to get it
        raise ConfigurationError(
            "fitting the confidence model needs scikit-learn: pip install 'lease-parser[calibrate]'"
        ) from exc
    return linear_model, isotonic


def _regression(examples: Sequence[Example]) -> ConfidenceModel:
    linear_model, _ = _sklearn()
    x, y = _matrix(examples)
    if len(set(y)) < 2:
        # All right (or all wrong, or none): nothing to learn but the rate, shrunk towards
        # even odds by one example of each kind (Laplace).
        rate = (sum(y) + 1) / (len(y) + 2)
        return ConfidenceModel(weights={}, intercept=math.log(rate / (1 - rate)))
    fitted = linear_model.LogisticRegression(C=REGULARIZATION, max_iter=5000).fit(x, y)
    weights = dict(zip(vector_names(), (float(w) for w in fitted.coef_[0]), strict=True))
    return ConfidenceModel(weights=weights, intercept=float(fitted.intercept_[0]))


def _by_document(examples: Sequence[Example]) -> dict[str, list[Example]]:
    groups: dict[str, list[Example]] = {}
    for example in examples:
        groups.setdefault(example.document, []).append(example)
    return groups


def _held_out(examples: Sequence[Example], fit: Any) -> list[tuple[Example, float]]:
    """Each document's chosen values scored by ``fit`` of all the other documents'
    examples (alternatives train the regression; only chosen values calibrate it)."""
    out = []
    groups = _by_document(examples)
    for document, held in groups.items():
        rest = [e for d, group in groups.items() if d != document for e in group]
        model = fit(rest)
        out += [
            (e, model.probability(e.field, e.evidence)) for e in held if e.source != "alternative"
        ]
    return out


def _calibration_map(scored: Sequence[tuple[Example, float]]) -> tuple[tuple[float, float], ...]:
    """Isotonic map from held-out regression output to the observed rate, as a few points."""
    _, isotonic = _sklearn()
    if not scored:
        return ()
    xs = [p for _, p in scored]
    ys = [int(e.right) for e, _ in scored]
    # n held-out values cannot show a rate beyond 1 - 1/(n + 2): never claim certainty.
    bound = 1 / (len(ys) + 2)
    iso = isotonic.IsotonicRegression(y_min=bound, y_max=1 - bound, out_of_bounds="clip")
    iso.fit(xs, ys)
    grid = sorted(
        {round(min(xs) + (max(xs) - min(xs)) * i / (MAP_POINTS - 1), 6) for i in range(MAP_POINTS)}
    )
    return tuple((x, float(y)) for x, y in zip(grid, iso.predict(grid), strict=True))


def fit_model(
    examples: Iterable[Example], description: Mapping[str, Any] | None = None
) -> ConfidenceModel:
    """The regression on all examples, calibrated on leave-one-document-out predictions."""
    ordered = _sorted(examples)
    regression = _regression(ordered)
    calibration = _calibration_map(_held_out(ordered, _regression))
    fitted_on = {
        "examples": len(ordered),
        "wrong": sum(1 for e in ordered if not e.right),
        "alternatives": sum(1 for e in ordered if e.source == "alternative"),
        "documents": len(_by_document(ordered)),
        "from_reviews": sum(1 for e in ordered if e.source == "review"),
        "fitted": dt.date.today().isoformat(),
        **(description or {}),
    }
    fields = frozenset(e.field for e in ordered if e.source != "alternative")
    return ConfidenceModel(regression.weights, regression.intercept, calibration, fields, fitted_on)


def out_of_fold(examples: Iterable[Example]) -> dict[str, ConfidenceModel]:
    """For each document, the model fitted (and calibrated) without it: what the model would
    say of that document had it never seen it."""
    groups = _by_document(_sorted(examples))
    return {
        document: fit_model([e for d, g in groups.items() if d != document for e in g])
        for document in groups
    }
