"""The workspace for a whole portfolio, in a real Chromium against the real stack: 600+
documents searched, filtered, sorted and paged past 500; the queue paged past its first
page; a lease's history with its amendment, decisions, audit trail and critical dates."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from lease_parser.errors import Reason
from lease_parser.model import FieldProblem, ProblemKind
from lease_parser.store import (
    DocumentRow,
    DocumentState,
    EventRow,
    Revisions,
    Store,
    link_by_reviewer,
)
from tests.integration.web.conftest import WebStack, keep_screenshot, signed_in, stage
from tests.store_helpers import VALID_VALUES, fields_json

LEASES = 560  # committed, beyond the 500 the queue once stopped at
IN_REVIEW = 130  # more than one page of the queue
TODAY = dt.date.today()


def lease_values(n: int) -> dict[str, Any]:
    """Lease n of a made-up portfolio: every tenth in pounds, expirations a month apart."""
    expiration = dt.date(TODAY.year, TODAY.month, 1) + dt.timedelta(days=31 * (n % 120))
    values = {
        **VALID_VALUES,
        "tenant": f"Tenant {n:04} LLC",
        "landlord": "Harbor Point Owner LLC" if n % 2 else "Elm Street Properties LP",
        "premises_address": f"{100 + n} Market Street, Suite {n % 9 + 1}00, Springfield",
        "base_rent_monthly": f"{5000 + 37 * n}.00",
        "expiration_date": expiration.replace(day=1).isoformat(),
        "currency": "GBP" if n % 10 == 0 else "USD",
    }
    for name in ("rent_schedule", "base_rent_annual", "term_months", "commencement_date"):
        values.pop(name)
    if n == 10:
        values["base_rent_monthly"] = "88116.00"
    return values


def fill_portfolio(store: Store) -> None:
    """The rows (and the pipeline's commit events) the workers would have written, in one
    transaction: register-and-finish one by one takes 20 ms a document on a busy machine."""
    now = dt.datetime.now(dt.UTC)
    with store.session() as s:
        for n in range(LEASES + IN_REVIEW):
            committed = n < LEASES
            state = DocumentState.COMMITTED if committed else DocumentState.REVIEW
            doc_hash = hashlib.sha256(f"portfolio lease {n}".encode()).hexdigest()
            s.add(
                DocumentRow(
                    doc_hash=doc_hash,
                    doc_key=f"portfolio/lease-{n:04}.pdf",
                    state=state,
                    reason=None if committed else Reason.LOW_CONFIDENCE,
                    kind="lease",
                    confidence=0.97 if committed else 0.6,
                    fields=fields_json(lease_values(n), 0.97 if committed else 0.6),
                    problems=[] if committed else [PROBLEM],
                    pages=3,
                    source="auto" if committed else None,
                    finished_at=now,
                    state_changed_at=now,
                )
            )
            s.add(EventRow(doc_hash=doc_hash, state=state, actor="pipeline", at=now))


PROBLEM = FieldProblem(
    field="base_rent_monthly", problem="probability 0.60", kind=ProblemKind.LOW_PROBABILITY
).model_dump()


def cells(page: Page, column: int) -> list[str]:
    return page.locator(f"table.portfolio-table tbody tr td:nth-child({column})").all_inner_texts()


def test_a_portfolio_is_searched_filtered_sorted_and_paged_past_500(
    stack: WebStack, browser: Browser, tmp_path: Path
) -> None:
    store = stack.pipeline.runtime.store
    fill_portfolio(store)
    page = signed_in(browser, stack.url, "alice", viewport=(1280, 800))
    page.goto("/portfolio?state=committed&sort=document&dir=asc")
    total = int(page.locator("h1 small").inner_text().split()[0])
    assert total >= LEASES
    expect(page.locator("table.portfolio-table tbody tr")).to_have_count(100)
    for _ in range(5):  # page 6 holds leases 500 to 559
        with page.expect_navigation():
            page.click("#next-page")
    expect(page.locator(".pager")).to_contain_text("page 6")
    documents = cells(page, 1)
    assert any("lease-0555.pdf" in d for d in documents), documents[:3]

    # Search and filters; money in the lease's currency.
    page.goto("/portfolio?q=tenant+0010")
    expect(page.locator("table.portfolio-table tbody tr")).to_have_count(1)
    assert cells(page, 5) == ["£88,116.00"]
    page.goto("/portfolio")
    page.fill("input[name=currency]", "gbp")
    page.check("input[name=state][value=committed]")
    with page.expect_navigation():
        page.click("form.filters button[type=submit]")
    assert page.locator("h1 small").inner_text().startswith(f"{LEASES // 10} ")
    assert all(c.startswith("£") for c in cells(page, 5))
    page.goto("/portfolio?state=committed&landlord=elm+street&expiring=6&q=portfolio/")
    expiring = [
        n
        for n in range(0, LEASES, 2)
        if TODAY.isoformat() <= lease_values(n)["expiration_date"] <= _months(6)
    ]
    assert page.locator("h1 small").inner_text().startswith(f"{len(expiring)} ")
    page.fill("input[name=expiring]", "soon")
    with page.expect_navigation():
        page.click("form.filters button[type=submit]")
    expect(page.locator("#expiring-error")).to_contain_text("a whole number of months")
    expect(page.locator("input[name=expiring]")).to_have_attribute("aria-invalid", "true")

    # Sortable columns: rent up, then down.
    page.goto("/portfolio?q=portfolio/&state=committed")
    with page.expect_navigation():
        page.click("th a:has-text('Monthly rent')")
    assert cells(page, 5)[0] == "£5,000.00"  # lease 0, in pounds
    with page.expect_navigation():
        page.click("th a:has-text('Monthly rent')")
    assert cells(page, 5)[0] == "£88,116.00"
    expect(page.locator("th[aria-sort=descending]")).to_contain_text("Monthly rent")
    page.goto("/portfolio?q=tenant+00&state=committed&sort=tenant")
    page.screenshot(path=str(tmp_path / "portfolio.png"))

    # The queue is paged too: nothing beyond its first page is lost.
    page.goto("/queue")
    queued = int(page.locator("h1 small").inner_text().split()[0])
    assert queued >= IN_REVIEW
    with page.expect_navigation():
        page.click("#next-page")
    expect(page.locator("table.items tbody tr").first).to_be_visible()
    expect(page.locator(".pager")).to_contain_text(f"of {queued}")
    keep_screenshot(tmp_path / "portfolio.png")
    page.context.close()


def _months(n: int) -> str:
    from lease_parser.schedule_checks import add_months

    return add_months(TODAY, n).isoformat()


def test_a_leases_history_shows_its_versions_amendment_decisions_trail_and_dates(
    stack: WebStack, browser: Browser, tmp_path: Path
) -> None:
    store = stack.pipeline.runtime.store
    lease = stage(stack, "harbor_point_office_lease.pdf", "history", state=DocumentState.COMMITTED)
    amendment = stage(
        stack, "harbor_point_first_amendment.pdf", "history", state=DocumentState.COMMITTED
    )
    link_by_reviewer(store, amendment, lease, "bob")
    Revisions(store).revise(lease, "bob", {"security_deposit": "50000.00"}, note="per the rider")
    page = signed_in(browser, stack.url, "bob", viewport=(1280, 800), timezone="America/New_York")
    page.goto(f"/items/{lease}")
    with page.expect_navigation():
        page.click("a:has-text('History')")
    expect(page.locator("#versions")).to_contain_text("(this one)")
    expect(page.locator("#amendments")).to_contain_text("applied")
    expect(page.locator("#critical-dates")).to_contain_text("2035")  # extended by it
    trail = page.locator("#audit-trail")
    expect(trail).to_contain_text("corrected after the commit by bob")
    expect(trail).to_contain_text("Security deposit: 48125.00 → 50000.00")
    expect(trail).to_contain_text("“per the rider”")
    expect(trail.locator("time .local").first).to_contain_text("your time")  # beside UTC
    expect(page.locator("section.history")).to_contain_text("Reviewers' decisions")
    page.goto(f"/items/{amendment}/history")
    expect(page.locator("#amends")).to_contain_text("harbor_point_office_lease.pdf")
    page.goto(f"/items/{lease}/history")
    page.screenshot(path=str(tmp_path / "lease-history.png"), full_page=True)
    keep_screenshot(tmp_path / "lease-history.png")
    page.context.close()
