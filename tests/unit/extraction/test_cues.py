"""From cues to a value and its evidence: statements are counted per sentence, checks apart
from statements, the cited statement is the one whose value is kept, and any rival statement
is a doubt a person resolves."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from lease_parser.extraction.base import RawField
from lease_parser.extraction.cues import MAX_SINGLE_CUE, MAX_STRONG_CUE, Cue, resolve
from lease_parser.extraction.evidence import UNKNOWN_OCR_DOUBT, Doubt
from lease_parser.extraction.flat import FlatText, flatten
from lease_parser.extraction.ranking import current_ranker, ranking_with
from lease_parser.parsing.base import PageSource
from tests.unit.extraction.lease_text import document

TEXT = (
    "The Landlord is ACME LLC. The summary names Acme, LLC as Landlord. "
    "The signature block is signed by Bolt Inc. The notice goes to Cole Corp. The end."
)
FLAT = flatten(document(TEXT))


def cue(
    value: str,
    source: str,
    weight: float,
    *,
    strong: bool = False,
    check: bool = False,
    flat: FlatText = FLAT,
) -> Cue:
    """A cue at ``value``'s first place in the text (each value sits in its own sentence)."""
    start = flat.text.index(value)
    return Cue(value, start, start + len(value), source, weight, strong, check)


def same_name(a: str, b: str) -> bool:
    return a.lower().replace(",", "") == b.lower().replace(",", "")


def one(raw: RawField | None) -> RawField:
    assert raw is not None
    return raw


def test_no_cues_no_field() -> None:
    assert resolve("f", [], FLAT) is None


def test_a_cue_without_weight_is_no_cue() -> None:
    assert resolve("f", [cue("ACME LLC", "preamble", 0.0)], FLAT) is None


def test_one_statement_is_evidence_not_a_confidence() -> None:
    raw = one(resolve("f", [cue("ACME LLC", "preamble", 0.72)], FLAT))
    assert raw.value == "ACME LLC"
    assert raw.confidence == 0.0  # lease_parser.scoring.confidence sets it from the evidence
    assert raw.evidence["statements"] == 1
    assert raw.evidence["kinds"] == 1
    assert raw.evidence["strong"] == 0
    assert raw.evidence["checks"] == 0
    assert raw.evidence["prior"] == pytest.approx(0.72)
    assert raw.notes == ["stated by: preamble"]
    assert raw.doubts == {}


def test_a_weight_counts_no_more_than_the_single_cue_cap() -> None:
    raw = one(resolve("f", [cue("ACME LLC", "preamble", 0.99)], FLAT))
    assert raw.evidence["prior"] == pytest.approx(MAX_SINGLE_CUE)
    assert raw.evidence["support"] == pytest.approx(MAX_SINGLE_CUE)


def test_statements_in_two_sentences_count_twice() -> None:
    cues = [cue("ACME LLC", "preamble", 0.6), cue("Acme, LLC", "summary", 0.5)]
    raw = one(resolve("f", cues, FLAT, same_name))
    assert raw.evidence["statements"] == 2
    assert raw.evidence["kinds"] == 2
    assert raw.evidence["support"] == pytest.approx(0.8)


def test_cues_in_one_sentence_are_one_statement() -> None:
    """However many patterns read a sentence, it states the value once."""
    start = TEXT.index("ACME LLC")
    cues = [
        Cue("ACME LLC", start, start + 8, "preamble", 0.6),
        Cue("ACME LLC", start - 9, start + 8, "named in the preamble", 0.5),
    ]
    raw = one(resolve("f", cues, FLAT))
    assert raw.evidence["statements"] == 1
    assert raw.evidence["kinds"] == 1
    assert raw.evidence["support"] == pytest.approx(0.6)
    assert raw.notes == ["stated by: preamble"]


