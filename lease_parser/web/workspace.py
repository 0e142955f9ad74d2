"""The reviewers' workspace: sign in, the queue, an item (page images beside its fields),
field-level decisions, approve, reject, release.

Server-rendered (Jinja2, autoescaped: every piece of lease text is escaped) with one small
script for keyboard work and drawing citation boxes; everything also works with plain
forms. Every form carries the session's CSRF token. Decisions go through ``ReviewQueue``,
so the rules are the CLI's: only the holder of a live claim decides, and approve waits for
every doubtful field to be confirmed or corrected.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from lease_parser.errors import ReviewRefused
from lease_parser.model import FIELD_NAMES
from lease_parser.store import ReviewItem, utcnow
from lease_parser.viewer import ImageView
from lease_parser.web import portfolio, revise
from lease_parser.web.api import source_response
from lease_parser.web.auth import (
    LoginRequired,
    Reviewer,
    safe_next,
    sign_in,
)
from lease_parser.web.auth import reviewer as signed_in_reviewer
from lease_parser.web.context import WebContext, context
from lease_parser.web.errors import status_and_code
from lease_parser.web.forms import correction_value
from lease_parser.web.item_page import (
    full_hash,
    item_for,
    refused_page,
    render_item,
    wants_fragment,
)
from lease_parser.web.item_view import (
    field_rows,
    next_focus,
)
from lease_parser.web.kept import (
    FIELD_ACTIONS,
    ITEM_ACTIONS,
    SESSION_KEY,
    keep,
    kept_for,
)
from lease_parser.web.pages import flash, form_values, page, see, templates

PAGE_WIDTH = 1200  # pixels of a rendered page: sharp in a half-screen pane on a 2x display

# The error pages of app.py render with the workspace's templates.
__all__ = ["router", "templates"]

router = APIRouter(include_in_schema=False)
router.include_router(revise.router)
router.include_router(portfolio.router)


@router.get("/favicon.ico")
def favicon() -> Response:
    return Response(status_code=204)


# -- signing in --------------------------------------------------------------------------


@router.get("/login")
def login_page(request: Request, next: str | None = None) -> HTMLResponse:
    return page(request, "login.html", next=safe_next(next), reviewer=None)


@router.post("/login")
async def login(request: Request) -> Response:
    form = await form_values(request)
    kept = request.session.get(SESSION_KEY)  # a decision the lapsed session could not send
    name = sign_in(request, form.get("token", ""))
    if name is not None and kept:
        request.session[SESSION_KEY] = kept
    if name is None:
        flash(
            request, "That token is not valid. Ask for one from whoever runs the service.", "error"
        )
        return page(request, "login.html", 401, next=safe_next(form.get("next")), reviewer=None)
    return see(safe_next(form.get("next")))


@router.post("/logout")
async def logout(request: Request) -> Response:
    await form_values(request)
    request.session.clear()
    return see("/login")


# -- the queue ---------------------------------------------------------------------------


@router.get("/")
def home() -> Response:
    return see("/queue")


QUEUE_PAGE = 100


@router.get("/queue")
def queue_page(request: Request, reviewer: Reviewer, page_number: int = 1) -> HTMLResponse:
    """The queue a page at a time: every item is reachable, however long it is."""
    now = utcnow()
    queue = context(request).queue
    total = queue.count()
    pages = max(1, -(-total // QUEUE_PAGE))
    number = min(max(1, page_number), pages)
    items = queue.items(limit=QUEUE_PAGE, offset=(number - 1) * QUEUE_PAGE)
    return page(
        request,
        "queue.html",
        items=items,
        total=total,
        page_number=number,
        pages=pages,
        first=(number - 1) * QUEUE_PAGE,
        mine=[i for i in queue.items(limit=20) if i.claimed_by == reviewer],
        age=lambda item: _age(now - item.since),
    )


def _age(delta: dt.timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    if hours >= 24:
        return f"{hours // 24}d {hours % 24}h"
    return f"{hours}h {minutes:02}m" if hours else f"{minutes}m"


@router.post("/queue/claim-next")
async def claim_next(request: Request, reviewer: Reviewer) -> Response:
    await form_values(request)
    item = await run_in_threadpool(context(request).queue.claim_next, reviewer)
    if item is None:
        flash(request, "The review queue is empty.")
        return see("/queue")
    return see(f"/items/{item.doc_hash}")


# -- one item ----------------------------------------------------------------------------


@router.get("/items/{doc_hash}")
def item_page(
    request: Request,
    doc_hash: str,
    reviewer: Reviewer,
    focus: str | None = None,
    reopen: bool = False,
) -> Response:
    full = full_hash(context(request), doc_hash)
    if full != doc_hash:  # a prefix: the page's own address has the whole hash
        query = f"?{request.url.query}" if request.url.query else ""
        return see(f"/items/{full}{query}")
    item = item_for(context(request), full)
    kept = kept_for(request, full)
    return render_item(request, reviewer, item, focus=focus, kept=kept, reopen=reopen)


@router.get("/items/{doc_hash}/pages/{number}")
def page_image(request: Request, doc_hash: str, number: int, reviewer: Reviewer) -> Response:
    ctx = context(request)
    item = item_for(ctx, doc_hash)
    opened = ctx.document(item.doc_hash, item.doc_key)
    view = opened.view
    if not isinstance(view, ImageView) or not 1 <= number <= len(opened.once("pages", view.pages)):
        return Response("no such page", status_code=404, media_type="text/plain")
    image = ctx.page_image(item.doc_hash, item.doc_key, number, PAGE_WIDTH)
    media = "image/png" if image.startswith(b"\x89PNG") else "image/jpeg"
    # Content-addressed (the hash names the bytes): the browser keeps it and never asks again.
    headers = {"Cache-Control": "private, max-age=31536000, immutable"}
    return Response(image, media_type=media, headers=headers)


@router.get("/items/{doc_hash}/source")
def item_source(request: Request, doc_hash: str, reviewer: Reviewer) -> Response:
    ctx = context(request)
    item = item_for(ctx, doc_hash)
    row = ctx.store.document(item.doc_hash)
    assert row is not None
    return source_response(ctx, row)


async def _act(
    request: Request,
    doc_hash: str,
    action: str,
    field: str | None = None,
) -> Response:
    """One decision: do it, then go where the keyboard goes next; a refusal re-renders the
    item with the reason (next to the field when it is about one). Sent after the session
    lapsed, the decision is kept and offered again once the reviewer has signed in."""
    ctx = context(request)
    try:
        reviewer = signed_in_reviewer(request)
    except LoginRequired:
        return await keep(request, doc_hash, action, field)
    form = await form_values(request)
    item = await run_in_threadpool(item_for, ctx, doc_hash)
    entered: dict[str, dict[str, Any]] = {}
    try:
        where = await run_in_threadpool(_do, ctx, item, reviewer, action, field, form, entered)
    except ReviewRefused as exc:
        status, _code = status_and_code(exc)
        return await run_in_threadpool(
            refused_page,
            request,
            reviewer,
            item.doc_hash,
            exc,
            status,
            entered,
            field,
            fragment=wants_fragment(request),
        )
    if field is not None and wants_fragment(request):
        # The script sent it: answer with the item as it is now, not a redirect to it.
        focus = where.rsplit("focus=", 1)[-1]
        after = await run_in_threadpool(ctx.queue.item, item.doc_hash)
        return await run_in_threadpool(
            render_item, request, reviewer, after, focus=focus, fragment=True
        )
    return see(where)


def _do(
    ctx: WebContext,
    item: ReviewItem,
    reviewer: str,
    action: str,
    field: str | None,
    form: dict[str, str],
    entered: dict[str, dict[str, Any]],
) -> str:
    queue, doc_hash = ctx.queue, item.doc_hash
    if action == "claim":
        queue.claim(doc_hash, reviewer)
        return f"/items/{doc_hash}"
    if action == "release":
        queue.release(doc_hash, reviewer)
        return "/queue"
    if action == "approve":
        queue.approve(doc_hash, reviewer, form.get("committed_as") or None)
        return "/queue?done=" + doc_hash
    if action == "reject":
        queue.reject(doc_hash, reviewer, form.get("reason", ""))
        return "/queue?rejected=" + doc_hash
    assert field is not None
    if field not in FIELD_NAMES:
        raise ReviewRefused(f"unknown field {field!r}")
    if action == "confirm":
        after = queue.confirm(doc_hash, reviewer, [field], _shown(field, form))
    elif action == "not-stated":
        after = queue.correct(doc_hash, reviewer, {field: ""})
    else:
        raw, entered[field] = correction_value(field, form)
        after = queue.correct(doc_hash, reviewer, {field: raw})
    rows = field_rows(after, {})
    # No #fragment: Chrome would move the focus to that (focusable) field after the
    # script has put it on the next one.
    return f"/items/{doc_hash}?focus={next_focus(rows, field)}"


def _shown(field: str, form: dict[str, str]) -> dict[str, Any]:
    """The value the page showed when Confirm was pressed (JSON), if it sent one."""
    if "shown" not in form:
        return {}
    try:
        return {field: json.loads(form["shown"])}
    except ValueError:
        raise ReviewRefused("the page sent a value it did not show: reload it") from None


@router.post("/items/{doc_hash}/{action}")
async def item_action(request: Request, doc_hash: str, action: str) -> Response:
    if action not in ITEM_ACTIONS:
        return Response("unknown action", status_code=404, media_type="text/plain")
    response = await _act(request, doc_hash, action)
    if isinstance(response, RedirectResponse) and action in ("approve", "reject", "release"):
        done = {"approve": "committed", "reject": "rejected", "release": "released"}[action]
        flash(request, f"{doc_hash[:12]} {done}.")
    return response


@router.post("/items/{doc_hash}/fields/{field}/{action}")
async def field_action(request: Request, doc_hash: str, field: str, action: str) -> Response:
    if action not in FIELD_ACTIONS or field not in FIELD_NAMES:
        return Response("unknown action", status_code=404, media_type="text/plain")
    return await _act(request, doc_hash, action, field)
