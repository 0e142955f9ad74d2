"""The one local system of a data directory: who runs it, and where its broker listens.

``lease-parser run`` (``make run``) and ``serve --local`` (``make serve``) start a
``redis-server`` on a free port under ``LEASE_DATA_DIR``. Operator commands (``dead list``,
``submit``, ``healthcheck``, ``worker``…) must reach *that* Redis, not whatever listens
on 127.0.0.1:6379 (issue 22: ``dead list`` answered "0 dead letters" from another Redis
while the store held a dead document). So the running system records itself here:

- ``local.lock``: held (``flock``) by the process that runs the system for as long as it
  runs. The kernel releases it when that process dies, however it dies, so a record is
  never believed after its owner is gone, and two systems never share one AOF.
- ``broker.json``: the broker's URL, the owner's PID and command, written once the broker
  answers, removed on a clean stop.

Only the standard library here: ``lease-parser status`` imports this module.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from lease_parser.errors import ConfigurationError, LocalSystemRunning, LocalSystemStopped

LOCK_FILE = "local.lock"
BROKER_FILE = "broker.json"
# The local system's Redis data (AOF): its presence says "a local system lives here".
REDIS_DIR = "redis"


@dataclass(frozen=True)
class BrokerRecord:
    """A running local system: its broker's base URL (no db), who runs it."""

    url: str
    pid: int
    command: str
    started_at: float

    def broker_url(self, db: int) -> str:
        return f"{self.url}/{db}"


def has_local_system(data_dir: Path) -> bool:
    """True when ``run`` or ``serve --local`` has used this data directory."""
    return (data_dir / REDIS_DIR).is_dir() or (data_dir / LOCK_FILE).exists()


def _read_record(data_dir: Path) -> BrokerRecord | None:
    try:
        data = json.loads((data_dir / BROKER_FILE).read_text())
        return BrokerRecord(**data)
    except (OSError, ValueError, TypeError):
        return None


def _lock_is_held(data_dir: Path) -> bool:
    """Whether some process holds ``local.lock`` (a shared try-lock fails against it)."""
    try:
        fd = os.open(data_dir / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops the shared lock we may have taken
    return False


def running_broker(data_dir: Path) -> BrokerRecord | None:
    """The broker of the system running on ``data_dir``, or None if none runs."""
    record = _read_record(data_dir)
    if record is None or not _lock_is_held(data_dir):
        return None
    return record


def running_broker_or_fail(data_dir: Path) -> BrokerRecord:
    """The running system's broker; raises ``LocalSystemStopped`` saying what to do."""
    record = running_broker(data_dir)
    if record is None:
        raise LocalSystemStopped(
            f"the local system in {data_dir} is not running, so its broker cannot be "
            "reached: start it with `make serve` (lease-parser serve --local) and run this "
            "again, or set LEASE_BROKER_URL to use another broker"
        )
    return record


class SystemLock:
    """Exclusive ownership of a data directory's local system (see the module docstring)."""

    def __init__(self, data_dir: Path, command: str) -> None:
        self.data_dir = data_dir
        self.command = command
        self._fd: int | None = None

    def acquire(self) -> SystemLock:
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise ConfigurationError(
                f"LEASE_DATA_DIR={self.data_dir} cannot hold the local system's files "
                f"({exc.strerror}): choose a directory you can write"
            ) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise self._busy() from None
        self._fd = fd
        return self

    def _busy(self) -> LocalSystemRunning:
        record = _read_record(self.data_dir)
        who = f"{record.command}, pid {record.pid}" if record else "starting up"
        return LocalSystemRunning(
            f"the local system in {self.data_dir} is running already ({who}); stop it "
            "first, or give this command another LEASE_DATA_DIR"
        )

    def record(self, broker_base_url: str) -> BrokerRecord:
        """Write ``broker.json`` (atomically: a reader never sees half a file)."""
        record = BrokerRecord(broker_base_url, os.getpid(), self.command, time.time())
        tmp = self.data_dir / f".{BROKER_FILE}.{os.getpid()}"
        tmp.write_text(json.dumps(asdict(record)))
        tmp.replace(self.data_dir / BROKER_FILE)
        return record

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(FileNotFoundError):
            (self.data_dir / BROKER_FILE).unlink()
        os.close(self._fd)  # releases the flock
        self._fd = None

    @contextlib.contextmanager
    def held(self) -> Iterator[SystemLock]:
        self.acquire()
        try:
            yield self
        finally:
            self.release()
