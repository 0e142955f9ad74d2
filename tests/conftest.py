"""Suite-wide fixtures: a clean environment for every test; Hypothesis without deadlines."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

# Speed is measured in benchmarks, never in tests: on a shared 2-core machine a property
# test's example can take seconds, and Hypothesis's default 200 ms deadline fails it.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


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
