"""Calendar dates in the forms leases write them.

"October 7, 2004", "Oct. 7th, 2004", "7 October 2004", "1st of March, 2024",
"the 7th day of October, 2004",
"this 17 day of April, 2008", "the first day of July, 2001", "10/7/2004", "9/17/09",
"2004-10-07". A date with a blank in it ("the ___ day of May, 2005") is not a date.

A date in figures is month first ("10/7/2004") unless it can only be day first
("14/09/2024"), or the document writes its dates day first: an English tenancy "dated
28/06/2024" and "ending on 05/09/2025" ends in September. A document is read day first when
more of its numeric dates can only be day first than can only be month first.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass

from lease_parser.extraction.anchored import Anchored
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.numbers import DAY_ORDINALS

MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
}
_ABBREVIATIONS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}

_MONTH = r"(?P<month>(?:" + "|".join(MONTHS) + r")|(?:" + "|".join(_ABBREVIATIONS) + r")\.?)"
_DAY = r"(?P<day>[0-3]?\d)(?:\s?(?:st|nd|rd|th))?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_DAY_WORD = r"(?P<dayword>" + "|".join(sorted(DAY_ORDINALS, key=len, reverse=True)) + r")"
_FORMS = (
    # "October 7, 2004", "Oct. 7th 2004", "March 29th , 2019"
    rf"{_MONTH}\s+{_DAY}\s*,?\s*{_YEAR}",
    # "7 October 2004", "7th October, 2004", "1st of March, 2024"
    rf"{_DAY}\s+(?:day\s+of\s+|of\s+)?{_MONTH}\s*,?\s*{_YEAR}",
    # "the 7th day of October, 2004", "this 17 day of April, 2008", "the first day of July 2001"
    rf"(?:{_DAY}|{_DAY_WORD})\s+day\s+of\s+{_MONTH}\s*,?\s*(?:in\s+the\s+year\s+)?{_YEAR}",
    # "10/7/2004", "9/17/09", "10-07-2004"
    r"(?P<m>[0-3]?\d)[/-](?P<d>[0-3]?\d)[/-](?P<y>(?:19|20)?\d\d)(?![\d/-])",
    # "2004-10-07"
    r"(?P<iy>(?:19|20)\d\d)-(?P<im>[01]\d)-(?P<id>[0-3]\d)(?!\d)",
)
# Underscores around a date are a filled-in blank ("Date: 9/17/09_____"), not part of a word.
_RAW = r"(?<![A-Za-z0-9/-])(?:" + "|".join(f"(?:{form})" for form in _FORMS) + r")(?![A-Za-z0-9])"
# Python's re wants unique group names across alternatives; give each form its own names.
_GROUPS = ("month", "day", "year", "dayword")


def _unique_groups(pattern: str) -> str:
    counter = dict.fromkeys(_GROUPS, 0)

    def rename(match: re.Match[str]) -> str:
        name = match.group(1)
        counter[name] += 1
        return f"(?P<{name}{counter[name]}>"

    return re.sub(r"\(\?P<(" + "|".join(_GROUPS) + r")>", rename, pattern)


DATE = re.compile(_unique_groups(_RAW), re.IGNORECASE)
# Every form holds a year ("19xx", "20xx") or a numeric "7/1" or "10-07": digits are quick
# to find, so the date pattern is searched only near them. No date is longer than ~70
# characters ("the twenty-first day of September, in the year 2004").
_DATE_NEAR_DIGITS = Anchored(
    DATE, re.compile(r"\d(?:[/-]\d|(?<=1)9\d\d|(?<=2)0\d\d)"), before=90, after=30
)


@dataclass(frozen=True)
class DateMention:
    value: dt.date
    start: int
    end: int


def _group(match: re.Match[str], name: str) -> str | None:
    for index in range(1, 5):
        key = f"{name}{index}"
        if key in match.re.groupindex and match.group(key):
            return match.group(key)
    return None


def _month_number(text: str) -> int | None:
    key = text.lower().rstrip(".")
    return MONTHS.get(key) or _ABBREVIATIONS.get(key)


def _year(text: str) -> int:
    year = int(text)
    if year < 100:
        year += 2000 if year < 70 else 1900
    return year


def _numeric(match: re.Match[str], day_first: bool) -> dt.date | None:
    """A date in figures, in the document's order, or in the only order it can be."""
    first, second, year = int(match.group("m")), int(match.group("d")), _year(match.group("y"))
    orders = ((second, first), (first, second)) if day_first else ((first, second), (second, first))
    for month, day in orders:
        try:
            return dt.date(year, month, day)
        except ValueError:
            continue
    return None


def _day_first(matches: list[re.Match[str]]) -> bool:
    """Whether more of these dates in figures can only be day first ("28/06/2024") than can
    only be month first ("06/28/2024")."""
    day_first = month_first = 0
    for match in matches:
        if match.group("m"):
            first, second = int(match.group("m")), int(match.group("d"))
            day_first += first > 12 >= second
            month_first += second > 12 >= first
    return day_first > month_first


def writes_day_first(text: str) -> bool:
    """Whether ``text`` writes its dates in figures day first."""
    return _day_first(list(_DATE_NEAR_DIGITS.finditer(text)))


def _to_date(match: re.Match[str], day_first: bool = False) -> dt.date | None:
    try:
        if match.group("iy"):
            return dt.date(int(match.group("iy")), int(match.group("im")), int(match.group("id")))
        if match.group("m"):
            return _numeric(match, day_first)
        month = _month_number(_group(match, "month") or "")
        day_text = _group(match, "day")
        day = (
            int(day_text)
            if day_text
            else DAY_ORDINALS.get((_group(match, "dayword") or "").lower())
        )
        year_text = _group(match, "year")
        if month is None or day is None or year_text is None:
            return None
        return dt.date(int(year_text), month, day)
    except ValueError:
        return None


def _mentions(matches: list[re.Match[str]], day_first: bool) -> Iterator[DateMention]:
    for match in matches:
        value = _to_date(match, day_first)
        if value is not None:
            yield DateMention(value, match.start(), match.end())


def find_dates(
    text: str, start: int = 0, end: int | None = None, day_first: bool = False
) -> Iterator[DateMention]:
    """Every calendar date in ``text[start:end]``, with its span in ``text``; numeric dates
    day first with ``day_first``."""
    return _mentions(list(_DATE_NEAR_DIGITS.finditer(text, start, end)), day_first)


def _document_dates(text: str) -> list[DateMention]:
    """Every date of a document, its figures read in the order the document writes them."""
    matches = list(_DATE_NEAR_DIGITS.finditer(text))
    return list(_mentions(matches, _day_first(matches)))


def dates_in(flat: FlatText, start: int = 0, end: int | None = None) -> list[DateMention]:
    """``find_dates`` over the flat text, read once per document: every date lying wholly
    in ``[start, end)``."""
    return flat.mentions_in(
        "dates",
        _document_dates,
        lambda m: (m.start, m.end),
        start,
        end,
    )


def parse_date(text: str) -> dt.date | None:
    """The date ``text`` is, if it is exactly one date (surrounding spaces allowed)."""
    match = DATE.fullmatch(text.strip())
    return _to_date(match) if match else None
