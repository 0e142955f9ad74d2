"""metrics.py without servers: labels, names, outcomes."""

from __future__ import annotations

import re

import pytest

import redis
from lease_parser import metrics
from lease_parser.errors import CorruptDocument, OperationTimeout, StorageUnavailable
from lease_parser.model import AbstractionResult, LeaseAbstraction, Route


@pytest.mark.parametrize(
    ("exc", "label"),
    [
        (StorageUnavailable("S3 503"), "storage_unavailable"),
        (OperationTimeout("tesseract"), "operation_timeout"),
        (redis.exceptions.ConnectionError("reset"), "broker_unavailable"),
        (CorruptDocument("bad xref"), "corrupt_document"),
        (ValueError("a bug"), "other"),
        (None, "other"),
    ],
)
def test_retry_reasons_are_the_taxonomy_in_snake_case(exc: Exception | None, label: str) -> None:
    assert metrics.retry_reason(exc) == label


def _sample(name: str, **labels: str) -> float:
    return metrics.WORKER_REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_won_outcome_counts_its_route_and_confidence_a_lost_one_a_duplicate() -> None:
    committed = AbstractionResult(
        route=Route.COMMITTED, confidence=0.91, abstraction=LeaseAbstraction()
    )
    dead = AbstractionResult(route=Route.DEAD, reason=CorruptDocument.reason)
    before = (
        _sample("lease_documents_total", route="committed", reason="none"),
        _sample("lease_documents_total", route="dead", reason="corrupt"),
        _sample("lease_extraction_confidence_count"),
        _sample("lease_duplicates_total"),
    )
    metrics.record_outcome(committed, won=True)
    metrics.record_outcome(dead, won=True)  # no abstraction: no confidence observed
    metrics.record_outcome(committed, won=False)
    metrics.record_duplicate()
    after = (
        _sample("lease_documents_total", route="committed", reason="none"),
        _sample("lease_documents_total", route="dead", reason="corrupt"),
        _sample("lease_extraction_confidence_count"),
        _sample("lease_duplicates_total"),
    )
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1, 2]


def test_names_follow_prometheus_conventions() -> None:
    metrics.worker_metrics()
    families = list(metrics.WORKER_REGISTRY.collect())
    # prometheus-client names a counter's family without `_total`; its sample carries it.
    exposed = {f.name + "_total" if f.type == "counter" else f.name for f in families}
    assert exposed == metrics.WORKER_METRIC_NAMES
    for name in metrics.METRIC_NAMES:
        assert name.startswith("lease_")
        assert name == name.lower()
        if re.search(r"_(duration|age)(_|$)", name):  # a time: base unit, in the name
            assert name.endswith("_seconds")
    for family in families:
        assert (family.type == "counter") == (family.name + "_total" in exposed)
