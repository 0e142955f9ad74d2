"""Monthly base rent and the security deposit, read from the sentences that define them."""

from __future__ import annotations

import re
from decimal import Decimal

from lease_parser.extraction.base import RawField, snippet
from lease_parser.extraction.money import MoneyMention, find_money
from lease_parser.parsing.base import Document, Page

_RENT_LABEL = re.compile(
    r"(?i)\b(?:monthly\s+(?:base\s+|minimum\s+|fixed\s+)?rent(?:al)?|"
    r"(?:base|minimum|fixed|basic)\s+(?:monthly\s+)?rent(?:al)?)\b"
)
_MONTHLY = re.compile(r"(?i)\b(?:per\s+month|monthly|a\s+month|each\s+month|/\s*mo(?:nth)?)\b")
_ANNUAL = re.compile(r"(?i)\b(?:per\s+(?:annum|year)|annual(?:ly)?|yearly|a\s+year|/\s*yr)\b")
_DEPOSIT_LABEL = re.compile(r"(?i)\bsecurity\s+deposit\b")
_DEPOSIT_NONE = re.compile(r"(?i)\bsecurity\s+deposit\s*:?\s*(?:none|n/a|\$?0(?:\.00)?\b)")
WINDOW = 220


def _mention_field(
    name: str, page: Page, mention: MoneyMention, base: float, notes: list[str]
) -> RawField:
    confidence = base
    if mention.words_agree is True:
        confidence += 0.15
        notes = [*notes, "words agree with figures"]
    elif mention.words_agree is False:
        confidence -= 0.25
        notes = [*notes, "words disagree with figures; figures kept"]
    return RawField(
        name=name,
        value=f"{mention.amount:.2f}",
        confidence=round(min(confidence, 0.95), 3),
        page=page.number,
        start=mention.start,
        end=mention.end,
        snippet=snippet(page, mention.start, mention.end),
        notes=notes,
    )


def _monthly_rent_candidates(document: Document) -> list[RawField]:
    out = []
    for page in document.pages:
        for label in _RENT_LABEL.finditer(page.text):
            window_end = min(len(page.text), label.end() + WINDOW)
            window = page.text[label.start() : window_end]
            for mention in find_money(window)[:2]:
                after = window[mention.end - 0 : mention.end + 40]
                before = window[max(0, mention.start - 40) : mention.start]
                if _ANNUAL.search(after) and not _MONTHLY.search(after):
                    continue
                if not (
                    _MONTHLY.search(after)
                    or _MONTHLY.search(before)
                    or "monthly" in label.group(0).lower()
                ):
                    continue
                shifted = MoneyMention(
                    mention.amount,
                    mention.start + label.start(),
                    mention.end + label.start(),
                    mention.words_agree,
                )
                out.append(_mention_field("base_rent_monthly", page, shifted, 0.6, ["rent clause"]))
                break
    return out


def _agreeing(candidates: list[RawField]) -> RawField | None:
    """The first candidate, with confidence raised by repeats and lowered by conflicts."""
    if not candidates:
        return None
    first = candidates[0]
    same = [c for c in candidates[1:] if c.value == first.value]
    other = {c.value for c in candidates[1:] if c.value != first.value}
    if same:
        first.confidence = min(0.95, first.confidence + 0.12 * min(len(same), 2))
        first.notes.append(f"stated {len(same) + 1} times")
    if other:
        first.confidence = min(first.confidence, 0.55)
        first.notes.append(
            "other amounts also stated: " + ", ".join(sorted(str(v) for v in other)[:3])
        )
    return first


def extract_base_rent(document: Document) -> list[RawField]:
    best = _agreeing(_monthly_rent_candidates(document))
    return [best] if best else []


def extract_security_deposit(document: Document) -> list[RawField]:
    candidates = []
    for page in document.pages:
        none = _DEPOSIT_NONE.search(page.text)
        if none:
            candidates.append(
                RawField(
                    "security_deposit",
                    "0.00",
                    0.6,
                    page.number,
                    none.start(),
                    none.end(),
                    snippet(page, none.start(), none.end()),
                    ["stated as none"],
                )
            )
        for label in _DEPOSIT_LABEL.finditer(page.text):
            window = page.text[label.end() : label.end() + WINDOW]
            mentions = find_money(window)
            if not mentions:
                continue
            m = mentions[0]
            shifted = MoneyMention(
                m.amount, m.start + label.end(), m.end + label.end(), m.words_agree
            )
            candidates.append(
                _mention_field("security_deposit", page, shifted, 0.62, ["deposit clause"])
            )
    best = _agreeing(candidates)
    if best is not None and best.value is not None and Decimal(best.value) < 0:
        return []
    return [best] if best else []
