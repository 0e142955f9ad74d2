"""Measure the web layer: page rendering per page, and API latency against a real server.

    .venv/bin/python scripts/measure_web.py [--calls 200] [--repeats 5] [--only items] [--json]

* **render**: wall ms per page the workspace serves (``viewer``: pypdfium2 for PDF pages,
  PNG; a scan as JPEG), in this process: text PDF pages of the samples and of a 30-page
  benchmark lease, a scanned PDF page (rendered, turned like its OCR), an image file;
  plus the citation boxes of a whole item (every field) per document.
* **api**: a real ``lease-parser serve`` (uvicorn) on a free port against its own
  redis-server and SQLite store, no worker (submissions stay queued); ``--calls`` calls of
  each over one keep-alive connection, as an ingestion service would: ``POST
  /v1/documents`` of new objects (the store row, the hash read from the object store, the
  publish), of known content (a duplicate answer), and ``GET /v1/documents/{hash}``.

* **items**: a real server over a store holding the samples (a DOCX with tracked changes, a
  text PDF, a scan) in review, every field doubtful, read by the real pipeline in this
  process; a signed-in reviewer's ``GET /items/HASH`` (first, then ``--calls`` more), the
  first page image (rendered) and again (cached), and a decision's round trip as the page's
  script sends it (``X-Fragment: 1``: one POST, the answer swapped in, no reload).

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from lease_parser.abstract import extract_stage, normalize_stage, ocr_stage, parse_stage
from lease_parser.bench.corpus import generate_corpus
from lease_parser.local import RedisServer, WebServer
from lease_parser.model import result_json
from lease_parser.objects import derived_key
from lease_parser.settings import Settings
from lease_parser.viewer import ImageView, Span, open_view

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
FIXTURES = ROOT / "tests" / "fixtures" / "parsing"
WIDTH = 1200  # what the workspace renders


def _stats(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "n": len(ms),
        "p50": round(statistics.median(ms), 2),
        "p95": round(p95, 2),
        "mean": round(statistics.fmean(ms), 2),
    }


def _timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def _document(name: str, data: bytes, settings: Settings) -> dict[str, Any]:
    document = parse_stage(data, settings)
    ocr = None
    if document.pages_needing_ocr:
        document = ocr = ocr_stage(document, data, settings)
    fields = result_json(normalize_stage(extract_stage(document), 0.8))["fields"]
    spans = [
        Span(f["provenance"]["page"], f["provenance"]["start"], f["provenance"]["end"])
        for f in fields.values()
        if f["provenance"]
    ]
    return {"name": name, "data": data, "ocr": ocr, "spans": spans}


def measure_render(repeats: int) -> dict[str, Any]:
    settings = Settings()
    bench_pdf = next(d for d in generate_corpus(4, 0, seed=7) if d.name.endswith(".pdf"))
    documents = {
        "text_pdf": [
            _document(
                "harbor_point_office_lease.pdf",
                (SAMPLES / "harbor_point_office_lease.pdf").read_bytes(),
                settings,
            ),
            _document(bench_pdf.name, bench_pdf.data, settings),
        ],
        "scanned_pdf": [
            _document(
                "elm_street_lease.scan.pdf",
                (SAMPLES / "elm_street_lease.scan.pdf").read_bytes(),
                settings,
            ),
        ],
        "image_file": [
            _document("lease_page.png", (FIXTURES / "lease_page.png").read_bytes(), settings),
        ],
    }
    out: dict[str, Any] = {}
    for kind, docs in documents.items():
        page_ms: list[float] = []
        boxes_ms: list[float] = []
        sizes: list[int] = []
        pages = 0
        for doc in docs:
            view = open_view(doc["data"], doc["ocr"])
            assert isinstance(view, ImageView)
            numbers = [p.number for p in view.pages()]
            pages += len(numbers)
            for _ in range(repeats):
                for number in numbers:
                    start = time.perf_counter()
                    image = view.render(number, WIDTH)
                    page_ms.append((time.perf_counter() - start) * 1000)
                    sizes.append(len(image))
                boxes_ms.append(_timed(lambda view=view, doc=doc: view.highlights(doc["spans"])))
        out[kind] = {
            "documents": [d["name"] for d in docs],
            "pages": pages,
            "render_ms_per_page": _stats(page_ms),
            "image_kb_median": round(statistics.median(sizes) / 1024),
            "item_boxes_ms": _stats(boxes_ms),
        }
        print(f"  render {kind}: {out[kind]['render_ms_per_page']}", file=sys.stderr)
    return out


def measure_api(calls: int) -> dict[str, Any]:
    token = "measure-token-0123456789abcdef"
    with tempfile.TemporaryDirectory(prefix="measure-web-") as tmp:
        data_dir = Path(tmp) / "data"
        with RedisServer(Path(tmp) / "redis") as redis_server:
            env = {
                "LEASE_DATA_DIR": str(data_dir),
                "LEASE_BROKER_URL": f"{redis_server.url}/0",
                "LEASE_RESULT_BACKEND": f"{redis_server.url}/1",
                "LEASE_API_TOKENS": f"ingest:{token}:ingest",
            }
            objects = data_dir / "objects" / "incoming"
            objects.mkdir(parents=True)
            rng = random.Random(0)
            for i in range(calls):
                # Distinct small objects: every submission is new content.
                (objects / f"m{i}.pdf").write_bytes(b"%PDF-1.4\n%" + rng.randbytes(2048) + b"\n")
            with (
                WebServer(env, log_path=Path(tmp) / "serve.log") as server,
                httpx.Client(
                    base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30
                ) as api,
            ):
                api.get("/v1/openapi.json")  # warm
                hashes: list[str] = []

                def submit(i: int) -> None:
                    reply = api.post("/v1/documents", json={"key": f"incoming/m{i}.pdf"})
                    assert reply.status_code == 202, reply.text
                    hashes.append(reply.json()["doc_hash"])

                submit_ms = [_timed(lambda i=i: submit(i)) for i in range(calls)]
                again_ms = [
                    _timed(
                        lambda i=i: api.post("/v1/documents", json={"key": f"incoming/m{i}.pdf"})
                    )
                    for i in range(calls)
                ]
                status_ms = [
                    _timed(lambda h=h: api.get(f"/v1/documents/{h}").raise_for_status())
                    for h in hashes
                ]
    result = {
        "calls": calls,
        "submit_new_ms": _stats(submit_ms),
        "submit_duplicate_ms": _stats(again_ms),
        "status_ms": _stats(status_ms),
    }
    print(f"  api: {result}", file=sys.stderr)
    return result


ITEM_SAMPLES = {
    "docx": "riverside_sublease_tracked_changes.docx",
    "pdf": "harbor_point_office_lease.pdf",
    "scan": "elm_street_lease.scan.pdf",
}
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def _stage_items(env: dict[str, str]) -> dict[str, str]:
    """Each sample read by the real pipeline (in this process) and recorded in the store in
    review, its bytes in the object store, as a worker would leave them."""
    from unittest import mock

    from lease_parser.abstract import abstract_document
    from lease_parser.model import result_json
    from lease_parser.pipeline.runtime import runtime_for
    from lease_parser.settings import load_settings
    from lease_parser.store import DocumentState, Outcome

    with mock.patch.dict(os.environ, env):
        settings = load_settings()
    runtime = runtime_for(settings)
    hashes = {}
    for kind, name in ITEM_SAMPLES.items():
        data = (SAMPLES / name).read_bytes()
        doc_hash = hashlib.sha256(data).hexdigest()
        key = f"incoming/{name}"
        runtime.objects.put(key, data)
        if kind == "scan":  # the OCR'd pages the workers keep, for the boxes
            document = ocr_stage(parse_stage(data, settings), data, settings)
            ocr_key = derived_key(doc_hash, "ocr-document.json")
            runtime.objects.put(ocr_key, document.to_json().encode())
        result = result_json(abstract_document(data, settings))
        runtime.store.register_submission(f"measure-{kind}", key, doc_hash)
        problems = [
            {"field": n, "problem": "probability below the gate", "kind": "low_probability"}
            for n, f in result["fields"].items()
            if f["value"] is not None
        ]
        outcome = Outcome(
            state=DocumentState.REVIEW,
            reason="low_confidence",
            kind=result["kind"],
            confidence=result["confidence"],
            fields=result["fields"],
            problems=problems,
            pages=result["pages"],
        )
        runtime.store.finish(doc_hash, f"measure-{kind}", outcome)
        hashes[kind] = doc_hash
    return hashes


def _signed_in(url: str, token: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=60, follow_redirects=False)
    page = client.get("/login").text
    client.post("/login", data={"token": token, "csrf_token": CSRF.findall(page)[0], "next": "/"})
    return client


def measure_items(calls: int) -> dict[str, Any]:
    """An item's page (cold, then warm), a page image (rendered, then cached), and the
    round trip of a decision as the page's script sends it (one request; the answer is
    swapped in), against a real server."""
    token = "measure-token-0123456789abcdef"
    out: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory(prefix="measure-items-") as tmp,
        RedisServer(Path(tmp) / "redis") as redis_server,
    ):
        env = {
            "LEASE_DATA_DIR": str(Path(tmp) / "data"),
            "LEASE_BROKER_URL": f"{redis_server.url}/0",
            "LEASE_RESULT_BACKEND": f"{redis_server.url}/1",
            "LEASE_API_TOKENS": f"alice:{token}",
        }
        hashes = _stage_items(env)
        with WebServer(env, log_path=Path(tmp) / "serve.log") as server:
            client = _signed_in(server.url, token)
            for kind, doc_hash in hashes.items():
                out[kind] = _measure_item(client, doc_hash, calls)
                print(f"  item {kind}: {out[kind]}", file=sys.stderr)
            client.close()
    return out


def _measure_item(client: httpx.Client, doc_hash: str, calls: int) -> dict[str, Any]:
    path = f"/items/{doc_hash}"
    cold = _timed(lambda: client.get(path).raise_for_status())
    page_ms = [_timed(lambda: client.get(path).raise_for_status()) for _ in range(calls)]
    figures: dict[str, Any] = {"page_cold_ms": round(cold, 1), "page_ms": _stats(page_ms)}
    if 'id="page-1"' in client.get(path).text and "<figure" in client.get(path).text:
        image = f"{path}/pages/1"
        figures["image_first_ms"] = round(_timed(lambda: client.get(image).raise_for_status()), 1)
        figures["image_cached_ms"] = _stats(
            [_timed(lambda: client.get(image).raise_for_status()) for _ in range(calls // 4 or 1)]
        )
    csrf = CSRF.findall(client.get(path).text)[0]
    client.post(f"{path}/claim", data={"csrf_token": csrf})
    values = ["Bluefin Analytics, Inc.", "Bluefin Analytics Inc."]

    def decide(i: int) -> None:
        reply = client.post(
            f"{path}/fields/tenant/correct",
            data={"csrf_token": csrf, "value": values[i % 2]},
            headers={"X-Fragment": "1"},
        )
        assert reply.status_code == 200, reply.status_code
        assert 'class="item"' in reply.text

    decisions: list[float] = []
    for i in range(calls):
        decisions.append(_timed(lambda i=i: decide(i)))
    figures["decision_ms"] = _stats(decisions)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=["render", "api", "items"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    report: dict[str, Any] = {"cpus": os.cpu_count(), "load": os.getloadavg()[0]}
    if args.only in (None, "render"):
        report["render"] = measure_render(args.repeats)
    if args.only in (None, "api"):
        report["api"] = measure_api(args.calls)
    if args.only in (None, "items"):
        report["items"] = measure_items(min(args.calls, 100))
    if args.json:
        print(json.dumps(report, indent=None))
        return
    for kind, figures in report.get("render", {}).items():
        r, b = figures["render_ms_per_page"], figures["item_boxes_ms"]
        print(
            f"render {kind:12} {figures['pages']:3} page(s): p50 {r['p50']:7.1f} ms/page  "
            f"p95 {r['p95']:7.1f}  ({figures['image_kb_median']} KB)   boxes of an item p50 "
            f"{b['p50']:.1f} ms"
        )
    for kind, figures in report.get("items", {}).items():
        page, decision = figures["page_ms"], figures["decision_ms"]
        image = figures.get("image_cached_ms")
        print(
            f"item {kind:5} page p50 {page['p50']:6.1f} ms  p95 {page['p95']:6.1f} ms (target 150; "
            f"cold {figures['page_cold_ms']:.0f})   decision round trip p50 {decision['p50']:6.1f} "
            f"p95 {decision['p95']:6.1f} ms (target 300)"
            + (
                f"   page image first {figures['image_first_ms']:.0f} ms, cached p95 "
                f"{image['p95']:.1f} ms"
                if image
                else ""
            )
        )
    if "api" in report:
        api = report["api"]
        for name in ("submit_new_ms", "submit_duplicate_ms", "status_ms"):
            s = api[name]
            print(f"api {name:20} p50 {s['p50']:6.2f} ms  p95 {s['p95']:6.2f} ms  (n={s['n']})")


if __name__ == "__main__":
    main()
