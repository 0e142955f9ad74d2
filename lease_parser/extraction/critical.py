"""What critical dates need beyond the term: the renewal notice and the tenant's break option.

- ``renewal_notice``: when notice exercising a renewal or extension option is due, counted
  back from the expiration ("Tenant shall exercise such option by written notice given not
  less than nine (9) months prior to the expiration of the Term"; "not more than 12 months'
  and not less than 9 months' notice prior to the expiration"). The statement must be about
  an option to renew or extend, given by the tenant, and count back from the end of a term:
  a letter of credit's, a policy's or the landlord's own notices are not it.
- ``termination_option_date`` and ``termination_notice``: a tenant's option to end the
  lease early ("Break Date means 23 June 2016 ... The Tenant may terminate the Contractual
  Term on the Break Date by giving ... not less than nine (9) months' previous notice";
  "Tenant may give written notice to terminate this lease as of April 30, 2009").
  Termination for casualty, condemnation, default or a late delivery is a remedy, not an
  option a portfolio team diarises, and is not read. A break option on any of several
  dates ("on 30 June 2027 or 30 June 2030") has no one break date: the dates are
  ``break_dates``, a list.

Each statement is a cue (extraction/cues.py): the value with where it was read; a window
whose words agree with its figures ("nine (9) months") adds a check.
"""

from __future__ import annotations

import json
import re

from lease_parser.extraction.base import RawField
from lease_parser.extraction.clauses import SENTENCE_END
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.dates import dates_in
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.notice import NoticeMention, notice_windows, window_value
from lease_parser.extraction.sections import primary_span
from lease_parser.parsing.base import Document

NOTICE_CLAUSE = 0.55
WORDS_AGREE = 0.25
BREAK_DATE_DEFINED = 0.62
BREAK_DATE_LABEL = 0.55
BREAK_DATE_CLAUSE = 0.55

# How far a sentence may reach around a notice period (long option sentences list
# conditions: "(a) ... (b) ...").
_BACK_CHARS = 600
_AHEAD_CHARS = 400

