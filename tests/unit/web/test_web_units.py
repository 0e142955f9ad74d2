"""The web layer's pure parts: tokens in settings, the error mapping, edit forms, the order a
reviewer's keyboard follows. (The app itself is tested against a real server in
tests/integration/web.)"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from lease_parser import errors
from lease_parser.decisions import DecisionKind, FieldDecision
from lease_parser.errors import (
    ConfigurationError,
    LeaseParserError,
    NotClaimed,
    ReviewRefused,
)
from lease_parser.model import FieldProblem
from lease_parser.settings import load_settings
from lease_parser.web.api import content_type, upload_key
from lease_parser.web.errors import status_and_code
from lease_parser.web.forms import correction_value
from lease_parser.web.item_view import FieldRow, next_focus


def test_api_tokens_are_name_token_pairs_and_bad_ones_fail_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(
        "LEASE_API_TOKENS", " alice:aaaaaaaaaaaaaaaaaaaa , ingest:bbbbbbbbbbbbbbbbbbbb"
    )
    assert load_settings().api_token_names() == {
        "aaaaaaaaaaaaaaaaaaaa": "alice",
        "bbbbbbbbbbbbbbbbbbbb": "ingest",
    }
    for bad, why in [
        ("alice", "not name:token"),
        ("alice:short", "shorter than 16"),
        ("a:cccccccccccccccccccc,a:dddddddddddddddddddd", "must be different"),
        (":cccccccccccccccccccc", "not name:token"),
    ]:
        monkeypatch.setenv("LEASE_API_TOKENS", bad)
        with pytest.raises(ConfigurationError, match="LEASE_API_TOKENS") as refused:
            load_settings()
        assert why in str(refused.value)
        assert "cccc" not in str(refused.value)  # a message never quotes a token
    monkeypatch.setenv("LEASE_API_TOKENS", "alice:aaaaaaaaaaaaaaaaaaaa")
    assert "aaaa" not in repr(load_settings())


def test_the_server_refuses_to_start_without_tokens() -> None:
    from lease_parser.web import create_app

    with pytest.raises(ConfigurationError, match="LEASE_API_TOKENS=name:token"):
        create_app(load_settings())


@pytest.mark.parametrize(
    ("error", "answer"),
    [
        (errors.BrokerFullError("full"), (503, "broker_full")),
        (errors.BrokerUnavailable("down"), (503, "broker_unavailable")),
        (errors.ObjectNotFound("no"), (404, "object_not_found")),
        (errors.DocumentNotFound("no"), (404, "not_found")),
        (errors.StorageForbidden("no"), (403, "storage_forbidden")),
        (errors.DocumentTooLarge("big"), (413, "too_large")),
        (errors.InvalidHash("abc"), (422, "invalid_hash")),
        (NotClaimed("alice holds it"), (403, "not_claimed")),
        (ReviewRefused("changed"), (409, "review_refused")),
        (ReviewRefused("bad", [FieldProblem(field="x", problem="y")]), (422, "invalid_values")),
    ],
)
def test_errors_map_to_a_status_and_a_stable_code(
    error: LeaseParserError, answer: tuple[int, str]
) -> None:
    assert status_and_code(error) == answer


def test_a_schedule_is_edited_as_rows_and_an_escalation_as_kind_and_rate() -> None:
    raw, entered = correction_value(
        "rent_schedule",
        {
            "step-start-0": "1",
            "step-end-0": "12",
            "step-monthly-0": " 24062.50 ",
            "step-start-1": "2025-05-01",
            "step-monthly-1": "24784.38",
            "step-start-2": "",  # a blank row is dropped
            "csrf_token": "x",
        },
    )
    assert json.loads(raw) == [
        {"start": 1, "end": 12, "monthly": "24062.50", "annual": None, "per_sqft_annual": None},
        {
            "start": "2025-05-01",
            "end": None,
            "monthly": "24784.38",
            "annual": None,
            "per_sqft_annual": None,
        },
    ]
    assert len(entered["steps"]) == 3
    assert correction_value("rent_schedule", {"step-start-0": ""})[0] == ""  # not stated
    raw, _ = correction_value("escalation", {"kind": "fixed_percent", "rate": "3"})
    assert json.loads(raw) == {"kind": "fixed_percent", "rate": "3"}
    assert correction_value("escalation", {"kind": "", "rate": "3"})[0] == ""
    assert correction_value("tenant", {"value": "  Acme LLC "}) == (
        "Acme LLC",
        {"value": "Acme LLC"},
    )


def _row(name: str, doubtful: bool, decided: bool = False) -> FieldRow:
    decision = (
        FieldDecision(name, DecisionKind.CONFIRMED, 1, "a", dt.datetime.now(dt.UTC))
        if decided
        else None
    )
    problems = [{"text": "low", "kind": ""}] if doubtful else []
    return FieldRow(name, name, 1, 1, 0.5, 1, "", problems, decision, [], [])


def test_the_keyboard_goes_to_the_next_unchecked_doubt_then_to_approve() -> None:
    rows = [_row("a", True), _row("b", False), _row("c", True), _row("d", True, decided=True)]
    assert next_focus(rows, None) == "a"
    assert next_focus(rows, "a") == "c"
    assert next_focus(rows, "b") == "c"
    assert next_focus(rows, "c") == "a"  # wraps round to what is still unchecked
    assert next_focus([_row("a", True, decided=True)], "a") == "approve"


def test_uploads_are_stored_under_their_hash_and_a_clean_name() -> None:
    h = "a" * 64
    assert upload_key(h, "Lease (final).pdf") == f"uploads/{h}/Lease_final_.pdf"
    assert upload_key(h, "../../etc/passwd") == f"uploads/{h}/passwd"
    assert upload_key(h, "C:\\docs\\x.docx") == f"uploads/{h}/x.docx"
    assert upload_key(h, None) == f"uploads/{h}"
    assert upload_key(h, "...") == f"uploads/{h}"


def test_the_source_content_type_comes_from_the_bytes() -> None:
    assert content_type(b"%PDF-1.7\n...") == "application/pdf"
    assert content_type(b"\x89PNG\r\n\x1a\n...") == "image/png"
    assert content_type(b"\xff\xd8\xff\xe0") == "image/jpeg"
    assert content_type(b"II*\x00...") == "image/tiff"
    assert content_type(b"<html>") == "application/octet-stream"


def test_a_notice_window_is_shown_in_words_and_edited_as_json() -> None:
    from lease_parser.web.item_view import display_value

    window = {"least": {"count": 9, "unit": "months"}, "most": {"count": 12, "unit": "months"}}
    assert display_value("renewal_notice", window) == "9–12 months"


def test_values_are_accepted_as_people_type_them_and_refused_in_words() -> None:
    from lease_parser.web.forms import in_words, plain_value

    assert plain_value("lease_date", "02/28/2026") == "2026-02-28"
    assert plain_value("lease_date", "2026-02-28") == "2026-02-28"
    assert plain_value("base_rent_monthly", "$7,048.80") == "7048.80"
    assert plain_value("rentable_sqft", "8,750") == "8750"
    assert plain_value("tenant", "1,000 Acres LLC") == "1,000 Acres LLC"  # text is text
    refused = "'-5' is not valid: base_rent_monthly: ... greater than or equal to 0"
    assert in_words("base_rent_monthly", refused) == (
        "an amount cannot be negative: use a number like 7048.80"
    )
    assert "02/28/2026" in in_words("lease_date", "'soon' is not valid: ...")
    assert "base_rent" not in in_words("base_rent_monthly", "'x' is not valid: base_rent_monthly")
    schedule = correction_value(
        "rent_schedule", {"step-start-0": "05/01/2025", "step-annual-0": "288,750.00"}
    )
    assert json.loads(schedule[0])[0]["start"] == "2025-05-01"
    assert json.loads(schedule[0])[0]["annual"] == "288750.00"


def test_a_rival_value_is_found_where_the_lease_writes_it() -> None:
    from lease_parser.viewer import Span
    from lease_parser.web.rivals import find_rival, renderings, rival_values

    assert rival_values("also stated as '250000.00' (rent table); '24000.00' (preamble)") == [
        "250000.00",
        "24000.00",
    ]
    assert "250,000.00" in renderings("250000.00")
    assert "March 3, 2025" in renderings("2025-03-03")
    texts = ["Rent: $124,062.50 a month", "Months 1-12 $24,062.50; again 24,062.50"]
    cited = [Span(2, 13, 22)]  # the first statement on page 2 is the chosen value's own
    assert find_rival(texts, "24062.50", cited) == Span(2, 30, 39)
    assert find_rival(texts, "99.00", cited) is None


def test_a_rival_kept_by_extraction_is_boxed_where_it_was_read() -> None:
    from lease_parser.viewer import Span
    from lease_parser.web.rivals import Rival, rivals_of

    stored = {
        "doubts": {"rival_value": "also stated as '250000.00' (rent table)"},
        "rivals": [
            {"value": "250000.00", "provenance": {"page": 3, "start": 10, "end": 20, "text": "x"}}
        ],
    }
    # The pages' text is not searched: the citation is where the pipeline read it.
    assert rivals_of(stored, [], []) == [Rival("250000.00", Span(3, 10, 20))]
    older = {"doubts": stored["doubts"]}  # stored before rivals were kept: found in the text
    assert rivals_of(older, ["rent $250,000.00 a year"], []) == [Rival("250000.00", Span(1, 6, 16))]
