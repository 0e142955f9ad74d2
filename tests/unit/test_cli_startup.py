"""The CLI starts fast because short commands import only what they use (issue 14, item 9).

Pinned by structure, not by a stopwatch: each command runs in a fresh interpreter and we
look at which heavy libraries ended up in ``sys.modules``. The time itself is measured by
scripts/measure_startup.py (docs/performance.md, "Start-up time").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = (
    "celery",
    "kombu",
    "redis",
    "boto3",
    "botocore",
    "pdfplumber",
    "pdfminer",
    "pypdfium2",
    "PIL",
    "docx",
    "sqlalchemy",
    "alembic",
    "prometheus_client",
    "cryptography",
    "lease_parser.extraction",
    "lease_parser.parsing",
)

PROBE = """
import json, sys
from lease_parser.cli import main
sys.argv = ["lease-parser", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
loaded = sorted({m.split(".")[0] if not m.startswith("lease_parser") else m
                 for m in sys.modules} & set(HEAVY))
print("LOADED=" + json.dumps(loaded), file=sys.stderr)
"""


def loaded_by(args: list[str], data_dir: Path) -> list[str]:
    code = f"HEAVY = {HEAVY!r}\n" + PROBE
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)],
        env={"LEASE_DATA_DIR": str(data_dir), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("LOADED="))
    return list(json.loads(line.removeprefix("LOADED=")))


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["--help"],
        ["status", "--help"],
        ["review", "--help"],
        ["dead", "--help"],
        ["dates", "--help"],
        ["amendments", "--help"],
    ],
    ids=" ".join,
)
def test_version_and_help_import_no_heavy_library(args: list[str], tmp_path: Path) -> None:
    assert loaded_by(args, tmp_path) == []


def test_status_loads_the_store_and_nothing_else(tmp_path: Path) -> None:
    loaded_by(["status", "0" * 64], tmp_path)  # the first call creates the schema
    assert loaded_by(["status", "0" * 64], tmp_path) == ["sqlalchemy"]


def test_review_list_needs_no_broker_and_no_parser(tmp_path: Path) -> None:
    loaded_by(["review", "list"], tmp_path)
    assert loaded_by(["review", "list"], tmp_path) == ["sqlalchemy"]


def test_every_command_is_listed_with_a_summary_and_loads() -> None:
    import click

    from lease_parser.cli import COMMANDS, SUMMARIES, cli

    assert list(COMMANDS) == list(SUMMARIES)
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        assert command.name == name


def test_dates_read_the_store_and_load_no_extractor(tmp_path: Path) -> None:
    loaded_by(["dates", "--all"], tmp_path)
    assert loaded_by(["dates", "--all"], tmp_path) == ["sqlalchemy"]
