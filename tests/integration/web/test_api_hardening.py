"""Issue 21 against the real stack (uvicorn, redis-server, a worker, the store): claimed hashes
that are not the bytes, scopes, server-side sessions, authentication before the body,
errors that are always JSON, and the smaller defects. Each test failed before its fix."""

from __future__ import annotations

import concurrent.futures
import hashlib
import re
import socket
import subprocess
import sys
import uuid

import httpx
import pytest
from fpdf import FPDF

from lease_parser.deadletter import get_dead_letter
from lease_parser.local import WebServer, free_port
from lease_parser.pipeline.submit import submit_document
from lease_parser.store import FINAL_STATES
from tests.integration.web.conftest import TOKENS, WebStack, web_env


def lease_pdf(tenant: str) -> bytes:
    """A small text lease of its own (new content for each test: nothing is a duplicate)."""
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(
        0,
        6,
        f"OFFICE LEASE\n\nThis Lease is made as of May 1, 2025, by and between Quay Owner LLC "
        f'("Landlord") and {tenant} ("Tenant").\n\n1. PREMISES. 10 Quay Street, Suite 2, '
        "Boston, Massachusetts 02110.\n\n2. TERM. Thirty-six (36) months.\n\n3. BASE RENT. "
        "Tenant shall pay monthly base rent of $4,200.00.\n",
    )
    return bytes(pdf.output())


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- defect 1: a claimed hash is not a fact until the bytes are read ----------------------


def test_a_claimed_hash_is_checked_against_the_object_before_anything_is_recorded(
    stack: WebStack,
) -> None:
    victim = lease_pdf(f"Victim {uuid.uuid4().hex[:8]} LLC")
    stack.pipeline.put("incoming/someone-elses.pdf", lease_pdf("Other Party LLC"))
    with stack.client() as api:
        claim = api.post(
            "/v1/documents", json={"key": "incoming/someone-elses.pdf", "hash": sha(victim)}
        )
    assert (claim.status_code, claim.json()["code"]) == (409, "hash_mismatch")
    assert stack.pipeline.runtime.store.document(sha(victim)) is None  # nothing recorded
    real = stack.upload("victim.pdf", victim)
    assert (real.status_code, real.json()["duplicate"]) == (202, False), real.text
    row = stack.wait_final(sha(victim))
    assert (row.state, row.reason) == ("review", "low_confidence")  # the gate is 0.999
    assert row.doc_key.startswith(f"uploads/{sha(victim)}/")


def test_a_hash_mismatch_does_not_stand_for_the_content_the_real_bytes_are_processed(
    stack: WebStack,
) -> None:
    """A claim made where nothing checks it first (the Python ``submit`` a trusted ingestion
    service calls) dies as hash_mismatch in the worker; the real bytes still get in."""
    victim = lease_pdf(f"Second Victim {uuid.uuid4().hex[:8]} LLC")
    stack.pipeline.put("incoming/not-the-victim.pdf", lease_pdf("Another Party LLC"))
    submit_document(stack.pipeline.app, "incoming/not-the-victim.pdf", sha(victim))
    dead = stack.wait_final(sha(victim))
    assert (dead.state, dead.reason) == ("dead", "hash_mismatch")
    runtime = stack.pipeline.runtime
    assert get_dead_letter(runtime.redis, sha(victim)) is not None
    real = stack.upload("victim.pdf", victim)
    assert real.status_code == 202, real.text
    assert (real.json()["duplicate"], real.json()["state"]) == (False, "pending")
    row = stack.wait_final(sha(victim))
    assert (row.state, row.reason) == ("review", "low_confidence")
    assert row.doc_key == real.json()["doc_key"]
    assert runtime.objects.exists(row.doc_key)  # the real bytes were stored
    assert get_dead_letter(runtime.redis, sha(victim)) is None  # out of triage
    trail = [(e.state, e.reason) for e in runtime.store.events(sha(victim))]
    assert trail[-3:] == [
        ("dead", "hash_mismatch"),
        ("pending", "resubmitted"),
        ("review", "low_confidence"),
    ]


# -- defect 2: scopes ---------------------------------------------------------------------


def login_form(client: httpx.Client) -> str:
    page = client.get("/login")
    found = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert found, page.text
    return found.group(1)


def sign_in(client: httpx.Client, who: str) -> httpx.Response:
    csrf = login_form(client)
    return client.post("/login", data={"token": TOKENS[who], "csrf_token": csrf, "next": "/queue"})