def test_two_sentences_of_one_kind_are_two_statements_but_one_kind() -> None:
    flat = flatten(document("Rent is $5. Rent is $5 again."))
    first, second = flat.text.index("$5"), flat.text.rindex("$5")
    cues = [Cue("5", first, first + 2, "clause", 0.6), Cue("5", second, second + 2, "clause", 0.6)]
    raw = one(resolve("f", cues, flat))
    assert raw.evidence["statements"] == 2
    assert raw.evidence["kinds"] == 1
    # Two sentences of the same kind are not independent sources of support.
    assert raw.evidence["support"] == pytest.approx(0.6)


def test_a_check_vouches_for_a_reading_without_stating_it_again() -> None:
    cues = [
        cue("ACME LLC", "preamble", 0.6),
        cue("ACME LLC", "words agree with figures", 0.9, check=True),
    ]
    raw = one(resolve("f", cues, FLAT))
    assert raw.evidence["statements"] == 1
    assert raw.evidence["checks"] == 1
    # A check's weight counts at most 0.5 towards choosing the value.
    assert raw.evidence["support"] == pytest.approx(1 - 0.4 * 0.5)
    assert raw.notes == ["stated by: preamble", "checked by: words agree with figures"]


def test_checks_count_once_per_kind() -> None:
    same = [
        cue("ACME LLC", "preamble", 0.6),
        cue("ACME LLC", "rate × area", 0.4, check=True),
        cue("ACME LLC", "rate × area", 0.4, check=True),
    ]
    assert one(resolve("f", same, FLAT)).evidence["checks"] == 1
    two = [*same, cue("ACME LLC", "annual = 12 × monthly", 0.4, check=True)]
    assert one(resolve("f", two, FLAT)).evidence["checks"] == 2


def test_a_value_only_checked_is_stated_by_nothing() -> None:
    raw = one(resolve("f", [cue("ACME LLC", "words", 0.5, check=True)], FLAT))
    assert raw.value == "ACME LLC"
    assert raw.evidence["statements"] == 0
    assert raw.evidence["checks"] == 1
    assert raw.notes[0] == "stated by: checks only"


def test_custom_sameness_groups_spellings() -> None:
    cues = [cue("ACME LLC", "preamble", 0.6), cue("Acme, LLC", "summary", 0.5)]
    raw = one(resolve("f", cues, FLAT, same_name))
    assert raw.evidence["statements"] == 2
    assert raw.evidence["rival_statements"] == 0
    assert Doubt.RIVAL_VALUE not in raw.doubts


def test_without_sameness_two_spellings_are_rivals() -> None:
    cues = [cue("ACME LLC", "preamble", 0.6), cue("Acme, LLC", "summary", 0.5)]
    raw = one(resolve("f", cues, FLAT))
    assert raw.value == "ACME LLC"
    assert raw.evidence["statements"] == 1
    assert Doubt.RIVAL_VALUE in raw.doubts


def test_the_value_is_the_one_its_cited_statement_reads() -> None:
    """A reviewer is shown the text the value came from: the best statement's own value and
    span, not another spelling's."""
    cues = [cue("Acme, LLC", "summary", 0.5), cue("ACME LLC", "preamble", 0.7)]
    raw = one(resolve("f", cues, FLAT, same_name))
    assert raw.value == "ACME LLC"
    assert TEXT[raw.start : raw.end] == raw.value
    assert raw.page == 1
    assert "ACME LLC" in raw.snippet


def test_a_strong_statement_is_cited_before_a_heavier_ordinary_one() -> None:
    cues = [
        cue("ACME LLC", "summary", 0.9),
        cue("Acme, LLC", "clean preamble", 0.85, strong=True),
    ]
    raw = one(resolve("f", cues, FLAT, same_name))
    assert raw.value == "Acme, LLC"
    assert TEXT[raw.start : raw.end] == "Acme, LLC"
    assert raw.evidence["strong"] == 1


