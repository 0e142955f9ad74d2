"""The date of the agreement: "made as of", "dated", "entered into on", "effective as of".

Cues: the preamble ("THIS LEASE made as of the 28th day of February, 2020"; a strong cue
when the opener dates itself and the parties follow at once, see ``_clean_date``), the cover page
("DATED MAY 10, 2019"), summary labels ("Lease Date: ..."), a defined term the preamble
points to ("effective as of the Lease Commencement Date" -> that term's stated date), a
rider's "made a part of the Lease dated as of ...", and the signature blocks' "Date:".
A preamble that states day and month but no year ("the 23 day of April") supports a full
date elsewhere with the same day and month. The lease an amendment or sublease refers to
("the Lease dated October 2, 2003") is another agreement's date, not this one's.
"""

from __future__ import annotations

import re

from lease_parser.extraction.base import RawField
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.dates import MONTHS, DateMention, dates_in
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.kind import classify_flat
from lease_parser.extraction.sections import Agreement, primary_agreement
from lease_parser.model import DocumentKind
from lease_parser.parsing.base import Document

PREAMBLE = 0.72
# The opening sentence dating itself, and nothing else: a strong cue (see _clean_date).
CLEAN_PREAMBLE = 0.85
COVER = 0.55
SUMMARY = 0.55
DEFINED = 0.6
RIDER = 0.6
SIGNATURE = 0.4
PARTIAL = 0.45
NAMED = 0.35
RESTATED = 0.4

_PREAMBLE_CHARS = 320
_PARTIES = re.compile(
    r"(?i)\b(?:by\s+and\s+)?between\b|\bamong\b|\bby\s+the\s+following\s+parties\b"
)
# "DATED AS OF MAY 10, 2019" on a cover page; "Date: January 5, 2021" atop a short lease.
_COVER_DATED = re.compile(r"(?i)\b(?:dated\b\s*(?:as\s+of)?|date\s*:)\s*:?\s*$")
_LABEL = re.compile(
    r"(?i)\b(?:(?:sub)?lease\s+(?:reference\s+|contract\s+)?date|date\s+of\s+(?:this\s+)?"
    r"(?:sub|under)?(?:lease|tenancy|agreement|contract)(?:\s+agreement)?|effective\s+date|"
    r"execution\s+date|(?:tenancy\s+)?agreement\s+date|contract\s+date)\s*:?\s*$"
)
# An agreement without a "THIS LEASE" opener dating itself before the parties: "Lease
# Contract Drawn Up and Signed on 3 July 2003 Between ...", "Agreement made on ... between".
_MADE_ON = re.compile(
    r"(?i)\b(?:drawn\s+up(?:\s+and\s+signed)?|signed|made(?:\s+and\s+(?:signed|entered\s+into))?|"
    r"executed|entered\s+into)\s+(?:on|at|this)\s+(?:the\s+)?$"
)
_MADE_ON_PARTIES = 200
# A particulars table read without its cell borders: "PARTICULARS Date 12 May 2021 Landlord
# ...", "BASIC LEASE INFORMATION Lease Date 5 June 2020": the row's label has no colon.
_PARTICULARS = re.compile(
    r"\b(?:PARTICULARS|Particulars|KEY\s+TERMS|Key\s+Terms|BASIC\s+(?:LEASE\s+)?(?:INFORMATION|"
    r"TERMS|PROVISIONS)|Basic\s+(?:Lease\s+)?(?:Information|Terms|Provisions)|LEASE\s+SUMMARY|"
    r"Lease\s+Summary|SUMMARY\s+OF\s+(?:BASIC\s+)?(?:LEASE\s+)?TERMS)\b"
)
_PARTICULARS_CHARS = 1200
# The row's label: "Date" alone (not "Commencement Date": the word before it is not a
# name's), "Lease Date", "Date of this Lease".
_ROW_LABEL = re.compile(
    r"(?:(?:[^\w\s-]\s*|\b(?:PARTICULARS|Particulars|TERMS|Terms|INFORMATION|Information|"
    r"PROVISIONS|Provisions|SUMMARY|Summary)\s+)(?:Date|DATE)|\b(?:Lease|LEASE|Agreement|AGREEMENT)"
    r"\s+(?:Date|DATE)|\b(?:Date|DATE)\s+(?:of|OF)\s+(?:this\s+|THIS\s+)?(?:Lease|LEASE|"
    r"Agreement|AGREEMENT))\s+$"
)
# "04/13/23 04:33:44 PM": an e-signature's or a printer's timestamp, never the lease date.
_TIME_FOLLOWS = re.compile(r"\s*(?:at\s+)?\d{1,2}:\d{2}")
# Signature blocks: a "Date:" label near "By:", "/s/", "Name:", "Title:" (case matters:
# "its mortgage dated October 30, 2018" is a reference, not a signature).
_SIGNATURE_DATE = re.compile(r"\b(?:Date|DATE|Dated|DATED)\s*:?\s*$")
_SIGNATURE_NEAR = re.compile(
    r"\b(?:By|BY)\s*:|/s/|\b(?:Name|NAME|Title|TITLE|Its|ITS)\s*:|\bIts\s|Printed\s+Name"
)
_COVER_PAGE = re.compile(r"(?i)\W*(?:as\s+)?(?:listed|set\s+forth|stated|shown)\s+on\s+the\s+cover")
_RIDER = re.compile(
    r"(?i)\b(?:made\s+a\s+part\s+of|rider\s+to|addendum\s+to|attached\s+to)\s+the\s+lease\s+"
    r"dated\s+(?:as\s+of\s+)?$"
)
_DATE_MARKER = re.compile(
    r'(?i)\s*,?\s*\(\s*(?:the\s+|this\s+)?"(?:effective|execution|(?:sub)?lease|agreement)\s+date"'
    r'|\s*,?\s*\(\s*(?:the\s+)?"date\s+of\s+(?:this\s+)?(?:sub)?lease"'
)
_DEFINED_SLOT = re.compile(r"(?i)\bas\s+of\s+the\s+(?P<term>(?:[A-Z][a-z]+\s+){0,3}Date)\b")
_PARTIAL = re.compile(
    r"(?i)\b(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\s+day\s+of\s+(?P<month>"
    + "|".join(MONTHS)
    + r")\b(?!\s*,?\s*(?:19|20)\d\d)"
)


