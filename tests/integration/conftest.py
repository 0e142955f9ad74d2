"""Fixtures that start and stop the real things: redis-server, celery workers, moto, PostgreSQL.

A missing server binary fails the test (CI installs them); nothing silently skips.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from celery import Celery
from sqlalchemy import func, select

from lease_parser.local import Inspector, RedisServer, WorkerProcess, free_port, wait_for
from lease_parser.pipeline.app import create_app
from lease_parser.pipeline.hold import HELD, release_key
from lease_parser.pipeline.routing import QUEUES
from lease_parser.pipeline.runtime import Runtime, runtime_for
from lease_parser.settings import Settings, load_settings
from lease_parser.store import FINAL_STATES, DocumentRow, EventRow, entered_final_state
from tests.integration.postgres import pg_database, pg_url, store_url  # noqa: F401 (fixtures)

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/integration" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


@dataclass
class Pipeline:
    """Settings, app and runtime pointing at a test's own redis-server and data dir."""

    settings: Settings
    env: dict[str, str]
    app: Celery
    redis_server: RedisServer

    @property
    def runtime(self) -> Runtime:
        return runtime_for(self.settings)

    def put(self, key: str, data: bytes) -> None:
        self.runtime.objects.put(key, data)

    def wait_final(self, doc_hash: str, timeout: float = 120) -> DocumentRow:
        """Poll the store until the document leaves ``pending``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            row = self.runtime.store.document(doc_hash)
            if row is not None and row.state in FINAL_STATES:
                return row
            time.sleep(0.2)
        raise AssertionError(
            f"document {doc_hash[:12]} not final after {timeout}s\n{self.diagnosis()}"
        )

    def diagnosis(self, lines: int = 40) -> str:
        """What a stuck test needs: queue lengths, unacked messages, each worker log's tail."""
        redis = self.runtime.redis
        queues = {q: redis.llen(q) for q in QUEUES}
        out = [f"queues {queues}, unacked {redis.hlen('unacked')}"]
        for log in sorted(self.settings.data_dir.glob("*.log")):
            tail = log.read_text(errors="replace").splitlines()[-lines:]
            out += [f"--- {log.name}", *tail]
        return "\n".join(out)

    def wait_submissions_done(self, task_ids: list[str], timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            subs = [self.runtime.store.submission(t) for t in task_ids]
            if all(s is not None and s.state != "pending" for s in subs):
                return
            time.sleep(0.2)
        raise AssertionError("submissions still pending")

    def held(self, timeout: float = 120) -> str:
        """The id of the next task to reach the hold point (a worker started with
        ``LEASE_TEST_HOLD``): it waits there, surely running, until ``release``."""
        return wait_for(lambda: self.runtime.redis.lpop(HELD), timeout, "a task held").decode()

    def release(self, task_id: str) -> None:
        self.runtime.redis.rpush(release_key(task_id), "go")

    def final_events(self, doc_hash: str) -> int:
        """How often the document entered a final state (exactly-once means 1)."""
        with self.runtime.store.session() as s:
            return int(
                s.scalar(
                    select(func.count())
                    .select_from(EventRow)
                    .where(EventRow.doc_hash == doc_hash, entered_final_state())
                )
                or 0
            )

    def worker(
        self, name: str = "w", queues: tuple[str, ...] = QUEUES, concurrency: int = 1, **env: str
    ) -> WorkerProcess:
        return WorkerProcess(
            env={**self.env, **env},
            queues=queues,
            concurrency=concurrency,
            name=f"{name}-{uuid.uuid4().hex[:6]}",
            log_path=self.settings.data_dir / f"{name}.log",
        )


def make_pipeline(tmp_path: Path, redis_server: RedisServer, **env: str) -> Pipeline:
    full_env = {
        "LEASE_DATA_DIR": str(tmp_path / "data"),
        "LEASE_BROKER_URL": f"{redis_server.url}/0",
        "LEASE_RESULT_BACKEND": f"{redis_server.url}/1",
        **env,
    }
    with mock.patch.dict(os.environ, full_env):
        settings = load_settings()
    return Pipeline(settings, full_env, create_app(settings), redis_server)


@pytest.fixture
def pipeline(tmp_path: Path, redis_server: RedisServer) -> Iterator[Pipeline]:
    p = make_pipeline(tmp_path, redis_server)
    yield p
    p.app.close()


@pytest.fixture
def worker(pipeline: Pipeline) -> Iterator[WorkerProcess]:
    """One real `lease-parser worker` process consuming every queue."""
    w = pipeline.worker(concurrency=2).start()
    yield w
    w.stop()


@dataclass
class MotoServer:
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> MotoServer:
        exe = shutil.which("moto_server", path=str(Path(sys.executable).parent)) or "moto_server"
        self.process = subprocess.Popen(
            [exe, "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import urllib.request

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/moto-api/", timeout=1)
                return self
            except OSError:
                time.sleep(0.1)
        raise TimeoutError("moto_server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def moto_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[MotoServer]:
    """moto in server mode over HTTP: boto3 talks real S3 protocol to it."""
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    server = MotoServer(free_port()).start()
    yield server
    server.stop()


# Short limits so the recovery paths that wait out the visibility timeout take seconds,
# not an hour. Settings still validate: visibility > every hard limit and countdown.
FAST_RECOVERY_ENV = {
    "LEASE_TIME_LIMITS__EXTRACTION__SOFT": "10",
    "LEASE_TIME_LIMITS__EXTRACTION__HARD": "12",
    "LEASE_TIME_LIMITS__OCR__SOFT": "16",
    "LEASE_TIME_LIMITS__OCR__HARD": "20",
    "LEASE_TIME_LIMITS__NORMALIZATION__SOFT": "8",
    "LEASE_TIME_LIMITS__NORMALIZATION__HARD": "10",
    "LEASE_RETRY__BACKOFF_BASE": "1",
    "LEASE_RETRY__BACKOFF_MAX": "2",
    "LEASE_VISIBILITY_TIMEOUT": "22",
    "LEASE_UNACKED_RESTORE_INTERVAL": "1",
    "LEASE_SOFT_SHUTDOWN_TIMEOUT": "1",
}


@pytest.fixture
def fast_pipeline(tmp_path: Path, redis_server: RedisServer) -> Iterator[Pipeline]:
    """A pipeline whose visibility timeout and time limits are seconds long."""
    p = make_pipeline(tmp_path, redis_server, **FAST_RECOVERY_ENV)
    yield p
    p.app.close()


@pytest.fixture
def inspector(redis_server: RedisServer) -> Iterator[Inspector]:
    i = Inspector(f"{redis_server.url}/0")
    yield i
    i.close()


def run_cli(
    pipeline: Pipeline, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``lease-parser ARGS`` in a subprocess, configured like the pipeline (plus ``env``)."""
    return subprocess.run(
        [sys.executable, "-m", "lease_parser", *args],
        env={**os.environ, **pipeline.env, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )
