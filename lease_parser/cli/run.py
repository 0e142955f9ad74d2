"""``lease-parser run PATH…``: the whole pipeline on local files (what ``make run`` does)."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import click

from lease_parser.cli._common import ExitCode, fail, json_option, print_json, settings_from_env

if TYPE_CHECKING:
    from lease_parser.batch import RunRow


def sigterm_as_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # so the cluster's clean-up runs on SIGTERM as on Ctrl-C


def shorten_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, cut in the middle so its end (a file's
    extension, a lease's distinguishing suffix) survives: never "…_changes.doc" for .docx."""
    if len(text) <= width:
        return text
    keep = width - 1
    tail = keep // 2
    return f"{text[: keep - tail]}…{text[-tail:]}"


def _print_table(rows: list[RunRow]) -> None:
    from lease_parser.batch import totals
    from lease_parser.portfolio.display import clip

    # The hash prefix first: what `lease-parser status HASH` and `results show` take.
    header = (
        f"{'hash':12}  {'document':38} {'route':10} {'reason':16} {'conf':>5}  {'landlord':24} "
        f"{'tenant':24} {'monthly rent':>13} {'term':>4}"
    )
    click.echo(header)
    click.echo("-" * len(header))
    for r in rows:
        conf = f"{r.confidence:.2f}" if r.confidence is not None else ""
        route = r.state + ("*" if r.duplicate else "")
        name = shorten_middle(r.path.name, 38)
        click.echo(
            f"{r.doc_hash[:12]}  {name:38} {route:10} {clip(r.reason or '', 16):16} {conf:>5}  "
            f"{clip(r.value('landlord'), 24):24} {clip(r.value('tenant'), 24):24} "
            f"{clip(r.value('base_rent_monthly'), 13):>13} {clip(r.value('term_months'), 4):>4}"
        )
    click.echo("-" * len(header))
    click.echo("totals: " + ", ".join(f"{k} {v}" for k, v in sorted(totals(rows).items())))
    if any(r.duplicate for r in rows):
        click.echo("* already processed earlier: this submission was skipped as a duplicate")


def _print_workspace(data_dir: Path, to_stderr: bool) -> None:
    """How to review these documents in the browser (the run's servers are stopped: a run
    is a finite command; `make serve` brings the whole system back, workspace included)."""
    from lease_parser.local import local_reviewer_token

    token = local_reviewer_token(data_dir)
    click.echo(
        "\nthe reviewers' workspace (its review queue, the documents): make serve "
        "(lease-parser serve --local), then open http://127.0.0.1:8000/ and sign in with "
        f"the reviewer token {token}",
        err=to_stderr,
    )


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--concurrency", type=int, default=1, show_default=True, help="Worker processes per queue."
)
@click.option(
    "--timeout",
    type=float,
    default=1800,
    show_default=True,
    help="Seconds to wait for every document to finish.",
)
@json_option
def run(paths: tuple[Path, ...], concurrency: int, timeout: float, as_json: bool) -> None:
    """Run the whole pipeline on local files: own redis-server + workers, then a summary.

    Data (Redis AOF, object store, SQLite store, worker logs) goes under LEASE_DATA_DIR.
    """
    from lease_parser.batch import collect_files, run_files

    settings = settings_from_env()
    files = collect_files(paths)
    if not files:
        fail("no files found under the given paths", ExitCode.USAGE)
    signal.signal(signal.SIGTERM, sigterm_as_interrupt)
    click.echo(f"starting redis-server and workers under {settings.data_dir} ...", err=True)
    with click.progressbar(length=len(files), label="abstracting", file=sys.stderr) as bar:
        last = [0]

        def progress(done: int, total: int) -> None:
            if done != last[0] and not sys.stderr.isatty():
                click.echo(f"  {done}/{total} documents finished", err=True)
            bar.update(done - last[0])
            last[0] = done

        rows = run_files(files, settings.data_dir, concurrency, timeout, progress)
    if as_json:
        print_json(
            [
                {
                    "file": str(r.path),
                    "doc_key": r.doc_key,
                    "doc_hash": r.doc_hash,
                    "state": r.state,
                    "reason": r.reason,
                    "confidence": r.confidence,
                    "duplicate": r.duplicate,
                    "fields": r.fields,
                }
                for r in rows
            ]
        )
    else:
        _print_table(rows)
    _print_workspace(settings.data_dir, to_stderr=as_json)
    if any(r.state == "pending" for r in rows):
        fail(f"some documents did not finish within {timeout:.0f}s", ExitCode.FAILED, printed=True)
