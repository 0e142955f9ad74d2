"""Text-layer quality and the OCR decision: a pure function of measurable page statistics.

OCR can only recover what the page *renders* but its text layer lacks: a raster image (a
scan, possibly under a thin or garbled OCR layer), text drawn as vector outlines, or glyphs
whose font maps them to the wrong characters. A page drawn only from text objects renders
exactly its text layer, so re-reading it with Tesseract returns the same words, however odd
they look. That is why an image-free page is OCR'd only for a broken encoding, never for
merely unusual text (a survey drawing's labels, a page of blanks).
"""

from __future__ import annotations

import re

from lease_parser.parsing.base import OcrReason, PageQuality

# Whole alphabetic tokens: "ggkz0rn2wzls000007.jpg" yields only "jpg", not five fragments.
_TOKEN = re.compile(r"[^\W_]+")
_ALPHA = re.compile(r"[A-Za-z]{2,}")

# The commonest English words plus lease vocabulary. Real prose scores 0.3-0.7, headings
# and forms 0.1-0.3, a broken font encoding ("Wkh ohdvh" for "The lease") about 0.
_VOCABULARY = frozenset(
    """
    the of and to in is that for it as was with be by on not he this are or his from at
    which but have an they you were her she there been has their one all would will if can
    shall may any such other than its said each upon under within without into after before
    we our us me my your him them who whom what when where why how so no yes do does did
    done up out about more most some only also then these those here over between
    through during against both either neither nor due same being had having must
    should could might made make new first last next two three four five six seven eight
    nine ten twenty thirty hundred thousand million
    lease landlord tenant premises rent term date building agreement section days month
    months year years payment pay paid notice party parties property commencement
    expiration provided herein thereof hereof hereunder therein including default security
    deposit option options square feet foot per annum monthly annual base additional
    charges expenses operating taxes insurance use common area areas sublease subtenant
    sublandlord lessor lessee office suite street period following amount dollars costs
    cost written consent time right rights exhibit schedule article page state county city
    company corporation limited liability delaware california texas york llc inc
    address name signature title witness whereof effective renewal extension amendment
    condition conditions repair repairs maintenance improvements work construction
    applicable law laws reasonable reasonably business percent interest event events
    parking utilities services service total rate rentable usable floor space
    """.split()
)


# What a font without a usable ToUnicode map yields: private-use code points, U+FFFD,
# controls and lone surrogates. Underscores, symbols and box marks are fine.
_UNREADABLE = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x9f\ud800-\udfff\ue000-\uf8ff\ufffd\U000f0000-\U0010ffff]"
)
_NON_SPACE = re.compile(r"\S")


def measure_text(text: str) -> PageQuality:
    """Character and vocabulary statistics of one page's text (its layout is measured apart)."""
    chars = len(_NON_SPACE.findall(text))
    if not chars:
        return PageQuality(chars=0, words=0, printable_ratio=0.0, dictionary_ratio=0.0)
    words = [t.lower() for t in _TOKEN.findall(text) if _ALPHA.fullmatch(t)]
    known = sum(1 for w in words if w in _VOCABULARY)
    return PageQuality(
        chars=chars,
        words=len(words),
        printable_ratio=1 - len(_UNREADABLE.findall(text)) / chars,
        dictionary_ratio=known / len(words) if words else 0.0,
    )


# Thresholds, each with the failure it catches (checked against every corpus page; see
# tests/unit/parsing/test_quality.py for the table of cases):
MIN_CHARS = 40  # fewer: an image-only page, or a page holding only a page number
MIN_IMAGE_COVERAGE = 0.1  # less: a logo or a signature, not the page's content
MIN_VECTOR_OBJECTS = 10  # an empty layer over this many paths: text drawn as outlines
MIN_PRINTABLE = 0.85  # lower: a broken font encoding (private-use glyphs, U+FFFD, controls)
SCAN_COVERAGE = 0.6  # a page mostly image ...
MIN_CHARS_ON_SCAN = 200  # ... with less text than this is a scan with a thin layer
MIN_DICTIONARY_ON_SCAN = 0.12  # an image under a layer this unlike English: OCR bleed
MIN_WORDS_FOR_GARBLED = 40  # fewer words say too little about the vocabulary
MIN_DICTIONARY = 0.03  # no image: only a wholesale mis-encoded font reads this unlike English


def ocr_reason(q: PageQuality) -> OcrReason | None:
    """Why the page's text layer is unusable and the page must be OCR'd, or ``None``."""
    if q.chars < MIN_CHARS:
        if q.image_coverage >= MIN_IMAGE_COVERAGE:
            return OcrReason.SCANNED
        # A blank page, or one holding only a page number: nothing more to read.
        return OcrReason.OUTLINED_TEXT if q.vector_objects >= MIN_VECTOR_OBJECTS else None
    if q.printable_ratio < MIN_PRINTABLE:
        return OcrReason.BROKEN_ENCODING
    if q.image_coverage >= SCAN_COVERAGE:
        if q.chars < MIN_CHARS_ON_SCAN:
            return OcrReason.SCANNED
        # Over a scan, a layer that does not read as English is an OCR layer gone wrong.
        if q.dictionary_ratio < MIN_DICTIONARY_ON_SCAN:
            return OcrReason.GARBLED_OCR_LAYER
    if q.words >= MIN_WORDS_FOR_GARBLED and q.dictionary_ratio < MIN_DICTIONARY:
        return OcrReason.GARBLED_WORDS
    return None


def needs_ocr(q: PageQuality) -> bool:
    """Decide whether a page's text layer is unusable and the page must be OCR'd."""
    return ocr_reason(q) is not None
