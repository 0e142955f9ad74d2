"""Object storage: ``file://`` (the embedded default) and ``s3://`` (boto3, any S3-compatible).

Documents are read once: ``fetch`` streams the object, hashing SHA-256 as the chunks
arrive, and refuses it as soon as it passes the byte limit (the size is first checked
from metadata, before a single byte is downloaded). Library errors are translated here,
once: a missing key is permanent (``ObjectNotFound``), 5xx/throttling/connection errors
are transient (``StorageUnavailable``), access denied is permanent.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlparse

from lease_parser.errors import (
    ConfigurationError,
    DocumentTooLarge,
    ObjectNotFound,
    StorageForbidden,
    StorageUnavailable,
)

CHUNK = 1024 * 1024


@dataclass(frozen=True)
class FetchedObject:
    data: bytes
    sha256: str


class ObjectStore(Protocol):
    """What the pipeline needs from object storage."""

    url: str

    def size(self, key: str) -> int: ...
    def iter_chunks(self, key: str) -> Iterator[bytes]: ...
    def put(self, key: str, data: bytes) -> None: ...
    def exists(self, key: str) -> bool: ...
    def delete(self, key: str) -> None: ...
    def list_keys(self, prefix: str = "") -> list[str]: ...


def fetch(store: ObjectStore, key: str, max_bytes: int) -> FetchedObject:
    """Download ``key`` once, hashing as it streams; refuse it past ``max_bytes``."""
    size = store.size(key)
    if size > max_bytes:
        raise DocumentTooLarge(f"{size} bytes, limit {max_bytes}", key=key, size=size)
    digest = hashlib.sha256()
    buf = bytearray()
    for chunk in store.iter_chunks(key):
        digest.update(chunk)
        buf += chunk
        if len(buf) > max_bytes:
            raise DocumentTooLarge(f"over {max_bytes} bytes while downloading", key=key)
    return FetchedObject(bytes(buf), digest.hexdigest())


def hash_object(store: ObjectStore, key: str) -> str:
    """SHA-256 of an object, streamed without keeping it in memory."""
    digest = hashlib.sha256()
    for chunk in store.iter_chunks(key):
        digest.update(chunk)
    return digest.hexdigest()


def put_json(store: ObjectStore, key: str, obj: Any) -> None:
    store.put(key, json.dumps(obj, separators=(",", ":")).encode())


def get_json(store: ObjectStore, key: str) -> Any:
    return json.loads(b"".join(store.iter_chunks(key)))


def derived_key(doc_hash: str, name: str) -> str:
    """Where intermediates of a document live: content-addressed, never by file name."""
    return f"derived/{doc_hash[:2]}/{doc_hash}/{name}"


class FileObjectStore:
    """A directory on disk. Keys are relative paths; a key that escapes the root is refused."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.url = self.root.as_uri()
        self.root.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        if not key or key.startswith("/") or "\x00" in key:
            raise ObjectNotFound("invalid object key", key=key)
        path = (self.root / key).resolve()
        if not path.is_relative_to(self.root):
            raise StorageForbidden("the key escapes the store's root directory", key=key)
        return path

    @contextmanager
    def _errors(self, key: str) -> Iterator[None]:
        try:
            yield
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
            raise ObjectNotFound("no such object", key=key) from exc
        except PermissionError as exc:
            raise StorageForbidden("permission denied", key=key) from exc
        except OSError as exc:
            raise StorageUnavailable(f"file store error: {exc}", key=key) from exc

    def size(self, key: str) -> int:
        with self._errors(key):
            path = self._path(key)
            if not path.is_file():
                raise FileNotFoundError(key)
            return path.stat().st_size

    def iter_chunks(self, key: str) -> Iterator[bytes]:
        with self._errors(key), self._path(key).open("rb") as fh:
            while chunk := fh.read(CHUNK):
                yield chunk

    def put(self, key: str, data: bytes) -> None:
        with self._errors(key):
            path = self._path(key)
            path.parent.mkdir(parents=True, exist_ok=True)
            # Write-then-rename: a reader never sees half an object.
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".put-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def delete(self, key: str) -> None:
        with self._errors(key):
            self._path(key).unlink(missing_ok=True)

    def list_keys(self, prefix: str = "") -> list[str]:
        keys = []
        for path in sorted(self.root.rglob("*")):
            if path.is_file() and not path.name.startswith(".put-"):
                key = path.relative_to(self.root).as_posix()
                if key.startswith(prefix):
                    keys.append(key)
        return keys


