"""Abstract every document of a directory in this process (with an optional parse cache)."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from lease_parser.abstract import (
    abstract_document,
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
from lease_parser.parsing.base import (
    Document,
)
from lease_parser.settings import Settings

# Bump when the parse output changes shape or content, so old cache entries are ignored.
CACHE_VERSION = "2"


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


def abstract_file(path: Path, settings: Settings, cache_dir: Path | None) -> AbstractionResult:
    data = path.read_bytes()
    if cache_dir is None:
        return abstract_document(data, settings)
    try:
        document = parse_with_cache(data, settings, cache_dir)
        return normalize_stage(extract_stage(document), settings.confidence_gate)
    except LeaseParserError as exc:
        return result_for_error(exc)


def evaluate_directory(
    directory: Path,
    labels: Mapping[str, Mapping[str, Any]],
    settings: Settings,
    cache_dir: Path | None = None,
    progress: Callable[[int, int, DocumentOutcome], None] | None = None,
) -> EvalReport:
    """Abstract every document in ``directory`` in this process and score it."""
    files = document_files(directory)
    outcomes = []
    for index, path in enumerate(files, start=1):
        started = time.perf_counter()
        result = abstract_file(path, settings, cache_dir)
        outcome = outcome_from_result(path.name, result, time.perf_counter() - started)
        outcomes.append(outcome)
        if progress is not None:
            progress(index, len(files), outcome)
    return score_outcomes(outcomes, labels, settings.confidence_gate)
