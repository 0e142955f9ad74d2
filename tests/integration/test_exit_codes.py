"""The exit-code table of docs/commands.md, checked row by row against the real CLI
(subprocesses).

Each code the table promises has a scenario here that produces it, with the real parts:
a redis-server (at maxmemory for 4), a broker on a dead port (6), a blocking command
interrupted with SIGINT (130). A row added to the table without a scenario fails the
test, and so does a scenario that exits otherwise, or one that prints a traceback.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from lease_parser.local import RedisServer, free_port, wait_for

COMMANDS_DOC = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
UNKNOWN = "0123456789ab" + "c" * 52


def documented_exit_codes() -> dict[int, str]:
    section = COMMANDS_DOC.read_text().split("\n## Exit codes", 1)[1].split("\n\n", 2)[1]
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", section, re.MULTILINE)
    return {int(code): meaning.strip() for code, meaning in rows}


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lease_parser", *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def interrupted(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A blocking command (the metrics exporter) stopped with Ctrl-C's SIGINT."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "lease_parser", "metrics", "--port", str(port)],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C's disposition in a terminal. A parent that ignores SIGINT (nohup, some CI
        # runners) passes SIG_IGN on, and the command would then rightly not stop on it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        import urllib.request

        wait_for(
            lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2),
            60,
            "the exporter serving",
        )
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def full_broker(redis_server: RedisServer) -> None:
    client = redis_server.client()
    used = int(client.info("memory")["used_memory"])
    client.config_set("maxmemory", used + 1024)  # past the 90 % high-water mark


Scenario = Callable[[dict[str, str], RedisServer], subprocess.CompletedProcess[str]]

SCENARIOS: dict[int, Scenario] = {
    0: lambda env, _: cli(env, "--version"),
    1: lambda env, _: cli(
        {**env, "LEASE_BROKER_URL": f"redis://127.0.0.1:{free_port()}/0"},
        "healthcheck",
        "--timeout",
        "1",
    ),
    2: lambda env, _: cli(env, "status", "abc"),
    3: lambda env, _: cli({**env, "LEASE_BROKER_URL": "notaurl"}, "status", UNKNOWN),
    4: lambda env, server: (
        full_broker(server),
        cli(env, "submit", "incoming/lease.pdf", "--hash", UNKNOWN),
    )[1],
    5: lambda env, _: cli(env, "status", UNKNOWN),
    6: lambda env, _: cli(
        {**env, "LEASE_BROKER_URL": f"redis://127.0.0.1:{free_port()}/0"}, "dead", "list"
    ),
    130: lambda env, _: interrupted(env),
}


def test_every_exit_code_in_the_docs_has_a_scenario() -> None:
    assert set(documented_exit_codes()) == set(SCENARIOS)


@pytest.mark.parametrize("code", sorted(SCENARIOS))
def test_the_cli_exits_as_the_docs_say(
    code: int, tmp_path: Path, redis_server: RedisServer
) -> None:
    env = {
        "LEASE_DATA_DIR": str(tmp_path / "data"),
        "LEASE_BROKER_URL": f"{redis_server.url}/0",
        "LEASE_RESULT_BACKEND": f"{redis_server.url}/1",
    }
    done = SCENARIOS[code](env, redis_server)
    assert done.returncode == code, (documented_exit_codes()[code], done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    if code == 3:
        assert "LEASE_BROKER_URL" in done.stderr


@pytest.mark.parametrize(
    ("store_url", "code"),
    [
        ("postgresql+psycopg2://bob:pg-secret-77@127.0.0.1:{port}/leases", 6),  # unreachable
        ("postgresql+nosuchdriver://bob:pg-secret-77@127.0.0.1:{port}/leases", 3),  # no driver
    ],
    ids=["unreachable", "unknown driver"],
)
def test_a_store_password_never_reaches_the_terminal(
    tmp_path: Path, store_url: str, code: int
) -> None:
    env = {"LEASE_STORE_URL": store_url.format(port=free_port())}
    for args in (("status", UNKNOWN), ("status", UNKNOWN, "--json"), ("results", "list")):
        done = cli(env, *args)
        assert done.returncode == code, done.stderr
        assert "pg-secret-77" not in done.stdout + done.stderr
        assert "bob:***@" in done.stdout + done.stderr or code == 6
        assert "Traceback" not in done.stderr


def test_errors_are_json_under_json_and_each_not_found_is_5(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    env = {
        "LEASE_DATA_DIR": str(tmp_path / "data"),
        "LEASE_BROKER_URL": f"{redis_server.url}/0",
        "LEASE_RESULT_BACKEND": f"{redis_server.url}/1",
    }
    down = cli(
        {**env, "LEASE_BROKER_URL": f"redis://127.0.0.1:{free_port()}/0"}, "dead", "list", "--json"
    )
    assert down.returncode == 6
    error = json.loads(down.stdout)
    assert (error["ok"], error["exit_code"], error["type"]) == (False, 6, "broker_unavailable")
    missing_object = cli(env, "submit", "incoming/never-uploaded.pdf", "--json")
    assert missing_object.returncode == 5, missing_object.stderr
    assert json.loads(missing_object.stdout)["type"] == "object_not_found"
    assert cli(env, "results", "show", UNKNOWN).returncode == 5
    assert cli(env, "review", "claim", "--reviewer", "alice").returncode == 5  # empty queue
