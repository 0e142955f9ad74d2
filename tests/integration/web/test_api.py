"""The HTTP API against the real stack (uvicorn, redis-server, a worker, the store):
submission by key and by upload, idempotency on content, reads, paging, the original
bytes, auth (401/403), the size limit (413) and backpressure (503 + Retry-After)."""

from __future__ import annotations

import contextlib
import hashlib
import io
from collections.abc import Iterator

import httpx
import pypdfium2 as pdfium
import pytest

import redis
from lease_parser.store import FINAL_STATES
from tests.integration.conftest import SAMPLES
from tests.integration.web.conftest import MAX_DOCUMENT_BYTES, TOKENS, WebStack

MAPLE = "maple_grove_retail_lease.pdf"


def test_submit_by_key_then_follow_it_to_its_abstraction(stack: WebStack) -> None:
    data = (SAMPLES / MAPLE).read_bytes()
    stack.pipeline.put(f"incoming/{MAPLE}", data)
    with stack.client() as api:
        reply = api.post("/v1/documents", json={"key": f"incoming/{MAPLE}"})
        assert reply.status_code == 202, reply.text
        receipt = reply.json()
        assert (receipt["state"], receipt["duplicate"]) == ("pending", False)
        assert receipt["doc_hash"] == hashlib.sha256(data).hexdigest()
        assert reply.headers["location"] == f"/v1/documents/{receipt['doc_hash']}"
        stack.wait_final(receipt["doc_hash"])
        record = api.get(reply.headers["location"]).json()
    assert (record["state"], record["reason"]) == ("review", "low_confidence")
    tenant = record["fields"]["tenant"]
    assert tenant["value"] == "Sweet Crumb Bakery LLC"
    assert 0 < tenant["confidence"] <= 1
    assert tenant["provenance"]["page"] == 1
    assert "Sweet Crumb" in tenant["provenance"]["text"]
    assert tenant["source"] is None  # not committed yet
    assert record["problems"], "a review item says what is doubtful"
    # The API caller is the audit trail's actor of the submission.
    events = stack.pipeline.runtime.store.events(receipt["doc_hash"])
    assert next((e.reason, e.actor) for e in events) == ("submitted", "ingest")


def test_the_same_content_again_is_a_duplicate_with_its_real_state(stack: WebStack) -> None:
    name = "harbor_point_office_lease.pdf"
    doc_hash = stack.documents[name]
    data = (SAMPLES / name).read_bytes()
    again = stack.upload("renamed.pdf", data)
    assert again.status_code == 200
    body = again.json()
    assert (body["doc_hash"], body["duplicate"]) == (doc_hash, True)
    assert body["state"] in FINAL_STATES  # never "pending" for content already processed
    stack.pipeline.put("incoming/another-name.pdf", data)
    with stack.client() as api:
        by_key = api.post("/v1/documents", json={"key": "incoming/another-name.pdf"})
        by_hash = api.post(
            "/v1/documents", json={"key": "incoming/another-name.pdf", "hash": doc_hash.upper()}
        )
    assert by_key.status_code == by_hash.status_code == 200
    assert by_key.json()["duplicate"]
    assert by_hash.json()["doc_hash"] == doc_hash
    assert stack.pipeline.runtime.store.commit_events(doc_hash) <= 1


def test_unknown_and_malformed_hashes_and_keys(stack: WebStack) -> None:
    with stack.client() as api:
        missing = api.get("/v1/documents/" + "e" * 64)
        malformed = api.get("/v1/documents/abc123")
        no_object = api.post("/v1/documents", json={"key": "incoming/never-uploaded.pdf"})
        escaping = api.post("/v1/documents", json={"key": "../../etc/passwd"})
        bad_body = api.post("/v1/documents", json={"hash": "0" * 64})
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert (malformed.status_code, malformed.json()["code"]) == (422, "invalid_hash")
    assert (no_object.status_code, no_object.json()["code"]) == (404, "object_not_found")
    assert (escaping.status_code, escaping.json()["code"]) == (403, "storage_forbidden")
    assert (bad_body.status_code, bad_body.json()["code"]) == (422, "invalid_request")
    assert "key" in bad_body.json()["message"]
    for reply in (missing, malformed, no_object, escaping, bad_body):
        assert set(reply.json()) >= {"code", "message"}


def test_tokens_missing_wrong_and_never_logged(stack: WebStack) -> None:
    doc_hash = stack.documents["harbor_point_office_lease.pdf"]
    with stack.client(None) as anonymous:
        none = anonymous.get(f"/v1/documents/{doc_hash}")
        wrong = anonymous.get(
            f"/v1/documents/{doc_hash}", headers={"Authorization": "Bearer not-a-real-token-000"}
        )
        basic = anonymous.get(f"/v1/documents/{doc_hash}", auth=("ingest", TOKENS["ingest"]))
        schema = anonymous.get("/v1/openapi.json")
    assert (none.status_code, none.json()["code"]) == (401, "unauthenticated")
    assert (wrong.status_code, wrong.json()["code"]) == (401, "invalid_token")
    assert basic.status_code == 401
    assert none.headers["www-authenticate"] == "Bearer"
    paths = schema.json()["paths"]
    assert {"/v1/documents", "/v1/documents/upload", "/v1/documents/{doc_hash}"} <= set(paths)
    assert "/v1/documents/{doc_hash}/source" in paths
    log = stack.log()
    assert f"/v1/documents/{doc_hash}" in log, "the access log is on"
    for token in TOKENS.values():
        assert token not in log
    assert "not-a-real-token" not in log
    assert "authorization" not in log.lower()


