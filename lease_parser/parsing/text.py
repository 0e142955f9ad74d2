"""Text normalization applied to every page before anything reads it.

Extraction regexes assume plain ASCII-ish spacing and quotes; real PDFs carry no-break and
zero-width spaces, soft hyphens, ligatures from typesetting, hyphenation at line ends and
curly quotes. Normalising once here keeps every extractor simple, and the offsets they
cite refer to this normalised text.
"""

from __future__ import annotations

import re
import unicodedata

_TRANSLATE = str.maketrans(
    {
        "\u00a0": " ",  # no-break space
        "\u2007": " ",  # figure space
        "\u202f": " ",  # narrow no-break space
        "\u2009": " ",  # thin space
        "\u2002": " ",
        "\u2003": " ",
        "\u3000": " ",
        "\t": " ",
        "\u200b": None,  # zero-width space
        "\u200c": None,  # zero-width non-joiner
        "\u200d": None,  # zero-width joiner
        "\u2060": None,  # word joiner
        "\ufeff": None,  # BOM / zero-width no-break space
        "\u00ad": None,  # soft hyphen
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",  # hyphen
        "\u2011": "-",  # non-breaking hyphen
        "\u2012": "-",  # figure dash
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2212": "-",  # minus sign
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
        "\r": "\n",
        "\x0b": "\n",
        "\x0c": "\n",
        "\u2028": "\n",
        "\u2029": "\n",
    }
)

# "commence-\nment" -> "commencement"; only a lowercase letter on both sides, so
# "Tenant-\nLandlord" style compounds and list dashes are left alone.
_LINE_END_HYPHEN = re.compile(r"([a-z])-\n[ ]*([a-z])")
# "$ 15,000" -> "$15,000"
_DOLLAR_SPACE = re.compile(r"\$\s+(?=\d)")
_SPACES = re.compile(r"[ ]{2,}")
_TRAILING = re.compile(r"[ ]+\n")
_BLANK_LINES = re.compile(r"\n{3,}")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def normalize_text(text: str) -> str:
    """Return ``text`` with spacing, quotes, dashes, ligatures and hyphenation made plain."""
    text = unicodedata.normalize("NFC", text)
    text = text.translate(_TRANSLATE)
    text = _CONTROL.sub("", text)
    text = _LINE_END_HYPHEN.sub(r"\1\2", text)
    text = _DOLLAR_SPACE.sub("$", text)
    text = _SPACES.sub(" ", text)
    text = _TRAILING.sub("\n", text)
    text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()
