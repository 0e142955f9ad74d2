"""outcomes.py: one table decides what an error means, for the pipeline and in-process alike."""

from __future__ import annotations

import pytest

from lease_parser import errors
from lease_parser.errors import (
    BrokerFullError,
    ConfigurationError,
    CorruptDocument,
    EncryptedDocument,
    LeaseParserError,
    Reason,
    StorageUnavailable,
)
from lease_parser.model import Route
from lease_parser.outcomes import Action, route_for_error
from lease_parser.pipeline.retry import classify
from lease_parser.settings import RetryPolicy
from tests.unit.pipeline.test_retry import ERROR_CLASSES, error_of


@pytest.mark.parametrize(
    ("error", "route", "reason"),
    [
        (EncryptedDocument("needs a password"), Route.REVIEW, Reason.NEEDS_CREDENTIAL),
        (CorruptDocument("broken xref"), Route.DEAD, Reason.CORRUPT),
        (StorageUnavailable("503"), Route.DEAD, Reason.RETRIES_EXHAUSTED),
        (ConfigurationError("LEASE_OCR_LANG=xx"), Route.DEAD, Reason.CONFIGURATION),
        (BrokerFullError("maxmemory"), Route.DEAD, Reason.RETRIES_EXHAUSTED),
    ],
    ids=["needs_credential", "permanent", "transient", "configuration", "broker_full"],
)
def test_route_for_error(error: LeaseParserError, route: Route, reason: Reason) -> None:
    assert route_for_error(error) == (route, reason)


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_in_process_routes_end_where_the_pipelines_last_attempt_ends(
    cls: type[LeaseParserError],
) -> None:
    """`abstract` cannot retry: it must end exactly where the pipeline ends after the last retry."""
    policy = RetryPolicy()
    last = classify(error_of(cls), policy.max_retries, policy)
    route, reason = route_for_error(error_of(cls))
    expected_route = Route.REVIEW if last.action is Action.REVIEW else Route.DEAD
    assert (route, reason) == (expected_route, last.reason)


def test_configuration_and_a_full_broker_have_reasons_of_their_own() -> None:
    """Their dead letters say what happened, not `internal_error`."""
    assert ConfigurationError("x").reason is Reason.CONFIGURATION
    assert BrokerFullError("x").reason is Reason.BROKER_FULL
    abstract_roots = {errors.LeaseParserError, errors.PermanentError}
    reasons = {cls.reason for cls in ERROR_CLASSES if cls not in abstract_roots}
    assert Reason.INTERNAL_ERROR not in reasons
