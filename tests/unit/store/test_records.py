"""``lease_parser.status`` / ``lease_parser.abstraction`` and the API's record, over a real
SQLite store under LEASE_DATA_DIR."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

import lease_parser
from lease_parser.errors import DocumentNotFound, InvalidHash
from lease_parser.model import Money
from lease_parser.store import DocumentState, ReviewQueue, Store, api_document
from tests.store_helpers import add_document, review_and_approve


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv("LEASE_DATA_DIR", str(tmp_path))
    lease_parser._default_store.cache_clear()
    store = Store(f"sqlite:///{tmp_path / 'lease.db'}")
    yield store
    lease_parser._default_store.cache_clear()


def test_status_and_abstraction_of_a_committed_document(store: Store) -> None:
    doc_hash = add_document(store, state=DocumentState.COMMITTED, reason=None)
    status = lease_parser.status(doc_hash.upper())
    assert (status.doc_hash, status.state, status.reason) == (doc_hash, "committed", None)
    abstraction = lease_parser.abstraction(doc_hash)
    assert abstraction is not None
    rent = abstraction.base_rent_monthly
    assert rent.value == Money(amount=Decimal("24062.50"))
    assert rent.confidence == 0.6
    assert rent.provenance is not None
    assert rent.provenance.page == 1


def test_a_document_in_review_has_a_status_but_no_abstraction_yet(store: Store) -> None:
    doc_hash = add_document(store)
    assert lease_parser.status(doc_hash).to_json() == {
        "doc_hash": doc_hash,
        "doc_key": store.document(doc_hash).doc_key,  # type: ignore[union-attr]
        "state": "review",
        "reason": "low_confidence",
        "detail": None,
    }
    assert lease_parser.abstraction(doc_hash) is None


def test_unknown_and_malformed_hashes_are_refused(store: Store) -> None:
    with pytest.raises(DocumentNotFound):
        lease_parser.status("e" * 64)
    with pytest.raises(InvalidHash, match="64 hexadecimal"):
        lease_parser.abstraction("abc")


def test_the_api_record_gives_each_fields_source(store: Store) -> None:
    doc_hash = add_document(store)
    waiting = store.document(doc_hash)
    assert waiting is not None
    assert {f["source"] for f in api_document(waiting)["fields"].values()} == {None}
    row = review_and_approve(ReviewQueue(store), doc_hash, "alice", {"tenant": "Bluefin LLC"})
    fields = api_document(row)["fields"]
    assert fields["tenant"]["source"] == "corrected"
    assert fields["base_rent_monthly"]["source"] == "confirmed"
    assert fields["landlord"]["source"] == "pipeline"
    assert fields["landlord"]["provenance"]["page"] == 1


def test_importing_the_package_imports_no_store_or_framework() -> None:
    code = (
        "import sys, lease_parser\n"
        "bad = [m for m in ('celery', 'sqlalchemy', 'redis', 'fastapi') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ)
    )
    assert done.returncode == 0, done.stderr
