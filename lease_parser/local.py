"""Real servers on one machine: a ``redis-server`` from redis/redis.conf and worker processes.

Used by ``lease-parser run`` (``make run``), the integration tests and the benchmarks, so
all three exercise the same real parts. Every process started here is stopped here, by
its PID (and its process group, for a worker's prefork children), also on errors.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import redis
from lease_parser.errors import ConfigurationError
from lease_parser.local_system import REDIS_DIR, SystemLock
from lease_parser.pipeline.routing import QUEUES

T = TypeVar("T")
REDIS_CONF = Path(__file__).resolve().parent.parent / "redis" / "redis.conf"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def redis_conf_path() -> Path:
    """The project's redis.conf (from a checkout), or a copy shipped in the data dir."""
    if REDIS_CONF.is_file():
        return REDIS_CONF
    raise ConfigurationError(
        f"redis/redis.conf not found beside the package ({REDIS_CONF}); run from a checkout"
    )


def wait_for(check: Callable[[], T | None], timeout: float, what: str, interval: float = 0.1) -> T:
    """Poll ``check`` until it returns something truthy (errors count as "not yet").

    Every wait on a real process is a bounded poll, never a fixed sleep: the machine may
    be slow (shared cores), and a sleep that assumes speed makes a flaky test.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
            if value:
                return value
        except Exception:
            pass
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what} did not happen within {timeout:.0f}s")
        time.sleep(interval)


def _wait_until(check: Callable[[], object], timeout: float, what: str) -> None:
    wait_for(lambda: bool(check()), timeout, f"{what} becoming ready")


def spawn(args: list[str], env: dict[str, str], log_path: Path | None) -> subprocess.Popen[bytes]:
    """A process of ours in its own session, output appended to ``log_path``."""
    log_path = log_path or Path(os.devnull)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("ab") as log:
        return subprocess.Popen(
            args,
            env={**os.environ, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def terminate(process: subprocess.Popen[bytes] | None, grace: float = 20) -> None:
    """SIGTERM, then SIGKILL if it is still running after ``grace`` seconds."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


