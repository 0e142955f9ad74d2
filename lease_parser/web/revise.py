"""Correcting a committed lease from its page, and the QA sample's second look.

``/items/HASH?reopen=1`` shows a committed lease with a *Correct* form on every field; each
save is one recorded correction (lease_parser/store/revisions.py), refused next to its field like
a decision in review, and refused as a whole when someone else corrected the lease since
the page was shown. ``/qa`` lists the sampled auto-committed leases waiting for their second
look and what the checks so far measured.
"""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from lease_parser.errors import ReviewRefused
from lease_parser.fields import LABELS
from lease_parser.model import FIELD_NAMES
from lease_parser.web.auth import Reviewer
from lease_parser.web.context import context
from lease_parser.web.errors import status_and_code
from lease_parser.web.forms import correction_value
from lease_parser.web.item_page import full_hash, refused_page, render_item, wants_fragment
from lease_parser.web.item_view import display_value
from lease_parser.web.pages import flash, form_values, page, see

router = APIRouter(include_in_schema=False)


@router.post("/items/{doc_hash}/fields/{field}/revise")
async def revise_field(request: Request, doc_hash: str, field: str, reviewer: Reviewer) -> Response:
    if field not in FIELD_NAMES:
        return Response("unknown field", status_code=404, media_type="text/plain")
    ctx = context(request)
    form = await form_values(request)
    full = await run_in_threadpool(full_hash, ctx, doc_hash)
    raw, entered = correction_value(field, form)
    entered["note"] = form.get("note", "")
    try:
        seen = dt.datetime.fromisoformat(form["seen"]) if form.get("seen") else None
    except ValueError:
        seen = None
    try:
        row = await run_in_threadpool(
            ctx.revisions.revise, full, reviewer, {field: raw}, seen, form.get("note", "")
        )
    except ReviewRefused as exc:
        status, _code = status_and_code(exc)
        return await run_in_threadpool(
            refused_page,
            request,
            reviewer,
            full,
            exc,
            status,
            {field: entered},
            field,
            reopen=True,
            fragment=wants_fragment(request),
        )
    value = ((row.fields or {}).get(field) or {}).get("value")
    shown = display_value(field, value)
    flash(request, f"Corrected {LABELS.get(field, field)}: now {shown}. Recorded in its history.")
    if wants_fragment(request):  # the page's script sent it: the item as it is now
        item = await run_in_threadpool(ctx.queue.item, full)
        return await run_in_threadpool(
            render_item, request, reviewer, item, focus=field, reopen=True, fragment=True
        )
    return see(f"/items/{full}?reopen=1&focus={field}")


@router.post("/items/{doc_hash}/qa-check")
async def qa_check(request: Request, doc_hash: str, reviewer: Reviewer) -> Response:
    ctx = context(request)
    await form_values(request)
    full = await run_in_threadpool(full_hash, ctx, doc_hash)
    try:
        await run_in_threadpool(ctx.revisions.qa_check, full, reviewer)
    except ReviewRefused as exc:
        status, _code = status_and_code(exc)
        return await run_in_threadpool(refused_page, request, reviewer, full, exc, status, {}, None)
    flash(request, f"{full[:12]} checked: it counts in the auto-commit's measured precision.")
    return see("/qa")


@router.get("/qa")
def qa_page(request: Request, reviewer: Reviewer) -> HTMLResponse:
    revisions = context(request).revisions
    summary = revisions.qa_summary()
    items = revisions.qa_items(limit=200)
    return page(request, "qa.html", summary=summary, items=items, percent=_percent)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"