# Between the opener's verb and the date: "THIS LEASE is made [and entered into] [effective]
# as of [the]", "... is dated [as of]", "... entered into on", "made this".
_DATING_GAP = re.compile(
    r"(?i)\s*(?:and\s+(?:is\s+)?)?(?:(?:entered\s+)?into\s*|executed\s*)?(?:effective\s*)?"
    r"(?:(?:as\s+)?of\s+|on\s+)?(?:this\s+|the\s+)?"
)
_WRITTEN_MONTH = re.compile(r"(?i)\b(?:" + "|".join(MONTHS) + r")\b")
# After the date, before the parties: only its own name ('(the "Effective Date")') and
# "[, and is entered into] by and between".
_TO_PARTIES = re.compile(
    r'(?i)\s*,?\s*(?:\((?:the\s+|this\s+)?"[^"()]{2,40}"\)\s*,?\s*)?'
    r"(?:(?:and\s+)?is\s+(?:made\s+)?(?:and\s+)?(?:entered\s+into\s*)?,?\s*)?"
    r"(?:by\s+and\s+)?(?:between|among)\b"
)


def _clean_date(flat: FlatText, main: Agreement, mention: DateMention, others: int) -> bool:
    """ "THIS LEASE is made and entered into as of March 3, 2025, by and between": the
    opener dates the agreement it opens, with one date written with its month's name, and
    the parties follow at once. Every such preamble in the development corpus, the
    repository samples and the public leases spot-checked stated the label's date; a second
    date ("to be effective as of ...") or anything else in between does not qualify."""
    text = flat.text
    return (
        others == 1
        and _DATING_GAP.fullmatch(text, main.opener_end, mention.start) is not None
        and _WRITTEN_MONTH.search(text, mention.start, mention.end) is not None
        and _TO_PARTIES.match(text, mention.end) is not None
    )


