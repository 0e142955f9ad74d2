"""The benchmark corpus: seeded, distinct, the page counts it claims, lease facts readable."""

from __future__ import annotations

import hashlib
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lease_parser.abstract import abstract_document
from lease_parser.bench.corpus import CorpusDoc, DocKind, generate_corpus, plan_kinds
from lease_parser.bench.lease_text import int_in_words, money_in_words
from lease_parser.extraction.money import find_money
from lease_parser.extraction.numbers import words_to_int
from lease_parser.parsing import ParseLimits, parse_document
from lease_parser.settings import Settings


@pytest.fixture(scope="module")
def corpus() -> list[CorpusDoc]:
    return generate_corpus(6, 1, seed=11)


@given(st.integers(1, 999_999_999))
def test_numbers_in_words_read_back_as_the_same_number(n: int) -> None:
    assert words_to_int(int_in_words(n)) == n


@given(st.integers(100, 99_999_999))
def test_money_in_words_and_figures_agree_for_the_extractor(cents: int) -> None:
    amount = Decimal(cents) / 100
    [mention] = find_money(money_in_words(amount))
    assert (mention.amount, mention.words_agree) == (amount, True)


@pytest.mark.parametrize(("docs", "scans"), [(10, 2), (3, 5), (1, 0), (60, 3)])
def test_plan_puts_scans_first_and_a_fifth_of_the_rest_in_docx(docs: int, scans: int) -> None:
    kinds = plan_kinds(docs, scans)
    n_scans = min(docs, scans)
    assert len(kinds) == docs
    assert kinds[:n_scans] == [DocKind.SCAN] * n_scans
    assert kinds.count(DocKind.DOCX) == round((docs - n_scans) * 0.2)


def test_the_same_seed_gives_the_same_bytes(corpus: list[CorpusDoc]) -> None:
    again = generate_corpus(6, 1, seed=11)
    assert [d.data for d in again] == [d.data for d in corpus]


def test_every_document_has_its_own_hash_and_another_seed_shares_none(
    corpus: list[CorpusDoc],
) -> None:
    hashes = {hashlib.sha256(d.data).hexdigest() for d in corpus}
    other = {hashlib.sha256(d.data).hexdigest() for d in generate_corpus(3, 0, seed=12)}
    assert len(hashes) == len(corpus)
    assert not hashes & other


def test_documents_have_the_kind_and_page_count_they_claim(corpus: list[CorpusDoc]) -> None:
    ranges = {DocKind.TEXT_PDF: (10, 60), DocKind.DOCX: (3, 12), DocKind.SCAN: (1, 2)}
    for doc in corpus:
        parsed = parse_document(doc.data, ParseLimits())
        low, high = ranges[doc.kind]
        assert low <= doc.pages <= high
        assert len(parsed.pages) == doc.pages, doc.name
        needs_ocr = bool(parsed.pages_needing_ocr)
        assert needs_ocr is (doc.kind is DocKind.SCAN), doc.name


def test_a_text_lease_abstracts_to_the_facts_it_was_written_from(
    corpus: list[CorpusDoc],
) -> None:
    doc = next(d for d in corpus if d.kind is DocKind.TEXT_PDF)
    fields = abstract_document(doc.data, Settings()).abstraction
    assert fields is not None
    assert fields.base_rent_monthly.value is not None
    assert fields.base_rent_monthly.value.amount == doc.facts.monthly_rent
    assert fields.term_months.value == doc.facts.term_months
    assert fields.landlord.value == doc.facts.landlord
