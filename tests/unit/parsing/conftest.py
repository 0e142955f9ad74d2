"""Shared helpers for the parsing tests: fixture files and the corpus (when present)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lease_parser.parsing import ParseLimits

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "parsing"
# CI clones have the shared corpus beside the repository; a user's clone does not.
CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "dev"
PASSWORD = "s3cret-lease"  # tests/fixtures/make_parsing_fixtures.py


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


@pytest.fixture
def limits() -> ParseLimits:
    return ParseLimits()
