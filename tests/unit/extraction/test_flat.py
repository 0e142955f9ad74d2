"""The flat document text and its map back to page offsets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lease_parser.extraction.flat import flat_text, flatten
from tests.unit.extraction.lease_text import document


def test_whitespace_runs_become_one_space_and_offsets_map_back() -> None:
    doc = document("THIS LEASE is\n\nmade   by and\nbetween", "7\n\nACME , LLC and BETA")
    flat = flatten(doc)
    assert flat.text == "THIS LEASE is made by and between ACME, LLC and BETA"
    start = flat.text.index("ACME")
    page, page_start, page_end = flat.locate(start, start + 4)
    assert page.number == 2
    assert page.text[page_start:page_end] == "ACME"


def test_one_page_number_line_is_dropped_at_each_end() -> None:
    doc = document("1\n\nentered into as of this", "2\n\n17\n\nday of April, 2008\n\nPage 2 of 9")
    assert flatten(doc).text == "entered into as of this 17 day of April, 2008"


def test_a_number_ending_a_page_numbered_at_its_top_is_text() -> None:
    """A rent table's row cut by the page break: "3" ends page 2, its cells open page 3."""
    doc = document("1\n\nLease Year Annual Rent\n2\n$10,300.00\n3", "2\n\n$10,609.00")
    assert flatten(doc).text == "Lease Year Annual Rent 2 $10,300.00 3 $10,609.00"


def test_a_span_across_pages_is_clipped_to_its_first_page() -> None:
    doc = document("end of one", "start of two")
    flat = flatten(doc)
    page, start, end = flat.locate(0, len(flat.text))
    assert page.number == 1
    assert page.text[start:end] == "end of one"


def test_field_cites_the_page_text() -> None:
    doc = document("Landlord:\n  Acme Holdings LLC")
    flat = flatten(doc)
    start = flat.text.index("Acme")
    raw = flat.field("landlord", "Acme Holdings LLC", 0.9, start, start + 17)
    page = doc.pages[0]
    assert page.text[raw.start : raw.end] == "Acme Holdings LLC"
    assert "Acme Holdings LLC" in raw.snippet


def test_flat_text_is_cached_per_document() -> None:
    doc = document("text")
    assert flat_text(doc) is flat_text(doc)
    assert flat_text(document("text")) is not flat_text(doc)


def test_empty_document() -> None:
    assert flatten(document("")).text == " "


_WORDS = st.sampled_from(["Tenant", "shall", "pay", "$1,000", ",", ";", ")", "(the", "12", "Suite"])
_SPACES = st.sampled_from([" ", "  ", "\n", " \n ", "\t", "\n\n"])


@settings(max_examples=150, deadline=None)
@given(
    pages=st.lists(
        st.lists(st.tuples(_WORDS, _SPACES), min_size=0, max_size=60), min_size=1, max_size=4
    )
)
def test_every_flat_character_maps_to_the_same_character_in_its_page(
    pages: list[list[tuple[str, str]]],
) -> None:
    texts = ["".join(word + space for word, space in page) for page in pages]
    doc = document(*texts)
    flat = flatten(doc)
    for index, char in enumerate(flat.text):
        page = doc.pages[flat.page_number(index) - 1]
        offset = flat.page_offset(index)
        if char == " ":
            assert 0 <= offset < max(len(page.text), 1)
        else:
            assert page.text[offset] == char, (index, char)
