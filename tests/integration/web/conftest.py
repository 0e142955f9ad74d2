"""One real stack for the web tests of this package: redis-server, a `lease-parser worker`,
the SQLite store and file object store under one data directory, and `lease-parser serve`
(uvicorn) on a free port. The samples are uploaded through the API at the start and the
worker processes them (a gate of 0.999 keeps them all in review), so the workspace tests
open items the real pipeline made. Started once (package scope): it is the expensive part.
"""

from __future__ import annotations

import copy
import hashlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
from fpdf import FPDF
from playwright.sync_api import Browser, Page, expect, sync_playwright

from lease_parser.abstract import abstract_document
from lease_parser.local import RedisServer, WebServer, WorkerProcess
from lease_parser.model import result_json
from lease_parser.settings import Settings
from lease_parser.store import FINAL_STATES, DocumentRow, DocumentState, Outcome, ReviewQueue
from tests.integration.conftest import SAMPLES, Pipeline, make_pipeline

TOKENS = {
    "ingest": "ingest-token-0123456789abcdef",
    "alice": "alice-token-0123456789abcdef",
    "bob": "bob-token-0123456789abcdefghij",
    "carol": "carol-token-0123456789abcdefgh",
    "dave": "dave-token-0123456789abcdefghi",
    "ops": "ops-token-0123456789abcdefghij",
    "legacy": "legacy-token-0123456789abcdef",
    "root": "root-token-0123456789abcdefghi",
}
# Each token's scopes in LEASE_API_TOKENS; None: the deprecated two-part name:token.
SCOPES: dict[str, str | None] = {
    "ingest": "ingest",
    "alice": "review",
    "bob": "review",
    "carol": "review",
    "dave": "review",
    "ops": "admin",
    "legacy": None,
    "root": "ingest+review+admin",
}
MAX_DOCUMENT_BYTES = 2_000_000  # small, so the size limit is cheap to exceed
UPLOADED = (
    "harbor_point_office_lease.pdf",
    "elm_street_lease.scan.pdf",
    "riverside_sublease_tracked_changes.docx",
)
SCRIPT_TENANT = '<script>window.pwned = "yes"</script> Analytics LLC'


def script_lease_pdf() -> bytes:
    """A lease whose tenant's name is a script tag: lease text is untrusted."""
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(
        0,
        6,
        'OFFICE LEASE\n\nThis Office Lease (this "Lease") is made and entered into as of '
        "March 3, 2025, by and between Harbor Point Owner LLC, a Delaware limited liability "
        f'company ("Landlord"), and {SCRIPT_TENANT}, a Maryland limited liability company '
        '("Tenant").\n\n1. PREMISES. Landlord leases to Tenant the premises at 1200 Harbor '
        "Point Drive, Suite 400, Baltimore, Maryland 21230.\n\n2. TERM. The term of this Lease "
        "shall be sixty (60) months.\n\n3. BASE RENT. Tenant shall pay monthly base rent of "
        "Five Thousand and 00/100 Dollars ($5,000.00).\n",
    )
    return bytes(pdf.output())


@dataclass
class WebStack:
    pipeline: Pipeline
    server: WebServer
    log_path: Path
    documents: dict[str, str] = field(default_factory=dict)  # file name → content hash

    @property
    def url(self) -> str:
        return self.server.url

    def client(self, who: str | None = "ingest") -> httpx.Client:
        headers = {"Authorization": f"Bearer {TOKENS[who]}"} if who else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)

    def upload(self, name: str, data: bytes) -> httpx.Response:
        with self.client() as client:
            return client.post("/v1/documents/upload", files={"file": (name, data)})

    def wait_final(self, doc_hash: str, timeout: float = 180) -> DocumentRow:
        return self.pipeline.wait_final(doc_hash, timeout)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def web_env(pipeline: Pipeline, **extra: str) -> dict[str, str]:
    return {
        **pipeline.env,
        "LEASE_API_TOKENS": ",".join(
            f"{name}:{token}" + (f":{SCOPES[name]}" if SCOPES[name] else "")
            for name, token in TOKENS.items()
        ),
        **extra,
    }


@pytest.fixture(scope="package")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebStack]:
    root = tmp_path_factory.mktemp("web")
    redis_server = RedisServer(root / "redis").start()
    pipeline = make_pipeline(
        root,
        redis_server,
        LEASE_CONFIDENCE_GATE="0.999",
        LEASE_MAX_DOCUMENT_BYTES=str(MAX_DOCUMENT_BYTES),
    )
    worker: WorkerProcess | None = None
    server: WebServer | None = None
    try:
        worker = pipeline.worker("web", concurrency=1).start()
        log_path = root / "serve.log"
        server = WebServer(web_env(pipeline), log_path=log_path).start()
        stack = WebStack(pipeline, server, log_path)
        files = {name: (SAMPLES / name).read_bytes() for name in UPLOADED}
        files["script_tenant_lease.pdf"] = script_lease_pdf()
        for name, data in files.items():
            reply = stack.upload(name, data)
            assert reply.status_code == 202, reply.text
            stack.documents[name] = reply.json()["doc_hash"]
            assert stack.documents[name] == hashlib.sha256(data).hexdigest()
        for doc_hash in stack.documents.values():
            assert stack.wait_final(doc_hash).state in FINAL_STATES
        yield stack
    finally:
        if server is not None:
            server.stop()
        if worker is not None:
            worker.stop()
        pipeline.app.close()
        redis_server.stop()


