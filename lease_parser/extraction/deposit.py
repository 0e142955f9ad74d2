"""The security deposit: cash, or the letter of credit that stands in for it.

"Security Deposit: None." and "no security deposit is required" state a deposit of 0.00;
a lease that never mentions one states nothing (null). An amount is the deposit when the
nearest label before it in its sentence is the deposit ("shall deposit with Landlord the
sum of ...", "Security Deposit shall mean a letter of credit in the amount of ...") or a
label right after names it ("$78,000.00 representing the security deposit"). Only the
first amount after a label counts: "(i) $1,200,000 until the fourth anniversary, (ii)
$960,000 thereafter" is a deposit that steps down, and its first amount is the deposit.
A deposit demanded only if something happens ("should Tenant default") is not one, and
neither is any restatement of that contingent figure.
"""

from __future__ import annotations

import re
from decimal import Decimal

from lease_parser.extraction.clauses import (
    named_after,
    nearest_label,
    sentence_start,
    sentence_tail,
)
from lease_parser.extraction.cues import Cue
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.money import MoneyMention, Per, find_money, money_in
from lease_parser.extraction.numbers import COUNT, parse_count

_DEPOSIT = r"\bsecurity\s+deposit\b|\bdeposit(?:ed|s)?\b|\bas\s+security\b"
_LETTER = r"\bletter\s+of\s+credit\b|\bL/?C\b"
# A deposit for something else than the tenant's performance ("pet deposit", "key deposit",
# "holding deposit") and the rights a lender or a UCC filing calls "letter of credit rights".
_OTHER_DEPOSIT = (
    r"\b(?:pet|animal|key|keys|holding|utility|utilities|pool|application|reservation|"
    r"admin\w*|cleaning|furniture|remote|fob|access\s+card|parking|move-?in)\s+deposits?\b|"
    r"\bletter\s+of\s+credit\s+rights\b"
)
_OTHER = (
    r"\brent(?:al)?\b|\binstallments?\b|\binsurance\b|\blate\s+(?:charge|fee)\b|\bfee\b|"
    r"\btax(?:es)?\b|\ballowance\b|\bcommission\b|\bexample\b|\bpurchase\s+price\b|"
    r"\bpenalt(?:y|ies)\b|\binterest\b|\bcost\b|\bdamages\b|\bcoverage\b|\bliability\b|"
    r"\bloan\b|\bmortgage\b|\bindebtedness\b"
)
# Words right after an amount that make it a charge ("$100 cleaning fee", "$100.00
# administration fee", "$25 per day").
_CHARGE_AFTER = re.compile(
    r"(?i)\s*\)?\s*(?:non-?refundable\s+)?(?:[\w-]+\s+){0,2}?(?:fee|charge|fine|penalty|"
    r"violation|deduction)s?\b|\s*(?:per|a|each)\s+(?:day|week|month|pet)\b"
)
_LABEL = re.compile(
    rf"(?i)(?P<other>{_OTHER_DEPOSIT})|(?P<deposit>{_DEPOSIT})|(?P<letter>{_LETTER})|(?P<other2>{_OTHER})"
)
_DEFINED_AS = re.compile(r'(?i)^\s*\(\s*(?:the\s+)?"(?:security\s+)?deposit"')
# Deposits that change, are demanded later or only on default are not the deposit.
_CONTINGENT = re.compile(
    r"(?i)\b(?:if|should|in\s+the\s+event|upon\s+(?:notice|demand|default)|reserves?\s+the\s+right|"
    r"may\s+(?:require|demand|increase)|demand|reduc\w*|decrease\w*|increase\w*|replenish\w*|"
    r"restore\w*|thereafter|additional|in\s+excess\s+of|exceed\w*|up\s+to|not\s+to\s+exceed|"
    r"(?:less|more|greater)\s+than|example|e\.g\.)\b"
)
_NONE = re.compile(
    r"(?i)\bsecurity\s+deposit\s*[:.-]?\s*(?:none|n/a|not\s+applicable|intentionally\s+"
    r"(?:omitted|deleted)|\$\s*0(?:\.00)?\b|zero\b)"
    r"|\b(?:there\s+(?:is|shall\s+be)\s+)?no\s+(?:initial\s+)?security\s+deposit\b"
    r"(?:\s+(?:is|shall\s+be)\s+(?:being\s+)?(?:required|payable|due))?"
    r"|\bshall\s+not\s+be\s+required\s+to\s+(?:pay|deposit|post|provide|deliver)\s+(?:a|any)\s+"
    r"security\s+deposit\b"
)

# "Security Deposit" names the deposit outright; a bare "deposit" may be any deposit.
AMOUNT_WEIGHT = 0.6
DEPOSIT_WORD_WEIGHT = 0.45
LETTER_WEIGHT = 0.4
# "Security Deposit: $X" on a summary page names the deposit as plainly as a clause does.
SUMMARY_WEIGHT = 0.6
NAMED_AFTER_WEIGHT = 0.45
# Words that agree with figures make a misread figure very unlikely.
WORDS_WEIGHT = 0.52
NONE_LABEL_WEIGHT = 0.6
NONE_SENTENCE_WEIGHT = 0.55
_SUMMARY_GAP = 12


