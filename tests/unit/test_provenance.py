"""Provenance is the evidence: the text a field cites states its value.

For every stated field, the cited span of its page (and, for a value derived from several
statements, each input's span) is read again on its own, and the value must be among what
that text can say: the same amount, date, number, or the same words. Run over generated
leases (text PDF and DOCX from the benchmark's generator) and, where it is beside the
repository, the labelled dev corpus.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from lease_parser.bench.corpus import docx_lease, text_pdf
from lease_parser.bench.lease_text import pick_facts
from lease_parser.evaluation.compare import canonical_text
from lease_parser.extraction import extract_fields
from lease_parser.extraction.appended import appended_amendments
from lease_parser.extraction.base import RawField
from lease_parser.extraction.dates import find_dates
from lease_parser.extraction.money import find_money
from lease_parser.extraction.numbers import (
    NUMBER_WORDS,
    ORDINAL_WORD,
    ordinal_value,
    parse_figure,
    words_to_int,
)
from lease_parser.extraction.term import DURATION, parse_duration
from lease_parser.parsing import ParseLimits, parse_document
from lease_parser.parsing.base import Document
from lease_parser.scoring.normalization import DATE_FIELDS, NOTICE_FIELDS
from tests.unit.parsing.conftest import CORPUS

# Inferred, not read from one statement: the currency (the jurisdiction's signs), and an
# escalation computed from the schedule's steps.
NOT_REREAD = frozenset({"currency", "escalation"})
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_WORD_NUMBER = re.compile(rf"(?i)\b(?:{NUMBER_WORDS})\b")
_ORDINAL = re.compile(rf"(?i)\b(?:{ORDINAL_WORD})\b")
_ONE = re.compile(r"(?i)\b(?:an?|one|single)\b")
_NONE = re.compile(r"(?i)\bno\b|\bnone\b|\bnot\b")
# What the cited text of each transfer rule says it with.
_TRANSFER_WORDS = {
    "consent": r"(?i)\bconsent|\bapprov",
    "prohibited": r"(?i)\bnot\b|\bno\b|prohibit|forbid",
    "permitted": r"(?i)\bmay\b|\bright\b|entitled",
}


def cited_texts(document: Document, raw: RawField) -> list[str]:
    spans = [(raw.page, raw.start, raw.end)] + [(c.page, c.start, c.end) for c in raw.inputs]
    return [document.pages[page - 1].text[start:end] for page, start, end in spans]


def numbers_in(text: str) -> set[Decimal]:
    found = {parse_figure(m.group(0)) for m in _NUMBER.finditer(text)}
    found |= {Decimal(n) for m in _WORD_NUMBER.finditer(text) if (n := words_to_int(m.group(0)))}
    found |= {Decimal(d.months) for m in DURATION.finditer(text) if (d := parse_duration(m))}
    found |= {Decimal(n) for m in _ORDINAL.finditer(text) if (n := ordinal_value(m.group(0)))}
    if _ONE.search(text):
        found.add(Decimal(1))
    if _NONE.search(text):
        found.add(Decimal(0))
    return {n for n in found if n is not None}


def says(name: str, value: str, text: str) -> bool:
    """Whether ``text`` alone states ``value`` for field ``name``."""
    money = ("base_rent_monthly", "base_rent_annual", "security_deposit", "cam_monthly")
    counts = ("term_months", "renewal_option_count", "renewal_term_months", "free_rent_months")
    numbers = ("expense_base_year", "percentage_rent", "rentable_sqft", "tenant_share_percent")
    if name in (*money, "letter_of_credit"):
        return Decimal(value) in {m.amount for m in find_money(text)} | numbers_in(text)
    if name in DATE_FIELDS:
        return value in _dates_in(text)
    if name in (*counts, *numbers, "premises_added_sqft"):
        return Decimal(value) in numbers_in(text)
    if name == "assignment_subletting":
        return re.search(_TRANSFER_WORDS[value], text) is not None
    if name in JSON_SAYS:
        return JSON_SAYS[name](json.loads(value), text)
    # Names and addresses: every word of the value is in the cited text.
    return set(canonical_text(value).split()) <= set(canonical_text(text).split())


def _dates_in(text: str) -> set[str]:
    # A numeric date cited alone may be day first: its document writes dates that way.
    both = (*find_dates(text), *find_dates(text, day_first=True))
    return {d.value.isoformat() for d in both}


def _says_window(window: Any, text: str) -> bool:
    counts = [window["least"]["count"]] + ([window["most"]["count"]] if window["most"] else [])
    return all(Decimal(count) in numbers_in(text) for count in counts)


def _says_amount(allowance: Any, text: str) -> bool:
    amount = Decimal(allowance["amount"])
    return amount in {m.amount for m in find_money(text)} | numbers_in(text)


def _says_schedule(steps: Any, text: str) -> bool:
    amounts = {m.amount for m in find_money(text)} | numbers_in(text)
    stated = [Decimal(s[k]) for s in steps for k in ("monthly", "annual") if s[k]]
    return all(a in amounts or a == 0 for a in stated)


def _says_addresses(addresses: Any, text: str) -> bool:
    words = set(canonical_text(text).split())
    lines = [line for line in addresses.values() if line]
    return all(set(canonical_text(line).split()) <= words for line in lines)


# Fields whose value is JSON: what the cited text must state of it.
JSON_SAYS: dict[str, Callable[[Any, str], bool]] = {
    **dict.fromkeys(NOTICE_FIELDS, _says_window),
    "ti_allowance": _says_amount,
    "expense_stop": _says_amount,
    "rent_schedule": _says_schedule,
    "break_dates": lambda dates, text: set(dates) <= _dates_in(text),
    "notice_addresses": _says_addresses,
}


def unsupported(document: Document) -> list[str]:
    """Every value (the document's own, and each amendment's filed after it) whose cited
    text does not state it."""
    read = [extract_fields(document)]
    read += [a.fields for a in appended_amendments(document, extract_fields)]
    out = []
    for fields in read:
        for name, raw in fields.items():
            if raw.value is None or name in NOT_REREAD:
                continue
            text = " ".join(cited_texts(document, raw))
            if not says(name, raw.value, text):
                out.append(f"{name}={raw.value!r} cites {text[:120]!r}")
    return out


def _generated() -> list[tuple[str, bytes]]:
    rng = random.Random(20261201)
    out = []
    for index in range(6):
        facts = pick_facts(rng)
        make = docx_lease if index % 3 == 2 else text_pdf
        data, _ = make(rng, facts, 3)
        out.append((f"generated-{index}", data))
    return out


@pytest.mark.parametrize(
    ("name", "data"), _generated(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_generated_leases_cite_what_states_each_value(name: str, data: bytes) -> None:
    document = parse_document(data, ParseLimits())
    assert unsupported(document) == []


def _corpus() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    # The scans need OCR first (tests/unit/parsing covers them); text layers are enough here.
    return sorted(
        p for p in CORPUS.iterdir() if p.suffix in (".pdf", ".docx") and ".scan" not in p.name
    )


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")
@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_corpus_leases_cite_what_states_each_value(path: Path) -> None:
    document = parse_document(path.read_bytes(), ParseLimits())
    assert unsupported(document) == []


def _raw(value: str, text: str) -> tuple[Document, RawField]:
    from tests.unit.extraction.lease_text import document

    doc = document(text)
    return doc, RawField("tenant", value, page=1, start=0, end=len(text))


def test_a_value_the_cited_text_does_not_state_is_caught() -> None:
    doc, raw = _raw("Beta Widgets Inc.", "Acme Holdings LLC")
    assert not says("tenant", raw.value or "", " ".join(cited_texts(doc, raw)))
