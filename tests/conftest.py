"""Suite-wide fixtures: a clean environment for every test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def clean_environ() -> Iterator[None]:
    """Scrub LEASE_* so a developer's shell never changes what a test sees."""
    saved = {k: v for k, v in os.environ.items() if k.startswith("LEASE_")}
    for key in saved:
        del os.environ[key]
    yield
    for key in [k for k in os.environ if k.startswith("LEASE_")]:
        del os.environ[key]
    os.environ.update(saved)
