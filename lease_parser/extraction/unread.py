"""Fields nothing was read for: the evidence whether the lease states them at all.

An empty field is either one the lease does not state (a residential lease gives no
rentable area, a blank form no tenant) or one it states and extraction missed. The two look
alike from the output, and only the second is a hole in a portfolio, so every unread field
carries features a learned model (lease_parser.scoring.confidence, "not stated") weighs:

- ``shape_found``: the shape of a statement of it was seen (extraction/stated.py);
- ``mentioned``, ``mentions``: whether the field's words occur in the main agreement at
  all, and how often (on a log scale, capped);
- ``sibling_read``: a field stated alongside it was read (the other party, the other rent,
  the term's dates), so the lease is read where it states such things;
- ``no_option``: for an option's length or notice, the lease grants no option;
- ``blanks``: how much of the agreement is blanks to fill in (a form);
- ``ocr``, ``pages``: how much was read by OCR, and how long the document is;
- ``kind_*``: the kind of document (set with the other fields' in extraction/__init__.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from lease_parser.extraction.base import RawField
from lease_parser.extraction.evidence import KIND_FEATURES
from lease_parser.extraction.flat import FlatText
from lease_parser.extraction.words import words_of
from lease_parser.parsing.base import PageSource

# The words a lease uses for each field, wherever it states it (terms as extraction/words.py
# reads them).
_WORDS: dict[str, str] = {
    "landlord": "landlord* lessor* owner* sublandlord* sub_landlord* sublessor* licensor*",
    "tenant": "tenant* lessee* resident* subtenant* sub_tenant* sublessee* licensee*",
    "premises_address": "premises property located_at address unit suite apartment",
    "rentable_sqft": "square_feet square_foot sq_ft sq_feet rsf square_metres square_meters m2",
    "lease_date": "dated made day_of effective_date date_of_this date_of_agreement",
    "commencement_date": "commence* start_date beginning_on",
    "expiration_date": "expir* ending_on end_date",
    "term_months": "term",
    "base_rent_monthly": "rent rental",
    "base_rent_annual": "rent rental",
    "rent_schedule": "rent_schedule lease_year lease_years",
    "escalation": "increase* escalat* consumer_price cpi indexation",
    "cam_monthly": "common_area cam operating_expenses service_charge*",
    "tenant_share_percent": "pro_rata prorata proportionate share",
    "security_deposit": "deposit*",
    "renewal_option_count": "renew* extend* extension*",
    "renewal_term_months": "renew* extend* extension*",
    "renewal_notice": "renew* extension*",
    "termination_notice": "break terminat* cancel*",
    "termination_option_date": "break terminat* cancel*",
    "currency": "currency dollar* pound* euro* $ £ €",
    "amended_lease_date": "amend*",
    "premises_added_sqft": "expansion additional_premises must_take",
    "letter_of_credit": "letter_of_credit letters_of_credit l_c",
    "free_rent_months": "abate* free_rent rent_free rent_credit",
    "percentage_rent": "percentage_rent gross_sales gross_revenue gross_receipts",
    "ti_allowance": "improvement_allowance ti_allowance allowance*",
    "expense_base_year": "base_year",
    "assignment_subletting": "assign* sublet* sublease*",
    "guarantor": "guarant*",
    "permitted_use": "permitted_use permitted_uses use_of_the_premises",
    "expense_stop": "expense_stop",
    "break_dates": "break terminat* cancel*",
    "notice_addresses": "notice* address*",
}
# Mentions beyond this many say nothing more.
MENTIONS_CAP = 20
_SIBLINGS: dict[str, tuple[str, ...]] = {
    "landlord": ("tenant",),
    "tenant": ("landlord",),
    "base_rent_monthly": ("base_rent_annual",),
    "base_rent_annual": ("base_rent_monthly",),
    "term_months": ("commencement_date", "expiration_date"),
    "commencement_date": ("expiration_date", "term_months"),
    "expiration_date": ("commencement_date", "term_months"),
    "renewal_term_months": ("renewal_option_count",),
    "renewal_notice": ("renewal_option_count",),
    "termination_notice": ("termination_option_date",),
    "termination_option_date": ("termination_notice",),
    "rent_schedule": ("escalation",),
    "escalation": ("rent_schedule",),
    "cam_monthly": ("tenant_share_percent",),
    "tenant_share_percent": ("cam_monthly",),
}
_NEED_AN_OPTION = frozenset({"renewal_term_months", "renewal_notice"})
_BLANK = re.compile(r"_{3,}|\[\s*\]|\{insert[^}]*\}", re.IGNORECASE)
# Blanks per 1,000 characters at which a document is all blanks, for this feature.
BLANKS_FULL = 2.0
PAGES_CAP = 100
UNREAD_FEATURES: tuple[str, ...] = (
    "shape_found",
    "mentioned",
    "mentions",
    "sibling_read",
    "no_option",
    "blanks",
    "ocr",
    "pages",
    *KIND_FEATURES,
)


def _document_features(flat: FlatText, span: tuple[int, int]) -> dict[str, float]:
    def compute() -> dict[str, float]:
        lo, hi = span
        blanks = sum(1 for _ in _BLANK.finditer(flat.text, lo, hi))
        pages = flat.pages
        ocr = sum(1 for p in pages if p.source is PageSource.OCR)
        return {
            "blanks": round(min(1.0, blanks * 1000 / max(hi - lo, 1) / BLANKS_FULL), 4),
            "ocr": round(ocr / len(pages), 4) if pages else 0.0,
            "pages": min(len(pages), PAGES_CAP) / PAGES_CAP,
        }

    return flat.shared(f"unread features {span}", compute)


def _mentions(flat: FlatText, span: tuple[int, int], name: str) -> dict[str, float]:
    words = words_of(flat, span)
    count = sum(words.count(term) for term in _WORDS.get(name, "").split())
    # A first mention says more than a twentieth: log scale.
    scaled = math.log1p(min(count, MENTIONS_CAP)) / math.log1p(MENTIONS_CAP)
    return {"mentioned": 1.0 if count else 0.0, "mentions": round(scaled, 4)}


def _read(fields: Mapping[str, RawField], name: str) -> bool:
    raw = fields.get(name)
    return raw is not None and raw.value is not None


def _sibling_read(fields: Mapping[str, RawField], name: str) -> bool:
    """A sibling read where the field would be stated: an escalation of ``none`` (one rent
    for the term) says the lease has no schedule, not that its schedule was missed."""
    for sibling in _SIBLINGS.get(name, ()):
        raw = fields.get(sibling)
        if raw is None or raw.value is None:
            continue
        if sibling == "escalation" and '"none"' in raw.value:
            continue
        return True
    return False


def unread_fields(
    flat: FlatText, span: tuple[int, int], fields: Mapping[str, RawField], names: tuple[str, ...]
) -> list[RawField]:
    """An empty field, with the evidence whether the lease states it, for each of ``names``
    nothing was read for (one already flagged "stated but not read" keeps its citation)."""
    out = []
    for name in names:
        if _read(fields, name):
            continue
        raw = fields.get(name) or RawField(name, None)
        count = fields.get("renewal_option_count")
        raw.evidence.update(
            {
                "shape_found": 1.0 if raw.doubts else 0.0,
                **_mentions(flat, span, name),
                "sibling_read": 1.0 if _sibling_read(fields, name) else 0.0,
                "no_option": 1.0
                if name in _NEED_AN_OPTION and count is not None and count.value == "0"
                else 0.0,
                **_document_features(flat, span),
            }
        )
        out.append(raw)
    return out
