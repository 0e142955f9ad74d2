"""The rent schedule as steps, and the escalation it (or an escalation clause) implies.

Steps come from the first base-rent schedule: each row's period (month numbers, lease
years as months, or dates) with the monthly, annual and per-foot amounts read by
rent_table's arithmetic. Rows for extension or renewal terms are not steps of the
initial term. The escalation is what the lease states (docs/fields.md): a clause's
percentage ("increased by three percent (3%) annually") or index (the Consumer Price
Index); a table of periods and no stated percentage is a ``schedule``, whatever ratio its
amounts happen to step by (``step_pattern`` still reads that ratio: a stated percentage
the steps follow is checked by them); one rent for the whole initial term and no increase
is ``none``.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from itertools import pairwise
from typing import Any

from lease_parser.extraction.anchored import searched_near
from lease_parser.extraction.base import Cited, RawField
from lease_parser.extraction.clauses import SENTENCE_END
from lease_parser.extraction.cues import Cue
from lease_parser.extraction.dates import parse_date
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.money import Per
from lease_parser.extraction.numbers import COUNT, parse_count
from lease_parser.extraction.rent_table import (
    EXACT_DOLLARS,
    RATE_RATIO,
    Amount,
    RentTable,
    Row,
    RowReading,
    annual_rate,
    first_scheduled,
    marker_period,
    monthly_annual_pairs,
    read_row,
)
from lease_parser.extraction.words import words_of
from lease_parser.model import EscalationKind

# Which marker names a row's period best when a row has several ("Year 1 Months 1-4").
_MARKER_PREFERENCE = ("range", "months", "years", "bare", "date", "ordinal", "small")
_EXTENSION_ROW = re.compile(r"(?i)\b(?:extension|renewal|option)\b")
# Consecutive ratios this close are one fixed percentage (figures are rounded to cents).
RATIO_TOLERANCE = Decimal("0.0005")
SCHEDULE_WEIGHT = 0.5
DERIVED_WEIGHT = 0.5
CLAUSE_WEIGHT = 0.5
# One rent for the term, read from the absence of any increase: weak alone, stronger when
# the lease says the rent is for the whole term or that it does not increase.
ONE_RENT_WEIGHT = 0.3
FOR_THE_TERM_WEIGHT = 0.4
NO_INCREASE_WEIGHT = 0.55
# A clause's rate for another term than the initial one ("the first Lease Year of a
# Renewal Term shall be 102.5%"), or for another rent, is not the initial term's escalation.
_OTHER_TERM = re.compile(
    r"(?i)\b(?:renewal|extension|extended|option)\s+(?:term|period|year)s?\b"
    r"|\bpercentage\s+rent\b|\bsubsequent\s+(?:lease|term)\b(?!\s+years?\b)"
)
# How far back a clause's sentence is searched for the term it speaks of.
SENTENCE_LOOKBACK = 400
_RENT_WORD = r"\b(?:base\s+|basic\s+|monthly\s+|annual\s+|fixed\s+|minimum\s+)?rent(?:al)?\b"
_TERM = r"(?:entire\s+|whole\s+|initial\s+(?:annual\s+)?)?(?:lease\s+|sublease\s+)?term\b"
_FOR_THE_TERM = re.compile(
    rf"(?i){_RENT_WORD}[^.;]{{0,150}}?\b(?:for|during|throughout)\s+the\s+{_TERM}"
    rf"|\b(?:for|during|throughout)\s+the\s+{_TERM}[^.;]{{0,150}}?{_RENT_WORD}"
)
_NO_INCREASE = re.compile(
    r"(?i)\bno\s+(?:rent(?:al)?\s+)?(?:increases?|escalations?)\b"
    r"|\b(?:rent(?:al)?|it)\s+(?:shall|will)\s+(?:not|remain)\s+(?:be\s+)?"
    r"(?:increased|change[d]?|fixed|the\s+same)\b"
)
# Words that state or allow a change of rent: a ``none`` beside them is doubtful.
INCREASE_TERMS = (
    "increase*",
    "escalat*",
    "consumer_price",
    "cpi",
    "index*",
    "review*",
    "adjust*",
    "fair_market",
    "market_rent",
    "fair_rental",
)
INCREASE_WORDS_CAP = 30

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
# "the then current Net Rental shall escalate by an amount equal to 2.5% of the Net Rental
# for the immediately preceding Lease Year"
_AMOUNT_OF_PRIOR = _near_percent_sign(
    re.compile(
        r"(?i)\b(?:increase|escalate)[sd]?\s+(?:by\s+)?an\s+amount\s+equal\s+to\s+"
        r"(?:[a-z-]+\s+(?:and\s+[a-z-]+\s+)?percent\s*\(\s*)?(?P<rate>\d{1,2}(?:\.\d{1,2})?)\s*%"
        r"\s*\)?\s+of\s+the\s+(?:base\s+|basic\s+|fixed\s+|minimum\s+|net\s+|annual\s+|monthly\s+)*"
        r"rent(?:al)?\b(?!\s+rate)[^.;]{0,40}?\b(?:prior|preceding|previous)\b"
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


def _period(
    table: RentTable, marker: re.Match[str] | None, row: Row | None
) -> tuple[int | dt.date | None, int | dt.date | None]:
    """A marker's period; a date followed by another date in the row ("from 8/1/06
    through 1/31/07" as two columns) runs from the first to the second."""
    if marker is None:
        return None, None
    start, end = marker_period(marker, table.counts_years)
    if row is not None and isinstance(start, dt.date) and end is None:
        later = [m for m in row.markers if m.start() > marker.start()]
        if later and later[0].group("d0"):
            second = parse_date(later[0].group("d0"))
            if second is not None and second > start:
                end = second
    return start, end