def test_the_best_supported_value_wins_wherever_it_is_stated() -> None:
    cues = [
        cue("ACME LLC", "notice", 0.3),
        cue("Bolt Inc", "preamble", 0.7),
    ]
    raw = one(resolve("f", cues, FLAT))
    assert raw.value == "Bolt Inc"
    assert raw.evidence["rival_statements"] == 1
    assert raw.evidence["rival_support"] == pytest.approx(0.3)


@pytest.mark.parametrize("rival_weight", [0.6, 0.3, 0.05])
def test_any_rival_statement_is_a_doubt_however_weak(rival_weight: float) -> None:
    cues = [
        cue("ACME LLC", "preamble", 0.7),
        cue("Acme, LLC", "summary", 0.6),
        cue("Bolt Inc", "signature", rival_weight),
    ]
    raw = one(resolve("f", cues, FLAT, same_name))
    assert raw.value in {"ACME LLC", "Acme, LLC"}
    assert raw.evidence["rival_statements"] == 1
    assert raw.evidence["rival_support"] == pytest.approx(rival_weight)
    assert "'Bolt Inc'" in raw.doubts[Doubt.RIVAL_VALUE]
    assert any("'Bolt Inc'" in note for note in raw.notes)


def test_a_strong_statement_still_has_its_rival_doubted() -> None:
    cues = [
        cue("ACME LLC", "clean preamble", 0.85, strong=True),
        cue("Bolt Inc", "summary", 0.6),
    ]
    raw = one(resolve("f", cues, FLAT))
    assert raw.value == "ACME LLC"
    assert raw.evidence["strong"] == 1
    assert Doubt.RIVAL_VALUE in raw.doubts


def test_a_rival_that_is_only_checked_is_not_stated() -> None:
    cues = [cue("ACME LLC", "preamble", 0.7), cue("Bolt Inc", "rate × area", 0.4, check=True)]
    raw = one(resolve("f", cues, FLAT))
    assert raw.evidence["rival_statements"] == 0
    assert Doubt.RIVAL_VALUE not in raw.doubts


def test_a_stated_rival_behind_a_checked_one_is_still_a_doubt() -> None:
    cues = [
        cue("ACME LLC", "preamble", 0.7),
        cue("Bolt Inc", "rate × area", 0.5, check=True),
        cue("Cole Corp", "notice", 0.3),
    ]
    raw = one(resolve("f", cues, FLAT))
    assert raw.value == "ACME LLC"
    assert Doubt.RIVAL_VALUE in raw.doubts


def test_a_strong_statement_may_weigh_up_to_the_strong_cap() -> None:
    raw = one(resolve("f", [cue("ACME LLC", "clean preamble", 0.99, strong=True)], FLAT))
    assert raw.evidence["strong"] == 1
    assert raw.evidence["prior"] == pytest.approx(MAX_STRONG_CUE)
    assert raw.evidence["prior"] > MAX_SINGLE_CUE
    assert raw.notes == ["stated by: clean preamble"]


def test_a_strong_cue_on_an_ocr_page_is_an_ordinary_one() -> None:
    """Structure does not vouch for letters a scanner may have misread."""
    scanned = flatten(document(TEXT, ocr_confidence=95.0))
    strong = cue("ACME LLC", "clean preamble", 0.85, strong=True, flat=scanned)
    raw = one(resolve("f", [strong], scanned))
    assert raw.evidence["strong"] == 0
    assert raw.evidence["prior"] <= MAX_SINGLE_CUE
    assert raw.evidence["ocr"] == pytest.approx(0.05)
    assert "read from OCR text (page confidence 95)" in raw.notes


def test_poorer_ocr_is_more_doubt() -> None:
    def ocr(confidence: float) -> float:
        scanned = flatten(document(TEXT, ocr_confidence=confidence))
        raw = one(resolve("f", [cue("ACME LLC", "preamble", 0.7, flat=scanned)], scanned))
        return raw.evidence["ocr"]

    assert 0 < ocr(95.0) < ocr(60.0)
    assert one(resolve("f", [cue("ACME LLC", "preamble", 0.7)], FLAT)).evidence["ocr"] == 0


