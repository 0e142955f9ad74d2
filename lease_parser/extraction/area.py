"""Rentable square feet of the premises: "approximately 13,500 rentable square feet".

Leases state many areas: the premises, the building, the land, a floor, a conference room,
an occupancy ratio ("one person per 150 square feet"). We read every stated area and judge
what it measures from its sentence: the premises as the subject ("the Premises ...
containing approximately N"), a definition right after it ("(the "Premises")"), or a
summary heading ("Rentable Area of the Premises"). Areas of the building, of components
("on the fourth floor", "(the "6th Floor Space")"), of recitals about another lease, and
usable areas are not the premises' rentable area.
"""

from __future__ import annotations

import re

from lease_parser.extraction.cues import Cue
from lease_parser.extraction.flat import FlatText

_AREA = re.compile(
    r"(?i)(?<![\d.,$])_*(?P<num>\d{1,3}(?:,\d{3})+|\d{3,7})_*(?![\d.,]\d)\s*"
    r"(?:\(\s*\d[\d,]*\s*\)\s*)?"
    r"(?P<adj>(?:net\s+)?(?:rentable|usable|leasable|gross\s+leasable|gross)\s+)?"
    r"(?:square\s+f(?:ee|oo)t|sq\.?\s*f(?:ee)?t\.?|s\.\s?f\.|r\.?s\.?f\.?\b|RSF\b|SF\b)"
    r"(?P<of>\s+of\s+(?:(?:rentable|usable|leasable|floor)\s+)+(?:floor\s+)?area\b)?"
)
# A sentence ends at ". " before a capital (not after "No." or "Inc.") or at "; ".
_SENTENCE_START = re.compile(
    r"(?s).*(?:(?<!\bNo)(?<!\bInc)(?<!\bCo)(?<!\bSt)(?<!\bAve)(?<!\bMr)\.\s+(?=[A-Z\"(])|;\s)"
)
_PREMISES = re.compile(
    r"(?i)\b(?:(?:sub)?leased\s+premises|demised\s+premises|sub-?lease\s+premises|"
    r"subleased\s+premises|premises|(?:sub)?leases?\s+(?:to|from)\s+(?:sub)?(?:lessee|tenant|"
    r"lessor|landlord)|hereby\s+(?:sub)?leases?|(?:sub)?leased\s+space|space\s+leased)\b"
)
# The area belongs to something else when that thing is the subject right before it.
_OTHER_SUBJECT = re.compile(
    r"(?i)\b(?:building|project|shopping\s+center|center|property|land|parcel|site|tract|"
    r"master\s+premises|prime\s+premises|floor|garage|parking|room|terrace|deck|pad)\b"
    r"[^.;,]{0,40}?(?:\bis|\bcontains?|\bcontaining|\bconsists?\s+of|\bconsisting\s+of|"
    r"\bcompris(?:es|ing)(?:\s+of)?|\bhas|\bof)\b[^.;,\d]{0,30}$"
)
_RATIO = re.compile(
    r"(?i)(?:\bper|\beach|\bevery|\bfor\s+each|\bup\s+to|\bnot\s+(?:to\s+)?exceed(?:ing)?|"
    r"\bminimum(?:\s+size)?\s+of|\bmaximum\s+of|\bin\s+excess\s+of|\bless\s+than|\bmore\s+than|"
    r"\badditional|\bremaining|\bx)\s*(?:approximately\s+)?$"
)
_LABEL_BEFORE = re.compile(
    r"(?i)(?:rentable|leasable)\s+(?:floor\s+)?(?:area|square\s+f(?:ee|oo)t(?:age)?)\s+of\s+"
    r"(?:the\s+)?(?:demised\s+|leased\s+|subleased\s+)?premises\b\.?[^.\d]{0,30}$"
    r"|\bleased\s+premises\b[^.\d]{0,60}$|\bpremises\s*:[^.\d]{0,80}$"
)
_DEFINED_AFTER = re.compile(
    r'(?i)^[^."]{0,60}?\(\s*(?:the\s+|collectively,?\s+the\s+)?"(?P<term>[^"]{2,40})"'
)
_PREMISES_TERM = re.compile(r"(?i)^(?:(?:sub)?leased\s+|demised\s+|sublease\s+)?premises$")
_COMPONENT_AFTER = re.compile(
    r"(?i)^\s*(?:of\s+(?:rentable\s+)?(?:floor\s+)?area\s+)?(?:located\s+)?(?:on|in)\s+the\s+"
    r"(?:\w+\s+){0,2}(?:floor|level|basement|mezzanine)\b"
)
_RECITAL = re.compile(r"(?i)\b(?:whereas|recitals?)\b")
_LOOKBACK = 260
# Smaller "areas" are closets, ratios and misreads, not leased premises.
MIN_AREA = 50


def _sentence_before(text: str, start: int) -> str:
    lead = text[max(0, start - _LOOKBACK) : start]
    cut = _SENTENCE_START.match(lead)
    return lead[cut.end() :] if cut else lead


def _judge(text: str, match: re.Match[str]) -> list[Cue]:
    """Cues that the area at ``match`` measures the premises; none if it measures else."""
    before = _sentence_before(text, match.start())
    after = text[match.end() : match.end() + 120]
    adjective = ((match.group("adj") or "") + (match.group("of") or "")).lower()
    if "usable" in adjective or _RATIO.search(before):
        return []
    value = match.group("num").replace(",", "")
    start, end = match.span("num")
    defined = _DEFINED_AFTER.match(after)
    defines_premises = bool(defined and _PREMISES_TERM.match(defined.group("term").strip()))
    if _LABEL_BEFORE.search(text[max(0, start - 120) : start]):
        source, weight = "premises area label", 0.6
    elif defines_premises:
        source, weight = 'defined as "the Premises"', 0.6
    elif defined or _OTHER_SUBJECT.search(before) or not _PREMISES.search(before):
        return []
    else:
        source, weight = "premises clause", 0.5
    if _COMPONENT_AFTER.match(after) or _RECITAL.search(before):
        # A floor of the premises, or the premises of another (recited) lease.
        weight = 0.2
    elif "_" in match.group(0):
        weight = min(weight, 0.45)  # written into a form's blank
    cues = [Cue(value, start, end, source, weight)]
    if weight > 0.2 and ("rentable" in adjective or re.search(r"(?i)\brsf\b", match.group(0))):
        cues.append(Cue(value, start, end, "called rentable", 0.25))
    return cues


def area_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for every stated area of the premises in ``span`` of the flat text."""
    cues: list[Cue] = []
    for match in _AREA.finditer(flat.text, *span):
        if int(match.group("num").replace(",", "")) >= MIN_AREA:
            cues.extend(_judge(flat.text, match))
    return cues
