"""`make recovery`: how long a lease waits after its worker is SIGKILLed mid-task.

usage: python scripts/recovery.py [--trials 10] [--cases worker,main,child]
                                  [--visibility-timeout 3600]

Each case runs on a real redis-server and real worker processes, with the production
visibility timeout (3600 s) unless told otherwise, and a three-page scan in OCR as the
victim (seconds of Tesseract, so the kill lands mid-task). A bystander worker (the
normalization pool) runs throughout, as in a cluster: its reaper is one of those that
restore a dead worker's messages.

- worker: SIGKILL the worker's main process and all its children at once (a lost node, a
          killed pod). Its heartbeat expires (LEASE_HEARTBEAT_TTL, 20 s) and a reaper puts
          its messages back (pipeline/reaper.py); a replacement worker starts at once.
- main:   SIGKILL the main process only; its child notices and exits. Recovered the same way.
- child:  SIGKILL the prefork child running the task. Celery rejects the message back to
          its queue (task_reject_on_worker_lost); the pool forks a new child.

For each case it prints every trial, then the distribution (min / median / p90 / max) of
the time from the kill until the task runs again and until the lease is final, and checks
that no lease was committed twice. Expected for worker and main: ≤ TTL + the reaper's
interval (5 s) + the OCR itself; the visibility timeout plays no part.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lease_parser.bench.corpus import DocKind, generate_corpus
from lease_parser.local import Inspector, RedisServer, WorkerProcess, wait_for
from lease_parser.pipeline.app import create_app
from lease_parser.pipeline.idempotency import deliveries
from lease_parser.pipeline.routing import NORMALIZATION, RUN_OCR_FALLBACK
from lease_parser.pipeline.runtime import runtime_for
from lease_parser.pipeline.submit import submit_document
from lease_parser.settings import load_settings
from lease_parser.store import FINAL_STATES, final_entries

CASES = ("worker", "main", "child")


def _scans(count: int) -> list[bytes]:
    """Distinct three-page scans: ~10 s of OCR, so the kill lands mid-task."""
    corpus = generate_corpus(count, count, seed=11, prefix="recovery", pages={DocKind.SCAN: (3, 3)})
    return [doc.data for doc in corpus]


def _kill(case: str, worker: WorkerProcess, task: dict[str, object]) -> None:
    if case == "worker":
        worker.kill_all()
    elif case == "main":
        worker.kill()
    else:
        os.kill(int(str(task["worker_pid"])), signal.SIGKILL)


def trial(case: str, env: dict[str, str], data: bytes, n: int) -> tuple[float, float, int]:
    """Seconds from the kill until the task runs again and until final; final events."""
    settings = load_settings()  # from the environment main() set up
    app, runtime = create_app(settings), runtime_for(settings)
    inspector = Inspector(env["LEASE_BROKER_URL"])
    victim = WorkerProcess(env, concurrency=1, name=f"{case}-{n}").start()
    successor = WorkerProcess(env, concurrency=1, name=f"{case}-{n}-next")
    try:
        key = f"recovery/{case}-{n}.pdf"
        runtime.objects.put(key, data)
        receipt = submit_document(app, key, hashlib.sha256(data).hexdigest())
        task = inspector.wait_active(RUN_OCR_FALLBACK, timeout=300)
        _kill(case, victim, task)
        killed = time.monotonic()
        if case != "child":
            successor.start(wait=False)  # the replacement pod
        wait_for(
            lambda: deliveries(runtime.redis, str(task["id"])).get(0, 0) >= 2,
            settings.visibility_timeout + 300,
            "the redelivery",
        )
        again = time.monotonic() - killed

        def final() -> bool:
            row = runtime.store.document(receipt.doc_hash)
            return row is not None and row.state in FINAL_STATES

        wait_for(final, 600, "the final state", interval=0.2)
        done = time.monotonic() - killed
        return again, done, final_entries(runtime.store, receipt.doc_hash)
    finally:
        victim.stop()
        successor.stop()
        inspector.close()
        app.close()


def distribution(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (
        f"min {ordered[0]:6.1f}  median {statistics.median(ordered):6.1f}  "
        f"p90 {p90:6.1f}  max {ordered[-1]:6.1f} s"
    )


def run_case(case: str, env: dict[str, str], scans: list[bytes], start: int) -> bool:
    again, done, twice = [], [], 0
    for i, data in enumerate(scans):
        a, d, events = trial(case, env, data, start + i)
        again.append(a)
        done.append(d)
        twice += events > 1
        print(f"{case:6} trial {i + 1:2}: running again after {a:6.1f} s, final after {d:6.1f} s")
    print(f"{case:6} running again: {distribution(again)}")
    print(f"{case:6} final:         {distribution(done)}   committed twice: {twice}", flush=True)
    return twice == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10, help="trials per case")
    parser.add_argument(
        "--cases", default=",".join(CASES), help="comma-separated: worker,main,child"
    )
    parser.add_argument("--visibility-timeout", type=int, default=3600)
    args = parser.parse_args()
    cases = [c for c in args.cases.split(",") if c]
    if set(cases) - set(CASES) or args.trials < 1:
        parser.error(f"--cases takes {','.join(CASES)}; --trials at least 1")
    with tempfile.TemporaryDirectory(prefix="lease-recovery-") as tmp:
        data_dir = Path(tmp)
        with RedisServer(data_dir / "redis") as redis_server:
            env = {
                "LEASE_DATA_DIR": str(data_dir),
                "LEASE_BROKER_URL": f"{redis_server.url}/0",
                "LEASE_RESULT_BACKEND": f"{redis_server.url}/1",
                "LEASE_VISIBILITY_TIMEOUT": str(args.visibility_timeout),
                "OMP_THREAD_LIMIT": "1",
            }
            os.environ.update(env)
            settings = load_settings()
            print(
                f"visibility timeout {settings.visibility_timeout} s; heartbeat every "
                f"{settings.heartbeat_interval} s, TTL {settings.heartbeat_ttl} s; "
                f"{args.trials} trial(s) per case",
                flush=True,
            )
            bystander = WorkerProcess(env, queues=(NORMALIZATION,), name="bystander").start()
            try:
                scans = _scans(len(cases) * args.trials)
                ok = True
                for k, case in enumerate(cases):
                    batch = scans[k * args.trials : (k + 1) * args.trials]
                    ok &= run_case(case, env, batch, k * args.trials)
            finally:
                bystander.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
