"""Rentable square feet of the premises: "approximately 13,500 rentable square feet".

Leases state many areas: the premises, the building, the land, a floor, a conference room,
an occupancy ratio ("one person per 150 square feet"). We read every stated area and judge
what it measures from its sentence. The premises' area is one the premises are the subject
of ("the Premises is comprised of 2,000 square feet", "Landlord leases to Tenant
approximately 7,128 rentable square feet"), one defined as the premises right after it
("(the "Premises")"), or one under a heading that names it ("Rentable Area of the
Premises"). An area of something else — the building is, the floor has, "of the
Must-Take Space", "in the Building", a recital about another lease, a usable area — is not.
Independent checks: a summary line ("Rentable Area: 8,750 rentable square feet"), rent
arithmetic (extraction/rent.py), and parts that add up to a stated total.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from lease_parser.extraction.anchored import searched_near
from lease_parser.extraction.clauses import sentence_start
from lease_parser.extraction.cues import Cue
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.numbers import NUMBER_WORDS

# Every unit below ("square feet", "sq. ft.", "s.f.", "RSF", "SF") holds "sq", "sf" or
# "s.f": areas are searched only near those letters.
_AREA_UNIT = re.compile(r"(?i)s(?:q|f|\.\s?f)")


_near_area_unit = searched_near(_AREA_UNIT, before=90, after=90)

_AREA = _near_area_unit(
    re.compile(
        r"(?i)(?<![\d.,$])_*(?P<num>\d{1,3}(?:,\d{3})+|\d{3,7})_*(?![\d.,]\d)\)?\s*"
        r"(?:\(\s*\d[\d,]*\s*\)\s*)?"
        r"(?P<adj>(?:net\s+)?(?:rentable|usable|useable|leasable|gross\s+leasable|gross)\s+)?"
        r"(?:square\s+f(?:ee|oo)t|sq\.?\s*f(?:ee)?t\.?|s\.\s?f\.|r\.?s\.?f\.?\b|RSF\b|SF\b)"
        r"(?P<of>\s+of\s+(?:(?:rentable|usable|useable|leasable|floor)\s+)+(?:floor\s+)?area\b)?"
    )
)
_PREMISES_WORD = r"(?:(?:sub)?leased\s+|demised\s+|sub-?lease\s+)?premises\b"
# Qualifiers before a figure, and the figure spelled out before it ("eight thousand (8,000)").
_APPROX = (
    rf"(?:(?:a\s+total\s+of|approximately|about|initially|some)\s+)*"
    rf"(?:{NUMBER_WORDS}\s*\(\s*)?"
)
# The premises as the subject of the area: "the Premises ... containing approximately N".
_DIRECT = re.compile(
    rf"(?i)(?:{_PREMISES_WORD}[^.;]{{0,120}}?\b(?:is|are|shall\s+be|be|(?:is|be)\s+deemed\s+to\s+be|"
    rf"compris(?:e|es|ed|ing)(?:\s+of)?|consist(?:s|ing)?\s+of|contain(?:s|ing)?|total(?:s|ing)?|"
    rf"measur(?:es|ing)|has\s+a\s+(?:rentable\s+)?(?:floor\s+)?area\s+of)"
    rf"|\b(?:sub)?leases?\s+(?:to|from)\s+(?:sub)?(?:tenant|lessee|landlord|lessor)\b[^.;]{{0,70}}?)"
    rf"\s+{_APPROX}$"
)
_PREMISES = re.compile(rf"(?i){_PREMISES_WORD}")
# Another thing as the subject right before the area: "the Building is", "floor area of".
_OTHER_SUBJECT = re.compile(
    r"(?i)\b(?:building|project|shopping\s+center|center|property|land|parcel|site|tract|"
    r"master\s+premises|prime\s+premises|floor|garage|parking|room|terrace|deck|pad)\b"
    r"(?:\s*\([^)]*\))?(?:,?\s+which)?(?:\s+[\w-]+){0,3}?\s+"
    rf"(?:is|will\s+be|shall\s+be|contains?|containing|consists?\s+of|consisting\s+of|"
    rf"compris(?:es|ing)(?:\s+of)?|has|have|of|totals?|total(?:l)?ing|measur(?:es|ing))\s+{_APPROX}$"
)
# "a 1,104,320 square foot building": the area describes the building it comes before.
_DESCRIBES_AFTER = re.compile(
    r"(?i)^\s*(?:[\w-]+\s+){0,2}?(?:building|project|facility|complex|center|centre|campus|"
    r"shopping\s+center|office\s+park|industrial\s+park)\b"
)
# ... or right after it: "of the Must-Take Space", "in the Building".
_OTHER_AFTER = re.compile(
    r"(?i)^\s*(?:of\s+(?:space|floor\s+area|rentable\s+area|area)\s+)?(?:of|in|within|at)\s+"
    r"(?:the\s+|such\s+)?(?!(?:sub)?leased\s+premises|demised\s+premises|premises)"
    r"(?:[\w'-]+\s+){0,3}?(?:building|project|space|parking|garage|facility|center|property|"
    r"land|parcel|master\s+premises|prime\s+premises|campus|complex|park)\b"
)
_RATIO = re.compile(
    r"(?i)(?:\bper|\beach|\bevery|\bfor\s+each|\bup\s+to|\bnot\s+(?:to\s+)?exceed(?:ing)?|"
    r"\bminimum(?:\s+size)?\s+of|\bmaximum\s+of|\bin\s+excess\s+of|\bless\s+than|\bmore\s+than|"
    r"\badditional|\bremaining|\bexcept(?:\s+for)?|\bexcluding|\bother\s+than|\bx)\s*"
    rf"{_APPROX}$"
)
_LABEL_BEFORE = re.compile(
    r"(?i)(?:rentable|leasable)\s+(?:floor\s+)?(?:area|square\s+f(?:ee|oo)t(?:age)?)\s+of\s+"
    rf"(?:the\s+)?{_PREMISES_WORD}\.?[^.\d]{{0,30}}$"
    r"|\bpremises(?:'s?)?\s+(?:rentable|leasable)\s+(?:floor\s+)?(?:area|square\s+f(?:ee|oo)t(?:age)?)"
    r"\b[^.\d]{0,40}$"
    r"|\bleased\s+premises\b[^.\d]{0,60}$|\bpremises\s*:[^.\d]{0,80}$"
)
# A summary line that names no subject: "Rentable Area: 8,750 rentable square feet" on its
# own line. It measures the premises unless the item it sits under is the building's.
_BARE_LABEL = re.compile(
    r"(?i)^(?:[\d.]+\s+|\([a-z0-9]+\)\s+)?(?:(?:net\s+)?(?:rentable|leasable)\s+(?:floor\s+)?"
    r"(?:area|square\s+f(?:ee|oo)t(?:age)?)|(?:rentable\s+)?square\s+footage)\s*:\s*"
    r"(?:(?:approximately|about)\s+)?$"
)
_SUBJECT = re.compile(
    r"(?i)\b(?:premises|building|project|property|land|parcel|center|complex|park|campus)\b"
)
# "Rentable Area of Building 250,000 square feet": a summary line about something else.
_OTHER_LABEL = re.compile(
    r"(?i)\b(?:area|square\s+f(?:ee|oo)t(?:age)?|size)\s+of\s+(?:the\s+)?(?:building|project|"
    r"property|land|parcel|shopping\s+center|center|complex|park|campus)\b[^.\d]{0,20}$"
)
# How far back the item a bare label sits under may begin.
_ITEM_BACK = 250
_DEFINED_AFTER = re.compile(
    r'(?i)^[^."]{0,60}?\(\s*(?:the\s+|collectively,?\s+the\s+)?"(?P<term>[^"]{2,40})"'
)
_PREMISES_TERM = re.compile(rf"(?i)^{_PREMISES_WORD}$")
_COMPONENT_AFTER = re.compile(
    r"(?i)^\s*(?:of\s+(?:rentable\s+)?(?:floor\s+)?area\s+)?(?:located\s+)?(?:on|in)\s+the\s+"
    r"(?:\w+\s+){0,2}(?:floor|level|basement|mezzanine)\b"
)
# Space leased besides the premises ("In addition to the Premises, ... 300 square feet").
_BESIDES = re.compile(r"(?i)(?<![a-z])in\s+addition\s+to\b|\bas\s+well\s+as\b")
_RECITAL = re.compile(r"(?i)\b(?:whereas|recitals?)\b")
# Smaller "areas" are closets, ratios and misreads, not leased premises.
MIN_AREA = 50

LABEL_WEIGHT = 0.6
DEFINED_WEIGHT = 0.6
DIRECT_WEIGHT = 0.55
MENTIONED_WEIGHT = 0.35
RENTABLE_WEIGHT = 0.25
BLANK_CAP = 0.45
SUM_WEIGHT = 0.5
_SUM = ("sum of its parts", SUM_WEIGHT)  # a check: the parts add up to the stated total
# Parts are listed one after another: at most this many, this far apart.
_MAX_PARTS = 6
_PARTS_GAP = 400


def _bare_label(flat: FlatText, start: int) -> bool:
    """ "Rentable Area: 8,750" starting a line, under an item about the premises (the last
    thing named before it is the premises, or nothing is)."""
    line = start
    while line > 0 and not flat.starts_line(line) and start - line < 80:
        line -= 1
    if not flat.starts_line(line) or not _BARE_LABEL.match(flat.text[line:start]):
        return False
    subjects = list(_SUBJECT.finditer(flat.text, max(0, line - _ITEM_BACK), line))
    return not subjects or subjects[-1].group(0).lower().startswith("premises")


def _classify(
    flat: FlatText, match: re.Match[str], before: str, after: str
) -> tuple[str, float] | None:
    """(source, weight) when the area measures the premises; None when it measures else."""
    text = flat.text
    start = match.start("num")
    if _OTHER_LABEL.search(before):
        return None
    defined = _DEFINED_AFTER.match(after)
    if _DESCRIBES_AFTER.match(after):
        return None
    other = _OTHER_SUBJECT.search(before)
    window = text[max(0, start - 120) : start]
    label = _LABEL_BEFORE.search(window)
    # "Premises: the second floor of the Building, which totals 54,731": the building's.
    if label and other and len(before) - other.start() < len(window) - label.start():
        label = None  # the other subject is named after the label, closer to the figure
    if label or _bare_label(flat, start):
        return "premises area label", LABEL_WEIGHT
    if defined:
        if _PREMISES_TERM.match(defined.group("term").strip()):
            return 'defined as "the Premises"', DEFINED_WEIGHT
        return None
    premises = [m.start() for m in _PREMISES.finditer(before)]
    # Whichever is named last before the figure is what it measures.
    if other is not None and (not premises or other.start() > premises[-1]):
        return None
    if _DIRECT.search(before):
        return "premises clause", DIRECT_WEIGHT
    if other is not None or _OTHER_AFTER.match(after) or not premises:
        return None
    return "premises mentioned in the sentence", MENTIONED_WEIGHT


def _judge(flat: FlatText, match: re.Match[str]) -> list[Cue]:
    """Cues that the area at ``match`` measures the premises (none if it measures else)."""
    text = flat.text
    before = text[sentence_start(text, match.start()) : match.start()]
    after = text[match.end() : match.end() + 120]
    adjective = ((match.group("adj") or "") + (match.group("of") or "")).lower()
    if re.search(r"use?able", adjective) or _RATIO.search(before) or _BESIDES.search(before):
        return []
    found = _classify(flat, match, before, after)
    if found is None:
        return []
    source, weight = found
    if _COMPONENT_AFTER.match(after) and source != "premises clause":
        return []  # one floor of the premises
    if _RECITAL.search(before):
        return []  # the premises of another (recited) lease
    if "_" in match.group(0):
        weight = min(weight, BLANK_CAP)  # written into a form's blank
    value = match.group("num").replace(",", "")
    start, end = match.span("num")
    cues = [Cue(value, start, end, source, weight)]
    if "rentable" in adjective or re.search(r"(?i)rsf", match.group(0)):
        cues.append(Cue(value, start, end, "called rentable", RENTABLE_WEIGHT, check=True))
    return cues


def area_mentions(flat: FlatText, span: tuple[int, int]) -> Iterator[re.Match[str]]:
    """Every stated area in ``span`` (group ``num`` is the figure), whatever it measures."""
    return _AREA.finditer(flat.text, *span)


def area_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for every stated area of the premises in ``span`` of the flat text."""
    cues: list[Cue] = []
    matches = []
    for match in _AREA.finditer(flat.text, *span):
        if int(match.group("num").replace(",", "")) >= MIN_AREA:
            matches.append(match)
            cues.extend(_judge(flat, match))
    return _sums(matches, cues)


