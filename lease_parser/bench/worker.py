"""``python -m lease_parser.bench.worker worker --queues …``: a benchmark worker.

Exactly ``lease-parser worker`` (same CLI, same Celery app and settings), with the timing
probes of probes.py installed first; the pool processes inherit them when they fork.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from lease_parser.bench.probes import SPANS_ENV, install_probes
from lease_parser.local import WorkerProcess


def probed_worker(**kwargs: Any) -> WorkerProcess:
    """A ``WorkerProcess`` that runs this module instead of ``lease-parser worker``."""
    return WorkerProcess(module="lease_parser.bench.worker", **kwargs)


def main() -> None:
    install_probes(Path(os.environ[SPANS_ENV]))
    from lease_parser.cli import main as cli_main

    sys.argv = ["lease-parser", *sys.argv[1:]]
    cli_main()


if __name__ == "__main__":
    main()