def _preamble_cues(flat: FlatText, main: Agreement) -> list[Cue]:
    """Dates in the opening sentence, before the parties are named; a date the drafter
    names the agreement's own ('(the "Effective Date")') is a second, weaker cue."""
    if not main.opener_end:
        return []
    hi = min(main.end, main.opener_start + _PREAMBLE_CHARS)
    parties = _PARTIES.search(flat.text, main.opener_start, hi)
    if parties:
        hi = parties.end() + 40
    else:  # "This letter agreement ... amends the Lease as hereinafter set forth: 1. ..."
        stop = re.search(r"[:;]|\.\s+(?=[A-Z0-9])", flat.text[main.opener_end : hi])
        hi = main.opener_end + stop.start() if stop else hi
    cues = []
    mentions = list(dates_in(flat, main.opener_start, hi))
    for mention in mentions:
        window = max(main.opener_start, mention.start - _REFERENCE_CHARS)
        reference = _REFERENCE.search(flat.text, window, mention.start)
        if reference and reference.start() != main.opener_start:
            continue  # "This addendum ... of the Lease dated April 5, 2004": another date
        value = mention.value.isoformat()
        if _clean_date(flat, main, mention, len(mentions)):
            cues.append(
                Cue(value, mention.start, mention.end, "clean preamble", CLEAN_PREAMBLE, True)
            )
        else:
            cues.append(Cue(value, mention.start, mention.end, "preamble", PREAMBLE))
        marker = _DATE_MARKER.match(flat.text, mention.end)
        if marker:
            cues.append(
                Cue(value, mention.start, marker.end(), "named the agreement's date", NAMED)
            )
    return cues


def _context_cues(flat: FlatText, main: Agreement, amendment: bool) -> list[Cue]:
    """Cover "DATED", summary labels, riders and signature blocks."""
    cues = []
    cover_end = main.opener_start if main.opener_end else main.start + 1500
    for mention in dates_in(flat, main.start, main.end):
        if _TIME_FOLLOWS.match(flat.text, mention.end):
            continue
        before = flat.text[max(main.start, mention.start - 60) : mention.start]
        source = _source(flat, main, mention, before, cover_end, amendment)
        if source is not None:
            cues.append(Cue(mention.value.isoformat(), mention.start, mention.end, *source))
    return cues


def _source(
    flat: FlatText,
    main: Agreement,
    mention: DateMention,
    before: str,
    cover_end: int,
    amendment: bool,
) -> tuple[str, float] | None:
    if not main.opener_end and mention.start < main.start + 600 and _RIDER.search(before):
        return ("rider", RIDER) if not amendment else None
    if (
        not main.opener_end
        and mention.start < cover_end
        and _MADE_ON.search(before)
        and _PARTIES.search(flat.text, mention.end, mention.end + _MADE_ON_PARTIES)
    ):
        return "preamble", PREAMBLE
    cover = _COVER_DATED.search(before) if mention.start < cover_end else None
    if cover:
        # An amendment's "RE: Lease Dated: ..." names the lease it amends.
        if amendment and re.search(r"(?i)lease\s+dated\s*:?\s*$", before):
            return None
        # A bare "Date:" counts only on its own line ("Delivery Date:" is another date).
        label_at = mention.start - len(before) + cover.start()
        if cover.group(0).lower().startswith("dated") or flat.starts_line(label_at):
            return "cover", COVER
    if _LABEL.search(before):
        return "summary", SUMMARY
    if _ROW_LABEL.search(before) and _in_particulars(flat, main, mention.start):
        return "summary", SUMMARY
    # The signatures may come before the date or, as an amendment often ends ("Dated:
    # March 22, 2007 WITNESSES ... By /s/"), right after it.
    around = flat.text[max(main.start, mention.start - 200) : min(main.end, mention.end + 200)]
    if _SIGNATURE_DATE.search(before) and _SIGNATURE_NEAR.search(around):
        return "signature", SIGNATURE
    return None


def _in_particulars(flat: FlatText, main: Agreement, at: int) -> bool:
    heading = _PARTICULARS.search(flat.text, max(main.start, at - _PARTICULARS_CHARS), at)
    return heading is not None


