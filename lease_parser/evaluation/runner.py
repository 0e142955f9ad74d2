"""Abstract every document of a directory in this process, and score it in-sample and by
cross-validation grouped by source.

Documents are parsed once (from the optional cache) and read twice: with the shipped model
for the in-sample run (and to collect the labelled examples), and for the cross-validated
run, each with the models fitted without its source family
(lease_parser.scoring.calibration.out_of_fold) — whose ranker chooses the values, whose
probabilities route it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lease_parser.abstract import (
    Extraction,
    extract_stage,
    normalize_stage,
    ocr_stage,
    parse_stage,
    result_for_error,
)
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
from lease_parser.scoring.confidence import ConfidenceModel
from lease_parser.settings import Settings

if TYPE_CHECKING:
    from lease_parser.scoring.calibration import Example

# Bump when the parse output changes shape or content, so old cache entries are ignored.
CACHE_VERSION = "4"
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
class Read:
    """One document parsed (and OCR'd), or the route it ended in before extraction."""

    name: str
    document: Document | None
    failed: AbstractionResult | None = None
    seconds: float = 0.0


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


def read_file(path: Path, settings: Settings, cache_dir: Path | None) -> Read:
    started = time.perf_counter()
    data = path.read_bytes()
    try:
        if cache_dir is None:
            document = parse_stage(data, settings)
            if document.pages_needing_ocr:
                document = ocr_stage(document, data, settings)
        else:
            document = parse_with_cache(data, settings, cache_dir)
    except LeaseParserError as exc:
        return Read(path.name, None, result_for_error(exc), time.perf_counter() - started)
    return Read(path.name, document, None, time.perf_counter() - started)


def extract_read(read: Read, model: ConfidenceModel) -> Extracted:
    """Extraction with ``model``'s ranker choosing the values."""
    if read.document is None:
        return Extracted(read.name, None, read.failed, read.seconds)
    started = time.perf_counter()
    try:
        extraction = extract_stage(read.document, model)
    except LeaseParserError as exc:
        return Extracted(read.name, None, result_for_error(exc), read.seconds)
    return Extracted(read.name, extraction, None, read.seconds + time.perf_counter() - started)


def extract_file(
    path: Path, settings: Settings, cache_dir: Path | None, model: ConfidenceModel | None = None
) -> Extracted:
    return extract_read(read_file(path, settings, cache_dir), model or settings.confidence())


@dataclass
class Evaluation:
    """The in-sample run (the shipped model) and the cross-validated one, at one gate, and
    the cross-validated run at each gate of ``CURVE_GATES``."""

    in_sample: EvalReport
    cross_validated: EvalReport | None = None
    curve: list[EvalReport] = field(default_factory=list)
    labels: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def honest(self) -> EvalReport:
        return self.cross_validated or self.in_sample

    def restricted(self, names: Collection[str]) -> EvalReport:
        """The honest run's figures over the documents ``names`` only."""
        wanted = set(names)
        outcomes = [o for o in self.honest.outcomes if o.name in wanted]
        labels = {k: v for k, v in self.labels.items() if k in wanted}
        return score_outcomes(outcomes, labels, self.honest.gate)

    def by_family(self) -> dict[str, EvalReport]:
        """The honest run's figures for each source family."""
        from lease_parser.scoring.calibration import source_family

        families: dict[str, list[str]] = {}
        for outcome in self.honest.outcomes:
            families.setdefault(source_family(outcome.name), []).append(outcome.name)
        return {family: self.restricted(names) for family, names in sorted(families.items())}

    def to_json(self, subsets: Mapping[str, Collection[str]] | None = None) -> dict[str, Any]:
        return {
            **self.honest.to_json(),
            "cross_validated": self.cross_validated is not None,
            "in_sample": self.in_sample.to_json(),
            "curve": [_curve_point(r) for r in self.curve],
            "by_family": {f: _summary(r) for f, r in self.by_family().items()},
            "subsets": {n: _summary(self.restricted(d)) for n, d in (subsets or {}).items()},
        }


def _summary(report: EvalReport) -> dict[str, Any]:
    return {
        "documents": len(report.outcomes),
        "lease_documents": len(report.lease_documents()),
        "precision_at_gate": report.precision_at_gate(),
        "recall_at_gate": report.recall_at_gate(),
        "committed": len(report.committed()),
        "complete_and_right": len(report.complete_and_right()),
        "committed_incomplete_or_wrong": len(report.committed_incomplete_or_wrong()),
        "calibration_error": report.calibration_error(),
        "not_stated_calibration_error": report.calibration_error(report.unread),
    }


def _curve_point(report: EvalReport) -> dict[str, Any]:
    return {
        "gate": report.gate,
        "precision_at_gate": report.precision_at_gate(),
        "recall_at_gate": report.recall_at_gate(),
        "committed_share": report.committed_share(),
        "complete_and_right": len(report.complete_and_right()),
        "committed_incomplete_or_wrong": len(report.committed_incomplete_or_wrong()),
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
    """Abstract every document in ``directory`` in this process and score it.

    Cross-validated by source: each source family's documents are read again with the
    models fitted without that family — the ranker then chooses their values, and the
    probabilities and the gate are that model's — so no document is judged, or has its
    values chosen, by a model that saw its source."""
    files = document_files(directory)
    reads, shipped_runs = [], []
    gate, shipped = settings.confidence_gate, settings.confidence()
    for index, path in enumerate(files, start=1):
        reads.append(read_file(path, settings, cache_dir))
        shipped_runs.append(extract_read(reads[-1], shipped))
        if progress is not None:
            progress(index, len(files), shipped_runs[-1].route(gate, shipped))
    in_sample = score_outcomes([e.route(gate, shipped) for e in shipped_runs], labels, gate)
    if not cross_validate:
        return Evaluation(in_sample, labels=labels)
    held = held_out_extractions(reads, shipped_runs, labels, shipped)

    def run(at: float) -> EvalReport:
        return score_outcomes([e.route(at, model) for e, model in held], labels, at)

    return Evaluation(in_sample, run(gate), [run(at) for at in CURVE_GATES], labels)


def held_out_extractions(
    reads: list[Read],
    shipped_runs: list[Extracted],
    labels: Mapping[str, Mapping[str, Any]],
    shipped: ConfidenceModel,
) -> list[tuple[Extracted, ConfidenceModel]]:
    """Each document read again with the models fitted without its source family (from
    the labelled examples of ``shipped_runs``), with those models."""
    from lease_parser.scoring.calibration import source_family

    models = held_out_models(shipped_runs, labels)
    out = []
    for read in reads:
        model = models.get(source_family(read.name), shipped)
        out.append((extract_read(read, model), model))
    return out


def examples_from(
    extracted: Iterable[Extracted], labels: Mapping[str, Mapping[str, Any]]
) -> list[Example]:
    """Every labelled candidate value and every labelled unread field of the documents."""
    # Imported here: fitting needs scikit-learn, an in-sample run does not.
    from lease_parser.scoring.calibration import labelled_examples, unread_examples

    out = []
    for e in extracted:
        if e.extraction is None:
            continue
        expected = labels.get(e.name, {})
        out += labelled_examples(e.name, e.extraction.fields, expected, alternatives=True)
        out += unread_examples(e.name, e.extraction.fields, expected)
    return out


def held_out_models(
    extracted: list[Extracted], labels: Mapping[str, Mapping[str, Any]]
) -> dict[str, ConfidenceModel]:
    """For each source family, the confidence models fitted on the other families only."""
    from lease_parser.scoring.calibration import out_of_fold

    return out_of_fold(examples_from(extracted, labels))
