"""``lease-parser calibrate``: refit the confidence model from labelled documents and reviews."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from lease_parser.cli._common import cache_dir_option, json_option, print_json, settings_from_env


def _reviewed_documents(store_url: str) -> list[dict[str, Any]]:
    """Committed documents a reviewer decided, with the pipeline's evidence per field."""
    from lease_parser.store import DocumentState, Store

    store = Store(store_url)
    try:
        return [
            {"doc_hash": row.doc_hash, "fields": row.fields, "corrections": row.corrections}
            for row in store.documents(states=[DocumentState.COMMITTED])
            if row.source == "review" and row.fields
        ]
    finally:
        store.close()


@click.command()
@click.argument(
    "directory", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path)
)
@click.option(
    "--labels",
    "labels_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Labels JSON for DIRECTORY: {file: {field: value | null}}.",
)
@cache_dir_option
@click.option(
    "--reviews/--no-reviews",
    default=True,
    show_default=True,
    help="Also learn from reviewers' decisions in the store (LEASE_STORE_URL).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the model (default: the one the package ships and workers load).",
)
@json_option
def calibrate(
    directory: Path | None,
    labels_path: Path | None,
    cache_dir: Path | None,
    reviews: bool,
    out: Path | None,
    as_json: bool,
) -> None:
    """Refit the model that turns extraction evidence into probabilities.

    Examples: every value extracted from DIRECTORY whose field --labels scores (right or
    wrong by docs/fields.md's rules), and every value a reviewer committed (approved: right;
    corrected: wrong). The fit is deterministic; review the new file in git like code.
    """
    from lease_parser.evaluation import document_files, extract_file, load_labels
    from lease_parser.evaluation.runner import examples_from
    from lease_parser.scoring.calibration import fit_model, reviewed_examples
    from lease_parser.scoring.confidence import model_path

    if (directory is None) != (labels_path is None):
        raise click.UsageError("give DIRECTORY and --labels together")
    settings = settings_from_env()
    examples = []
    if directory is not None and labels_path is not None:
        labels = load_labels(labels_path)
        files = document_files(directory)
        extracted = []
        for index, path in enumerate(files, start=1):
            click.echo(f"[{index}/{len(files)}] {path.name}", err=True)
            extracted.append(extract_file(path, settings, cache_dir))
        examples += examples_from(extracted, labels)
    if reviews:
        examples += reviewed_examples(_reviewed_documents(settings.store_database_url))
    if not examples:
        raise click.UsageError("nothing to learn from: give DIRECTORY --labels, or review work")
    corpus = {"corpus": directory.name} if directory is not None else {}
    model = fit_model(examples, corpus)
    target = out or model_path()
    target.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    summary = {"written": str(target), **(model.fitted_on or {})}
    if as_json:
        print_json(summary)
    else:
        click.echo(
            f"fitted on {summary['examples']} values ({summary['wrong']} wrong) and "
            f"{summary['unread']} unread fields ({summary['unread_not_stated']} not stated) from "
            f"{summary['documents']} documents of {summary['families']} sources, "
            f"{summary['from_reviews']} values from reviews; wrote {target}"
        )
