"""Fields the lease very likely states although nothing was read for them.

An extractor that finds nothing says nothing, and a lease missing its deposit looks just
like a lease with no deposit. So for every field left empty we look for the shape of a
statement of it: the field's words (a clause heading, a summary label, a defined term)
followed in the same sentence by a value of the field's kind (an amount, a date, a
percentage, a duration, a street address). Finding one makes the field "stated in the
lease, not read": the document goes to a person, who is shown the page.

The shapes are deliberately plain (words, then a value) and never tell which value is the
field's: that is the extractors' job. They only have to be rare where a lease does not
state the field (``lease-parser eval`` reports how often they fire there).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from lease_parser.extraction.base import RawField
from lease_parser.extraction.clauses import SENTENCE_END, sentence_start
from lease_parser.extraction.dates import dates_in
from lease_parser.extraction.evidence import Doubt
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.kind import classify_flat
from lease_parser.extraction.money import Per, money_in
from lease_parser.extraction.notice import notice_windows
from lease_parser.extraction.premises import STREET
from lease_parser.extraction.term import DURATION
from lease_parser.model import DocumentKind

# How far after its words a field's value may sit (in the same sentence).
WINDOW = 120
_PERCENT = re.compile(r"\d{1,2}(?:\.\d{1,4})?\s*%")
_AREA = re.compile(
    r"(?i)(?<![\d,.$])(?:\d{1,3}(?:,\d{3})+|\d{3,7})(?![\d,.]\d)"
    r"(?=\s*(?:rentable\s+|usable\s+)?(?:square\s+f|sq\.?\s*f|rsf\b|sf\b))"
)
# Right before a field's words, these make them another field's ("Rent Commencement Date",
# "Renewal Term", "Additional Rent").
_OTHER_FIELD = re.compile(
    r"(?i)\b(?:additional|percentage|holdover|renewal|extension|option|market|rent|insurance|"
    r"demise\s+\d)\s+(?:rent|term|commencement)"
)
# Between a field's words and a value, these say the value is not the field's: a renewal,
# an event the date depends on, a cap or an increase, an example, a blank.
_NOT_THE_VALUE = re.compile(
    r"(?i)\b(?:renew\w*|extend\w*|extension|option|later|earlier|sooner|upon|following|"
    r"increase\w*|exceed\w*|maximum|minimum|cap|up\s+to|example|e\.g|insurance|limit|total)\b|_{3,}"
)
# A value offered as one of several ("6 or 12 months", "$500 or $1,000").
_CHOICE_BEFORE = re.compile(r"(?i)\d\s*(?:\w+\s+)?or\s*$")
_CHOICE_AFTER = re.compile(r"(?i)\s*or\s+[$£€]?\d")
# The renewal shapes' own words are renewal words: only these say their value is not one.
_NOT_AN_OPTION = re.compile(
    r"(?i)\b(?:example|e\.g|up\s+to|holdover|holding\s+over|no\s+(?:right|option)s?)\b|_{3,}"
)
# "amends the Lease dated January 1, 2019": the date of another agreement.
_REFERENCE = re.compile(
    r"(?i)\b(?:the|said|that|original|existing|master|prime|underlying)\s+(?:\w+\s+)?"
    r"(?:lease|agreement)\s*,?\s*$"
)
# A party's role marker right after a name (a form leaves the name blank).
_ROLE_MARKER = r'(?<=[A-Za-z0-9.)])[\s,]*\(\s*(?:the\s+|hereinafter[^")]{0,40})?"(?:%s)"'

Finder = Callable[[FlatText, int, int], list[tuple[int, int]]]


def _money(per: Per) -> Finder:
    def find(flat: FlatText, start: int, end: int) -> list[tuple[int, int]]:
        return [
            (m.start, m.end)
            for m in money_in(flat, start, end)
            if m.amount > 0 and _per(flat, m.end, m.per) is per
        ]

    return find


def _per(flat: FlatText, end: int, per: Per) -> Per:
    """The amount's own unit, else "per month"/"annual" said right after it."""
    if per is not Per.NONE:
        return per
    after = flat.text[end : end + 40].lower()
    if re.search(r"\bmonth|\bmonthly", after):
        return Per.MONTH
    if re.search(r"\bannum|\byear|\bannual", after):
        return Per.YEAR
    return Per.NONE