def _per_year(rate: Amount | None) -> str | None:
    """The rate per foot per year as the row states it; a monthly rate per foot is not
    an annual one (the labels leave it out rather than compute it)."""
    if rate is None or rate.per in (Per.SQFT_MONTH, Per.MONTH):
        return None
    return str(annual_rate(rate))


def _step(
    table: RentTable,
    marker: re.Match[str] | None,
    monthly: Amount | None,
    annual: Amount | None,
    rate: Amount | None,
    row: Row | None = None,
) -> dict[str, Any]:
    start, end = _period(table, marker, row)
    return {
        "start": start.isoformat() if isinstance(start, dt.date) else start,
        "end": end.isoformat() if isinstance(end, dt.date) else end,
        "monthly": str(monthly.value) if monthly else None,
        "annual": str(annual.value) if annual else None,
        "per_sqft_annual": _per_year(rate),
    }


def _zero_step(
    row: Row, table: RentTable, template: tuple[Row, RowReading] | None
) -> dict[str, Any]:
    """An abated period: base rent of zero in each column the row fills, the columns read
    from the first row with rent to pay when the row has as many cells, else from the
    heading's words."""
    marker = _best_marker(row)
    if template is not None and len(template[0].amounts) == len(row.amounts):
        cells, reading = template
        roles: dict[str, Amount | None] = {"monthly": None, "annual": None, "rate": None}
        for cell, zero in zip(cells.amounts, row.amounts, strict=True):
            for role in roles:
                if getattr(reading, role) is cell:
                    roles[role] = replace(zero, per=cell.per)
        if any(roles.values()):
            return _step(table, marker, roles["monthly"], roles["annual"], roles["rate"], row)
    zero = row.amounts[0]
    monthly = zero if table.names_monthly or not table.names_annual else None
    return _step(table, marker, monthly, zero if table.names_annual else None, None, row)


