"""The API's rules that need no server: token entries with scopes, keys, cursors and dates,
the access log's masking, multipart parts named by ``filename*``, and docs/http-api.md's list of
error codes being the codes the API answers. (Against the real server:
tests/integration/web/test_api_hardening.py.)"""

from __future__ import annotations

import base64
import logging
import re
from pathlib import Path

import pytest
from python_multipart.multipart import MultipartParser

from lease_parser.errors import ConfigurationError
from lease_parser.settings import Scope, load_settings, parse_api_tokens
from lease_parser.web import api, intake
from lease_parser.web.errors import HTTP_CODES, HTTP_ERRORS, ApiError
from lease_parser.web.middleware import RedactQuery, redact_query
from lease_parser.web.sessions import csrf_for, record_key
from lease_parser.web.uploads import _Parts

ROOT = Path(__file__).resolve().parents[3]
T = "t" * 20


def test_token_entries_carry_their_scopes_and_the_old_form_means_ingest_and_review() -> None:
    table = parse_api_tokens(f"ingest:{T}1:ingest, ops:{T}2:admin+review ,old:{T}3")
    assert table[f"{T}1"].scopes == {Scope.INGEST}
    assert table[f"{T}2"].scopes == {Scope.ADMIN, Scope.REVIEW}
    assert (table[f"{T}3"].scopes, table[f"{T}3"].legacy) == ({Scope.INGEST, Scope.REVIEW}, True)
    assert not table[f"{T}1"].allows(Scope.REVIEW)


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        (f"alice:{T}:reviewer", "must be ingest, review, admin joined by +"),
        (f"alice:{T}:", "must be ingest, review, admin joined by +"),
        (f"alice:{T}:review:extra", "not name:token:scopes"),
        (f"alice:{T}:ingest+", "must be ingest, review, admin joined by +"),
        (f":{T}:ingest", "not name:token:scopes"),
    ],
)
def test_a_bad_entry_fails_at_start_up_naming_the_variable_never_the_token(
    monkeypatch: pytest.MonkeyPatch, entry: str, why: str
) -> None:
    monkeypatch.setenv("LEASE_API_TOKENS", entry)
    with pytest.raises(ConfigurationError, match="LEASE_API_TOKENS") as refused:
        load_settings()
    assert why in str(refused.value)
    assert T not in str(refused.value)


def test_a_two_part_entry_starts_with_a_deprecation_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from lease_parser.web import create_app

    settings = load_settings(data_dir=tmp_path, api_tokens=f"ingest:{T}1:ingest,old:{T}2")
    with caplog.at_level(logging.WARNING, "lease_parser.web"):
        create_app(settings)
    [warning] = [r.getMessage() for r in caplog.records if "deprecated" in r.getMessage()]
    assert "old has no scopes" in warning
    assert "name:token:scopes" in warning
    assert T not in warning


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("a" * 1000, "over 255 bytes"),
        ("a/" * 600, "the limit is 1024"),
        ("é" * 200, "over 255 bytes"),  # 400 bytes in UTF-8
        ("incoming/\x00.pdf", "control characters"),
        ("incoming/\ud800.pdf", "valid UTF-8"),
    ],
)
def test_a_key_no_store_can_hold_is_a_422_naming_the_limit(key: str, problem: str) -> None:
    with pytest.raises(ApiError) as refused:
        intake.check_key(key)
    assert (refused.value.status_code, refused.value.code) == (422, "invalid_key")
    assert problem in str(refused.value.detail)
    assert intake.check_key("incoming/" + "a" * 251 + ".pdf/x.pdf")  # 255 bytes is fine


def cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "text",
    [
        cursor("2025-01-01T00:00:00+00:00|" + "9" * 25),
        cursor("2025-01-01T00:00:00+00:00|-1"),
        cursor("9999-12-31T23:59:59-05:00|1"),
        cursor("0001-01-01T00:00:00+05:00|1"),
        "%%%",
    ],
)
def test_a_cursor_out_of_range_is_invalid_not_a_500(text: str) -> None:
    with pytest.raises(ApiError) as refused:
        api._after(text)
    assert refused.value.code == "invalid_cursor"


