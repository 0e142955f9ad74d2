"""Scrape latency of `lease-parser metrics` with a deep, prioritised queue (no worker).

Starts its own redis-server from redis/redis.conf, publishes N task messages spread over the
four kombu priority lists of lease_ocr, serves the exporter in this process and times
scrapes. Usage: python scripts/bench_exporter.py [N] [SCRAPES]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from unittest import mock

from lease_parser.local import RedisServer, free_port


def main(messages: int, scrapes: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="bench-exporter-"))
    with RedisServer(data / "redis") as server:
        env = {
            "LEASE_DATA_DIR": str(data),
            "LEASE_BROKER_URL": f"{server.url}/0",
            "LEASE_RESULT_BACKEND": f"{server.url}/1",
        }
        with mock.patch.dict(os.environ, env):
            from lease_parser.metrics import serve_exporter
            from lease_parser.pipeline.app import create_app
            from lease_parser.pipeline.routing import RUN_OCR_FALLBACK
            from lease_parser.settings import load_settings
            from lease_parser.store import Store

            settings = load_settings()
            app = create_app(settings)
            Store(settings.store_database_url)  # the schema, as a worker would create it
            started = time.perf_counter()
            with app.producer_pool.acquire(block=True) as producer:
                for i in range(messages):
                    kwargs = {"doc_key": f"k{i}", "doc_hash": "0" * 64, "submission_id": str(i)}
                    priority = (0, 3, 6, 9)[i % 4]
                    app.send_task(
                        RUN_OCR_FALLBACK, kwargs=kwargs, priority=priority, producer=producer
                    )
            print(f"published {messages} messages in {time.perf_counter() - started:.1f} s")
            port = free_port()
            serve_exporter(settings, port, "127.0.0.1")
            times = []
            for _ in range(scrapes):
                t = time.perf_counter()
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as resp:
                    body = resp.read().decode()
                times.append(time.perf_counter() - t)
            depth = next(line for line in body.splitlines() if 'queue="lease_ocr"' in line)
            print(depth)
            print(
                f"scrape: median {statistics.median(times) * 1000:.1f} ms, "
                f"max {max(times) * 1000:.1f} ms over {scrapes}"
            )


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 10_000,
        int(sys.argv[2]) if len(sys.argv) > 2 else 30,
    )
