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
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.templating import Jinja2Templates

from lease_parser.errors import LeaseParserError
from lease_parser.hashes import resolve_prefix
from lease_parser.model import FIELD_NAMES
from lease_parser.review import (
    COMMITTABLE_AS,
    ItemNotFound,
    NotClaimed,
    ReviewItem,
    ReviewRefused,
)
from lease_parser.schedule_checks import COLUMN_WORDS, CellProblem
from lease_parser.store import utcnow
from lease_parser.viewer import Highlight, ImageView, Span, TextView
from lease_parser.web.api import source_response
from lease_parser.web.auth import (
    CSRF_FIELD,
    LoginRequired,
    Reviewer,
    check_csrf,
    csrf_token,
    safe_next,
    sign_in,
)
from lease_parser.web.auth import reviewer as signed_in_reviewer
from lease_parser.web.context import WebContext, context
from lease_parser.web.errors import status_and_code
from lease_parser.web.forms import correction_value
from lease_parser.web.item_view import (
    CELLS,
    ESCALATION_KINDS,
    LABELS,
    STEP_COLUMNS,
    DocumentPane,
    all_spans,
    document_problems,
    field_rows,
    next_focus,
    text_pane,
)
from lease_parser.web.record_view import DecisionRecord, apply_record, decision_record

HERE = Path(__file__).resolve().parent
PAGE_WIDTH = 1200  # pixels of a rendered page: sharp in a half-screen pane on a 2x display

