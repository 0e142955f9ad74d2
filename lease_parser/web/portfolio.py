"""The portfolio view: every document with its state, tenant, property, rent and expiration,
searched, filtered, sorted and paged by the database (store/portfolio.py); and one lease's
history.

Filters and sorting are whitelisted names; a filter a person typed wrongly is refused in
words next to it, and the others still apply.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from lease_parser.fields import LABELS
from lease_parser.portfolio.dates import critical_dates
from lease_parser.schedule_checks import add_months
from lease_parser.store import (
    LEASE_KINDS,
    SORT_KEYS,
    DocumentRow,
    DocumentSearch,
    DocumentState,
    Store,
    as_utc,
    find_document,
    lease_record,
    link_of,
    search_documents,
)
from lease_parser.web.auth import Reviewer
from lease_parser.web.context import context
from lease_parser.web.item_page import full_hash
from lease_parser.web.item_view import display_value
from lease_parser.web.pages import page

router = APIRouter(include_in_schema=False)

PAGE_SIZES = (50, 100, 200, 500)
DEFAULT_PAGE_SIZE = 100
STATES = tuple(s.value for s in DocumentState)
TEXT_FILTERS = {"tenant": "Tenant", "landlord": "Landlord", "property": "Property"}


@dataclass
class PortfolioQuery:
    """What a person asked the portfolio view for, checked; ``errors`` say what was not
    understood (by filter name), in words."""

    q: str = ""
    text: dict[str, str] = field(default_factory=dict)  # tenant, landlord, property
    states: list[str] = field(default_factory=list)
    expiring: int | None = None  # months from today
    currency: str = ""
    sort: str = "changed"
    descending: bool = True
    page: int = 1
    size: int = DEFAULT_PAGE_SIZE
    errors: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, params: Any) -> PortfolioQuery:
        query = cls(q=params.get("q", "").strip())
        query.text = {
            k: params.get(k, "").strip() for k in TEXT_FILTERS if params.get(k, "").strip()
        }
        query.states = [s for s in params.getlist("state") if s in STATES]
        query.currency = params.get("currency", "").strip().upper()
        if query.currency and not (len(query.currency) == 3 and query.currency.isalpha()):
            query.errors["currency"] = "use a three-letter code, like USD or GBP"
            query.currency = ""
        expiring = params.get("expiring", "").strip()
        if expiring:
            if expiring.isdigit() and 0 < int(expiring) <= 1200:
                query.expiring = int(expiring)
            else:
                query.errors["expiring"] = "use a whole number of months, like 12"
        sort = params.get("sort", "changed")
        query.sort = sort if sort in SORT_KEYS else "changed"
        query.descending = params.get("dir", "desc" if query.sort == "changed" else "asc") == "desc"
        query.page = _positive(params.get("page"), 1)
        size = _positive(params.get("per"), DEFAULT_PAGE_SIZE)
        query.size = size if size in PAGE_SIZES else DEFAULT_PAGE_SIZE
        return query

    def search(self, today: dt.date) -> DocumentSearch:
        """The store's search for this query; ``expiring`` counts months from ``today``."""
        expires = (
            (today.isoformat(), add_months(today, self.expiring).isoformat())
            if self.expiring is not None
            else (None, None)
        )
        return DocumentSearch(
            q=self.q,
            text=self.text,
            states=self.states,
            currency=self.currency,
            expires_from=expires[0],
            expires_until=expires[1],
            sort=self.sort,
            descending=self.descending,
            page=self.page,
            size=self.size,
        )

    def link(self, **changes: Any) -> str:
        """This query's address with ``changes`` (a page, a sort)."""
        params: list[tuple[str, str]] = []
        values: dict[str, Any] = {
            "q": self.q,
            **self.text,
            "currency": self.currency,
            "expiring": self.expiring or "",
            "sort": self.sort,
            "dir": "desc" if self.descending else "asc",
            "per": self.size if self.size != DEFAULT_PAGE_SIZE else "",
            "page": self.page if self.page != 1 else "",
            **changes,
        }
        params += [(k, str(v)) for k, v in values.items() if v not in ("", None)]
        params += [("state", s) for s in self.states]
        return "/portfolio" + ("?" + urlencode(params) if params else "")

    def sort_link(self, column: str) -> str:
        same = column == self.sort
        return self.link(
            sort=column,
            dir="asc" if same and self.descending else ("desc" if same else "asc"),
            page="",
        )


