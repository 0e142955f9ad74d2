"""Text-layer quality and the OCR decision: a pure function of measurable page statistics."""

from __future__ import annotations

import re

from lease_parser.parsing.base import PageQuality

_WORD = re.compile(r"[A-Za-z]{2,}")
_PRINTABLE = re.compile(r"[A-Za-z0-9\s.,;:'\"()$%&/\-#@!?*\[\]§]")

# Common English and lease words; a garbled text layer (broken font encoding) matches few.
_VOCABULARY = frozenset(
    """
    the of and to in a is that for it as was with be by on not he this are or his from at
    which but have an they you were her she there been has their one all would will if can
    shall may any such other than its said each upon under within without into after before
    lease landlord tenant premises rent term date building agreement section days month
    months year years payment pay paid notice party parties property commencement
    expiration provided herein thereof hereof including default security deposit option
    square feet per annum monthly annual base additional charges expenses taxes insurance
    use common area sublease subtenant sublandlord lessor lessee office suite street
    period first following amount dollars costs written consent time right
    """.split()
)


def measure_text(text: str) -> PageQuality:
    """Character and vocabulary statistics of one page's text layer."""
    stripped = text.strip()
    if not stripped:
        return PageQuality(chars=0, words=0, printable_ratio=0.0, dictionary_ratio=0.0)
    printable = len(_PRINTABLE.findall(stripped))
    words = _WORD.findall(stripped)
    known = sum(1 for w in words if w.lower() in _VOCABULARY)
    return PageQuality(
        chars=len(stripped),
        words=len(words),
        printable_ratio=printable / len(stripped),
        dictionary_ratio=known / len(words) if words else 0.0,
    )


# Thresholds, each with the failure it catches:
MIN_CHARS = 40  # fewer: an image-only page, or a page holding only a page number
MIN_PRINTABLE = 0.85  # lower: a broken font encoding (CID garbage, private-use glyphs)
MIN_DICTIONARY = 0.08  # lower over enough words: letters that are not words (OCR bleed)
MIN_WORDS_FOR_DICTIONARY = 20
IMAGE_COVERAGE_SCAN = 0.6  # a page mostly image with little text is a scan with a thin layer
MIN_CHARS_ON_IMAGE_PAGE = 200


def needs_ocr(q: PageQuality) -> bool:
    """Decide whether a page's text layer is unusable and the page must be OCR'd."""
    if q.chars < MIN_CHARS:
        return q.image_coverage > 0.0 or q.chars == 0
    if q.printable_ratio < MIN_PRINTABLE:
        return True
    if q.words >= MIN_WORDS_FOR_DICTIONARY and q.dictionary_ratio < MIN_DICTIONARY:
        return True
    return q.image_coverage >= IMAGE_COVERAGE_SCAN and q.chars < MIN_CHARS_ON_IMAGE_PAGE
