"""``lease-parser bench``: the benchmark (what ``make bench`` runs)."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import click

from lease_parser.cli._common import json_option, print_json, settings_from_env


@click.command()
@click.option(
    "--docs",
    type=click.IntRange(min=1),
    default=60,
    show_default=True,
    help="Documents in the generated corpus.",
)
@click.option(
    "--scans",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="How many of them are scanned (1–2 pages each, OCR'd).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Corpus seed.")
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Threads of baseline B.",
)
@click.option(
    "--messages",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Documents queued (no worker) to measure Redis bytes per queued document.",
)
@click.option(
    "--rounds",
    type=click.IntRange(min=1),
    # One round on a shared VM let a neighbour's burst decide the c2 ÷ sequential ratio
    # (1.59 in one run, 1.83–1.89 in others); three interleaved rounds take ~3 minutes.
    default=3,
    show_default=True,
    help="Run the four phases this many times, interleaved; report each phase's fastest.",
)
@click.option("--keep", is_flag=True, help="Keep the run's data directory (logs, stores).")
@json_option
def bench(
    docs: int,
    scans: int,
    seed: int,
    threads: int,
    rounds: int,
    messages: int,
    keep: bool,
    as_json: bool,
) -> None:
    """Measure the pipeline against in-process baselines on a generated corpus.

    Runs, on the same corpus: A sequential and B threaded in this process, then the full
    pipeline (own redis-server, one worker for all queues) at concurrency 1 and 2; then the
    dedup claim and Redis memory per queued document. Progress goes to stderr; the table
    (or with --json one object) to stdout. Data goes under LEASE_DATA_DIR.
    """
    from lease_parser.bench import BenchOptions, run_benchmark
    from lease_parser.bench.report import format_table, json_safe

    settings = settings_from_env()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    data_dir = Path(tempfile.mkdtemp(prefix="bench-", dir=settings.data_dir))
    options = BenchOptions(
        docs=docs,
        scans=min(scans, docs),
        seed=seed,
        threads=threads,
        rounds=rounds,
        messages=messages,
    )

    def say(message: str) -> None:
        click.echo(message, err=True)

    try:
        report = run_benchmark(options, data_dir, say)
    except BaseException:
        say(f"the benchmark stopped; its data (worker and redis logs) is in {data_dir}")
        raise
    if keep:
        (data_dir / "report.json").write_text(json.dumps(json_safe(report), indent=1))
        say(f"data kept in {data_dir}")
    else:
        shutil.rmtree(data_dir, ignore_errors=True)
    if as_json:
        print_json(json_safe(report))
    else:
        click.echo(format_table(report))