def test_each_token_does_what_its_scopes_allow_and_403_names_the_missing_one(
    stack: WebStack,
) -> None:
    data = lease_pdf(f"Scoped {uuid.uuid4().hex[:8]} LLC")
    doc_hash = stack.documents["harbor_point_office_lease.pdf"]
    with stack.client("alice") as reviewer:
        upload = reviewer.post("/v1/documents/upload", files={"file": ("x.pdf", data)})
        read = reviewer.get(f"/v1/documents/{doc_hash}")
        admin_only = reviewer.get("/v1/sessions")
    assert (upload.status_code, upload.json()["code"]) == (403, "missing_scope")
    assert "ingest" in upload.json()["message"]
    assert upload.json()["scope"] == "ingest"
    assert read.status_code == 200  # any token reads
    assert (admin_only.status_code, admin_only.json()["scope"]) == (403, "admin")
    assert stack.pipeline.runtime.store.document(sha(data)) is None
    with stack.client(None) as browser:
        ingest_sign_in = sign_in(browser, "ingest")
    assert ingest_sign_in.status_code == 403
    assert "no review scope" in ingest_sign_in.text
    with stack.client("ops") as ops:
        assert ops.get("/v1/sessions").status_code == 200
        assert ops.get("/v1/dead-letters").status_code == 200
        ops_upload = ops.post("/v1/documents/upload", files={"file": ("x.pdf", data)})
    assert (ops_upload.status_code, ops_upload.json()["scope"]) == (403, "ingest")
    # The two-part form still works (ingest + review, as before) and the log says to move.
    with stack.client("legacy") as legacy:
        assert legacy.get(f"/v1/documents/{doc_hash}").status_code == 200
    with stack.client(None) as browser:
        assert sign_in(browser, "legacy").status_code == 303
    assert "legacy has no scopes (name:token, deprecated)" in stack.log()


# -- defect 3: sessions end on the server -------------------------------------------------


def copied(cookie: str, stack: WebStack) -> httpx.Client:
    """Another browser holding a copy of the cookie."""
    return httpx.Client(base_url=stack.url, cookies={"lease_session": cookie}, timeout=30)


def test_sign_out_revocation_and_token_removal_end_a_session_everywhere(
    stack: WebStack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    with stack.client(None) as browser:
        assert sign_in(browser, "bob").status_code == 303
        cookie = browser.cookies["lease_session"]
        # Only a random id: no name, no token fingerprint, no CSRF secret (nor any encoding).
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", cookie)
        csrf = re.search(r'value="([0-9a-f]{40})"', browser.get("/queue").text)
        assert csrf
        assert csrf.group(1) not in cookie
        with copied(cookie, stack) as thief:
            assert thief.get("/queue").status_code == 200
            browser.post("/logout", data={"csrf_token": csrf.group(1)})
            after = thief.get("/queue")
        assert after.status_code == 303
        assert after.headers["location"].startswith("/login")

    # An operator ends a reviewer's sessions: over HTTP (admin scope) and from the shell.
    with stack.client(None) as browser, stack.client("ops") as ops:
        sign_in(browser, "carol")
        assert browser.get("/queue").status_code == 200
        ended = ops.delete("/v1/sessions", params={"reviewer": "carol"})
        assert ended.json() == {"ended": 1}
        assert browser.get("/queue").status_code == 303
    with stack.client(None) as browser:
        sign_in(browser, "dave")
        assert browser.get("/queue").status_code == 200
        done = subprocess.run(
            [sys.executable, "-m", "lease_parser", "sessions", "revoke", "--reviewer", "dave"],
            env={**stack.pipeline.env},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert "ended 1 session(s) of dave" in done.stdout
        assert browser.get("/queue").status_code == 303

    # A second replica shares the sessions; started without alice's token, it ends hers.
    with stack.client(None) as browser:
        sign_in(browser, "alice")
        cookie = browser.cookies["lease_session"]
    others = {name: token for name, token in TOKENS.items() if name != "alice"}
    env = {
        **web_env(stack.pipeline),
        "LEASE_API_TOKENS": ",".join(f"{n}:{t}:review" for n, t in others.items()),
    }
    log = tmp_path_factory.mktemp("replica") / "serve.log"
    with WebServer(env, log_path=log) as replica:
        replica_stack = WebStack(stack.pipeline, replica, log)
        with copied(cookie, stack) as same, copied(cookie, replica_stack) as there:
            assert same.get("/queue").status_code == 200
            assert there.get("/queue").status_code == 303


# -- defect 4: nothing is read before the caller is known ---------------------------------


def half_sent_upload(stack: WebStack, token: str | None) -> bytes:
    """Send the headers of a 45 MB upload and its first bytes, then wait for an answer
    while the rest is never sent: an answer proves the body was not read first."""
    port = int(stack.url.rsplit(":", 1)[1])
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (
        "POST /v1/documents/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"{auth}Content-Type: multipart/form-data; boundary=b\r\n"
        "Content-Length: 47185920\r\n\r\n"
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n'
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(head)
        answer = b""
        try:
            while chunk := conn.recv(4096):  # until the server closes: it answered in full
                answer += chunk
        except TimeoutError:
            return answer or b"(no answer: the server waits for the body)"
        return answer


def test_an_upload_without_a_valid_token_is_refused_before_its_body_is_read(
    stack: WebStack,
) -> None:
    assert half_sent_upload(stack, None).startswith(b"HTTP/1.1 401")
    assert half_sent_upload(stack, "not-a-token-of-ours-0000").startswith(b"HTTP/1.1 401")
    refused = half_sent_upload(stack, TOKENS["alice"])  # known, but no ingest scope
    assert refused.startswith(b"HTTP/1.1 403")
    assert b"missing_scope" in refused


# -- defect 5: every error is JSON with a stable code -------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        {"cursor": "MjAyNS0wMS0wMVQwMDowMDowMCswMDowMHw5OTk5OTk5OTk5OTk5OTk5OTk5OTk5"},
        {"since": "9999-12-31T23:59:59-05:00"},
        {"since": "0001-01-01T00:00:00+05:00"},
    ],
)
def test_list_queries_that_answered_a_plain_text_500(
    stack: WebStack, query: dict[str, str]
) -> None:
    with stack.client() as api:
        reply = api.get("/v1/documents", params=query)
    assert reply.status_code == 422
    assert reply.json()["code"] in ("invalid_cursor", "invalid_request")


# -- defect 6: the smaller ones -----------------------------------------------------------


def test_racing_uploads_of_the_same_new_bytes_queue_one_task(stack: WebStack) -> None:
    data = lease_pdf(f"Racing {uuid.uuid4().hex[:8]} LLC")
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(lambda i: stack.upload(f"race-{i}.pdf", data), range(8)))
    assert sorted(r.status_code for r in replies) == [200] * 7 + [202]
    assert len({r.json()["task_id"] for r in replies if r.json()["task_id"]}) == 1
    assert sum(not r.json()["duplicate"] for r in replies) == 1
    stack.wait_final(sha(data))
    events = stack.pipeline.runtime.store.events(sha(data))
    assert [e.reason for e in events].count("submitted") == 1


