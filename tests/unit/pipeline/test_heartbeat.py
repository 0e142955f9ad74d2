"""What a worker's heartbeat says about its consumption, read the way the probe reads it."""

from __future__ import annotations

import pytest

from lease_parser.pipeline.heartbeat import NodeStatus


def status(busy: int, consumed_at: float, free_since: float | None) -> NodeStatus:
    return NodeStatus(
        instance="w@h#1",
        queues=("lease_ocr",),
        concurrency=2,
        busy=busy,
        beat_at=1000.0,
        consumed_at=consumed_at,
        free_since=free_since,
    )


@pytest.mark.parametrize(
    ("node", "idle"),
    [
        # Every slot busy (a 25-minute OCR task on each child): never idle, however long.
        (status(busy=2, consumed_at=0.0, free_since=None), None),
        # A slot free since 900, last message taken at 400: idle 100 s (since the slot freed).
        (status(busy=1, consumed_at=400.0, free_since=900.0), 100.0),
        # A slot free since 100, a message taken at 950: idle 50 s (since that message).
        (status(busy=1, consumed_at=950.0, free_since=100.0), 50.0),
        # Nothing running, nothing taken since the worker started at 0.
        (status(busy=0, consumed_at=0.0, free_since=0.0), 1000.0),
    ],
)
def test_idle_time_counts_only_while_a_slot_is_free(node: NodeStatus, idle: float | None) -> None:
    assert node.idle_for(now=1000.0) == idle


def test_the_status_round_trips_through_redis_strings() -> None:
    raw = {
        b"instance": b"lease_ocr@pod#ab12",
        b"queues": b"lease_ocr",
        b"concurrency": b"2",
        b"busy": b"0",
        b"beat_at": b"12.5",
        b"consumed_at": b"10.0",
        b"free_since": b"",
    }
    node = NodeStatus.from_redis(raw)
    assert node.queues == ("lease_ocr",)
    assert node.free_since is None
    assert node.idle_for(now=20.0) is None
