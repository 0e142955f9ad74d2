"""The core, stage by stage: parse → OCR the pages that need it → extract → normalize → route.

Pure: bytes in, an ``AbstractionResult`` out. The Celery tasks call these same stage
functions one queue at a time; ``abstract_document`` runs them all in-process (the CLI's
``abstract``, the evaluation harness and the in-process benchmark baselines).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from lease_parser.errors import LeaseParserError
from lease_parser.extraction import RawField, extract_fields
from lease_parser.extraction.appended import AppendedAmendment, appended_amendments
from lease_parser.extraction.kind import classify_document
from lease_parser.model import AbstractionResult, AppendedAbstraction, DocumentKind
from lease_parser.outcomes import route_for_error
from lease_parser.parsing import Document, apply_ocr, parse_document
from lease_parser.parsing.base import PageSource
from lease_parser.scoring.confidence import ConfidenceModel, default_model, score_fields
from lease_parser.scoring.gate import route_after_normalization
from lease_parser.scoring.normalization import normalize_fields
from lease_parser.settings import Settings


@dataclass
class Extraction:
    """What extraction hands to normalization: small, JSON-safe, ≪ 50 KB."""

    kind: DocumentKind
    fields: dict[str, RawField]
    pages: int
    ocr_pages: int
    notes: list[str] = field(default_factory=list)
    # Amendments filed after the lease in the same document (extraction/appended.py).
    appended: list[AppendedAmendment] = field(default_factory=list)

    def to_message(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "fields": {k: v.to_dict() for k, v in self.fields.items()},
            "pages": self.pages,
            "ocr_pages": self.ocr_pages,
            "appended": [a.to_dict() for a in self.appended],
        }

    @classmethod
    def from_message(cls, data: dict[str, object]) -> Extraction:
        fields = data["fields"]
        assert isinstance(fields, dict)
        return cls(
            kind=DocumentKind(str(data["kind"])),
            fields={k: RawField.from_dict(v) for k, v in fields.items()},
            pages=int(str(data["pages"])),
            ocr_pages=int(str(data["ocr_pages"])),
            appended=[AppendedAmendment.from_dict(a) for a in _list(data.get("appended"))],
        )


def _list(value: object) -> list[dict[str, object]]:
    return value if isinstance(value, list) else []


def parse_stage(data: bytes, settings: Settings, password: str | None = None) -> Document:
    return parse_document(data, settings.parse_limits(), settings.ocr_options(), password)


def ocr_stage(
    document: Document, data: bytes, settings: Settings, password: str | None = None
) -> Document:
    return apply_ocr(document, data, settings.ocr_options(), password)


def extract_stage(document: Document, model: ConfidenceModel | None = None) -> Extraction:
    """Read every field; the confidence model's ranker (the shipped one unless ``model`` is
    given) chooses each field's value among the candidates the lease states."""
    ranker = (model or default_model()).score
    ocr_pages = sum(1 for p in document.pages if p.source is PageSource.OCR)
    return Extraction(
        kind=classify_document(document),
        fields=extract_fields(document, ranker),
        pages=len(document.pages),
        ocr_pages=ocr_pages,
        appended=appended_amendments(document, partial(extract_fields, ranker=ranker)),
    )


def normalize_stage(
    extraction: Extraction, gate: float, model: ConfidenceModel | None = None
) -> AbstractionResult:
    """Score each value's probability (the shipped model unless ``model`` is given), type
    and validate the values, and route the document."""
    model = model or default_model()
    score_fields(extraction.fields, model)
    abstraction, problems = normalize_fields(extraction.fields, extraction.kind)
    amendments = [_appended(a, model) for a in extraction.appended]
    decision = route_after_normalization(
        abstraction,
        problems,
        gate,
        model.fields,
        appended=len(amendments),
        not_stated=model.not_stated_fields,
    )
    return AbstractionResult(
        route=decision.route,
        reason=decision.reason,
        confidence=decision.confidence,
        abstraction=abstraction,
        problems=decision.doubtful,
        pages=extraction.pages,
        ocr_pages=extraction.ocr_pages,
        amendments=amendments,
    )


def _appended(amendment: AppendedAmendment, model: ConfidenceModel) -> AppendedAbstraction:
    """An appended amendment scored and typed like any document (its invalid values are
    left empty: the lease's review shows them)."""
    score_fields(amendment.fields, model)
    abstraction, _ = normalize_fields(amendment.fields, DocumentKind.AMENDMENT)
    return AppendedAbstraction(title=amendment.title, abstraction=abstraction)


def result_for_error(exc: LeaseParserError) -> AbstractionResult:
    route, reason = route_for_error(exc)
    return AbstractionResult(route=route, reason=reason, detail=str(exc))


def abstract_document(
    data: bytes, settings: Settings, password: str | None = None
) -> AbstractionResult:
    """The whole core on one document, in this process. Known failures become a route."""
    try:
        document = parse_stage(data, settings, password)
        if document.pages_needing_ocr:
            document = ocr_stage(document, data, settings, password)
        model = settings.confidence()
        return normalize_stage(extract_stage(document, model), settings.confidence_gate, model)
    except LeaseParserError as exc:
        return result_for_error(exc)
