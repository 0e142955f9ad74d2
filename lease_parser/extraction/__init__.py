"""Extraction: ``Document`` → raw fields with evidence. The registry lists one extractor per
field family; relations between fields, fields stated but not read, and the evidence whether
an unread field is stated at all are found after all of them ran (they need every field).

Each extractor proposes candidates for its fields; with a ``ranker`` (the confidence model's
values model, lease_parser.scoring.confidence) the learned ranker chooses among them
(extraction/ranking.py), else the extractors' own order of places does."""

from __future__ import annotations

from lease_parser.extraction.agreement_date import extract_lease_date
from lease_parser.extraction.amendment import extract_amendment_references
from lease_parser.extraction.base import Extractor, RawField
from lease_parser.extraction.concessions import extract_concessions
from lease_parser.extraction.covenants import extract_covenants
from lease_parser.extraction.critical import drop_without_option, extract_critical_terms
from lease_parser.extraction.evidence import KIND_FEATURES
from lease_parser.extraction.financials import extract_financials
from lease_parser.extraction.flat import flat_text
from lease_parser.extraction.kind import classify_flat
from lease_parser.extraction.notice_addresses import extract_notice_addresses
from lease_parser.extraction.parties import extract_parties
from lease_parser.extraction.premises import extract_premises
from lease_parser.extraction.ranking import Ranker, ranking_with
from lease_parser.extraction.relations import check_relations
from lease_parser.extraction.schedule import start_at_commencement
from lease_parser.extraction.sections import primary_span
from lease_parser.extraction.stated import stated_but_not_read
from lease_parser.extraction.term import extract_term
from lease_parser.extraction.unread import unread_fields
from lease_parser.model import FIELD_NAMES
from lease_parser.parsing.base import Document

EXTRACTORS: tuple[Extractor, ...] = (
    extract_parties,
    extract_premises,
    extract_lease_date,
    extract_term,
    extract_financials,
    extract_critical_terms,
    extract_amendment_references,
    extract_concessions,
    extract_covenants,
    extract_notice_addresses,
)


def extract_fields(document: Document, ranker: Ranker | None = None) -> dict[str, RawField]:
    """Run every extractor (the first value an extractor returns for a field wins), check
    the relations between the values, add the fields stated but not read, and give every
    field left empty the evidence whether the lease states it."""
    fields: dict[str, RawField] = {}
    with ranking_with(ranker):
        for extractor in EXTRACTORS:
            for raw in extractor(document):
                fields.setdefault(raw.name, raw)
    if not document.pages:
        return fields
    drop_without_option(fields)
    start_at_commencement(fields)
    check_relations(fields, document)
    flat = flat_text(document)
    span = primary_span(document)
    for raw in stated_but_not_read(flat, span, fields):
        fields[raw.name] = raw
    for raw in unread_fields(flat, span, fields, FIELD_NAMES):
        fields[raw.name] = raw
    kind = f"kind_{classify_flat(flat).value}"
    for raw in fields.values():
        for evidence in (raw.evidence, *(a.evidence for a in raw.alternatives)):
            for feature in KIND_FEATURES:
                evidence[feature] = 1.0 if feature == kind else 0.0
    return fields


__all__ = ["RawField", "extract_fields"]
