"""Probes for Kubernetes and load balancers, without a token: ``GET /healthz`` (the process
answers) and ``GET /readyz`` (it can do its work: the broker and the canonical store
answer). Both are cheap: no body is read, readiness is one Redis PING and one ``SELECT 1``
with timeouts of a few seconds, and neither answer names a host or a URL.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from lease_parser.web.context import WebContext, context

router = APIRouter(tags=["probes"])


@router.get("/healthz", summary="The process is alive (no token)")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


def _broker(ctx: WebContext) -> bool:
    try:
        return bool(ctx.redis.ping())
    except Exception:  # any failure is "not ready"; the probe says which part
        return False


def _store(ctx: WebContext) -> bool:
    try:
        ctx.store.ping()
        return True
    except Exception:
        return False


@router.get(
    "/readyz",
    summary="The broker and the store answer (no token); 503 names the part that does not",
    responses={503: {"description": "not ready"}},
)
def readyz(request: Request) -> JSONResponse:
    ctx = context(request)
    checks = {"broker": _broker(ctx), "store": _store(ctx)}
    ready = all(checks.values())
    body: dict[str, Any] = {
        "status": "ready" if ready else "unavailable",
        "checks": {name: "ok" if ok else "unreachable" for name, ok in checks.items()},
    }
    return JSONResponse(body, status_code=200 if ready else 503)
