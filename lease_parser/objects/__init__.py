"""Object storage: the uploaded documents and what is derived from them (``file://``, ``s3://``).

Callers import from this package; the backends and their error translation are in
``backends.py``.
"""

from lease_parser.objects.backends import (
    FetchedObject,
    FileObjectStore,
    ObjectStore,
    S3ObjectStore,
    derived_key,
    fetch,
    get_json,
    hash_object,
    open_object_store,
    put_json,
)

__all__ = [
    "FetchedObject",
    "FileObjectStore",
    "ObjectStore",
    "S3ObjectStore",
    "derived_key",
    "fetch",
    "get_json",
    "hash_object",
    "open_object_store",
    "put_json",
]