class _Pattern:
    """Every match of one pattern as a value; whether there is any in a span at all is
    answered once per document (a shape's words can occur hundreds of times in a lease
    whose text holds no value of the field's kind)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern

    def __call__(self, flat: FlatText, start: int, end: int) -> list[tuple[int, int]]:
        return [m.span() for m in self.pattern.finditer(flat.text, start, end)]

    def anywhere(self, flat: FlatText, span: tuple[int, int]) -> bool:
        key = f"any {self.pattern.pattern} in {span}"
        return flat.shared(key, lambda: self.pattern.search(flat.text, *span) is not None)


def _pattern(pattern: re.Pattern[str]) -> _Pattern:
    return _Pattern(pattern)


def _dates(flat: FlatText, start: int, end: int) -> list[tuple[int, int]]:
    return [(d.start, d.end) for d in dates_in(flat, start, end)]


def _notice(flat: FlatText, start: int, end: int) -> list[tuple[int, int]]:
    return [(m.start, m.end) for m in notice_windows(flat.text, start, end)]


def _right_after(flat: FlatText, start: int, end: int) -> list[tuple[int, int]]:
    """The words are the statement (a party's role marker, an option's grant)."""
    return [(start, start)]


@dataclass(frozen=True)
class Shape:
    """A field's words, and what its value looks like after them."""

    words: re.Pattern[str]
    value: Finder
    what: str  # how a reviewer is told what was seen
    # In the sentence (before the words, or between them and the value), these say the
    # value is not the field's.
    not_the_value: re.Pattern[str] = _NOT_THE_VALUE


_DATED = re.compile(
    r"(?i)\b(?:dated|made\s+(?:and\s+entered\s+into\s+)?(?:as\s+of|on|this)|"
    r"lease\s+date|effective\s+date)\b"
)
_RENT = re.compile(
    r"(?i)\b(?:(?:base|basic|minimum|fixed|monthly|annual)\s+(?:base\s+)?)?rent(?:al)?\b"
)
_OPTION = re.compile(
    r"(?i)\boptions?\s+to\s+(?:renew|extend)\b|\b(?:renewal|extension)\s+options?\b"
)
SHAPES: dict[str, Shape] = {
    "landlord": Shape(
        re.compile(_ROLE_MARKER % "landlord|lessor|sub-?landlord|sub-?lessor", re.IGNORECASE),
        _right_after,
        "the landlord's defined role after a name",
    ),
    "tenant": Shape(
        re.compile(_ROLE_MARKER % "tenant|lessee|sub-?tenant|sub-?lessee", re.IGNORECASE),
        _right_after,
        "the tenant's defined role after a name",
    ),
    "premises_address": Shape(
        re.compile(
            r"(?i)\b(?:premises|property|building)\b[^.;]{0,60}?"
            r"\b(?:located\s+at|known\s+as|address)\b"
        ),
        _pattern(STREET),
        "a street address given for the premises",
    ),
    "rentable_sqft": Shape(
        re.compile(r"(?i)\bpremises\b"), _pattern(_AREA), "an area of the premises"
    ),
    "lease_date": Shape(
        _DATED,
        _dates,
        "the date of the lease",
    ),
    "commencement_date": Shape(
        re.compile(r'(?i)\bcommencement\s+date"?\s*(?::|\bshall\s+be\b|\bmeans\b|\bis\b)'),
        _dates,
        "a commencement date",
    ),
    "expiration_date": Shape(
        re.compile(
            r'(?i)\b(?:expiration|termination)\s+date"?\s*(?::|\bshall\s+be\b|\bmeans\b|\bis\b)'
        ),
        _dates,
        "an expiration date",
    ),
    "term_months": Shape(
        re.compile(
            r"(?i)\b(?:initial\s+|lease\s+)?term\b(?:\s+of\s+(?:this|the)\s+lease)?"
            r"\s*(?::|\bshall\s+be\b|\bof\b|\bfor\b)"
        ),
        _pattern(DURATION),
        "a length of the term",
    ),
    "base_rent_monthly": Shape(_RENT, _money(Per.MONTH), "a monthly base rent"),
    "base_rent_annual": Shape(_RENT, _money(Per.YEAR), "an annual base rent"),
    "security_deposit": Shape(
        re.compile(r"(?i)\bsecurity\s+deposit\b"), _money(Per.NONE), "a security deposit"
    ),
    "cam_monthly": Shape(
        re.compile(r"(?i)\b(?:common\s+area\s+(?:maintenance|charges?|expenses?)|CAM)\b"),
        _money(Per.MONTH),
        "a monthly CAM charge",
    ),
    "tenant_share_percent": Shape(
        re.compile(r"(?i)\b(?:pro\s*-?\s*rata|proportionate)\s+share\b"),
        _pattern(_PERCENT),
        "the tenant's share",
    ),
    "renewal_option_count": Shape(
        _OPTION, _right_after, "an option to renew or extend", _NOT_AN_OPTION
    ),
    "renewal_term_months": Shape(
        _OPTION, _pattern(DURATION), "the length of a renewal term", _NOT_AN_OPTION
    ),
    "renewal_notice": Shape(
        re.compile(
            r"(?i)\b(?:to\s+exercise|exercis\w+)\s+(?:(?:the|such|its|each|any|an|a)\s+)?"
            r"(?:(?:first|second|third|\w+)\s+)?(?:renewal|extension)\s+(?:option|right)s?\b"
            r"|\b(?:renewal|extension)\s+notice\b"
        ),
        _notice,
        "when notice exercising a renewal option is due",
        _NOT_AN_OPTION,
    ),
    "termination_notice": Shape(
        re.compile(r"(?i)\bbreak\s+(?:clause|option|date)\b|\btenant['’]s\s+option\s+to\s+break\b"),
        _notice,
        "the notice a break option needs",
    ),
}


