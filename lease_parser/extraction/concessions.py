"""What the tenant gives and gets besides the rent: a letter of credit, free rent, a tenant
improvement allowance, percentage rent, and the base year or the stop of the expenses it
pays over.

Each is read in one pass over the main agreement with compiled patterns, as leases state
it:

- ``letter_of_credit``: an amount whose nearest label before it in its sentence is a
  letter of credit ("Letter of Credit in the amount of $100,000.00", "Security Deposit;
  Letter of Credit: $500,000.00"); only the first amount after the label, and not one
  stated as a reduction, a later or a conditional amount;
- ``free_rent_months``: "Base Rent shall be abated for the first six (6) months", "an
  abatement of the Base Rental ... for the first three (3) full calendar months", "the
  Rent Credit Period shall be the first six full calendar months": rent abated, free or
  credited for the first N months; an abatement for a casualty, an interruption or a late
  delivery (day for day) is not free rent;
- ``ti_allowance``: an amount labelled a tenant improvement (or improvement, TI,
  construction, leasehold improvement) allowance, the total where the sentence states one,
  else the amount per square foot;
- ``percentage_rent``: "percentage rent equal to five percent (5%) of Gross Sales",
  "Percentage Rent. (a) 55% of Gross Revenue": the first percent of sales, revenue or
  receipts in a sentence that names percentage rent;
- ``expense_base_year``: "Base Year: calendar year 2008", "The Base Year ... shall be 2005",
  "calendar year 2008 (the "Base Year")"; a price index's base year is not one;
- ``expense_stop``: "Expense Stop: $9.75 per rentable square foot", "$9.75 per square foot
  per year (the "Expense Stop")": per foot or in total, as stated.

None of them is labelled yet, so none gates (model.py): their rivals are notes, not doubts.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from decimal import Decimal

from lease_parser.extraction.base import RawField
from lease_parser.extraction.clauses import LOOKBACK, SENTENCE_END, nearest_label, sentence_start
from lease_parser.extraction.cues import Cue, resolve
from lease_parser.extraction.evidence import without_doubts
from lease_parser.extraction.flat import FlatText, flat_text
from lease_parser.extraction.money import MoneyMention, Per, find_money, money_in
from lease_parser.extraction.numbers import COUNT, parse_count
from lease_parser.extraction.sections import primary_span
from lease_parser.parsing.base import Document

# How far a sentence runs after a cue's words when its end is not found sooner.
SENTENCE_AHEAD = 400
# Fewer characters than this after a cue's words before its sentence ends: it is a heading,
# and the next sentence is what it heads.
HEADING_AHEAD = 8
SUMMARY_GAP = 12
# A figure's defined term after it ("$2,156,115 ... (the "TI Allowance")") is this close.
AHEAD_OF_LABEL = 200

_LETTER_LABEL = re.compile(
    r"(?i)(?P<letter>\bletter\s+of\s+credit\b(?!\s+rights)|\bL/C\b)|(?P<other>\bdeposit\b|"
    r"\brent(?:al)?\b|\ballowance\b|\bfee\b|\binsurance\b|\bcost\b|\bprice\b|\bloan\b|"
    r"\bcommission\b|\bdamages\b|\bliability\b|\btax(?:es)?\b)"
)
# Amounts the letter steps down to, is raised by or must exceed: not the letter's amount.
_NOT_THE_AMOUNT = re.compile(
    r"(?i)\b(?:reduc\w*|decreas\w*|increas\w*|thereafter|additional|exceed\w*|in\s+excess|"
    r"(?:less|more|greater)\s+than|up\s+to|by\s+(?:an?\s+)?(?:amount|sum)|example|e\.g|if|"
    r"should|in\s+the\s+event|replenish\w*|restor\w*|draw\w*|minimum|remaining|balance)\b"
)
_NO_LETTER = re.compile(r"(?i)\bno\s+letter\s+of\s+credit\b|\bnot\s+(?:be\s+)?required\b")
LETTER_SUMMARY_WEIGHT = 0.6
LETTER_WEIGHT = 0.55
WORDS_WEIGHT = 0.5

# Where rent is said to be abated, free or credited (found by FlatText.places).
_ABATED = (
    "abate",
    "abatement",
    "free rent",
    "free of rent",
    "free of base rent",
    "rent free",
    "rent-free",
    "rent credit",
    "rent holiday",
    "rent concession",
)
_FIRST_MONTHS = re.compile(
    rf"(?i)\b(?:first|initial)\s+{COUNT}\s*(?:full\s+)?(?:calendar\s+)?months?\b"
)
# An abatement for what happens later is a remedy, not free rent.
_REMEDY = re.compile(
    r"(?i)\b(?:day[-\s]for[-\s]day|each\s+day|per\s+day|casualty|damage[sd]?|destr\w*|"
    r"condemn\w*|taking|interrupt\w*|fail\w*|delay\w*|renewal|extension|extended)\b"
)
_RENT = re.compile(r"(?i)\brent(?:al)?\b")
FREE_RENT_WEIGHT = 0.55
COUNT_WORDS_WEIGHT = 0.5

_ALLOWANCE_LABEL = re.compile(
    r"(?i)(?P<allowance>\b(?:tenant\s+improvements?|TI|leasehold\s+improvements?|improvements?|"
    r"construction|build[-\s]?out|fit[-\s]?out|work)\s+allowance\b)|(?P<other>\bdeposit\b|"
    r"\bletter\s+of\s+credit\b|\brent(?:al)?\b|\bfee\b|\bcommission\b|\bexcess\b|\bcosts?\b)"
)
_ALLOWANCE_NAMED = re.compile(
    r'(?i)[^.;]{0,140}?\(\s*(?:the\s+|an?\s+)?["“]\s*(?:tenant\s+improvements?|TI|improvements?'
    r"|construction|leasehold\s+improvements?)\s+allowance\s*[\"”]"
)
_NOT_THE_ALLOWANCE = re.compile(
    r"(?i)\b(?:excess|no\s+more\s+than|(?:less|more|greater)\s+than|exceed\w*\s+(?:the|such)|"
    r"in\s+addition|additional|unused|remaining|balance|interest|amortiz\w*|repa\w*|example|"
    r"e\.g|if|any|supplement\w*)\b"
)
# The figure's own defined term names another kind of allowance ("(the "Delay Allowance")").
_OTHER_ALLOWANCE = re.compile(
    r'(?i)[^.;]{0,40}?\(\s*(?:the\s+|an?\s+)?["“][^"”]{0,30}\b(?:delay|moving|relocation|'
    r"planning|renovation|refurbish\w*|signage|cabling|furniture|rent)\s+allowance\s*[\"”]"
)
_STOP_LABEL = re.compile(
    r"(?i)(?P<stop>\bexpense\s+stop\b)|(?P<other>\ballowance\b|\bdeposit\b|\brent(?:al)?\b|"
    r"\bletter\s+of\s+credit\b|\bfee\b)"
)
_STOP_NAMED = re.compile(r'(?i)[^.;$]{0,80}?\(\s*(?:the\s+|an?\s+)?["“]\s*expense\s+stop\s*["”]')
EXPENSE_STOP_WEIGHT = 0.55
TOTAL_WEIGHT = 0.6
PER_FOOT_WEIGHT = 0.5

_PERCENT_OF_SALES = re.compile(
    r"(?i)(?<![\d.])(?P<figure>\d{1,2}(?:\.\d{1,3})?)\s*(?:%|percent\b|per\s*cent\b)\s*\)?\s*of\s+"
    r"(?:(?:the|all|its|tenant['’]s|such)\s+)*(?:(?:annual|monthly|adjusted)\s+)?"
    r"(?:gross|net)\s+(?:sales|revenues?|receipts|income)\b"
)
PERCENTAGE_WEIGHT = 0.55

# Matched at each "base " of the lowered text (FlatText.places).
_BASE_YEAR = re.compile(
    r"base\s+(?:(?:expense|tax|operating\s+(?:expense|cost)s?)\s+)?year\b[\"”]?\s*"
    r"(?:\((?:expenses|taxes|operating\s+(?:expenses|costs))\)\s*)?"
    r"(?:for\s+(?:the\s+)?[\w\s]{0,40}?\s+)?(?:(?:shall\s+(?:be|mean)|means|is|will\s+be|:|-|–)"
    r"\s*)?(?:(?:expenses|taxes|operating\s+(?:expenses|costs))\s+for\s+)?(?:the\s+)?"
    r"(?:(?:calendar|fiscal)\s+year\s*|january\s+1\s*,\s*)?(?P<year>(?:19|20)\d{2})\b(?!\s*-\s*\d)"
)
# "calendar year 2008 (the "Base Year")", "a 2010 Base Year": the year right before it.
_YEAR_BEFORE = re.compile(
    r"(?<!\d)(?P<year>(?:19|20)\d{2})\s*(?:calendar\s+year\s*)?[(\s]*(?:the\s+)?[\"“]?\s*$"
)
_NAMES_ANOTHER = re.compile(r"base\s+year\s+(?:taxes|expenses|costs|operating)\b")
_INDEX = re.compile(r"(?i)\b(?:index|cpi|consumer\s+price|price\s+index)\b")
BASE_YEAR_WEIGHT = 0.55
BASE_YEAR_AFTER_WEIGHT = 0.45


def _sentence(text: str, start: int, end: int, span: tuple[int, int]) -> tuple[int, int]:
    """The sentence holding ``text[start:end]``, as flat offsets."""
    lo, hi = span
    head = sentence_start(text, start, lo)
    stop = SENTENCE_END.search(text, end, min(hi, end + SENTENCE_AHEAD))
    return head, stop.start() if stop else min(hi, end + SENTENCE_AHEAD)


def _after(places: list[int], mention: MoneyMention, ahead: int = LOOKBACK) -> bool:
    """A place lies before ``mention`` within its sentence's reach (or, for a label after
    the figure, within ``ahead`` characters after it)."""
    index = bisect_right(places, mention.start)
    before = index > 0 and mention.start - places[index - 1] <= LOOKBACK
    return before or (index < len(places) and places[index] - mention.end <= ahead)


def _first_after_label(
    text: str, mention: MoneyMention, lo: int, labels: re.Pattern[str], group: str
) -> str | None:
    """The text between ``mention``'s label (of ``group``) and it, when the nearest label
    before it in its sentence is one and no other amount comes between; else None."""
    lead = text[sentence_start(text, mention.start, lo) : mention.start]
    label = nearest_label(lead, labels)
    if label is None or not label.group(group):
        return None
    gap = lead[label.end() :]
    return None if find_money(gap) else gap


def letter_of_credit_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Amounts stated as a letter of credit's."""
    lo, hi = span
    text = flat.text
    labels = flat.places(("letter of credit", "l/c"), *span)
    cues: list[Cue] = []
    for mention in money_in(flat, lo, hi) if labels else ():
        if mention.per is not Per.NONE or mention.amount <= 0 or not _after(labels, mention):
            continue
        gap = _first_after_label(text, mention, lo, _LETTER_LABEL, "letter")
        if gap is None or _NOT_THE_AMOUNT.search(gap) or _NO_LETTER.search(gap):
            continue
        summary = len(gap) <= SUMMARY_GAP and re.fullmatch(r"[\s:.\-–]*", gap) is not None
        source, weight = (
            ("letter of credit summary line", LETTER_SUMMARY_WEIGHT)
            if summary
            else ("letter of credit clause", LETTER_WEIGHT)
        )
        cues.append(Cue(f"{mention.amount:.2f}", mention.start, mention.end, source, weight))
        if mention.words_agree:
            cues.append(cues[-1].words_check(WORDS_WEIGHT))
    return cues


