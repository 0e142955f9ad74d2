"""What every command shares: exit codes, the error boundary, settings loading, JSON printing.

The boundary (``error_boundary``) is the one place the CLI turns an exception into an exit
code and a message: library errors are translated to the taxonomy first
(``lease_parser.translate``), each class of ours has its exit code (``EXIT_CODES``), the
message is redacted (no URL password reaches a terminal), and with ``--json`` the error is
a JSON object on stdout as well. An expected failure never prints a traceback.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from lease_parser import errors
from lease_parser.errors import AmbiguousHash, DocumentNotFound, InvalidHash, StoreNotFound
from lease_parser.hashes import hash_prefix, resolve_prefix
from lease_parser.redaction import redact
from lease_parser.translate import translate

if TYPE_CHECKING:
    from lease_parser.settings import Settings
    from lease_parser.store import Store


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1  # the command ran but what it checked failed (eval under target, unhealthy)
    USAGE = 2  # bad arguments (click's own convention)
    CONFIG = 3  # invalid LEASE_* configuration; the message says which value to change
    BROKER_FULL = 4  # Redis at maxmemory: drain queues or raise maxmemory, then resubmit
    NOT_FOUND = 5  # no such document / item / object
    UNAVAILABLE = 6  # a server the command needs (Redis, store, object store) is unreachable
    INTERRUPTED = 130


# The nearest class in an error's MRO decides; anything else of ours is FAILED.
EXIT_CODES: dict[type[Exception], ExitCode] = {
    errors.ConfigurationError: ExitCode.CONFIG,
    errors.BrokerFullError: ExitCode.BROKER_FULL,
    errors.ObjectNotFound: ExitCode.NOT_FOUND,
    errors.TransientError: ExitCode.UNAVAILABLE,  # broker, store, object store, timeouts
    DocumentNotFound: ExitCode.NOT_FOUND,
    StoreNotFound: ExitCode.NOT_FOUND,
    InvalidHash: ExitCode.USAGE,
    AmbiguousHash: ExitCode.USAGE,
}


# What to check, for failures whose message (a driver's) does not say.
HINTS: dict[type[Exception], str] = {
    errors.BrokerUnavailable: "is Redis at LEASE_BROKER_URL running and reachable?",
    errors.StorageUnavailable: "is the store (LEASE_STORE_URL) or the object store "
    "(LEASE_OBJECT_STORE) running and reachable?",
}


def error_type(exc: BaseException) -> str:
    """A stable machine-readable name for an error: its class, snake_case."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(exc).__name__).lower()


def exit_code_for(exc: BaseException) -> ExitCode:
    for cls in type(exc).__mro__:
        if cls in EXIT_CODES:
            return EXIT_CODES[cls]
    return ExitCode.FAILED


def _emit(message: str, code: ExitCode, as_json: bool, **extra: Any) -> NoReturn:
    message = redact(message)
    if as_json:
        click.echo(json.dumps({"ok": False, "error": message, "exit_code": int(code), **extra}))
    click.echo(f"error: {message}", err=True)
    sys.exit(int(code))


def fail(message: str, code: ExitCode, *, printed: bool = False, **extra: Any) -> NoReturn:
    """Stop the command: one line on stderr and, under --json, a JSON error object on stdout
    (with ``extra`` in it) unless the command ``printed`` its JSON result already."""
    _emit(message, code, _json_requested() and not printed, **extra)


def _json_requested() -> bool:
    ctx = click.get_current_context(silent=True)
    while ctx is not None:
        if ctx.params.get("as_json"):
            return True
        ctx = ctx.parent
    return False


@contextmanager
def error_boundary(as_json: bool) -> Iterator[None]:
    """Map whatever a command raised to an exit code and a redacted message."""
    try:
        yield
    except click.exceptions.Abort as exc:
        # click turns a Ctrl-C into Abort (a declined confirmation is one too).
        said = "interrupted" if isinstance(exc.__context__, KeyboardInterrupt) else "aborted"
        _emit(said, ExitCode.INTERRUPTED, as_json)
    except KeyboardInterrupt:
        _emit("interrupted", ExitCode.INTERRUPTED, as_json)
    except click.ClickException as exc:
        if not as_json:
            exc.show()
            sys.exit(ExitCode.USAGE)
        _emit(exc.format_message(), ExitCode.USAGE, as_json)
    except Exception as exc:
        ours = translate(exc)
        if not isinstance(ours, errors.LeaseParserError):
            raise  # a bug: its traceback is what the issue needs (redacted by main's hook)
        extra: dict[str, Any] = {"type": error_type(ours)}
        if problems := getattr(ours, "problems", None):
            extra["problems"] = [p.model_dump() for p in problems]
        if candidates := getattr(ours, "candidates", None):
            extra["candidates"] = list(candidates)
        hint = next((h for cls, h in HINTS.items() if isinstance(ours, cls)), None)
        message = f"{ours} — {hint}" if hint else str(ours)
        _emit(message, exit_code_for(ours), as_json, **extra)


