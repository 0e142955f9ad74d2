"""The core never imports Celery or Redis: it must be usable (and testable) on bytes alone."""

from __future__ import annotations

import subprocess
import sys

CORE = [
    "lease_parser.parsing",
    "lease_parser.extraction",
    "lease_parser.normalization",
    "lease_parser.model",
    "lease_parser.gate",
    "lease_parser.abstract",
    "lease_parser.evaluation",
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
