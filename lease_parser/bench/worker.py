"""``python -m lease_parser.bench.worker --queues … --concurrency N``: a benchmark worker.

Exactly ``lease-parser worker`` (same CLI, same Celery app and settings), with the timing
probes of probes.py installed first; the pool processes inherit them when they fork.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from lease_parser.bench.probes import SPANS_ENV, install_probes
from lease_parser.local import WorkerProcess


class ProbedWorker(WorkerProcess):
    """A ``WorkerProcess`` that runs this module instead of ``lease-parser worker``."""

    def start(self, wait: bool = True) -> ProbedWorker:
        args = [
            sys.executable,
            "-m",
            "lease_parser.bench.worker",
            "--queues",
            ",".join(self.queues),
            "--concurrency",
            str(self.concurrency),
            "--hostname",
            self.hostname,
        ]
        log_path = self.log_path or Path(os.devnull)
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("ab") as log:
            # Own session, as WorkerProcess does: stop() ends the pool children with it.
            self.process = subprocess.Popen(
                args,
                env={**os.environ, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        if wait:
            self.wait_ready()
        return self


def main() -> None:
    install_probes(Path(os.environ[SPANS_ENV]))
    from lease_parser.cli import main as cli_main

    sys.argv = ["lease-parser", "worker", *sys.argv[1:]]
    cli_main()


if __name__ == "__main__":
    main()
