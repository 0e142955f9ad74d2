"""The core never imports Celery or Redis: it must be usable (and testable) on bytes alone."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lease_parser"

CORE = [
    "lease_parser.parsing",
    "lease_parser.extraction",
    "lease_parser.normalization",
    "lease_parser.model",
    "lease_parser.gate",
    "lease_parser.abstract",
    "lease_parser.evaluation",
    "lease_parser.outcomes",
    "lease_parser.hashes",
    "lease_parser.corrections",
    "lease_parser.portfolio.terms",
    "lease_parser.portfolio.dates",
    "lease_parser.portfolio.links",
]


def test_core_modules_import_no_framework() -> None:
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in CORE)
        + "bad = [m for m in ('celery', 'kombu', 'redis', 'billiard') if m in sys.modules]\n"
        + "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_nothing_below_the_cli_imports_the_cli() -> None:
    """The CLI is the top layer: a module under it that imports it closes a cycle (the
    benchmark's worker once did: cli → bench → cli)."""
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "cli" not in path.relative_to(PACKAGE).parts
        and path.name != "__main__.py"
        and any(
            m == "lease_parser.cli" or m.startswith("lease_parser.cli.") for m in _imports(path)
        )
    ]
    assert offenders == []
