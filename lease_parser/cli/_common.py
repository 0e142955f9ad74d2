"""What every command shares: exit codes, settings loading, JSON printing."""

from __future__ import annotations

import json
import sys
from enum import IntEnum
from typing import Any, NoReturn

import click

from lease_parser.settings import Settings, load_settings


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1  # the command ran but what it checked failed (eval under target, unhealthy)
    USAGE = 2  # bad arguments (click's own convention)
    CONFIG = 3  # invalid LEASE_* configuration; the message says which value to change
    BROKER_FULL = 4  # Redis at maxmemory: drain queues or raise maxmemory, then resubmit
    NOT_FOUND = 5  # no such document / item
    UNAVAILABLE = 6  # a server the command needs (Redis, store) is unreachable
    INTERRUPTED = 130


def fail(message: str, code: ExitCode) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(int(code))


def settings_from_env() -> Settings:
    return load_settings()


def print_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=None, sort_keys=False, default=str))


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
