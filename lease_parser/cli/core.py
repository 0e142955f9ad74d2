"""Commands that run the pure core in this process, no queue: ``abstract`` and ``eval``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from lease_parser.cli._common import (
    ExitCode,
    cache_dir_option,
    fail,
    json_option,
    print_json,
    settings_from_env,
)

if TYPE_CHECKING:  # the core is imported by the commands that run it, not by `--help`
    from lease_parser.evaluation import DocumentOutcome, EvalReport, Evaluation
    from lease_parser.model import AbstractionResult


def _print_human(path: Path, result: AbstractionResult) -> None:
    from lease_parser.model import result_json
    from lease_parser.portfolio.display import clip, in_words

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
        value = clip(in_words(name, f["value"]), 60)
        click.echo(f"  {name:22} {value:60} {f['confidence']:.2f}  p.{page}")
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
    from lease_parser.abstract import abstract_document
    from lease_parser.model import result_json

    result = abstract_document(file.read_bytes(), settings, password=password)
    if as_json:
        print_json(result_json(result))
    else:
        _print_human(file, result)


def _fmt(value: float | None) -> str:
    return "   -" if value is None else f"{value:.2f}"


def _print_fields(report: EvalReport) -> None:
    from lease_parser.model import CORE_FIELDS

    click.echo(
        f"{'field':22} {'prec':>5} {'rec':>5} {'f1':>5} {'supp':>5} {'gate✓':>6} {'gate✗':>6}"
    )
    for name, s in report.fields.items():
        core = "*" if name in CORE_FIELDS else " "
        click.echo(
            f"{name:21}{core} {_fmt(s.precision):>5} {_fmt(s.recall):>5} {_fmt(s.f1):>5} "
            f"{s.support:>5} {s.gate_right:>6} {s.gate_wrong:>6}"
        )
    click.echo(f"(* core field; gate = {report.gate:.2f})")


def _print_summary(title: str, report: EvalReport) -> None:
    all_fields = list(report.fields)
    committed = len(report.committed())
    leases = len(report.lease_documents())
    complete = len(report.complete_and_right())
    click.echo(f"\n{title}")
    click.echo(f"  precision at gate (core)  {_fmt(report.precision_at_gate())}")
    click.echo(f"  recall at gate (core)     {_fmt(report.recall_at_gate())}")
    click.echo(f"  precision at gate (all)   {_fmt(report.precision_at_gate(all_fields))}")
    click.echo(f"  recall at gate (all)      {_fmt(report.recall_at_gate(all_fields))}")
    click.echo(
        f"  committed unreviewed      {_fmt(report.committed_share())}"
        f"  ({committed} of {len(report.outcomes)} documents; {leases} are leases or subleases)"
    )
    click.echo(
        f"  complete and right        {_fmt(report.complete_and_right_share())}"
        f"  ({complete} committed leases with every labelled core field as labelled; "
        f"{len(report.complete_and_right(None))} with every labelled field)"
    )
    wrong = report.committed_incomplete_or_wrong()
    click.echo(
        f"  committed incomplete/wrong {len(wrong):>4}"
        + (f"  ({', '.join(wrong)})" if wrong else "")
    )
    click.echo(f"  auto-commit precision     {_fmt(report.auto_commit_precision())}")
    click.echo(f"  fields to check / review  {_fmt(report.fields_to_check())}")
    click.echo(f"  calibration error (ECE)   {_fmt(report.calibration_error())}  values")
    click.echo(
        f"                            {_fmt(report.calibration_error(report.unread))}  not stated "
        f"({_fmt(report.calibration_error(report.unread_core))} core)"
    )
    right, wrong_count, stated = report.not_stated_at_gate()
    click.echo(
        f"  not stated at gate (core) {_fmt(report.not_stated_precision_at_gate())}"
        f"  ({right} unread core fields cleared as not stated, {wrong_count} of them stated; "
        f"{stated} stated and unread)"
    )
    click.echo(f"  Brier score               {_fmt(report.brier())}")


def _print_reliability(report: EvalReport) -> None:
    for what, scored in (("values: probability right", None), ("not stated", report.unread)):
        click.echo(f"\nreliability ({what}): probability given vs share right")
        click.echo(f"  {'bin':13} {'values':>6} {'given':>6} {'right':>6}")
        for b in report.reliability(scored=scored):
            span = f"[{b.low:.2f}, {b.high:.2f})"
            click.echo(f"  {span} {b.values:>6} {b.predicted:>6.3f} {b.observed:>6.3f}")
    click.echo(
        f"  stated but not read: flagged {report.flagged_stated} fields the labels state, "
        f"{report.flagged_null} of {report.null_fields} the labels say are not stated"
    )


def _print_groups(evaluation: Evaluation, subsets: dict[str, list[str]]) -> None:
    rows = [(f"family {k}", r) for k, r in evaluation.by_family().items()]
    rows += [(f"subset {k}", evaluation.restricted(v)) for k, v in subsets.items()]
    click.echo("\nby source family and subset (cross-validated, core fields):")
    click.echo(
        f"  {'':22} {'docs':>4} {'leases':>6} {'prec':>5} {'rec':>5} {'commit':>6} "
        f"{'c&r':>4} {'bad':>4} {'ece':>5}"
    )
    for name, r in rows:
        click.echo(
            f"  {name:22} {len(r.outcomes):>4} {len(r.lease_documents()):>6} "
            f"{_fmt(r.precision_at_gate()):>5} {_fmt(r.recall_at_gate()):>5} "
            f"{len(r.committed()):>6} {len(r.complete_and_right()):>4} "
            f"{len(r.committed_incomplete_or_wrong()):>4} {_fmt(r.calibration_error()):>5}"
        )
    click.echo(
        "  (c&r: committed complete and right; bad: committed with a core field wrong or missing)"
    )


def _print_curve(evaluation: Evaluation) -> None:
    click.echo("\ncross-validated, by gate (core fields):")
    click.echo(f"  {'gate':>5} {'prec':>5} {'rec':>5} {'commit':>6} {'acp':>5} {'check':>5}")
    for r in evaluation.curve:
        click.echo(
            f"  {r.gate:>5.2f} {_fmt(r.precision_at_gate()):>5} {_fmt(r.recall_at_gate()):>5} "
            f"{_fmt(r.committed_share()):>6} {_fmt(r.auto_commit_precision()):>5} "
            f"{_fmt(r.fields_to_check()):>5}"
        )


def _print_targets(report: EvalReport) -> None:
    from lease_parser.evaluation import target_rows

    click.echo("\ntargets (cross-validated):")
    for name, value, target, met in target_rows(report):
        click.echo(f"  {name:24} {_fmt(value):>5}  {target:8} {'met' if met else 'NOT MET'}")


def _print_documents(report: EvalReport) -> None:
    wrong = {m.document for m in report.mistakes}
    click.echo(
        "\ndocuments (route, aggregate confidence, kind, scored fields all right, to check):"
    )
    for o in report.outcomes:
        route = o.route + (f" ({o.reason})" if o.reason else "")
        ok = "-" if o.name in report.unlabelled else ("no" if o.name in wrong else "yes")
        checks = ", ".join(o.to_check)
        click.echo(
            f"  {o.name:45} {route:26} {o.confidence:.2f}  {o.kind or '-':9} {ok:3} {checks}"
        )
    click.echo("\nmistakes (document, field, kind, predicted | expected, probability, page):")
    for m in report.mistakes:
        click.echo(
            f"  {m.document} {m.field} {m.kind}: {m.predicted!s:.60} | {m.expected!s:.60} "
            f"({m.confidence:.2f}, p.{m.page or '-'})"
        )
        if m.snippet:
            click.echo(f"      “{m.snippet[:160]}”")
    for name in report.missing_files:
        click.echo(f"  labelled but not found: {name}")


def _print_evaluation(evaluation: Evaluation, subsets: dict[str, list[str]]) -> None:
    honest = evaluation.honest
    if evaluation.cross_validated is not None:
        title = (
            "cross-validated: each source's documents read and scored by models fitted without it"
        )
    else:
        title = "in-sample: the shipped model"
    click.echo(f"fields ({title})")
    _print_fields(honest)
    if evaluation.cross_validated is not None:
        _print_summary("cross-validated (grouped by source family)", evaluation.cross_validated)
    _print_summary("in-sample (the shipped model, fitted on these documents)", evaluation.in_sample)
    _print_groups(evaluation, subsets)
    _print_reliability(honest)
    if evaluation.curve:
        _print_curve(evaluation)
    _print_targets(honest)
    _print_documents(honest)


def _subsets(paths: tuple[Path, ...]) -> dict[str, list[str]]:
    """Each ``--subset`` file's document names (one per line; ``#`` starts a comment)."""
    out = {}
    for path in paths:
        lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
        out[path.stem] = [line for line in lines if line]
    return out


