"""Fitting the confidence models from labelled leases, and checking them on unseen sources.

A labelled value is an example: the features extraction recorded for a candidate
(``RawField.evidence``) and whether the candidate was right. Examples come from

- labelled documents (a labels file, docs/fields.md's form): a chosen value is right when it
  equals its label by docs/fields.md's comparison rules, wrong otherwise (also when the label
  says the document does not state the field); every other candidate the lease states for
  the field (``RawField.alternatives``) is an example too — mostly wrong, they teach the
  ranker what a wrong candidate looks like (the calibration map is fitted on chosen values
  only, since those are the probabilities a reviewer sees);
- reviewers' decisions in the store: a value committed as the pipeline read it is right,
  a value a reviewer corrected was wrong;
- for the not-stated model, every labelled field nothing was read for: a field labelled
  ``null`` is a positive (the lease does not state it), one with a value a negative.

``fit_model`` fits an L2-regularised logistic regression (scikit-learn) on each kind of
example, then a monotone map from its output to the rate observed on **sources held out of
the fit**: documents are grouped by their source family (``source_family``: the file name's
prefix, ``cb_``, ``res_``, ``lr_`` …) and each family's predictions come from a model fitted
without any of its documents, so the shipped probability is calibrated the way it will be
used — on leases from a source the model never saw. ``out_of_fold`` gives each family the
model fitted without it: what ``lease-parser eval`` reports as cross-validated. Fitting is
deterministic: examples are sorted, the solver is deterministic, numbers are rounded when
written.

scikit-learn is needed only here (``pip install 'lease-parser[calibrate]'``); applying the
model (lease_parser.scoring.confidence) needs nothing but the parameter file.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lease_parser.comparison import values_match
from lease_parser.errors import ConfigurationError
from lease_parser.extraction.base import RawField
from lease_parser.scoring.confidence import (
    ConfidenceModel,
    Logistic,
    doubted,
    feature_vector,
    unread_vector,
)
from lease_parser.scoring.normalization import typed_value

# Inverse L2 strength, one per model. Chosen by grouped cross-validated log-loss on the dev
# corpus: 0.3 for values (among 0.1, 0.3, 1), 3 for "not stated" (among 0.1 … 30; above 3 it
# clears fields the lease states).
REGULARIZATION = 0.3
NOT_STATED_REGULARIZATION = 3.0
# Calibration points are kept at this resolution (the map is reviewed in git).
MAP_POINTS = 20

Vectorize = Callable[[str, Mapping[str, float]], dict[str, float]]


@dataclass(frozen=True)
class Example:
    document: str
    field: str
    evidence: Mapping[str, float]
    right: bool  # for an unread field: the lease does not state it
    source: str = "labels"  # labels | alternative | review | unread


def source_family(document: str) -> str:
    """The source a labelled document comes from: its file name up to the first "_"
    (``res_in_kokomo.pdf`` → ``res``); a reviewed document (a content hash) is its own."""
    head, sep, _ = document.partition("_")
    return head if sep else document


def labelled_examples(
    document: str,
    fields: Mapping[str, RawField],
    labels: Mapping[str, Any],
    alternatives: bool = False,
) -> list[Example]:
    """One example per stated value whose field the document's labels score; with
    ``alternatives``, also one per other candidate the lease states for it."""
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


def unread_examples(
    document: str, fields: Mapping[str, RawField], labels: Mapping[str, Any]
) -> list[Example]:
    """One example per labelled field nothing was read for: right when labelled ``null``."""
    out = []
    for name, expected in labels.items():
        raw = fields.get(name)
        if raw is None or raw.value is not None:
            continue
        out.append(Example(document, name, dict(raw.evidence), expected is None, "unread"))
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


def _sorted(examples: Iterable[Example]) -> list[Example]:
    return sorted(
        examples, key=lambda e: (e.source, e.document, e.field, sorted(e.evidence.items()))
    )


def _sklearn() -> Any:
    try:
        from sklearn import feature_extraction, isotonic, linear_model
    except ImportError as exc:  # an optional dependency: say how to get it
        raise ConfigurationError(
            "fitting the confidence model needs scikit-learn: pip install 'lease-parser[calibrate]'"
        ) from exc
    return linear_model, isotonic, feature_extraction


def _regression(examples: Sequence[Example], vectorize: Vectorize, strength: float) -> Logistic:
    linear_model, _, feature_extraction = _sklearn()
    y = [int(e.right) for e in examples]
    if len(set(y)) < 2:
        # All right (or all wrong, or none): nothing to learn but the rate, shrunk towards
        # even odds by one example of each kind (Laplace).
        rate = (sum(y) + 1) / (len(y) + 2)
        return Logistic(weights={}, intercept=math.log(rate / (1 - rate)))
    vectorizer = feature_extraction.DictVectorizer(sparse=True, sort=True)
    x = vectorizer.fit_transform([vectorize(e.field, e.evidence) for e in examples])
    fitted = linear_model.LogisticRegression(C=strength, max_iter=10000).fit(x, y)
    names = vectorizer.get_feature_names_out()
    weights = {str(n): float(w) for n, w in zip(names, fitted.coef_[0], strict=True)}
    return Logistic(weights=weights, intercept=float(fitted.intercept_[0]))


def _by_family(examples: Sequence[Example]) -> dict[str, list[Example]]:
    groups: dict[str, list[Example]] = {}
    for example in examples:
        groups.setdefault(source_family(example.document), []).append(example)
    return groups


def _held_out(
    examples: Sequence[Example], vectorize: Vectorize, strength: float
) -> list[tuple[Example, float]]:
    """Each family's chosen values scored by a regression fitted on the other families'
    examples (alternatives train the regression; only chosen values calibrate it)."""
    out = []
    groups = _by_family(examples)
    for family, held in groups.items():
        rest = [e for f, group in groups.items() if f != family for e in group]
        regression = _regression(rest, vectorize, strength)
        out += [
            (e, regression.probability(vectorize(e.field, e.evidence)))
            for e in held
            if e.source != "alternative"
        ]
    return out


def _calibration_map(scored: Sequence[tuple[Example, float]]) -> tuple[tuple[float, float], ...]:
    """Isotonic map from held-out regression output to the observed rate, as a few points."""
    _, isotonic, _ = _sklearn()
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


def _calibrated(
    examples: Sequence[Example], vectorize: Vectorize, strength: float, by_doubt: bool = False
) -> Logistic:
    """The regression on every example, and its calibration map from held-out sources;
    ``by_doubt``: one map for doubted values and one for the rest (scoring/confidence.py)."""
    regression = _regression(examples, vectorize, strength)
    held = _held_out(examples, vectorize, strength)
    if not by_doubt:
        return Logistic(regression.weights, regression.intercept, _calibration_map(held))
    return Logistic(
        regression.weights,
        regression.intercept,
        _calibration_map([(e, p) for e, p in held if not doubted(e.evidence)]),
        _calibration_map([(e, p) for e, p in held if doubted(e.evidence)]),
    )


def fit_model(
    examples: Iterable[Example], description: Mapping[str, Any] | None = None
) -> ConfidenceModel:
    """Both models on all examples, each calibrated on predictions for held-out sources."""
    ordered = _sorted(examples)
    values = [e for e in ordered if e.source != "unread"]
    unread = [e for e in ordered if e.source == "unread"]
    fitted_on = {
        "examples": len(values),
        "wrong": sum(1 for e in values if not e.right),
        "alternatives": sum(1 for e in values if e.source == "alternative"),
        "unread": len(unread),
        "unread_not_stated": sum(1 for e in unread if e.right),
        "documents": len({e.document for e in ordered}),
        "families": len(_by_family(ordered)),
        "from_reviews": sum(1 for e in values if e.source == "review"),
        "fitted": dt.date.today().isoformat(),
        **(description or {}),
    }
    return ConfidenceModel(
        values=_calibrated(values, feature_vector, REGULARIZATION, by_doubt=True),
        fields=frozenset(e.field for e in values if e.source != "alternative"),
        not_stated=_calibrated(unread, unread_vector, NOT_STATED_REGULARIZATION, by_doubt=True)
        if unread
        else None,
        not_stated_fields=frozenset(e.field for e in unread),
        fitted_on=fitted_on,
    )


def out_of_fold(examples: Iterable[Example]) -> dict[str, ConfidenceModel]:
    """For each source family, the models fitted (and calibrated) without it: what the
    models would say of that family's documents had they never seen the source."""
    groups = _by_family(_sorted(examples))
    return {
        family: fit_model([e for f, g in groups.items() if f != family for e in g])
        for family in groups
    }