@dataclass
class RedisServer:
    """A ``redis-server`` on a free loopback port, data (AOF) under ``data_dir``."""

    data_dir: Path
    port: int = 0
    extra_args: list[str] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def client(self, db: int = 0) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, db=db, socket_timeout=10)

    def start(self) -> RedisServer:
        binary = shutil.which("redis-server")
        if binary is None:
            raise ConfigurationError("redis-server is not installed: apt-get install redis-server")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.port = self.port or free_port()
        args = [
            binary,
            str(redis_conf_path()),
            "--port",
            str(self.port),
            "--dir",
            str(self.data_dir),
            "--daemonize",
            "no",
            "--logfile",
            str(self.data_dir / "redis.log"),
            *self.extra_args,
        ]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_until(lambda: self.client().ping(), 20, f"redis-server on port {self.port}")
        return self

    def kill(self) -> None:
        """SIGKILL: what a crashed node looks like (no final AOF rewrite, no goodbye)."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        terminate(self.process)  # SIGTERM: redis fsyncs the AOF and exits

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class WorkerProcess:
    """A real ``lease-parser worker`` process (Celery prefork) for some queues."""

    env: dict[str, str]
    queues: tuple[str, ...] = QUEUES
    concurrency: int = 1
    name: str = "worker"
    log_path: Path | None = None
    extra_args: list[str] = field(default_factory=list)
    # The module run with `python -m MODULE worker ...`; the benchmark swaps in its own.
    module: str = "lease_parser"
    process: subprocess.Popen[bytes] | None = None

    @property
    def hostname(self) -> str:
        return f"{self.name}@{socket.gethostname()}"

    def start(self, wait: bool = True) -> WorkerProcess:
        args = [
            sys.executable,
            "-m",
            self.module,
            "worker",
            "--queues",
            ",".join(self.queues),
            "--concurrency",
            str(self.concurrency),
            "--hostname",
            self.hostname,
            *self.extra_args,
        ]
        # Own session: the prefork children share its group, so stop() ends them all.
        self.process = spawn(args, self.env, self.log_path)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout: float = 60) -> None:
        """Poll until the worker answers a control ping (it is consuming its queues)."""
        from celery import Celery

        assert self.process is not None
        app = Celery(broker=self.env["LEASE_BROKER_URL"], set_as_current=False)
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"worker {self.name} exited with {self.process.returncode}")
                if app.control.ping(destination=[self.hostname], timeout=0.5):
                    return
            raise TimeoutError(f"worker {self.name} not ready within {timeout:.0f}s")
        finally:
            app.close()

    def child_pids(self) -> list[int]:
        """PIDs of the prefork children (the processes that run tasks)."""
        if self.process is None:
            return []
        out = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True, check=False
        )
        return [int(p) for p in out.stdout.split()]

    def stop(self, grace: float = 60) -> None:
        """SIGTERM, then SIGKILL the whole group after ``grace`` seconds.

        SIGTERM is the worker's soft shutdown: an idle worker exits at once; a busy one
        gives its tasks LEASE_SOFT_SHUTDOWN_TIMEOUT (30 s) and re-queues what still runs.
        """
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(grace)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)

    def kill(self) -> None:
        """SIGKILL the main process only (its children notice and exit)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def kill_all(self) -> None:
        """SIGKILL the main process and all its children at once: a lost node, a killed pod."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def wait_exit(self, timeout: float) -> int:
        """Wait for the main process to exit on its own; its exit code."""
        assert self.process is not None
        return self.process.wait(timeout)


class Inspector:
    """Asks running workers what they are doing (Celery remote control over the broker)."""

    def __init__(self, broker_url: str) -> None:
        from celery import Celery

        self.app = Celery(broker=broker_url, set_as_current=False)

    def active(self, timeout: float = 1.0) -> list[dict[str, Any]]:
        """Tasks running now on any worker: ``id``, ``name``, ``kwargs``, ``worker_pid``…"""
        replies = self.app.control.inspect(timeout=timeout).active() or {}
        return [task for tasks in replies.values() for task in tasks or []]

    def wait_active(
        self, name: str, timeout: float, exclude_pids: frozenset[int] = frozenset()
    ) -> dict[str, Any]:
        """The first running task called ``name`` (optionally not on given child PIDs)."""

        def find() -> dict[str, Any] | None:
            for task in self.active(timeout=0.5):
                if task["name"] == name and task["worker_pid"] not in exclude_pids:
                    return task
            return None

        return wait_for(find, timeout, f"{name} running on a worker", interval=0.1)

    def close(self) -> None:
        self.app.close()


@dataclass
class LocalCluster:
    """redis-server + one worker per queue, with the settings environment they share.

    While it runs it owns its data directory's local system (local_system.py): a second
    cluster on the same directory is refused, and operator commands find its broker.
    """

    data_dir: Path
    concurrency: dict[str, int] = field(default_factory=lambda: dict.fromkeys(QUEUES, 1))
    extra_env: dict[str, str] = field(default_factory=dict)
    # Who runs it, for the message a second owner gets ("lease-parser run, pid 123").
    command: str = "lease-parser"
    redis_server: RedisServer | None = None
    workers: list[WorkerProcess] = field(default_factory=list)
    lock: SystemLock | None = None

    @property
    def env(self) -> dict[str, str]:
        assert self.redis_server is not None
        return {
            "LEASE_DATA_DIR": str(self.data_dir),
            "LEASE_BROKER_URL": f"{self.redis_server.url}/0",
            "LEASE_RESULT_BACKEND": f"{self.redis_server.url}/1",
            # Tesseract's own threads would fight the prefork children for the 2 cores.
            "OMP_THREAD_LIMIT": "1",
            **self.extra_env,
        }

    def start(self) -> LocalCluster:
        self.lock = SystemLock(self.data_dir, self.command).acquire()
        try:
            self.redis_server = RedisServer(self.data_dir / REDIS_DIR).start()
            self.lock.record(self.redis_server.url)
            for queue, n in self.concurrency.items():
                worker = WorkerProcess(
                    env=self.env,
                    queues=(queue,),
                    concurrency=n,
                    name=f"{queue}-{os.getpid()}",
                    log_path=self.data_dir / f"{queue}.log",
                )
                self.workers.append(worker.start(wait=False))
            for worker in self.workers:
                worker.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.workers.clear()
        if self.redis_server is not None:
            self.redis_server.stop()
        if self.lock is not None:
            self.lock.release()

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


REVIEWER_TOKEN_FILE = "reviewer-token"


def local_reviewer_token(data_dir: Path) -> str:
    """The token the local reviewer signs in with (``make run`` prints it, ``make serve``
    accepts it): made once, kept in the data directory, readable by its owner only."""
    import secrets

    path = data_dir / REVIEWER_TOKEN_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_urlsafe(24))
    return path.read_text().strip()


@dataclass
class WebServer:
    """A real ``lease-parser serve`` (uvicorn) process on a free loopback port."""

    env: dict[str, str]
    port: int = 0
    log_path: Path | None = None
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> WebServer:
        import urllib.request

        self.port = self.port or free_port()
        args = [sys.executable, "-m", "lease_parser", "serve", "--port", str(self.port)]
        self.process = spawn(args, self.env, self.log_path)
        log_path = self.log_path or Path(os.devnull)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"lease-parser serve exited with {self.process.returncode} (log: {log_path})"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/v1/openapi.json", timeout=2) as reply:
                    if reply.status == 200:
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"lease-parser serve not answering within {timeout:.0f}s")
            time.sleep(0.1)

    def stop(self) -> None:
        terminate(self.process)  # SIGTERM: uvicorn finishes its requests and exits

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