def _row_steps(
    row: Row, table: RentTable, areas: list[Decimal], template: tuple[Row, RowReading] | None
) -> list[dict[str, Any]]:
    """Usually one step; several when one row holds sub-periods column by column
    ("Year 1 Months 1-4 Months 5-12 $m1 $m2 $a1 $a2 $r1 $r2")."""
    reading = read_row(row, table, areas)
    if not reading.rent_amounts:
        if not row.amounts or any(a.value for a in row.amounts):
            return []
        return [_zero_step(row, table, template)]
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
    return [_step(table, _best_marker(row), reading.monthly, reading.annual, reading.rate, row)]


def schedule_steps(table: RentTable, areas: list[Decimal], text: str) -> list[dict[str, Any]]:
    """One step per row of the initial term (rows of extension terms are left out); a row
    stating only its start ends the day before the next row starts."""
    steps: list[dict[str, Any]] = []
    template = first_scheduled(table, areas)
    last: tuple[Row, list[dict[str, Any]]] | None = None
    for row in table.rows:
        if not row.amounts:
            continue  # a label with no amount states no step (and has no cells to read)
        # "Lease Years 11 through 15 First Extension Term $15,557.00": an extension row.
        label_start = row.markers[-1].start() if row.markers else row.amounts[0].start
        if _EXTENSION_ROW.search(text[label_start : row.amounts[0].start]):
            continue
        last = (row, _row_steps(row, table, areas, template))
        steps.extend(last[1])
    if last is not None and len(last[1]) == 1:
        _partial_last_year(last[1][0], last[0])
    for step, following in pairwise(steps):
        if step["end"] is None and _is_date(step["start"]) and _is_date(following["start"]):
            end = dt.date.fromisoformat(following["start"]) - dt.timedelta(days=1)
            step["end"] = end.isoformat()
    _apply_year_lengths(steps, text[table.anchor_start : table.end + _NOTE_REACH])
    return steps


def _partial_last_year(step: dict[str, Any], row: Row) -> None:
    """A last lease year cut short by the term's end: its total is a whole number of months'
    rent under twelve ("Year 21 … $7,379,845.00 $737,984.50", ten months), so the row ends
    that many months after it starts."""
    start, end, monthly = step["start"], step["end"], step["monthly"]
    if step["annual"] is not None or monthly is None or not isinstance(start, int):
        return
    if not isinstance(end, int) or end - start != 11:
        return
    rent = Decimal(monthly)
    for amount in row.amounts:
        months = amount.value / rent if rent else Decimal(0)
        whole = months.to_integral_value()
        if 1 < whole < 12 and abs(amount.value - whole * rent) <= EXACT_DOLLARS:
            step["annual"], step["end"] = str(amount.value), start + int(whole) - 1
            return


# "*Lease Year 3 shall consist of fourteen (14) months.": a note under the table.
_YEAR_LENGTH = re.compile(
    rf"(?i)\b(?:lease\s+)?year\s+(?P<year>\d{{1,2}})\s*\*?\s+shall\s+(?:consist\s+of|be|contain|"
    rf"comprise)\s+{COUNT}\s*(?:\(\s*\d+\s*\)\s*)?(?:full\s+)?(?:calendar\s+)?months\b"
)
_NOTE_REACH = 300


def _apply_year_lengths(steps: list[dict[str, Any]], notes: str) -> None:
    """A lease year the table or a note under it says is longer or shorter than twelve months
    ends where they say, and the months after it move with it."""
    for note in _YEAR_LENGTH.finditer(notes):
        counted = parse_count(note)
        if counted is None or not 1 <= counted[0] <= 24:
            continue
        year, shift = int(note.group("year")), counted[0] - 12
        first, last = 12 * (year - 1) + 1, 12 * year
        if not any(s["start"] == first and s["end"] == last for s in steps):
            continue  # the table does not count that year in twelve months
        for step in steps:
            for key in ("start", "end"):
                value = step[key]
                if isinstance(value, int) and (value > last or (key == "end" and value == last)):
                    step[key] = value + shift


def _is_date(value: object) -> bool:
    return isinstance(value, str) and len(value) == 10