def settings_from_env() -> Settings:
    """The settings of a command that needs no broker (the store, the object store)."""
    from lease_parser.settings import load_settings

    return load_settings()


def broker_settings(settings: Settings | None = None) -> Settings:
    """The settings of a command that talks to the broker.

    ``LEASE_BROKER_URL`` when it is set. Otherwise, when ``run`` or ``serve --local`` has
    used the data directory, the broker of that local system (local_system.py): it runs
    on a port of its own, and the default 127.0.0.1:6379 may be another Redis altogether.
    In a checkout the local system is the default (its .lease_data), whether or not it
    has run yet. If that system is not running, ``LocalSystemStopped`` says how to start it.
    """
    from lease_parser.local_system import has_local_system, running_broker_or_fail
    from lease_parser.settings import checkout_data_dir

    settings = settings or settings_from_env()
    in_checkout = settings.data_dir == checkout_data_dir()
    if "broker_url" in settings.model_fields_set or not (
        in_checkout or has_local_system(settings.data_dir)
    ):
        return settings
    record = running_broker_or_fail(settings.data_dir)
    update = {"broker_url": record.broker_url(0)}
    if "result_backend" not in settings.model_fields_set:
        update["result_backend"] = record.broker_url(1)
    return settings.model_copy(update=update)


def describe_broker(settings: Settings) -> str:
    """Which broker ``settings`` reach and why, in words, for a command's output."""
    from lease_parser.local_system import running_broker

    url = redact(settings.broker_url)
    record = running_broker(settings.data_dir)
    if record is not None and settings.broker_url == record.broker_url(0):
        return f"the local broker {url} of {settings.data_dir} (run by {record.command})"
    if "broker_url" in settings.model_fields_set:
        return f"the broker LEASE_BROKER_URL={url}"
    return f"the default broker {url} (set LEASE_BROKER_URL to use another)"


def describe_store(settings: Settings) -> str:
    """Which store ``settings`` read and how to point them elsewhere, in words."""
    url = redact(settings.store_database_url)
    if "store_url" in settings.model_fields_set:
        return f"the store LEASE_STORE_URL={url}"
    where = "LEASE_DATA_DIR" if "data_dir" in settings.model_fields_set else "the default data dir"
    return (
        f"the store {url} (in {where} {settings.data_dir}; set LEASE_DATA_DIR or "
        "LEASE_STORE_URL to read another)"
    )


def print_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=None, sort_keys=False, default=str))


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
# eval and calibrate read the same parsed documents.
cache_dir_option = click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep parsed (and OCR'd) documents here, keyed by content hash, to skip re-parsing.",
)


class OutputFile(click.Path):
    """A file a command will write: its directory must exist and be writable, checked
    before any work (a missing directory was a traceback after the export had run)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        import os

        path = super().convert(value, param, ctx)
        assert isinstance(path, Path)  # path_type=Path
        parent = path.parent
        if not parent.is_dir():
            self.fail(f"directory {str(parent)!r} does not exist: create it first", param, ctx)
        if not os.access(parent, os.W_OK | os.X_OK):
            self.fail(f"directory {str(parent)!r} is not writable", param, ctx)
        return path


OUTPUT_FILE = OutputFile()


class HashParam(click.ParamType[str]):
    """A document hash as typed: 64 hex digits or a unique prefix of 8+ (resolved later)."""

    name = "HASH"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            return hash_prefix(str(value))
        except InvalidHash as exc:
            self.fail(str(exc), param, ctx)


HASH = HashParam()


def open_store(settings: Settings | None = None) -> Store:
    """The store a command reads or acts on: an existing one only (a read never creates a
    store; a missing one is an error naming it and saying what to do)."""
    from lease_parser.store import Store

    settings = settings or settings_from_env()
    try:
        return Store.existing(settings.store_database_url)
    except StoreNotFound as exc:
        if "store_url" in settings.model_fields_set:
            advice = "check LEASE_STORE_URL (a command that reads never creates a store)"
        else:
            advice = (
                f"nothing has been processed in {settings.data_dir} yet (`make run` processes "
                "the samples there); set LEASE_DATA_DIR or LEASE_STORE_URL to read another store"
            )
        raise StoreNotFound(f"{exc}: {advice}") from None


def in_store(store: Store) -> str:
    """ " in <store URL> (…how to read another)": what a "not found" says, since the usual
    cause is a command reading another store than the one the documents went to."""
    return (
        f" in the store {redact(store.url)} (set LEASE_DATA_DIR or LEASE_STORE_URL to read another)"
    )


def resolve_hash(store: Store, text: str) -> str:
    """The full hash of the one document ``text`` starts (see hashes.resolve_prefix)."""
    try:
        return resolve_prefix(text, store.hashes_starting_with)
    except DocumentNotFound as exc:
        raise DocumentNotFound(exc.message + in_store(store), **exc.context) from None
