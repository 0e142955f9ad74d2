"""Fields nothing was read for: the evidence whether the lease states them at all.

An empty field is either one the lease does not state (a residential lease gives no
rentable area, a blank form no tenant) or one it states and extraction missed. The two look
alike from the output, and only the second is a hole in a portfolio, so every unread field
carries features a learned model (lease_parser.confidence, "not stated") weighs:

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
from lease_parser.parsing.base import PageSource

# The words a lease uses for each field, wherever it states it.
_WORDS: dict[str, str] = {
    "landlord": r"landlord|lessor|owner|sub-?landlord|sub-?lessor|licensor",
    "tenant": r"tenant|lessee|resident|sub-?tenant|sub-?lessee|licensee",
    "premises_address": r"premises|property|located\s+at|address|unit|suite|apartment",
    "rentable_sqft": r"square\s+f(?:ee|oo)t|sq\.?\s*f|rsf|square\s+met|sq\.?\s*m\b|m2",
    "lease_date": r"dated|made|day\s+of|effective\s+date|date\s+of\s+(?:this\s+)?agreement",
    "commencement_date": r"commence\w*|start\s+date|beginning\s+on",
    "expiration_date": r"expir\w*|ending\s+on|end\s+date",
    "term_months": r"\bterm\b",
    "base_rent_monthly": r"\brent\b",
    "base_rent_annual": r"\brent\b",
    "rent_schedule": r"rent\s+schedule|lease\s+years?|months?\s+\d",
    "escalation": r"increase\w*|escalat\w*|consumer\s+price|\bcpi\b|indexation",
    "cam_monthly": r"common\s+area|\bcam\b|operating\s+expenses|service\s+charge",
    "tenant_share_percent": r"pro\s*-?\s*rata|proportionate|\bshare\b",
    "security_deposit": r"deposit",
    "renewal_option_count": r"renew\w*|extend|extension",
    "renewal_term_months": r"renew\w*|extend|extension",
    "renewal_notice": r"renew\w*|extension",
    "termination_notice": r"break|terminat\w*|cancel\w*",
    "termination_option_date": r"break|terminat\w*|cancel\w*",
    "currency": r"currency|dollars?|pounds?|euros?|[$£€]",
    "amended_lease_date": r"amend\w*",
    "premises_added_sqft": r"expansion|additional\s+premises|must[-\s]take",
}
_PATTERNS = {name: re.compile(rf"(?i){words}") for name, words in _WORDS.items()}
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
    pattern = _PATTERNS.get(name)
    count = sum(1 for _ in pattern.finditer(flat.text, *span)) if pattern else 0
    # A first mention says more than a twentieth: log scale.
    scaled = math.log1p(min(count, MENTIONS_CAP)) / math.log1p(MENTIONS_CAP)
    return {"mentioned": 1.0 if count else 0.0, "mentions": round(scaled, 4)}


def _read(fields: Mapping[str, RawField], name: str) -> bool:
    raw = fields.get(name)
    return raw is not None and raw.value is not None


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
                "sibling_read": 1.0
                if any(_read(fields, s) for s in _SIBLINGS.get(name, ()))
                else 0.0,
                "no_option": 1.0
                if name in _NEED_AN_OPTION and count is not None and count.value == "0"
                else 0.0,
                **_document_features(flat, span),
            }
        )
        out.append(raw)
    return out