_NOT_FOUND = {"NoSuchKey", "404", "NotFound", "NoSuchBucket"}
_FORBIDDEN = {"AccessDenied", "403", "Forbidden", "InvalidAccessKeyId", "SignatureDoesNotMatch"}


class S3ObjectStore:
    """An S3 bucket (and optional prefix) via boto3; ``endpoint_url`` for MinIO/moto/etc."""

    def __init__(self, bucket: str, prefix: str = "", endpoint_url: str | None = None) -> None:
        import boto3
        from botocore.config import Config

        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.url = f"s3://{bucket}/{self.prefix}" if self.prefix else f"s3://{bucket}"
        # Few SDK-level retries and short timeouts: our retry policy (backoff with jitter,
        # then dead-letter) owns retrying, and a hung socket must not hold a worker.
        config = Config(
            retries={"max_attempts": 2, "mode": "standard"},
            connect_timeout=5,
            read_timeout=30,
        )
        self._client = boto3.client("s3", endpoint_url=endpoint_url, config=config)

    def _key(self, key: str) -> str:
        return f"{self.prefix}/{key}" if self.prefix else key

    @contextmanager
    def _errors(self, key: str) -> Iterator[None]:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            yield
        except ClientError as exc:
            err = exc.response.get("Error", {})
            code = str(err.get("Code", ""))
            status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
            if code in _NOT_FOUND or status == 404:
                raise ObjectNotFound(f"no such object ({code})", key=key) from exc
            if code in _FORBIDDEN or status == 403:
                raise StorageForbidden(f"access denied ({code})", key=key) from exc
            # 5xx, SlowDown, Throttling, RequestTimeout, and anything unknown: retry.
            raise StorageUnavailable(f"S3 error {code} (HTTP {status})", key=key) from exc
        except BotoCoreError as exc:  # connection refused/closed, read timeouts
            raise StorageUnavailable(f"S3 unreachable: {exc}", key=key) from exc

    def size(self, key: str) -> int:
        with self._errors(key):
            head = self._client.head_object(Bucket=self.bucket, Key=self._key(key))
            return int(head["ContentLength"])

    def iter_chunks(self, key: str) -> Iterator[bytes]:
        with self._errors(key):
            body = self._client.get_object(Bucket=self.bucket, Key=self._key(key))["Body"]
            try:
                yield from body.iter_chunks(CHUNK)
            finally:
                body.close()

    def put(self, key: str, data: bytes) -> None:
        with self._errors(key):
            self._client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data)

    def exists(self, key: str) -> bool:
        try:
            self.size(key)
        except ObjectNotFound:
            return False
        return True

    def delete(self, key: str) -> None:
        with self._errors(key):
            self._client.delete_object(Bucket=self.bucket, Key=self._key(key))

    def list_keys(self, prefix: str = "") -> list[str]:
        keys: list[str] = []
        strip = len(self.prefix) + 1 if self.prefix else 0
        with self._errors(prefix):
            paginator = self._client.get_paginator("list_objects_v2")
            for page in paginator.paginate(Bucket=self.bucket, Prefix=self._key(prefix)):
                keys.extend(obj["Key"][strip:] for obj in page.get("Contents", []))
        return keys


def open_object_store(url: str, s3_endpoint_url: str | None = None) -> ObjectStore:
    """``file:///abs/dir`` or ``s3://bucket/prefix``; anything else is a configuration error."""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        if parsed.netloc not in ("", "localhost"):
            raise ConfigurationError(f"LEASE_OBJECT_STORE={url}: use file:///absolute/path")
        return FileObjectStore(Path(unquote(parsed.path)))
    if parsed.scheme == "s3":
        if not parsed.netloc:
            raise ConfigurationError(f"LEASE_OBJECT_STORE={url}: use s3://bucket[/prefix]")
        return S3ObjectStore(parsed.netloc, parsed.path, endpoint_url=s3_endpoint_url)
    raise ConfigurationError(
        f"LEASE_OBJECT_STORE={url!r} is not supported: use file:///abs/dir or s3://bucket/prefix"
    )