def free_rent_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """The first months of the term whose rent is abated, free or credited."""
    text = flat.text
    cues: list[Cue] = []
    seen: set[int] = set()
    for at in flat.places(_ABATED, *span):
        head, stop = _sentence(text, at, at + 1, span)
        if head in seen:
            continue
        seen.add(head)
        sentence = text[head:stop]
        if _REMEDY.search(sentence) or not _RENT.search(sentence):
            continue
        months = _FIRST_MONTHS.search(text, head, stop)
        count = parse_count(months) if months else None
        if months is None or count is None or not 1 <= count[0] <= 60:
            continue
        cue = Cue(str(count[0]), months.start(), months.end(), "rent abated", FREE_RENT_WEIGHT)
        cues.append(cue)
        if count[1]:
            cues.append(cue.words_check(COUNT_WORDS_WEIGHT))
    return cues


def _allowance_value(mention: MoneyMention) -> str:
    per = "per_sqft" if mention.per is Per.SQFT else "total"
    return json.dumps({"amount": f"{mention.amount:.2f}", "per": per})


def _allowance_cue(text: str, mention: MoneyMention, lo: int, hi: int) -> Cue | None:
    if mention.per not in (Per.NONE, Per.SQFT) or mention.amount <= 0:
        return None
    named = _ALLOWANCE_NAMED.match(text, mention.end, min(hi, mention.end + 200))
    if named is not None:
        between = find_money(text, mention.end, named.end())
        if any(m.per is Per.NONE for m in between):
            named = None
    gap = "" if named else _first_after_label(text, mention, lo, _ALLOWANCE_LABEL, "allowance")
    if gap is None:
        return None
    if not named and _OTHER_ALLOWANCE.match(text, mention.end, min(hi, mention.end + 120)):
        return None
    if _NOT_THE_ALLOWANCE.search(gap):
        return None
    total = mention.per is Per.NONE
    source = "allowance, total" if total else "allowance per square foot"
    weight = TOTAL_WEIGHT if total else PER_FOOT_WEIGHT
    return Cue(_allowance_value(mention), mention.start, mention.end, source, weight)