@pytest.mark.parametrize(
    "text", ["9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+05:00", "2025-13-01"]
)
def test_since_outside_the_calendar_is_invalid_not_a_500(text: str) -> None:
    with pytest.raises(ApiError) as refused:
        api._since(text)
    assert (refused.value.status_code, refused.value.code) == (422, "invalid_request")


def test_secret_looking_query_values_are_masked_in_the_access_log() -> None:
    assert redact_query("/v1/documents?token=abc&limit=2") == "/v1/documents?token=***&limit=2"
    assert redact_query("/x?access_token=a;api_key=b") == "/x?access_token=***;api_key=***"
    assert redact_query("/v1/documents?cursor=Zm9v&state=dead") == (
        "/v1/documents?cursor=Zm9v&state=dead"
    )
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d', None, None
    )
    record.args = ("127.0.0.1:5", "GET", "/v1/documents?password=hunter2", "1.1", 401)
    RedactQuery().filter(record)
    assert "hunter2" not in record.getMessage()


def parse(body: bytes) -> _Parts:
    parts = _Parts(limit=1000)
    callbacks = {
        name: getattr(parts, name)
        for name in (
            "on_header_field",
            "on_header_value",
            "on_header_end",
            "on_headers_finished",
            "on_part_data",
            "on_part_end",
        )
    }
    parser = MultipartParser(b"b", callbacks)  # type: ignore[arg-type]
    parser.write(body)
    parser.finalize()
    return parts


def test_a_part_named_only_by_filename_star_is_the_file() -> None:
    parts = parse(
        b'--b\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n'
        b'--b\r\nContent-Disposition: form-data; name="file"; '
        b"filename*=UTF-8''l%C3%A9ase%20one.pdf\r\n\r\n%PDF-1.4 body\r\n--b--\r\n"
    )
    assert parts.found is not None
    assert (parts.found.filename, parts.found.data) == ("léase one.pdf", b"%PDF-1.4 body")
    assert (
        api.upload_key("0" * 64, parts.found.filename) == "uploads/" + "0" * 64 + "/l_ase_one.pdf"
    )


def test_the_session_cookie_holds_neither_the_csrf_token_nor_the_redis_key() -> None:
    session_id = "s" * 43
    assert session_id not in record_key(session_id)
    assert csrf_for("key", session_id) != csrf_for("other key", session_id)
    assert csrf_for("key", session_id) != csrf_for("key", "t" * 43)


# Codes in HTTP_ERRORS that no API route answers: the pipeline's document reasons (a dead
# document's `reason`, not an HTTP answer), the workspace's own, and start-up errors.
NOT_API_ANSWERS = {
    "configuration_error",
    "message_too_large",
    "unprocessable",
    "corrupt",
    "too_many_pages",
    "resource_bomb",
    "needs_credential",
    "review_refused",
    "invalid_values",
    "not_claimed",
    "unlock_refused",  # unlock is the CLI's (lease-parser unlock), not a route's
    "forbidden",  # HTTP_CODES' fallback for a bare 403, which no route raises
}


def api_codes() -> set[str]:
    source = "\n".join(p.read_text() for p in (ROOT / "lease_parser" / "web").glob("*.py"))
    raised = set(re.findall(r'ApiError\(\s*\d+,\s*"([a-z_]+)"', source))
    answered = set(re.findall(r'"code": "([a-z_]+)"', source))
    mapped = {code for _status, code in HTTP_ERRORS.values()} - NOT_API_ANSWERS
    return (raised | answered | mapped | set(HTTP_CODES.values())) - NOT_API_ANSWERS


def test_the_docs_list_every_error_code_the_api_answers_and_no_other() -> None:
    page = (ROOT / "docs" / "http-api.md").read_text()
    section = page[page.index("## Errors") :]
    table = section[section.index("| status | code | when |") :].split("\n\n", 1)[0]
    rows = [line.strip() for line in table.splitlines() if line.strip().startswith("| ")][1:]
    listed = {code for row in rows for code in re.findall(r"`([a-z_]+)`", row.split("|")[2])}
    assert "empty" in listed
    assert api_codes() <= listed, sorted(api_codes() - listed)
    assert listed <= api_codes(), sorted(listed - api_codes())
