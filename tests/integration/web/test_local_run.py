"""`make run` then `make serve`: the reviewer token `run` prints signs in to the workspace of
`serve --local`, which shows the documents the run just processed (the run's own servers
are stopped by then: `serve --local` starts its own over the same data directory)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from lease_parser.local import free_port
from tests.integration.conftest import SAMPLES
from tests.integration.web.conftest import wait_until

SAMPLE = "maple_grove_retail_lease.pdf"


def test_the_token_run_prints_opens_the_workspace_on_what_it_processed(tmp_path: Path) -> None:
    # A gate no value reaches keeps the sample in review, whatever the confidence model.
    env = {**os.environ, "LEASE_DATA_DIR": str(tmp_path / "data"), "LEASE_CONFIDENCE_GATE": "0.999"}
    done = subprocess.run(
        [sys.executable, "-m", "lease_parser", "run", str(SAMPLES / SAMPLE)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    found = re.search(r"open (http://\S+) and sign in with the reviewer token (\S+)", done.stdout)
    assert found, done.stdout
    token = found.group(2)
    assert (tmp_path / "data" / "reviewer-token").stat().st_mode & 0o077 == 0  # owner only

    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    serve = subprocess.Popen(
        [sys.executable, "-m", "lease_parser", "serve", "--local", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as browser:

            def answers() -> bool:
                try:
                    return browser.get("/login").status_code == 200
                except httpx.TransportError:
                    return False

            wait_until(answers, 120, "serve --local answering")
            login = browser.get("/login")
            csrf = re.search(r'name="csrf_token" value="([^"]+)"', login.text)
            assert csrf
            signed = browser.post(
                "/login", data={"csrf_token": csrf.group(1), "token": token, "next": "/queue"}
            )
            assert signed.status_code == 303
            queue = browser.get("/queue")
            assert queue.status_code == 200
            assert SAMPLE in queue.text  # the document `run` routed to review
            api = browser.get("/v1/documents", headers={"Authorization": f"Bearer {token}"}).json()
            assert [d["doc_key"] for d in api["documents"]] == [f"incoming/{SAMPLE}"]
    finally:
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(60) == 0  # a clean stop, its redis-server and workers included
        log.close()
    assert "sign in with the reviewer token" in (tmp_path / "serve.log").read_text()