@click.command("eval")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--labels",
    "labels_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Labels JSON: {file: {field: value | null}} (docs/fields.md).",
)
@cache_dir_option
@click.option(
    "--check",
    is_flag=True,
    help="Exit 1 unless the cross-validated targets are met (docs/extraction.md).",
)
@click.option(
    "--in-sample-only",
    is_flag=True,
    help="Skip cross-validation (no scikit-learn needed; the numbers flatter the model).",
)
@click.option(
    "--subset",
    "subset_paths",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Also report the documents listed in FILE (one name per line) on their own; repeatable.",
)
@json_option
def evaluate(
    directory: Path,
    labels_path: Path,
    cache_dir: Path | None,
    check: bool,
    in_sample_only: bool,
    subset_paths: tuple[Path, ...],
    as_json: bool,
) -> None:
    """Abstract every document in DIRECTORY in this process and score it against labels.

    The honest figures are cross-validated by source: the documents of each source family
    (the file name up to its first "_") are read and scored by the models fitted on the
    other families only. The in-sample figures use the shipped model.
    """
    from lease_parser.evaluation import evaluate_directory, load_labels, unmet_targets

    settings = settings_from_env()
    try:
        labels = load_labels(labels_path)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--labels") from exc

    def progress(index: int, total: int, outcome: DocumentOutcome) -> None:
        click.echo(
            f"[{index}/{total}] {outcome.name}: {outcome.route} "
            f"{outcome.confidence:.2f} ({outcome.seconds:.1f}s)",
            err=True,
        )

    evaluation = evaluate_directory(
        directory, labels, settings, cache_dir, progress, cross_validate=not in_sample_only
    )
    subsets = _subsets(subset_paths)
    if as_json:
        print_json(evaluation.to_json(subsets))
    else:
        _print_evaluation(evaluation, subsets)
    unmet = unmet_targets(evaluation.honest)
    if check and unmet:
        fail("targets not met: " + "; ".join(unmet), ExitCode.FAILED, printed=True)