def test_bad_keys_names_and_formats_get_a_clear_answer_at_once(stack: WebStack) -> None:
    data_dir = str(stack.pipeline.settings.data_dir)
    with stack.client() as api:
        long_key = api.post("/v1/documents", json={"key": "a" * 1000})
        text = api.post("/v1/documents/upload", files={"file": ("notes.txt", b"just some notes\n")})
        empty = api.post("/v1/documents/upload", files={"file": ("empty.pdf", b"")})
        not_multipart = api.post("/v1/documents/upload", content=b"%PDF-1.4")
    assert (long_key.status_code, long_key.json()["code"]) == (422, "invalid_key")
    assert "255" in long_key.json()["message"]
    assert data_dir not in long_key.text
    assert (text.status_code, text.json()["code"]) == (415, "unsupported_format")
    assert (empty.status_code, empty.json()["code"]) == (422, "empty")
    assert (not_multipart.status_code, not_multipart.json()["code"]) == (
        415,
        "unsupported_media_type",
    )
    assert stack.pipeline.runtime.store.document(sha(b"just some notes\n")) is None


def test_a_new_upload_named_only_by_filename_star_is_stored_under_that_name(
    stack: WebStack,
) -> None:
    data = lease_pdf(f"Star {uuid.uuid4().hex[:8]} LLC")
    body = (
        b'--b\r\nContent-Disposition: form-data; name="file"; '
        b"filename*=UTF-8''l%C3%A9ase%20star.pdf\r\n\r\n" + data + b"\r\n--b--\r\n"
    )
    with stack.client() as api:
        reply = api.post(
            "/v1/documents/upload",
            content=body,
            headers={"Content-Type": "multipart/form-data; boundary=b"},
        )
    assert reply.status_code == 202, reply.text
    assert reply.json()["doc_key"] == f"uploads/{sha(data)}/l_ase_star.pdf"
    assert stack.wait_final(sha(data)).state in FINAL_STATES


def test_a_token_in_the_query_string_never_reaches_the_access_log(stack: WebStack) -> None:
    with stack.client(None) as anonymous:
        reply = anonymous.get("/v1/documents", params={"token": "query-secret-0123456789"})
    assert reply.status_code == 401  # the query string is no way to authenticate
    log = stack.log()
    assert "/v1/documents?token=***" in log
    assert "query-secret-0123456789" not in log


