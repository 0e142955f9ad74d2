"""Text normalization: a table of the cases real leases produce, and its properties."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lease_parser.parsing.text import _image, align_offsets, normalize_text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param("Base\u00a0Rent", "Base Rent", id="no-break space"),
        pytest.param("Base\u202fRent\u2009due", "Base Rent due", id="narrow and thin spaces"),
        pytest.param("Ten\u200bant\u200d\ufeff", "Tenant", id="zero-width characters"),
        pytest.param("com\u00admencement", "commencement", id="soft hyphen"),
        pytest.param("\ufb01rst \ufb02oor e\ufb00ective", "first floor effective", id="ligatures"),
        pytest.param("commence-\nment", "commencement", id="line-end hyphenation"),
        pytest.param("commence- \n  ment", "commencement", id="hyphenation with spaces"),
        pytest.param("Tenant-\nLandlord", "Tenant-\nLandlord", id="capitalised compound kept"),
        pytest.param("a-\nb-\nc", "abc", id="consecutive hyphenations in one pass"),
        pytest.param("\u201cLease\u201d and \u2018Term\u2019", "\"Lease\" and 'Term'", id="quotes"),
        pytest.param("$ 15,000.00", "$15,000.00", id="dollar spacing"),
        pytest.param("$\n15,000", "$15,000", id="dollar split over a line"),
        pytest.param("$ per month", "$ per month", id="dollar without figure kept"),
        pytest.param("2024\u20132029 \u2014 term", "2024-2029 - term", id="dashes"),
        pytest.param("non\ufffeexclusive", "non-exclusive", id="pdfium U+FFFE hyphen"),
        pytest.param("line one\r\nline two", "line one\nline two", id="pdfium CRLF is one break"),
        pytest.param("a\r\n\r\n\r\n\r\nb", "a\n\nb", id="blank lines collapsed"),
        pytest.param("a\tb   c \n d", "a b c\nd", id="tabs and runs of spaces"),
        pytest.param("bell\x07 nul\x00 c1\x85x", "bell nul c1\nx", id="control characters"),
        pytest.param("  \n padded \n ", "padded", id="stripped"),
        pytest.param("Cafe\u0301", "Café", id="NFC composition"),
        pytest.param("x\u2000y", "x y", id="en quad (NFC maps it to en space)"),
        pytest.param("", "", id="empty"),
    ],
)
def test_normalize_text(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


def test_superscripts_and_fractions_are_not_compatibility_folded() -> None:
    # NFKC would turn "$15,000²" (a footnote mark) into "$15,0002": a wrong rent.
    assert normalize_text("$15,000² ½") == "$15,000² ½"


_TRICKY = st.sampled_from(
    list("\u00a0\u200b\u00ad\ufb01\ufffe\r\n\t -$5a\u0301\u2000\x00\x85\u2028 ")
)
_TEXT = st.lists(st.one_of(_TRICKY, st.characters()), max_size=80).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_normalize_text_is_idempotent(raw: str) -> None:
    once = normalize_text(raw)
    assert normalize_text(once) == once


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalize_text_never_raises_and_leaves_no_control_characters(raw: str) -> None:
    out = normalize_text(raw)
    assert not any(ch in out for ch in "\r\t\x00\u00a0\u200b\u00ad")
    assert out == out.strip()


# What page text is made of: letters, digits, punctuation, the characters normalisation
# rewrites or removes, and combining marks.
_PAGE_TEXT = st.lists(
    st.one_of(
        _TRICKY,
        st.sampled_from(list("\ufb00\ufb03\u201c\u201d\u2019\u2013\u00e9 .,;:()'\"")),
        st.characters(min_codepoint=0x20, max_codepoint=0x7E),
    ),
    max_size=120,
).map("".join)


@pytest.mark.parametrize(
    ("raw", "cited"),
    [
        pytest.param("Base\u00a0Rent:  $\u00a015,000 a month", "$15,000", id="spaces"),
        pytest.param("the com-\nmencement date", "commencement", id="hyphenation"),
        pytest.param("the \ufb01rst \u201cTerm\u201d", 'first "Term"', id="ligature"),
        pytest.param("x\r\n\r\n\r\ny Cafe\u0301", "Café", id="NFC composition"),
    ],
)
def test_a_citation_maps_back_to_the_characters_it_was_read_from(raw: str, cited: str) -> None:
    text = normalize_text(raw)
    start = text.index(cited)
    offsets = align_offsets(raw, text)[start : start + len(cited)]
    first, end = offsets[0], offsets[-1] + 1
    while end < len(raw) and unicodedata.combining(raw[end]):
        end += 1
    assert normalize_text(raw[first:end]) == cited


@settings(max_examples=400, deadline=None)
@given(_PAGE_TEXT)
def test_every_normalised_character_maps_in_order_to_a_source_character_that_makes_it(
    raw: str,
) -> None:
    text = normalize_text(raw)
    offsets = align_offsets(raw, text)
    assert len(offsets) == len(text)
    assert -1 not in offsets
    assert offsets == sorted(offsets)
    for char, at in zip(text, offsets, strict=True):
        image = _image(raw[at])
        base = unicodedata.normalize("NFD", char)[:1]  # "é" composed from "e" and U+0301
        assert char in image or base in image or (char == "\n" and raw[at] == "\r")