def allowance_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """A tenant improvement allowance: the total, or the amount per square foot where the
    lease states no total."""
    lo, hi = span
    text = flat.text
    labels = flat.places(("allowance",), *span)
    cues = [
        cue
        for mention in (money_in(flat, lo, hi) if labels else ())
        if _after(labels, mention, AHEAD_OF_LABEL)
        and (cue := _allowance_cue(text, mention, lo, hi)) is not None
    ]
    totals = [c for c in cues if '"total"' in c.value]
    return totals or cues


def expense_stop_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """An expense stop: the amount labelled one before it ("Expense Stop: $9.75 per rentable
    square foot"), or named one right after it ("$9.75 per square foot (the "Expense
    Stop")")."""
    lo, hi = span
    text = flat.text
    labels = flat.places(("expense stop",), *span)
    cues = []
    for mention in money_in(flat, lo, hi) if labels else ():
        if mention.per not in (Per.NONE, Per.SQFT) or mention.amount <= 0:
            continue
        if not _after(labels, mention, AHEAD_OF_LABEL):
            continue
        named = _STOP_NAMED.match(text, mention.end, min(hi, mention.end + 120))
        gap = "" if named else _first_after_label(text, mention, lo, _STOP_LABEL, "stop")
        if gap is None or _NOT_THE_ALLOWANCE.search(gap):
            continue
        value = _allowance_value(mention)
        cues.append(Cue(value, mention.start, mention.end, "expense stop", EXPENSE_STOP_WEIGHT))
    return cues


