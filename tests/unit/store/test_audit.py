"""store/audit.py: what the soak, the benchmark and the recovery script read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from lease_parser.store import (
    DocumentState,
    Outcome,
    Store,
    final_entries,
    last_finished_at,
    pending_submissions,
    run_record,
)
from tests.store_helpers import fields_json


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'lease.db'}")


def test_a_run_reads_back_as_its_submissions_documents_and_final_entries(store: Store) -> None:
    assert last_finished_at(store) is None
    for n in range(3):
        store.register_submission(f"s{n}", f"k{n}.pdf", f"{n:064x}")
    committed = Outcome(state=DocumentState.COMMITTED, fields=fields_json())
    assert store.finish(f"{0:064x}", "s0", committed)
    store.finish(f"{1:064x}", "s1", Outcome(state=DocumentState.DEAD, reason="corrupt"))

    assert pending_submissions(store) == 1  # s2
    assert pending_submissions(store, ["s0", "s1"]) == 0
    assert last_finished_at(store) is not None
    assert final_entries(store, f"{0:064x}") == 1
    assert final_entries(store, f"{2:064x}") == 0

    record = run_record(store, ["s0", "s1", "s2", "missing"])
    assert record.submissions.keys() == {"s0", "s1", "s2"}
    assert sorted(record.documents) == [("committed", None), ("dead", "corrupt"), ("pending", None)]
    assert sorted(record.final_entries) == [(f"{0:064x}", "committed", 1), (f"{1:064x}", "dead", 1)]
