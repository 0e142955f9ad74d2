"""What a candidate looks like to the ranker: its kind of place, the words before it."""

from __future__ import annotations

import pytest

from lease_parser.extraction.candidates import (
    CANDIDATE_FEATURES,
    PLACES,
    context_features,
    place_features,
    place_of,
    position_features,
)


@pytest.mark.parametrize(
    ("source", "place"),
    [
        ("clean preamble", "preamble"),
        ("preamble (no year)", "preamble"),
        ("clean summary", "summary"),
        ("deposit summary line", "summary"),
        ("premises area label", "summary"),
        ("form field", "summary"),
        ("cover", "cover"),
        ('defined as "the Premises"', "definition"),
        ("rent schedule", "table"),
        ("column heading", "table"),
        ("stated in the rent schedule", "table"),
        ("signature", "signature"),
        ("notice", "notice"),
        ("option notice clause", "clause"),  # a clause about notice, not a notice address
        ("restated", "restated"),
        ("default for $ amounts", "default"),
        ("lease located in a GBP country (2)", "default"),
        ("security deposit clause", "clause"),
        ("letter of credit", "clause"),
    ],
)
def test_the_place_is_read_from_the_words_of_the_source(source: str, place: str) -> None:
    assert place_of(source) == place


def test_every_source_has_a_place_and_each_place_a_feature() -> None:
    assert place_of("a source nobody has named yet") == "clause"
    features = place_features({"summary", "signature"})
    assert {k for k, v in features.items() if v} == {"place=summary", "place=signature"}
    assert set(features) == {f"place={p}" for p in PLACES} <= set(CANDIDATE_FEATURES)


@pytest.mark.parametrize(
    ("before", "context"),
    [
        ("a non-refundable pet fee of ", "fee"),
        ("Total: ", "total"),
        ("thereafter the monthly rent shall increase to ", "later"),
        ("the Building contains ", "building"),
        ("Notices shall be sent c/o ", "notice"),
        ("Name: ", "signature"),
    ],
)
def test_the_words_before_a_value_are_its_context(before: str, context: str) -> None:
    text = "Filler. " + before + "$100.00"
    features = context_features(text, text.index("$"))
    assert features[f"context={context}"] == 1.0


def test_context_is_only_the_words_just_before() -> None:
    text = "pet fee " + "x" * 200 + " $1,000.00"
    assert context_features(text, text.index("$"))["context=fee"] == 0.0


def test_position_is_where_in_the_document_and_whether_on_the_first_pages() -> None:
    assert position_features(0, 1000, 1) == {"position": 0.0, "early": 1.0}
    assert position_features(900, 1000, 30) == {"position": 0.9, "early": 0.0}
