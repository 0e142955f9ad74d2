"""The evidence for an extracted value, as named features, and the doubts a person resolves.

Every extracted value carries the same small record (``RawField.evidence``), so one model
(lease_parser.scoring.confidence) can learn from labelled leases what it is worth:

- ``statements``: independent statements of the value — cues in the same sentence or table
  row count once (cues.py);
- ``kinds``: how many kinds of place state it (preamble, summary line, definition, ...);
- ``strong``: a self-verifying statement on a text page (a clean preamble, see parties.py);
- ``prior``, ``support``: how telling the best statement, and all of them together, are by
  the extractors' ranking of places (the order in which rival values are chosen);
- ``checks``: checks of the reading that hold (words = figures, annual = 12 × monthly);
- ``relations_met``, ``relations_failed``: consistency with other fields (relations.py);
- ``rival_statements``, ``rival_support``: the best-supported other value;
- ``ocr``: how doubtful the page's OCR is (0 for a text layer);
- ``caveats``: wording that leaves the value open (below);
- ``assembled``, ``complete``: an address joined from parts stated apart, one with its city
  and state;
- ``kind_*``: the kind of document;
- ``no_increase``, ``increase_words``, ``table_rows``: for an escalation, whether it is
  ``none`` (one rent for the term, read from no increase being stated) and, for a ``none``,
  how much the agreement speaks of rent changing all the same (increase, CPI, review ...),
  and how many periods its rent table states (extraction/schedule.py);
- ``place=*``, ``context=*``, ``position``, ``early``: where the candidate is stated and the
  words before it (extraction/candidates.py); ``sanity=*``: what its value should not look
  like (extraction/sanity.py).

A ``Doubt`` is a reason a person must look whatever the probability says: the lease
disagrees with itself (a rival value, a failed relation), its wording is ambiguous (a
caveat), or it states a field nobody read.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum

from lease_parser.extraction.base import RawField
from lease_parser.extraction.candidates import CANDIDATE_FEATURES
from lease_parser.extraction.sanity import SANITY_FEATURES
from lease_parser.parsing.base import Page, PageSource

# A page OCR'd without a confidence reading is treated as middling OCR.
UNKNOWN_OCR_DOUBT = 0.15


class Doubt(StrEnum):
    """Why a value needs a person, whatever its probability."""

    RIVAL_VALUE = "rival_value"
    FAILED_RELATION = "failed_relation"
    CAVEAT = "caveat"
    STATED_NOT_READ = "stated_not_read"


@dataclass
class Evidence:
    statements: int = 0
    kinds: int = 0
    strong: bool = False
    prior: float = 0.0
    support: float = 0.0
    checks: int = 0
    rival_statements: int = 0
    rival_support: float = 0.0
    ocr: float = 0.0

    def features(self) -> dict[str, float]:
        return {k: round(float(v), 4) for k, v in asdict(self).items()}


def ocr_doubt(page: Page) -> float:
    """0 for a text layer; for an OCR page, the share of its reading Tesseract doubted."""
    if page.source is not PageSource.OCR:
        return 0.0
    confidence = page.quality.ocr_confidence
    if confidence is None:
        return UNKNOWN_OCR_DOUBT
    return round(max(0.0, min(1.0, 1 - confidence / 100)), 4)


# Features extraction adds beside Evidence's own.
RELATION_FEATURES = ("relations_met", "relations_failed")
CAVEAT_FEATURE = "caveats"
ASSEMBLED_FEATURE = "assembled"  # the value joins parts stated in different places
COMPLETE_FEATURE = "complete"  # an address with its city and state
KIND_FEATURES = ("kind_sublease", "kind_amendment", "kind_form")
ESCALATION_FEATURES = ("no_increase", "increase_words", "table_rows")
FEATURES: tuple[str, ...] = (
    *Evidence.__dataclass_fields__,
    *RELATION_FEATURES,
    CAVEAT_FEATURE,
    ASSEMBLED_FEATURE,
    COMPLETE_FEATURE,
    *KIND_FEATURES,
    *ESCALATION_FEATURES,
    *CANDIDATE_FEATURES,
    *SANITY_FEATURES,
)


def add_caveat(raw: RawField, why: str) -> None:
    """The lease's wording leaves ``raw``'s value open (a reviewer reads ``why``)."""
    previous = raw.doubts.get(Doubt.CAVEAT)
    raw.doubts[Doubt.CAVEAT] = f"{previous}; {why}" if previous else why
    raw.evidence[CAVEAT_FEATURE] = raw.evidence.get(CAVEAT_FEATURE, 0.0) + 1
    raw.notes.append(why)


def without_doubts(raw: RawField | None) -> RawField | None:
    """A field no labels score yet (model.py, issue 23): it never holds a document back, so
    what would be a doubt (a rival the lease also states) is a note beside its value, and
    the rivals stay listed with their citations."""
    if raw is None:
        return None
    raw.notes.extend(f"{code}: {why}" for code, why in raw.doubts.items() if why not in raw.notes)
    raw.doubts.clear()
    return raw
