"""A decision sent after the session lapsed: kept, and offered again after sign-in.

The browser is sent to sign in and back to the item (never to the form's address: a GET
of it is 405). The decision is kept in the session (never its CSRF token) and shown on the
item with a *Save it* button: it is not replayed unasked, since the form that sent it had
no session to be checked against.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import RedirectResponse

from lease_parser.fields import LABELS
from lease_parser.model import FIELD_NAMES
from lease_parser.web.auth import CSRF_FIELD

ITEM_ACTIONS = {"claim": "Claim", "release": "Release", "approve": "Approve", "reject": "Reject"}
FIELD_ACTIONS = {"confirm": "Confirm", "correct": "Correct", "not-stated": "Not stated"}
KEPT_CHARS = 2000  # a kept form rides in the session cookie (4 KB with its signature)
SESSION_KEY = "kept"


async def keep(request: Request, doc_hash: str, action: str, field: str | None) -> RedirectResponse:
    """Remember the decision and send the browser to sign in, then back to the item."""
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str) and k != CSRF_FIELD}
    if len(json.dumps(values)) <= KEPT_CHARS:
        request.session[SESSION_KEY] = {
            "doc_hash": doc_hash,
            "action": action,
            "field": field,
            "form": values,
        }
    return RedirectResponse("/login?next=" + quote(f"/items/{doc_hash}", safe="/"), 303)


@dataclass(frozen=True)
class Kept:
    """A decision that did not reach the store, as the item page offers it again."""

    action: str  # the form's address under the item
    words: str
    form: dict[str, str]


def kept_for(request: Request, doc_hash: str) -> Kept | None:
    """The kept decision on this item, if any (shown once: it is not kept after)."""
    kept = request.session.pop(SESSION_KEY, None)
    if not isinstance(kept, dict) or kept.get("doc_hash") != doc_hash:
        return None
    action, field, form = kept.get("action"), kept.get("field"), kept.get("form") or {}
    values = {str(k): str(v) for k, v in form.items()}
    if field in FIELD_NAMES and action in FIELD_ACTIONS:
        words = f"{FIELD_ACTIONS[action]}: {LABELS.get(field, field)}"
        value = values.get("value") or values.get("kind") or ""
        if value and action == "correct":
            words += f" = {value}"
        return Kept(f"fields/{field}/{action}", words, values)
    if field is None and action in ITEM_ACTIONS:
        return Kept(action, ITEM_ACTIONS[action], values)
    return None
