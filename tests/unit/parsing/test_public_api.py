"""The parsing package's public surface, its purity, and how Settings feed it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import lease_parser.parsing as parsing
from lease_parser.parsing import OcrOptions, ParseLimits
from lease_parser.settings import load_settings

REPO = Path(__file__).resolve().parents[3]


def test_exported_members() -> None:
    assert parsing.__all__ == [
        "Document",
        "OcrOptions",
        "OcrReason",
        "Page",
        "PageQuality",
        "PageSource",
        "ParseLimits",
        "SourceFormat",
        "Table",
        "apply_ocr",
        "detect_format",
        "needs_ocr",
        "ocr_reason",
        "parse_document",
        "password_opens",
    ]


def test_parsing_imports_neither_celery_nor_redis() -> None:
    code = (
        "import sys, lease_parser.parsing, lease_parser.settings; "
        "bad = [m for m in ('celery', 'redis', 'kombu') if m in sys.modules]; "
        "print(*bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_settings_feed_the_parsers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEASE_MAX_PAGES", "90")
    monkeypatch.setenv("LEASE_MAX_MEMBER_BYTES", "1000000")
    monkeypatch.setenv("LEASE_MAX_TABLE_PAGES", "5")
    monkeypatch.setenv("LEASE_OCR_DPI", "200")
    monkeypatch.setenv("LEASE_OCR_THREADS", "2")
    settings = load_settings()
    assert settings.parse_limits() == ParseLimits(
        max_pages=90, max_member_bytes=1_000_000, max_table_pages=5
    )
    assert settings.ocr_options() == OcrOptions(dpi=200, threads=2)


def test_defaults_agree() -> None:
    settings = load_settings()
    assert settings.parse_limits() == ParseLimits()
    assert settings.ocr_options() == OcrOptions()
