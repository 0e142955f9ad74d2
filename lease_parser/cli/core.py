"""Commands that run the pure core in this process, no queue: ``abstract``."""

from __future__ import annotations

from pathlib import Path

import click

from lease_parser.abstract import abstract_document
from lease_parser.cli._common import json_option, print_json, settings_from_env
from lease_parser.model import AbstractionResult, result_json


def _print_human(path: Path, result: AbstractionResult) -> None:
    click.echo(
        f"{path.name}: {result.route.value}"
        + (f" ({result.reason.value})" if result.reason else "")
        + f"  confidence {result.confidence:.2f}  pages {result.pages}"
        + (f" (OCR {result.ocr_pages})" if result.ocr_pages else "")
    )
    if result.detail:
        click.echo(f"  {result.detail}")
    fields = result_json(result)["fields"]
    for name, f in fields.items():
        if f["value"] is None:
            continue
        page = f["provenance"]["page"] if f["provenance"] else "-"
        click.echo(f"  {name:22} {str(f['value'])[:60]:60} {f['confidence']:.2f}  p.{page}")
    for problem in result.problems:
        click.echo(f"  ! {problem.field}: {problem.problem}")


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--password",
    envvar="LEASE_DOCUMENT_PASSWORD",
    default=None,
    help="Password of an encrypted PDF (or set LEASE_DOCUMENT_PASSWORD).",
)
@json_option
def abstract(file: Path, password: str | None, as_json: bool) -> None:
    """Abstract one document in this process (no queue) and print the result.

    Exits 0 whenever a route was reached, even `dead`; non-zero only if it could not run.
    """
    settings = settings_from_env()
    result = abstract_document(file.read_bytes(), settings, password=password)
    if as_json:
        print_json(result_json(result))
    else:
        _print_human(file, result)
