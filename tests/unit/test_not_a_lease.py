"""An invoice is not a lease (issue 14, item 11): review `not_a_lease`, counted, rejected in
one step. The document is a real PDF, parsed and abstracted by the real core."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from lease_parser import metrics
from lease_parser.abstract import abstract_document
from lease_parser.errors import Reason, ReviewRefused
from lease_parser.model import DocumentKind, Field, LeaseAbstraction, Money, Route
from lease_parser.scoring.gate import route_after_normalization
from lease_parser.settings import load_settings
from lease_parser.store import DocumentState, ReviewQueue, Store
from tests.store_helpers import add_document

INVOICE_LINES = (
    "INVOICE",
    "Invoice No. 2025-0517        Invoice Date: May 1, 2025",
    "Due Date: May 10, 2025",
    "Bill To: Bluefin Analytics, Inc. (Tenant)",
    "Premises: 1200 Harbor Point Blvd, Suite 400, Baltimore, MD 21230",
    "Base Rent, May 2025: $24,062.50",
    "CAM estimate, May 2025: $1,925.00",
    "Subtotal: $25,987.50",
    "Amount Due: $25,987.50",
    "Remit to: Harbor Point Owner LLC, P.O. Box 100, Baltimore, MD 21203",
)


def invoice_pdf() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for line in INVOICE_LINES:
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def test_an_invoice_goes_to_review_as_not_a_lease_and_is_counted(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    result = abstract_document(invoice_pdf(), settings)
    assert (result.route, result.reason) == (Route.REVIEW, Reason.NOT_A_LEASE)
    assert result.abstraction is not None
    assert result.abstraction.kind is DocumentKind.NOT_A_LEASE
    assert [p.field for p in result.problems] == ["*"]

    labels = {"route": "review", "reason": "not_a_lease"}
    before = metrics.WORKER_REGISTRY.get_sample_value("lease_documents_total", labels) or 0.0
    metrics.record_outcome(result, won=True)
    after = metrics.WORKER_REGISTRY.get_sample_value("lease_documents_total", labels)
    assert after == before + 1


@pytest.mark.parametrize("confidence", [0.2, 0.99])
def test_the_gate_sends_it_to_review_whatever_its_confidence(confidence: float) -> None:
    sure: Field[Money] = Field(value=Money(amount=1), confidence=confidence)
    abstraction = LeaseAbstraction(
        kind=DocumentKind.NOT_A_LEASE,
        landlord=Field(value="A", confidence=confidence),
        tenant=Field(value="B", confidence=confidence),
        base_rent_monthly=sure,
    )
    decision = route_after_normalization(abstraction, [], gate=0.8)
    assert (decision.route, decision.reason) == (Route.REVIEW, Reason.NOT_A_LEASE)


def test_a_reviewer_rejects_it_in_one_step(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lease.db'}")
    doc_hash = add_document(store, reason=Reason.NOT_A_LEASE)
    queue = ReviewQueue(store)
    queue.claim(doc_hash, "alice")
    row = queue.reject(doc_hash, "alice")  # no reason to type: confirming the flag
    assert (row.state, row.reason, row.detail) == (
        DocumentState.DEAD,
        Reason.REJECTED_BY_REVIEWER,
        "not a lease",
    )
    other = add_document(store)  # low_confidence: a rejection still needs its reason
    queue.claim(other, "alice")
    with pytest.raises(ReviewRefused, match="needs a reason"):
        queue.reject(other, "alice")