def test_an_ocr_page_without_a_confidence_reading_is_middling() -> None:
    scanned = document(TEXT)
    scanned.pages[0].source = PageSource.OCR
    flat = flatten(scanned)
    raw = one(resolve("f", [cue("ACME LLC", "preamble", 0.7, flat=flat)], flat))
    assert raw.evidence["ocr"] == pytest.approx(UNKNOWN_OCR_DOUBT)


def test_cues_far_apart_in_one_long_sentence_are_one_statement() -> None:
    sentence = (
        "THIS LEASE is made by and between ACME LLC, a Delaware limited liability company, "
        + "having its principal office in the county and state named in the notices clause, " * 4
        + "which ACME LLC shall be the Landlord under this Lease. The end."
    )
    flat = flatten(document(sentence))
    first, second = flat.text.index("ACME LLC"), flat.text.rindex("ACME LLC")
    assert second - first > 240
    cues = [
        Cue("ACME LLC", first, first + 8, "preamble", 0.72),
        Cue("ACME LLC", second, second + 8, "restated", 0.35),
    ]
    assert one(resolve("f", cues, flat)).evidence["statements"] == 1


def test_a_cover_line_and_the_next_page_are_two_statements() -> None:
    flat = flatten(
        document(
            "OFFICE LEASE DATED MAY 9, 2012", "THIS LEASE is dated May 9, 2012, by and between"
        )
    )
    first, second = flat.text.index("MAY 9, 2012"), flat.text.index("May 9, 2012")
    cues = [
        Cue("2012-05-09", first, first + 11, "cover", 0.55),
        Cue("2012-05-09", second, second + 11, "preamble", 0.72),
    ]
    assert one(resolve("f", cues, flat)).evidence["statements"] == 2


def test_a_learned_ranker_chooses_among_the_candidates() -> None:
    """With no ranker the extractors' own order of places wins (the summary's heavier
    weight); a ranker that learned signature blocks are telling for this field chooses
    the signed name, and the other candidate stays an alternative."""
    cues = [cue("ACME LLC", "summary", 0.6), cue("Bolt Inc.", "signature", 0.45)]
    assert one(resolve("landlord", cues, FLAT)).value == "ACME LLC"

    def signatures_first(name: str, features: Mapping[str, float]) -> float:
        return features.get("place=signature", 0.0)

    with ranking_with(signatures_first):
        chosen = one(resolve("landlord", cues, FLAT))
    assert chosen.value == "Bolt Inc."
    assert chosen.evidence["place=signature"] == 1.0
    assert [a.value for a in chosen.alternatives] == ["ACME LLC"]
    assert chosen.alternatives[0].evidence["place=summary"] == 1.0
    assert current_ranker() is None  # only for the block


def test_a_candidate_is_described_by_its_places_position_context_and_sanity() -> None:
    flat = flatten(document("Notices: c/o TENANT: Bolt Inc. " + "Filler words here. " * 40))
    raw = one(resolve("tenant", [cue("TENANT: Bolt Inc.", "notice", 0.3, flat=flat)], flat))
    features = raw.evidence
    assert features["place=notice"] == 1.0
    assert features["context=notice"] == 1.0
    assert features["sanity=role_word"] == 1.0
    assert features["position"] < 0.05
    assert features["early"] == 1.0


def test_each_stated_rival_is_kept_with_where_the_lease_states_it() -> None:
    cues = [cue("ACME LLC", "preamble", 0.72), cue("Bolt Inc.", "signature", 0.45)]
    raw = one(resolve("landlord", cues, FLAT))
    [rival] = raw.rivals
    assert rival.value == "Bolt Inc."
    page = document(TEXT).pages[rival.cited.page - 1]
    assert page.text[rival.cited.start : rival.cited.end] == "Bolt Inc."
    # Sent between stages with the field.
    assert RawField.from_dict(raw.to_dict()).rivals == raw.rivals
