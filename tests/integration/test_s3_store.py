"""The s3:// object store against moto running as a real HTTP server."""

from __future__ import annotations

import hashlib

import boto3
import pytest

from lease_parser.errors import DocumentTooLarge, ObjectNotFound, StorageUnavailable
from lease_parser.objects import fetch, hash_object, open_object_store
from tests.integration.conftest import MotoServer


def test_s3_round_trip_with_prefix(moto_server: MotoServer) -> None:
    boto3.client("s3", endpoint_url=moto_server.url).create_bucket(Bucket="leases")
    store = open_object_store("s3://leases/tenant-a", s3_endpoint_url=moto_server.url)
    data = b"%PDF-1.7 " + b"0123456789" * 300_000
    store.put("incoming/big.pdf", data)
    got = fetch(store, "incoming/big.pdf", max_bytes=len(data))
    assert got.data == data
    assert got.sha256 == hashlib.sha256(data).hexdigest() == hash_object(store, "incoming/big.pdf")
    assert store.list_keys("incoming/") == ["incoming/big.pdf"]
    raw = boto3.client("s3", endpoint_url=moto_server.url).list_objects_v2(Bucket="leases")
    assert [o["Key"] for o in raw["Contents"]] == ["tenant-a/incoming/big.pdf"]
    with pytest.raises(DocumentTooLarge):
        fetch(store, "incoming/big.pdf", max_bytes=1000)


def test_missing_key_is_permanent_and_a_dead_endpoint_is_transient(
    moto_server: MotoServer,
) -> None:
    boto3.client("s3", endpoint_url=moto_server.url).create_bucket(Bucket="leases")
    store = open_object_store("s3://leases", s3_endpoint_url=moto_server.url)
    with pytest.raises(ObjectNotFound):
        fetch(store, "missing.pdf", 100)
    moto_server.stop()
    with pytest.raises(StorageUnavailable):
        store.size("missing.pdf")
