"""Starting a Celery worker process for some queues: what ``lease-parser worker`` runs.

Here rather than in the CLI so the benchmark's probed worker (bench/worker.py) starts
exactly the same worker without importing the CLI.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from lease_parser.pipeline.app import create_app
from lease_parser.pipeline.routing import QUEUES
from lease_parser.settings import Settings


def unknown_queues(queues: Sequence[str]) -> list[str]:
    return sorted(set(queues) - set(QUEUES))


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