def percentage_rent_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """The first percent of sales in each sentence that names percentage rent."""
    text = flat.text
    cues: list[Cue] = []
    seen: set[int] = set()
    for at in flat.places(("percentage rent",), *span):
        end = at + len("percentage rent")
        head, stop = _sentence(text, at, end, span)
        if stop - end < HEADING_AHEAD:  # "5. PERCENTAGE RENT. (a) 55% of ...": a heading
            stop = _sentence(text, stop + 1, stop + 1, span)[1]
        if head in seen:
            continue
        seen.add(head)
        percent = _PERCENT_OF_SALES.search(text, head, stop)
        if percent is None or Decimal(percent.group("figure")) <= 0:
            continue
        value = str(Decimal(percent.group("figure")).normalize())
        cues.append(
            Cue(value, percent.start(), percent.end(), "percentage rent", PERCENTAGE_WEIGHT)
        )
    return cues


def base_year_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """The base year of operating expenses or taxes."""
    text = flat.text
    cues: list[Cue] = []
    lowered = flat.lowered()
    lo, hi = span
    for at in flat.places(("base ",), lo, hi):
        match = _BASE_YEAR.match(lowered, at, hi)
        before = None
        if (
            match is None
            and lowered.startswith("base year", at)
            and not _NAMES_ANOTHER.match(lowered, at)
        ):
            before = _YEAR_BEFORE.search(lowered, max(lo, at - 30), at)
        found = match or before
        if found is None:
            continue
        head, stop = _sentence(text, found.start(), found.end(), span)
        if _INDEX.search(text, head, stop):
            continue
        source, weight = (
            ("base year stated", BASE_YEAR_WEIGHT)
            if match
            else ("year named the base year", BASE_YEAR_AFTER_WEIGHT)
        )
        end = found.end() if match else at + len("base year")
        cues.append(Cue(found.group("year"), found.start(), end, source, weight))
    # "a 2010 Base Year" is another space's, or a restatement: only when nothing states it.
    stated = [c for c in cues if c.source == "base year stated"]
    return stated or cues


def extract_concessions(document: Document) -> list[RawField]:
    """The letter of credit, free rent, allowance, percentage rent, base year and expense
    stop the main agreement states (none of them gates a document: model.py)."""
    if not document.pages:
        return []
    flat = flat_text(document)
    span = primary_span(document)
    fields = (
        resolve("letter_of_credit", letter_of_credit_cues(flat, span), flat),
        resolve("free_rent_months", free_rent_cues(flat, span), flat),
        resolve("percentage_rent", percentage_rent_cues(flat, span), flat),
        resolve("ti_allowance", allowance_cues(flat, span), flat),
        resolve("expense_base_year", base_year_cues(flat, span), flat),
        resolve("expense_stop", expense_stop_cues(flat, span), flat),
    )
    return [raw for field in fields if (raw := without_doubts(field)) is not None]
