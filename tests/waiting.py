"""Waiting on a condition instead of sleeping a fixed time: poll it until a deadline.

A fixed sleep is too long on a quiet machine and too short on a loaded one; a poll returns
as soon as the condition holds and fails, naming it, only when it never does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(
    condition: Callable[[], T | None], what: str, timeout: float = 30, interval: float = 0.02
) -> T:
    """The first truthy value ``condition`` returns; AssertionError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(interval)
