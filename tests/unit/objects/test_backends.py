from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from lease_parser.errors import (
    ConfigurationError,
    DocumentTooLarge,
    ObjectNotFound,
    StorageForbidden,
)
from lease_parser.objects import FileObjectStore, fetch, hash_object, open_object_store


@pytest.fixture
def store(tmp_path: Path) -> FileObjectStore:
    return FileObjectStore(tmp_path / "objects")


def test_put_fetch_round_trip_hashes_while_streaming(store: FileObjectStore) -> None:
    data = b"%PDF-1.4 " + bytes(range(256)) * 10_000
    store.put("a/b/lease.pdf", data)
    got = fetch(store, "a/b/lease.pdf", max_bytes=len(data))
    assert got.data == data
    assert got.sha256 == hashlib.sha256(data).hexdigest() == hash_object(store, "a/b/lease.pdf")
    assert store.list_keys("a/") == ["a/b/lease.pdf"]


def test_over_the_limit_is_refused_from_metadata(store: FileObjectStore) -> None:
    store.put("big.pdf", b"x" * 1000)
    with pytest.raises(DocumentTooLarge):
        fetch(store, "big.pdf", max_bytes=999)


@pytest.mark.parametrize("key", ["../escape.pdf", "a/../../escape.pdf", "/etc/passwd"])
def test_keys_that_escape_the_root_are_refused(store: FileObjectStore, key: str) -> None:
    with pytest.raises((StorageForbidden, ObjectNotFound)):
        store.put(key, b"x")


def test_a_symlink_out_of_the_root_is_refused(store: FileObjectStore, tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("s")
    (store.root / "link").symlink_to(tmp_path / "secret")
    with pytest.raises(StorageForbidden):
        store.size("link")


def test_missing_object_is_permanent_not_found(store: FileObjectStore) -> None:
    with pytest.raises(ObjectNotFound):
        fetch(store, "nope.pdf", 10)


@pytest.mark.parametrize("url", ["ftp://x/y", "file://host/dir", "s3://", "bucket/prefix"])
def test_bad_store_urls_are_configuration_errors(url: str) -> None:
    with pytest.raises(ConfigurationError):
        open_object_store(url)
