"""Text normalization applied to every page before anything reads it.

Extraction regexes assume plain ASCII-ish spacing and quotes; real PDFs carry no-break and
zero-width spaces, soft hyphens, ligatures from typesetting, hyphenation at line ends and
curly quotes. Normalising once here keeps every extractor simple, and the offsets they
cite refer to this normalised text.

``normalize_text`` is idempotent (a hypothesis property test holds it to that): a page
stored as JSON and normalised again by a later stage must not shift a single offset.
"""

from __future__ import annotations

import re
import unicodedata

_SPACE = " "
_TRANSLATE = str.maketrans(
    {
        **dict.fromkeys("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006", _SPACE),
        **dict.fromkeys("\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t", _SPACE),
        # Zero-width characters and the soft hyphen carry no text.
        **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u00ad\uffff", None),
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u0060\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        # Dashes and minus signs. pdfium reports a typeset hyphen it could not classify as
        # U+FFFE ("non\ufffeexclusive" in three corpus PDFs).
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufffe", "-"),
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
        **dict.fromkeys("\r\x0b\x0c\x85\u2028\u2029", "\n"),
    }
)

# pdfium ends every line with "\r\n": one line break, not two.
_CRLF = re.compile(r"\r\n")
# C0/C1 control characters other than the newline (tabs were made spaces above).
_CONTROL = re.compile(r"[\x00-\x09\x0e-\x1f\x7f-\x9f]")
_TRAILING = re.compile(r"[ ]+(?=\n)|(?<=\n)[ ]+")
# "commence-\nment" -> "commencement"; only a lowercase letter on both sides, so
# "Tenant-\nLandlord" style compounds and list dashes are left alone. Lookarounds (not
# groups) so "a-\nb-\nc" joins fully in one pass.
_LINE_END_HYPHEN = re.compile(r"(?<=[a-z])-\n(?=[a-z])")
# "$ 15,000" -> "$15,000"
_DOLLAR_SPACE = re.compile(r"\$[ \n]+(?=\d)")
_SPACES = re.compile(r"[ ]{2,}")
_BLANK_LINES = re.compile(r"\n{3,}")


def normalize_text(text: str) -> str:
    """Return ``text`` with spacing, quotes, dashes, ligatures and hyphenation made plain."""
    text = _CRLF.sub("\n", text)
    # NFC first (it maps U+2000 to U+2002, which the table then makes a space); the table
    # only yields ASCII or removes characters, so a second NFC is needed only where a
    # removal brought a combining mark next to a new base character.
    text = unicodedata.normalize("NFC", text).translate(_TRANSLATE)
    text = unicodedata.normalize("NFC", _CONTROL.sub("", text))
    text = _SPACES.sub(" ", text)
    text = _TRAILING.sub("", text)
    text = _LINE_END_HYPHEN.sub("", text)
    text = _DOLLAR_SPACE.sub("$", text)
    text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()


# How far ahead in the source a character of the normalised text is looked for. Everything
# normalisation deletes between two kept characters is short (a "\r", spaces, "-\n", a
# zero-width character), so a longer gap means the two texts differ there: that character
# stays unmapped rather than the alignment jumping ahead and losing its place.
_ALIGN_LOOKAHEAD = 64


def _image(char: str) -> str:
    """What normalisation makes of one character on its own."""
    return unicodedata.normalize("NFC", char).translate(_TRANSLATE)


def align_offsets(source: str, text: str) -> list[int]:
    """For each character of ``text`` (``normalize_text`` of ``source``, or close to it),
    the index in ``source`` it came from, or -1 where none is found.

    Normalisation only deletes characters or replaces one with others (a ligature with
    two or three letters, a curly quote with a straight one, a letter and a combining mark
    composed into one), never reorders and never deletes a letter: so each character of
    ``text`` is matched greedily with the next source character whose normalised image
    holds it (or its base letter, for a composed one). That lets a citation (offsets into
    the normalised page text) be drawn where the characters are on the page (pdfium char
    indices, OCR words), whatever normalisation removed in between.
    """
    out: list[int] = []
    j = 0
    pending = ""  # the unused rest of a multi-character image (ligatures)
    for char in text:
        base = _base(char)
        if pending and pending[0] in (char, base):
            out.append(j - 1)
            pending = pending[1:]
            continue
        pending = ""
        found = _find(source, j, char, base)
        if found is None:
            out.append(-1)
            continue
        at, image = found
        out.append(at)
        j = at + 1
        used = char if char in image else base
        pending = image[image.index(used) + 1 :]
    return out


def _base(char: str) -> str:
    """The letter under a composed character ("é" → "e"); the character itself otherwise."""
    return unicodedata.normalize("NFD", char)[:1] or char


def _find(source: str, start: int, char: str, base: str) -> tuple[int, str] | None:
    for at in range(start, min(len(source), start + _ALIGN_LOOKAHEAD)):
        image = _image(source[at])
        if char in image or base in image:
            return at, image
        if char == "\n" and source[at] == "\r":
            return at, "\n"
    return None
