"""Leases as the store holds them, with their current terms: what every portfolio output reads.

A lease's amendments are those filed after it in its own file (``documents.amendments``)
and those linked to it (``amendment_links``). A linked amendment is applied once it is
committed (a person has checked it: amendments are never committed unread); until then it
is listed as pending. Amendments in the lease's own file are applied with the lease: the
person who reviewed the lease reviewed the file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lease_parser.portfolio.terms import CurrentTerms, SourceDocument, Stored, current_terms
from lease_parser.store.amendment_links import LEASE_KINDS, linked_amendments
from lease_parser.store.database import DocumentRow, DocumentState, Store


@dataclass
class LeaseRecord:
    row: DocumentRow
    terms: CurrentTerms


def _date(fields: Mapping[str, Any]) -> str | None:
    value = (fields.get("lease_date") or {}).get("value")
    return str(value) if value else None


def source_of(row: DocumentRow, title: str | None = None, position: int = 0) -> SourceDocument:
    fields = row.fields or {}
    return SourceDocument(
        doc_hash=row.doc_hash,
        doc_key=row.doc_key,
        title=title or ("lease" if row.kind in LEASE_KINDS else str(row.kind or "document")),
        date=_date(fields),
        state=row.state,
        position=position,
    )


def _in_file(row: DocumentRow) -> list[Stored]:
    out = []
    for position, appended in enumerate(row.amendments or [], start=1):
        fields = appended.get("fields") or {}
        title = f"{appended.get('title') or 'amendment'} (in the same file)"
        source = SourceDocument(
            row.doc_hash, row.doc_key, title, _date(fields), row.state, position
        )
        out.append(Stored(source, fields))
    return out


def terms_of(row: DocumentRow, linked: Iterable[DocumentRow] = ()) -> CurrentTerms:
    """``row``'s current terms: its amendments in its file, then those linked to it."""
    applied = _in_file(row)
    pending = []
    offset = len(applied)
    for position, amendment in enumerate(linked, start=offset + 1):
        source = source_of(amendment, amendment.doc_key, position)
        if amendment.state == DocumentState.COMMITTED:
            applied.append(Stored(source, amendment.fields or {}))
        else:
            pending.append(source)
    return current_terms(Stored(source_of(row), row.fields or {}), applied, pending)


def lease_records(
    store: Store,
    states: Iterable[str] = (DocumentState.COMMITTED,),
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
) -> Iterator[LeaseRecord]:
    """Every lease (and sublease) in ``states`` with its current terms, oldest first."""
    links = linked_amendments(store)
    for row in store.documents(states=states, since=since, until=until):
        if row.kind in LEASE_KINDS and row.fields:
            yield LeaseRecord(row, terms_of(row, links.get(row.doc_hash, [])))


def lease_record(store: Store, row: DocumentRow) -> LeaseRecord:
    return LeaseRecord(row, terms_of(row, linked_amendments(store).get(row.doc_hash, [])))
