"""Webhooks (issue 22): a real `lease-parser serve` and a real worker tell a real receiving
HTTP server on loopback when each document is final: signed, retried with backoff, and a
delivery lost to an outage kept, listed and replayed."""

from __future__ import annotations

import itertools
import json
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from lease_parser.cli import cli
from lease_parser.local import RedisServer, WebServer, free_port, wait_for
from lease_parser.store import FINAL_STATES
from lease_parser.webhooks import SIGNATURE_HEADER, verify_signature
from tests.integration.conftest import SAMPLES, Pipeline, make_pipeline

SECRET = "webhook-secret-0123456789abcdef"
TOKEN = "ingest-token-0123456789abcdef"


@dataclass
class Received:
    path: str
    signature: str
    body: bytes
    at: float


@dataclass
class Receiver:
    """A loopback HTTP server: /ok answers 200, /flaky 500 twice then 200, /down 503
    until ``recover`` is set."""

    port: int
    received: queue.Queue[Received] = field(default_factory=queue.Queue)
    flaky_left: int = 2
    recover: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def status_for(self, path: str) -> int:
        if path == "/flaky" and self.flaky_left > 0:
            self.flaky_left -= 1
            return 500
        if path == "/down" and not self.recover.is_set():
            return 503
        return 200

    def take(self, path: str, timeout: float = 120) -> Received:
        deadline = time.monotonic() + timeout
        while True:
            item = self.received.get(timeout=max(deadline - time.monotonic(), 0.01))
            if item.path == path:
                return item
            self.received.put(item)  # another path's: leave it for its own take
            time.sleep(0.01)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(free_port())

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            signature = self.headers.get(SIGNATURE_HEADER, "")
            state.received.put(Received(self.path, signature, body, time.monotonic()))
            self.send_response(state.status_for(self.path))
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", state.port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@dataclass
class Served:
    pipeline: Pipeline
    server: WebServer

    def client(self) -> httpx.Client:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        return httpx.Client(base_url=self.server.url, headers=headers, timeout=60)


@pytest.fixture
def served(tmp_path: Path, redis_server: RedisServer) -> Iterator[Served]:
    fast = {
        "LEASE_WEBHOOK_SECRET": SECRET,
        "LEASE_WEBHOOK_POLL_INTERVAL": "0.1",
        "LEASE_WEBHOOK_BACKOFF_BASE": "0.4",
        "LEASE_WEBHOOK_MAX_ATTEMPTS": "3",
        "LEASE_WEBHOOK_TIMEOUT": "5",
    }
    pipeline = make_pipeline(tmp_path, redis_server, **fast)
    worker = pipeline.worker(concurrency=1).start()
    env = {**pipeline.env, "LEASE_API_TOKENS": f"ingest:{TOKEN}"}
    server = WebServer(env, log_path=tmp_path / "serve.log").start()
    yield Served(pipeline, server)
    server.stop()
    worker.stop()
    pipeline.app.close()


def submit(served: Served, client: httpx.Client, name: str, callback: str) -> str:
    served.pipeline.put(f"incoming/{name}", (SAMPLES / name).read_bytes())
    reply = client.post("/v1/documents", json={"key": f"incoming/{name}", "callback_url": callback})
    assert reply.status_code == 202, reply.text
    return str(reply.json()["doc_hash"])


def webhooks_cli(served: Served, *args: str) -> str:
    done = CliRunner().invoke(cli, ["webhooks", *args], env=served.pipeline.env)
    assert done.exit_code == 0, done.output
    return done.stdout


def test_final_documents_are_reported_signed_retried_and_replayable(
    served: Served, receiver: Receiver
) -> None:
    with served.client() as client:
        refused = client.post(
            "/v1/documents", json={"key": "incoming/x.pdf", "callback_url": "ftp://nowhere/x"}
        )
        assert refused.status_code == 422
        assert refused.json()["code"] == "invalid_callback"

        ok = submit(served, client, "maple_grove_retail_lease.pdf", f"{receiver.url}/ok")
        flaky = submit(served, client, "harbor_point_office_lease.pdf", f"{receiver.url}/flaky")
        down = submit(served, client, "harbor_point_first_amendment.pdf", f"{receiver.url}/down")

        # Signed: the HMAC of "<t>.<body>" under the shared secret, with a fresh timestamp.
        delivered = receiver.take("/ok")
        assert verify_signature(SECRET, delivered.signature, delivered.body)
        assert not verify_signature("another-secret", delivered.signature, delivered.body)
        assert not verify_signature(SECRET, delivered.signature, delivered.body + b" ")
        payload = json.loads(delivered.body)
        assert payload["event"] == "document.final"
        assert payload["doc_hash"] == ok
        assert payload["state"] in FINAL_STATES
        document = client.get(payload["document_url"])  # the abstraction's link
        assert document.status_code == 200
        assert (document.json()["doc_hash"], document.json()["state"]) == (ok, payload["state"])

        # Retried with backoff: 500, 500, then 200, each wait longer than the one before.
        attempts = [receiver.take("/flaky") for _ in range(3)]
        assert {json.loads(a.body)["doc_hash"] for a in attempts} == {flaky}
        gaps = [b.at - a.at for a, b in itertools.pairwise(attempts)]
        assert 0.3 < gaps[0] < gaps[1], gaps

        # Every attempt failed: kept, listed, and replayed once the receiver is back.
        for _ in range(3):
            assert json.loads(receiver.take("/down").body)["doc_hash"] == down

        def failed() -> list[dict[str, object]]:
            rows: list[dict[str, object]] = json.loads(
                webhooks_cli(served, "list", "--failed", "--json")
            )
            return rows

        [lost] = wait_for(failed, 30, "the failed webhook recorded")
        assert (lost["doc_hash"], lost["last_status"]) == (down, 503)
        receiver.recover.set()
        assert json.loads(webhooks_cli(served, "replay", "--failed", "--json"))["replayed"] == [
            lost["id"]
        ]
        replayed = receiver.take("/down")
        assert verify_signature(SECRET, replayed.signature, replayed.body)
        wait_for(lambda: not failed(), 30, "the replayed webhook delivered")
        listed = webhooks_cli(served, "list")
        assert listed.count("delivered") == 3
    assert receiver.received.empty()  # nothing sent twice