def schedule_cue(table: RentTable, steps: list[dict[str, Any]]) -> Cue | None:
    if len(steps) < 1:
        return None
    return Cue(json.dumps(steps), table.anchor_start, table.end, "rent schedule", SCHEDULE_WEIGHT)


def _series(steps: list[dict[str, Any]], keys: tuple[str, ...]) -> list[Decimal]:
    for key in keys:
        values = [Decimal(s[key]) for s in steps if s.get(key) is not None]
        if len(values) == len(steps):
            return [v for v in values if v > 0]
    return []


def _changes(values: list[Decimal]) -> list[tuple[Decimal, Decimal]]:
    return [(a, b) for a, b in pairwise(values) if b != a]


def step_pattern(
    steps: list[dict[str, Any]],
) -> tuple[EscalationKind, Decimal | None] | None:
    """Fixed amount, fixed percent, or neither (``SCHEDULE``), from how the amounts step.

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


def escalation_from_steps(
    steps: list[dict[str, Any]],
) -> tuple[EscalationKind, Decimal | None] | None:
    """What a table alone states: each period's rent, so a ``schedule`` when the rent
    changes (a constant ratio is not a stated percentage); nothing when it does not."""
    return None if step_pattern(steps) is None else (EscalationKind.SCHEDULE, None)


def one_rent(steps: list[dict[str, Any]]) -> bool:
    """The initial term's steps state one rent: a single row, or rows of one amount."""
    amounts = {s.get("monthly") or s.get("annual") for s in steps}
    return bool(steps) and len(amounts) == 1 and None not in amounts and step_pattern(steps) is None


def escalation_value(kind: EscalationKind, rate: Decimal | None) -> str:
    return json.dumps({"kind": kind.value, "rate": None if rate is None else str(rate)})


def _for_another_term(text: str, start: int, end: int) -> bool:
    """The clause's sentence speaks of a renewal or extension term, or another rent."""
    lo = max(0, start - SENTENCE_LOOKBACK)
    ends = [m.end() for m in SENTENCE_END.finditer(text, lo, start)]
    return _OTHER_TERM.search(text, ends[-1] if ends else lo, end) is not None


def escalation_clause_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Escalations stated in words for the initial term: a yearly percentage, 10x% of the
    prior rent, the CPI."""
    cues = []
    for pattern in (
        _PERCENT_INCREASE,
        _ANNUAL_PERCENT,
        _YEARLY_INCREASE,
        _PERCENT_OF_PRIOR,
        _AMOUNT_OF_PRIOR,
    ):
        for match in pattern.finditer(flat.text, *span):
            if _for_another_term(flat.text, match.start(), match.end()):
                continue
            rate = Decimal(match.group("rate")).quantize(Decimal("0.01"))
            value = escalation_value(EscalationKind.FIXED_PERCENT, rate)
            cues.append(Cue(value, match.start(), match.end(), "escalation clause", CLAUSE_WEIGHT))
    for match in _CPI.finditer(flat.text, *span):
        value = escalation_value(EscalationKind.CPI, None)
        cues.append(Cue(value, match.start(), match.end(), "CPI adjustment clause", CLAUSE_WEIGHT))
    return cues


def follows_rate(steps: list[dict[str, Any]], rate: Decimal) -> bool:
    """Most of the table's changes of rent are the stated percentage (a row rounded or
    restated apart still leaves the rest following it)."""
    ratios = [b / a for a, b in _changes(_series(steps, ("annual", "monthly", "per_sqft_annual")))]
    step = 1 + rate / 100
    following = [r for r in ratios if abs(r - step) <= RATIO_TOLERANCE]
    return bool(ratios) and 2 * len(following) >= len(ratios)


def steps_escalation_cues(steps: list[dict[str, Any]], clauses: list[Cue], table: Cue) -> list[Cue]:
    """What the table says of the escalation: a check of a stated percentage its steps
    follow (the stated percentage wins), else each period's rent, a ``schedule``."""
    if step_pattern(steps) is None:
        return []
    for clause in clauses:
        stated = json.loads(clause.value)
        if stated["kind"] == EscalationKind.FIXED_PERCENT and follows_rate(
            steps, Decimal(stated["rate"])
        ):
            return [
                Cue(
                    clause.value,
                    table.start,
                    table.end,
                    "rent schedule steps",
                    DERIVED_WEIGHT,
                    check=True,
                )
            ]
    schedule = escalation_value(EscalationKind.SCHEDULE, None)
    return [Cue(schedule, table.start, table.end, "rent schedule steps", DERIVED_WEIGHT)]


