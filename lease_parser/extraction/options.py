"""Renewal and extension options: how many, and how long each is.

"two (2) options to extend ... for five (5) years each", "two (2) options ... to extend the
Term of this Lease by five (5) years each", "for two (2) successive periods
of five (5) years each", "one (1) additional five (5) year term", "an option to renew this
lease for one year", "Renewal Terms: Two (2) ten (10) year terms". Defined terms count
too: a "First Renewal Term" and a "Second Renewal Term" are two options. "Tenant shall
have no option to extend", "Further term(s): None", "Number of options: 0" state zero
(and no term length); "no further option ... beyond the Renewal Term" does not.
"""

from __future__ import annotations

import re

from lease_parser.extraction.anchored import searched_near
from lease_parser.extraction.cues import Cue
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.numbers import (
    COUNT,
    NUMBER_WORDS,
    ORDINAL_WORD,
    ordinal_value,
    parse_count,
    words_to_int,
)

# Every option clause names its subject ("option", "renew", "extend", "further term"): the
# costly clause patterns below are searched only near those words.
_OPTION_WORD = re.compile(r"(?i)\b(?:renew|extend|extension|option|further)")


# A count clause runs ~300 characters; "after" also covers the 150 characters before a
# match in which _option_cues looks for its context word.
_near_option_words = searched_near(_OPTION_WORD, before=400, after=600)