# The fields with no shape above, and why: a test checks every field is in one or the other.
UNSHAPED: dict[str, str] = {
    "rent_schedule": "a table, not words followed by a value",
    "escalation": "its kinds are read by the schedule reader, not a shape",
    "currency": "always read (USD unless the lease says otherwise)",
    "termination_option_date": "a break clause's date depends on its notice; the notice's shape",
    "amended_lease_date": "an amendment's own reading of the lease it amends",
    "premises_added_sqft": "an amendment's area: the same words as the premises' area",
    # Not labelled yet (issue 23): a shape would send a lease to a person for a field that
    # does not gate.
    **dict.fromkeys(
        (
            "letter_of_credit",
            "free_rent_months",
            "percentage_rent",
            "ti_allowance",
            "expense_base_year",
            "assignment_subletting",
            "guarantor",
            "permitted_use",
            "expense_stop",
            "break_dates",
            "notice_addresses",
        ),
        "not labelled yet: it does not gate, so it holds no document back unread",
    ),
}

_NEED_AN_OPTION = frozenset({"renewal_term_months", "renewal_notice"})


def _first_statement(flat: FlatText, shape: Shape, span: tuple[int, int]) -> tuple[int, int] | None:
    lo, hi = span
    text = flat.text
    if isinstance(shape.value, _Pattern) and not shape.value.anywhere(flat, span):
        return None  # no value of the field's kind anywhere: no statement of it
    for words in shape.words.finditer(text, lo, hi):
        before = text[sentence_start(text, words.start(), lo, heading=False) : words.start()]
        if _OTHER_FIELD.search(text, max(lo, words.start() - 20), words.end()):
            continue
        if shape.words is _DATED and _REFERENCE.search(before):
            continue
        stop = min(hi, words.end() + WINDOW)
        sentence_end = SENTENCE_END.search(text, words.end(), stop)
        stop = sentence_end.start() if sentence_end else stop
        found = shape.value(flat, words.end(), stop)
        if not found:
            continue
        between = text[words.end() : found[0][0]]
        if shape.not_the_value.search(before) or shape.not_the_value.search(between):
            continue
        if _CHOICE_BEFORE.search(between) or _CHOICE_AFTER.match(text, found[0][1]):
            continue  # "a fixed term of 6 or 12 months": the choices, not this lease's value
        return words.start(), max(found[0][1], words.end())
    return None


def stated_but_not_read(
    flat: FlatText, span: tuple[int, int], read: dict[str, RawField]
) -> list[RawField]:
    """An empty field for each field the lease seems to state that has no value."""
    out: list[RawField] = []
    if classify_flat(flat) is DocumentKind.FORM:
        return out  # a blank form's words introduce blanks, not values
    for name, shape in SHAPES.items():
        if name in read and read[name].value is not None:
            continue
        count = read.get("renewal_option_count")
        if name in _NEED_AN_OPTION and count is not None and count.value == "0":
            continue  # no option, so no option's length or notice
        found = _first_statement(flat, shape, span) or _the_other_rent(flat, span, name, read)
        if found is None:
            continue
        raw = flat.field(name, None, 0.0, *found)
        raw.doubts[Doubt.STATED_NOT_READ] = f"the lease states {shape.what} here; nothing was read"
        out.append(raw)
    return out


# Monthly rent from annual and back: the lease states the other one when it is written.
_RENT_FACTORS = {
    "base_rent_monthly": ("base_rent_annual", Decimal(1) / 12),
    "base_rent_annual": ("base_rent_monthly", Decimal(12)),
}
_CENT = Decimal("0.01")


def _the_other_rent(
    flat: FlatText, span: tuple[int, int], name: str, read: dict[str, RawField]
) -> tuple[int, int] | None:
    """ "$84,585.60 per year, payable in installments of $7,048.80": with one of the two
    rents read, the other's amount (12 × monthly, annual / 12) written in the lease."""
    if name not in _RENT_FACTORS:
        return None
    source, factor = _RENT_FACTORS[name]
    known = read.get(source)
    if known is None or known.value is None:
        return None
    try:
        expected = (Decimal(known.value) * factor).quantize(_CENT)
    except InvalidOperation:
        return None
    for mention in money_in(flat, *span):
        if abs(mention.amount - expected) > _CENT:
            continue
        lead = flat.text[sentence_start(flat.text, mention.start, span[0]) : mention.start]
        if not _TERM_TOTAL.search(lead):
            return mention.start, mention.end
    return None


# "The total rent under this lease agreement is $96,000.00" (a one-year term): the sum over
# the term, which equals 12 × monthly only by the term's length, not an annual rent.
_TERM_TOTAL = re.compile(
    r"(?i)\btotal\s+(?:base\s+)?(?:rent|rental|amount|sum)\b|\b(?:entire|whole)\s+term\b"
)