def _defined_cues(flat: FlatText, main: Agreement) -> list[Cue]:
    """ "effective as of the Lease Commencement Date" -> the date stated for that term."""
    if not main.opener_end:
        return []
    slot = _DEFINED_SLOT.search(flat.text, main.opener_start, main.opener_end + 120)
    if slot is None:
        return []
    term = re.escape(" ".join(slot.group("term").split())).replace(r"\ ", r"\s+")
    stated = re.compile(rf"(?i)\b{term}\s*(?:\([^()]{{0,200}}\))?\s*:?\s*(?=\w)")
    cues = []
    for match in stated.finditer(flat.text, main.start, main.end):
        if _COVER_PAGE.match(flat.text, match.end()):
            # "Lease Date: As listed on the cover page": the cover's date is the defined one.
            cues += [
                Cue(c.value, match.start(), match.end(), "defined", DEFINED, check=True)
                for c in _context_cues(flat, main, amendment=False)
                if c.source == "cover"
            ]
        for mention in dates_in(flat, match.end(), match.end() + 40):
            if mention.start == match.end():
                cues.append(
                    Cue(mention.value.isoformat(), mention.start, mention.end, "defined", DEFINED)
                )
    return cues


def _partial_cues(flat: FlatText, main: Agreement, others: list[Cue]) -> list[Cue]:
    """ "made ... on the 23 day of April" (no year) agrees with a full date of 23 April."""
    if not main.opener_end:
        return []
    partial = _PARTIAL.search(flat.text, main.opener_start, main.opener_start + _PREAMBLE_CHARS)
    if partial is None:
        return []
    month, day = MONTHS[partial.group("month").lower()], int(partial.group("day"))
    return [
        Cue(c.value, partial.start(), partial.end(), "preamble (no year)", PARTIAL, check=True)
        for c in others
        if c.value[5:] == f"{month:02d}-{day:02d}"
    ][:1]


# "the Lease dated ...", and an earlier amendment's "Amendment to Lease dated ...".
_REFERENCE = re.compile(
    r"(?i)\b(?:(?:this|the|said)\s+|(?:amendment|addendum)\s*(?:#\s*\d+\s*|no\.?\s*\d+\s*)?"
    r"to\s+(?:the\s+)?)(?:sub)?lease(?:\s+agreement)?\s+"
    r"(?:(?:by\s+and\s+)?between\s+(?:them|the\s+parties|landlord\s+and\s+tenant)\s*,?\s*)?"
    r"dated\s+(?:as\s+of\s+)?$"
)
_REFERENCE_CHARS = 90


def _reference_cues(flat: FlatText, cues: list[Cue]) -> list[Cue]:
    """ "the Lease dated April 5, 2004" anywhere in the file (an amendment appended to the
    lease, an exhibit) restates a date already read elsewhere."""
    values = {c.value for c in cues}
    spans = {c.start for c in cues}
    out = []
    for mention in dates_in(flat):
        value = mention.value.isoformat()
        before = flat.text[max(0, mention.start - _REFERENCE_CHARS) : mention.start]
        if value in values and mention.start not in spans and _REFERENCE.search(before):
            out.append(Cue(value, mention.start, mention.end, "restated", RESTATED))
    return out


def _signatures_support_only(cues: list[Cue]) -> list[Cue]:
    """A party signing on another day than the agreement is dated is ordinary ("dated as of
    March 3", signed March 10): once the agreement states its date, a signature date can
    confirm it but is no rival to it."""
    stated = {c.value for c in cues if c.source != "signature"}
    if not stated:
        return cues
    return [c for c in cues if c.source != "signature" or c.value in stated]


def extract_lease_date(document: Document) -> list[RawField]:
    flat = flat_text(document)
    main = primary_agreement(flat)
    amendment = classify_flat(flat) is DocumentKind.AMENDMENT
    cues = _preamble_cues(flat, main)
    cues += _context_cues(flat, main, amendment)
    cues += _defined_cues(flat, main)
    cues += _partial_cues(flat, main, cues)
    cues += _reference_cues(flat, cues)
    best = resolve("lease_date", _signatures_support_only(cues), flat)
    return [best] if best else []
