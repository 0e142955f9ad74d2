"""Starting a Celery worker process for some queues: what ``lease-parser worker`` runs.

Here rather than in the CLI so the benchmark's probed worker (bench/worker.py) starts
exactly the same worker without importing the CLI.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from lease_parser.pipeline.app import create_app
from lease_parser.pipeline.routing import QUEUES
from lease_parser.settings import Settings


def unknown_queues(queues: Sequence[str]) -> list[str]:
    return sorted(set(queues) - set(QUEUES))


def use_soft_shutdown_on_sigterm() -> None:
    """Make SIGTERM Celery's soft shutdown (a time-limited warm one, then re-queue).

    Celery's plain SIGTERM is a warm shutdown that waits for running tasks however long
    they take: an OCR task near its 30-minute limit would hold a rollout or a scale-down
    that long. ``REMAP_SIGTERM=SIGQUIT`` makes SIGTERM the cold shutdown, which first waits
    ``worker_soft_shutdown_timeout`` (app.py) and then cancels what still runs; acks_late
    leaves those messages unacked and closing the channel puts them back on their queue.
    billiard reads the variable once, at import (billiard/common.py), in this process and
    in the pool children it starts, hence here, before the worker is imported.
    """
    if "billiard.common" in sys.modules:
        raise RuntimeError("REMAP_SIGTERM must be set before billiard is imported")
    os.environ["REMAP_SIGTERM"] = "SIGQUIT"


def run_worker(
    settings: Settings,
    queues: Sequence[str],
    concurrency: int | None = None,
    hostname: str | None = None,
    loglevel: str = "INFO",
) -> None:
    """Run a worker consuming ``queues`` until it is shut down (blocks)."""
    # Tesseract's OpenMP threads cost ~6x the CPU when every core already runs a child.
    os.environ["OMP_THREAD_LIMIT"] = "1"
    use_soft_shutdown_on_sigterm()
    argv = [
        "worker",
        "--queues",
        ",".join(queues),
        "--loglevel",
        loglevel,
        "--without-mingle",
        "--without-gossip",
    ]
    if concurrency:
        argv += ["--concurrency", str(concurrency)]
    if hostname:
        argv += ["--hostname", hostname]
    app = create_app(settings)
    # A worker owns its process: let Celery configure logging so our INFO lines show.
    app.conf.worker_hijack_root_logger = True
    app.worker_main(argv)
