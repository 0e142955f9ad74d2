"""What every workspace page shares: the templates (Jinja2, autoescaped: lease text is
escaped everywhere), the session's CSRF token in every form, a one-shot message, redirects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.templating import Jinja2Templates

from lease_parser.store import as_utc
from lease_parser.web.auth import CSRF_FIELD, check_csrf, csrf_token
from lease_parser.web.item_view import format_money

HERE = Path(__file__).resolve().parent

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
templates.env.filters["utc"] = as_utc  # SQLite hands timestamps back naive; all are UTC
templates.env.filters["money"] = format_money


def page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    values.setdefault("reviewer", request.session.get("reviewer"))
    values["csrf"] = csrf_token(request)
    values["csrf_field"] = CSRF_FIELD
    values["flash"] = request.session.pop("flash", None)
    return templates.TemplateResponse(request, name, values, status_code=status)


def flash(request: Request, text: str, kind: str = "ok") -> None:
    request.session["flash"] = {"kind": kind, "text": text}


def see(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303)


async def form_values(request: Request) -> dict[str, str]:
    """The form's fields, once its CSRF token is checked."""
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    check_csrf(request, values.get(CSRF_FIELD))
    return values
