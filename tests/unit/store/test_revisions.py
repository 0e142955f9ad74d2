"""Correcting a committed lease and the QA sample, over a real (SQLite) store: the lease stays
committed once, every change is recorded, and calibration learns from it as from a review."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from lease_parser.errors import ReviewRefused
from lease_parser.scoring.calibration import reviewed_examples
from lease_parser.store import (
    DocumentRow,
    DocumentState,
    EventRow,
    ReviewQueue,
    Revisions,
    Store,
    entered_final_state,
    in_sample,
    sample_threshold,
)
from tests.store_helpers import add_document, fields_json


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'lease.db'}")


def with_evidence(values: dict[str, Any] | None = None) -> dict[str, Any]:
    fields = fields_json(values, confidence=0.97)
    for stored in fields.values():
        if stored["value"] is not None:
            stored["evidence"] = {"statements": 2.0}
    return fields


def calibration_documents(store: Store) -> list[dict[str, Any]]:
    """What `lease-parser calibrate` hands calibration.reviewed_examples."""
    return [
        {"doc_hash": row.doc_hash, "fields": row.fields, "corrections": row.corrections}
        for row in store.documents(states=[DocumentState.COMMITTED])
        if row.source == "review" and row.fields
    ]


def final_entries(store: Store, doc_hash: str) -> int:
    with store.session() as s:
        query = select(func.count()).select_from(EventRow)
        return int(s.scalar(query.where(EventRow.doc_hash == doc_hash, entered_final_state())) or 0)


def test_an_approved_lease_corrected_again_keeps_what_the_pipeline_read(store: Store) -> None:
    doc_hash = add_document(store, fields=with_evidence())
    queue = ReviewQueue(store)
    queue.claim(doc_hash, "alice")
    queue.correct(doc_hash, "alice", {"security_deposit": "50000.00"})
    queue.confirm(doc_hash, "alice", ["base_rent_monthly"])  # its doubtful field
    queue.approve(doc_hash, "alice")
    entries = final_entries(store, doc_hash)  # review, then committed
    revisions = Revisions(store)
    row = revisions.revise(doc_hash, "bob", {"security_deposit": "52000.00"}, note="per the rider")
    assert (row.state, row.source, row.reviewer) == ("committed", "review", "bob")
    assert row.corrections == {"security_deposit": {"from": "48125.00", "to": "52000.00"}}
    assert row.fields is not None
    assert row.fields["security_deposit"]["value"] == "52000.00"
    assert store.commit_events(doc_hash) == 1  # still committed once
    assert final_entries(store, doc_hash) == entries  # a correction is no new state
    [event] = [e for e in store.events(doc_hash) if e.reason == "revised"]
    assert (event.actor, event.detail) == (
        "bob",
        {
            "changes": {"security_deposit": {"from": "50000.00", "to": "52000.00"}},
            "note": "per the rider",
        },
    )
    assert store.decisions(doc_hash)[-1].reviewer == "bob"
    # Calibration sees the pipeline's 48125.00 as wrong, the rest as right.
    examples = {e.field: e.right for e in reviewed_examples(calibration_documents(store))}
    assert examples["security_deposit"] is False
    assert examples["tenant"] is True
    # Set back to what the pipeline read: a confirmation, and calibration learns it was right.
    row = revisions.revise(doc_hash, "carol", {"security_deposit": "48125.00"})
    assert row.corrections is None
    assert row.field_sources is not None
    assert row.field_sources["security_deposit"] == "confirmed"
    examples = {e.field: e.right for e in reviewed_examples(calibration_documents(store))}
    assert examples["security_deposit"] is True


def test_an_auto_committed_lease_corrected_feeds_calibration(store: Store) -> None:
    doc_hash = add_document(
        store, state=DocumentState.COMMITTED, reason=None, fields=with_evidence(), problems=[]
    )
    assert calibration_documents(store) == []
    Revisions(store).revise(
        doc_hash, "alice", {"term_months": "64", "expiration_date": "2029-08-31"}
    )
    [document] = calibration_documents(store)
    wrong = sorted(e.field for e in reviewed_examples([document]) if not e.right)
    assert wrong == ["expiration_date", "term_months"]


def test_a_correction_is_refused_when_stale_bad_or_not_of_a_committed_lease(store: Store) -> None:
    doc_hash = add_document(
        store, state=DocumentState.COMMITTED, reason=None, fields=with_evidence(), problems=[]
    )
    revisions = Revisions(store)
    row = store.document(doc_hash)
    assert row is not None
    seen = row.state_changed_at
    revisions.revise(doc_hash, "alice", {"tenant": "Bluefin LLC"}, seen=seen)
    with pytest.raises(ReviewRefused, match="changed since you opened it"):
        revisions.revise(doc_hash, "bob", {"tenant": "Bluefin Inc."}, seen=seen)
    with pytest.raises(ReviewRefused) as refused:
        revisions.revise(
            doc_hash, "bob", {"rent_schedule": '[{"start": 24, "end": 6, "monthly": "1"}]'}
        )
    assert any("Row 1, end" in p.problem for p in refused.value.problems)
    in_review = add_document(store)
    with pytest.raises(ReviewRefused, match="decide it in review"):
        revisions.revise(in_review, "bob", {"tenant": "x"})


def test_the_sample_is_a_share_of_hashes() -> None:
    assert sample_threshold(0) == "00000000"
    assert sample_threshold(0.5) == "80000000"
    assert in_sample("7fffffff" + "0" * 56, 0.5)
    assert not in_sample("80000000" + "0" * 56, 0.5)
    assert in_sample("f" * 64, 1.0)
    hashes = [f"{i * 0x01000000 + 0x123456:08x}" + "a" * 56 for i in range(256)]
    assert sum(in_sample(h, 0.25) for h in hashes) == 64


def test_the_qa_sample_waits_for_a_second_look_and_measures_precision(store: Store) -> None:
    auto = [
        add_document(
            store, state=DocumentState.COMMITTED, reason=None, fields=with_evidence(), problems=[]
        )
        for _ in range(3)
    ]
    reviewed = add_document(store, fields=with_evidence())
    queue = ReviewQueue(store)
    queue.claim(reviewed, "alice")
    queue.confirm(reviewed, "alice", ["base_rent_monthly"])
    queue.approve(reviewed, "alice")
    qa = Revisions(store, qa_share=1.0)
    assert {r.doc_hash for r in qa.qa_items()} == set(auto)  # auto-committed only
    assert Revisions(store, qa_share=0.0).qa_items() == []
    first, second, _ = auto
    qa.revise(first, "bob", {"tenant": "Bluefin LLC"})
    assert qa.qa_waiting(first)  # a correction is not the second look
    row = qa.qa_check(first, "bob")
    assert row.field_sources is not None
    assert row.field_sources["tenant"] == "corrected"
    assert row.field_sources["landlord"] == "confirmed"
    qa.qa_check(second, "carol")
    with pytest.raises(ReviewRefused, match="not waiting in the QA sample"):
        qa.qa_check(second, "carol")
    summary = qa.qa_summary()
    stated = sum(1 for f in fields_json().values() if f["value"] is not None)
    assert (summary.sampled, summary.waiting, summary.checked, summary.right) == (3, 1, 2, 1)
    assert (summary.values, summary.corrected) == (2 * stated, 1)
    assert summary.lease_precision == 0.5
    assert store.commit_events(first) == 1
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(DocumentRow)) == 4
    assert isinstance(row.reviewed_at, dt.datetime)
