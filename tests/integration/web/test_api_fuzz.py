"""A bounded fuzz of every parameter in the API's own OpenAPI schema, against the real server
on loopback: no answer is a 5xx, and every error is the JSON error shape with a code.

The values come from a fixed list of the inputs that broke servers before (huge numbers,
dates at the ends of the calendar, cursors holding them, control characters, traversal,
lone surrogates, long strings, wrong types) plus seeded random strings, so a run is
repeatable and takes a few seconds (about 770 requests over one connection).
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx

from tests.integration.web.conftest import TOKENS, WebStack

SEED = 21
RANDOM_STRINGS = 6


def _cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


NASTY_STRINGS = [
    "",
    " ",
    "0",
    "-1",
    "1e309",
    "NaN",
    "null",
    "true",
    "9" * 40,
    str(2**63),
    str(-(2**63) - 1),
    "a" * 5000,
    "é☃𝔘",
    "\x00",
    "%00",
    "\x7f\x1b[31m",
    "../../etc/passwd",
    "/absolute/key.pdf",
    "a/" * 200,
    "x" * 300 + ".pdf",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "0001-01-01",
    "9999-12-31",
    "0001-01-01T00:00:00+05:00",
    "9999-12-31T23:59:59-05:00",
    "9999-12-31T23:59:59-23:59",
    "2025-13-45",
    "2025-01-01T25:61:61",
    "2025-06-01T00:00:00Z",
    "abcdef1",
    "abcdef12",
    "ABCDEF1234",
    "g" * 64,
    "f" * 63,
    "f" * 64,
    "f" * 65,
    "0" * 64,
    _cursor("2025-01-01T00:00:00+00:00|" + "9" * 30),
    _cursor("2025-01-01T00:00:00+00:00|-5"),
    _cursor("9999-12-31T23:59:59-05:00|1"),
    _cursor("0001-01-01T00:00:00+05:00|1"),
    _cursor("not a date|1"),
    _cursor("|"),
    "%%%",
    "====",
    "review",
    "dead",
    "lost",
    "alice",
]
NASTY_JSON: list[Any] = [None, 0, -1, 2**70, 1.5, True, [], {}, ["a"], {"a": 1}]


def strings() -> Iterator[str]:
    yield from NASTY_STRINGS
    rng = random.Random(SEED)
    alphabet = "abcdef0123456789/._-%:|+ éø\u2028\x01"
    for _ in range(RANDOM_STRINGS):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 80)))


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method.upper(), operation


def example_path(path: str, operation: dict[str, Any], stack: WebStack) -> str:
    """The path with a real document's hash in each path parameter."""
    known = stack.documents["harbor_point_office_lease.pdf"]
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "path":
            path = path.replace("{" + parameter["name"] + "}", known)
    return path


def requests(schema: dict[str, Any], stack: WebStack) -> Iterator[dict[str, Any]]:
    """One request per (parameter, value): the others at their defaults, but a page of one
    (a fuzz needs no page of a hundred documents, 800 times)."""
    for path, method, operation in operations(schema):
        base = example_path(path, operation, stack)
        names = {parameter["name"] for parameter in operation.get("parameters", [])}
        small = {"limit": "1"} if "limit" in names else {}
        for parameter in operation.get("parameters", []):
            name, where = parameter["name"], parameter["in"]
            for value in strings():
                if where == "path":
                    target = path.replace("{" + name + "}", quote(value, safe=""))
                    yield {"method": method, "url": target}
                elif where == "query":
                    yield {"method": method, "url": base, "params": {**small, name: value}}
        body = operation.get("requestBody", {}).get("content", {})
        if "application/json" in body:
            yield from _json_bodies(method, base)
        if "multipart/form-data" in body:
            yield from _multipart_bodies(method, base)


def _json_bodies(method: str, url: str) -> Iterator[dict[str, Any]]:
    for field in ("key", "hash"):
        for value in [*strings(), *NASTY_JSON]:
            body = {"key": "incoming/fuzz.pdf", field: value}
            yield {"method": method, "url": url, "content": json.dumps(body)}
    for raw in ["", "{", "[]", '"key"', "null", '{"key": "\\ud800"}', "[" * 5000 + "]" * 5000]:
        yield {"method": method, "url": url, "content": raw}


def _multipart_bodies(method: str, url: str) -> Iterator[dict[str, Any]]:
    rng = random.Random(SEED)
    contents = [b"", b"\x00" * 10, b"%PDF", b"PK\x03\x04junk", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"]
    contents += [bytes(rng.randrange(256) for _ in range(200)) for _ in range(3)]
    for data in contents:
        for name in ("a.pdf", "", "../../x", "\u202e.pdf", "a" * 400):
            yield {"method": method, "url": url, "files": {"file": (name, data)}}
    for raw in [b"", b"--b\r\n", b"--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--\r\n"]:
        headers = {"Content-Type": "multipart/form-data; boundary=b"}
        yield {"method": method, "url": url, "content": raw, "headers": headers}


def test_no_parameter_of_the_schema_makes_a_5xx_or_a_non_json_error(stack: WebStack) -> None:
    with stack.client("root") as api:
        schema = api.get("/v1/openapi.json").json()
        documented = {(p, m) for p, m, _op in operations(schema)}
        assert ("/v1/documents", "GET") in documented
        assert ("/v1/sessions", "DELETE") in documented
        sent, failures = 0, []
        for request in requests(schema, stack):
            headers = {"Authorization": f"Bearer {TOKENS['root']}", **request.pop("headers", {})}
            if "content" in request and "files" not in request:
                headers.setdefault("Content-Type", "application/json")
            reply = api.request(**request, headers=headers)
            sent += 1
            if reply.status_code >= 500 or (reply.status_code >= 400 and not _error_shape(reply)):
                failures.append(
                    f"{request['method']} {request['url']} {request.get('params')}: "
                    f"{reply.status_code} {reply.text[:200]}"
                )
    assert sent > 500
    assert not failures, "\n".join(failures[:20])


def _error_shape(reply: httpx.Response) -> bool:
    if not reply.headers.get("content-type", "").startswith("application/json"):
        return False
    body = reply.json()
    return isinstance(body, dict) and isinstance(body.get("code"), str) and "message" in body
