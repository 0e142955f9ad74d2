"""pipeline/queues.py: kombu's Redis key layout and the publish stamp, without a server."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from kombu.transport.redis import PRIORITY_STEPS
from kombu.transport.redis import Channel as RedisChannel

from lease_parser.pipeline import queues


def kombu_key(queue: str, priority: int) -> str:
    """The key kombu's own Channel code picks for a message of this priority."""
    channel = SimpleNamespace(priority_steps=PRIORITY_STEPS, sep=RedisChannel.sep)
    channel.priority = lambda n: RedisChannel.priority(channel, n)  # type: ignore[attr-defined]
    return str(RedisChannel._q_for_pri(channel, queue, priority))


def test_priority_keys_are_exactly_the_lists_kombu_writes() -> None:
    written = {kombu_key("lease_ocr", p) for p in range(10)}
    assert set(queues.priority_keys("lease_ocr")) == written
    assert queues.priority_keys("lease_ocr") == [
        "lease_ocr",
        "lease_ocr\x06\x163",
        "lease_ocr\x06\x166",
        "lease_ocr\x06\x169",
    ]


def test_every_queue_of_the_routing_table_is_exported() -> None:
    from lease_parser.pipeline.routing import QUEUES, UNROUTED

    assert set(queues.ALL_QUEUES) == {*QUEUES, UNROUTED}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (json.dumps({"headers": {queues.PUBLISHED_AT_HEADER: 1700000000.5}}), 1700000000.5),
        (json.dumps({"headers": {}}), None),  # published by a client without our signal
        (json.dumps({"headers": {queues.PUBLISHED_AT_HEADER: "soon"}}), None),
        (json.dumps([1, 2]), None),
        (b"not json", None),
        (None, None),
    ],
)
def test_published_at_reads_the_stamp_or_nothing(raw: str | bytes | None, expected: float) -> None:
    assert queues.published_at(raw) == expected


@given(st.binary())
def test_published_at_never_raises_on_garbage(raw: bytes) -> None:
    assert queues.published_at(raw) is None or isinstance(queues.published_at(raw), float)