_DURATION = (
    rf"(?:(?P<dwords>{NUMBER_WORDS})\s*(?:\(\s*(?P<dfig>\d{{1,3}})\s*\)\s*)?|(?P<dbare>\d{{1,3}})\s*)"
    r"[\s-]*(?P<unit>years?|months?)\b"
)
_QUALIFIER = (
    r"(?:(?:additional|successive|consecutive|further|separate|renewal|extension|extended)\s+)*"
)
_NOUN = r"(?:options?|periods?|terms?|renewals?|extensions?)\b"
# "two (2) options to extend the Term for five (5) years each"
_COUNT_OF = _near_option_words(
    re.compile(
        rf"(?i)\b{COUNT}\s+{_QUALIFIER}{_NOUN}[^.;]{{0,120}}?\b(?:of|for|by)\s+"
        rf"(?:a\s+(?:period|term)\s+of\s+)?{_DURATION}"
    )
)
# "two (2) additional one (1) year periods"
_COUNT_LONG = _near_option_words(
    re.compile(rf"(?i)\b{COUNT}\s+{_QUALIFIER}{_DURATION}\s+{_QUALIFIER}{_NOUN}")
)
# "an option to renew this lease agreement for one year"
# ... "Tenant may renew the Lease for an extended term of one year"
_SINGLE = _near_option_words(
    re.compile(
        r"(?i)(?:\b(?:an|one)\s+(?:\w+\s+)?option\s+(?:\([^)]*\)\s+)?to\s+(?:renew|extend)\b"
        r"|\b(?:tenant|lessee)\s+(?:is|shall\s+be)\s+(?:hereby\s+)?granted\s+(?:the|an?)\s+"
        r"(?:option|right)\s+to\s+(?:renew|extend)\b"
        r"|\b(?:tenant|lessee)\s+(?:may|shall\s+have\s+the\s+right\s+to)\s+(?:renew|extend)\s+"
        r"(?:this|the)\s+(?:lease|term)\b)"
        rf"[^.;]{{0,80}}?\bfor\s+(?:a\s+(?:period|term)\s+of\s+|an\s+additional\s+|a\s+further\s+"
        rf"|an?\s+(?:additional|extended|further|renewal)\s+(?:term|period)\s+of\s+)?{_DURATION}"
    )
)
_ORDINAL_TERM = _near_option_words(
    re.compile(
        rf'(?i)"(?P<ordinal>{ORDINAL_WORD})\s+(?:renewal|extension|option|extended)\s+(?:term|period)"'
    )
)
# "... for a period of five (5) years (the "First Renewal Term")": a defined option term.
_DEFINED_TERM = _near_option_words(
    re.compile(
        rf'(?i){_DURATION}[^."]{{0,25}}\(\s*(?:the|each|each,?\s+an?)\s+"\s*(?:{ORDINAL_WORD}\s+)?'
        r'(?:renewal|extension|option|extended)\s+(?:term|period)\s*"'
    )
)
_CONTEXT = re.compile(r"(?i)\b(?:renew\w*|extend\w*|extension\w*|option\w*)\b")
_ZERO = _near_option_words(
    re.compile(
        r"(?i)\b(?:shall|will|does)\s+(?:have|be\s+granted|not\s+have)\s+no\s+"
        r"(?:right|option)s?\s+(?:or\s+option\s+)?to\s+(?:renew|extend)\b"
        r"|\bno\s+(?:right|option)s?\s+to\s+(?:renew|extend)\s+(?:the\s+term\s+of\s+)?(?:this|the)\s+"
        r"(?:sub)?lease\b"
        r"|\bno\s+(?:renewal|extension)\s+(?:options?|rights?)\b"
    )
)
_ZERO_LABEL = _near_option_words(
    re.compile(
        r"(?i)\b(?:(?:renewal|extension)\s+options?|options?\s+to\s+(?:renew|extend)|further\s+"
        r"terms?(?:\s*\(s\))?|renewal\s+terms?(?:\s*\(s\))?)\s*[:.-]?\s*(?:none|n/a|not\s+applicable|"
        r"intentionally\s+(?:deleted|omitted))\b"
        r"|\bnumber\s+of\s+(?:renewal\s+|extension\s+)?options\s*[:.-]?\s*(?:0|zero|none)\b"
    )
)
# An amendment that takes the option away: "Tenant hereby waives its option to extend",
# "the Renewal Option ... is hereby deleted", "Tenant shall have no further right to renew".
_WAIVED = _near_option_words(
    re.compile(
        r"(?i)\bwaives?\s+(?:its|the|any|all|each)\s+(?:\w+\s+){0,3}?(?:rights?|options?)\s+"
        r"(?:or\s+options?\s+)?to\s+(?:renew|extend)\b"
        r"|\b(?:(?:renewal|extension)\s+options?|options?\s+to\s+(?:renew|extend))\b(?:[^.;]|\.(?=\d)){0,100}?"
        r"\b(?:is|are)\s+hereby\s+(?:deleted|waived|terminated|rescinded|removed|void)\b"
        r"|\bno\s+further\s+(?:rights?|options?)\s+(?:or\s+options?\s+)?to\s+(?:renew|extend)\b"
    )
)
# "no option to renew this Lease beyond the last Renewal Term", "no right to extend except
# as provided in Section 3", "may not be exercised if Tenant is in default": a limit or a
# condition on options, not a denial of them.
_BEYOND = re.compile(
    r"(?i)^[^.;]{0,40}?\b(?:beyond|after|following|except|other\s+than|unless|save\s+as|if|"
    r"while|when|during|so\s+long\s+as|in\s+the\s+event|at\s+any\s+time|until|before|prior)\b"
)
_NOT_EXERCISABLE = _near_option_words(
    re.compile(
        r"(?i)\boptions?\s+to\s+(?:extend|renew)[^.]{0,150}?\b(?:may|shall)\s+not\s+be\s+exercised\b"
    )
)
# A holdover "option to extend the Term for up to 90 days" is not a renewal option.
_HOLDOVER = re.compile(r"(?i)\bholdover|holding\s+over|up\s+to\b")
CLAUSE_WEIGHT = 0.55
AGREE_WEIGHT = 0.25
ORDINAL_WEIGHT = 0.5
ZERO_WEIGHT = 0.55
ZERO_LABEL_WEIGHT = 0.6
NOT_EXERCISABLE_WEIGHT = 0.4
SINGLE_WEIGHT = 0.45


