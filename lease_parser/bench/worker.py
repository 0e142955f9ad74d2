"""``python -m lease_parser.bench.worker worker --queues …``: a benchmark worker.

Exactly ``lease-parser worker`` (the same ``run_worker``, Celery app and settings), with
the timing probes of probes.py installed first; the pool processes inherit them when they
fork. It takes the arguments ``local.WorkerProcess`` passes and never imports the CLI.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from lease_parser.bench.probes import SPANS_ENV, install_probes
from lease_parser.local import WorkerProcess


def probed_worker(**kwargs: Any) -> WorkerProcess:
    """A ``WorkerProcess`` that runs this module instead of ``lease-parser worker``."""
    return WorkerProcess(module="lease_parser.bench.worker", **kwargs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="lease_parser.bench.worker")
    parser.add_argument("command", choices=["worker"])
    parser.add_argument("--queues", required=True)
    parser.add_argument("--concurrency", type=int, default=None)
    parser.add_argument("--hostname", default=None)
    parser.add_argument("--loglevel", default="INFO")
    args = parser.parse_args(argv)
    install_probes(Path(os.environ[SPANS_ENV]))
    from lease_parser.pipeline.worker import run_worker
    from lease_parser.settings import load_settings

    run_worker(
        load_settings(), args.queues.split(","), args.concurrency, args.hostname, args.loglevel
    )


if __name__ == "__main__":
    main()
