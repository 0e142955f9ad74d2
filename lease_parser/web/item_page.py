"""One item's page: the document beside its fields, the reviewer's decisions, and for a
finished document its decision record; a refusal shown next to the field it is about."""

from __future__ import annotations

import math
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from lease_parser.errors import ItemNotFound, LeaseParserError, NotClaimed, ReviewRefused
from lease_parser.fields import LABELS
from lease_parser.hashes import resolve_prefix
from lease_parser.model import FIELD_NAMES
from lease_parser.schedule_checks import COLUMN_WORDS, CellProblem
from lease_parser.store import COMMITTABLE_AS, DocumentState, ReviewItem, as_utc, utcnow
from lease_parser.viewer import Highlight, ImageView, Span, TextView
from lease_parser.web.context import WebContext, context
from lease_parser.web.forms import in_words
from lease_parser.web.item_view import (
    CELLS,
    ESCALATION_KINDS,
    STEP_COLUMNS,
    DocumentPane,
    all_spans,
    cited_spans,
    display_value,
    document_problems,
    field_rows,
    next_focus,
)
from lease_parser.web.kept import Kept
from lease_parser.web.pages import flash, page
from lease_parser.web.record_view import DecisionRecord, apply_record, decision_record
from lease_parser.web.rivals import Rival, rivals_of


def full_hash(ctx: WebContext, text: str) -> str:
    """The hash of the document ``text`` names: the full 64 digits, or a unique prefix of
    8+ (the queue shows 12)."""
    return resolve_prefix(text, ctx.store.hashes_starting_with)


def item_for(ctx: WebContext, doc_hash: str) -> ReviewItem:
    return ctx.queue.item(full_hash(ctx, doc_hash))


Pane = tuple[DocumentPane, dict[Span, Highlight], dict[str, list[Rival]]]


def _pane(ctx: WebContext, item: ReviewItem) -> Pane:
    """The document beside the fields, where each citation is on it, and where each rival
    value the lease also states is."""
    if item.reason == "needs_credential":
        note = "This document is password-protected: it can be shown once it is unlocked."
        return DocumentPane("none", note=note), {}, {}
    try:
        opened = ctx.document(item.doc_hash, item.doc_key)
    except LeaseParserError as exc:
        return DocumentPane("none", note=f"The document cannot be shown: {exc.message}"), {}, {}
    view = opened.view
    rivals = opened.once(("rivals", _doubts_key(item)), lambda: _rivals(item, view.page_texts()))
    found = [r.span for found in rivals.values() for r in found if r.span is not None]
    spans = tuple(dict.fromkeys([*all_spans(item), *found]))
    if isinstance(view, TextView):
        pane = opened.once(
            ("text", spans), lambda: DocumentPane("text", text_pages=view.text_pages(spans))
        )
        return pane, {}, rivals
    assert isinstance(view, ImageView)
    pages = opened.once("pages", view.pages)
    boxes = opened.once(("boxes", spans), lambda: view.highlights(spans))
    return DocumentPane("images", pages=pages), dict(zip(spans, boxes, strict=True)), rivals


def _text_pane(view: TextView, spans: tuple[Span, ...]) -> DocumentPane:
    return DocumentPane("text", text_pages=view.text_pages(spans))


def _doubts_key(item: ReviewItem) -> tuple[tuple[str, str], ...]:
    return tuple(
        (name, str((item.fields.get(name) or {}).get("doubts", {}).get("rival_value")))
        for name in FIELD_NAMES
        if (item.fields.get(name) or {}).get("doubts", {}).get("rival_value")
    )


def _rivals(item: ReviewItem, texts: list[str]) -> dict[str, list[Rival]]:
    out = {}
    for name in FIELD_NAMES:
        stored = item.fields.get(name) or {}
        if (stored.get("doubts") or {}).get("rival_value"):
            out[name] = rivals_of(stored, texts, cited_spans(stored))
    return out