def test_wrong_sign_ins_are_throttled_per_address(stack: WebStack) -> None:
    # uvicorn takes the client address from X-Forwarded-For sent by 127.0.0.1 (a proxy it
    # trusts): a made-up address keeps the throttle away from the other tests.
    address = f"203.0.113.{uuid.uuid4().int % 250 + 1}"
    headers = {"X-Forwarded-For": address}
    with httpx.Client(base_url=stack.url, headers=headers, timeout=30) as browser:
        answers = []
        for _ in range(25):
            csrf = login_form(browser)
            reply = browser.post(
                "/login", data={"token": "a-wrong-token-000000", "csrf_token": csrf}
            )
            answers.append(reply.status_code)
        csrf = login_form(browser)
        right = browser.post("/login", data={"token": TOKENS["alice"], "csrf_token": csrf})
    assert answers[:19] == [401] * 19
    assert set(answers[20:]) == {429}
    assert right.status_code == 429
    assert int(right.headers["retry-after"]) > 0
    with stack.client(None) as elsewhere:  # another address is not affected
        assert sign_in(elsewhere, "alice").status_code == 303
    # Wrong bearer tokens count the same way; a right one still works from there.
    other = {"X-Forwarded-For": f"198.51.100.{uuid.uuid4().int % 250 + 1}"}
    with httpx.Client(base_url=stack.url, headers=other, timeout=30) as api:
        wrong = [
            api.get("/v1/documents", headers={"Authorization": "Bearer wrong-token-000000000"})
            for _ in range(21)
        ]
        right = api.get("/v1/documents", headers={"Authorization": f"Bearer {TOKENS['ingest']}"})
    assert [r.status_code for r in wrong] == [401] * 19 + [429] * 2
    assert wrong[-1].json()["code"] == "too_many_attempts"
    assert right.status_code == 200


def test_the_database_file_is_the_owners_only(stack: WebStack) -> None:
    data_dir = stack.pipeline.settings.data_dir
    for path in [data_dir / "lease.db", *data_dir.glob("lease.db-*")]:
        assert path.stat().st_mode & 0o077 == 0, f"{path.name} is {oct(path.stat().st_mode)}"


# -- probes and prefixes (issue 22) -------------------------------------------------------


def test_probes_answer_without_a_token_and_readiness_sees_a_broker_that_is_down(
    stack: WebStack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    with stack.client(None) as anonymous:
        alive = anonymous.get("/healthz")
        ready = anonymous.get("/readyz")
    assert (alive.status_code, alive.json()) == (200, {"status": "ok"})
    assert ready.status_code == 200
    assert ready.json()["checks"] == {"broker": "ok", "store": "ok"}
    root = tmp_path_factory.mktemp("no-broker")
    nowhere = f"redis://127.0.0.1:{free_port()}"
    env = {
        **web_env(stack.pipeline),
        "LEASE_DATA_DIR": str(root),
        "LEASE_BROKER_URL": f"{nowhere}/0",
        "LEASE_RESULT_BACKEND": f"{nowhere}/1",
    }
    with (
        WebServer(env, log_path=root / "serve.log") as lonely,
        httpx.Client(base_url=lonely.url, timeout=30) as anonymous,
    ):
        down = anonymous.get("/readyz")
        still_alive = anonymous.get("/healthz")
        csrf = login_form(anonymous)  # the form needs no Redis; a session does
        no_session = anonymous.post("/login", data={"token": TOKENS["alice"], "csrf_token": csrf})
    assert down.status_code == 503
    assert down.json()["checks"] == {"broker": "unreachable", "store": "ok"}
    assert "127.0.0.1" not in down.text  # no address in an unauthenticated answer
    assert still_alive.status_code == 200
    assert no_session.status_code == 503  # not a 500, not a session-less sign-in
    assert "session store" in no_session.text


def test_the_api_takes_the_unique_prefixes_the_cli_takes(stack: WebStack) -> None:
    doc_hash = stack.documents["riverside_sublease_tracked_changes.docx"]
    with stack.client() as api:
        short = api.get(f"/v1/documents/{doc_hash[:10].upper()}")
        source = api.get(f"/v1/documents/{doc_hash[:12]}/source")
        too_short = api.get(f"/v1/documents/{doc_hash[:7]}")
        unknown = api.get("/v1/documents/" + "0" * 12)
    assert (short.status_code, short.json()["doc_hash"]) == (200, doc_hash)
    assert source.status_code == 200
    assert sha(source.content) == doc_hash
    assert (too_short.status_code, too_short.json()["code"]) == (422, "invalid_hash")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")


def test_only_an_upload_may_be_a_large_body(stack: WebStack) -> None:
    """A sign-in form is read before anyone is known: it must not take in 50 MB."""
    big = b"token=" + b"x" * 1_100_000
    with stack.client(None) as anonymous:
        form = anonymous.post(
            "/login", content=big, headers={"Content-Type": "application/x-www-form-urlencoded"}
        )
    with stack.client() as api:
        submission = api.post("/v1/documents", content=b'{"key": "' + b"a" * 1_100_000 + b'"}')
    assert (form.status_code, form.json()["code"]) == (413, "too_large")
    assert (submission.status_code, submission.json()["code"]) == (413, "too_large")