def _sums(matches: list[re.Match[str]], cues: list[Cue]) -> list[Cue]:
    """Parts and their total: "100,000 rsf of manufacturing space, 20,500 rsf of office
    space and 3,250 rsf of common space" add up to the "Rentable Area of Premises 123,750"
    stated elsewhere; "Area A: 20,000 sf ... Area B: 12,000 sf ... Area C: 8,000 sf" list
    the parts of the 40,000 sf stated before them. A run of two to six areas stated one
    after another that adds up to a stated premises area checks that total by arithmetic;
    the parts are parts, not the premises' area."""
    stated = {c.value for c in cues}
    totals: list[Cue] = []
    parts: set[int] = set()
    values = [Decimal(m.group("num").replace(",", "")) for m in matches]
    for first in range(len(matches)):
        for last in range(first + 1, min(first + _MAX_PARTS, len(matches))):
            gap = matches[last].start() - matches[last - 1].end()
            if gap > _PARTS_GAP:
                break
            total = str(sum(values[first : last + 1]))
            if total in stated:
                run = matches[first : last + 1]
                totals.append(
                    Cue(total, run[0].start("num"), run[-1].end("num"), *_SUM, check=True)
                )
                parts.update(m.start("num") for m in run)
    kept = [c for c in cues if c.start not in parts]
    kept_values = {c.value for c in kept}
    return kept + [c for c in totals if c.value in kept_values]
