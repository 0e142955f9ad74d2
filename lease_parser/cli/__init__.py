"""The ``lease-parser`` command. Each command group lives in its own module; this one wires them.

Exit codes are named in ``ExitCode`` so scripts can rely on them; ``error_boundary``
(_common.py) maps every expected failure to one, once, for every command. Commands are
loaded on first use (``LazyGroup``): ``lease-parser status`` must not pay for Celery,
pdfium and the extraction patterns it never touches.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from types import TracebackType
from typing import Any

import click

from lease_parser.cli._common import ExitCode, error_boundary
from lease_parser.redaction import install_log_redaction, redact

# name → "module:attribute", in `--help` order.
COMMANDS: dict[str, str] = {
    "abstract": "lease_parser.cli.core:abstract",
    "eval": "lease_parser.cli.core:evaluate",
    "calibrate": "lease_parser.cli.calibrate:calibrate",
    "run": "lease_parser.cli.run:run",
    "serve": "lease_parser.cli.serve:serve",
    "sessions": "lease_parser.cli.sessions:sessions",
    "submit": "lease_parser.cli.pipeline:submit",
    "worker": "lease_parser.cli.pipeline:worker",
    "status": "lease_parser.cli.pipeline:status",
    "unlock": "lease_parser.cli.pipeline:unlock",
    "pending": "lease_parser.cli.pending:pending",
    "webhooks": "lease_parser.cli.webhooks:webhooks",
    "dead": "lease_parser.cli.dead:dead",
    "review": "lease_parser.cli.review:review",
    "results": "lease_parser.cli.results:results",
    "dates": "lease_parser.cli.portfolio:dates",
    "amendments": "lease_parser.cli.portfolio:amendments",
    "metrics": "lease_parser.cli.ops:metrics",
    "flower": "lease_parser.cli.ops:flower",
    "healthcheck": "lease_parser.cli.ops:healthcheck",
    "bench": "lease_parser.cli.bench:bench",
}

# One line each for the top-level --help, so listing commands imports none of them.
SUMMARIES: dict[str, str] = {
    "abstract": "Abstract one document in this process (no queue) and print the result.",
    "eval": "Score extraction against labels (in this process).",
    "calibrate": "Refit the confidence model from labelled documents and reviews.",
    "run": "Run the whole pipeline on local files: own redis-server + workers.",
    "serve": "Serve the HTTP API and the reviewers' workspace.",
    "sessions": "The workspace's sessions: list them, end them (revoke).",
    "submit": "Submit an object KEY (already in LEASE_OBJECT_STORE) for abstraction.",
    "worker": "Run a Celery worker for the given queues.",
    "status": "Show the state of a document by its hash (or a unique prefix).",
    "unlock": "Supply the password of an encrypted document and requeue it.",
    "pending": "Documents stuck pending: where their message is; re-drive lost ones.",
    "webhooks": "Webhooks sent when a document is final: list, replay.",
    "dead": "Dead-lettered documents: list, inspect, requeue by hand.",
    "review": "The human review queue: list, claim, show, approve, correct, reject.",
    "results": "Abstractions in the canonical store: list, show one, export.",
    "dates": "Critical dates across the portfolio (list, JSON, iCalendar file).",
    "amendments": "Which lease each amendment amends: list, show why, link by hand.",
    "metrics": "Serve the Prometheus exporter (queue depths, review, dead letters).",
    "flower": "Start Flower against the broker, behind HTTP basic auth.",
    "healthcheck": "Exit 0 if the broker (and a named worker) answers: for probes.",
    "bench": "Benchmark the pipeline against in-process baselines.",
}


class LazyGroup(click.Group):
    """A group whose commands are imported when they run, and whose errors meet the boundary."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, SUMMARIES[name]) for name in COMMANDS])

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        with error_boundary(as_json="--json" in argv):
            return super().main(args, *rest, **kwargs)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="lease-parser")
def cli() -> None:
    """Lease abstraction: documents in, validated typed lease abstractions out.

    Configuration comes from LEASE_* environment variables (docs/configuration.md).
    Exit codes: 0 ok, 1 check failed, 2 usage, 3 configuration, 4 broker full, 5 not
    found, 6 a server is unreachable, 130 interrupted.
    """


def _redacted_excepthook(
    kind: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> None:
    """A bug's traceback still prints (it is what a report needs), without URL passwords."""
    sys.stderr.write(redact("".join(traceback.format_exception(kind, exc, tb))))


def main() -> None:
    """Console-script entry point: every failure leaves through the error boundary."""
    install_log_redaction()
    sys.excepthook = _redacted_excepthook
    # standalone_mode=False: usage errors, Ctrl-C and our errors reach the boundary (click's
    # own handling would print "Aborted!" and exit 1 on Ctrl-C, and never print JSON).
    cli.main(standalone_mode=False)


__all__ = ["ExitCode", "cli", "main"]
