"""Webhook signatures and settings (lease_parser/webhooks.py): what a receiver verifies,
and a webhook URL without a secret refused at start-up naming the variable."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from lease_parser.errors import ConfigurationError
from lease_parser.settings import load_settings
from lease_parser.webhooks import sign, verify_signature

SECRET = "s3cret-0123456789abcdef"


def test_the_signature_is_the_hmac_of_timestamp_dot_body() -> None:
    body = b'{"doc_hash":"abc"}'
    header = sign(SECRET, 1_700_000_000, body)
    expected = hmac.new(SECRET.encode(), b"1700000000." + body, hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={expected}"
    assert verify_signature(SECRET, header, body, now=1_700_000_100)


@pytest.mark.parametrize(
    ("secret", "body", "now", "header"),
    [
        ("another", b"{}", 1_700_000_000, None),  # wrong secret
        (SECRET, b"{} ", 1_700_000_000, None),  # body changed
        (SECRET, b"{}", 1_700_000_301, None),  # too old: a replayed request
        (SECRET, b"{}", 1_700_000_000, "v1=00"),  # no timestamp
        (SECRET, b"{}", 1_700_000_000, "t=x,v1=00"),  # not a timestamp
    ],
)
def test_a_forged_changed_or_replayed_request_fails(
    secret: str, body: bytes, now: int, header: str | None
) -> None:
    header = header or sign(SECRET, 1_700_000_000, b"{}")
    assert not verify_signature(secret, header, body, now=now)


def test_a_webhook_url_needs_a_secret_and_an_http_scheme(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEASE_WEBHOOK_URL", "https://receiver.example/hook")
    with pytest.raises(ConfigurationError, match="LEASE_WEBHOOK_SECRET"):
        load_settings()
    monkeypatch.setenv("LEASE_WEBHOOK_SECRET", SECRET)
    assert load_settings().webhook_url == "https://receiver.example/hook"
    monkeypatch.setenv("LEASE_WEBHOOK_URL", "ftp://receiver.example/hook")
    with pytest.raises(ConfigurationError, match="LEASE_WEBHOOK_URL"):
        load_settings()