def render_item(
    request: Request,
    reviewer: str,
    item: ReviewItem,
    status: int = 200,
    errors: dict[str, list[str]] | None = None,
    entered: dict[str, dict[str, Any]] | None = None,
    focus: str | None = None,
    kept: Kept | None = None,
    **values: Any,
) -> HTMLResponse:
    ctx = context(request)
    pane, highlights, rivals = _pane(ctx, item)
    if values.get("fragment"):
        pane = DocumentPane("none")
    rows = field_rows(item, highlights)
    for row in rows:
        row.rivals = [
            {
                "value": display_value(row.name, r.value, row.currency) if r.value else r.value,
                "page": r.span.page if r.span else None,
                "highlights": [highlights[r.span].to_json()] if r.span in highlights else [],
                "span": [r.span.page, r.span.start, r.span.end] if r.span else [],
            }
            for r in rivals.get(row.name, [])
        ]
    record = record_for(ctx, item)
    if record is not None:
        apply_record(rows, record)
    committed = item.state == DocumentState.COMMITTED
    if committed:
        stored = ctx.store.document(item.doc_hash)
        assert stored is not None
        values.setdefault("seen", as_utc(stored.state_changed_at).isoformat())
        values.setdefault("qa_waiting", ctx.revisions.qa_waiting(item.doc_hash))
        values.setdefault("qa_share", ctx.revisions.qa_share)
    values["reopen"] = committed and bool(values.get("reopen"))
    for row in rows:
        row.errors = (errors or {}).get(row.name, [])
        row.entered = (entered or {}).get(row.name)
        row.bad_cells = frozenset((errors or {}).get(CELLS, [])) if row.errors else frozenset()
    remaining = None
    if item.claim_expires_at is not None:
        # Rounded up: the page says "expired" only once the server agrees.
        remaining = max(0, math.ceil((item.claim_expires_at - utcnow()).total_seconds()))
    return page(
        request,
        "item.html",
        status,
        item=item,
        rows=rows,
        pane=pane,
        mine=item.held_by(reviewer),
        lapsed_mine=item.lapsed_claim_by == reviewer,
        seconds_left=remaining,
        focus=focus if focus in (*FIELD_NAMES, "approve") else next_focus(rows, None),
        step_columns=STEP_COLUMNS,
        column_words=COLUMN_WORDS,
        escalation_kinds=ESCALATION_KINDS,
        document_errors=(errors or {}).get("*", []),
        document_problems=document_problems(item),
        record=record,
        kept=kept,
        committable_as=COMMITTABLE_AS,
        stated=[r for r in rows if r.value is not None],
        **values,
    )


def record_for(ctx: WebContext, item: ReviewItem) -> DecisionRecord | None:
    """A document out of review is shown as its decision record."""
    if item.state == "review":
        return None
    row = ctx.store.document(item.doc_hash)
    assert row is not None
    return decision_record(row, ctx.store.decisions(row.doc_hash), ctx.store.events(row.doc_hash))


def wants_fragment(request: Request) -> bool:
    """The page's script sent the decision and swaps in the answer (header and fields; the
    document pane is left out, the script keeps the one it has)."""
    return request.headers.get("x-fragment") == "1"


def refused_page(
    request: Request,
    reviewer: str,
    doc_hash: str,
    exc: ReviewRefused,
    status: int,
    entered: dict[str, dict[str, Any]],
    field: str | None,
    **values: Any,
) -> HTMLResponse:
    """The item again, with the refusal next to the field it is about and what was typed."""
    if isinstance(exc, ItemNotFound):
        raise exc
    errors = refusal_errors(exc, field)
    if field is not None and field in errors:
        flash(request, f"Not saved: {errors[field][0]}", "error")
    else:
        flash(request, exc.message, "error")
    item = context(request).queue.item(doc_hash)
    focus = field if field in FIELD_NAMES and not isinstance(exc, NotClaimed) else None
    return render_item(request, reviewer, item, status, errors, entered, focus, **values)


def refusal_errors(exc: ReviewRefused, field: str | None) -> dict[str, list[str]]:
    """Each problem under the field it names (or the one being decided), in words; the
    schedule's cells at fault under ``CELLS``."""
    errors: dict[str, list[str]] = {}
    for problem in exc.problems:
        target = problem.field if problem.field in FIELD_NAMES else (field or "*")
        # A problem about another field (the dates a term contradicts) says which, in words.
        label = LABELS.get(problem.field, "The document")
        prefix = "" if target == problem.field else f"{label}: "
        errors.setdefault(target, []).append(prefix + in_words(problem.field, problem.problem))
        if isinstance(problem, CellProblem) and problem.row and problem.column:
            errors.setdefault(CELLS, []).append(f"step-{problem.column}-{problem.row - 1}")
    return errors