def no_increase_cues(flat: FlatText, span: tuple[int, int], rents: list[Cue]) -> list[Cue]:
    """``none``: the lease states a rent and no increase. Cited at the rent statement, and
    at words that say the rent is for the term or does not increase."""
    if not rents:
        return []
    value = escalation_value(EscalationKind.NONE, None)
    rent = max(rents, key=lambda c: (c.weight, -c.start))
    cues = [Cue(value, rent.start, rent.end, "one rent for the term", ONE_RENT_WEIGHT)]
    for pattern, source, weight in (
        (_FOR_THE_TERM, "rent for the term", FOR_THE_TERM_WEIGHT),
        (_NO_INCREASE, "no increase stated", NO_INCREASE_WEIGHT),
    ):
        match = pattern.search(flat.text, *span)
        if match is not None:
            cues.append(Cue(value, match.start(), match.end(), source, weight))
    return cues


def escalation_features(
    flat: FlatText, span: tuple[int, int], value: str | None, steps: list[dict[str, Any]]
) -> dict[str, float]:
    """Evidence the model weighs for an escalation: whether it is ``none`` (read from what
    the lease does not say) and, for a ``none``, how much the agreement speaks of rent
    changing all the same; how many periods its table states."""
    kind = json.loads(value)["kind"] if value else None
    none = kind == EscalationKind.NONE.value
    scaled = 0.0
    if none:
        words = words_of(flat, span)
        count = sum(words.count(term) for term in INCREASE_TERMS)
        scaled = math.log1p(min(count, INCREASE_WORDS_CAP)) / math.log1p(INCREASE_WORDS_CAP)
    return {
        "no_increase": 1.0 if none else 0.0,
        "increase_words": round(scaled, 4),
        "table_rows": min(len(steps), 12) / 12,
    }


def _next_start(end: object) -> object:
    if isinstance(end, int):
        return end + 1
    if _is_date(end):
        return (dt.date.fromisoformat(str(end)) + dt.timedelta(days=1)).isoformat()
    return None


def schedule_gaps(steps: list[dict[str, Any]]) -> list[str]:
    """Where one period does not begin the day (or month) after the one before ends: a row
    lost in the text, or a table read across another; a reviewer reads which."""
    gaps = []
    for step, following in pairwise(steps):
        after = _next_start(step["end"])
        if after is not None and following["start"] is not None and following["start"] != after:
            gaps.append(f"{step['end']} is followed by {following['start']}")
    return gaps


def start_at_commencement(fields: Mapping[str, RawField]) -> None:
    """A first period "from the Commencement Date to January 31, 2024" starts on the
    commencement date the lease states, when it was read (and is before the period's end);
    the schedule then cites that statement too."""
    schedule, commencement = fields.get("rent_schedule"), fields.get("commencement_date")
    if schedule is None or schedule.value is None or commencement is None:
        return
    if commencement.value is None:
        return
    steps = json.loads(schedule.value)
    first = steps[0] if steps else None
    if first is None or first["start"] is not None or not _is_date(first["end"]):
        return
    if not commencement.value < first["end"]:
        return
    first["start"] = commencement.value
    schedule.value = json.dumps(steps)
    schedule.inputs.append(
        Cited(commencement.page, commencement.start, commencement.end, commencement.snippet)
    )
    schedule.notes.append(f"the first period starts on the commencement date {commencement.value}")
