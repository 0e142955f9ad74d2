"""The ``lease-parser`` command. Each command group lives in its own module; this one wires them.

Exit codes are named in ``ExitCode`` so scripts can rely on them.
"""

from __future__ import annotations

import sys

import click

from lease_parser.cli._common import ExitCode, fail
from lease_parser.cli.bench import bench
from lease_parser.cli.calibrate import calibrate
from lease_parser.cli.core import abstract, evaluate
from lease_parser.cli.dead import dead
from lease_parser.cli.ops import flower, healthcheck, metrics
from lease_parser.cli.pipeline import status, submit, unlock, worker
from lease_parser.cli.results import results
from lease_parser.cli.review import review
from lease_parser.cli.run import run
from lease_parser.cli.serve import serve
from lease_parser.errors import BrokerFullError, ConfigurationError, LeaseParserError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="lease-parser")
def cli() -> None:
    """Lease abstraction: documents in, validated typed lease abstractions out.

    Configuration comes from LEASE_* environment variables (see the README).
    """


COMMANDS = (
    abstract,
    evaluate,
    calibrate,
    run,
    serve,
    submit,
    worker,
    status,
    unlock,
    dead,
    review,
    results,
    metrics,
    flower,
    healthcheck,
    bench,
)
for command in COMMANDS:
    cli.add_command(command)


def main() -> None:
    """Console-script entry point: map our errors to exit codes and one-line messages."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        fail("aborted", ExitCode.INTERRUPTED)
    except click.ClickException as exc:
        exc.show()
        sys.exit(ExitCode.USAGE)
    except ConfigurationError as exc:
        fail(str(exc), ExitCode.CONFIG)
    except BrokerFullError as exc:
        fail(str(exc), ExitCode.BROKER_FULL)
    except LeaseParserError as exc:
        fail(str(exc), ExitCode.FAILED)
    except KeyboardInterrupt:
        fail("interrupted", ExitCode.INTERRUPTED)


__all__ = ["ExitCode", "cli", "main"]
