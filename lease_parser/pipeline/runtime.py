"""Per-process resources a task needs: object store, canonical store, Redis client.

Created lazily and keyed by PID: prefork children must not share the parent's database
connections or sockets, so a child builds its own on first use after the fork.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property

import redis
from lease_parser.objects import ObjectStore, open_object_store
from lease_parser.settings import Settings
from lease_parser.store import Store


@dataclass
class Runtime:
    settings: Settings

    @cached_property
    def objects(self) -> ObjectStore:
        return open_object_store(self.settings.object_store_url, self.settings.s3_endpoint_url)

    @cached_property
    def store(self) -> Store:
        return Store(self.settings.store_database_url)

    @cached_property
    def redis(self) -> redis.Redis:
        # The broker's own database: hash locks and dead letters live beside the queues and
        # share their persistence (AOF) and memory policy (noeviction).
        return redis.Redis.from_url(
            self.settings.broker_url,
            socket_timeout=30,
            socket_connect_timeout=10,
            health_check_interval=25,
        )


_runtimes: dict[tuple[int, int], Runtime] = {}


def runtime_for(settings: Settings) -> Runtime:
    key = (os.getpid(), id(settings))
    if key not in _runtimes:
        _runtimes[key] = Runtime(settings)
    return _runtimes[key]