templates = Jinja2Templates(
    env=Environment(
        loader=FileSystemLoader(HERE / "templates"),
        # Every template is HTML: lease text is escaped everywhere, whatever the file name.
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
)

templates.env.filters["file_name"] = lambda key: str(key).rsplit("/", 1)[-1] or str(key)

router = APIRouter(include_in_schema=False)


@router.get("/favicon.ico")
def favicon() -> Response:
    return Response(status_code=204)


def _page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    values.setdefault("reviewer", request.session.get("reviewer"))
    values["csrf"] = csrf_token(request)
    values["csrf_field"] = CSRF_FIELD
    values["flash"] = request.session.pop("flash", None)
    return templates.TemplateResponse(request, name, values, status_code=status)


def _flash(request: Request, text: str, kind: str = "ok") -> None:
    request.session["flash"] = {"kind": kind, "text": text}


def _see(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


async def _form(request: Request) -> dict[str, str]:
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    check_csrf(request, values.get(CSRF_FIELD))
    return values


# -- signing in --------------------------------------------------------------------------


@router.get("/login")
def login_page(request: Request, next: str | None = None) -> HTMLResponse:
    return _page(request, "login.html", next=safe_next(next), reviewer=None)


@router.post("/login")
async def login(request: Request) -> Response:
    form = await _form(request)
    kept = request.session.get("kept")  # a decision the lapsed session could not send
    name = sign_in(request, form.get("token", ""))
    if name is not None and kept:
        request.session["kept"] = kept
    if name is None:
        _flash(
            request, "That token is not valid. Ask for one from whoever runs the service.", "error"
        )
        return _page(request, "login.html", 401, next=safe_next(form.get("next")), reviewer=None)
    return _see(safe_next(form.get("next")))


@router.post("/logout")
async def logout(request: Request) -> Response:
    await _form(request)
    request.session.clear()
    return _see("/login")


# -- the queue ---------------------------------------------------------------------------


@router.get("/")
def home() -> Response:
    return _see("/queue")


@router.get("/queue")
def queue_page(request: Request, reviewer: Reviewer) -> HTMLResponse:
    now = utcnow()
    items = context(request).queue.items(limit=500)
    return _page(
        request,
        "queue.html",
        items=items,
        mine=[i for i in items if i.claimed_by == reviewer],
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
    await _form(request)
    item = await run_in_threadpool(context(request).queue.claim_next, reviewer)
    if item is None:
        _flash(request, "The review queue is empty.")
        return _see("/queue")
    return _see(f"/items/{item.doc_hash}")


# -- one item ----------------------------------------------------------------------------


def _full_hash(ctx: WebContext, text: str) -> str:
    """The hash of the document ``text`` names: the full 64 digits, or a unique prefix of
    8+ (the queue shows 12)."""
    return resolve_prefix(text, ctx.store.hashes_starting_with)


def _item(ctx: WebContext, doc_hash: str) -> ReviewItem:
    return ctx.queue.item(_full_hash(ctx, doc_hash))


def _pane(ctx: WebContext, item: ReviewItem) -> tuple[DocumentPane, dict[Span, Highlight]]:
    """The document beside the fields, and where each citation is on it."""
    if item.reason == "needs_credential":
        note = "This document is password-protected: it can be shown once it is unlocked."
        return DocumentPane("none", note=note), {}
    try:
        view = ctx.document(item.doc_hash, item.doc_key).view
    except LeaseParserError as exc:
        return DocumentPane("none", note=f"The document cannot be shown: {exc.message}"), {}
    if isinstance(view, TextView):
        return text_pane(view, item), {}
    assert isinstance(view, ImageView)
    spans = all_spans(item)
    return DocumentPane("images", pages=view.pages()), dict(
        zip(spans, view.highlights(spans), strict=True)
    )


def _render_item(
    request: Request,
    reviewer: str,
    item: ReviewItem,
    status: int = 200,
    errors: dict[str, list[str]] | None = None,
    entered: dict[str, dict[str, Any]] | None = None,
    focus: str | None = None,
    kept: Kept | None = None,
) -> HTMLResponse:
    ctx = context(request)
    pane, highlights = _pane(ctx, item)
    rows = field_rows(item, highlights)
    record = _record(ctx, item)
    if record is not None:
        apply_record(rows, record)
    for row in rows:
        row.errors = (errors or {}).get(row.name, [])
        row.entered = (entered or {}).get(row.name)
        row.bad_cells = frozenset((errors or {}).get(CELLS, [])) if row.errors else frozenset()
    remaining = None
    if item.claim_expires_at is not None:
        # Rounded up: the page says "expired" only once the server agrees.
        remaining = max(0, math.ceil((item.claim_expires_at - utcnow()).total_seconds()))
    return _page(
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
    )


def _record(ctx: WebContext, item: ReviewItem) -> DecisionRecord | None:
    """A document out of review is shown as its decision record."""
    if item.state == "review":
        return None
    row = ctx.store.document(item.doc_hash)
    assert row is not None
    return decision_record(row, ctx.store.decisions(row.doc_hash), ctx.store.events(row.doc_hash))


@router.get("/items/{doc_hash}")
def item_page(
    request: Request, doc_hash: str, reviewer: Reviewer, focus: str | None = None
) -> Response:
    full = _full_hash(context(request), doc_hash)
    if full != doc_hash:  # a prefix: the page's own address has the whole hash
        query = f"?{request.url.query}" if request.url.query else ""
        return _see(f"/items/{full}{query}")
    item = _item(context(request), full)
    return _render_item(request, reviewer, item, focus=focus, kept=_kept(request, full))


@router.get("/items/{doc_hash}/pages/{number}")
def page_image(request: Request, doc_hash: str, number: int, reviewer: Reviewer) -> Response:
    ctx = context(request)
    item = _item(ctx, doc_hash)
    view = ctx.document(item.doc_hash, item.doc_key).view
    if not isinstance(view, ImageView) or not 1 <= number <= len(view.pages()):
        return Response("no such page", status_code=404, media_type="text/plain")
    image = view.render(number, PAGE_WIDTH)
    media = "image/png" if image.startswith(b"\x89PNG") else "image/jpeg"
    # Content-addressed (the hash names the bytes): the browser may keep it.
    return Response(image, media_type=media, headers={"Cache-Control": "private, max-age=86400"})


@router.get("/items/{doc_hash}/source")
def item_source(request: Request, doc_hash: str, reviewer: Reviewer) -> Response:
    ctx = context(request)
    item = _item(ctx, doc_hash)
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
        return await _keep(request, doc_hash, action, field)
    form = await _form(request)
    item = await run_in_threadpool(_item, ctx, doc_hash)
    entered: dict[str, dict[str, Any]] = {}
    try:
        where = await run_in_threadpool(_do, ctx, item, reviewer, action, field, form, entered)
    except ReviewRefused as exc:
        status, _code = status_and_code(exc)
        return await run_in_threadpool(
            _refused, request, reviewer, item.doc_hash, exc, status, entered, field
        )
    return _see(where)


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


def _refused(
    request: Request,
    reviewer: str,
    doc_hash: str,
    exc: ReviewRefused,
    status: int,
    entered: dict[str, dict[str, Any]],
    field: str | None,
) -> Response:
    if isinstance(exc, ItemNotFound):
        raise exc
    errors: dict[str, list[str]] = {}
    for problem in exc.problems:
        target = problem.field if problem.field in FIELD_NAMES else (field or "*")
        # A problem about another field (the dates a term contradicts) says which, in words.
        prefix = "" if target == problem.field else f"{LABELS.get(problem.field, 'The document')}: "
        errors.setdefault(target, []).append(prefix + problem.problem)
        if isinstance(problem, CellProblem) and problem.row and problem.column:
            errors.setdefault(CELLS, []).append(f"step-{problem.column}-{problem.row - 1}")
    if field is not None and field in errors:
        _flash(request, f"Not saved: {errors[field][0]}", "error")
    else:
        _flash(request, exc.message, "error")
    item = context(request).queue.item(doc_hash)
    focus = field if field in FIELD_NAMES else None
    if isinstance(exc, NotClaimed):
        focus = None
    return _render_item(request, reviewer, item, status, errors, entered, focus)


@router.post("/items/{doc_hash}/{action}")
async def item_action(request: Request, doc_hash: str, action: str) -> Response:
    if action not in ITEM_ACTIONS:
        return Response("unknown action", status_code=404, media_type="text/plain")
    response = await _act(request, doc_hash, action)
    if isinstance(response, RedirectResponse) and action in ("approve", "reject", "release"):
        done = {"approve": "committed", "reject": "rejected", "release": "released"}[action]
        _flash(request, f"{doc_hash[:12]} {done}.")
    return response


@router.post("/items/{doc_hash}/fields/{field}/{action}")
async def field_action(request: Request, doc_hash: str, field: str, action: str) -> Response:
    if action not in FIELD_ACTIONS or field not in FIELD_NAMES:
        return Response("unknown action", status_code=404, media_type="text/plain")
    return await _act(request, doc_hash, action, field)


# -- a decision sent after the session lapsed ---------------------------------------------

ITEM_ACTIONS = {"claim": "Claim", "release": "Release", "approve": "Approve", "reject": "Reject"}
FIELD_ACTIONS = {"confirm": "Confirm", "correct": "Correct", "not-stated": "Not stated"}
KEPT_CHARS = 2000  # a kept form rides in the session cookie (4 KB with its signature)


async def _keep(request: Request, doc_hash: str, action: str, field: str | None) -> Response:
    """Remember the decision (never its CSRF token) and send the browser to sign in, to
    come back to the item, not to this POST (a GET of it is 405)."""
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str) and k != CSRF_FIELD}
    if len(json.dumps(values)) <= KEPT_CHARS:
        request.session["kept"] = {
            "doc_hash": doc_hash,
            "action": action,
            "field": field,
            "form": values,
        }
    return _see("/login?next=" + quote(f"/items/{doc_hash}", safe="/"))


@dataclass(frozen=True)
class Kept:
    """A decision that did not reach the store, shown again for the reviewer to send (it
    is never replayed unasked: the form that sent it had no session to check it against)."""

    action: str  # the form's address under the item
    words: str
    form: dict[str, str]


def _kept(request: Request, doc_hash: str) -> Kept | None:
    kept = request.session.pop("kept", None)
    if not isinstance(kept, dict) or kept.get("doc_hash") != doc_hash:
        return None
    action, field, form = kept.get("action"), kept.get("field"), kept.get("form") or {}
    if field in FIELD_NAMES and action in FIELD_ACTIONS:
        value = form.get("value") or form.get("kind") or ""
        words = f"{FIELD_ACTIONS[action]}: {LABELS.get(field, field)}" + (
            f" = {value}" if value and action == "correct" else ""
        )
        return Kept(f"fields/{field}/{action}", words, {k: str(v) for k, v in form.items()})
    if field is None and action in ITEM_ACTIONS:
        return Kept(action, ITEM_ACTIONS[action], {k: str(v) for k, v in form.items()})
    return None