def wait_until(check: object, timeout: float = 30, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(check) and check():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} not within {timeout}s")


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One headless Chromium (Debian's) for every browser test of the package."""
    assert Path(CHROMIUM).exists(), "apt-get install chromium (.ci/run does)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def signed_in(
    browser: Browser,
    base_url: str,
    who: str,
    viewport: tuple[int, int] = (1400, 900),
    timezone: str = "UTC",
) -> Page:
    width, height = viewport
    context = browser.new_context(
        base_url=base_url, viewport={"width": width, "height": height}, timezone_id=timezone
    )
    page = context.new_page()
    page.goto("/login")
    sign_in_as(page, who)
    return page


def sign_in_as(page: Page, who: str) -> None:
    page.fill("input[name=token]", TOKENS[who])
    with page.expect_navigation():
        page.click("form[action='/login'] button[type=submit]")
    expect(page.locator(".who")).to_contain_text(who)


@contextmanager
def decided(page: Page) -> Iterator[None]:
    """Around a field decision: the page's script sends it in the background and swaps in
    the answer (no navigation); this waits until it has."""
    before = int(page.locator("body").get_attribute("data-decisions") or 0)
    yield
    expect(page.locator("body")).to_have_attribute("data-decisions", str(before + 1))


def claim(page: Page, doc_hash: str) -> None:
    page.goto(f"/items/{doc_hash}")
    with page.expect_navigation():
        page.click("#claim")
    expect(page.locator(".claim")).to_contain_text("Claimed by you")


@cache
def _extracted(sample: str) -> dict[str, Any]:
    """The real pipeline's result for a sample, read once per session."""
    return result_json(abstract_document((SAMPLES / sample).read_bytes(), Settings()))


DOCS_IMAGES = Path(__file__).resolve().parents[3] / "docs" / "images"


def keep_screenshot(path: Path) -> None:
    """A screenshot the docs show: refreshed only on purpose (UPDATE_DOCS_IMAGES=1)."""
    assert path.stat().st_size > 30_000
    if os.environ.get("UPDATE_DOCS_IMAGES"):
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS_IMAGES / path.name)


def staged_bytes(sample: str, tag: str) -> bytes:
    """A copy of a sample with its own content hash (a PDF comment after its end)."""
    return (SAMPLES / sample).read_bytes() + f"\n% staged copy {tag}\n".encode()


def tag_in_qa_sample(sample: str, tag: str, share: float = 0.05) -> str:
    """A tag whose staged copy's hash falls in the QA sample (about 1 in 1/share tries)."""
    from lease_parser.store import in_sample

    for n in range(10_000):
        candidate = f"{tag}-{n}"
        if in_sample(hashlib.sha256(staged_bytes(sample, candidate)).hexdigest(), share):
            return candidate
    raise AssertionError("no tag lands in the QA sample")


def stage(
    stack: WebStack,
    sample: str,
    tag: str,
    edit: Callable[[dict[str, Any]], list[dict[str, Any]]] | None = None,
    reason: str | None = "low_confidence",
    state: DocumentState = DocumentState.REVIEW,
    priority: int = 0,
) -> str:
    """A copy of ``sample`` (its own content hash) with the real extraction's fields,
    finished in the store as ``state``; ``edit`` changes the fields in place and returns
    the problems the item is doubtful for. Returns the content hash."""
    data = staged_bytes(sample, tag)
    doc_hash = hashlib.sha256(data).hexdigest()
    key = f"incoming/{tag}-{sample}"
    stack.pipeline.put(key, data)
    result = copy.deepcopy(_extracted(sample))
    problems = edit(result["fields"]) if edit else list(result["problems"])
    store = stack.pipeline.runtime.store
    store.register_submission(f"staged-{doc_hash[:12]}", key, doc_hash)
    outcome = Outcome(
        state=state,
        reason=reason if state == DocumentState.REVIEW else None,
        kind=result["kind"],
        confidence=result["confidence"],
        fields=result["fields"],
        problems=problems if state == DocumentState.REVIEW else [],
        pages=result["pages"],
    )
    assert store.finish(doc_hash, f"staged-{doc_hash[:12]}", outcome)
    if priority and state == DocumentState.REVIEW:
        ReviewQueue(store).prioritize(doc_hash, priority)
    return doc_hash
