"""Initial base rent, monthly and annual, from rent clauses, summary lines and rent schedules.

Every place the lease states the initial rent is a cue: a rent clause ("Tenant shall pay
Base Rent in the sum of $595.00 per month"), a summary line ("BASE RENT: $595.00"), the
first row of a rent schedule with rent to pay (abated rows are skipped). Arithmetic ties
them together — annual = 12 × monthly, rate per foot × area = annual — and each check that
holds is one more independent cue. An amount is never a rent when it is a rate per square
foot, an example, a later period's or a renewal term's rent, or labelled as something else
(additional rent, a deposit, a late charge, prepaid rent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal

from lease_parser.extraction.clauses import (
    named_after,
    nearest_label,
    sentence_start,
    sentence_tail,
)
from lease_parser.extraction.cues import Cue
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.money import MoneyMention, Per, money_in
from lease_parser.extraction.rent_table import (
    RentTable,
    RowReading,
    first_scheduled,
    rate_fits,
)

_QUALIFIER = r"(?:base|basic|minimum|fixed|net|gross|monthly|annual|annualized|yearly)"
_BASE_LABEL = (
    rf"\b(?:{_QUALIFIER}\s+){{1,3}}(?:rent|rental|lease\s+fees?)(?:\s+installments?)?\b"
    r"|\brent(?:al)?\s+(?:rate|amount|payments?|installments?)\b"
    r"|\brent\b(?!\s+(?:commencement|abatement|credit|holiday|free))"
    r"|\bmonthly\s+installments?\b|\binstallments\b|\b(?:shall|will|agrees?\s+to)\s+pay\b"
)
_OTHER_LABEL = (
    r"\b(?:additional|percentage|holdover|overage|prepaid|advance|total|market|parking|storage|"
    r"estimated|operating|late)\s+(?:rent|rental)\b|\bdeposit\b|\bsecurity\b|\bletter\s+of\s+credit\b|"
    r"\blate\s+(?:charge|fee)\b|\binterest\b|\bpenalt(?:y|ies)\b|\ballowance\b|\bcredit\b|"
    r"\bcommission\b|\bfee\b|\btax(?:es)?\b|\binsurance\b|\boperating\s+(?:costs?|expenses?)\b|"
    r"\bcommon\s+area\b|\bcam\b|\butilit(?:y|ies)\b|\bexample\b|\be\.g\.|\bcost\b|"
    r"\bpurchase\s+price\b|\bup\s+to\b|\bnot\s+to\s+exceed\b|\bin\s+excess\s+of\b|\bexceeds?\b|"
    r"\btotal\s*:|\bloan\b|\bmortgage\b"
)
# "Total Rent Due Monthly $775.00": what the tenant pays each month, rent and charges
# together; the rent itself only when no charge is itemised beside it (a weak cue).
_TOTAL_LABEL = (
    r"\btotal\s+(?:monthly\s+)?(?:rent|rental|amount|payment)s?\s+due\s+"
    r"(?:monthly|each\s+month|per\s+month)\b"
)
_LABEL = re.compile(
    rf"(?i)(?P<total>{_TOTAL_LABEL})|(?P<other>{_OTHER_LABEL})|(?P<base>{_BASE_LABEL})"
)
# "Rent Income $1,095.00 Total: $1,104.50 per month": items of a list whose total is monthly.
_ITEMISED_MONTHLY = re.compile(
    r"(?i)(?:\s*[A-Za-z][\w/' -]{0,40}?:?\s*\$\s?\d[\d,]*(?:\.\d\d)?)*"
    r"\s*total\s*:?\s*\$\s?\d[\d,]*(?:\.\d\d)?\s*(?:per\s+month|monthly|each\s+month)\b"
)
_OTHER = re.compile(rf"(?i){_OTHER_LABEL}")
# Rent of other space than the premises.
_OTHER_SPACE = (
    r"expansion\s+(?:space|premises)|must-?take\s+space|additional\s+(?:space|premises)|"
    r"first\s+offer|first\s+refusal|storage\s+space|parking"
)
# Before the amount, these say it is not the initial rent of the premises for the initial term.
_LATER = re.compile(
    rf"(?i)\b(?:{_OTHER_SPACE}|"
    r"thereafter|increase[sd]?|renewal|extension|extended|option|"
    r"holdover|hold(?:s|ing)?\s+over|(?:second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)"
    r"\s+(?:lease\s+)?year|lease\s+years?\s+(?:[2-9]|1\d)|months?\s+(?:1[3-9]|[2-9]\d)|"
    r"beginning\s+(?:with|on)|commencing\s+(?:with|on)\s+the\s+(?:first|1st)\s+day\s+of\s+the\s+"
    r"(?:second|13th)|credit|abate\w*|one-?half|half|one-?third|one-?quarter|portion\s+of|"
    r"percent(?:age)?\s+of|pro-?rat\w*|example|e\.g\.|for\s+instance|illustrat\w*)\b|%\s+of\b"
)
# Right after an amount, these make it a sum on top of the rent, not the rent ("$100 extra
# per month", "a $100 charge per month", "$50 per day fee").
_SURCHARGE = re.compile(
    r"(?i)[\s,)]*(?:extra|more|on\s+top\s+of|in\s+addition\s+to|"
    r"(?:per\s+(?:day|week|month)\s+)?(?:charge|fee|fine|penalty|surcharge|violation)s?)\b"
)
_MONTHLY_CONTEXT = re.compile(
    r"(?i)\b(?:each|every|per)\s+(?:calendar\s+)?month\b|\bmonthly\b|\ba\s+month\b"
)
_ANNUAL_CONTEXT = re.compile(r"(?i)\bper\s+(?:annum|year)\b|\bannual(?:ly)?\b|\byearly\b")
_SUMMARY_GAP = 12
_WEAK_LABEL = re.compile(r"(?i)rent|installments|(?:shall|will|agrees?\s+to)\s+pay")
# Smaller "rents" are nominal sums, misreads or rates; not what a reviewer would accept.
MIN_MONTHLY = Decimal("100")
MIN_ANNUAL = Decimal("1000")

CLAUSE_WEIGHT = 0.55
TOTAL_WEIGHT = 0.35
SUMMARY_WEIGHT = 0.58
SCHEDULE_WEIGHT = 0.5
WORDS_WEIGHT = 0.3
HEADING_WEIGHT = 0.3
CHECK_WEIGHT = {"exact": 0.5, "near": 0.2}
AREA_CHECK_WEIGHT = 0.5
SCHEDULE_AREA_WEIGHT = 0.35
RESTATED_WEIGHT = 0.3
RIVAL_SCHEDULE_WEIGHT = 0.45


@dataclass
class RentEvidence:
    """Cues for each rent field, and cues rent arithmetic gives other fields (the area)."""

    monthly: list[Cue] = field(default_factory=list)
    annual: list[Cue] = field(default_factory=list)
    area: list[Cue] = field(default_factory=list)
    # Rates per foot per year stated in rent clauses ("$22.75 per RSF per annum"): the
    # annual rate and the flat span it was read from.
    rates: list[tuple[Decimal, int, int]] = field(default_factory=list)
    disagreeing_words: set[str] = field(default_factory=set)
    table: RentTable | None = None
    # Flat spans of every schedule: their cells are read as a table, not as clauses.
    table_spans: list[tuple[int, int]] = field(default_factory=list)


def _unit(text: str, mention: MoneyMention, label: re.Match[str], lead: str) -> Per:
    """The period of an amount: its own unit, else the label's words, else the words
    between label and amount, right after it, then earlier in the sentence."""
    if mention.per is not Per.NONE:
        return mention.per
    if label.groupdict().get("total") or _ITEMISED_MONTHLY.match(
        text, mention.end, mention.end + 160
    ):
        return Per.MONTH
    tail = text[mention.end : mention.end + 30].lstrip(" ,)")
    for words in (label.group(0), lead[label.end() :], tail[:20], lead[: label.start()]):
        monthly = _MONTHLY_CONTEXT.search(words)
        annual = _ANNUAL_CONTEXT.search(words)
        if monthly and not annual:
            return Per.MONTH
        if annual and not monthly:
            return Per.YEAR
    return Per.NONE


def _clause_cue(text: str, mention: MoneyMention, lo: int, hi: int) -> tuple[Per, Cue] | None:
    """A cue when the amount is labelled base rent: by the nearest label before it in its
    sentence, or by what the words right after it call it ("$1,450.00 per month as rent")."""
    lead = text[sentence_start(text, mention.start, lo) : mention.start]
    # A heading like "Rent; Security Deposit; Parking." lists topics: not a later period.
    if _LATER.search(text[sentence_start(text, mention.start, lo, heading=False) : mention.start]):
        return None
    # "... ($1,322.71), which represents ... Common Area Expense": the tail names it.
    tail = sentence_tail(text, mention.end, hi)
    if _SURCHARGE.match(tail):
        return None  # "$100.00 extra per month in addition to this contract rent"
    named = named_after(tail, f"{_OTHER_LABEL}|{_BASE_LABEL}")
    if named is not None and _OTHER.fullmatch(named.group("what")):
        return None
    label = nearest_label(lead, _LABEL)
    if label is not None and re.match(r"(?i)total\s*:", label.group(0)):
        return None  # the sum of the items before it, whatever the words after call it
    if label is None or label.group("other"):
        if named is None:
            return None
        label = named
    unit = _unit(text, mention, label, lead if label is not named else "")
    gap = lead[label.end() :] if label is not named else "(named after the figure)"
    summary = len(gap) <= _SUMMARY_GAP and re.fullmatch(r"[\s:.\-–]*(?:\([^)]*\)\s*)?", gap)
    source, weight = (
        ("rent summary line", SUMMARY_WEIGHT) if summary else ("rent clause", CLAUSE_WEIGHT)
    )
    if _WEAK_LABEL.fullmatch(label.group("what") if label is named else label.group(0)):
        weight -= 0.15  # "rent" or "shall pay $X per month" alone is weaker than "Base Rent"
    if label is not named and label.group("total"):
        source, weight = "rent total", TOTAL_WEIGHT
    value = f"{mention.amount:.2f}"
    return unit, Cue(value, mention.start, mention.end, source, weight)


def _plausible(unit: Per, amount: Decimal) -> bool:
    return amount >= (MIN_MONTHLY if unit is Per.MONTH else MIN_ANNUAL)


def clause_evidence(flat: FlatText, span: tuple[int, int], evidence: RentEvidence) -> None:
    """Cues from rent clauses and summary lines; unit-less amounts support equal values."""
    lo, hi = span
    unitless: list[Cue] = []
    for mention in money_in(flat, lo, hi):
        inside = any(a <= mention.start < b for a, b in evidence.table_spans)
        found = None if inside else _clause_cue(flat.text, mention, lo, hi)
        if found is None:
            continue
        unit, cue = found
        if unit.per_foot:
            annual = mention.amount * 12 if unit is Per.SQFT_MONTH else mention.amount
            evidence.rates.append((annual, mention.start, mention.end))
            continue
        if mention.words_agree is False:
            evidence.disagreeing_words.add(cue.value)
        target = {Per.MONTH: evidence.monthly, Per.YEAR: evidence.annual}.get(unit, unitless)
        if unit is not Per.NONE and not _plausible(unit, mention.amount):
            continue
        target.append(cue)
        if mention.words_agree:
            target.append(cue.words_check(WORDS_WEIGHT))
    for cue in unitless:
        for known in (evidence.monthly, evidence.annual):
            if any(c.value == cue.value for c in known):
                known.append(cue)


# One pass over the first schedule's roles, each with its checks, heading and restatements:
# split up, the roles' shared state would travel through every piece (ruff C901, listed).
def table_evidence(  # noqa: C901
    tables: list[RentTable], areas: list[Decimal], evidence: RentEvidence, text: str
) -> None:
    """Cues from the first rent schedule's first row with rent; later schedules that start
    elsewhere (another premises, another version) are rivals, repeats are restatements."""
    readings = []
    evidence.table_spans = [(t.anchor_start, t.end) for t in tables]
    for table in tables:
        found = first_scheduled(table, areas)
        if found is not None and not _renewal_schedule(text, table):
            readings.append((table, found[1]))
    if not readings:
        return
    table, reading = readings[0]
    evidence.table = table
    for role, cues in (("monthly", evidence.monthly), ("annual", evidence.annual)):
        amount = getattr(reading, role)
        if amount is None:
            continue
        value = f"{amount.value:.2f}"
        cues.append(Cue(value, amount.start, amount.end, "rent schedule", SCHEDULE_WEIGHT))
        for check, fit in reading.checks.items():
            cues.append(Cue(value, amount.start, amount.end, check, CHECK_WEIGHT[fit], check=True))
        if table.names_monthly if role == "monthly" else table.names_annual:
            cues.append(Cue(value, amount.start, amount.end, "column heading", HEADING_WEIGHT))
        for _, other in readings[1:]:
            other_amount = getattr(other, role)
            if other_amount is None:
                continue
            other_value = f"{other_amount.value:.2f}"
            source, weight = (
                ("rent schedule restated", RESTATED_WEIGHT)
                if other_value == value
                else ("another rent schedule", RIVAL_SCHEDULE_WEIGHT)
            )
            cues.append(Cue(other_value, other_amount.start, other_amount.end, source, weight))
    if reading.area is not None:
        evidence.area.extend(_area_cues(reading))


def _area_cues(reading: RowReading) -> list[Cue]:
    """The area that makes rate × area = rent hold, cited in the row (or at the rate when
    the area came from the premises clause); a row that prints the area states it again,
    apart from the premises clause."""
    assert reading.area is not None
    assert reading.rate is not None
    area, start, end = reading.area
    if start < 0:
        start, end = reading.rate.start, reading.rate.end
        return [Cue(str(area), start, end, "rate × area = rent", AREA_CHECK_WEIGHT, check=True)]
    return [
        Cue(str(area), start, end, "rate × area = rent", AREA_CHECK_WEIGHT, check=True),
        Cue(str(area), start, end, "stated in the rent schedule", SCHEDULE_AREA_WEIGHT),
    ]


_RENEWAL_HEADING = re.compile(
    rf"(?i)\b(?:(?:renewal|extension|option)\s+(?:term|period)s?|{_OTHER_SPACE})\b"
)


def _renewal_schedule(text: str, table: RentTable) -> bool:
    """A schedule introduced as the rent of a renewal term or of other space (in its own
    sentence or heading, not in a summary item before it)."""
    own = sentence_start(text, table.anchor_start, heading=False)
    lead = text[own : table.anchor_start] + table.header
    return bool(_RENEWAL_HEADING.search(lead))


def cross_check(evidence: RentEvidence, areas: list[Decimal]) -> None:
    """Rate × area = rent: a rate per foot stated in a clause checks the rent it produces
    (annual = 12 × monthly across fields is a relation: extraction/relations.py)."""
    for rate, start, end in evidence.rates:
        for area in areas:
            for cues, months in ((evidence.annual, 12), (evidence.monthly, 1)):
                for cue in list(cues):
                    if rate_fits(rate, area, Decimal(cue.value), months):
                        weight = CHECK_WEIGHT["exact"]
                        cues.append(replace(cue, source="rate × area", weight=weight, check=True))
                        # The arithmetic holds only with this area: it checks the area too.
                        evidence.area.append(
                            Cue(
                                str(area),
                                start,
                                end,
                                "rate × area = rent",
                                AREA_CHECK_WEIGHT,
                                check=True,
                            )
                        )
