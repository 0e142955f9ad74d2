"""Operating charges: the estimated monthly CAM charge and the tenant's share, as a percent.

CAM is read only where the lease states it as money per month ("Tenant shall make payments
to Landlord monthly in the amount of ... ($1,322.71), which represents Landlord's estimate
of Tenant's pro rata share of Common Area Expense"; "the monthly Estimated Additional Rent
... is $29.15 per RSF or $112,348.95 per month"). The share is a stated percent ("Tenant's
Proportionate Share: 59.5288%", "Tenant's Pro Rata Share is 24.047% (30,085 rsf / 125,109
rsf)"); when the lease also gives the areas it divides, the division is checked.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from lease_parser.extraction.anchored import Anchored
from lease_parser.extraction.clauses import (
    named_after,
    nearest_label,
    sentence_start,
    sentence_tail,
)
from lease_parser.extraction.cues import Cue
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.money import Per, money_in
from lease_parser.extraction.numbers import NUMBER_WORDS

_CAM = (
    r"\bcommon\s+area(?:s)?(?:\s+maintenance)?(?:\s+(?:charges?|expenses?|costs?|fees?))?\b|\bCAM\b|"
    r"\boperating\s+(?:expenses?|costs?)\b|\bestimated\s+additional\s+rent(?:al)?\b|"
    r"\b(?:additional\s+rent(?:al)?\s+)?estimate\b"
)
_NOT_CAM = (
    r"\b(?:base|basic|minimum|fixed|net)\s+rent(?:al)?\b|\bsecurity\s+deposit\b|\bdeposit\b|"
    r"\blate\s+(?:charge|fee)\b|\btax(?:es)?\b|\binsurance\b|\bcap\b|\bexceed\w*|\bin\s+excess\b"
)
_LABEL = re.compile(rf"(?i)(?P<cam>{_CAM})|(?P<other>{_NOT_CAM})")
# "the first installment of Base Rent and the estimated ... Operating Expenses": a sum of both.
# ("In addition to minimum rent, Tenant shall pay ... CAM ... $1,150.00" is CAM alone.)
_AGGREGATE = re.compile(
    r"(?i)(?<!in\saddition\sto\s)\b(?:base|basic|minimum|fixed)\s+rent(?:al)?\b|\baggregate\b|"
    r"\btogether\s+with\b"
)
_ESTIMATE = re.compile(r"(?i)\bestimat\w*")
# "the monthly payment on account of such expenses is as follows: Council Rates: $4,333.50
# ... Insurance: $1,174.40 / $10,424.90 being monthly payments of: $868.74": an itemised
# estimate's monthly instalment, whatever item was named last.
_INSTALMENT = re.compile(
    r"(?i)\bmonthly\s+(?:payments?|instal(?:l)?ments?)\s+(?:of|on\s+account\s+of)\s*:?\s*\$?\s*$"
)
_EXPENSES = re.compile(rf"(?i){_CAM}|\boutgoings\b|\bservice\s+charges?\b|\bexpenses\b")
_ITEMS_REACH = 600  # characters back to where the list's expenses are named
_MONTHLY = re.compile(r"(?i)\bmonthly\b|\beach\s+month\b|\bper\s+month\b")
# "Tenant's Proportionate Share", "TENANTS PRO RATA SHARE", "Tenant's Share", "Tenant's
# Percentage", "Tenant's proportion of Building Outgoings".
_SHARE_LABEL = (
    r"(?:tenant|lessee|sub-?tenant|sub-?lessee|district|its)(?:['’]s|s['’]|s)?\s+"
    r"(?:(?:proportionate|pro\s*-?\s*rata|percentage)\s+share|share|percentage|proportion)"
)
_PERCENT = (
    rf"(?:(?P<words>{NUMBER_WORDS})\s+percent\s*\(\s*)?"
    rf"(?P<pct>100(?:\.0+)?|\d{{1,2}}(?:\.\d{{1,6}})?)\s*%"
)
# The percent must be what the share is, not a cap on how it may change. A defined term's
# closing quote may come first (“Tenant’s Share” shall mean 35%).
_LINK = (
    r"[\"”]?"
    # "Tenant's Pro Rata Share of Building 47.12%", "proportion of Building Outgoings 100%"
    r"(?:\s+of\s+(?:the\s+)?(?:[\w-]+\s+){0,2}[\w-]+\s*:?\s*(?=\d)|"
    r"(?:\s+of\s+[\w\s,']{0,60}?)?(?:\s*:|,?\s+being|\s+(?:is|shall\s+(?:be|mean|equal)|equals?|will\s+be)"
    # "shall mean, and is stipulated by the Parties to be, 29.32%"
    r"(?:,?\s+(?:and\s+is\s+)?(?:estimated|deemed|stipulated|agreed)\s(?:[^.;%]|\.(?=\d)){0,60}?"
    r"\b(?:as|at|to\s+be))?),?\s*"
    r"(?:approximately\s+)?)"
)
# A share ends in "%": searched only before one (label, link and words run < 400 characters).
_SHARE = Anchored(
    re.compile(rf"(?i)\b{_SHARE_LABEL}\b(?P<between>{_LINK})(?<![\d.]){_PERCENT}"),
    re.compile("%"),
    before=400,
    after=10,
)
_RATIO = re.compile(
    r"(?i)^\s*\)?\s*\(\s*(?P<part>\d{1,3}(?:,\d{3})+|\d+)\s*(?:rentable\s+)?(?:rsf|sf|square\s+feet)?"
    r"\s*/\s*(?P<whole>\d{1,3}(?:,\d{3})+|\d+)"
)
CAM_WEIGHT = 0.5
ESTIMATE_WEIGHT = 0.2
SHARE_WEIGHT = 0.55
SHARE_CHECK_WEIGHT = 0.45


def cam_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Monthly amounts labelled CAM / operating expenses before them, or named so after."""
    lo, hi = span
    text = flat.text
    cues = []
    for raw in money_in(flat, lo, hi):
        start, end = raw.start, raw.end
        lead = text[sentence_start(text, start, lo) : start]
        tail = sentence_tail(text, end, hi)
        if _AGGREGATE.search(lead):
            continue
        label = nearest_label(lead, _LABEL)
        named = named_after(tail, _CAM)
        instalment = _INSTALMENT.search(lead) is not None and (
            _EXPENSES.search(text, max(lo, start - _ITEMS_REACH), start) is not None
        )
        if not ((label is not None and label.group("cam")) or named or instalment):
            continue
        monthly = raw.per is Per.MONTH or (raw.per is Per.NONE and _MONTHLY.search(lead))
        if not monthly or raw.amount <= 0:
            continue
        value = f"{raw.amount:.2f}"
        cues.append(Cue(value, start, end, "CAM clause", CAM_WEIGHT))
        if _ESTIMATE.search(lead + tail):
            cues.append(
                Cue(value, start, end, "stated as an estimate", ESTIMATE_WEIGHT, check=True)
            )
    return cues


def share_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """The tenant's share as a percent; a stated division of areas that matches adds a cue."""
    cues = []
    for match in _SHARE.finditer(flat.text, *span):
        if re.search(r"(?i)\b(?:electric|utilit|tax|parking|increase)", match.group("between")):
            continue
        value = match.group("pct")
        start, end = match.span("pct")
        cues.append(Cue(value, start, end, "share clause", SHARE_WEIGHT))
        ratio = _RATIO.match(flat.text[end + 1 : end + 80])
        if ratio and _divides(ratio.group("part"), ratio.group("whole"), value):
            cues.append(
                Cue(
                    value,
                    start,
                    end,
                    "share = area / building area",
                    SHARE_CHECK_WEIGHT,
                    check=True,
                )
            )
    return cues


def _divides(part: str, whole: str, percent: str) -> bool:
    try:
        computed = Decimal(part.replace(",", "")) * 100 / Decimal(whole.replace(",", ""))
        stated = Decimal(percent)
    except (InvalidOperation, ZeroDivisionError):
        return False
    # Stated to n places, the percent is right within half a unit of its last place.
    places = len(percent.partition(".")[2])
    return abs(computed - stated) <= Decimal(5) / Decimal(10) ** (places + 1)
