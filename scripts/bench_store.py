"""Canonical store and review queue throughput on one backend.

    python scripts/bench_store.py sqlite:////tmp/bench/lease.db --documents 2000
    python scripts/bench_store.py postgresql+psycopg2://postgres@127.0.0.1/bench --documents 2000

Measures: documents registered + finished per second (the pipeline's two writes), review
decisions per second with R reviewer processes each looping claim → approve, and export
rows per second (CSV with rent schedule, and JSON lines). Use an empty database.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lease_parser.store import ReviewQueue, Store, write_csv, write_jsonl
from tests.store_helpers import add_document


def _reviewer(url: str, name: str, barrier: Any, results: Any) -> None:
    queue = ReviewQueue(Store(url))
    done = 0
    barrier.wait()
    while (item := queue.claim_next(name)) is not None:
        queue.confirm(item.doc_hash, name, item.unchecked)
        queue.approve(item.doc_hash, name)
        done += 1
    results.put(done)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--reviewers", type=int, default=2)
    args = parser.parse_args()
    store = Store(args.url)

    started = time.perf_counter()
    for _ in range(args.documents):
        add_document(store)
    elapsed = time.perf_counter() - started
    print(f"register+finish: {args.documents / elapsed:8.0f} documents/s")

    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(args.reviewers + 1), ctx.Queue()
    procs = [
        ctx.Process(target=_reviewer, args=(args.url, f"r{i}", barrier, results))
        for i in range(args.reviewers)
    ]
    for p in procs:
        p.start()
    barrier.wait()
    started = time.perf_counter()
    decided = sum(results.get() for _ in procs)
    elapsed = time.perf_counter() - started
    for p in procs:
        p.join()
    assert decided == args.documents, decided
    print(f"claim+approve:   {decided / elapsed:8.0f} decisions/s ({args.reviewers} processes)")

    for name, write in (
        ("csv", lambda rows: write_csv(rows, io.StringIO(), io.StringIO())),
        ("jsonl", lambda rows: write_jsonl(rows, io.StringIO())),
    ):
        started = time.perf_counter()
        count = write(store.documents(states=["committed"]))
        elapsed = time.perf_counter() - started
        print(f"export {name:5}:    {count / elapsed:8.0f} documents/s")


if __name__ == "__main__":
    main()