_OPTION_WORDS = re.compile(
    r"(?i)\b(?:renew\w*|extend|extension|extended\s+term|option\s+(?:period|term)|options?)\b"
)
# The renewal notice counts back from the end of a term.
_TERM_END = re.compile(r"(?i)\bexpir\w*|\bend\s+of\s+(?:the|this|such|each|any)\b")
_TERM_END_REACH = 90
_NOT_RENEWAL = re.compile(
    r"(?i)\bletter\s+of\s+credit|\binsurance\b|\bpolic(?:y|ies)\b|\bcertificates?\b|"
    r"\bexpansion\b|\bfirst\s+(?:refusal|offer)|\brelocat\w*|\bholdover\b|\bpurchase\b|"
    r"\bterminat\w*|\bcancel\w*|\bbreak\b|\bsurrender\b|\bguarant\w*|"
    # A notice that the tenant will leave is not one exercising an option.
    r"\bvacat\w*|\bmove[\s-]?out\b|\bnon-?renewal\b|\bnot\s+(?:want\w*|wish\w*|intend\w*)\s+to\s+renew"
)
# The landlord's notices (of the market rent, of a determination, requiring a removal)
# are not the tenant's.
_LANDLORDS_NOTICE = re.compile(
    r"(?i)\b(?:landlord|lessor)\s+(?:shall|has|will|may)\s+(?:have\s+)?(?:notif\w*|giv\w*|"
    r"deliver\w*|provid\w*|send\w*|sent|furnish\w*|the\s+(?:option|right))\b|"
    r"\bnotice\s+(?:(?:given|delivered|sent)\s+)?to\s+(?:the\s+)?(?:sub)?(?:tenant|lessee)\b|"
    r"\brent\s+notice\b|\blandlord['’]s\s+(?:estimate|determination)\b"
)
# Another right granted before the notice in its sentence: the notice is that right's
# ("the right to take ownership of the furniture ... not less than 90 days' notice").
_OTHER_RIGHT = re.compile(r"(?i)\b(?:right|option)\s+to\s+(?!renew|extend|exercise)\w+")
_LANDLORD_REACH = 200
# "a break clause", "the right to terminate", and a residential lease's buy-out ("the right
# to buy out of your Lease Contract early": the tenant's early termination, for a fee).
_BREAK = re.compile(
    r"(?i)\bbreak\b|\b(?:option|right)\s+to\s+terminate\b|\btermination\s+option\b|"
    r"\bbuy[\s-]?out\b|"
    r"\bearly\s+termination\s+(?:option|right)\b|"
    r"\b(?:tenant|lessee)\s+(?:may|shall\s+have\s+(?:the|a)\s+(?:one[\s-]time\s+)?right\s+to)\s+"
    r"(?:give\s+(?:written\s+)?notice\s+to\s+)?terminate\s+(?:this|the)\s+"
    r"(?:contractual\s+term|(?:sub)?lease)\b"
)
_NOT_BREAK = re.compile(
    r"(?i)\bcasualt\w*|\bdamage\w*|\bdestr\w*|\bcondemn\w*|\btaking\b|\btaken\b|\beminent\b|"
    r"\bevent\s+of\s+default|\bupon\s+(?:a\s+|any\s+)?default|\bbankrupt\w*|\binsolv\w*|"
    r"\babandon\w*|\benvironmental\b|\b(?:landlord|lessor)\s+(?:may|shall\s+have)\b|"
    r"\bassign\w*|\bsublet\w*|\btransfer\w*|\bnot\s+(?:yet\s+)?occurred\b|\bholdover\b|"
    r"\bletter\s+of\s+credit|\binsurance\b|\brenew\w*|\bextend\b|\bextension\b"
)
_DEFINED_BREAK_DATE = re.compile(
    r'(?i)\b(?:break|early\s+termination)\s+dates?"?\s*(?::|\bmeans?\b|\bshall\s+mean\b|\bis\b|'
    r"\bare\b)\s*$"
)
# "on 30 June 2027 or 30 June 2030", "30 June 2027, 30 June 2030 and 30 June 2033": the next
# date of a list of break dates follows the last with no more than this between them.
_NEXT_IN_LIST = re.compile(r"(?i)^\s*(?:,|;|\bor\b|\band(?:/or)?\b)\s*(?:,\s*)?(?:(?:on|the)\s+)*$")
_NAMES_BREAK_DATE = re.compile(
    r'(?i)^\s*,?\s*\(\s*(?:the\s+)?"(?:break|early\s+termination|termination)\s+date"'
)
_TERMINATE_AS_OF = re.compile(
    r"(?i)\bterminat\w*\s+(?:this|the)\s+(?:contractual\s+term|(?:sub)?lease)\s+"
    r"(?:(?:effective\s+)?(?:as\s+of|on|at\s+the\s+end\s+of|with\s+effect\s+from)|effective)\s+"
    r"(?:the\s+)?$"
)


def sentence_around(text: str, start: int, end: int, span: tuple[int, int]) -> tuple[int, int]:
    """The sentence holding ``text[start:end]``, at most a few hundred characters each way."""
    lo = max(span[0], start - _BACK_CHARS)
    ends = [m.end() for m in SENTENCE_END.finditer(text, lo, start)]
    hi = min(span[1], end + _AHEAD_CHARS)
    after = SENTENCE_END.search(text, end, hi)
    return (ends[-1] if ends else lo), (after.start() if after else hi)


def _notice_cues(flat: FlatText, mention: NoticeMention, source: str) -> list[Cue]:
    value = window_value(mention.window)
    weight = NOTICE_CLAUSE if mention.words_agree is not False else NOTICE_CLAUSE / 2
    cues = [Cue(value, mention.start, mention.end, source, weight)]
    if mention.words_agree:
        cues.append(cues[0].words_check(WORDS_AGREE))
    return cues


def _is_renewal_notice(text: str, mention: NoticeMention, span: tuple[int, int]) -> bool:
    lo, hi = sentence_around(text, mention.start, mention.end, span)
    sentence = text[lo:hi]
    lead = text[max(lo, mention.start - _LANDLORD_REACH) : mention.start]
    ahead = text[mention.end : min(hi, mention.end + _TERM_END_REACH)]
    return (
        _OPTION_WORDS.search(sentence) is not None
        and _TERM_END.search(ahead) is not None
        and _NOT_RENEWAL.search(sentence) is None
        and _LANDLORDS_NOTICE.search(lead) is None
        and _OTHER_RIGHT.search(text, lo, mention.start) is None
    )


