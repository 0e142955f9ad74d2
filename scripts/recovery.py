"""`make recovery`: how long a lease waits after its worker is SIGKILLed mid-task.

usage: python scripts/recovery.py [--trials 3] [--visibility-timeout 30] [--restore-interval 10]

Two cases, each on a real redis-server and real worker processes, with a three-page scan
in OCR as the victim (seconds of Tesseract, so the kill lands mid-task):

- child:  SIGKILL the prefork child running the task. Celery rejects the message back to
          its queue (task_reject_on_worker_lost); the pool forks a new child.
- main:   SIGKILL the worker's main process, start a fresh worker. The message sits in
          Redis's `unacked` index until the visibility timeout, then a worker's sweep
          (every restore interval) puts it back.

For each it prints the time from the kill until the task runs again and until the lease
is final. Expected worst cases: child ≈ a new child + the wait behind the queue (a
rejected message goes to the back); main ≈ visibility timeout - the task's run time so far
+ restore interval + the new worker's start (production defaults: 3600 s + 10 s).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from lease_parser.bench.corpus import DocKind, generate_corpus
from lease_parser.local import Inspector, RedisServer, WorkerProcess, wait_for
from lease_parser.pipeline.app import create_app
from lease_parser.pipeline.idempotency import deliveries
from lease_parser.pipeline.routing import RUN_OCR_FALLBACK
from lease_parser.pipeline.runtime import runtime_for
from lease_parser.pipeline.submit import submit_document
from lease_parser.settings import load_settings
from lease_parser.store import FINAL_STATES


def _scans(count: int) -> list[bytes]:
    """Distinct three-page scans: ~10 s of OCR, so the kill lands mid-task."""
    corpus = generate_corpus(count, count, seed=11, prefix="recovery", pages={DocKind.SCAN: (3, 3)})
    return [doc.data for doc in corpus]


def trial(case: str, env: dict[str, str], data: bytes, n: int) -> str:
    settings = load_settings()  # from the environment main() set up
    app, runtime = create_app(settings), runtime_for(settings)
    inspector = Inspector(env["LEASE_BROKER_URL"])
    worker = WorkerProcess(env, concurrency=1, name=f"{case}-{n}").start()
    successor = WorkerProcess(env, concurrency=1, name=f"{case}-{n}-next")
    try:
        runtime.objects.put(f"recovery/{case}-{n}.pdf", data)
        receipt = submit_document(app, f"recovery/{case}-{n}.pdf", hashlib.sha256(data).hexdigest())
        task = inspector.wait_active(RUN_OCR_FALLBACK, timeout=300)
        if case == "child":
            os.kill(task["worker_pid"], signal.SIGKILL)
        else:
            worker.kill()
        killed = time.monotonic()
        if case == "main":
            successor.start()
        wait_for(
            lambda: deliveries(runtime.redis, task["id"]).get(0, 0) >= 2,
            3 * settings.visibility_timeout + 300,
            "the redelivery",
        )
        again = time.monotonic() - killed

        def final() -> bool:
            row = runtime.store.document(receipt.doc_hash)
            return row is not None and row.state in FINAL_STATES

        wait_for(final, 600, "the final state", interval=0.2)
        done = time.monotonic() - killed
        return f"{case:5} trial {n}: running again after {again:6.1f} s, final after {done:6.1f} s"
    finally:
        worker.stop()
        successor.stop()
        inspector.close()
        app.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--visibility-timeout", type=int, default=30)
    parser.add_argument("--restore-interval", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lease-recovery-") as tmp:
        data_dir = Path(tmp)
        with RedisServer(data_dir / "redis") as redis_server:
            env = {
                "LEASE_DATA_DIR": str(data_dir),
                "LEASE_BROKER_URL": f"{redis_server.url}/0",
                "LEASE_RESULT_BACKEND": f"{redis_server.url}/1",
                "LEASE_VISIBILITY_TIMEOUT": str(args.visibility_timeout),
                "LEASE_UNACKED_RESTORE_INTERVAL": str(args.restore_interval),
                # Limits below the short visibility timeout (Settings insists).
                "LEASE_TIME_LIMITS__EXTRACTION__SOFT": "15",
                "LEASE_TIME_LIMITS__EXTRACTION__HARD": "20",
                "LEASE_TIME_LIMITS__OCR__SOFT": "20",
                "LEASE_TIME_LIMITS__OCR__HARD": "25",
                "LEASE_TIME_LIMITS__NORMALIZATION__SOFT": "15",
                "LEASE_TIME_LIMITS__NORMALIZATION__HARD": "20",
                "LEASE_RETRY__BACKOFF_MAX": "20",
                "OMP_THREAD_LIMIT": "1",
            }
            os.environ.update(env)
            scans = _scans(2 * args.trials)
            print(
                f"visibility timeout {args.visibility_timeout} s, "
                f"restore sweep every {args.restore_interval} s"
            )
            for i, case in enumerate(["child"] * args.trials + ["main"] * args.trials):
                print(trial(case, env, scans[i], i), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
