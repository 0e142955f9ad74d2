"""``lease-parser serve``: the HTTP API for ingestion (``/v1``) and the reviewers' workspace.

FastAPI on uvicorn; pages rendered on the server (Jinja2) with a little JavaScript, no
build step. It reads the same store, object store and broker as the workers. See app.py
for the wiring, api.py and workspace.py for the two faces, auth.py for who may do what.
"""

from __future__ import annotations

from lease_parser.web.app import create_app

__all__ = ["create_app"]