def _is_break(text: str, start: int, end: int, span: tuple[int, int]) -> bool:
    lo, hi = sentence_around(text, start, end, span)
    sentence = text[lo:hi]
    lead = text[max(lo, start - _LANDLORD_REACH) : start]
    return (
        _BREAK.search(sentence) is not None
        and _NOT_BREAK.search(sentence) is None
        and _LANDLORDS_NOTICE.search(lead) is None
    )


def _windows(flat: FlatText, span: tuple[int, int]) -> list[NoticeMention]:
    """The agreement's notice windows, read once for renewal and break notices alike."""
    return flat.shared(f"notice windows {span}", lambda: notice_windows(flat.text, *span))


def renewal_notice_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for when a renewal option's exercise notice is due."""
    text = flat.text
    return [
        cue
        for mention in _windows(flat, span)
        if _is_renewal_notice(text, mention, span)
        for cue in _notice_cues(flat, mention, "option notice clause")
    ]


def termination_notice_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for the notice a tenant's break option needs."""
    text = flat.text
    return [
        cue
        for mention in _windows(flat, span)
        if _is_break(text, mention.start, mention.end, span)
        for cue in _notice_cues(flat, mention, "break clause")
    ]


def termination_date_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for the date a tenant's break option ends the lease on."""
    text = flat.text
    cues = []
    for mention in dates_in(flat, *span):
        before = text[max(span[0], mention.start - 60) : mention.start]
        after = text[mention.end : mention.end + 60]
        if _DEFINED_BREAK_DATE.search(before) or _NAMES_BREAK_DATE.match(after):
            source, weight = "defined break date", BREAK_DATE_DEFINED
        elif _TERMINATE_AS_OF.search(before) and _is_break(text, mention.start, mention.end, span):
            source, weight = "break clause", BREAK_DATE_CLAUSE
        else:
            continue
        lo, hi = sentence_around(text, mention.start, mention.end, span)
        if _NOT_BREAK.search(text, lo, hi) and source == "break clause":
            continue
        cues.append(Cue(mention.value.isoformat(), mention.start, mention.end, source, weight))
    return cues


def break_date_lists(flat: FlatText, span: tuple[int, int], cues: list[Cue]) -> list[Cue]:
    """Each break date's cue and the dates listed after it in its sentence ("on 30 June
    2027 or 30 June 2030"): every date a tenant's break option may end the lease on."""
    text = flat.text
    out: list[Cue] = []
    for cue in cues:
        out.append(cue)
        _, hi = sentence_around(text, cue.start, cue.end, span)
        last = cue.end
        for mention in dates_in(flat, cue.end, hi):
            if mention.start < last or not _NEXT_IN_LIST.match(text[last : mention.start]):
                break
            out.append(Cue(mention.value.isoformat(), mention.start, mention.end, cue.source, 0))
            last = mention.end
    return out


def break_dates_field(dates: list[Cue], flat: FlatText) -> RawField | None:
    """``break_dates`` when the lease states more than one, cited at the first."""
    distinct = sorted({c.value for c in dates})
    if len(distinct) < 2:
        return None
    first = min(dates, key=lambda c: c.start)
    last = max(dates, key=lambda c: c.end)
    value = json.dumps(distinct)
    return resolve("break_dates", [Cue(value, first.start, last.end, first.source, 0.5)], flat)


def drop_without_option(fields: dict[str, RawField]) -> None:
    """No renewal option, no notice to exercise one: a lease stating "Further term(s):
    None" may still print the standard renewal procedure."""
    count = fields.get("renewal_option_count")
    if count is not None and count.value == "0":
        fields.pop("renewal_notice", None)


def extract_critical_terms(document: Document) -> list[RawField]:
    """The renewal notice and the tenant's break option of the main agreement."""
    if not document.pages:
        return []
    flat = flat_text(document)
    span = primary_span(document)
    dates = break_date_lists(flat, span, termination_date_cues(flat, span))
    several = break_dates_field(dates, flat)
    found = [
        resolve("renewal_notice", renewal_notice_cues(flat, span), flat),
        # One date is the break date; of several, none is (docs/fields.md): they are a list.
        several or resolve("termination_option_date", dates, flat),
        resolve("termination_notice", termination_notice_cues(flat, span), flat),
    ]
    return [raw for raw in found if raw is not None]