def _months(match: re.Match[str]) -> tuple[int, bool | None] | None:
    words, figure = match.group("dwords"), match.group("dfig") or match.group("dbare")
    spelled = words_to_int(words) if words else None
    number = int(figure) if figure else spelled
    if not number:
        return None
    agree = None if spelled is None or figure is None else spelled == int(figure)
    return number * (12 if match.group("unit").lower().startswith("year") else 1), agree


def _option_cues(text: str, span: tuple[int, int]) -> tuple[list[Cue], list[Cue]]:
    counts: list[Cue] = []
    terms: list[Cue] = []
    for pattern in (_COUNT_OF, _COUNT_LONG):
        for match in pattern.finditer(text, *span):
            around = text[max(0, match.start() - 150) : match.end()]
            parsed_count = parse_count(match)
            duration = _months(match)
            if not _CONTEXT.search(around) or _HOLDOVER.search(match.group(0)):
                continue
            if parsed_count is None or duration is None or not 0 < parsed_count[0] <= 10:
                continue
            _add(counts, str(parsed_count[0]), match, "option clause", parsed_count[1])
            _add(terms, str(duration[0]), match, "option clause", duration[1])
    for match in _SINGLE.finditer(text, *span):
        duration = _months(match)
        if duration is not None and not _HOLDOVER.search(match.group(0)):
            counts.append(Cue("1", match.start(), match.end(), "single option", SINGLE_WEIGHT))
            _add(terms, str(duration[0]), match, "option clause", duration[1])
    for match in _DEFINED_TERM.finditer(text, *span):
        duration = _months(match)
        # The same sentence read twice is one statement, not two cues.
        restated = any(c.start < match.end() and match.start() < c.end for c in terms)
        if duration is not None and not restated:
            _add(terms, str(duration[0]), match, "defined option term", duration[1])
    return counts, terms


def _add(
    cues: list[Cue], value: str, match: re.Match[str], source: str, agree: bool | None
) -> None:
    weight = CLAUSE_WEIGHT if agree is not False else CLAUSE_WEIGHT / 2
    cues.append(Cue(value, match.start(), match.end(), source, weight))
    if agree:
        cues.append(cues[-1].words_check(AGREE_WEIGHT))


def _ordinal_cues(text: str, span: tuple[int, int]) -> list[Cue]:
    """A "Second Renewal Term" defined means (at least) two options."""
    found = [
        (ordinal_value(m.group("ordinal")) or 0, m) for m in _ORDINAL_TERM.finditer(text, *span)
    ]
    if not found:
        return []
    highest, match = max(found, key=lambda item: item[0])
    if highest < 2:
        return []
    return [Cue(str(highest), match.start(), match.end(), "numbered renewal terms", ORDINAL_WEIGHT)]


def _zero_cues(text: str, span: tuple[int, int]) -> list[Cue]:
    cues = []
    for pattern, source, weight in (
        (_ZERO, "no option granted", ZERO_WEIGHT),
        (_ZERO_LABEL, "options stated as none", ZERO_LABEL_WEIGHT),
        (_NOT_EXERCISABLE, "options not exercisable", NOT_EXERCISABLE_WEIGHT),
        (_WAIVED, "option waived or deleted", ZERO_WEIGHT),
    ):
        for match in pattern.finditer(text, *span):
            if not _BEYOND.match(text[match.end() : match.end() + 60]):
                cues.append(Cue("0", match.start(), match.end(), source, weight))
    return cues


def renewal_cues(flat: FlatText, span: tuple[int, int]) -> tuple[list[Cue], list[Cue]]:
    """Cues for the option count and for each option's length in months."""
    counts, terms = _option_cues(flat.text, span)
    ordinal = _ordinal_cues(flat.text, span)
    if ordinal:
        # Numbered terms outrank "the option to extend ... for five years" read as one.
        counts = [c for c in counts if c.source != "single option"] + ordinal
    # A lease that grants an option does not also grant none: a "no option" there restricts
    # the options it grants.
    zero = [] if counts else _zero_cues(flat.text, span)
    if zero:
        terms = []
    return counts + zero, terms
