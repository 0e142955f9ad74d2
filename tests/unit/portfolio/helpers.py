"""Stored abstractions for portfolio tests, in the exact form a worker stores them."""

from __future__ import annotations

from typing import Any

from lease_parser.portfolio.terms import SourceDocument, Stored
from tests.store_helpers import fields_json

# A lease whose windows are known: 63 months from May 1, 2025; one five-year option whose
# notice is due 9 to 12 months before the expiration (July 31, 2030).
LEASE: dict[str, Any] = {
    "landlord": "Quarry Lane Partners LLC",
    "tenant": "Brightwater Labs, Inc.",
    "premises_address": "410 Foundry Street, Suite 300, Dayton, Ohio 45402",
    "rentable_sqft": "8000",
    "lease_date": "2025-03-03",
    "commencement_date": "2025-05-01",
    "expiration_date": "2030-07-31",
    "term_months": "63",
    "base_rent_monthly": "20000.00",
    "base_rent_annual": "240000.00",
    "rent_schedule": [
        {"start": 1, "end": 12, "monthly": "20000.00", "annual": "240000.00"},
        {"start": 13, "end": 24, "monthly": "20600.00", "annual": "247200.00"},
        {"start": 25, "end": 63, "monthly": "21218.00", "annual": "254616.00"},
    ],
    "security_deposit": "40000.00",
    "renewal_option_count": "1",
    "renewal_term_months": "60",
    "renewal_notice": {
        "least": {"count": 9, "unit": "months"},
        "most": {"count": 12, "unit": "months"},
    },
    "currency": "USD",
}


def source(
    doc_hash: str = "a" * 64,
    title: str = "lease",
    date: str | None = None,
    position: int = 0,
    key: str = "leases/brightwater.pdf",
) -> SourceDocument:
    return SourceDocument(doc_hash, key, title, date, "committed", position)


def stored(values: dict[str, Any], confidence: float = 0.95, **where: Any) -> Stored:
    fields = fields_json(values, confidence=confidence)
    return Stored(source(date=values.get("lease_date"), **where), fields)


def amendment(values: dict[str, Any], position: int, confidence: float = 0.95) -> Stored:
    return stored(
        values,
        confidence,
        doc_hash=f"{position:x}" * 64,
        title=f"Amendment {position}",
        position=position,
        key=f"leases/brightwater-amendment-{position}.pdf",
    )
