"""The reviewers' workspace in a real headless Chromium (Debian's chromium driven by
Playwright) against the real stack: sign in, claim, page images with citation boxes,
inline errors, structured rows, approve, sources in the record; tracked changes; a lease
that carries a script; claims that expire; a keyboard-only review, timed."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from lease_parser.local import WebServer
from lease_parser.model import FieldProblem, ProblemKind
from lease_parser.scoring.normalization import DECIMAL_FIELDS, INT_FIELDS, MONEY_FIELDS
from lease_parser.store import DocumentState, Outcome, ReviewQueue
from tests.integration.web.conftest import (
    SCRIPT_TENANT,
    TOKENS,
    WebStack,
    claim,
    decided,
    script_lease_pdf,
    signed_in,
    stage,
    web_env,
)

DOCS_IMAGES = Path(__file__).resolve().parents[3] / "docs" / "images"


def test_sign_in_keeps_strangers_out_with_a_strict_http_only_session(
    stack: WebStack, browser: Browser
) -> None:
    context = browser.new_context(base_url=stack.url)
    page = context.new_page()
    page.goto("/queue")
    assert "/login?next=/queue" in page.url
    page.fill("input[name=token]", "not-a-token-at-all-000000")
    page.click("button[type=submit]")
    expect(page.locator(".flash.error")).to_contain_text("not valid")
    page.fill("input[name=token]", TOKENS["alice"])
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert page.url.endswith("/queue")
    expect(page.locator("table.items")).to_contain_text("harbor_point_office_lease.pdf")
    [cookie] = [c for c in context.cookies() if c["name"] == "lease_session"]
    assert cookie["httpOnly"]
    assert cookie["sameSite"] == "Strict"
    context.close()


def test_a_reviewer_corrects_fields_and_approves_an_item_the_pipeline_made(
    stack: WebStack, browser: Browser
) -> None:
    doc_hash = stack.documents["harbor_point_office_lease.pdf"]
    page = signed_in(browser, stack.url, "alice")
    claim(page, doc_hash)

    # The page image, and the citation boxed on it when a field is chosen.
    image = page.locator("#page-1 img")
    expect(image).to_be_visible()
    page.wait_for_function("document.querySelector('#page-1 img').naturalWidth > 0")
    page.click("#field-tenant h2")
    box = page.locator("#page-1 .hl-box").first
    expect(box).to_be_visible()
    inside, outside = image.bounding_box(), box.bounding_box()
    assert inside is not None
    assert outside is not None
    assert outside["width"] > 20
    assert outside["height"] > 5
    assert inside["x"] <= outside["x"] <= inside["x"] + inside["width"]
    assert inside["y"] <= outside["y"] <= inside["y"] + inside["height"]

    # A bad value is refused next to its field, as typed; a good one is kept.
    rent = page.locator("#field-base_rent_monthly")
    rent.locator("summary").click()
    rent.locator("input[name=value]").fill("-24062.50")
    with decided(page):
        rent.locator("button", has_text="Save").click()
    rent = page.locator("#field-base_rent_monthly")
    expect(rent.locator(".error")).to_contain_text(
        "an amount cannot be negative: use a number like 7048.80"
    )
    expect(rent.locator("input[name=value]")).to_have_value("-24062.50")
    rent.locator("input[name=value]").fill("24062.50")
    with decided(page):
        rent.locator("button", has_text="Save").click()
    expect(page.locator("#field-base_rent_monthly .badge")).to_contain_text("confirmed")

    tenant = page.locator("#field-tenant")
    tenant.locator("summary").click()
    tenant.locator("input[name=value]").fill("Bluefin Analytics, Inc.")
    with decided(page):
        tenant.locator("button", has_text="Save").click()
    expect(page.locator("#field-tenant .badge")).to_contain_text("corrected")
    expect(page.locator("#field-tenant .was")).to_contain_text("BLUEFIN ANALYTICS, INC.")

    # The rent schedule is edited as rows, checked by the model, row by row.
    schedule = page.locator("#field-rent_schedule")
    schedule.locator("summary").click()
    schedule.locator("input[name='step-annual-0']").fill("lots")
    with decided(page):
        schedule.locator("button", has_text="Save").click()
    schedule = page.locator("#field-rent_schedule")
    expect(schedule.locator(".error")).to_contain_text("annual")
    schedule.locator("input[name='step-annual-0']").fill("288750.00")
    with decided(page):
        schedule.locator("button", has_text="Save").click()
    expect(page.locator("#field-rent_schedule .badge")).to_contain_text("corrected")

    # Approve waits for every doubtful field; then it commits once, each source kept.
    expect(page.locator("#approve")).to_be_disabled()  # aria-disabled: shown, not clickable
    page.locator("body").focus()
    with page.expect_navigation():
        page.keyboard.press("a")  # the server refuses it too
    expect(page.locator(".flash.error")).to_contain_text("not checked")
    while page.locator(".field.unchecked").count():
        with decided(page):
            page.locator(".field.unchecked .confirm-form button").first.click()
    with page.expect_navigation():
        page.click("#approve")
    assert page.url.split("?")[0].endswith("/queue")
    expect(page.locator(".flash")).to_contain_text("committed")
    with stack.client() as api:
        record = api.get(f"/v1/documents/{doc_hash}").json()
    assert (record["state"], record["source"], record["reviewer"]) == (
        "committed",
        "review",
        "alice",
    )
    fields = record["fields"]
    assert fields["tenant"]["value"] == "Bluefin Analytics, Inc."
    assert fields["tenant"]["source"] == "corrected"
    assert fields["base_rent_monthly"]["source"] == "confirmed"
    assert fields["rent_schedule"]["source"] == "corrected"
    assert fields["rent_schedule"]["value"][0]["annual"] == "288750.00"
    assert {f["source"] for f in fields.values()} <= {"confirmed", "corrected", "pipeline"}
    assert stack.pipeline.runtime.store.commit_events(doc_hash) == 1
    page.context.close()


def test_a_scan_shows_its_page_with_boxes_from_the_ocr_words(
    stack: WebStack, browser: Browser
) -> None:
    page = signed_in(browser, stack.url, "bob")
    page.goto(f"/items/{stack.documents['elm_street_lease.scan.pdf']}")
    page.wait_for_function("document.querySelector('#page-1 img').naturalWidth > 0")
    page.click("#field-tenant h2")
    expect(page.locator("#page-1 .hl-box").first).to_be_visible()
    page.context.close()


def test_a_docx_shows_its_tracked_changes_and_marks_the_cited_text(
    stack: WebStack, browser: Browser
) -> None:
    page = signed_in(browser, stack.url, "bob")
    page.goto(f"/items/{stack.documents['riverside_sublease_tracked_changes.docx']}")
    expect(page.locator(".text-page del")).to_have_text("$9,750.00")
    expect(page.locator(".text-page ins").first).to_be_visible()
    assert "".join(page.locator(".text-page ins").all_inner_texts()) == "$10,400.00"
    page.click("#field-base_rent_monthly h2")
    marked = page.locator(".text-page .hl")
    expect(marked.first).to_be_visible()
    assert "10,400.00" in "".join(marked.all_inner_texts())
    page.context.close()


def script_tenant_item(stack: WebStack) -> str:
    """The script lease as the pipeline read it, its tenant (and the tenant's snippet) the
    script tag whatever the extraction reads: what is tested is the page, not the reading."""
    store = stack.pipeline.runtime.store
    read = store.document(stack.documents["script_tenant_lease.pdf"])
    assert read is not None
    assert read.fields is not None
    fields = copy.deepcopy(read.fields)
    fields["tenant"].update(
        value=SCRIPT_TENANT,
        provenance={"page": 1, "start": 0, "end": 10, "text": f"and {SCRIPT_TENANT}, a"},
    )
    data = script_lease_pdf() + b"\n% the tenant staged\n"
    doc_hash = hashlib.sha256(data).hexdigest()
    stack.pipeline.put("incoming/script-tenant-staged.pdf", data)
    store.register_submission("staged-script", "incoming/script-tenant-staged.pdf", doc_hash)
    outcome = Outcome(
        state=DocumentState.REVIEW,
        reason="low_confidence",
        kind=read.kind,
        fields=fields,
        problems=list(read.problems or []),
        pages=read.pages,
    )
    assert store.finish(doc_hash, "staged-script", outcome)
    return doc_hash


def test_lease_text_with_a_script_tag_is_shown_as_text(stack: WebStack, browser: Browser) -> None:
    page = signed_in(browser, stack.url, "bob")
    page.goto(f"/items/{script_tenant_item(stack)}")
    expect(page.locator("#field-tenant .value")).to_have_text(SCRIPT_TENANT)
    expect(page.locator("#field-tenant .snippet")).to_contain_text("<script>")
    assert page.evaluate("typeof window.pwned") == "undefined"
    scripts = page.eval_on_selector_all("script", "s => s.map(e => e.getAttribute('src'))")
    assert scripts == ["/static/workspace.js"]
    page.context.close()


def test_nobody_decides_an_item_they_have_not_claimed(stack: WebStack, browser: Browser) -> None:
    doc_hash = stack.documents["script_tenant_lease.pdf"]
    alice = signed_in(browser, stack.url, "alice")
    claim(alice, doc_hash)
    bob = signed_in(browser, stack.url, "bob")
    bob.goto(f"/items/{doc_hash}")
    expect(bob.locator(".claim")).to_contain_text("Claimed by alice")
    assert bob.locator(".confirm-form").count() == 0
    assert bob.locator("#approve").count() == 0
    csrf = bob.locator("input[name=csrf_token]").first.get_attribute("value")
    forged = bob.request.post(
        f"/items/{doc_hash}/fields/tenant/confirm", form={"csrf_token": str(csrf)}
    )
    assert forged.status == 403
    assert "claimed by alice" in forged.text()
    no_token = alice.request.post(f"/items/{doc_hash}/fields/tenant/confirm", form={})
    assert no_token.status == 403
    item = ReviewQueue(stack.pipeline.runtime.store).item(doc_hash)
    assert (item.state, item.decisions) == ("review", {})
    with alice.expect_navigation():
        alice.click("button:has-text('Release')")
    alice.context.close()
    bob.context.close()


def test_an_expired_claim_puts_the_item_back_and_the_page_says_so(
    stack: WebStack, browser: Browser
) -> None:
    """A second server on the same store, with claims of 3 seconds."""
    log = stack.log_path.with_name("serve-short-claims.log")
    env = web_env(stack.pipeline, LEASE_REVIEW_CLAIM_TTL="3")
    with WebServer(env, log_path=log) as short:
        doc_hash = stack.documents["elm_street_lease.scan.pdf"]
        page = signed_in(browser, short.url, "dave")
        claim(page, doc_hash)
        expect(page.locator("#claim-expired")).to_be_visible(timeout=30_000)
        expect(page.locator(".confirm-form button").first).to_be_disabled()
        # The keyboard stops deciding too: c and n send nothing, the page says why.
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.click("#field-tenant h2")
        page.keyboard.press("c")
        page.keyboard.press("n")
        expect(page.locator("#claim-expired")).to_be_focused()
        assert page.evaluate("1 + 1") == 2  # a round trip after the key presses
        assert posts == []
        page.reload()
        expect(page.locator(".claim .expired")).to_contain_text("Your claim expired at")
        expect(page.locator("#claim")).to_be_visible()  # claim it again
        refused = page.request.post(
            f"/items/{doc_hash}/fields/tenant/confirm",
            form={
                "csrf_token": str(
                    page.locator("input[name=csrf_token]").first.get_attribute("value")
                )
            },
        )
        assert refused.status == 403
        assert "expired" in refused.text()
        assert ReviewQueue(stack.pipeline.runtime.store).item(doc_hash).claimed_by is None
        page.context.close()


def stage_three_doubts(stack: WebStack) -> tuple[str, list[str]]:
    """The real extraction of a sample lease, in review with exactly three doubtful fields
    (its three least confident numbers), first in the queue."""
    doubtful: list[str] = []

    def three_least_confident(fields: dict[str, Any]) -> list[dict[str, Any]]:
        # Numbers, each typed into one input (the test corrects the first by one).
        numbers = MONEY_FIELDS | INT_FIELDS | DECIMAL_FIELDS
        stated = [n for n, f in fields.items() if f["value"] is not None and n in numbers]
        doubtful.extend(sorted(stated, key=lambda n: fields[n]["confidence"])[:3])
        return [
            FieldProblem(
                field=n,
                problem=f"probability {fields[n]['confidence']:.2f}",
                kind=ProblemKind.LOW_PROBABILITY,
                page=fields[n]["provenance"]["page"],
            ).model_dump()
            for n in doubtful
        ]

    doc_hash = stage(
        stack, "maple_grove_retail_lease.pdf", "three-doubts", three_least_confident, priority=100
    )
    return doc_hash, doubtful


def test_a_keyboard_only_review_of_three_doubtful_fields(
    stack: WebStack, browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc_hash, doubtful = stage_three_doubts(stack)
    first, second, third = doubtful
    page = signed_in(browser, stack.url, "carol")
    page.goto("/queue")
    keys = 0

    def press(key: str, navigates: bool = False, decides: bool = False) -> None:
        nonlocal keys
        keys += 1
        if navigates:
            with page.expect_navigation():
                page.keyboard.press(key)
        elif decides:
            with decided(page):
                page.keyboard.press(key)
        else:
            page.keyboard.press(key)

    # "Claim next" has the focus (autofocus): wait until it has, or Enter may land before
    # the browser applies it and nothing is submitted (seen on a loaded machine).
    expect(page.locator("#claim-next")).to_be_focused()
    started = time.monotonic()
    press("Enter", navigates=True)
    assert doc_hash in page.url
    expect(page.locator(f"#field-{first}")).to_be_focused()
    press("e")  # edit the first doubtful field: its input has the focus, text selected
    new_value = str(int(float(page.locator(f"#field-{first} input[name=value]").input_value())) + 1)
    for char in new_value:
        press(char)
    press("Enter", decides=True)  # save
    expect(page.locator(f"#field-{first} .badge")).to_contain_text("corrected")
    expect(page.locator(f"#field-{second}")).to_be_focused()  # on to the next doubt
    page.screenshot(path=str(tmp_path / "review-item.png"))
    press("c", decides=True)  # confirm
    expect(page.locator(f"#field-{third}")).to_be_focused()
    press("c", decides=True)
    expect(page.locator("#approve")).to_be_focused()
    press("a", navigates=True)  # approve
    expect(page.locator(".flash")).to_contain_text("committed")
    seconds = time.monotonic() - started

    row = stack.pipeline.runtime.store.document(doc_hash)
    assert row is not None
    assert (row.state, row.reviewer) == ("committed", "carol")
    assert row.field_sources is not None
    assert row.field_sources[first] == "corrected"
    assert (row.field_sources[second], row.field_sources[third]) == ("confirmed", "confirmed")
    assert row.fields is not None
    assert str(row.fields[first]["value"]).split(".")[0] == new_value
    assert (tmp_path / "review-item.png").stat().st_size > 50_000
    if os.environ.get("UPDATE_DOCS_IMAGES"):
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp_path / "review-item.png", DOCS_IMAGES / "review-item.png")
    with capsys.disabled():
        print(
            f"\nkeyboard-only review of 3 doubtful fields: {seconds:.1f} s, {keys} key presses "
            f"({dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC)"
        )
    page.context.close()
