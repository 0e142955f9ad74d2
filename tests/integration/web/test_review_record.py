"""What the workspace writes into the store can be trusted (issue 20's defects), in a real
Chromium against the real stack: Confirm confirms the value shown, a rent schedule is
checked as a whole and refused cell by cell, a committed lease's page shows its decision
record, a document sent to a person for what it is needs a statement of what is committed,
and a lapsed session, an expired claim or a short hash lose nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from lease_parser.model import FieldProblem, ProblemKind
from lease_parser.store import DocumentState, ReviewQueue
from tests.integration.web.conftest import (
    WebStack,
    claim,
    decided,
    keep_screenshot,
    sign_in_as,
    signed_in,
    stage,
    tag_in_qa_sample,
)

HARBOR = "harbor_point_office_lease.pdf"


def _doubt(field: str, kind: ProblemKind, why: str, page: int | None = 1) -> dict[str, Any]:
    return FieldProblem(field=field, problem=why, kind=kind, page=page).model_dump()


def term_read_as_36(fields: dict[str, Any]) -> list[dict[str, Any]]:
    """The harbor lease with its term misread (36 for 63 months), its CAM stated but not
    read: four doubtful fields, one of them contradicting the dates."""
    fields["term_months"]["value"] = 36
    return [
        _doubt(
            "term_months",
            ProblemKind.FAILED_RELATION,
            "term of 36 months contradicts dates 2025-05-01 to 2030-07-31 (~63 months)",
        ),
        _doubt("cam_monthly", ProblemKind.STATED_NOT_READ, "the lease states CAM charges"),
        _doubt("security_deposit", ProblemKind.LOW_PROBABILITY, "probability 0.61"),
        _doubt("rent_schedule", ProblemKind.LOW_PROBABILITY, "probability 0.58"),
    ]


def edit_field(page: Page, name: str, value: str) -> None:
    card = page.locator(f"#field-{name}")
    card.locator("summary").click()
    card.locator("input[name=value]").fill(value)
    with decided(page):
        card.locator("button", has_text="Save").click()


def press_on(page: Page, name: str, key: str) -> None:
    """A decision key on a field: accepted (no refusal on the page that follows)."""
    page.click(f"#field-{name} h2")
    expect(page.locator(f"#field-{name}")).to_be_focused()
    with decided(page):
        page.keyboard.press(key)
    assert page.locator(".flash.error").count() == 0, page.locator(".flash").inner_text()


def test_what_is_confirmed_checked_and_committed_is_what_the_record_shows(
    stack: WebStack, browser: Browser
) -> None:
    doc_hash = stage(stack, HARBOR, "record", term_read_as_36)
    queue = ReviewQueue(stack.pipeline.runtime.store)
    page = signed_in(browser, stack.url, "alice")
    claim(page, doc_hash)

    # 1. Confirm confirms the value shown, a corrected one included.
    edit_field(page, "cam_monthly", "7048.80")
    cam = page.locator("#field-cam_monthly")
    expect(cam.locator(".confirm-form button")).to_have_text("Confirm (c)")
    press_on(page, "cam_monthly", "c")
    edit_field(page, "security_deposit", "50000.00")
    press_on(page, "security_deposit", "c")
    decisions = queue.item(doc_hash).decisions
    assert (decisions["cam_monthly"].kind, decisions["cam_monthly"].value) == (
        "corrected",
        "7048.80",
    )
    assert (decisions["security_deposit"].kind, decisions["security_deposit"].value) == (
        "corrected",
        "50000.00",
    )

    # 2. A schedule is checked as a whole; a refusal names the row and the cell, from 1.
    edit_field(page, "term_months", "63")
    schedule = page.locator("#field-rent_schedule")
    schedule.locator("summary").click()
    schedule.locator("input[name='step-end-1']").fill("6")  # period 2: months 13 to 6
    schedule.locator("input[name='step-monthly-2']").fill("0.01")
    with decided(page):
        schedule.locator("button", has_text="Save").click()
    schedule = page.locator("#field-rent_schedule")
    errors = schedule.locator(".error")
    expect(errors.first).to_be_visible()
    text = " ".join(errors.all_inner_texts())
    assert "Row 2, end" in text, text
    assert "Row 3, monthly rent" in text, text
    assert '"start"' not in text  # never the schedule's JSON
    expect(schedule.locator("input[name='step-end-1']")).to_have_attribute("aria-invalid", "true")
    expect(schedule.locator("input[name='step-end-1']")).to_have_value("6")  # as typed
    assert "rent_schedule" not in queue.item(doc_hash).decisions
    schedule.locator("input[name='step-end-1']").fill("24")
    schedule.locator("input[name='step-monthly-2']").fill("25527.91")
    with decided(page):
        schedule.locator("button", has_text="Save").click()
    expect(page.locator("#field-rent_schedule .badge")).to_contain_text("confirmed")

    with page.expect_navigation():
        page.click("#approve")
    expect(page.locator(".flash")).to_contain_text("committed")
    with stack.client() as api:
        record = api.get(f"/v1/documents/{doc_hash}").json()
    assert record["fields"]["term_months"]["value"] == 63
    assert record["fields"]["cam_monthly"]["value"] == "7048.80"

    # 3. The committed lease's page is its decision record, not a stale review.
    page.goto(f"/items/{doc_hash}")
    expect(page.locator(".record-head")).to_contain_text("Approved by alice")
    assert page.locator(".badge.doubt").count() == 0  # no "to check" left
    assert page.locator(".why").count() == 0  # no stale "contradicts" warning
    term = page.locator("#field-term_months")
    expect(term.locator(".badge")).to_contain_text("corrected by alice")
    expect(term.locator(".was")).to_contain_text("as read: 36")
    expect(term.locator(".value")).to_have_text("63")
    expect(term.locator(".flagged")).to_contain_text("contradicts")
    expect(page.locator("#field-landlord .badge")).to_contain_text("as read")
    expect(page.locator("#field-cam_monthly .badge")).to_contain_text("corrected by alice")
    assert page.locator(".decide").count() == 0
    page.context.close()


def amendment_as_read(fields: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        _doubt(
            "*", ProblemKind.DOCUMENT, "an amendment: it changes the terms of another lease", None
        )
    ]


def test_a_document_sent_for_what_it_is_needs_a_statement_of_what_is_committed(
    stack: WebStack, browser: Browser
) -> None:
    doc_hash = stage(stack, "harbor_point_first_amendment.pdf", "what-it-is", amendment_as_read)
    page = signed_in(browser, stack.url, "bob")
    claim(page, doc_hash)
    expect(page.locator("#approve")).to_be_focused()
    page.keyboard.press("a")  # one key press no longer commits it
    expect(page.locator("select[name=committed_as]")).to_be_focused()
    assert ReviewQueue(stack.pipeline.runtime.store).item(doc_hash).state == "review"
    csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")
    refused = page.request.post(f"/items/{doc_hash}/approve", form={"csrf_token": str(csrf)})
    assert refused.status == 422
    assert "what you are committing" in refused.text()
    page.select_option("select[name=committed_as]", "amendment")
    with page.expect_navigation():
        page.click("#approve")
    expect(page.locator(".flash")).to_contain_text("committed")
    store = stack.pipeline.runtime.store
    row = store.document(doc_hash)
    assert row is not None
    assert (row.state, row.kind) == ("committed", "amendment")
    [commit] = [e for e in store.events(doc_hash) if e.state == "committed"]
    assert commit.detail is not None
    assert commit.detail["committed_as"] == "amendment"
    page.goto(f"/items/{doc_hash}")
    expect(page.locator(".record-head")).to_contain_text("as an amendment")
    page.context.close()


def test_a_lapsed_session_keeps_the_decision_and_a_short_hash_opens_the_item(
    stack: WebStack, browser: Browser
) -> None:
    doc_hash = stage(stack, HARBOR, "lapsed", term_read_as_36)
    page = signed_in(browser, stack.url, "carol")
    page.goto(f"/items/{doc_hash[:12]}")  # the prefix the queue shows
    expect(page.locator("h1")).to_contain_text(HARBOR)
    with page.expect_navigation():
        page.click("#claim")
    page.context.clear_cookies()  # the session lapsed while the reviewer read
    with page.expect_navigation():
        page.locator("#field-security_deposit .confirm-form button").click()
    assert "/login" in page.url
    sign_in_as(page, "carol")
    assert page.url.split("?")[0].endswith(f"/items/{doc_hash}")
    kept = page.locator(".kept")
    expect(kept).to_contain_text("Confirm")
    expect(kept).to_contain_text("Security deposit")
    with page.expect_navigation():
        kept.locator("button", has_text="Save it").click()
    assert page.locator(".flash.error").count() == 0, page.locator(".flash").inner_text()
    decision = ReviewQueue(stack.pipeline.runtime.store).item(doc_hash).decisions
    assert decision["security_deposit"].reviewer == "carol"
    with page.expect_navigation():
        page.click("button:has-text('Release')")  # carol's next claim is another item
    page.context.close()


def test_a_committed_lease_is_reopened_corrected_and_checked_in_the_qa_sample(
    stack: WebStack, browser: Browser
) -> None:
    tag = tag_in_qa_sample(HARBOR, "qa")
    doc_hash = stage(stack, HARBOR, tag, state=DocumentState.COMMITTED)
    page = signed_in(browser, stack.url, "dave")
    page.goto("/qa")
    expect(page.locator("table.items")).to_contain_text(doc_hash[:12])
    with page.expect_navigation():
        page.click(f"a[href='/items/{doc_hash}'] >> nth=0")
    expect(page.locator(".record-head")).to_contain_text("Committed by the pipeline")
    expect(page.locator(".record-head .qa")).to_contain_text("In the QA sample")

    # Reopen (o), correct the tenant with a reason: recorded, and still committed once.
    page.locator("body").focus()
    with page.expect_navigation():
        page.keyboard.press("o")
    tenant = page.locator("#field-tenant")
    tenant.locator("summary").click()
    tenant.locator("input[name=value]").fill("Bluefin Analytics, Inc.")
    tenant.locator("input[name=note]").fill("the name as registered")
    with decided(page):
        tenant.locator("button", has_text="Save").click()
    expect(page.locator(".flash")).to_contain_text("Recorded")
    expect(page.locator("#field-tenant .badge")).to_contain_text("corrected by dave")
    expect(page.locator("#field-tenant .was")).to_contain_text("BLUEFIN ANALYTICS, INC.")
    # A bad value is refused next to its field, nothing changes.
    rent = page.locator("#field-base_rent_monthly")
    rent.locator("summary").click()
    rent.locator("input[name=value]").fill("lots")
    with decided(page):
        rent.locator("button", has_text="Save").click()
    expect(page.locator("#field-base_rent_monthly .error")).to_be_visible()
    store = stack.pipeline.runtime.store
    row = store.document(doc_hash)
    assert row is not None
    assert (row.state, row.source) == ("committed", "review")  # calibration reads it now
    assert row.corrections == {
        "tenant": {"from": "BLUEFIN ANALYTICS, INC.", "to": "Bluefin Analytics, Inc."}
    }
    assert store.commit_events(doc_hash) == 1

    # The second look is done (q): it counts in the measured precision.
    page.goto(f"/items/{doc_hash}")
    page.locator("body").focus()
    with page.expect_navigation():
        page.keyboard.press("q")
    expect(page.locator("#qa-measured")).to_contain_text("right as auto-committed")
    assert page.locator(f"table.items a[href='/items/{doc_hash}']").count() == 0
    [check] = [e for e in store.events(doc_hash) if e.reason == "qa_checked"]
    assert check.detail == {"corrected": ["tenant"], "values": check.detail["values"]}
    page.context.close()


RIVAL = "also stated as '24784.38' (rent table)"


def rent_with_a_rival(fields: dict[str, Any]) -> list[dict[str, Any]]:
    """The monthly rent, with the rent table's second-year figure as a rival statement."""
    fields["base_rent_monthly"]["doubts"] = {"rival_value": RIVAL}
    for name, probability in (("base_rent_monthly", 0.62), ("security_deposit", 0.61)):
        fields[name]["confidence"] = probability
    fields["lease_date"]["confidence"] = 0.64
    return [
        _doubt("base_rent_monthly", ProblemKind.RIVAL_VALUE, RIVAL),
        _doubt(
            "base_rent_monthly",
            ProblemKind.LOW_PROBABILITY,
            f"probability 0.62 that it is right: checked by: annual; {RIVAL}",
        ),
        _doubt("security_deposit", ProblemKind.LOW_PROBABILITY, "probability 0.61"),
        _doubt("lease_date", ProblemKind.LOW_PROBABILITY, "probability 0.64"),
    ]