def test_an_oversize_body_is_refused_before_it_is_read(stack: WebStack) -> None:
    big = b"%PDF-1.7\n" + b"0" * (MAX_DOCUMENT_BYTES + 100_000)
    declared = stack.upload("big.pdf", big)
    assert (declared.status_code, declared.json()["code"]) == (413, "too_large")

    def chunked_upload() -> Iterator[bytes]:
        """A well-formed multipart upload of 4 MB, sent without a Content-Length."""
        yield (
            b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n'
            b"Content-Type: application/pdf\r\n\r\n%PDF-1.7\n"
        )
        for _ in range(40):
            yield b"0" * 100_000
        yield b"\r\n--xyz--\r\n"

    with stack.client() as api:
        streamed = api.post(
            "/v1/documents/upload",
            content=chunked_upload(),
            headers={"Content-Type": "multipart/form-data; boundary=xyz"},
        )
    assert "content-length" not in streamed.request.headers
    assert (streamed.status_code, streamed.json()["code"]) == (413, "too_large")
    assert stack.pipeline.runtime.store.document(hashlib.sha256(big).hexdigest()) is None


def test_a_full_broker_answers_503_with_retry_after_and_registers_nothing(
    stack: WebStack,
) -> None:
    r = stack.pipeline.redis_server.client()
    original = r.config_get("maxmemory")["maxmemory"]
    r.config_set("maxmemory", str(int(r.info("memory")["used_memory"]) + 1_000_000))
    try:
        with contextlib.suppress(redis.exceptions.OutOfMemoryError):
            for _ in range(20):  # past the 90 % high-water mark, up to maxmemory itself
                r.append("ballast", b"x" * 100_000)
        data = b"%PDF-1.4\n% a lease nobody submitted before\n"
        reply = stack.upload("full.pdf", data)
    finally:
        r.delete("ballast")
        r.config_set("maxmemory", original)
    assert (reply.status_code, reply.json()["code"]) == (503, "broker_full")
    assert int(reply.headers["retry-after"]) > 0
    assert stack.pipeline.runtime.store.document(hashlib.sha256(data).hexdigest()) is None


def test_listing_pages_through_every_document_once(stack: WebStack) -> None:
    seen: list[str] = []
    cursor = None
    with stack.client() as api:
        while True:
            params: dict[str, str | int] = {"limit": 2}
            if cursor:
                params["cursor"] = cursor
            page = api.get("/v1/documents", params=params).json()
            seen += [d["doc_hash"] for d in page["documents"]]
            cursor = page["next_cursor"]
            if cursor is None:
                break
        everything = api.get("/v1/documents", params={"limit": 500}).json()["documents"]
        in_review = api.get("/v1/documents", params={"state": "review"}).json()["documents"]
        later = api.get("/v1/documents", params={"since": "2999-01-01"}).json()["documents"]
        bad = api.get("/v1/documents", params={"cursor": "%%%"})
        bad_state = api.get("/v1/documents", params={"state": "lost"})
    assert len(seen) == len(set(seen)) == len(everything) >= len(stack.documents)
    assert set(stack.documents.values()) <= set(seen)
    assert {d["state"] for d in in_review} == {"review"}
    assert later == []
    assert (bad.status_code, bad.json()["code"]) == (422, "invalid_cursor")
    assert bad_state.status_code == 422


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        ("harbor_point_office_lease.pdf", "application/pdf"),
        (
            "riverside_sublease_tracked_changes.docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
    ],
)
def test_the_original_bytes_with_their_content_type(
    stack: WebStack, name: str, content_type: str
) -> None:
    with stack.client() as api:
        reply = api.get(f"/v1/documents/{stack.documents[name]}/source")
    assert reply.status_code == 200
    assert reply.headers["content-type"] == content_type
    assert reply.content == (SAMPLES / name).read_bytes()
    if content_type == "application/pdf":
        assert len(pdfium.PdfDocument(io.BytesIO(reply.content))) >= 1


def test_python_callers_read_the_same_record(stack: WebStack) -> None:
    """``lease_parser.status`` / ``abstraction`` agree with the API (same store)."""
    import os
    import subprocess
    import sys

    doc_hash = stack.documents["harbor_point_office_lease.pdf"]
    code = (
        "import json, lease_parser\n"
        f"s = lease_parser.status('{doc_hash}')\n"
        f"print(json.dumps([s.state, s.reason, lease_parser.abstraction('{doc_hash}')]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **stack.pipeline.env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    with stack.client() as api:
        record = api.get(f"/v1/documents/{doc_hash}").json()
    assert httpx.Response(200, content=done.stdout).json() == [
        record["state"],
        record["reason"],
        None,  # in review: no committed abstraction yet
    ]
