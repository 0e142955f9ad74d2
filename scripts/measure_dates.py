"""Critical dates on the labelled dev corpus: every expiration and option window the labels
let one compute, listed and right, and none wrong at the gate (issue 16's target).

Each document is parsed (cached like ``make eval``), and read and given confidences by the
models fitted on the *other* source families (as ``eval`` does), so no date is chosen or
judged by a model that saw its source. Notice periods are not in the corpus
labels: they come from tests/fixtures/dev_notice_labels.json (one reader).

usage: python scripts/measure_dates.py [DIR] [--labels FILE] [--notices FILE] [--json]
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

from lease_parser.abstract import normalize_stage
from lease_parser.evaluation.dates import DatesReport, check_document
from lease_parser.evaluation.runner import (
    document_files,
    extract_read,
    held_out_extractions,
    load_labels,
    read_file,
)
from lease_parser.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "dev"
NOTICES = ROOT / "tests" / "fixtures" / "dev_notice_labels.json"


def measure(directory: Path, labels_path: Path, notices_path: Path) -> DatesReport:
    settings = load_settings()
    gate = settings.confidence_gate
    labels = load_labels(labels_path)
    notices = json.loads(notices_path.read_text(encoding="utf-8"))
    cache = ROOT / ".lease_data" / "eval-cache"
    reads, extracted = [], []
    shipped = settings.confidence()
    files = document_files(directory)
    for index, path in enumerate(files, start=1):
        print(f"[{index}/{len(files)}] {path.name}", file=sys.stderr)
        reads.append(read_file(path, settings, cache))
        extracted.append(extract_read(reads[-1], shipped))
    report = DatesReport(gate)
    for item, model in held_out_extractions(reads, extracted, labels, shipped):
        if item.extraction is None or item.name not in labels:
            continue
        result = normalize_stage(copy.deepcopy(item.extraction), gate, model)
        report.checks += check_document(
            item.name, result, labels[item.name], notices.get(item.name, {}), gate
        )
    return report


def _print(report: DatesReport) -> None:
    for check in report.checks:
        mark = "ok " if check.right else ("BAD" if check.at_gate else "low")
        option = f" #{check.option}" if check.option else ""
        conf = f"{check.confidence:.2f}" if check.confidence is not None else "  - "
        expected, listed = check.expected or "none", check.listed or "none"
        print(
            f"{mark} {check.file[:44]:44} {check.kind + option:28} expected {expected:10} "
            f"listed {listed:10} {conf}"
        )
    print(json.dumps(report.summary(), indent=2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", nargs="?", type=Path, default=CORPUS)
    parser.add_argument("--labels", type=Path, default=None)
    parser.add_argument("--notices", type=Path, default=NOTICES)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    labels = args.labels or args.directory / "labels.json"
    if not labels.is_file():
        # The dev corpus is real leases: it lives beside the checkout, never in a clone.
        print(
            f"error: no labelled corpus at {args.directory} ({labels} is missing): the dev "
            "corpus is not part of a clone; give its directory (make measure-dates CORPUS=DIR)",
            file=sys.stderr,
        )
        return 2
    report = measure(args.directory, labels, args.notices)
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        _print(report)
    summary = report.summary()
    wrong = sum(summary[g]["wrong_at_gate"] for g in ("expiration", "renewal_window", "break"))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
