"""The portfolio view's search, run by the database: filtered, sorted and paged.

Values are read from the stored abstraction JSON by the database itself (``json_extract``
on SQLite, ``->>`` on PostgreSQL, through SQLAlchemy's JSON index), so a page of 100 out of
many thousand leases never loads the rest. Sorts and text filters are whitelisted names
(``SORT_KEYS``, ``FILTER_FIELDS``); the web checks what a person typed against them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, Numeric, cast, func, or_, select
from sqlalchemy.sql.elements import ColumnElement as Column

from lease_parser.store.database import DocumentRow, Store


def _value(name: str) -> Column[Any]:
    """A field's value inside the stored JSON, as text, read by the database."""
    value: Column[Any] = DocumentRow.fields[name]["value"].as_string()
    return value


_SORTS: dict[str, Any] = {
    "document": DocumentRow.doc_key,
    "state": DocumentRow.state,
    "tenant": func.lower(_value("tenant")),
    "property": func.lower(_value("premises_address")),
    "rent": cast(_value("base_rent_monthly"), Numeric),
    "expiration": _value("expiration_date"),
    "changed": DocumentRow.state_changed_at,
}
SORT_KEYS = frozenset(_SORTS)
#: A text filter's name → the field it searches.
FILTER_FIELDS = {"tenant": "tenant", "landlord": "landlord", "property": "premises_address"}


@dataclass(frozen=True)
class DocumentSearch:
    """What to find, already checked: names from ``FILTER_FIELDS`` and ``SORT_KEYS``."""

    q: str = ""
    text: Mapping[str, str] = field(default_factory=dict)
    states: Sequence[str] = ()
    currency: str = ""
    #: Expiring between these ISO dates (both or neither).
    expires_from: str | None = None
    expires_until: str | None = None
    sort: str = "changed"
    descending: bool = True
    page: int = 1
    size: int = 100


@dataclass(frozen=True)
class DocumentPage:
    rows: list[DocumentRow]
    total: int
    #: The page shown: the one asked for, or the last there is.
    page: int


def _conditions(search: DocumentSearch) -> list[ColumnElement[bool]]:
    out: list[ColumnElement[bool]] = []
    if search.q:
        q = search.q.lower()
        words = [_value(n) for n in ("tenant", "landlord", "premises_address")]
        out.append(
            or_(
                *(func.lower(w).contains(q, autoescape=True) for w in words),
                func.lower(DocumentRow.doc_key).contains(q, autoescape=True),
                DocumentRow.doc_hash.startswith(q, autoescape=True),
            )
        )
    for name, text in search.text.items():
        column = func.lower(_value(FILTER_FIELDS[name]))
        out.append(column.contains(text.lower(), autoescape=True))
    if search.states:
        out.append(DocumentRow.state.in_(search.states))
    if search.currency:
        out.append(_value("currency") == search.currency)
    if search.expires_from is not None and search.expires_until is not None:
        expiration = _value("expiration_date")
        out += [expiration >= search.expires_from, expiration <= search.expires_until]
    return out


def search_documents(store: Store, search: DocumentSearch) -> DocumentPage:
    """One page of the documents that match, in the order asked (then newest first)."""
    where = _conditions(search)
    order = _SORTS[search.sort]
    ordering = [order.desc() if search.descending else order.asc(), DocumentRow.id.desc()]
    with store.session() as s:
        total = int(s.scalar(select(func.count()).select_from(DocumentRow).where(*where)) or 0)
        page = min(search.page, max(1, math.ceil(total / search.size)))
        rows = list(
            s.scalars(
                select(DocumentRow)
                .where(*where)
                .order_by(*ordering)
                .offset((page - 1) * search.size)
                .limit(search.size)
            )
        )
    return DocumentPage(rows, total, page)
