"""A point a task waits at before its body, for tests that kill or stop a worker mid-task.

A test that SIGKILLs a child or sends a worker SIGTERM needs a task that is surely running
at that moment. Without this it had to make the task long (pages of OCR) and hope; with it,
a worker started with ``LEASE_TEST_HOLD=<task name>`` announces each such task on
``HELD`` and waits until the test pushes to ``release_key(task_id)``: as long as the test
needs, and no longer. Unset (every deployment), it costs one string test per task.
"""

from __future__ import annotations

import redis

HELD = "lease:test:held"
# Well below the client's socket timeout: a blocking pop longer than it would fail.
_POLL = 5


def release_key(task_id: str) -> str:
    return f"lease:test:release:{task_id}"


def hold_point(r: redis.Redis, held: str, task_name: str, task_id: str) -> None:
    """Wait here if ``task_name`` is one of ``held`` (LEASE_TEST_HOLD), until released."""
    if not held or task_name not in held.split(","):
        return
    r.rpush(HELD, task_id)
    while r.blpop([release_key(task_id)], timeout=_POLL) is None:
        pass
