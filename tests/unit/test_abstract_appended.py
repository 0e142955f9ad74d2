"""A lease with its amendments in one file, through the core (abstract.py): the amendments
travel in the extraction message, are scored and typed, and leave in ``abstract --json``."""

from __future__ import annotations

import json

from lease_parser.abstract import Extraction, extract_stage, normalize_stage
from lease_parser.model import Route, result_json
from tests.unit.extraction.lease_text import document
from tests.unit.extraction.test_amendment import AMENDMENT, FILLER, LEASE


def test_appended_amendments_survive_the_message_and_are_scored() -> None:
    extraction = extract_stage(document(LEASE, AMENDMENT + FILLER))
    message = json.loads(json.dumps(extraction.to_message()))
    again = Extraction.from_message(message)
    assert [a.title for a in again.appended] == [a.title for a in extraction.appended]
    result = normalize_stage(again, 0.9)
    assert result.route is Route.REVIEW  # amendments are never applied unread
    [appended] = result_json(result)["amendments"]
    assert appended["fields"]["expiration_date"]["value"] == "2031-03-31"
    assert 0 < appended["fields"]["expiration_date"]["confidence"] <= 1


def test_a_message_from_before_appended_amendments_still_reads() -> None:
    message = extract_stage(document(LEASE)).to_message()
    del message["appended"]
    assert Extraction.from_message(message).appended == []
