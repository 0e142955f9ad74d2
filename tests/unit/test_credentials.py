"""Passwords at rest (issue 14, item 4): encrypted with a key from settings, never plain."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from lease_parser.credentials import (
    credential_key,
    forget_password,
    load_password,
    store_password,
)
from lease_parser.errors import ConfigurationError
from lease_parser.objects import FileObjectStore, put_json
from lease_parser.settings import load_settings

DOC = "ab" * 32


def test_embedded_defaults_generate_a_private_key_and_encrypt(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    objects = FileObjectStore(tmp_path / "objects")
    store_password(objects, settings, DOC, "s3cret-lease")
    raw = (tmp_path / "objects" / credential_key(DOC)).read_bytes()
    assert b"s3cret-lease" not in raw
    assert stat.S_IMODE(os.stat(tmp_path / "credential.key").st_mode) == 0o600
    assert load_password(objects, settings, DOC) == "s3cret-lease"
    forget_password(objects, DOC)
    assert load_password(objects, settings, DOC) is None


def test_an_object_store_of_your_own_requires_the_key(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, object_store=(tmp_path / "shared").as_uri())
    objects = FileObjectStore(tmp_path / "shared")
    with pytest.raises(ConfigurationError, match="LEASE_CREDENTIAL_KEY"):
        store_password(objects, settings, DOC, "pw")
    assert not objects.exists(credential_key(DOC))
    assert not (tmp_path / "credential.key").exists()


def test_keys_rotate_new_first(tmp_path: Path) -> None:
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    objects = FileObjectStore(tmp_path / "objects")
    store_password(objects, load_settings(data_dir=tmp_path, credential_key=old), DOC, "pw")
    rotated = load_settings(data_dir=tmp_path, credential_key=f"{new},{old}")
    assert load_password(objects, rotated, DOC) == "pw"
    only_new = load_settings(data_dir=tmp_path, credential_key=new)
    with pytest.raises(ConfigurationError, match="not among the configured keys"):
        load_password(objects, only_new, DOC)


def test_a_plain_text_credential_is_refused(tmp_path: Path) -> None:
    objects = FileObjectStore(tmp_path / "objects")
    put_json(objects, credential_key(DOC), {"password": "plain"})
    with pytest.raises(ConfigurationError, match="unlock again"):
        load_password(objects, load_settings(data_dir=tmp_path), DOC)


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("LEASE_BROKER_URL", "notaurl"),
        ("LEASE_RESULT_BACKEND", "amqp://guest@rabbit//"),
        ("LEASE_STORE_URL", "lease.db"),
        ("LEASE_OBJECT_STORE", "/srv/objects"),
        ("LEASE_CREDENTIAL_KEY", "not-a-fernet-key"),
    ],
)
def test_a_bad_url_or_key_fails_at_start_up_naming_the_variable(
    variable: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError, match=variable):
        load_settings()