def _positive(text: str | None, default: int) -> int:
    return int(text) if text and text.isdigit() and int(text) > 0 else default


@dataclass(frozen=True)
class PortfolioPage:
    rows: list[DocumentRow]
    total: int
    query: PortfolioQuery

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.query.size))

    @property
    def first(self) -> int:
        return 0 if not self.total else (self.query.page - 1) * self.query.size + 1

    @property
    def last(self) -> int:
        return min(self.total, self.query.page * self.query.size)


def search(store: Store, query: PortfolioQuery, today: dt.date) -> PortfolioPage:
    """One page of the documents that match, in the order asked (then newest first)."""
    found = search_documents(store, query.search(today))
    query.page = found.page
    return PortfolioPage(found.rows, found.total, query)


@router.get("/portfolio")
def portfolio_page(request: Request, reviewer: Reviewer) -> HTMLResponse:
    query = PortfolioQuery.parse(request.query_params)
    result = search(context(request).store, query, dt.date.today())
    return page(
        request,
        "portfolio.html",
        result=result,
        query=query,
        states=STATES,
        text_filters=TEXT_FILTERS,
        value=lambda row, name: ((row.fields or {}).get(name) or {}).get("value"),
    )


# -- one lease's history ------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryEntry:
    """One line of the audit trail, in words."""

    at: dt.datetime
    actor: str | None
    what: str
    details: list[str]


def _event_words(event: Any) -> HistoryEntry:
    detail = event.detail or {}
    reason = event.reason or ""
    what = {
        "submitted": "submitted",
        "requeued": "sent through the pipeline again",
        "claimed": "claimed for review",
        "released": "released back to the queue",
        "approved": "approved and committed",
        "revised": "corrected after the commit",
        "qa_checked": "checked in the QA sample",
        "rejected_by_reviewer": "rejected",
        "discarded": "dead letter discarded",
    }.get(reason, f"{event.state}" + (f" ({reason.replace('_', ' ')})" if reason else ""))
    details = [
        f"{LABELS.get(name, name)}: {_shown(change.get('from'))} → {_shown(change.get('to'))}"
        for key in ("corrections", "changes")
        for name, change in (detail.get(key) or {}).items()
    ]
    if detail.get("committed_as"):
        details.append(f"committed as: {detail['committed_as']}")
    for key in ("note", "reason"):
        if detail.get(key):
            details.append(f"“{detail[key]}”")
    if reason == "qa_checked":
        corrected = detail.get("corrected") or []
        details.append(
            f"{len(corrected)} of {detail.get('values', 0)} value(s) had to be corrected"
        )
    return HistoryEntry(as_utc(event.at), event.actor, what, details)


def _shown(value: Any) -> str:
    if value is None:
        return "not stated"
    if isinstance(value, list):
        return f"{len(value)} period(s)"
    return str(value)


@router.get("/items/{doc_hash}/history")
def history_page(request: Request, doc_hash: str, reviewer: Reviewer) -> HTMLResponse:
    ctx = context(request)
    store = ctx.store
    row = find_document(store, full_hash(ctx, doc_hash))
    terms, dates, link = None, [], None
    if row.kind in LEASE_KINDS and row.fields:
        terms = lease_record(store, row).terms
        dates = critical_dates(terms)
    elif row.kind == "amendment":
        link = link_of(store, row.doc_hash)
    decisions: dict[dt.datetime, list[Any]] = {}
    for decision in store.decisions(row.doc_hash):
        decisions.setdefault(as_utc(decision.review_since), []).append(decision)
    events = store.events(row.doc_hash)
    revised_at = {as_utc(e.at) for e in events if e.reason == "revised"}
    currency = str(((row.fields or {}).get("currency") or {}).get("value") or "USD")
    return page(
        request,
        "history.html",
        row=row,
        versions=store.versions(row.doc_key),
        terms=terms,
        dates=dates,
        link=link,
        linked_lease=store.document(link.lease_hash) if link and link.lease_hash else None,
        decisions=decisions,
        revised_at=revised_at,
        events=[_event_words(e) for e in events],
        labels=LABELS,
        shown=lambda name, value: display_value(name, value, currency),
        gate=ctx.settings.confidence_gate,
    )
