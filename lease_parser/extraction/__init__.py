"""Extraction: ``Document`` → raw fields. The registry lists one extractor per field family."""

from __future__ import annotations

from lease_parser.extraction.agreement_date import extract_lease_date
from lease_parser.extraction.base import Extractor, RawField
from lease_parser.extraction.financials import extract_financials
from lease_parser.extraction.parties import extract_parties
from lease_parser.extraction.premises import extract_premises
from lease_parser.extraction.term import extract_term
from lease_parser.parsing.base import Document

EXTRACTORS: tuple[Extractor, ...] = (
    extract_parties,
    extract_premises,
    extract_lease_date,
    extract_term,
    extract_financials,
)


def extract_fields(document: Document) -> dict[str, RawField]:
    """Run every extractor; the first value an extractor returns for a field wins."""
    fields: dict[str, RawField] = {}
    for extractor in EXTRACTORS:
        for raw in extractor(document):
            fields.setdefault(raw.name, raw)
    return fields


__all__ = ["RawField", "extract_fields"]
