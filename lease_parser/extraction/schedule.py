"""The rent schedule as steps, and the escalation it (or an escalation clause) implies.

Steps come from the first base-rent schedule: each row's period (month numbers, lease
years as months, or dates) with the monthly, annual and per-foot amounts read by
rent_table's arithmetic. Rows for extension or renewal terms are not steps of the
initial term. The escalation is what the steps show — a constant ratio is a fixed
percentage, a constant difference a fixed amount, anything else a schedule — or what a
clause says ("increased by three percent (3%) annually", the Consumer Price Index).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from itertools import pairwise
from typing import Any

from lease_parser.extraction.anchored import searched_near
from lease_parser.extraction.cues import Cue
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.rent_table import (
    RATE_RATIO,
    Amount,
    RentTable,
    Row,
    annual_rate,
    marker_period,
    monthly_annual_pairs,
    read_row,
)
from lease_parser.model import EscalationKind

# Which marker names a row's period best when a row has several ("Year 1 Months 1-4").
_MARKER_PREFERENCE = ("range", "months", "years", "bare", "date", "ordinal", "small")
_EXTENSION_ROW = re.compile(r"(?i)\b(?:extension|renewal|option)\b")
# Consecutive ratios this close are one fixed percentage (figures are rounded to cents).
RATIO_TOLERANCE = Decimal("0.0005")
SCHEDULE_WEIGHT = 0.5
DERIVED_WEIGHT = 0.5
CLAUSE_WEIGHT = 0.5

_BASE_RENT = r"(?:base|basic|fixed|minimum|annual|monthly)\s+rent(?:al)?"
# The CPI adjusts the base rent only when both are in one sentence.
# Escalation clauses state a percentage or name the index; they are searched only near it.
_PERCENT_SIGN = re.compile("%")
_INDEX_NAME = re.compile(r"(?i)\bconsumer\s+price\s+index|\bCPI")


_near_percent_sign = searched_near(_PERCENT_SIGN, before=250, after=250)
_near_index_name = searched_near(_INDEX_NAME, before=350, after=350)

_CPI = _near_index_name(
    re.compile(
        rf"(?i)\b{_BASE_RENT}\b[^.]{{0,250}}?\b(?:consumer\s+price\s+index|CPI(?:-[UW])?)\b"
        rf"|\b(?:consumer\s+price\s+index|CPI(?:-[UW])?)\b[^.]{{0,250}}?\b{_BASE_RENT}\b"
    )
)
_PERCENT_INCREASE = _near_percent_sign(
    re.compile(
        r"(?i)\b(?:increase|escalate)[sd]?\b[^.;]{0,60}?\bby\s+(?:[a-z-]+\s+(?:and\s+[a-z-]+\s+)?"
        r"percent\s*\(\s*)?(?P<rate>\d{1,2}(?:\.\d{1,2})?)\s*%\s*\)?[^.;]{0,60}?"
        r"\b(?:annual(?:ly)?|per\s+(?:annum|year)|each\s+(?:lease\s+)?year|anniversary|every\s+year)"
    )
)
# "Annually - adjusted by way of four percent (4%) increase"
_ANNUAL_PERCENT = _near_percent_sign(
    re.compile(
        r"(?i)\b(?:annual(?:ly)?|each\s+year|per\s+annum|every\s+year)\b[^.;]{0,60}?"
        r"(?:[a-z-]+\s+percent\s*\(\s*)?(?P<rate>\d{1,2}(?:\.\d{1,2})?)\s*%\s*\)?\s+"
        r"(?:annual\s+)?(?:increase|escalation|adjustment)s?\b"
    )
)
# "each lease year thereafter minimum rent shall increase by two and one-half percent (2.5%)"
_YEARLY_INCREASE = _near_percent_sign(
    re.compile(
        r"(?i)\b(?:each|every)\s+(?:lease\s+|calendar\s+)?year\b[^.;]{0,80}?\b(?:increase|escalate)[sd]?"
        r"\s+by\s+(?:[a-z-]+\s+(?:and\s+[a-z-]+\s+)?percent\s*\(\s*)?(?P<rate>\d{1,2}(?:\.\d{1,2})?)\s*%"
    )
)
_PERCENT_OF_PRIOR = _near_percent_sign(
    re.compile(
        r"(?i)\b(?:one\s+hundred\s+[a-z-]+\s+(?:and\s+[a-z-]+\s+)?percent\s*\(\s*)?1(?P<rate>0\d(?:\.\d{1,2})?)\s*%"
        r"\s*\)?\s+of\s+the\s+(?:base\s+|basic\s+|fixed\s+|minimum\s+|annual\s+|monthly\s+)*rent(?:al)?\b"
        r"[^.;]{0,80}?\b(?:prior|preceding|previous)\b"
    )
)


def _marker_kind(marker: re.Match[str]) -> str:
    if marker.group("dates"):
        return "date" if marker.group("d0") else "range"
    return next(k for k in _MARKER_PREFERENCE if k in marker.re.groupindex and marker.group(k))


def _best_marker(row: Row) -> re.Match[str] | None:
    ranked = sorted(row.markers, key=lambda m: _MARKER_PREFERENCE.index(_marker_kind(m)))
    return ranked[0] if ranked else None


def _step(
    table: RentTable,
    marker: re.Match[str] | None,
    monthly: Amount | None,
    annual: Amount | None,
    rate: Amount | None,
) -> dict[str, Any]:
    start, end = marker_period(marker, table.counts_years) if marker else (None, None)
    return {
        "start": start.isoformat() if isinstance(start, dt.date) else start,
        "end": end.isoformat() if isinstance(end, dt.date) else end,
        "monthly": str(monthly.value) if monthly else None,
        "annual": str(annual.value) if annual else None,
        "per_sqft_annual": str(annual_rate(rate)) if rate else None,
    }


def _row_steps(row: Row, table: RentTable, areas: list[Decimal]) -> list[dict[str, Any]]:
    """Usually one step; several when one row holds sub-periods column by column
    ("Year 1 Months 1-4 Months 5-12 $m1 $m2 $a1 $a2 $r1 $r2")."""
    reading = read_row(row, table, areas)
    if not reading.rent_amounts:
        # An abated period: base rent of zero, in whichever columns the heading names.
        if not row.amounts or any(a.value for a in row.amounts):
            return []
        zero = row.amounts[0]
        monthly = zero if table.names_monthly or not table.names_annual else None
        return [
            _step(table, _best_marker(row), monthly, zero if table.names_annual else None, None)
        ]
    leaves = [m for m in row.markers if _marker_kind(m) in ("months", "bare", "range")]
    pairs = monthly_annual_pairs(row.amounts)
    if len(leaves) >= 2 and len(pairs) == len(leaves):
        small = [a for a in row.amounts if a.value < min(p[0].value for p in pairs) / RATE_RATIO]
        rates: list[Amount | None] = (
            list(small) if len(small) == len(pairs) else [None] * len(pairs)
        )
        return [
            _step(table, m, *pair, rate) for m, pair, rate in zip(leaves, pairs, rates, strict=True)
        ]
    return [_step(table, _best_marker(row), reading.monthly, reading.annual, reading.rate)]


def schedule_steps(table: RentTable, areas: list[Decimal], text: str) -> list[dict[str, Any]]:
    """One step per row of the initial term (rows of extension terms are left out)."""
    steps = []
    for row in table.rows:
        if not row.amounts:
            continue  # a label with no amount states no step (and has no cells to read)
        # "Lease Years 11 through 15 First Extension Term $15,557.00": an extension row.
        label_start = row.markers[-1].start() if row.markers else row.amounts[0].start
        if _EXTENSION_ROW.search(text[label_start : row.amounts[0].start]):
            continue
        steps.extend(_row_steps(row, table, areas))
    return steps


def schedule_cue(table: RentTable, steps: list[dict[str, Any]]) -> Cue | None:
    if len(steps) < 1:
        return None
    return Cue(json.dumps(steps), table.anchor_start, table.end, "rent schedule", SCHEDULE_WEIGHT)


def _series(steps: list[dict[str, Any]], keys: tuple[str, ...]) -> list[Decimal]:
    for key in keys:
        values = [Decimal(s[key]) for s in steps if s[key] is not None]
        if len(values) == len(steps):
            return [v for v in values if v > 0]
    return []


def _changes(values: list[Decimal]) -> list[tuple[Decimal, Decimal]]:
    return [(a, b) for a, b in pairwise(values) if b != a]


def escalation_from_steps(
    steps: list[dict[str, Any]],
) -> tuple[EscalationKind, Decimal | None] | None:
    """Fixed amount, fixed percent, or a schedule, from how the amounts step.

    A fixed amount is read on the rate per foot when the schedule has one ("$0.50 per RSF
    a year"), a percentage on the largest amounts (their rounding distorts ratios least).
    """
    amounts = _changes(_series(steps, ("per_sqft_annual", "annual", "monthly")))
    if not amounts:
        return None
    differences = [b - a for a, b in amounts]
    if all(abs(d - differences[0]) <= Decimal("0.01") for d in differences) and differences[0] > 0:
        return EscalationKind.FIXED_AMOUNT, differences[0].quantize(Decimal("0.01"))
    ratios = [b / a for a, b in _changes(_series(steps, ("annual", "monthly", "per_sqft_annual")))]
    if ratios and ratios[0] > 1 and all(abs(r - ratios[0]) <= RATIO_TOLERANCE for r in ratios):
        return EscalationKind.FIXED_PERCENT, ((ratios[0] - 1) * 100).quantize(Decimal("0.01"))
    return EscalationKind.SCHEDULE, None


def escalation_value(kind: EscalationKind, rate: Decimal | None) -> str:
    return json.dumps({"kind": kind.value, "rate": None if rate is None else str(rate)})


def escalation_clause_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Escalations stated in words: a yearly percentage, 10x% of the prior rent, the CPI."""
    cues = []
    for pattern in (_PERCENT_INCREASE, _ANNUAL_PERCENT, _YEARLY_INCREASE, _PERCENT_OF_PRIOR):
        for match in pattern.finditer(flat.text, *span):
            rate = Decimal(match.group("rate")).quantize(Decimal("0.01"))
            value = escalation_value(EscalationKind.FIXED_PERCENT, rate)
            cues.append(Cue(value, match.start(), match.end(), "escalation clause", CLAUSE_WEIGHT))
    for match in _CPI.finditer(flat.text, *span):
        value = escalation_value(EscalationKind.CPI, None)
        cues.append(Cue(value, match.start(), match.end(), "CPI adjustment clause", CLAUSE_WEIGHT))
    return cues