# "a security deposit equal to three (3) months' Base Rent", "a refundable two month
# Security Deposit ($5,000.00)", "two months' rent as security".
_MONTHS_OF_RENT = re.compile(
    rf"(?i)\b{COUNT}\s*(?:full\s+)?(?:calendar\s+)?months?(?:['’]s?)?\s+(?:(?:of|in)\s+)?"
    r"(?:the\s+)?(?:(?:initial|first|monthly|then\s+current)\s+)*(?:(?:base|minimum|fixed|basic|"
    r"net)\s+)?(?P<noun>rent|rental|security\s+deposit|deposit)\b"
)


def _blank_rent(match: re.Match[str]) -> str:
    return (
        " " * len(match.group(0))
        if match.group("noun").lower().startswith("rent")
        else match.group(0)
    )


def _reading(text: str, mention: MoneyMention, span: tuple[int, int]) -> tuple[str, float] | None:
    """(source, weight) when ``mention`` is stated as the deposit; None otherwise."""
    lo, hi = span
    lead_start = sentence_start(text, mention.start, lo)
    lead = text[lead_start : mention.start]
    if _CONTINGENT.search(lead) or mention.per is not Per.NONE:
        return None
    if _CHARGE_AFTER.match(text, mention.end):
        return None
    tail = sentence_tail(text, mention.end, hi)
    named = named_after(tail, r"security\s+deposit\b|deposit\b|security\b") or _DEFINED_AS.match(
        tail
    )
    if named:
        explicit = "security" in named.group(0).lower()
        return "named as the deposit", AMOUNT_WEIGHT if explicit else NAMED_AFTER_WEIGHT
    # "a security deposit equal to three (3) months' Base Rent, being $7,500": the rent named
    # there measures the deposit, it is not the figure's label.
    label = nearest_label(_MONTHS_OF_RENT.sub(_blank_rent, lead), _LABEL)
    if label is None or label.group("other") or label.group("other2"):
        return None
    # Only the first figure after its label: later ones are step-downs or other sums.
    if find_money(lead[label.end() :]):
        return None
    gap = lead[label.end() :]
    says_security = re.search(r"(?i)security\s+deposit", lead) is not None
    if label.group("letter") and not says_security:
        return "letter of credit", LETTER_WEIGHT
    if len(gap) <= _SUMMARY_GAP and re.fullmatch(r"[\s:.\-–]*", gap):
        return "deposit summary line", SUMMARY_WEIGHT
    if says_security or re.search(r"(?i)as\s+security", label.group(0)):
        return "security deposit clause", AMOUNT_WEIGHT
    return "deposit clause", DEPOSIT_WORD_WEIGHT


def deposit_cues(flat: FlatText, span: tuple[int, int]) -> list[Cue]:
    """Cues for the deposit amount (or 0.00 when the lease says there is none)."""
    lo, hi = span
    text = flat.text
    cues: list[Cue] = []
    contingent: set[Decimal] = set()
    for mention in money_in(flat, lo, hi):
        found = _reading(text, mention, span)
        if found is None:
            lead = text[sentence_start(text, mention.start, lo) : mention.start]
            if _CONTINGENT.search(lead) and re.search(_DEPOSIT, lead, re.IGNORECASE):
                contingent.add(mention.amount)
            continue
        source, weight = found
        value = f"{mention.amount:.2f}"
        cues.append(Cue(value, mention.start, mention.end, source, weight))
        if mention.words_agree:
            cues.append(cues[-1].words_check(WORDS_WEIGHT))
    cues = [c for c in cues if Decimal(c.value) not in contingent]
    for match in _NONE.finditer(text, lo, hi):
        labelled = ":" in match.group(0) or match.group(0).lower().startswith("security deposit")
        source, weight = (
            ("deposit summary: none", NONE_LABEL_WEIGHT)
            if labelled
            else ("no deposit required", NONE_SENTENCE_WEIGHT)
        )
        cues.append(Cue("0.00", match.start(), match.end(), source, weight))
    return _letters_only_as_fallback(cues)


MULTIPLE_WEIGHT = 0.5


def stated_multiples(flat: FlatText, span: tuple[int, int], cues: list[Cue]) -> dict[str, int]:
    """Deposit amounts whose own sentence says how many months' rent they are."""
    lo, hi = span
    out: dict[str, int] = {}
    for cue in cues:
        if cue.value == "0.00":
            continue
        start = sentence_start(flat.text, cue.start, lo)
        sentence = flat.text[start : cue.end] + sentence_tail(flat.text, cue.end, hi)
        found = _MONTHS_OF_RENT.search(sentence)
        count = parse_count(found) if found else None
        if count is not None and count[1] is not False and 1 <= count[0] <= 12:
            out[cue.value] = count[0]
    return out


def multiple_of_rent_cues(
    cues: list[Cue], multiples: dict[str, int], monthly: str | None
) -> list[Cue]:
    """The deposit is the number of months' rent its sentence says it is: arithmetic with
    the monthly rent read elsewhere checks both figures."""
    if monthly is None:
        return []
    out = []
    for cue in cues:
        months = multiples.get(cue.value)
        if months and Decimal(cue.value) == Decimal(monthly) * months:
            source = f"deposit = {months} × monthly rent"
            out.append(Cue(cue.value, cue.start, cue.end, source, MULTIPLE_WEIGHT, check=True))
    return out[:1]


def _letters_only_as_fallback(cues: list[Cue]) -> list[Cue]:
    """A letter of credit given besides a cash deposit is extra security, not the deposit."""
    letters = {(c.start, c.end) for c in cues if c.source == "letter of credit"}
    cash = [c for c in cues if (c.start, c.end) not in letters and c.value != "0.00"]
    if cash:
        return [c for c in cues if (c.start, c.end) not in letters]
    return cues
