"""Notice periods: how long before a date a notice must be given.

Leases count an option's notice back from a date, in many shapes:

- "not less than nine (9) months prior to the expiration of the Term" (at least 9 months);
- "at least thirty days before this lease agreement expires", "upon giving six (6) months'
  prior written notice" (a bare period before "notice" is the least);
- "not more than 12 months' and not less than 9 months' notice prior to the expiration",
  "at least twelve (12), but not more than eighteen (18), months prior to",
  "no earlier than 15 months and no later than nine months before the current expiration
  date", "not less than 9 and not more than 12 full calendar months before" (the first
  number takes the unit of the second), "not more than 6 months nor less than 3 months
  before the end of the term", "between twelve (12) and fifteen (15) months prior to";
- "after the date that is fifteen (15) months, and on or before the date that is twelve
  (12) months, prior to the initial Expiration Date".

``notice_windows`` reads every such statement in a span: its bounds (``least``: notice no
later than this long before; ``most``: no earlier than this long before), in days or
months (years are months). What the statement is a notice *of* is the callers' business
(extraction/portfolio_fields.py): a renewal option's exercise, a break option's notice.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from lease_parser.extraction.anchored import searched_near
from lease_parser.extraction.numbers import COUNT, parse_count, words_to_int
from lease_parser.model import NoticeWindow, Period, PeriodUnit

_UNIT = r"(?:full\s+)?(?:calendar\s+)?(?P<unit>days?|months?|years?)\b['’]?s?['’]?"
_THE_DATE = r"(?:\s+the\s+date\s+(?:that|which)\s+is)?"
# The bound that says how late a notice may come: "not less than", "no later than".
_LEAST = (
    r"(?:not|no|nor)\s+(?:less|fewer|later)\s+than|at\s+least|on\s+or\s+before|"
    r"a\s+minimum\s+of|minimum\s+of"
)
# ... and how early: "not more than", "no earlier than", "after the date that is".
_MOST = (
    r"(?:not|no|nor)\s+(?:more|earlier|sooner)\s+than|a\s+maximum\s+of|"
    r"after(?=\s+the\s+date\s+(?:that|which)\s+is)"
)
# The unit may follow a comma: "at least twelve (12), but not more than eighteen (18), months".
_BOUND = re.compile(
    rf"(?i)\b(?:(?P<least>{_LEAST})|(?P<most>{_MOST})){_THE_DATE}\s+{COUNT}\s*(?:,\s*)?(?:{_UNIT})?"
)
_BETWEEN = re.compile(
    rf"(?i)\bbetween\s+{COUNT}\s*(?:{_UNIT})?\s+and\s+(?P<second>\w+(?:\s*\(\s*\d+\s*\))?)"
    rf"\s*(?:full\s+)?(?:calendar\s+)?(?P<unit2>days?|months?|years?)\b"
)
# "six (6) months' prior written notice", "90 days' notice": a bare period before notice.
# It starts with every number word, so it is tried only before a "notice" (extraction/
# anchored.py): 5x faster on a long lease. A match is at most ~100 characters long.
_BARE = searched_near(re.compile(r"(?i)\bnotice\b"), before=160, after=1)(
    re.compile(
        rf"(?i){COUNT}\s*{_UNIT}\s+(?:prior\s+|previous\s+|advance\s+)?(?:written\s+)?notice\b"
    )
)
# A notice period counts back from a date: it is followed by one of these.
_BACK = re.compile(
    r"(?i)\b(?:prior|before|previous|in\s+advance|preceding|expires?)\b|['’]\s+(?:written\s+)?notice"
)
_BACK_REACH = 90
# What may lie between two bounds of one window: "and", "nor", "but", or the date they
# both count back from ("... prior to the expiration of the then current Term but").
_JOINS = re.compile(
    r"(?i)[\s,'’]*(?:notice\s+)?(?:prior\s+)?"
    r"|[^.;]{0,100}?\b(?:and|nor|but|or)\b[\s,]*(?:notice\s+)?"
)
_DAYS_PER_MONTH = 30.44


@dataclass(frozen=True)
class NoticeMention:
    """A notice window stated at flat ``[start, end)`` (its bounds)."""

    window: NoticeWindow
    start: int
    end: int
    words_agree: bool | None  # "nine (9)": words and figures agree


def _period(count: int, unit: str) -> Period | None:
    if count <= 0 or count > 1200:
        return None
    if unit.lower().startswith("year"):
        return Period(count=count * 12, unit=PeriodUnit.MONTHS)
    if unit.lower().startswith("month"):
        return Period(count=count, unit=PeriodUnit.MONTHS)
    return Period(count=count, unit=PeriodUnit.DAYS)


def days_of(period: Period) -> float:
    """About how many days a period is (to order two bounds, never to compute a date)."""
    return period.count * (_DAYS_PER_MONTH if period.unit is PeriodUnit.MONTHS else 1)


@dataclass
class _Bound:
    kind: str  # "least" | "most"
    count: int
    unit: str | None
    agree: bool | None
    start: int
    end: int


def _bounds(text: str, start: int, end: int) -> list[_Bound]:
    found = []
    for match in _BOUND.finditer(text, start, end):
        counted = parse_count(match)
        if counted is None:
            continue
        kind = "least" if match.group("least") else "most"
        found.append(_Bound(kind, counted[0], match.group("unit"), counted[1], *match.span()))
    for match in _BARE.finditer(text, start, end):
        counted = parse_count(match)
        inside = any(b.start <= match.start() < b.end for b in found)
        if counted is not None and not inside:
            found.append(
                _Bound("least", counted[0], match.group("unit"), counted[1], *match.span())
            )
    return sorted(found, key=lambda b: b.start)


def _between(text: str, start: int, end: int) -> list[NoticeMention]:
    out = []
    for match in _BETWEEN.finditer(text, start, end):
        first = parse_count(match)
        second = re.match(r"(\w+)(?:\s*\(\s*(\d+)\s*\))?", match.group("second"))
        if first is None or second is None:
            continue
        other = int(second.group(2)) if second.group(2) else words_to_int(second.group(1))
        if other is None and second.group(1).isdigit():
            other = int(second.group(1))
        unit = match.group("unit") or match.group("unit2")
        low, high = sorted((first[0], other or 0))
        least, most = _period(low, unit), _period(high, unit)
        if least is None or most is None or not _counts_back(text, match.end(), end):
            continue
        out.append(NoticeMention(NoticeWindow(least=least, most=most), *match.span(), first[1]))
    return out


def _counts_back(text: str, position: int, end: int) -> bool:
    return _BACK.search(text, position, min(end, position + 2 * _BACK_REACH)) is not None


def _group(bounds: list[_Bound], text: str, end: int) -> list[list[_Bound]]:
    """Bounds that make one window: neighbours joined by "and", "nor", "but", a comma."""
    groups: list[list[_Bound]] = []
    for bound in bounds:
        if groups:
            gap = text[groups[-1][-1].end : bound.start]
            if _JOINS.fullmatch(gap):
                groups[-1].append(bound)
                continue
        groups.append([bound])
    # The words that count back may follow the last bound or end it ("six months' notice").
    return [g for g in groups if _counts_back(text, g[-1].start, end)]


def _window(group: list[_Bound]) -> NoticeWindow | None:
    """One window from its bounds; a bound without a unit takes the next bound's."""
    units = [b.unit for b in group]
    for i in range(len(units) - 2, -1, -1):
        units[i] = units[i] or units[i + 1]
    least = [
        _period(b.count, u) for b, u in zip(group, units, strict=True) if b.kind == "least" and u
    ]
    most = [
        _period(b.count, u) for b, u in zip(group, units, strict=True) if b.kind == "most" and u
    ]
    if len(least) != 1 or least[0] is None or len(most) > 1:
        return None  # only "no earlier than", or two "no later than"s: not one window
    upper = most[0] if most else None
    if upper is not None and days_of(upper) <= days_of(least[0]):
        return None
    return NoticeWindow(least=least[0], most=upper)


def notice_windows(text: str, start: int, end: int) -> list[NoticeMention]:
    """Every notice window stated in ``text[start:end]``, in order."""
    out = _between(text, start, end)
    taken = [(m.start, m.end) for m in out]
    for group in _group(_bounds(text, start, end), text, end):
        window = _window(group)
        lo, hi = group[0].start, group[-1].end
        if window is None or any(a < hi and lo < b for a, b in taken):
            continue
        agree = [b.agree for b in group if b.agree is not None]
        out.append(NoticeMention(window, lo, hi, all(agree) if agree else None))
    return sorted(out, key=lambda m: m.start)


def window_value(window: NoticeWindow) -> str:
    """The canonical string a ``RawField`` carries: compact JSON."""
    return json.dumps(window.model_dump(mode="json"), separators=(",", ":"), sort_keys=True)


def describe(window: NoticeWindow) -> str:
    """ "9–12 months", "at least 90 days" (``NoticeWindow.describe``)."""
    return window.describe()
