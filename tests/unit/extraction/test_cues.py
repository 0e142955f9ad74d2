"""Confidence from cues: agreement raises it, conflict caps it, one cue never commits."""

from __future__ import annotations

import pytest

from lease_parser.extraction.cues import MAX_SINGLE_CUE, MAX_STRONG_CUE, RIVAL_CAP, Cue, resolve
from lease_parser.extraction.flat import flatten
from tests.unit.extraction.lease_text import document

FLAT = flatten(document("x" * 200))


def cue(value: str, source: str, weight: float, at: int = 0) -> Cue:
    return Cue(value, at, at + 5, source, weight)


def test_one_cue_never_reaches_the_gate_however_strong() -> None:
    raw = resolve("f", [cue("a", "preamble", 0.99)], FLAT)
    assert raw is not None
    assert raw.confidence == pytest.approx(MAX_SINGLE_CUE)
    assert raw.notes == ["single cue: preamble"]


def test_independent_cues_combine() -> None:
    raw = resolve("f", [cue("a", "preamble", 0.6), cue("a", "summary", 0.5, 50)], FLAT)
    assert raw is not None
    assert raw.confidence == pytest.approx(0.8)


def test_the_same_kind_of_cue_twice_is_not_independent() -> None:
    raw = resolve("f", [cue("a", "clause", 0.6), cue("a", "clause", 0.6, 50)], FLAT)
    assert raw is not None
    assert raw.confidence == pytest.approx(0.6)


def test_a_supported_rival_caps_below_the_gate_and_is_noted() -> None:
    cues = [
        cue("a", "preamble", 0.7),
        cue("a", "summary", 0.6, 20),
        cue("b", "signature", 0.5, 40),
    ]
    raw = resolve("f", cues, FLAT)
    assert raw is not None
    assert raw.value == "a"
    assert raw.confidence == pytest.approx(RIVAL_CAP)
    assert any("'b'" in n for n in raw.notes)


def test_a_weak_rival_costs_a_little() -> None:
    strong = resolve("f", [cue("a", "preamble", 0.7), cue("a", "summary", 0.6, 20)], FLAT)
    dented = resolve(
        "f",
        [cue("a", "preamble", 0.7), cue("a", "summary", 0.6, 20), cue("b", "notice", 0.3, 40)],
        FLAT,
    )
    assert strong is not None
    assert dented is not None
    assert RIVAL_CAP < dented.confidence < strong.confidence


def test_custom_sameness_groups_spellings() -> None:
    cues = [cue("ACME LLC", "preamble", 0.6), cue("Acme, LLC", "summary", 0.5, 20)]
    raw = resolve(
        "f", cues, FLAT, lambda a, b: a.lower().replace(",", "") == b.lower().replace(",", "")
    )
    assert raw is not None
    assert raw.confidence == pytest.approx(0.8)


def test_no_cues_no_field() -> None:
    assert resolve("f", [], FLAT) is None


def test_a_strong_cue_may_stand_alone_above_the_single_cue_cap() -> None:
    raw = resolve("f", [Cue("a", 0, 5, "clean preamble", 0.85, strong=True)], FLAT)
    assert raw is not None
    assert raw.confidence == pytest.approx(0.85)
    assert MAX_SINGLE_CUE < raw.confidence <= MAX_STRONG_CUE
    assert raw.notes == ["single strong cue: clean preamble"]


def test_a_strong_cue_still_yields_to_a_supported_rival() -> None:
    cues = [
        Cue("a", 0, 5, "clean preamble", 0.85, strong=True),
        cue("b", "summary", 0.6, 40),
    ]
    raw = resolve("f", cues, FLAT)
    assert raw is not None
    assert raw.confidence == pytest.approx(RIVAL_CAP)


def test_a_strong_cue_on_an_ocr_page_is_an_ordinary_one() -> None:
    scanned = flatten(document("x" * 200, ocr_confidence=95.0))
    raw = resolve("f", [Cue("a", 0, 5, "clean preamble", 0.85, strong=True)], scanned)
    assert raw is not None
    assert raw.confidence < MAX_SINGLE_CUE
