"""One local system (issue 22, defects 1 and 2): `make run`, then `make serve` and bare
`lease-parser` commands in the checkout reach the same store *and* the same broker.

The checkout is a copy of this one in a temporary directory (the package, redis/,
pyproject.toml, two samples), run with ``PYTHONPATH`` pointing at it, so its default data
directory is the copy's own ``.lease_data`` and this checkout's is never touched. HOME is
a temporary directory too: a command that still fell back to ``~/.local/share`` would find
nothing there. Each command runs as a real process with no ``LEASE_*`` variable, as a
newcomer types it; only `run` gets ``LEASE_DATA_DIR``, as `make run` passes it
(tests/unit/test_first_contact.py pins the Makefile).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from lease_parser.local import free_port, wait_for
from tests.integration.conftest import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
LEASE = "harbor_point_office_lease.pdf"
DEAD = "truncated_upload.pdf"  # ends dead (corrupt): a dead letter in the local broker


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "lease_parser", root / "lease_parser", ignore=ignore)
    shutil.copytree(ROOT / "redis", root / "redis")
    shutil.copy(ROOT / "pyproject.toml", root)
    (root / "samples").mkdir()
    for name in (LEASE, DEAD):
        shutil.copy(SAMPLES / name, root / "samples")
    (tmp_path / "home").mkdir()
    return root


def bare_env(checkout: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEASE_")}
    # A gate no value reaches keeps the lease in review (something to claim), whatever the
    # confidence model says.
    env.update(
        PYTHONPATH=str(checkout),
        HOME=str(checkout.parent / "home"),
        LEASE_CONFIDENCE_GATE="0.999",
        **extra,
    )
    return env


def command(checkout: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    def lease_parser(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "lease_parser", *args],
            cwd=checkout,
            env=bare_env(checkout),
            capture_output=True,
            text=True,
            timeout=120,
        )

    return lease_parser


def test_make_run_then_serve_and_bare_commands_share_one_store_and_one_broker(
    checkout: Path,
) -> None:
    data_dir = checkout / ".lease_data"
    run = subprocess.run(
        [sys.executable, "-m", "lease_parser", "run", "samples", "--json"],
        cwd=checkout,
        env=bare_env(checkout, LEASE_DATA_DIR=str(data_dir)),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    rows = {Path(r["file"]).name: r for r in json.loads(run.stdout)}
    assert rows[DEAD]["state"] == "dead"
    token = re.search(r"sign in with the reviewer token (\S+)", run.stderr)
    assert token, run.stderr
    lease_parser = command(checkout)

    # The store: a bare command reads what `make run` wrote, by the prefix its table shows.
    status = lease_parser("status", rows[LEASE]["doc_hash"][:12])
    assert status.returncode == 0, status.stderr
    assert status.stdout.split()[2] == "review"
    claim = lease_parser("review", "claim", "--reviewer", "newcomer", "--json")
    assert claim.returncode == 0, claim.stderr
    assert json.loads(claim.stdout)["doc_hash"] == rows[LEASE]["doc_hash"]
    # The broker: make run stopped its own, so a broker command says how to start it.
    stopped = lease_parser("dead", "list")
    assert stopped.returncode == 6, stopped.stderr
    assert f"the local system in {data_dir} is not running" in stopped.stderr
    assert "make serve" in stopped.stderr

    port = free_port()
    log = (checkout.parent / "serve.log").open("wb")
    serve = subprocess.Popen(
        [sys.executable, "-m", "lease_parser", "serve", "--local", "--port", str(port)],
        cwd=checkout,
        env=bare_env(checkout),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        # Ctrl-C's default disposition, whatever this test's parent ignores (nohup, CI).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:

            def documents() -> httpx.Response | None:
                try:
                    return client.get(
                        "/v1/documents", headers={"Authorization": f"Bearer {token.group(1)}"}
                    )
                except httpx.TransportError:
                    return None

            listed = wait_for(documents, 120, "serve --local answering")
            assert listed.status_code == 200, listed.text  # make run's token signs in
            keys = {d["doc_key"] for d in listed.json()["documents"]}
            assert keys == {f"incoming/{LEASE}", f"incoming/{DEAD}"}

        broker = json.loads((data_dir / "broker.json").read_text())["url"]
        dead = lease_parser("dead", "list")
        assert dead.returncode == 0, dead.stderr
        assert dead.stdout.startswith(rows[DEAD]["doc_hash"][:12]), dead.stdout
        assert f"1 dead letter(s) in the local broker {broker}/0 of {data_dir}" in dead.stdout
        healthy = lease_parser("healthcheck")
        assert healthy.returncode == 0, healthy.stderr
        assert broker in healthy.stdout
        # A second system on the same data (and the same AOF) is refused, naming the first.
        again = lease_parser("run", "samples")
        assert again.returncode == 1
        assert "is running already (lease-parser serve --local, pid" in again.stderr
    finally:
        serve.send_signal(signal.SIGINT)  # Ctrl-C
        code = serve.wait(90)
        log.close()
    assert code == 130, (checkout.parent / "serve.log").read_text()[-3000:]
    assert not (data_dir / "broker.json").exists()  # its redis-server and workers stopped
    assert lease_parser("dead", "list").returncode == 6