def test_a_rival_is_boxed_on_its_page_and_the_item_reads_comfortably(
    stack: WebStack, browser: Browser, tmp_path: Path
) -> None:
    doc_hash = stage(stack, HARBOR, "rival", rent_with_a_rival)
    page = signed_in(browser, stack.url, "bob", viewport=(1280, 800))
    claim(page, doc_hash)
    page.wait_for_function("document.querySelector('#page-1 img').naturalWidth > 0")
    rent = page.locator("#field-base_rent_monthly")
    expect(rent.locator(".value")).to_have_text("$24,062.50")  # in the lease's currency
    rival = rent.locator(".why.rival")
    expect(rival).to_contain_text("also stated as $24,784.38 on page")
    # Each fact once: the low probability's reason does not repeat the rival.
    reasons = " ".join(rent.locator(".why").all_inner_texts())
    assert reasons.count("24784.38") + reasons.count("24,784.38") == 1, reasons
    page.click("#field-base_rent_monthly h2")
    page.keyboard.press("v")
    box = page.locator(".hl-box.rival").first
    expect(box).to_be_visible()
    figure = box.locator("xpath=..")
    inside, outside = figure.bounding_box(), box.bounding_box()
    assert inside is not None
    assert outside is not None
    assert inside["y"] <= outside["y"] <= inside["y"] + inside["height"]
    assert outside["width"] > 20
    page.screenshot(path=str(tmp_path / "review-rival.png"))

    # Errors in words next to the field; dates and amounts typed as people type them.
    deposit = page.locator("#field-security_deposit")
    deposit.locator("summary").click()
    deposit.locator("input[name=value]").fill("-5")
    with decided(page):
        deposit.locator("button", has_text="Save").click()
    error = page.locator("#field-security_deposit .error")
    expect(error).to_have_text("an amount cannot be negative: use a number like 7048.80")
    page.locator("#field-security_deposit input[name=value]").fill("$48,125.00")
    with decided(page):
        page.locator("#field-security_deposit button", has_text="Save").click()
    expect(page.locator("#field-security_deposit .badge")).to_contain_text("confirmed")
    lease_date = page.locator("#field-lease_date")
    lease_date.locator("summary").click()
    expect(lease_date.locator("input[name=value]")).to_have_attribute(
        "placeholder", re.compile("02/28/2026")
    )
    lease_date.locator("input[name=value]").fill("03/03/2025")
    with decided(page):
        lease_date.locator("button", has_text="Save").click()
    expect(page.locator("#field-lease_date .badge")).to_contain_text("confirmed")

    # Zoom and keyboard scrolling of the page images.
    page.locator("body").focus()
    width = page.locator("#page-1").bounding_box()
    assert width is not None
    page.keyboard.press("+")
    page.keyboard.press("+")
    expect(page.locator("[data-zoom-level]")).to_have_text("150%")
    wider = page.locator("#page-1").bounding_box()
    assert wider is not None
    assert wider["width"] > 1.4 * width["width"]
    before = page.evaluate("document.querySelector('section.document').scrollTop")
    page.keyboard.press("PageDown")
    expect(page.locator("section.document")).not_to_have_js_property("scrollTop", before)
    page.keyboard.press("0")

    # 800 px: the document above the fields, nothing wider than the window.
    page.set_viewport_size({"width": 800, "height": 900})
    document_box = page.locator("section.document").bounding_box()
    fields_box = page.locator("section.fields").bounding_box()
    assert document_box is not None
    assert fields_box is not None
    assert fields_box["y"] >= document_box["y"] + document_box["height"] - 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 800
    keep_screenshot(tmp_path / "review-rival.png")
    page.context.close()
