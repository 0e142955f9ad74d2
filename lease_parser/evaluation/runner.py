"""Abstract every document of a directory in this process, and score it in-sample and by
leave-one-document-out cross-validation.

Documents are parsed (from the optional cache) and extracted once; only the confidence
model and the routing differ between the runs: the shipped model for the in-sample run,
and for the cross-validated run, for each document a model fitted without it
(lease_parser.calibration.out_of_fold).
"""

from __future__ import annotations

import copy
import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lease_parser.abstract import (
    Extraction,
    extract_stage,
    normalize_stage,
    ocr_stage,
    parse_stage,
    result_for_error,
)
from lease_parser.confidence import ConfidenceModel
from lease_parser.errors import LeaseParserError
from lease_parser.evaluation.compare import DOCUMENT_SUFFIXES
from lease_parser.evaluation.scoring import (
    DocumentOutcome,
    EvalReport,
    outcome_from_result,
    score_outcomes,
)
from lease_parser.model import AbstractionResult
from lease_parser.parsing.base import Document
from lease_parser.settings import Settings

# Bump when the parse output changes shape or content, so old cache entries are ignored.
CACHE_VERSION = "3"
# Gates the cross-validated curve is reported at (the default gate is chosen from it).
CURVE_GATES = (0.5, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)


def load_labels(path: Path) -> dict[str, dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ValueError(f"{path}: expected {{file: {{field: value}}}}")
    return data


def document_files(directory: Path) -> list[Path]:
    return sorted(
        p for p in directory.iterdir() if p.is_file() and p.suffix.lower() in DOCUMENT_SUFFIXES
    )


def parse_with_cache(data: bytes, settings: Settings, cache_dir: Path) -> Document:
    """Parse (and OCR) ``data``, reusing a cached parse of the same bytes and OCR options."""
    key = hashlib.sha256(data).hexdigest()
    options = settings.ocr_options()
    path = cache_dir / f"{key}.v{CACHE_VERSION}.{options.dpi}dpi.{options.lang}.json"
    if path.exists():
        return Document.from_json(path.read_bytes())
    document = parse_stage(data, settings)
    if document.pages_needing_ocr:
        document = ocr_stage(document, data, settings)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(document.to_json(), encoding="utf-8")
    tmp.replace(path)
    return document


@dataclass
class Extracted:
    """One document read as far as extraction, or the route it ended in before that."""

    name: str
    extraction: Extraction | None
    failed: AbstractionResult | None = None
    seconds: float = 0.0

    def route(self, gate: float, model: ConfidenceModel) -> DocumentOutcome:
        """Score, normalize and route with ``model``."""
        started = time.perf_counter()
        if self.extraction is None:
            assert self.failed is not None
            result = self.failed
        else:
            result = normalize_stage(copy.deepcopy(self.extraction), gate, model)
        return outcome_from_result(self.name, result, self.seconds + time.perf_counter() - started)


def extract_file(path: Path, settings: Settings, cache_dir: Path | None) -> Extracted:
    started = time.perf_counter()
    data = path.read_bytes()
    try:
        if cache_dir is None:
            document = parse_stage(data, settings)
            if document.pages_needing_ocr:
                document = ocr_stage(document, data, settings)
        else:
            document = parse_with_cache(data, settings, cache_dir)
        extraction = extract_stage(document)
    except LeaseParserError as exc:
        return Extracted(path.name, None, result_for_error(exc), time.perf_counter() - started)
    return Extracted(path.name, extraction, None, time.perf_counter() - started)


@dataclass
class Evaluation:
    """The in-sample run (the shipped model) and the cross-validated one, at one gate, and
    the cross-validated run at each gate of ``CURVE_GATES``."""

    in_sample: EvalReport
    cross_validated: EvalReport | None = None
    curve: list[EvalReport] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        honest = self.cross_validated or self.in_sample
        return {
            **honest.to_json(),
            "cross_validated": self.cross_validated is not None,
            "in_sample": self.in_sample.to_json(),
            "curve": [_curve_point(r) for r in self.curve],
        }


def _curve_point(report: EvalReport) -> dict[str, Any]:
    return {
        "gate": report.gate,
        "precision_at_gate": report.precision_at_gate(),
        "recall_at_gate": report.recall_at_gate(),
        "committed_share": report.committed_share(),
        "auto_commit_precision": report.auto_commit_precision(),
        "fields_to_check": report.fields_to_check(),
    }


def evaluate_directory(
    directory: Path,
    labels: Mapping[str, Mapping[str, Any]],
    settings: Settings,
    cache_dir: Path | None = None,
    progress: Callable[[int, int, DocumentOutcome], None] | None = None,
    cross_validate: bool = True,
) -> Evaluation:
    """Abstract every document in ``directory`` in this process and score it."""
    files = document_files(directory)
    extracted = []
    gate, shipped = settings.confidence_gate, settings.confidence()
    for index, path in enumerate(files, start=1):
        extracted.append(extract_file(path, settings, cache_dir))
        if progress is not None:
            progress(index, len(files), extracted[-1].route(gate, shipped))
    in_sample = score_outcomes([e.route(gate, shipped) for e in extracted], labels, gate)
    if not cross_validate:
        return Evaluation(in_sample)
    models = held_out_models(extracted, labels)

    def run(at: float) -> EvalReport:
        outcomes = [e.route(at, models.get(e.name, shipped)) for e in extracted]
        return score_outcomes(outcomes, labels, at)

    return Evaluation(in_sample, run(gate), [run(at) for at in CURVE_GATES])


def held_out_models(
    extracted: list[Extracted], labels: Mapping[str, Mapping[str, Any]]
) -> dict[str, ConfidenceModel]:
    """For each document, the confidence model fitted on the other documents only."""
    # Imported here: fitting needs scikit-learn, an in-sample run does not.
    from lease_parser.calibration import labelled_examples, out_of_fold

    examples = [
        example
        for e in extracted
        if e.extraction is not None
        for example in labelled_examples(
            e.name, e.extraction.fields, labels.get(e.name, {}), alternatives=True
        )
    ]
    return out_of_fold(examples)
