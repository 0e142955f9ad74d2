"""The term: its length, and its first and last day when stated as calendar dates.

- Length: "for a term of five (5) years", "shall be for a period of TWELVE (12) months",
  "continuing for 84 full calendar months", "two (2) years and nine (9) months",
  "Term: 156 full calendar months", "shall end on the last day of the one hundred
  twentieth (120th) full calendar month following the Commencement Date".
- Commencement only when a calendar date is stated as the start ("commencing on MARCH 1,
  2008", "Commencement Date: July 1, 2001"); "the later of July 1, 2020 and the date
  Landlord tenders possession" is an event, not a date, and yields nothing.
- Expiration only when stated as a calendar date ("ending at 11:59 p.m. on October 31,
  2008", "(the "Expiration Date")").

Renewal and extension terms, holdover periods and the master lease's term are not the
initial term. (Commencement + length = expiration is a relation: extraction/relations.py.)
An amendment's "term is extended through <date>" is
its expiration; its extension length is not an initial term, so no length is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from lease_parser.extraction.anchored import searched_near
from lease_parser.extraction.base import RawField
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.dates import dates_in
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.kind import classify_flat
from lease_parser.extraction.numbers import NUMBER_WORDS, words_to_int
from lease_parser.extraction.sections import Agreement, primary_agreement
from lease_parser.model import MAX_TERM_MONTHS, DocumentKind
from lease_parser.parsing.base import Document

# "five (5)", "TWELVE (12)", "84", "One"
_COUNT = rf"(?:(?P<w#>{NUMBER_WORDS})\s*(?:\(\s*(?P<f#>\d{{1,3}})\s*\))?|(?P<b#>\d{{1,3}}))"
_UNIT = r"(?:full\s+)?(?:calendar\s+|lease\s+|consecutive\s+)?(?P<u#>years?|months?)(?:\(s\))?"


def _part(n: int) -> str:
    return (_COUNT + r"\s*,?\s*" + _UNIT).replace("#", str(n))


_DURATION = rf"\b{_part(1)}(?:\s*(?:,|and|plus)\s*{_part(2)})?(?!\w)"
DURATION = re.compile(rf"(?i){_DURATION}")
# A gap that stays inside one clause ("this. lease" from OCR is not a sentence end).
_GAP = r"(?:[^.;:,]|\.(?!\s+(?-i:[A-Z])))"
_WIDE_GAP = r"(?:[^.;:]|\.(?!\s+(?-i:[A-Z])))"
_TERM_WORD = r"\b(?:initial\s+|primary\s+|original\s+|lease\s+|sublease\s+)?term\b"
# Length clauses and labels all name the term ("firm" in "years firm"); they are searched
# only near that word. A clause runs at most ~450 characters after it.
_TERM_WORD_ANCHOR = re.compile(r"(?i)\b(?:term|firm)")


_near_term_word = searched_near(_TERM_WORD_ANCHOR, before=60, after=500)

_LENGTH_CLAUSES = (
    # "the Term ... shall be for a period of five (5) years", "term ("Term") of 37 months"
    _near_term_word(
        re.compile(
            rf"(?i){_TERM_WORD}{_GAP}{{0,80}}?(?:\b(?:for|of|be|is)|,\s*which\s+is)\s+"
            rf"(?:a\s+(?:period|term)\s+of\s+|approximately\s+)?(?P<duration>{_DURATION})"
        )
    ),
    # "shall commence ... and shall continue for ten (10) years thereafter"
    _near_term_word(
        re.compile(
            rf"(?i){_TERM_WORD}{_WIDE_GAP}{{0,250}}?\bcontinu\w*\s+(?:for\s+)?"
            rf"(?:a\s+period\s+of\s+)?(?P<duration>{_DURATION})"
        )
    ),
)
# "Resident hereby leases a 1 unit for a period of 14 months", "Landlord rents the
# apartment to Tenant for a term of one (1) year": the letting verb states the term.
_LETS_FOR = searched_near(re.compile(r"(?i)\b(?:leas|rent|let|demis)"), before=0, after=200)(
    re.compile(
        rf"(?i)\b(?:leases?|rents?|lets?|demises?)\b{_GAP}{{0,90}}?\bfor\s+(?:a|an\s+initial)\s+"
        rf"(?:period|term)\s+of\s+(?P<duration>{_DURATION})"
    )
)
# '"Duration of The Lease" - A period of 60 months', "Tenancy Period: 12 months": a
# defined or labelled period that names the lease or tenancy.
_PERIOD_LABEL = searched_near(re.compile(r"(?i)\b(?:duration|period)\b"), before=40, after=120)(
    re.compile(
        r"(?i)\b(?:(?:duration|period)\s+of\s+(?:the\s+|this\s+)?(?:lease|tenancy|sublease)|"
        r"(?:lease|tenancy|rental|sublease)\s+(?:duration|period))\b\W{0,4}\s*(?:[:=-]|means|shall\s+mean|"
        r"is)?\s*(?:\W\s*)?(?:a\s+(?:period|term)\s+of\s+|approximately\s+)?"
        rf"(?P<duration>{_DURATION})"
    )
)
_RENEWAL = re.compile(
    r"(?i)\b(?:renew\w*|extend\w*|extension|option\w*|additional|further|successive|holdover|"
    r"holds?\s+over|holding\s+over|master|prime|underlying|original\s+lease|notice|amort\w*|"
    r"abate\w*|free|credit|guarant\w*|insurance|policy|warranty|license|loan|easement)\b"
)
_TERM_LABEL = _near_term_word(
    re.compile(
        r"(?i)(?<![\w'])(?:(?:(?:initial|original|sub)?lease\s+|sublease\s+|initial\s+)?term"
        r"(?:\s+of\s+(?:the\s+)?(?:sub)?lease)?|(?:years\s+)?firm(?:\s+term)?)\s*[:.]?\s*"
        rf"(?:approximately\s+|a\s+(?:period|term)\s+of\s+)?(?P<duration>{_DURATION})"
    )
)
_NTH_MONTH_END = re.compile(
    r"(?i)\b(?:end|expire|terminate)s?\s+on\s+the\s+last\s+day\s+of\s+the\s+"
    r"(?:[a-z-]+\s+){0,4}\(?(?P<n>\d{1,3})(?:st|nd|rd|th)\)?\s+(?:full\s+)?(?:calendar\s+)?"
    r"month\s+(?:following|after)\s+the\s+(?:Lease\s+)?Commencement"
)

_EVENT = re.compile(
    r"(?i)\b(?:later|earlier|sooner)\s+(?:of|to\s+occur)|\bthe\s+date\s+(?:on\s+which|that|"
    r"upon)|\bupon\b|\bfollowing\b|\bafter\b|\bwhen\b|\bestimated\b|\banticipated\b|"
    r"\bscheduled\b|\btarget\b|\bprojected\b|\bor\s+such\b"
)
# "commencing on March 1, 2008", "beginning March 1, 2024" (the date right after the verb).
_START = re.compile(
    r"(?i)\b(?:commenc\w*|begin\w*|start\w*)\s+(?:(?:on|as\s+of|from)\s+(?:the\s+)?)?"
    r"(?:(?:the\s+)?first\s+day\s+of\s+)?$"
    r"|\bfrom\s+and\s+including\s+$"
)
# "Commencement Date: Subject to Section 2.1 of Schedule F, February 1, 2023"
_SUBJECT_TO = r"(?:subject\s+to\s+[^,;:]{1,60},\s*)?"
_START_LABEL = re.compile(
    r"(?i)(?<!rent\s)(?<![\w'])(?:(?:sub)?lease\s+)?commencement\.?\s+date\s*:\s*"
    rf"{_SUBJECT_TO}$"
)
# "ending at 11:59 p.m. on October 31, 2028", "ends at 11:59 p.m. the 15th day of June".
_END = re.compile(
    r"(?i)\b(?:end\w*|expir\w*|terminat\w*)[\s.,']+"
    r"(?:at\s+\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m\.?\s+(?:on\s+)?|"
    r"(?:at\s+[^;]{0,30}?\s+)?(?:on|at\s+midnight\s+on)\s+)"
    r"(?:the\s+)?(?:last\s+day\s+of\s+)?$|\b(?:ending|expiring)\s+$|\b(?:extended|continue\s+on)\b[^.;]{0,50}?\b(?:through|until|to)\s+"
    r"(?:[^.;]{0,40}?\s+of\s+)?$|\bto\s+and\s+including\s+$"
)
_END_LABEL = re.compile(
    r"(?i)(?<![\w'])(?:(?:sub)?lease\s+)?(?:expiration|expiry|termination)\.?\s+date\s*:\s*"
    rf"{_SUBJECT_TO}$"
)
_DEFINES_START = re.compile(
    r'(?i)^\W{0,3}\(?\s*(?:the\s+)?"(?:(?:sub)?lease\s+)?commencement\.?\s*date"'
)
_DEFINES_END = re.compile(
    r'(?i)^\W{0,3}\(?\s*(?:the\s+)?"(?:the\s+)?(?:(?:sub)?lease\s+)?'
    r'(?:expiration|expiry|termination)\s*(?:date)?"'
)
_NOT_OURS = re.compile(
    r"(?i)\b(?:master|prime|underlying|over)\s*lease\b|\brent\b|\bpay\w*|\binstal\w*|"
    r"\bto\s+terminate\b|\boption\b|\bnotice\b|\bif\b|\bguarant\w*|\bletter\s+of\s+credit\b|"
    r"\binsurance\b|\bscheduled\b|\bestimated\b|\banticipated\b|\bprojected\b|\btarget\b|"
    # A date the lease may end on early is not the date it ends on.
    r"\b(?:may|might|could)\s+(?:be\s+)?terminat\w*|\bearly\s+terminat\w*|\bsooner\b|"
    r"\bright\s+to\s+terminate\b|\bdiplomatic\b"
)

TERM_CLAUSE = 0.6
TERM_LABEL = 0.6
RESTATED = 0.3
WORDS_AGREE = 0.55
SCHEDULE = 0.5
DATE_CLAUSE = 0.6
DATE_LABEL = 0.55
DATE_DEFINED = 0.62


@dataclass(frozen=True)
class Length:
    months: int
    agree: bool | None  # words and figures: agree, disagree, or only one written


def _count(match: re.Match[str], n: int) -> tuple[int, bool | None] | None:
    words, fig, bare = match.group(f"w{n}"), match.group(f"f{n}"), match.group(f"b{n}")
    spelled = words_to_int(words) if words else None
    figure = int(fig or bare) if (fig or bare) else None
    number = figure if figure is not None else spelled
    if number is None or number < 0:
        return None
    agree = None if spelled is None or figure is None else spelled == figure
    return number, agree


def parse_duration(match: re.Match[str]) -> Length | None:
    """Months in a ``DURATION`` match: "ten (10) years and three (3) months" -> 123."""
    total, agreements = 0, []
    for n in (1, 2):
        if match.group(f"u{n}") is None:
            continue
        counted = _count(match, n)
        if counted is None:
            return None
        number, agree = counted
        total += number * (12 if match.group(f"u{n}").lower().startswith("year") else 1)
        agreements.append(agree)
    if total <= 0:
        return None
    agree = False if False in agreements else (True if True in agreements else None)
    return Length(total, agree)


# A sentence boundary: ". The", "; and", "SECURITY DEPOSIT. 1.2" -- not "p.m. on", "No. 5",
# "this. lease" (OCR).
_BOUNDARY = re.compile(r"(?:(?<=[a-z0-9)\"\]]{2})|(?<=[A-Z]{3}))[.;]\s+(?=[A-Z0-9\"(])|;\s+")


def _sentence_before(text: str, start: int, chars: int) -> str:
    """Up to ``chars`` characters before ``start``, from the start of their sentence."""
    before = text[max(0, start - chars) : start]
    boundaries = list(_BOUNDARY.finditer(before))
    return before[boundaries[-1].end() :] if boundaries else before


def _length_cues(flat: FlatText, main: Agreement) -> list[Cue]:
    cues: list[Cue] = []
    text = flat.text
    for pattern in (*_LENGTH_CLAUSES, _LETS_FOR):
        for clause in pattern.finditer(text, main.start, main.end):
            duration_end = clause.end("duration")
            context = (
                _sentence_before(text, clause.start(), 120)
                + text[clause.start() : duration_end + 15]
            )
            if _RENEWAL.search(context):
                continue
            cues.extend(_length_cue(clause, "term clause", TERM_CLAUSE, cues))
    for label in (
        *_TERM_LABEL.finditer(text, main.start, main.end),
        *_PERIOD_LABEL.finditer(text, main.start, main.end),
    ):
        lead = text[max(0, label.start() - 12) : label.start()]
        if not _RENEWAL.search(lead + _sentence_before(text, label.start(), 40) + label.group(0)):
            cues.extend(_length_cue(label, "summary", TERM_LABEL, cues))
    for end in _NTH_MONTH_END.finditer(text, main.start, main.end):
        months = int(end.group("n"))
        cues.append(Cue(str(months), end.start("n"), end.end("n"), "month count", TERM_CLAUSE))
    return cues


def _length_cue(match: re.Match[str], source: str, weight: float, seen: list[Cue]) -> list[Cue]:
    """A length cue, plus a second cue when words and figures agree ("five (5) years")."""
    length = parse_duration(match)
    start, end = match.span("duration")
    if length is None or length.months > MAX_TERM_MONTHS or any(c.start == start for c in seen):
        return []
    if length.agree is False:
        weight -= 0.3
    if any(c.source == source for c in seen):
        source, weight = "restated", RESTATED
    value = str(length.months)
    cues = [Cue(value, start, end, source, weight)]
    if length.agree:
        cues.append(cues[0].words_check(WORDS_AGREE, "words = figures"))
    return cues


# "Months 1-12 ... 13-24 ... 73-84": a rent schedule whose periods run from month 1 without
# a gap ends with the term's last month.
_MONTH_RANGE = re.compile(r"(?<![\d/.,$-])(\d{1,3})\s*(?:-|to|through)\s*(\d{1,3})(?![\d/.,%])")
_MIN_CHAIN = 3
_UNIT_WORD = re.compile(r"(?i)\b(months?|years?)\b")


def _schedule_cues(flat: FlatText, main: Agreement) -> list[Cue]:
    ranges = [
        (int(m.group(1)), int(m.group(2)), m)
        for m in _MONTH_RANGE.finditer(flat.text, main.start, main.end)
        if 0 < int(m.group(1)) < int(m.group(2)) <= 600
    ]
    best: list[re.Match[str]] = []
    for index, (first, last, match) in enumerate(ranges):
        units = _UNIT_WORD.findall(flat.text[max(main.start, match.start() - 80) : match.start()])
        if first != 1 or not units or not units[-1].lower().startswith("month"):
            continue
        chain, expected = [match], last + 1
        for begin, finish, following in ranges[index + 1 : index + 80]:
            if begin == expected:
                if _RENEWAL.search(flat.text[following.end() : following.end() + 40]):
                    break  # extension-term rents continue the table; they are not the term
                chain.append(following)
                expected = finish + 1
        if len(chain) > len(best):
            best = chain
    if len(best) < _MIN_CHAIN:
        return []
    final = best[-1]
    return [Cue(final.group(2), final.start(2), final.end(2), "rent schedule", SCHEDULE)]


def _date_cues(flat: FlatText, main: Agreement, starts: bool, amendment: bool) -> list[Cue]:
    """Commencement (``starts``) or expiration dates stated as calendar dates."""
    cues: list[Cue] = []
    clause, label, defines = (
        (_START, _START_LABEL, _DEFINES_START) if starts else (_END, _END_LABEL, _DEFINES_END)
    )
    for mention in dates_in(flat, main.start, main.end):
        before = flat.text[max(main.start, mention.start - 120) : mention.start]
        after = flat.text[mention.end : mention.end + 60]
        sentence = _sentence_before(flat.text, mention.start, 160)
        if defines.match(after) and not re.search(r"(?i)\brent\s*$", sentence):
            source, weight = "defined date", DATE_DEFINED
        elif _NOT_OURS.search(sentence) or (starts and _EVENT.search(sentence[-60:])):
            continue
        elif label.search(before):
            source, weight = "summary", DATE_LABEL
        elif clause.search(before) and _TERM_CONTEXT.search(sentence):
            source, weight = "term clause", DATE_CLAUSE
        else:
            continue
        if amendment and not starts and not re.search(r"(?i)\bextended\b", sentence):
            weight -= 0.2  # an amendment restates the old expiration; the new one is "extended"
        if starts and re.match(r"(?i)\s*,?\s*or\b", after):
            continue  # "October 1, 2005 or the date Sublessor delivers": an event after all
        value = mention.value.isoformat()
        if any(c.source == source for c in cues if c.value == value):
            continue
        cues.append(Cue(value, mention.start, mention.end, source, weight))
    return cues


# "from June 1, 2022 to May 31, 2023", "Lease Term: June 1, 2022 through May 31, 2023":
# the term's first and last day as a range.
_RANGE_BEFORE = re.compile(
    r"(?i)(?:\bfrom(?:\s+and\s+including)?|\b(?:term|period|tenancy|dates?)\s*:?)\s+(?:the\s+)?$"
)
_RANGE_BETWEEN = re.compile(
    r"(?i)\s*,?\s*(?:(?:up\s+)?to(?:\s+and\s+including)?|through|thru|until|till|-|\u2013)\s*"
    r"(?:the\s+)?"
)


def _range_cues(flat: FlatText, main: Agreement) -> tuple[list[Cue], list[Cue]]:
    """Commencement and expiration cues from a stated range of the term's dates."""
    starts: list[Cue] = []
    ends: list[Cue] = []
    mentions = dates_in(flat, main.start, main.end)
    for first, last in pairwise(mentions):
        if not _RANGE_BETWEEN.fullmatch(flat.text, first.end, last.start):
            continue
        sentence = _sentence_before(flat.text, first.start, 160)
        if not (_RANGE_BEFORE.search(sentence) and _TERM_CONTEXT.search(sentence)):
            continue
        if _NOT_OURS.search(sentence) or re.search(r"(?i)\bextend", sentence):
            continue
        if first.value >= last.value:
            continue
        source = "summary" if ":" in sentence[-40:] else "term clause"
        weight = DATE_LABEL if source == "summary" else DATE_CLAUSE
        starts.append(Cue(first.value.isoformat(), first.start, first.end, source, weight))
        ends.append(Cue(last.value.isoformat(), last.start, last.end, source, weight))
    return starts, ends


_TERM_CONTEXT = re.compile(
    r"(?i)\bterms?\b|\blease\b|\bsublease\b|\bagreement\b|\btenancy\b|\brental\s+period\b"
)


def extract_term(document: Document) -> list[RawField]:
    flat = flat_text(document)
    main = primary_agreement(flat)
    kind = classify_flat(flat)
    amendment = kind is DocumentKind.AMENDMENT
    fields: dict[str, RawField] = {}
    range_starts, range_ends = ([], []) if amendment else _range_cues(flat, main)
    cue_sets = {
        "term_months": [] if amendment else _length_cues(flat, main) + _schedule_cues(flat, main),
        "commencement_date": _date_cues(flat, main, starts=True, amendment=amendment)
        + range_starts,
        "expiration_date": _date_cues(flat, main, starts=False, amendment=amendment) + range_ends,
    }
    for name, cues in cue_sets.items():
        best = resolve(name, cues, flat)
        if best is not None:
            fields[name] = best
    return list(fields.values())


__all__ = ["DURATION", "extract_term", "parse_duration"]
