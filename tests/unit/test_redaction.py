"""Passwords in URLs never reach a terminal or a log line (issue 14, item 6)."""

from __future__ import annotations

import io
import logging

import pytest

from lease_parser.redaction import install_log_redaction, redact


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("redis://:s3cret@redis.internal:6379/0", "redis://:***@redis.internal:6379/0"),
        ("postgresql+psycopg2://bob:p@ss@db/leases", "postgresql+psycopg2://bob:***@db/leases"),
        (
            "LEASE_STORE_URL='postgresql://u:pw@h/db' failed",
            "LEASE_STORE_URL='postgresql://u:***@h/db' failed",
        ),
        ("redis://127.0.0.1:6379/0 is down", "redis://127.0.0.1:6379/0 is down"),
        ("s3://bucket/prefix and http://user@host", "s3://bucket/prefix and http://user@host"),
        ("a: redis://x:1@h, b: rediss://y:2@k", "a: redis://x:***@h, b: rediss://y:***@k"),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_log_records_are_redacted_whatever_prints_them() -> None:
    install_log_redaction()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("lease_parser.test_redaction")
    logger.addHandler(handler)
    try:
        logger.warning("cannot reach %s", "redis://:hunter2@broker:6379/0")
        try:
            raise ConnectionError("refused by postgresql://app:hunter2@db/leases")
        except ConnectionError:
            logger.exception("store down")
    finally:
        logger.removeHandler(handler)
    output = stream.getvalue()
    assert "hunter2" not in output
    assert "redis://:***@broker" in output
    assert "postgresql://app:***@db" in output
    assert "ConnectionError" in output  # the traceback is still there, only masked


def test_a_formatter_that_unpacks_the_arguments_still_gets_them() -> None:
    """uvicorn's access log formats (client, method, path, version, status) itself."""
    install_log_redaction()
    record = logging.getLogger("uvicorn.access").makeRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/v1/x?u=redis://:hunter2@h/0", "1.1", 200),
        None,
    )
    client, method, path, version, status = record.args  # type: ignore[misc]
    assert (client, method, version, status) == ("127.0.0.1:5000", "GET", "1.1", 200)
    assert path == "/v1/x?u=redis://:***@h/0"
    assert record.getMessage() == '127.0.0.1:5000 - "GET /v1/x?u=redis://:***@h/0 HTTP/1.1" 200'
